"""Crafting (Law 4.1): costs against crafting pieces, items, favors, persistent effects.

The shared ``Craft`` step is driven directly with the crafting pieces given by suit; the
factions' own pieces (workshops, roosts) are tested with each faction.
"""

from __future__ import annotations

import pytest

from games.root.cards import CARD_BY_ID, standard_deck
from games.root.crafting import Craft, payments
from games.root.eyrie import board_of
from games.root.maps import AUTUMN, clearings_of_suit
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision, keys


def craft_position(pieces: dict[str, int], hand: tuple[str, ...], **kwargs: object):  # type: ignore[no-untyped-def]
    return position(
        hands={MARQUISE: hand, EYRIE: ()},
        hold=True,
        step=Craft(MARQUISE_SEAT, pieces),
        **kwargs,  # type: ignore[arg-type]
    )


def test_payments_match_suits_and_spread_any_icons() -> None:
    assert payments(("fox", "fox"), (2, 0, 0)) == [(2, 0, 0)]
    assert payments(("fox", "fox"), (1, 3, 3)) == []
    assert payments(("fox", "rabbit", "mouse"), (1, 1, 1)) == [(1, 1, 1)]
    # Royal Claim: four icons of any suit, every distinct split of the pieces is a way to pay.
    assert sorted(payments(("any",) * 4, (2, 1, 1))) == [(2, 1, 1)]
    assert sorted(payments(("any",) * 4, (2, 2, 1))) == [(1, 2, 1), (2, 1, 1), (2, 2, 0)]
    assert payments(("any",) * 4, (1, 1, 1)) == []


def test_only_cards_whose_cost_the_pieces_cover_are_offered() -> None:
    g = craft_position(
        {"fox": 1, "mouse": 1},
        ("anvil", "foxfolk_steel", "root_tea_fox", "bake_sale", "ambush_fox"),
    )
    assert decision(g).kind == "craft.card"
    # Anvil (fox), Root Tea (mouse); not Foxfolk Steel (2 fox), Bake Sale (2 rabbit), Ambush.
    assert keys(g) == ["craft:anvil", "craft:root_tea_fox", "done"]


def test_each_piece_is_activated_once_per_turn() -> None:
    g = craft_position({"fox": 1}, ("anvil", "crossbow_bird"))
    choose(g, "craft:anvil")
    # The only fox piece is spent: the crossbow (fox) cannot be crafted any more.
    assert g.players[MARQUISE_SEAT].hand == ["crossbow_bird"]
    assert not g.stack or g.stack[-1].name != "craft"


def test_item_craft_takes_the_item_and_scores_the_card() -> None:
    g = craft_position({"rabbit": 2}, ("bake_sale",))
    supply = g.supply["coin"]
    choose(g, "craft:bake_sale")
    player = g.players[MARQUISE_SEAT]
    assert player.items == ["coin"] and player.vp == 3
    assert g.supply["coin"] == supply - 1
    assert "bake_sale" in g.discard


def test_an_item_not_in_the_supply_cannot_be_crafted() -> None:
    g = position(
        hands={MARQUISE: ("anvil", "travel_gear_fox"), EYRIE: ()},
        hold=True,
        step=Craft(MARQUISE_SEAT, {"fox": 1, "rabbit": 1}),
    )
    g.supply["hammer"] = 0
    g.stack[-1] = Craft(MARQUISE_SEAT, {"fox": 1, "rabbit": 1})
    g.resume()
    assert keys(g) == ["craft:travel_gear_fox", "done"]


def test_persistent_effects_go_to_the_play_area_and_never_twice() -> None:
    g = craft_position({"mouse": 3}, ("codebreakers_1", "codebreakers_2", "scouting_party_1"))
    assert keys(g) == [
        "craft:codebreakers_1",
        "craft:codebreakers_2",
        "craft:scouting_party_1",
        "done",
    ]
    choose(g, "craft:codebreakers_1")
    assert g.players[MARQUISE_SEAT].crafted == ["codebreakers_1"]
    # No duplicate: the second Codebreakers is no longer offered.
    assert keys(g) == ["craft:scouting_party_1", "done"]


def test_favor_removes_every_enemy_piece_in_its_suit_and_scores_buildings() -> None:
    foxes = clearings_of_suit(AUTUMN, "fox")
    a, b = foxes[0], foxes[1]
    other = clearings_of_suit(AUTUMN, "mouse")[0]
    g = position(
        warriors={a: {EYRIE: 3, MARQUISE: 1}, b: {EYRIE: 1}, other: {EYRIE: 2}},
        buildings={b: ((EYRIE, "roost"),)},
        hands={MARQUISE: ("favor_of_the_foxes",), EYRIE: ()},
        hold=True,
        step=Craft(MARQUISE_SEAT, {"fox": 3}),
    )
    choose(g, "craft:favor_of_the_foxes")
    w = g.woodland
    assert w.warriors(EYRIE, a) == 0 and w.warriors(EYRIE, b) == 0
    assert (EYRIE, "roost") not in w.buildings(b)
    assert w.warriors(EYRIE, other) == 2, "other suits are untouched"
    assert w.warriors(MARQUISE, a) == 1, "your own pieces stay"
    assert g.players[MARQUISE_SEAT].vp == 1  # one building removed
    assert "favor_of_the_foxes" in g.discard


def test_royal_claim_offers_each_way_to_pay() -> None:
    g = craft_position({"fox": 2, "rabbit": 2, "mouse": 1}, ("royal_claim",))
    assert sorted(keys(g)) == sorted(
        [
            "craft:royal_claim:1f/2r/1m",
            "craft:royal_claim:2f/1r/1m",
            "craft:royal_claim:2f/2r",
            "done",
        ]
    )
    choose(g, "craft:royal_claim:2f/2r")
    assert g.players[MARQUISE_SEAT].crafted == ["royal_claim"]


def test_eyrie_craft_of_an_item_scores_one_under_disdain_for_trade() -> None:
    g = position(
        hands={EYRIE: ("bake_sale",), MARQUISE: ()},
        current=EYRIE,
        hold=True,
        step=Craft(EYRIE_SEAT, {"rabbit": 2}),
    )
    choose(g, "craft:bake_sale")
    leader = dict(g.players[EYRIE_SEAT].board.public())["leader"]
    expected = 3 if leader == "builder" else 1
    assert g.players[EYRIE_SEAT].vp == expected


def _pieces_for(cost: tuple[str, ...]) -> dict[str, int]:
    pieces = {"fox": 0, "rabbit": 0, "mouse": 0}
    for icon in cost:
        pieces["fox" if icon == "any" else icon] += 1
    return pieces


@pytest.mark.parametrize(
    "card_id", [c.id for c in standard_deck(2) if c.kind == "item"], ids=lambda c: c
)
def test_every_item_card_gives_its_item_and_printed_vp(card_id: str) -> None:
    card = CARD_BY_ID[card_id]
    g = craft_position(_pieces_for(card.cost), (card_id,))
    assert keys(g) == [f"craft:{card_id}", "done"]
    choose(g, f"craft:{card_id}")
    player = g.players[MARQUISE_SEAT]
    assert player.items == [card.item] and player.vp == card.vp
    assert card_id in g.discard and card_id not in player.hand


@pytest.mark.parametrize(
    "card_id", [c.id for c in standard_deck(2) if c.kind == "persistent"], ids=lambda c: c
)
def test_every_persistent_card_goes_to_the_play_area(card_id: str) -> None:
    card = CARD_BY_ID[card_id]
    g = craft_position(_pieces_for(card.cost), (card_id,))
    choose(g, keys(g)[0])
    assert g.players[MARQUISE_SEAT].crafted == [card_id]
    assert card_id not in g.discard


@pytest.mark.parametrize("suit", ["fox", "rabbit", "mouse"])
def test_every_favor_clears_its_suit_only(suit: str) -> None:
    favor_id = {"fox": "favor_of_the_foxes", "rabbit": "favor_of_the_rabbits"}.get(
        suit, "favor_of_the_mice"
    )
    warriors = {c.id: {EYRIE: 1} for c in AUTUMN.clearings}
    g = craft_position({suit: 3}, (favor_id,), warriors=warriors)
    choose(g, f"craft:{favor_id}")
    for c in AUTUMN.clearings:
        expected = 0 if c.suit == suit else 1
        assert g.woodland.warriors(EYRIE, c.id) == expected, c.id


def test_cards_that_cannot_be_crafted_are_never_offered() -> None:
    g = craft_position({"fox": 3, "rabbit": 3, "mouse": 3}, ("ambush_fox", "ambush_bird_1"))
    assert decision(g).kind != "craft.card" or keys(g) == ["done"]


def test_disdain_for_trade_is_ignored_under_the_builder() -> None:
    """Law 7.2.3 Disdain for Trade: "Whenever the Eyrie craft an item, they ignore the listed
    victory points and instead score only one victory point." Law 7.8.1 Builder: "Whenever you
    craft, you ignore your Disdain for Trade special ability." The Japanese rules summary says
    crafting always scores the Eyrie 1 VP and names no leader; the Law is followed (docs/rulings/root.md).
    Bake Sale is printed 3 VP."""
    scored = {}
    for leader in ("builder", "despot"):
        g = position(
            hands={EYRIE: ("bake_sale",), MARQUISE: ()},
            current=EYRIE,
            hold=True,
        )
        board_of(g, EYRIE_SEAT).leader = leader
        g.push(Craft(EYRIE_SEAT, {"rabbit": 2}))
        g.resume()
        choose(g, "craft:bake_sale")
        scored[leader] = g.players[EYRIE_SEAT].vp
    assert scored == {"builder": 3, "despot": 1}
