"""Fair determinization, for every registered game (docs/engine.md, `state.determinize`).

A search bot plans on ``state.determinize(seat, seed)``: a copy in which what the seat cannot
know is drawn again. That is fair only if

(a) the seat's whole view of the copy is its view of the real game,
(b) its own pending decisions are unchanged,
(c) the copy is a legal position: every option due can be taken, and random play from it
    reaches the end of the game,
(d) the redrawn things come from exactly what the view allows (a per-game hook, ``HIDDEN``),
and it does not leak: samples for different seeds differ in the hidden part at least
sometimes (a copy of the truth would not), the real game is left untouched, and a sample
depends on the seat's view alone (the same sample from a position rebuilt from that view).

Every variant and player count of every game in ``games.games()`` is played at random from
seeded games, and the checks run at about ``POINTS_PER_GAME`` decisions of each game for every
seat; a game added to the registry is covered by (a)-(c) at once and asked for its hook. The
default depth plays a fifth of the Root and Gnomeville games ``--slow`` (CI) plays
and a third of the Rumble Nation ones, with the same checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from games import Game, GameConfig, GameState, games
from games.root.cards import CARD_BY_ID, standard_deck
from games.root.state import RootState
from games.rumble_nation.state import DRAFT, RumbleNationState
from tests.conftest import Depth
from tests.gnomeville.hidden_check import (
    gnomeville_check,
    gnomeville_rebuild,
    gnomeville_secret,
)

#: Random games played per configuration, (fast, --slow), and decisions checked per game (about).
GAMES = {"rumble-nation": (10, 30), "root": (3, 16)}
DEFAULT_GAMES = (2, 10)
POINTS_PER_GAME = 10
#: Every this many checked points, one seat's sample is played on to the end of the game.
PLAY_ON_EVERY = 4
#: A random game (or a played-on sample) longer than this is a bug.
LIMIT = 50_000


@dataclass(frozen=True)
class Hidden:
    """What one game hides from a seat.

    ``check(real, sample, seat)`` asserts that the sample redraws only what the seat's view
    allows; ``secret(state, seat)`` is the part that is redrawn (compared between samples);
    ``rebuild(view, seed)`` makes a playable state from a seat's view (None where the game
    cannot), for the check that a sample depends on the view alone.
    """

    check: Callable[[Any, Any, int], None]
    secret: Callable[[Any, int], Hashable]
    rebuild: Callable[[Any, int], GameState | None]


# ---------------------------------------------------------------------- Rumble Nation


def _rn_seen(real: RumbleNationState, seat: int) -> set[str] | None:
    """The display cards ``seat`` saw offered: at its pick, or now while it picks (R3)."""
    if real.daimyo_card[seat] is not None:
        return set(real.daimyo_seen[seat])
    if real.phase == DRAFT and real.pending() and real.pending()[0].seat == seat:
        return {option.value[1] for option in real.pending()[0].options}
    return None


def rumble_nation_check(real: RumbleNationState, sample: RumbleNationState, seat: int) -> None:
    """R3: opponents' unrevealed daimyo cards are display cards, distinct, never the seat's
    own; earlier pickers hold the display cards the seat was not offered, later pickers cards
    it left. The draft remainder and the decision due agree with the sampled cards."""
    display = set(real.daimyo_display)
    held = [c for c in sample.daimyo_card if c is not None]
    assert len(held) == len(set(held)), f"a daimyo card twice: {sample.daimyo_card}"
    seen = _rn_seen(real, seat)
    order = real.draft_order
    for p in range(real.n):
        card = sample.daimyo_card[p]
        if p == seat or real.daimyo_revealed[p] or real.daimyo_card[p] is None:
            assert card == real.daimyo_card[p], "a known (or absent) daimyo card changed"
            continue
        assert card in display, f"seat {p} got {card}, never on the display {sorted(display)}"
        assert card != real.daimyo_card[seat]
        if seen is not None and order.index(p) < order.index(seat):
            assert card in display - seen, f"seat {p} picked before {seat}: {card} was left"
        if seen is not None and order.index(p) > order.index(seat):
            assert card in seen, f"seat {p} picked after {seat}: {card} was taken before"
    if sample.phase == DRAFT:
        assert Counter(held) + Counter(sample.draft_remaining) == Counter(display)
    for decision in sample.pending():
        for option in decision.options:
            if decision.kind == "turn" and option.value[0] == "daimyo":
                assert option.value[1] == sample.daimyo_card[decision.seat], "a stale card"
        if decision.kind == "daimyo_draft":
            assert [o.value[1] for o in decision.options] == sample.draft_remaining


def rumble_nation_secret(state: RumbleNationState, seat: int) -> Hashable:
    """The other seats' unrevealed daimyo cards (empty: nothing hidden from ``seat``)."""
    return tuple(
        card
        for p, card in enumerate(state.daimyo_card)
        if p != seat and card is not None and not state.daimyo_revealed[p]
    )


def rumble_nation_rebuild(view: Any, seed: int) -> GameState | None:
    """``from_view`` works from a view after the draft (the draft is not rebuilt)."""
    return None if view.phase == DRAFT else RumbleNationState.from_view(view, seed)


# ---------------------------------------------------------------------- Root


def _root_public_cards(state: RootState) -> Counter[str]:
    """Cards face up: the discard pile, crafted cards, the Decree (Viziers are not cards), the
    available and the activated dominance cards."""
    found = Counter(state.discard) + Counter(state.available)
    for p in state.players:
        found += Counter(p.crafted)
        if p.dominance is not None:
            found[p.dominance] += 1
        for name, column in p.board.public().items():
            if name.startswith("decree_"):
                found += Counter(c for c in column if c in CARD_BY_ID)
    return found


def _root_named(view: Any) -> set[str]:
    """Cards the view names in a step in progress (a played ambush, a card waiting for its
    Decree column): the seat knows where they are."""
    found = set()
    for step in view.active:
        for _name, value in step.fields:
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, str) and item in CARD_BY_ID:
                    found.add(item)
    return found


def root_check(real: RootState, sample: RootState, seat: int) -> None:
    """RT6: the other hands keep their sizes and the cards a step in progress names (a played
    ambush), the Alliance's face-down supporters their number (the seat's own: their cards);
    hands + supporters + deck + what is face up are exactly the deck; nothing visible moved."""
    assert sample.players[seat].hand == real.players[seat].hand
    mine = sample.players[seat].board.hidden_cards()
    assert sorted(mine) == sorted(real.players[seat].board.hidden_cards())
    assert _root_public_cards(sample) == _root_public_cards(real), "a face-up card moved"
    named = _root_named(real.observe(seat))
    places = Counter(sample.deck) + _root_public_cards(sample)
    for p, q in zip(real.players, sample.players, strict=True):
        assert len(q.hand) == len(p.hand), f"seat {p.seat}'s hand size changed"
        assert set(p.hand) & named <= set(q.hand), "a card the seat saw played left the hand"
        places += Counter(q.hand)
        hidden = q.board.hidden_cards()
        assert len(hidden) == len(p.board.hidden_cards()), f"seat {p.seat}'s supporters"
        places += Counter(hidden)
    assert places == Counter(c.id for c in standard_deck(real.n)), "not the deck"


def root_secret(state: RootState, seat: int) -> Hashable:
    """The other hands and supporters (as sets) and the deck's order."""
    hands = tuple(
        (tuple(sorted(p.hand)), tuple(sorted(p.board.hidden_cards())))
        for p in state.players
        if p.seat != seat
    )
    return hands, tuple(state.deck)


def root_rebuild(view: Any, seed: int) -> GameState | None:
    return RootState.from_view(view, seed)


HIDDEN: dict[str, Hidden] = {
    "rumble-nation": Hidden(rumble_nation_check, rumble_nation_secret, rumble_nation_rebuild),
    "root": Hidden(root_check, root_secret, root_rebuild),
    "gnomeville": Hidden(gnomeville_check, gnomeville_secret, gnomeville_rebuild),
}


def _not_yet(name: str, players: int) -> list[pytest.MarkDecorator]:
    """A skip while a player count cannot be set up yet (Root's 3 players need the Alliance)."""
    if name == "root":
        from games.root.lineup import unavailable

        why = unavailable(players)
        if why is not None:
            return [pytest.mark.skip(reason=why)]
    return []


CONFIGS = [
    pytest.param(
        name, variant, players, id=f"{name}-{variant}-{players}", marks=_not_yet(name, players)
    )
    for name, game in sorted(games().items())
    for variant in game.variants
    for players in game.player_counts
]


# ---------------------------------------------------------------------- playing


def play_on(state: GameState, rng: random.Random) -> GameState:
    """Random play to the end of the game (AssertionError if it does not end)."""
    for _ in range(LIMIT):
        pending = state.pending()
        if not pending:
            return state
        decision = pending[0]
        state.apply(decision.seat, rng.randrange(len(decision.options)))
    raise AssertionError(f"no end after {LIMIT} decisions")


def checked_points(game: Game, config: GameConfig, depth: Depth) -> Iterator[tuple[int, GameState]]:
    """(number, state) at about ``POINTS_PER_GAME`` decisions of each seeded random game; the
    stride comes from the length of the first game, so long and short games cost alike."""
    stride = 0
    number = 0
    fast, slow = GAMES.get(game.name, DEFAULT_GAMES)
    for seed in range(depth(fast, slow)):
        state = game.new(config, seed)
        rng = random.Random(seed)
        taken = 0
        while state.pending():
            if stride and taken % stride == seed % stride:
                yield number, state
                number += 1
            decision = state.pending()[0]
            state.apply(decision.seat, rng.randrange(len(decision.options)))
            taken += 1
            assert taken < LIMIT, f"seed {seed} does not end"
        if not stride:  # the first game only measures the length
            stride = max(1, taken // POINTS_PER_GAME)


def every_option_applies(state: GameState) -> None:
    """(c) Each option due can be taken: none names something the sample no longer has."""
    for decision in state.pending():
        for index in range(len(decision.options)):
            state.clone().apply(decision.seat, index)


def pending_of(state: GameState, seat: int) -> tuple[Any, ...]:
    return tuple(d for d in state.pending() if d.seat == seat)


# ---------------------------------------------------------------------- the tests


def test_every_game_says_what_it_hides() -> None:
    """A new game gets (a)-(c) from the registry at once; (d) needs its entry in HIDDEN."""
    assert set(games()) <= set(HIDDEN), f"add a Hidden entry for {set(games()) - set(HIDDEN)}"


@pytest.mark.parametrize(("name", "variant", "players"), CONFIGS)
def test_samples_are_consistent_with_the_seats_view(
    name: str, variant: str, players: int, depth: Depth
) -> None:
    """(a)-(d) for every seat at every checked point, determinism, the real game untouched,
    and samples that redraw the hidden part (a copy of the truth fails here)."""
    game = games()[name]
    hidden = HIDDEN.get(name)
    config = GameConfig(players, variant)
    secrets = 0  # (seat, point) pairs with anything hidden from the seat
    redrawn = 0  # ... where a sample's hidden part is not the real one
    varied = 0  # ... where two seeds gave different hidden parts
    for number, state in checked_points(game, config, depth):
        before = state.canonical()
        for seat in range(players):
            view, asked = state.observe(seat), pending_of(state, seat)
            seed = 7919 * number + seat
            sample = state.determinize(seat, seed)
            assert sample.observe(seat) == view, f"(a) seat {seat}'s view changed"
            assert pending_of(sample, seat) == asked, f"(b) seat {seat}'s decisions changed"
            every_option_applies(sample)
            again = state.determinize(seat, seed)
            assert again.canonical() == sample.canonical(), (
                "not deterministic in (state, seat, seed)"
            )
            if hidden is not None:
                hidden.check(state, sample, seat)
                truth, mine = hidden.secret(state, seat), hidden.secret(sample, seat)
                other = hidden.secret(state.determinize(seat, seed + 1), seat)
                if truth:  # the seat misses something
                    secrets += 1
                    redrawn += mine != truth
                    varied += mine != other
            if (number + seat) % PLAY_ON_EVERY == 0:
                play_on(sample, random.Random(seed))
                assert sample.outcome() is not None
        assert state.canonical() == before, "determinize changed the real game"
    if secrets:
        # A determinize that copies the truth redraws nothing; a fair one redraws often.
        assert redrawn > secrets // 10, f"only {redrawn} of {secrets} samples differ from the truth"
        assert varied > secrets // 10, f"only {varied} of {secrets} pairs of samples differ"


@pytest.mark.parametrize(("name", "variant", "players"), CONFIGS)
def test_samples_depend_on_the_seats_view_alone(
    name: str, variant: str, players: int, depth: Depth
) -> None:
    """The same seed gives the same sample from the real game and from a position rebuilt from
    the seat's view: nothing the seat cannot see reaches the sample. The rebuilt position is
    itself a sample (a)-(d)."""
    hidden = HIDDEN.get(name)
    if hidden is None:
        pytest.skip(f"{name} has no Hidden entry")
    rebuilt_points = 0
    for number, state in checked_points(games()[name], GameConfig(players, variant), depth):
        if number % 2:
            continue
        seat = number // 2 % players
        view = state.observe(seat)
        rebuilt = hidden.rebuild(view, number)
        if rebuilt is None:
            continue
        rebuilt_points += 1
        assert rebuilt.observe(seat) == view, "(a) the rebuilt position shows another view"
        assert pending_of(rebuilt, seat) == pending_of(state, seat), "(b) other decisions"
        hidden.check(state, rebuilt, seat)
        every_option_applies(rebuilt)
        sample = state.determinize(seat, number)
        assert rebuilt.determinize(seat, number).canonical() == sample.canonical()
    assert rebuilt_points, "no position was rebuilt"
