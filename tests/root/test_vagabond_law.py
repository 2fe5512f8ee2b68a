"""The Vagabond against the Law of Root, chapter 9, one test per rule (named by its number).

Each test plays the rule through the game's own decisions in a four-player Autumn game
(seat 0 the Vagabond, 1 the Eyrie, 2 the Alliance, 3 the Marquise for seed 1), with the map
and the Vagabond's items set by hand for the rule at hand.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.contract import GameConfig
from games.root import battle as battle_module
from games.root import dominance, evaluate
from games.root.battle import Battle
from games.root.cards import CARD_BY_ID
from games.root.crafting import favor
from games.root.items import BAG, BOOT, COIN, CROSSBOW, HAMMER, SWORD, TEA, TORCH
from games.root.state import RootState
from games.root.suits import BIRD
from games.root.vagabond import (
    ALLIED,
    HOSTILE,
    INDIFFERENT,
    RANGER,
    THIEF,
    TINKER,
    DamageItems,
    VagabondBoard,
    VagabondDaylight,
    VagabondEvening,
    begin_birdsong,
)
from games.root.woodland import ALLIANCE, EYRIE, MARQUISE, SYMPATHY, VAGABOND
from tests.root.helpers import choose, decision, keys

FOREST_NW = "nw"  # Autumn's forest between clearings 1, 9, 10 and 12


def table(seed: int = 1) -> tuple[RootState, int]:
    """A four-player Autumn game right after setup, nothing running; the Vagabond's seat."""
    g = RootState(GameConfig(4, "autumn"), seed)
    while g.pending() and g.turns == 0:
        g.apply(g.pending()[0].seat, 0)
    seat = g.seat_of[VAGABOND]
    g.stack = []
    g.current = seat
    return g, seat


def vb(g: RootState, seat: int) -> VagabondBoard:
    board = g.players[seat].board
    assert isinstance(board, VagabondBoard)
    return board


def give_items(g: RootState, seat: int, *items: str, character: str = THIEF) -> VagabondBoard:
    """Replace the Vagabond's items (all face up and undamaged) and character."""
    board = vb(g, seat)
    board.character = character
    board.items = []
    for item in items:
        board.gain(item)
    return board


def put(g: RootState, faction: str, c: int, n: int) -> None:
    """Exactly ``n`` warriors of ``faction`` in clearing ``c``."""
    w = g.woodland
    have = w.warriors(faction, c)
    if n > have:
        w.place_warriors(faction, c, n - have)
    elif have > n:
        w.remove_warriors(faction, c, have - n)


def daylight(g: RootState, seat: int, where: int | str) -> None:
    """Start the Vagabond's Daylight with the pawn at ``where``."""
    g.woodland.place_pawn(where)
    g.current = seat
    g.stack = [VagabondDaylight(seat)]
    g.resume()


def take_cards(g: RootState, seat: int, *cards: str) -> None:
    for card_id in cards:
        for pile in (g.deck, g.discard, *(p.hand for p in g.players)):
            if card_id in pile:
                pile.remove(card_id)
                break
        g.players[seat].hand.append(card_id)


def card_of(g: RootState, suit: str, *, item: bool | None = None) -> str:
    """A card of ``suit`` still in the deck (optionally one that is / is not an item card)."""
    for card_id in g.deck:
        card = CARD_BY_ID[card_id]
        if card.suit == suit and (item is None or (card.item is not None) == item):
            return card_id
    raise AssertionError(f"no {suit} card left")


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Battle dice to roll, in order (each 0-3)."""
    rolls: list[int] = []
    monkeypatch.setattr(battle_module, "roll_die", lambda g: rolls.pop(0))
    yield rolls


def eyrie_attacks(g: RootState, c: int) -> None:
    """The Eyrie battles the Vagabond in ``c``."""
    eyrie = g.seat_of[EYRIE]
    g.players[g.seat_of[VAGABOND]].hand = []  # no ambush
    g.current = eyrie
    g.stack = [Battle(eyrie, (c,))]
    g.resume()
    if decision(g).kind == "battle.defender":
        choose(g, f"seat:{g.seat_of[VAGABOND]}")


# -- 9.2 Faction rules and abilities ---------------------------------------------------------


def test_9_2_1_crafting_with_hammers_takes_the_item_face_up() -> None:
    """RV11: a crafted item goes straight to him face up, not to a Crafted Items box."""
    g, seat = table()
    board = give_items(g, seat, HAMMER, BOOT, character=TINKER)
    c = 9
    card_id = next(
        x
        for x in g.deck
        if CARD_BY_ID[x].item is not None
        and CARD_BY_ID[x].item != HAMMER
        and CARD_BY_ID[x].cost == (g.clearing_suit(c),)
    )
    item = CARD_BY_ID[card_id].item
    assert item is not None
    supply = g.supply[item]
    take_cards(g, seat, card_id)
    daylight(g, seat, c)
    choose(g, f"craft:{card_id}")
    assert (item, False, False) in board.items and item not in g.players[seat].items
    assert board.taken == [item] and g.supply[item] == supply - 1
    assert g.players[seat].vp == CARD_BY_ID[card_id].vp


def test_9_2_2_lone_wanderer_the_pawn_rules_nothing() -> None:
    g, _ = table()
    put(g, MARQUISE, 8, 1)
    g.woodland.place_pawn(8)
    assert g.woodland.ruler(8) == MARQUISE  # one warrior against the pawn: hers


def test_9_2_2_1_full_removal_damages_three_items_of_his_choice() -> None:
    """RV6: a favor card of another player in his clearing damages three items."""
    g, seat = table()
    board = give_items(g, seat, BOOT, SWORD, TORCH, TEA)
    g.woodland.place_pawn(9)
    for s in range(4):
        g.players[s].hand = []
    favor(g, g.seat_of[MARQUISE], g.clearing_suit(9))
    g.resume()
    for _ in range(3):
        assert decision(g).kind == "vagabond.damage"
        choose(g, "damage:tea" if "damage:tea" in keys(g) else keys(g)[0])
    assert sum(1 for _, _, d in board.items if d) == 3 and (TEA, False, True) in board.items
    assert g.woodland.pawn == 9  # never removed


def test_9_2_3_nimble_moves_ignore_rule() -> None:
    g, seat = table()
    give_items(g, seat, BOOT)
    put(g, MARQUISE, 9, 0)
    put(g, MARQUISE, 12, 5)  # the Marquise rules 12, nobody rules 9 for him
    daylight(g, seat, 9)
    assert "move:12" in keys(g)


def test_9_2_4_defenseless_without_an_undamaged_sword(dice: list[int]) -> None:
    """A damaged sword leaves him defenseless (one extra hit); an exhausted one does not."""
    for sword, hits in (((SWORD, True, False), 0), ((SWORD, False, True), 1)):
        g, seat = table()
        board = give_items(g, seat, BOOT, TORCH)
        board.items.append(sword)
        put(g, EYRIE, 9, 2)
        g.woodland.place_pawn(9)
        dice[:] = [0, 0]
        eyrie_attacks(g, 9)
        taken = 0
        while g.pending() and decision(g).kind == "battle.remove":
            choose(g, keys(g)[0])
            taken += 1
        assert taken == hits


def test_rv9_the_marquise_may_battle_his_lone_pawn() -> None:
    """RV9 ("other factions may attack his pawn where they have warriors"), Law 4.3 (the
    defender is "an enemy in the clearing of battle"): a clearing holding only her warriors
    and his pawn is offered to the Marquise for battle; not to her as his coalition partner
    (RT24)."""
    from games.root.marquise import Daylight

    g, seat = table()
    marquise = g.seat_of[MARQUISE]

    def actions() -> list[str]:
        step = Daylight(marquise)
        step.stage, step.actions = "action", 3
        g.current, g.stack = marquise, [step]
        g.resume()
        assert decision(g).kind == "marquise.action"
        return keys(g)

    g.woodland.place_pawn(FOREST_NW)
    assert "action:battle" not in actions()  # nothing but her own pieces beside hers
    g.woodland.place_pawn(8)  # beside one of her warriors, nobody else
    assert "action:battle" in actions()
    form_coalition(g, seat, MARQUISE)
    assert "action:battle" not in actions()


def test_9_2_5_1_only_face_up_tea_coins_and_bags_count_for_their_tracks() -> None:
    board = VagabondBoard()
    for item in (TEA, TEA, TEA, TEA, COIN, BAG):
        board.gain(item)
    assert (board.refresh_count(), board.evening_draw(), board.capacity()) == (9, 2, 8)
    assert board.over_capacity() == 0 and len(board.in_satchel_or_damaged()) == 1  # 4th tea
    board.exhaust(COIN)
    board.exhaust(BAG)
    board.exhaust(TEA)
    assert (board.refresh_count(), board.evening_draw(), board.capacity()) == (9, 1, 6)
    assert len(board.in_satchel_or_damaged()) == 3  # the coin, the bag, one tea face down


def test_9_2_6_exhausted_swords_count_for_maximum_rolled_hits(dice: list[int]) -> None:
    g, seat = table()
    board = give_items(g, seat, SWORD, SWORD)
    board.exhaust(SWORD)
    eyrie = g.seat_of[EYRIE]
    put(g, EYRIE, 9, 4)
    g.players[eyrie].hand = []
    for faction in (MARQUISE, ALLIANCE):
        put(g, faction, 9, 0)
    daylight(g, seat, 9)
    dice[:] = [3, 0]
    choose(g, "battle")
    assert g.woodland.warriors(EYRIE, 9) == 2  # two swords, face down and up: two hits


def test_9_2_7_each_hit_damages_an_item_of_his_choice_an_exhausted_tile_first(
    dice: list[int],
) -> None:
    """RV9: the hit damages the kind he chooses; of two boots, the exhausted one."""
    g, seat = table()
    board = give_items(g, seat, BOOT, BOOT, SWORD)
    board.exhaust(BOOT)
    put(g, EYRIE, 9, 3)
    g.woodland.place_pawn(9)
    dice[:] = [1, 0]
    eyrie_attacks(g, 9)
    assert decision(g).kind == "battle.remove" and keys(g) == ["damage:boot", "damage:sword"]
    choose(g, "damage:boot")
    assert sorted(board.items) == [(BOOT, False, False), (BOOT, True, True), (SWORD, False, False)]


def test_9_2_7_hits_beyond_his_undamaged_items_are_ignored(dice: list[int]) -> None:
    g, seat = table()
    board = give_items(g, seat, BOOT)
    put(g, EYRIE, 9, 3)
    g.woodland.place_pawn(9)
    dice[:] = [3, 3]
    eyrie_attacks(g, 9)  # 3 rolled hits and 1 for defenseless: the boot takes one
    assert board.items == [(BOOT, False, True)]
    assert not g.pending() or decision(g).kind != "battle.remove"


# -- 9.2.9 Relationships ----------------------------------------------------------------------


def deal_cards(g: RootState, seat: int, suit: str, n: int) -> None:
    """Give the Vagabond ``n`` more cards of ``suit`` from the deck."""
    for _ in range(n):
        take_cards(g, seat, card_of(g, suit))


def aid_once(g: RootState, seat: int, to: int) -> None:
    """Aid seat ``to`` with some card, exhausting some item, taking no item."""
    choose(g, next(k for k in keys(g) if k.startswith(f"aid:{to}:")))
    if decision(g).kind == "vagabond.aid_item":
        choose(g, keys(g)[0])
    if g.pending() and decision(g).kind == "vagabond.aid_take":
        choose(g, "pass")


def test_9_2_8_a_dominance_card_forms_a_coalition_with_the_fewest_vp() -> None:
    """RT22: with four players he activates a dominance card only for a coalition, with the
    player with the fewest VP."""
    g, seat = table()
    for s, vp in enumerate((12, 4, 3, 9)):
        g.players[s].vp = vp
    g.players[seat].hand = ["dominance_fox"]
    assert [o.key for o in dominance.options(g, seat)] == [
        f"coalition:dominance_fox:{g.seat_of[ALLIANCE]}"
    ]


def test_9_2_9_3_4_a_coalition_with_a_hostile_faction_makes_it_indifferent() -> None:
    g, seat = table()
    board = vb(g, seat)
    board.relations[ALLIANCE] = HOSTILE
    for s, vp in enumerate((12, 4, 3, 9)):
        g.players[s].vp = vp
    g.players[seat].hand = ["dominance_fox"]
    dominance.choose(g, seat, ("coalition", "dominance_fox", g.seat_of[ALLIANCE]))
    assert board.relations[ALLIANCE] == INDIFFERENT


def form_coalition(g: RootState, seat: int, faction: str) -> int:
    """The Vagabond at ``seat`` (12 VP) activates a dominance card to form a coalition with
    ``faction`` (the fewest VP, Law 9.2.8); returns the partner's seat."""
    partner = g.seat_of[faction]
    for s in range(4):
        g.players[s].vp = 12 if s == seat else (3 if s == partner else 5)
    g.players[seat].hand = ["dominance_fox"]
    dominance.choose(g, seat, ("coalition", "dominance_fox", partner))
    assert g.players[seat].coalition == partner
    return partner


def test_rt24_no_battle_or_strike_against_his_coalition_partner() -> None:
    """RT24, Law glossary 'Enemy' ("any other player that you are not in a coalition with")
    with 9.2.8, 4.3 and 9.5.6: in a coalition with the Marquise he is offered neither battle
    nor Strike against her, only against an enemy there; he may still aid her (any player)."""
    g, seat = table()
    marquise = form_coalition(g, seat, MARQUISE)
    give_items(g, seat, SWORD, CROSSBOW, BOOT)
    for faction in (EYRIE, ALLIANCE):
        put(g, faction, 5, 0)
    card_id = card_of(g, g.clearing_suit(5))
    take_cards(g, seat, card_id)
    daylight(g, seat, 5)  # her warrior, workshop and recruiter
    assert "battle" not in keys(g)
    assert not [k for k in keys(g) if k.startswith("strike:")]
    assert f"aid:{marquise}:{card_id}" in keys(g)
    eyrie = g.seat_of[EYRIE]
    put(g, EYRIE, 5, 1)
    daylight(g, seat, 5)
    assert "battle" in keys(g)
    assert [k for k in keys(g) if k.startswith("strike:")] == [f"strike:{eyrie}:warrior"]
    assert battle_module.defenders(g, seat, 5) == (eyrie,)


def test_rt24_his_coalition_partner_cannot_battle_his_pawn() -> None:
    """RT24, Law 4.3 ("choose an enemy in the clearing of battle") with 9.2.8: the Marquise
    in a coalition with him cannot attack his pawn; the Eyrie, an enemy of both, still can."""
    g, seat = table()
    marquise, eyrie = g.seat_of[MARQUISE], g.seat_of[EYRIE]
    g.woodland.place_pawn(8)  # beside one Marquise warrior, nobody else
    assert battle_module.battle_clearings(g, marquise, (8,)) == (8,)  # no coalition yet
    form_coalition(g, seat, MARQUISE)
    assert battle_module.battle_clearings(g, marquise, (8,)) == ()
    assert battle_module.defenders(g, marquise, 8) == ()
    put(g, EYRIE, 8, 1)
    assert battle_module.defenders(g, marquise, 8) == (eyrie,)
    assert battle_module.defenders(g, eyrie, 8) == (seat, marquise)


def test_rt24_a_revolt_of_his_coalition_partner_spares_his_items() -> None:
    """RT24, Law 8.4.1 ("remove all enemy pieces") and 9.2.2.I Full Removal ("whenever an
    enemy player uses an effect that says it removes all enemy pieces"): the Alliance, his
    partner, revolts in his clearing: the Marquise's pieces go, his items stay undamaged."""
    from games.root.alliance import revolt

    for partner in (None, ALLIANCE):
        g, seat = table()
        board = give_items(g, seat, BOOT, SWORD, TORCH, TEA)
        if partner is not None:
            form_coalition(g, seat, partner)
        for s in range(4):
            g.players[s].hand = []  # no Field Hospitals to answer
        g.woodland.place_pawn(9)
        g.woodland.add_token(ALLIANCE, SYMPATHY, 9)
        revolt(g, g.seat_of[ALLIANCE], 9)
        assert g.woodland.warriors(MARQUISE, 9) == 0
        damaging = any(isinstance(step, DamageItems) for step in g.stack)
        assert damaging == (partner is None)  # Full Removal by an enemy only
        assert not any(d for _, _, d in board.items)


def test_rt24_favor_cards_spare_coalition_partners_both_ways() -> None:
    """RT24, the favor cards ("remove all enemy pieces in clearings of the suit") with 9.2.8
    and 9.2.2.I: the Marquise's favor in his clearing damages none of his items, and his
    favor leaves her warriors (and her relationship) alone while it removes the Eyrie's."""
    g, seat = table()
    board = give_items(g, seat, HAMMER, HAMMER, HAMMER, character=TINKER)
    form_coalition(g, seat, MARQUISE)
    for s in range(4):
        g.players[s].hand = []  # no Field Hospitals to answer
    g.woodland.place_pawn(9)
    put(g, EYRIE, 9, 1)
    favor(g, g.seat_of[MARQUISE], g.clearing_suit(9))
    assert not any(isinstance(step, DamageItems) for step in g.stack)
    assert not any(d for _, _, d in board.items) and g.woodland.warriors(EYRIE, 9) == 0
    put(g, MARQUISE, 9, 2)
    put(g, EYRIE, 9, 1)
    for c in range(1, 13):
        put(g, ALLIANCE, c, 0)
    take_cards(g, seat, "favor_of_the_mice")
    daylight(g, seat, 9)
    choose(g, "craft:favor_of_the_mice")
    assert g.woodland.warriors(MARQUISE, 9) == 2 and g.woodland.warriors(EYRIE, 9) == 0
    assert board.relations[MARQUISE] == INDIFFERENT and board.hostile(EYRIE)


def test_rt24_the_bots_count_no_coalition_partner_among_their_enemies() -> None:
    """RT24: the greedy bots' reading of a decision (``Turn.enemies``, what their battle,
    favor and threat yardsticks look at) leaves the partner out, both ways."""
    from games.root.greedy.turn import Turn

    g, seat = table()
    marquise = form_coalition(g, seat, MARQUISE)
    assert set(Turn(g.observe(seat), seat).enemies) == {EYRIE, ALLIANCE}
    assert set(Turn(g.observe(marquise), marquise).enemies) == {EYRIE, ALLIANCE}
    assert set(Turn(g.observe(1), 1).enemies) == {VAGABOND, ALLIANCE, MARQUISE}
    assert g.enemies(seat) == (1, 2) and g.others(seat) == (1, 2, 3)


def test_9_2_9_1_aids_needed_in_one_turn_and_the_points_of_each_space() -> None:
    """RV4: 1 aid (+1 VP), then 2 in one turn (+2 VP), then 3 in one turn (+2 VP: Allied)."""
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, *([BOOT] * 8))
    c = 9
    g.players[seat].hand = []
    deal_cards(g, seat, g.clearing_suit(c), 8)
    daylight(g, seat, c)
    aid_once(g, seat, marquise)
    assert (board.relations[MARQUISE], g.players[seat].vp) == (1, 1)
    aid_once(g, seat, marquise)
    assert (board.relations[MARQUISE], g.players[seat].vp) == (1, 1)
    begin_birdsong(g, seat)  # a new turn: the lone aid counts no more
    aid_once(g, seat, marquise)
    assert board.relations[MARQUISE] == 1
    aid_once(g, seat, marquise)
    assert (board.relations[MARQUISE], g.players[seat].vp) == (2, 3)
    for _ in range(3):
        aid_once(g, seat, marquise)
    assert (board.relations[MARQUISE], g.players[seat].vp) == (ALLIED, 5)


def test_9_2_9_2_1_each_aid_to_an_ally_scores_two() -> None:
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, BOOT, BOOT)
    board.relations[MARQUISE] = ALLIED
    deal_cards(g, seat, g.clearing_suit(9), 2)
    daylight(g, seat, 9)
    aid_once(g, seat, marquise)
    aid_once(g, seat, marquise)
    assert g.players[seat].vp == 4 and board.relations[MARQUISE] == ALLIED


def test_9_2_9_2_2_moving_with_an_ally_forces_its_warriors_along() -> None:
    """RV15: after his move, any number of one Allied faction's warriors in the origin go
    along; moving into sympathy, the ally pays the Alliance's Outrage."""
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, BOOT, BOOT)
    board.relations[MARQUISE] = ALLIED
    put(g, MARQUISE, 9, 3)
    put(g, MARQUISE, 12, 0)
    put(g, EYRIE, 9, 2)  # the Eyrie is not Allied: never offered; the Marquise rules 9
    put(g, EYRIE, 12, 4)  # and the Eyrie 12: her rule of the origin lets hers go along
    g.woodland.add_token(ALLIANCE, SYMPATHY, 12)
    outrage_card = card_of(g, g.clearing_suit(12))
    g.players[marquise].hand = []
    take_cards(g, marquise, outrage_card)
    daylight(g, seat, 9)
    choose(g, "move:12")
    assert decision(g).kind == "vagabond.escort"
    assert keys(g) == [
        "pass",
        f"escort:{marquise}:1",
        f"escort:{marquise}:2",
        f"escort:{marquise}:3",
    ]
    choose(g, f"escort:{marquise}:2")
    assert (g.woodland.warriors(MARQUISE, 9), g.woodland.warriors(MARQUISE, 12)) == (1, 2)
    assert outrage_card not in g.players[marquise].hand  # given to the Alliance (Outrage)
    assert board.count(BOOT, ready=True) == 1  # no extra boot for them


def test_rv15_9_2_9_2_2_an_escort_needs_the_allys_own_rule_of_either_end() -> None:
    """RV15, Law 9.2.9.2.2 (Moving with Ally) with 1.5.5 (a forced move is resolved "exactly
    as if that player were choosing to do this") and 4.2.1 ("you must rule the origin
    clearing, destination clearing, or both"): an Allied faction's warriors go along only
    where that faction could move them itself; the Eyrie rule ties (Lords of the Forest)."""
    g, seat = table()
    marquise, eyrie = g.seat_of[MARQUISE], g.seat_of[EYRIE]
    board = give_items(g, seat, BOOT, BOOT, BOOT)
    board.relations[MARQUISE] = ALLIED
    board.relations[EYRIE] = ALLIED
    put(g, MARQUISE, 9, 2)
    put(g, EYRIE, 9, 2)  # a tie in 9: the Eyrie rule it (Lords of the Forest, Law 7.2.2)
    put(g, MARQUISE, 12, 0)
    put(g, EYRIE, 12, 3)  # the Eyrie rule 12 too
    daylight(g, seat, 9)
    choose(g, "move:12")
    # The Marquise rules neither 9 nor 12: she could not move there, so she is not offered.
    assert decision(g).kind == "vagabond.escort"
    assert keys(g) == ["pass", f"escort:{eyrie}:1", f"escort:{eyrie}:2"]
    choose(g, f"escort:{eyrie}:2")
    assert g.woodland.warriors(EYRIE, 12) == 5 and g.woodland.warriors(MARQUISE, 9) == 2
    # Back from 12 to 9 (now the Marquise's): the Eyrie rule the origin, all five may go.
    choose(g, "move:9")
    assert keys(g) == ["pass", *(f"escort:{eyrie}:{n}" for n in range(1, 6))]
    choose(g, "pass")
    # Into 4 (nobody there) from 9, ruled by the Marquise: her warriors go along.
    put(g, MARQUISE, 4, 0)
    choose(g, "move:4")
    assert keys(g) == ["pass", f"escort:{marquise}:1", f"escort:{marquise}:2"]
    assert board.count(BOOT, ready=True) == 0


def test_9_2_9_2_2_a_slip_between_clearings_brings_allies_too() -> None:
    """RV15: a slip is a move to an adjacent clearing (Law 9.4.2)."""
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, BOOT)
    board.relations[MARQUISE] = ALLIED
    put(g, MARQUISE, 9, 2)
    put(g, MARQUISE, 4, 0)
    g.woodland.place_pawn(9)
    g.stack = [begin_birdsong(g, seat)]
    g.resume()
    choose(g, "slip:4")
    assert decision(g).kind == "vagabond.escort"
    choose(g, f"escort:{marquise}:2")
    assert g.woodland.warriors(MARQUISE, 4) == 2


def ally_battle(g: RootState, seat: int, *, allied: int) -> int:
    """Set up clearing 9: ``allied`` Allied Marquise warriors, 4 Eyrie warriors (no ambush), no
    Alliance; the Vagabond there in Daylight with one sword. Returns the Eyrie's seat."""
    board = give_items(g, seat, SWORD, BOOT, TORCH)
    board.relations[MARQUISE] = ALLIED
    eyrie = g.seat_of[EYRIE]
    put(g, MARQUISE, 9, allied)
    put(g, EYRIE, 9, 4)
    put(g, ALLIANCE, 9, 0)
    g.players[eyrie].hand = []
    g.players[g.seat_of[MARQUISE]].hand = []  # no Field Hospitals to answer
    daylight(g, seat, 9)
    choose(g, "battle")
    return eyrie


def test_9_2_9_2_3_attacking_with_an_ally_adds_its_warriors_to_the_hit_cap(
    dice: list[int],
) -> None:
    """RV14: one sword plus three Allied warriors: three rolled hits instead of one."""
    g, seat = table()
    eyrie = ally_battle(g, seat, allied=3)
    assert decision(g).kind == "battle.defender"
    choose(g, f"seat:{eyrie}")
    assert decision(g).kind == "battle.ally"
    assert keys(g) == [f"ally:{g.seat_of[MARQUISE]}", "pass"]
    dice[:] = [3, 0]
    choose(g, f"ally:{g.seat_of[MARQUISE]}")
    assert g.woodland.warriors(EYRIE, 9) == 1
    assert vb(g, seat).hostile(EYRIE) and g.players[seat].vp == 2  # infamy for two of three


def test_9_2_9_2_3_never_with_the_ally_he_attacks(dice: list[int]) -> None:
    g, seat = table()
    ally_battle(g, seat, allied=3)
    dice[:] = [3, 0]
    choose(g, f"seat:{g.seat_of[MARQUISE]}")
    assert not g.pending() or decision(g).kind != "battle.ally"
    assert g.woodland.warriors(MARQUISE, 9) == 2  # one sword: one hit
    assert vb(g, seat).hostile(MARQUISE)


def test_9_2_9_2_3_passing_keeps_the_cap_at_his_swords(dice: list[int]) -> None:
    g, seat = table()
    eyrie = ally_battle(g, seat, allied=3)
    choose(g, f"seat:{eyrie}")
    dice[:] = [3, 0]
    choose(g, "pass")
    assert g.woodland.warriors(EYRIE, 9) == 3


@pytest.mark.parametrize(
    ("answers", "hostile"), [(("warrior", "warrior"), True), (("warrior", "boot"), False)]
)
def test_9_2_9_2_4_hits_on_the_ally_make_it_hostile_when_they_outnumber_damage(
    dice: list[int], answers: tuple[str, str], hostile: bool
) -> None:
    """RV14: he may take hits on Allied warriors; more of them than damaged items by the end of
    the battle makes the ally Hostile; as many does not."""
    g, seat = table()
    board = vb(g, seat)
    eyrie = ally_battle(g, seat, allied=3)
    choose(g, f"seat:{eyrie}")
    dice[:] = [2, 2]
    choose(g, f"ally:{g.seat_of[MARQUISE]}")
    for answer in answers:
        assert decision(g).kind == "battle.remove"
        assert "remove:warrior" in keys(g) and "damage:boot" in keys(g)
        choose(g, "remove:warrior" if answer == "warrior" else f"damage:{answer}")
    assert g.woodland.warriors(MARQUISE, 9) == 3 - answers.count("warrior")
    assert board.hostile(MARQUISE) is hostile
    assert board.relations[MARQUISE] == (HOSTILE if hostile else ALLIED)


def test_9_2_9_3_removing_a_warrior_makes_its_faction_hostile_even_by_strike() -> None:
    g, seat = table()
    board = give_items(g, seat, CROSSBOW)
    put(g, EYRIE, 9, 1)
    daylight(g, seat, 9)
    assert board.relations[EYRIE] == INDIFFERENT
    choose(g, f"strike:{g.seat_of[EYRIE]}:warrior")
    assert board.hostile(EYRIE) and g.players[seat].vp == 0  # no infamy by Strike


def test_9_2_9_3_a_favor_card_he_crafts_makes_the_factions_it_removes_hostile() -> None:
    """RV4: Favor of the Mice removes warriors of the Marquise and the Eyrie in mouse
    clearings: both Hostile, no infamy (not in battle); the Alliance, untouched, stays
    Indifferent."""
    g, seat = table()
    board = give_items(g, seat, HAMMER, HAMMER, HAMMER, character=TINKER)
    put(g, EYRIE, 9, 1)
    for c in range(1, 13):
        put(g, ALLIANCE, c, 0)
    for s in range(4):
        g.players[s].hand = []  # no Field Hospitals to answer
    take_cards(g, seat, "favor_of_the_mice")
    daylight(g, seat, 9)
    choose(g, "craft:favor_of_the_mice")
    assert g.woodland.warriors(MARQUISE, 9) == 0 and g.woodland.warriors(EYRIE, 9) == 0
    assert board.hostile(MARQUISE) and board.hostile(EYRIE)
    assert board.relations[ALLIANCE] == INDIFFERENT
    assert g.players[seat].vp == 0  # no buildings in mouse clearings, no infamy


def test_9_2_9_3_1_infamy_for_each_hostile_piece_removed_in_his_battle(
    dice: list[int],
) -> None:
    """RV5: the Eyrie already Hostile: its warrior and its roost score 1 VP of infamy each, and
    the roost its usual point."""
    g, seat = table()
    board = give_items(g, seat, SWORD, SWORD, SWORD)
    board.relations[EYRIE] = HOSTILE
    put(g, EYRIE, 3, 1)
    for faction in (MARQUISE, ALLIANCE):
        put(g, faction, 3, 0)
    g.players[g.seat_of[EYRIE]].hand = []
    daylight(g, seat, 3)
    dice[:] = [3, 0]
    choose(g, "battle")
    assert g.woodland.warriors(EYRIE, 3) == 0 and not g.woodland.buildings(3)
    assert g.players[seat].vp == 3


def test_9_2_9_3_2_hostile_warriors_cost_an_extra_boot() -> None:
    g, seat = table()
    board = give_items(g, seat, BOOT)
    board.relations[EYRIE] = HOSTILE
    put(g, EYRIE, 12, 1)
    put(g, EYRIE, 4, 0)
    daylight(g, seat, 9)
    assert "move:12" not in keys(g) and "move:4" in keys(g)
    board.gain(BOOT)
    daylight(g, seat, 9)
    choose(g, "move:12")
    assert board.count(BOOT, ready=True) == 0


def test_9_2_9_3_3_a_hostile_faction_may_be_aided_for_its_items() -> None:
    """RV4: aid to a Hostile faction is offered; it scores nothing and never improves, but he
    may take a crafted item."""
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, BOOT, TORCH)
    board.relations[MARQUISE] = HOSTILE
    g.supply[HAMMER] -= 1
    g.players[marquise].items.append(HAMMER)
    card_id = card_of(g, g.clearing_suit(9))
    take_cards(g, seat, card_id)
    daylight(g, seat, 9)
    choose(g, f"aid:{marquise}:{card_id}")
    choose(g, "exhaust:torch")
    assert decision(g).kind == "vagabond.aid_take"
    choose(g, f"take:{HAMMER}")
    assert (HAMMER, False, False) in board.items and board.taken == [HAMMER]
    assert board.hostile(MARQUISE) and g.players[seat].vp == 0
    assert card_id in g.players[marquise].hand


# -- 9.3 Setup -------------------------------------------------------------------------------


def test_9_3_setup_character_pawn_quests_ruins_items_and_relationships() -> None:
    """RV1, RV2: the chosen character's own items face up, the pawn in a forest, three quests
    face up, one ruin item under each ruin, every other faction Indifferent."""
    g, seat = table()
    board = vb(g, seat)
    assert board.character == THIEF  # the first option was taken
    assert sorted(board.items) == sorted((i, False, False) for i in (BOOT, TORCH, TEA, SWORD))
    assert isinstance(g.woodland.pawn, str)
    assert len(board.quests) == 3 and len(board.quest_deck) == 12
    assert sorted(board.ruins.values()) == sorted((BAG, BOOT, HAMMER, SWORD))
    assert all(g.woodland.has_ruin(c) for c in board.ruins)
    assert board.relations == {MARQUISE: INDIFFERENT, EYRIE: INDIFFERENT, ALLIANCE: INDIFFERENT}


# -- 9.4 Birdsong ------------------------------------------------------------------------------


def test_9_4_1_refresh_counts_the_tea_face_up_at_the_start_of_birdsong() -> None:
    """RV1, RV8: an exhausted tea adds nothing: three refreshes, chosen one at a time."""
    g, seat = table()
    board = give_items(g, seat, BOOT, BOOT, TORCH, SWORD, TEA)
    board.items = [(i, True, False) for i, _, _ in board.items]
    g.woodland.place_pawn(9)
    g.stack = [begin_birdsong(g, seat)]
    g.resume()
    for _ in range(3):
        assert decision(g).kind == "vagabond.refresh"
        choose(g, "refresh:tea" if "refresh:tea" in keys(g) else keys(g)[0])
    assert decision(g).kind == "vagabond.slip"
    assert sum(1 for _, e, _ in board.items if not e) == 3


def test_9_4_2_slip_needs_no_boot_even_into_hostile_warriors_or_a_forest() -> None:
    g, seat = table()
    board = give_items(g, seat, TORCH)
    board.relations[EYRIE] = HOSTILE
    put(g, EYRIE, 12, 3)
    g.woodland.place_pawn(9)
    g.stack = [begin_birdsong(g, seat)]
    g.resume()
    assert {"stay", "slip:12", f"slip:{FOREST_NW}"} <= set(keys(g))
    choose(g, "slip:12")
    assert g.woodland.pawn == 12


# -- 9.5 Daylight ------------------------------------------------------------------------------


def test_9_5_1_from_a_forest_he_moves_into_an_adjacent_clearing_never_a_forest() -> None:
    """RV13: Daylight in a forest offers moves into its clearings (one boot, two into Hostile
    warriors)."""
    g, seat = table()
    board = give_items(g, seat, BOOT)
    board.relations[EYRIE] = HOSTILE
    put(g, EYRIE, 12, 1)
    for c in (1, 9, 10):
        put(g, EYRIE, c, 0)
    daylight(g, seat, FOREST_NW)
    assert decision(g).kind == "vagabond.action"
    assert keys(g) == ["move:1", "move:9", "move:10", "done"]
    choose(g, "move:10")
    assert g.woodland.pawn == 10 and not board.ready(BOOT)


def test_9_5_2_battle_exhausts_a_sword_only_with_an_enemy_in_his_clearing(
    dice: list[int],
) -> None:
    g, seat = table()
    board = give_items(g, seat, SWORD)
    for faction in (MARQUISE, EYRIE, ALLIANCE):
        put(g, faction, 8, 0)
    daylight(g, seat, 8)
    assert "battle" not in keys(g)
    put(g, EYRIE, 8, 1)
    g.players[g.seat_of[EYRIE]].hand = []
    daylight(g, seat, 8)
    dice[:] = [1, 0]
    choose(g, "battle")
    assert board.items == [(SWORD, True, False)] and g.woodland.warriors(EYRIE, 8) == 0


def test_9_5_3_explore_takes_the_ruin_item_scores_and_removes_the_ruin() -> None:
    g, seat = table()
    board = give_items(g, seat, TORCH)
    item = board.ruins[12]
    daylight(g, seat, 12)
    choose(g, "explore")
    assert (item, False, False) in board.items and not g.woodland.has_ruin(12)
    assert g.players[seat].vp == 1 and 12 not in board.ruins


def test_9_5_4_aid_a_player_with_only_a_building_there() -> None:
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    give_items(g, seat, BOOT)
    put(g, MARQUISE, 5, 0)  # the workshop and recruiter stay
    for faction in (EYRIE, ALLIANCE):
        put(g, faction, 5, 0)
    card_id = card_of(g, g.clearing_suit(5))
    bird = card_of(g, BIRD)
    take_cards(g, seat, card_id, bird)
    daylight(g, seat, 5)
    assert {f"aid:{marquise}:{card_id}", f"aid:{marquise}:{bird}"} <= set(keys(g))
    choose(g, f"aid:{marquise}:{bird}")  # birds are wild
    assert bird in g.players[marquise].hand and g.players[seat].vp == 1


def test_9_5_5_quest_scores_its_suits_completed_quests_or_draws_two() -> None:
    g, seat = table()
    board = give_items(g, seat, SWORD, SWORD, TORCH, SWORD, TORCH)
    board.quests = ["mouse_expel_bandits", "mouse_guard_duty", "fox_errand"]
    board.quest_deck = ["fox_repair_a_shed"]
    daylight(g, seat, 9)  # a mouse clearing
    assert g.clearing_suit(9) == "mouse"
    choose(g, "quest:mouse_expel_bandits")
    choose(g, "reward:vp")
    assert g.players[seat].vp == 1
    hand = len(g.players[seat].hand)
    choose(g, "quest:mouse_guard_duty")
    assert keys(g) == ["reward:vp", "reward:cards"]  # 2 VP, or two cards
    choose(g, "reward:cards")
    assert len(g.players[seat].hand) == hand + 2 and g.players[seat].vp == 1
    assert len(board.quests) == 2 and board.completed == ["mouse_expel_bandits", "mouse_guard_duty"]


def test_9_5_6_strike_takes_a_warrior_first_then_a_building_or_token() -> None:
    g, seat = table()
    marquise = g.seat_of[MARQUISE]
    board = give_items(g, seat, CROSSBOW, CROSSBOW)
    g.players[marquise].hand = []  # no Field Hospitals to answer
    put(g, MARQUISE, 5, 1)
    for faction in (EYRIE, ALLIANCE):
        put(g, faction, 5, 0)
    daylight(g, seat, 5)
    strikes = [k for k in keys(g) if k.startswith(f"strike:{marquise}")]
    assert strikes == [f"strike:{marquise}:warrior"]
    choose(g, f"strike:{marquise}:warrior")
    strikes = [k for k in keys(g) if k.startswith(f"strike:{marquise}")]
    assert strikes == [f"strike:{marquise}:recruiter", f"strike:{marquise}:workshop"]
    choose(g, f"strike:{marquise}:workshop")
    assert g.players[seat].vp == 1  # the building's point, no infamy (not in battle)
    assert board.hostile(MARQUISE)


def test_9_5_7_repair_keeps_the_side_and_works_in_a_forest() -> None:
    """RV13, RV7: a hammer repairs in a forest too, and the item keeps its side."""
    g, seat = table()
    board = give_items(g, seat, HAMMER)
    board.items.append((SWORD, True, True))
    daylight(g, seat, FOREST_NW)
    assert "repair:sword" in keys(g)
    choose(g, "repair:sword")
    assert (SWORD, True, False) in board.items


def test_9_5_8_craft_exhausts_one_hammer_per_icon() -> None:
    g, seat = table()
    board = give_items(g, seat, HAMMER, character=TINKER)
    c = 9
    suit = g.clearing_suit(c)
    two = next(x for x in g.deck if CARD_BY_ID[x].cost == (suit, suit))
    take_cards(g, seat, two)
    daylight(g, seat, c)
    assert f"craft:{two}" not in keys(g)
    board.gain(HAMMER)
    daylight(g, seat, c)
    choose(g, f"craft:{two}")
    assert board.count(HAMMER, ready=True) == (CARD_BY_ID[two].item == HAMMER)


def test_9_5_9_special_actions_steal_day_labor_and_hideout_in_a_forest() -> None:
    g, seat = table()
    give_items(g, seat, TORCH, character=THIEF)
    eyrie = g.seat_of[EYRIE]
    put(g, EYRIE, 9, 1)
    g.players[eyrie].hand = []
    taken = card_of(g, "fox")
    take_cards(g, eyrie, taken)
    daylight(g, seat, 9)
    choose(g, f"steal:{eyrie}")  # his only torch: Daylight ends, the Eyrie's turn begins
    assert taken in g.players[seat].hand and taken not in g.players[eyrie].hand

    g, seat = table()
    give_items(g, seat, TORCH, character=TINKER)
    bird = card_of(g, BIRD)
    g.deck.remove(bird)
    g.discard.append(bird)
    daylight(g, seat, 9)
    choose(g, f"day_labor:{bird}")  # a bird matches any clearing
    assert bird in g.players[seat].hand

    g, seat = table()
    board = give_items(g, seat, TORCH, character=RANGER)
    board.items.append((BOOT, False, True))
    daylight(g, seat, FOREST_NW)
    choose(g, "hideout")
    assert (BOOT, False, False) in board.items
    assert not g.stack or not isinstance(g.stack[-1], VagabondDaylight)  # Daylight is over


# -- 9.6 Evening -------------------------------------------------------------------------------


def evening(g: RootState, seat: int, where: int | str) -> None:
    g.woodland.place_pawn(where)
    g.players[seat].hand = []
    g.current = seat
    g.stack = [VagabondEvening(seat)]
    g.resume()


def test_9_6_1_rest_in_a_forest_repairs_and_flips_damaged_items_face_up() -> None:
    """RV7: rested items leave the Damaged box face up; undamaged exhausted ones stay."""
    g, seat = table()
    board = give_items(g, seat, TORCH)
    board.items += [(SWORD, True, True), (BOOT, True, False)]
    evening(g, seat, FOREST_NW)
    assert sorted(board.items) == [
        (BOOT, True, False),
        (SWORD, False, False),
        (TORCH, False, False),
    ]


def test_9_6_2_draw_one_plus_one_per_face_up_coin() -> None:
    g, seat = table()
    board = give_items(g, seat, COIN, COIN)
    board.exhaust(COIN)
    evening(g, seat, 9)
    assert len(g.players[seat].hand) == 2  # the exhausted coin is face down in the Satchel


def test_9_6_3_discard_down_to_five() -> None:
    g, seat = table()
    give_items(g, seat, BOOT)
    g.woodland.place_pawn(9)
    g.players[seat].hand = []
    deal_cards(g, seat, BIRD, 6)
    g.current = seat
    g.stack = [VagabondEvening(seat)]
    g.resume()  # 6 + 1 drawn: two to discard, one at a time
    for _ in range(2):
        assert decision(g).kind == "hand_limit.discard"
        choose(g, keys(g)[0])
    assert len(g.players[seat].hand) == 5


def test_9_6_4_capacity_counts_satchel_and_damaged_box_never_the_tracks() -> None:
    """RV3: 6 items in the Satchel plus a face-up bag (capacity 8) and a face-up tea: nothing
    to remove; exhaust the bag and one is over (capacity 6, the bag in the Satchel), and the
    tea on its track is not offered."""
    g, seat = table()
    board = give_items(g, seat, BOOT, BOOT, SWORD, SWORD, TORCH, HAMMER, BAG, TEA)
    evening(g, seat, 9)
    assert not g.pending() or decision(g).kind != "vagabond.capacity"
    g, seat = table()
    board = give_items(g, seat, BOOT, BOOT, SWORD, SWORD, TORCH, HAMMER, BAG, TEA)
    board.exhaust(BAG)
    evening(g, seat, 9)
    assert decision(g).kind == "vagabond.capacity"
    assert "remove:tea" not in keys(g) and "remove:bag" in keys(g)
    choose(g, "remove:bag")
    assert not g.pending() or decision(g).kind != "vagabond.capacity"
    assert len(board.in_satchel_or_damaged()) == 6 and (TEA, False, False) in board.items


def test_rt23_the_search_judges_a_coalition_together() -> None:
    """RT23 (a coalition wins together) for the search bot: the Vagabond in a coalition is
    judged by his partner's projection; every other seat by its own."""
    g, seat = table()
    assert evaluate.partners(g) == (0, 1, 2, 3)
    partner = form_coalition(g, seat, MARQUISE)
    judge = evaluate.partners(g)
    assert judge[seat] == partner
    assert all(judge[s] == s for s in range(4) if s != seat)
