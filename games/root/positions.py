"""Hand-built Root positions: for rule tests, and for the conformance kit, which starts matches
from them so that a bot meets rare decisions (ambushes, field hospitals, card effects...).

A position is a normal one-game contest on the Autumn map (suits printed, so clearings have
fixed suits), with setup finished by the engine, then the woodland emptied (ruins kept) and
filled as asked. Seat 0 plays the Marquise and seat 1 the Eyrie unless the seed dealt them
otherwise; ``position`` forces that order so tests can name seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.contract import GameConfig, Option
from games.root.game import GAME
from games.root.invariants import check_invariants
from games.root.maps import CLEARING_IDS
from games.root.marquise import MarquiseBoard
from games.root.players import Player
from games.root.state import RootState
from games.root.steps import Options, Step
from games.root.tracks import MARQUISE_WOOD_TOKENS
from games.root.woodland import EYRIE, KEEP, MARQUISE, WOOD, Woodland

MARQUISE_SEAT, EYRIE_SEAT = 0, 1


def _forced_seed(board: str) -> int:
    """A seed whose game 1 deals the Marquise to seat 0 (searched once, deterministic)."""
    for seed in range(100):
        state = GAME.new(GameConfig(2, board, {"games": 1}), seed)
        if state.players[0].faction == MARQUISE:
            return seed
    raise AssertionError("no seed deals the Marquise to seat 0")


def after_setup(board: str = "autumn", seed: int | None = None) -> RootState:
    """A one-game contest with the Marquise at seat 0, setup done by always choosing the first
    option, stopped at the first decision of the first turn."""
    g = GAME.new(GameConfig(2, board, {"games": 1}), _forced_seed(board) if seed is None else seed)
    while g.pending() and g.turns == 0:
        d = g.pending()[0]
        g.apply(d.seat, 0)
    return g


def position(
    *,
    warriors: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    tokens: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    hands: Mapping[str, tuple[str, ...]] | None = None,
    crafted: Mapping[str, tuple[str, ...]] | None = None,
    vp: Mapping[str, int] | None = None,
    current: str = MARQUISE,
    step: Step | None = None,
    hold: bool = False,
) -> RootState:
    """A position after setup: ``warriors[c][faction]``, ``buildings[c] = ((faction, kind),
    ...)``, ``tokens`` likewise; ``hands``/``crafted``/``vp`` by faction (hands not given keep
    what setup dealt). With ``step``, the stack is that one step (e.g. a Battle) and the game
    settles on its first decision; otherwise the current faction's turn starts. With ``hold``,
    a ``Hold`` step waits under ``step``: play stops there instead of going on to a turn, so
    tests can look at the position the step left.

    The Marquise's board follows the pieces placed (her keep is where its token is, her supply
    holds the wood not on the map), and the position must pass ``check_invariants`` like every
    position of a real game (AssertionError otherwise: e.g. nine wood tokens)."""
    g = after_setup()
    _place_pieces(g, warriors, buildings, tokens)
    for faction, cards in (hands or {}).items():
        player = _player(g, faction)
        g.deck.extend(player.hand)
        player.hand = []
        for card_id in cards:
            _take(g, card_id)
        player.hand = list(cards)
    for faction, cards in (crafted or {}).items():
        player = _player(g, faction)
        for card_id in cards:
            _take(g, card_id)
        player.crafted = list(cards)
    for faction, score in (vp or {}).items():
        _player(g, faction).vp = score
    g.current = g.seat_of[current]
    check_invariants(g)  # a prepared position holds only what a real game can
    if hold:
        g.stack = [Hold(g.current)]
        if step is not None:
            g.push(step)
        g.resume()
    else:
        g.begin(step)
    return g


class Hold(Step):
    """A decision that changes nothing (two options, so it is asked): where a test position
    stops once the step under test is done."""

    __slots__ = ()
    name = "hold"

    def advance(self, g: RootState) -> Options:
        return _HOLD

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        pass


_HOLD: Options = (Option("hold", "hold", ("hold",)), Option("wait", "wait", ("wait",)))


def _place_pieces(
    g: RootState,
    warriors: Mapping[int, Mapping[str, int]] | None,
    buildings: Mapping[int, Sequence[tuple[str, str]]] | None,
    tokens: Mapping[int, Sequence[tuple[str, str]]] | None,
) -> None:
    """An emptied woodland (ruins kept) holding exactly the pieces asked for; the Marquise's
    board then follows them."""
    w = Woodland(g.board)
    for c, by_faction in (warriors or {}).items():
        for faction, count in by_faction.items():
            w.place_warriors(faction, c, count)
    for c, pieces in (buildings or {}).items():
        for faction, kind in pieces:
            w.add_building(faction, kind, c)
    for c, pieces in (tokens or {}).items():
        for faction, kind in pieces:
            w.add_token(faction, kind, c)
    g.woodland = w
    _match_the_marquise_board(g)


def _match_the_marquise_board(g: RootState) -> None:
    """The Marquise's board follows the pieces placed: the keep is where its token is (none on
    the map: out of the game), and her supply holds the wood tokens not on the map."""
    board = _player(g, MARQUISE).board
    assert isinstance(board, MarquiseBoard)
    w = g.woodland
    keeps = [c for c in CLEARING_IDS if (MARQUISE, KEEP) in w.tokens(c)]
    board.keep = keeps[0] if keeps else 0
    board.wood = MARQUISE_WOOD_TOKENS - sum(w.count_tokens(MARQUISE, WOOD, c) for c in CLEARING_IDS)


def _take(g: RootState, card_id: str) -> None:
    """Take a card out of wherever it is (deck, discard pile, a hand), so each card is once."""
    for pile in (g.deck, g.discard, *(p.hand for p in g.players)):
        if card_id in pile:
            pile.remove(card_id)
            return


def _player(g: RootState, faction: str) -> Player:
    return g.players[g.seat_of[faction]]


__all__ = [
    "EYRIE",
    "EYRIE_SEAT",
    "MARQUISE",
    "MARQUISE_SEAT",
    "Hold",
    "after_setup",
    "decision_scenarios",
    "dominance_scenarios",
    "four_player_position",
    "four_player_scenarios",
    "position",
    "three_player_position",
]


def decision_scenarios() -> dict[str, RootState]:
    """Positions where seat 0 must soon answer a rare kind of decision: as the Marquise an
    ambush as defender, a foil as attacker, battle effects, choosing which building to lose,
    Field Hospitals, each card window, the hand limit; dominance and the Alliance's rare
    decisions (three players); the Vagabond's (four players, ``four_player_scenarios``). Full
    games cover the rest, and seat 0 plays both factions in a two-game contest. Play goes on
    from each to the end of the game."""
    from games.root.battle import Battle
    from games.root.hand_limit import HandLimit
    from games.root.turn import Turn

    found: dict[str, RootState] = {}
    fox = 1  # Autumn clearing 1 is a fox corner
    found["ambush"] = position(
        warriors={fox: {MARQUISE: 2, EYRIE: 3}, 5: {MARQUISE: 1}},
        hands={MARQUISE: ("ambush_bird_1", "ambush_fox"), EYRIE: ()},
        current=EYRIE,
        step=Battle(EYRIE_SEAT, (fox,)),
    )
    foil = Battle(MARQUISE_SEAT, (fox,))
    foil.clearing, foil.defender, foil.ambush, foil.stage = fox, EYRIE_SEAT, "ambush_fox", "foil"
    found["foil"] = position(
        warriors={fox: {MARQUISE: 3, EYRIE: 2}},
        hands={MARQUISE: ("ambush_bird_1",), EYRIE: ("ambush_fox",)},
        step=foil,
    )
    found["attacker_effects"] = position(
        warriors={fox: {MARQUISE: 3, EYRIE: 2}},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("brutal_tactics_1", "armorers_1")},
        step=Battle(MARQUISE_SEAT, (fox,)),
    )
    found["defender_effects"] = position(
        warriors={fox: {MARQUISE: 2, EYRIE: 3}},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("sappers_1",)},
        current=EYRIE,
        step=Battle(EYRIE_SEAT, (fox,)),
    )
    found["effects_first"] = position(  # both sides have an effect: who goes first (RT9)
        warriors={fox: {MARQUISE: 3, EYRIE: 2}},
        hands={MARQUISE: (), EYRIE: ()},
        crafted={MARQUISE: ("brutal_tactics_1",), EYRIE: ("sappers_1",)},
        step=Battle(MARQUISE_SEAT, (fox,)),
    )
    two_slots = 8  # a fox clearing with two slots
    found["remove"] = position(
        warriors={two_slots: {EYRIE: 1}},
        buildings={two_slots: ((MARQUISE, "workshop"), (MARQUISE, "sawmill"))},
        tokens={two_slots: ((MARQUISE, "wood"),)},
        hands={MARQUISE: (), EYRIE: ()},
        current=EYRIE,
        step=Battle(EYRIE_SEAT, (two_slots,)),
    )
    hospital = position(
        warriors={fox: {MARQUISE: 3, EYRIE: 1}, 3: {MARQUISE: 1}},
        tokens={3: ((MARQUISE, "keep"),)},
        hands={MARQUISE: ("anvil", "ambush_bird_2"), EYRIE: ()},
        current=EYRIE,
        hold=True,
    )
    hospital.stack = []
    hospital.remove_warriors(MARQUISE_SEAT, fox, 2, by=EYRIE_SEAT)
    hospital.resume()
    found["field_hospitals"] = hospital
    found["card_windows"] = position(
        warriors={fox: {MARQUISE: 2, EYRIE: 1}, 2: {MARQUISE: 2}, 5: {MARQUISE: 1}},
        hands={MARQUISE: ("sword",), EYRIE: ("anvil", "bake_sale")},
        crafted={
            MARQUISE: (
                "royal_claim",
                "stand_and_deliver_1",
                "command_warren_1",
                "tax_collector_1",
                "codebreakers_1",
                "cobbler_1",
            )
        },
    )
    # The Marquise's Birdsong is over; the last Birdsong window is next (RT7).
    end_of_birdsong = Turn(MARQUISE_SEAT)
    end_of_birdsong.stage = "birdsong"
    found["birdsong_end"] = position(
        warriors={fox: {MARQUISE: 2, EYRIE: 1}, 5: {MARQUISE: 1}},
        hands={MARQUISE: ("sword",), EYRIE: ("anvil", "bake_sale")},
        crafted={MARQUISE: ("royal_claim", "stand_and_deliver_1")},
        step=end_of_birdsong,
    )
    found["hand_limit"] = position(
        hands={
            MARQUISE: (
                "anvil",
                "sword",
                "bake_sale",
                "investments",
                "ambush_fox",
                "cobbler_1",
                "cobbler_2",
            ),
            EYRIE: (),
        },
        warriors={fox: {MARQUISE: 2}, 3: {EYRIE: 2}},
        step=HandLimit(MARQUISE_SEAT),
    )
    # -- three players: dominance, once the Alliance is in the engine ------------------------
    from games.root.lineup import unavailable

    if unavailable(3) is None:
        found.update(dominance_scenarios())
        found.update(alliance_scenarios())
    if unavailable(4) is None:  # four players: the Vagabond's rare decisions
        found.update(four_player_scenarios())
    return found


# ---------------------------------------------------------------------------------------------
# Three players and dominance, kept apart from the two-player helpers above.

#: Seat order of ``three_player_position``: seat 0 Marquise, 1 Eyrie, 2 Alliance.
THREE_PLAYER_SEATS = "marquise,eyrie,alliance"
ALLIANCE_SEAT = 2


def three_player_position(
    *,
    warriors: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    tokens: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    hands: Mapping[str, tuple[str, ...]] | None = None,
    vp: Mapping[str, int] | None = None,
    dominance: Mapping[str, str] | None = None,
    available: tuple[str, ...] = (),
    current: str = MARQUISE,
    board: str = "autumn",
    seed: int = 1,
) -> RootState:
    """A three-player game (seats as ``THREE_PLAYER_SEATS``) after setup, its woodland emptied
    (ruins kept) and filled as asked, as ``position`` does; ``hands``/``vp`` by faction (hands
    not given keep what setup dealt), ``dominance[faction]`` the card it activated,
    ``available`` the dominance cards beside the map. The current faction's turn starts."""
    g = GAME.new(GameConfig(3, board, {"factions": THREE_PLAYER_SEATS}), seed)
    while g.pending() and g.turns == 0:
        g.apply(g.pending()[0].seat, 0)
    _place_pieces(g, warriors, buildings, tokens)
    for faction, cards in (hands or {}).items():
        player = _player(g, faction)
        g.deck.extend(player.hand)
        player.hand = []
        for card_id in cards:
            _take_anywhere(g, card_id)
        player.hand = list(cards)
    for faction, card_id in (dominance or {}).items():
        _take_anywhere(g, card_id)
        _player(g, faction).dominance = card_id
    for card_id in available:
        _take_anywhere(g, card_id)
    g.available = list(available)
    for faction, score in (vp or {}).items():
        _player(g, faction).vp = score
    g.current = g.seat_of[current]
    check_invariants(g)
    g.begin(None)
    return g


def _take_anywhere(g: RootState, card_id: str) -> None:
    """Take a card out of wherever it is, the Alliance's supporters included (one from the
    deck takes its place there), so that each card is in one place."""
    for pile in (g.deck, g.discard, g.available, *(p.hand for p in g.players)):
        if card_id in pile:
            pile.remove(card_id)
            return
    for p in g.players:
        hidden = list(p.board.hidden_cards())
        if card_id in hidden:
            hidden[hidden.index(card_id)] = g.deck.pop(0)
            p.board.set_hidden_cards(hidden)
            return


def dominance_scenarios() -> dict[str, RootState]:
    """Three-player positions where seat 0 (the Marquise) may activate a dominance card, or take
    an available one, in its start-of-Daylight card window (RT17)."""
    from games.root.woodland import ALLIANCE

    fox, mouse = 1, 2  # Autumn: the NW corner is fox, the NE corner mouse
    found: dict[str, RootState] = {}
    found["dominance_activate"] = three_player_position(
        warriors={fox: {MARQUISE: 3}, mouse: {EYRIE: 3}, 6: {ALLIANCE: 1}},
        hands={MARQUISE: ("dominance_fox", "anvil")},
        vp={MARQUISE: 12},
    )
    found["dominance_take"] = three_player_position(
        warriors={fox: {MARQUISE: 3}, mouse: {EYRIE: 3}, 6: {ALLIANCE: 1}},
        hands={MARQUISE: ("sword", "ambush_bird_1", "anvil")},
        available=("dominance_mouse",),
    )
    return found


# ---------------------------------------------------------------------------------------------
# The Woodland Alliance's rare decisions, kept apart from the blocks above.


def alliance_position(
    seating: str,
    step: Step,
    *,
    warriors: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    sympathy: tuple[int, ...] = (),
    hands: Mapping[str, tuple[str, ...]] | None = None,
    supporters: tuple[str, ...] = (),
    officers: int = 0,
    crafted: Mapping[str, tuple[str, ...]] | None = None,
    current: str = MARQUISE,
) -> RootState:
    """A three-player Autumn game seated as ``seating`` (a comma list) after setup, its woodland
    emptied (ruins kept) and filled as asked, the Alliance's supporters and officers set, hands
    and crafted cards by faction (hands not given keep what setup dealt); play starts with
    ``step`` alone in the current faction's turn (the next seat's turn follows it)."""
    from games.root.alliance import board_of
    from games.root.woodland import ALLIANCE, SYMPATHY

    g = GAME.new(GameConfig(3, "autumn", {"factions": seating}), 1)
    while g.pending() and g.turns == 0:
        g.apply(g.pending()[0].seat, 0)
    _place_pieces(g, warriors, buildings, {c: ((ALLIANCE, SYMPATHY),) for c in sympathy})
    board = board_of(g, g.seat_of[ALLIANCE])
    g.deck.extend(board.supporters)
    board.supporters = []
    for card_id in supporters:
        _take_anywhere(g, card_id)
    board.supporters = list(supporters)
    board.officers = officers
    for faction, cards in (hands or {}).items():
        player = _player(g, faction)
        g.deck.extend(player.hand)
        player.hand = []
        for card_id in cards:
            _take_anywhere(g, card_id)
        player.hand = list(cards)
    for faction, cards in (crafted or {}).items():
        for card_id in cards:
            _take_anywhere(g, card_id)
        _player(g, faction).crafted = list(cards)
    g.current = g.seat_of[current]
    check_invariants(g)
    g.begin(step)
    return g


def alliance_scenarios() -> dict[str, RootState]:
    """Three-player positions where seat 0 must answer an Alliance decision rare in random
    games: give a card to the Alliance by Outrage, organize, discard supporters after the last
    base is lost, card effects beside the Alliance's Birdsong and Daylight choices (RT7)."""
    from games.root.alliance import (
        AllianceBirdsong,
        AllianceDaylight,
        AllianceEvening,
        DiscardSupporters,
        Outrage,
    )
    from games.root.woodland import ALLIANCE

    found: dict[str, RootState] = {}
    # Seat 0 (the Marquise) moved warriors into the sympathetic fox clearing 1.
    found["alliance_outrage"] = alliance_position(
        "marquise,eyrie,alliance",
        Outrage(0, 2, 1),
        warriors={1: {MARQUISE: 2}, 3: {EYRIE: 2}, 8: {ALLIANCE: 1}},
        sympathy=(1, 5),
        hands={MARQUISE: ("anvil", "crossbow_bird", "bake_sale")},
    )
    evening = AllianceEvening(0, 2)
    evening.stage = "organize"
    found["alliance_organize"] = alliance_position(
        "alliance,marquise,eyrie",
        evening,
        warriors={2: {ALLIANCE: 2}, 7: {ALLIANCE: 1}, 3: {MARQUISE: 2}, 4: {EYRIE: 2}},
        sympathy=(5,),
        officers=2,
        current=ALLIANCE,
    )
    # The Alliance (seat 0) has just lost its only base, with seven supporters.
    found["alliance_discard"] = alliance_position(
        "alliance,marquise,eyrie",
        DiscardSupporters(0),
        warriors={2: {ALLIANCE: 1}, 3: {MARQUISE: 2}, 4: {EYRIE: 2}},
        sympathy=(2, 5),
        supporters=(
            "anvil",
            "foxfolk_steel",
            "bake_sale",
            "a_visit_to_friends",
            "cobbler_1",
            "sword",
            "investments",
        ),
        officers=1,
        current=ALLIANCE,
    )
    # The Alliance (seat 0) may spread sympathy, or first use Royal Claim or Stand and Deliver!
    found["alliance_birdsong_effects"] = alliance_position(
        "alliance,marquise,eyrie",
        AllianceBirdsong(0),
        warriors={2: {ALLIANCE: 1}, 3: {MARQUISE: 2}, 4: {EYRIE: 2}},
        sympathy=(2,),
        supporters=("bake_sale", "crossbow_bird"),
        hands={MARQUISE: ("anvil",), EYRIE: ("sword",)},
        crafted={ALLIANCE: ("royal_claim", "stand_and_deliver_1")},
        current=ALLIANCE,
    )
    # ... mobilize or train, or first use Tax Collector or Codebreakers.
    found["alliance_daylight_effects"] = alliance_position(
        "alliance,marquise,eyrie",
        AllianceDaylight(0),
        warriors={2: {ALLIANCE: 2}, 3: {MARQUISE: 2}, 4: {EYRIE: 2}},
        buildings={2: ((ALLIANCE, "mouse_base"),)},
        hands={ALLIANCE: ("investments", "bake_sale"), MARQUISE: ("anvil",)},
        crafted={ALLIANCE: ("tax_collector_1", "codebreakers_1")},
        current=ALLIANCE,
    )
    return found


# ---------------------------------------------------------------------------------------------
# Four players and the Vagabond's rare decisions, kept apart from the blocks above.

#: Default seat order of ``four_player_position``: seat 0 the Vagabond, then Marquise, Eyrie,
#: Alliance.
FOUR_PLAYER_SEATS = "vagabond,marquise,eyrie,alliance"
VAGABOND_SEAT = 0


def four_player_position(
    step: Step | None = None,
    *,
    seating: str = FOUR_PLAYER_SEATS,
    pawn: int | str = 1,
    character: str = "thief",
    explored: tuple[str, ...] = (),
    items: tuple[str, ...] | None = None,
    completed: tuple[str, ...] = (),
    relations: Mapping[str, int] | None = None,
    warriors: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[int, tuple[tuple[str, str], ...]] | None = None,
    hands: Mapping[str, tuple[str, ...]] | None = None,
    crafted_items: Mapping[str, tuple[str, ...]] | None = None,
    vp: Mapping[str, int] | None = None,
    current: str = "vagabond",
    seed: int = 1,
) -> RootState:
    """A four-player Autumn game seated as ``seating`` (a comma list) after setup, its woodland
    emptied (ruins kept) and filled as asked, the pawn at ``pawn`` (a clearing or forest id).

    The Vagabond plays ``character``, has explored the ruins holding ``explored`` (those ruins
    are gone, their items his) and owns ``items`` in wire text (``boot``, ``sword:exhausted``,
    ``tea:damaged``...; None: his character's items, all ready), then has completed the
    face-up quests ``completed`` (their items exhausted, new quests drawn face up). As in a
    real game his items are his own tiles (the character's and the ruins') and, for the rest,
    supply items taken by Aid; ``crafted_items[faction]`` are items in a faction's Crafted
    Items box, also from the supply (AssertionError if the supply runs short).
    ``relations[faction]`` sets his relationship with it (``vagabond.HOSTILE`` ... ``ALLIED``;
    the others stay Indifferent). ``hands``/``vp`` by faction (hands not
    given keep what setup dealt). Play starts with ``step`` alone in the current faction's turn
    (None: that turn from its start)."""
    from games.root.vagabond import CHARACTERS, board_of, complete_quest
    from games.root.woodland import VAGABOND

    g = GAME.new(GameConfig(4, "autumn", {"factions": seating}), seed)
    while g.pending() and g.turns == 0:
        g.apply(g.pending()[0].seat, 0)
    _place_pieces(g, warriors, buildings, None)
    g.woodland.place_pawn(pawn)
    board = board_of(g, g.seat_of[VAGABOND])
    board.character = character
    for item in explored:
        ruin = next(c for c, hidden in sorted(board.ruins.items()) if hidden == item)
        del board.ruins[ruin]
        g.woodland.remove_ruin(ruin)
        board.explored.append(item)
    owned = [_item_state(text) for text in items or CHARACTERS[character].items]
    board.items = owned
    own_tiles = [*CHARACTERS[character].items, *explored]
    board.taken = []
    for item, _, _ in owned:
        if item in own_tiles:
            own_tiles.remove(item)
        else:  # not one of his own tiles: a supply item he took by Aid (RV12)
            board.taken.append(item)
    for item in board.taken:
        _from_supply(g, item)
    for quest in completed:
        complete_quest(board, quest)
    board.relations.update(relations or {})
    for faction, kinds in (crafted_items or {}).items():
        for item in kinds:
            _from_supply(g, item)
        _player(g, faction).items = list(kinds)
    for faction, cards in (hands or {}).items():
        player = _player(g, faction)
        g.deck.extend(player.hand)
        player.hand = []
        for card_id in cards:
            _take_anywhere(g, card_id)
        player.hand = list(cards)
    for faction, score in (vp or {}).items():
        _player(g, faction).vp = score
    g.current = g.seat_of[current]
    check_invariants(g)
    g.begin(step)
    return g


def _item_state(text: str) -> tuple[str, bool, bool]:
    """``sword:exhausted:damaged`` read as (item, exhausted, damaged)."""
    item, *marks = text.split(":")
    assert set(marks) <= {"exhausted", "damaged"}, f"not an item state: {text!r}"
    return (item, "exhausted" in marks, "damaged" in marks)


def _from_supply(g: RootState, item: str) -> None:
    assert g.supply.get(item, 0) > 0, f"the item supply has no {item} left"
    g.supply[item] -= 1


def vagabond_setup_position(seed: int = 1) -> RootState:
    """A four-player Autumn game (seats as ``FOUR_PLAYER_SEATS``) whose setup has run up to the
    Vagabond's: seat 0 chooses his character (Law 9.3.1), then a forest for his pawn."""
    g = GAME.new(GameConfig(4, "autumn", {"factions": FOUR_PLAYER_SEATS}), seed)
    while g.pending() and g.pending()[0].kind != "vagabond.character":
        g.apply(g.pending()[0].seat, 0)
    return g


def vagabond_setup_quests(seed: int = 1) -> tuple[str, ...]:
    """The face-up quests ``four_player_position`` deals with ``seed`` (the seed's setup)."""
    from games.root.vagabond import board_of

    g = vagabond_setup_position(seed)
    while g.pending() and g.turns == 0:
        g.apply(g.pending()[0].seat, 0)
    return tuple(board_of(g, VAGABOND_SEAT).quests)


def four_player_scenarios() -> dict[str, RootState]:
    """Four-player positions where seat 0 must answer a decision rare in random games: as the
    Vagabond his character, a Birdsong refresh with a choice (RV8), Aid's item and the
    receiver's item to take, a quest's reward, Hideout's repairs, Full Removal's damage (RV6),
    a battle's hits on his items (RV9), items over capacity (RV3), a coalition (RT22),
    which of two enemies to battle, an Allied faction's warriors to bring along (RV15) or to
    fight with (RV14); as the Eyrie a new roost where clearings tie (Law 7.4.3)."""
    from games.root.battle import Battle
    from games.root.eyrie import EyrieBirdsong
    from games.root.maps import BOARDS
    from games.root.turn import Turn
    from games.root.vagabond import (
        ALLIED,
        CHARACTERS,
        QUEST_BY_ID,
        DamageItems,
        VagabondDaylight,
    )
    from games.root.woodland import ALLIANCE, VAGABOND

    fox, mouse, rabbit = 1, 2, 3  # Autumn: clearing 1 fox, 2 mouse, 3 rabbit
    others = {fox: {MARQUISE: 2}, mouse: {EYRIE: 2}, rabbit: {ALLIANCE: 1}}
    found: dict[str, RootState] = {}
    found["vagabond_character"] = vagabond_setup_position()
    # Birdsong: five items exhausted, three to refresh (his tea is damaged: no tea counts, RV8).
    found["vagabond_refresh"] = four_player_position(
        explored=("hammer", "boot"),
        items=(
            "boot:exhausted",
            "boot:exhausted",
            "torch:exhausted",
            "sword:exhausted",
            "hammer:exhausted",
            "tea:damaged",
        ),
        warriors=others,
        hands={VAGABOND: ()},
    )
    # Aid: he gave the Marquise a fox card in fox clearing 1; which ready item to exhaust,
    # then one of her crafted items to take, or none.
    aid = VagabondDaylight(VAGABOND_SEAT)
    aid.stage, aid.receiver, aid.card = "aid_item", 1, "anvil"
    found["vagabond_aid"] = four_player_position(
        aid,
        warriors=others,
        hands={VAGABOND: ("anvil", "sword")},
        crafted_items={MARQUISE: ("boot", "coin")},
    )
    # A quest just completed, the first of its suit: VP or two cards. The Thief has what it
    # asks or took the rest from the supply (no quest asks for two torches).
    quest = QUEST_BY_ID[vagabond_setup_quests()[0]]
    needed = list(quest.items)
    for item in CHARACTERS["thief"].items:
        if item in needed:
            needed.remove(item)
    reward = VagabondDaylight(VAGABOND_SEAT)
    reward.stage, reward.count = "quest_reward", 1
    found["vagabond_quest_reward"] = four_player_position(
        reward,
        pawn=next(cl.id for cl in BOARDS["autumn"].clearings if cl.suit == quest.suit),
        items=(*CHARACTERS["thief"].items, *needed),
        completed=(quest.id,),
        warriors=others,
        hands={VAGABOND: ()},
    )
    # The Ranger's Hideout (his torch spent): four damaged items, three repairs.
    hideout = VagabondDaylight(VAGABOND_SEAT)
    hideout.stage, hideout.count = "hideout", 3
    found["vagabond_hideout"] = four_player_position(
        hideout,
        character="ranger",
        explored=("sword", "hammer"),
        items=(
            "boot:damaged",
            "torch:exhausted",
            "crossbow:damaged",
            "sword:damaged",
            "sword:exhausted:damaged",
            "hammer",
        ),
        warriors=others,
        hands={VAGABOND: ()},
    )
    # Full Removal: a favor card removed every enemy piece in his clearing (RV6).
    found["vagabond_damage"] = four_player_position(
        DamageItems(VAGABOND_SEAT, 3),
        explored=("hammer",),
        items=("boot", "torch", "tea", "sword", "hammer"),
        warriors={mouse: {EYRIE: 2}, rabbit: {ALLIANCE: 1}, 5: {MARQUISE: 2}},
        hands={VAGABOND: ()},
        current=MARQUISE,
    )
    # The Marquise attacks the Tinker (no sword: defenseless, at least one hit, RV9).
    found["vagabond_battle_damage"] = four_player_position(
        Battle(1, (fox,)),
        character="tinker",
        warriors=others,
        hands={VAGABOND: (), MARQUISE: ()},
        current=MARQUISE,
    )
    # Evening: eight items, capacity six (no bag): two to remove (RV3).
    evening = Turn(VAGABOND_SEAT)
    evening.stage = "evening_start"
    found["vagabond_capacity"] = four_player_position(
        evening,
        pawn="c",
        explored=("hammer", "sword", "boot"),
        items=("boot", "boot", "torch", "tea", "sword", "sword:damaged", "hammer", "crossbow"),
        warriors=others,
        hands={VAGABOND: ()},
    )
    # Daylight starts with a dominance card in hand and 10 VP: a coalition (RT22).
    daylight = Turn(VAGABOND_SEAT)
    daylight.stage = "birdsong_end"
    found["vagabond_coalition"] = four_player_position(
        daylight,
        warriors=others,
        hands={VAGABOND: ("dominance_fox", "anvil")},
        vp={VAGABOND: 12, MARQUISE: 4, EYRIE: 4, ALLIANCE: 7},
    )
    # He battles (his sword exhausted for it) where the Marquise and the Eyrie both are: which?
    found["vagabond_battle"] = four_player_position(
        Battle(VAGABOND_SEAT, (fox,)),
        items=("boot", "torch", "tea", "sword:exhausted"),
        warriors={fox: {MARQUISE: 1, EYRIE: 1}, rabbit: {ALLIANCE: 1}},
        hands={VAGABOND: (), MARQUISE: (), EYRIE: ()},
    )
    # Allied with the Marquise, he moved out of fox clearing 1 where two of her warriors are:
    # bring one or two along, or none (Law 9.2.9.2.2).
    escort = VagabondDaylight(VAGABOND_SEAT)
    escort.stage, escort.origin = "escort", fox
    found["vagabond_escort"] = four_player_position(
        escort,
        pawn=5,
        items=("boot:exhausted", "torch", "tea", "sword"),
        relations={MARQUISE: ALLIED},
        warriors=others,
        hands={VAGABOND: ()},
    )
    # He attacks the Eyrie where his Allied Marquise has warriors: fight with them? (Law
    # 9.2.9.2.3; the defender is chosen already.)
    ally = Battle(VAGABOND_SEAT, (fox,))
    ally.clearing, ally.defender, ally.stage = fox, 2, "ally"
    found["vagabond_battle_ally"] = four_player_position(
        ally,
        items=("boot", "torch", "tea", "sword:exhausted"),
        relations={MARQUISE: ALLIED},
        warriors={fox: {MARQUISE: 2, EYRIE: 1}, rabbit: {ALLIANCE: 1}},
        hands={VAGABOND: (), MARQUISE: (), EYRIE: ()},
    )
    # The Eyrie (seat 0) has no roost left on the map: a new one where warriors are fewest,
    # every clearing with an open slot and no warriors tying (Law 7.4.3).
    roost = EyrieBirdsong(0)
    roost.stage = "roost"
    found["eyrie_roost"] = four_player_position(
        roost,
        seating="eyrie,marquise,alliance,vagabond",
        warriors={fox: {MARQUISE: 2}, mouse: {ALLIANCE: 1}, 9: {EYRIE: 1}},
        current=EYRIE,
    )
    return found
