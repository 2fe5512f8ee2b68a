"""Determinization (ruling G51): what a sample redraws and what it keeps. The same checks run
over random games of every variant in ``tests/test_determinize.py`` (``hidden_check.py``)."""

from __future__ import annotations

import random

from games.contract import GameConfig
from games.gnomeville import GAME, GnomevilleState
from games.gnomeville.hidden import PUBLIC, _redraw_piles, determinize
from games.gnomeville.rulings import ruling
from tests.gnomeville.helpers import choose, kind, new_state, play_random, town
from tests.gnomeville.hidden_check import gnomeville_check, gnomeville_rebuild


def _played(players: int, seed: int, answers: int) -> GnomevilleState:
    g = GAME.new(GameConfig(players, "standard"), seed)
    rng = random.Random(seed)
    for _ in range(answers):
        pending = g.pending()
        if not pending:
            break
        d = pending[0]
        g.apply(d.seat, rng.randrange(len(d.options)))
    return g


def test_g51_decks_events_and_bag_streams_are_redrawn_and_the_view_kept() -> None:
    assert "redraws what a seat cannot know" in ruling("G51")
    g = _played(3, seed=4, answers=40)
    before = g.canonical()
    samples = [determinize(g, 1, seed) for seed in range(6)]
    assert g.canonical() == before
    for sample in samples:
        gnomeville_check(g, sample, 1)
        assert sample.observe(1) == g.observe(1)
    again = determinize(g, 1, 3)
    assert again.canonical() == samples[3].canonical()
    assert len({tuple(s.troll_deck) for s in samples}) > 1
    assert len({tuple(s.delivery_deck) for s in samples}) > 1
    assert len({tuple(s.events[s.events_up :]) for s in samples}) > 1
    assert len({s.towns[0].rng.random() for s in samples}) == 6


def test_g51_what_the_others_did_since_the_barrier_is_not_in_the_sample() -> None:
    g = new_state(2, seed=2)
    t0 = town(g, 0)
    bag_before = list(t0.bag)
    choose(g, "draw", 0)  # seat 0 draws: held from seat 1 until the barrier
    assert t0.drawn != -1
    sample = determinize(g, 1, 7)
    assert sample.towns[0].drawn == -1 and sample.towns[0].bag == bag_before
    assert kind(sample, 0) == "build.draw"
    assert [answer for answer in sample.history] == []
    own = determinize(g, 0, 7)  # the seat's own progress stays
    assert own.towns[0].drawn == t0.drawn and kind(own, 0) == kind(g, 0)
    gnomeville_check(g, sample, 1)


def test_g51_a_sample_plays_on_to_the_end() -> None:
    g = _played(4, seed=9, answers=60)
    for seat in range(4):
        sample = determinize(g, seat, seat)
        play_random(sample, random.Random(seat))
        assert sample.outcome() is not None and g.outcome() is None


def test_g51_a_pile_knows_which_cards_went_under_and_who_saw_them() -> None:
    """Cards leave a pile from the top and go under at the bottom: a put-back card is known to
    its owner alone, one every seat saw go under (``PUBLIC``: a rebuilt view marks its known
    cards so) to everybody."""
    g = new_state(2, seed=1)
    own = town(g, 0)
    assert own.pile_seen == [] and own.pile_known(0) == () and own.pile_known(None) == ()
    kept, back = own.take_from_pile(2)
    own.put_under_pile(back, 0)  # kept ``kept``, put ``back`` back (academy)
    size = len(own.ability_pile)
    assert own.pile_known(0) == ((size - 1, back),)
    assert own.pile_known(1) == () and own.pile_known(None) == ()
    own.put_under_pile(kept, PUBLIC)  # seen by everybody
    assert own.pile_known(1) == own.pile_known(None) == ((size, kept),)
    assert own.pile_known(0) == ((size - 1, back), (size, kept))
    own.take_from_pile(size - 1)  # the dealt cards are drawn: the known ones come up to the top
    assert own.pile_known(0) == ((0, back), (1, kept)) and own.pile_seen == [0, PUBLIC]
    own.take_from_pile(1)
    assert own.pile_known(0) == ((0, kept),) and own.pile_seen == [PUBLIC]
    # The views show the same: the owner sees both, the others and spectators the public one.
    g._take_snapshot()
    ids = [a.id for a in g.pack.abilities]
    assert g.observe(1).towns[0].pile_known == ((0, ids[kept]),)
    assert g.observe(None).towns[0].pile_known == ((0, ids[kept]),)
    assert g.observe(0).towns[0].pile == len(own.ability_pile) == g.observe(0).ability_pile


def test_g51_known_pile_cards_stay_and_the_rest_is_redrawn_without_duplicates() -> None:
    g = new_state(2, seed=1)
    own, other = town(g, 0), town(g, 1)
    own.put_under_pile(own.take_from_pile(1)[0], 0)
    other.put_under_pile(other.take_from_pile(1)[0], PUBLIC)
    own_pile, other_pile = list(own.ability_pile), list(other.ability_pile)
    _redraw_piles(g, 0, random.Random(3))
    assert own.ability_pile[-1] == own_pile[-1] and other.ability_pile[-1] == other_pile[-1]
    cards = own.ability_pile + other.ability_pile
    assert len(cards) == len(set(cards)) == len(own_pile) + len(other_pile)
    assert cards != own_pile + other_pile
    _redraw_piles(g, 1, random.Random(3))  # seat 0's own put-back: unknown to seat 1
    assert other.ability_pile[-1] == other_pile[-1]
    assert len(set(own.ability_pile + other.ability_pile)) == len(cards)


def test_the_view_rebuilds_the_same_sample_in_every_round() -> None:
    """A seat's view holds all it knows: a position rebuilt from it alone gives the sample the
    real game gives (after the round-1 draws, and later, with cards used and tiles set aside)."""
    g = new_state(2, seed=5)
    choose(g, "draw", 0)
    view = g.observe(1)
    rebuilt = gnomeville_rebuild(view, 11)
    assert rebuilt is not None and rebuilt.observe(1) == view
    assert determinize(rebuilt, 1, 4).canonical() == determinize(g, 1, 4).canonical()
    g = _played(2, seed=5, answers=40)
    assert g.round > 1 and g.observe(0).troll_cards and any(g.towns[0].set_aside)
    for seat in range(2):
        view = g.observe(seat)
        rebuilt = gnomeville_rebuild(view, 1)
        assert rebuilt is not None and rebuilt.observe(seat) == view
        sample = determinize(g, seat, 4)
        assert determinize(rebuilt, seat, 4).canonical() == sample.canonical()


def test_determinize_after_play_from_a_position_set_up_by_hand() -> None:
    """A position edited by hand, then played on, has a record that does not replay: the
    sample keeps every seat where it is instead of failing."""
    from tests.gnomeville.helpers import bag, start_move

    g = new_state(2, seed=3)
    bag(town(g, 0), market=2)
    start_move(g, 3)  # movement the dealt game never gave: 4+ options where it had 2
    d = next(d for d in g.pending() if d.seat == 0)
    assert d.kind == "move.step" and len(d.options) > 2
    g.apply(0, len(d.options) - 1)  # out of range in the dealt game's draw decision
    sample = g.determinize(0, 7)
    assert sample.observe(0) == g.observe(0)
