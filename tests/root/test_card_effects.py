"""Persistent card effects used in turn windows (ruling RT7) and Better Burrow Bank (RT8)."""

from __future__ import annotations

from games.contract import Event
from games.root.eyrie import EyrieDaylight, board_of
from games.root.positions import EYRIE, EYRIE_SEAT, MARQUISE, MARQUISE_SEAT, position
from tests.root.helpers import choose, decision, keys


def apply_key(g, key: str) -> tuple[Event, ...]:  # type: ignore[no-untyped-def]
    d = decision(g)
    index = [o.key for o in d.options].index(key)
    return g.apply(d.seat, index)


def base(**kwargs: object):  # type: ignore[no-untyped-def]
    """The Marquise's turn with a keep and some warriors, hands empty unless given."""
    kwargs.setdefault("hands", {MARQUISE: (), EYRIE: ()})
    kwargs.setdefault(
        "warriors", {1: {MARQUISE: 2}, 2: {MARQUISE: 1}, 3: {EYRIE: 2}, 5: {MARQUISE: 1, EYRIE: 1}}
    )
    kwargs.setdefault("tokens", {1: ((MARQUISE, "keep"),)})
    return position(**kwargs)  # type: ignore[arg-type]


def test_rt7_royal_claim_in_the_birdsong_window_scores_ruled_clearings_and_is_discarded() -> None:
    g = base(crafted={MARQUISE: ("royal_claim",)})
    d = decision(g)
    assert d.kind == "cards.birdsong" and d.seat == MARQUISE_SEAT
    assert keys(g) == ["use:royal_claim", "done"]
    ruled = len(g.woodland.ruled_by(MARQUISE))
    choose(g, "use:royal_claim")
    assert g.players[MARQUISE_SEAT].vp == ruled == 2
    assert g.players[MARQUISE_SEAT].crafted == [] and "royal_claim" in g.discard


def test_stand_and_deliver_takes_a_random_card_privately_and_the_victim_scores() -> None:
    g = base(
        crafted={MARQUISE: ("stand_and_deliver_1",)},
        hands={MARQUISE: (), EYRIE: ("anvil", "sword")},
    )
    events = apply_key(g, "use:stand_and_deliver")
    taken = g.players[MARQUISE_SEAT].hand
    assert len(taken) == 1 and taken[0] in ("anvil", "sword")
    assert len(g.players[EYRIE_SEAT].hand) == 1
    assert g.players[EYRIE_SEAT].vp == 1
    public = [e for e in events if e.kind == "card_taken"]
    assert public and "card" not in public[0].data
    private = [e for e in events if e.kind == "card_taken_detail"]
    assert {e.private_to for e in private} == {MARQUISE_SEAT, EYRIE_SEAT}
    assert all(e.data["card"] == taken[0] for e in private)
    # Once per turn: the window no longer offers it.
    assert decision(g).kind != "cards.birdsong"


def test_stand_and_deliver_needs_a_card_to_take() -> None:
    g = base(crafted={MARQUISE: ("stand_and_deliver_1",)})
    assert all(d.kind != "cards.birdsong" for d in g.pending())


def test_rt8_better_burrow_bank_draws_for_you_and_the_next_seat_without_asking() -> None:
    g = base(crafted={MARQUISE: ("better_burrow_bank_1",)})
    # Drawn at the start of the Marquise's turn; the Marquise may then hold more cards.
    assert len(g.players[EYRIE_SEAT].hand) == 1
    assert len(g.players[MARQUISE_SEAT].hand) >= 1


def test_command_warren_starts_a_battle_at_the_start_of_daylight() -> None:
    g = base(crafted={MARQUISE: ("command_warren_1",)})
    d = decision(g)
    assert d.kind == "cards.daylight_start"
    assert keys(g) == ["use:command_warren", "done"]
    choose(g, "use:command_warren")
    assert decision(g).kind.startswith("battle.") or g.woodland.warriors(EYRIE, 5) <= 1


def test_command_warren_is_not_offered_without_a_battle() -> None:
    g = base(
        crafted={MARQUISE: ("command_warren_1",)},
        warriors={1: {MARQUISE: 2}, 3: {EYRIE: 2}},
    )
    assert all(not d.kind.startswith("cards.") for d in g.pending())


def test_tax_collector_removes_a_warrior_to_draw_once_per_turn() -> None:
    g = base(crafted={MARQUISE: ("tax_collector_1",)})
    assert keys(g) == ["use:tax_collector", "done"]
    choose(g, "use:tax_collector")
    assert decision(g).kind == "effect.tax_collector"
    assert keys(g) == ["clearing:1", "clearing:2", "clearing:5"]
    hand = len(g.players[MARQUISE_SEAT].hand)
    choose(g, "clearing:2")
    assert g.woodland.warriors(MARQUISE, 2) == 0
    assert len(g.players[MARQUISE_SEAT].hand) == hand + 1
    assert "tax_collector" in g.players[MARQUISE_SEAT].used


def test_codebreakers_shows_the_hand_to_the_user_only() -> None:
    g = base(
        crafted={MARQUISE: ("codebreakers_1",)},
        hands={MARQUISE: (), EYRIE: ("anvil", "sword")},
    )
    assert decision(g).kind == "cards.daylight_start"
    events = apply_key(g, "use:codebreakers")
    seen = [e for e in events if e.kind == "looked_at_hand"]
    assert len(seen) == 1 and seen[0].private_to == MARQUISE_SEAT
    assert sorted(seen[0].data["cards"]) == ["anvil", "sword"]
    assert not any(e.kind == "looked_at_hand" and e.private_to is None for e in events)


def test_cobbler_offers_a_move_at_the_start_of_evening() -> None:
    g = base(crafted={MARQUISE: ("cobbler_1",)})
    seen = []
    while g.pending() and g.current == MARQUISE_SEAT:
        d = decision(g)
        seen.append(d.kind)
        if d.kind == "cards.evening":
            assert keys(g) == ["use:cobbler", "done"]
            choose(g, "use:cobbler")
            assert decision(g).kind == "move.origin"
            break
        # Otherwise end the step: "done" where offered, else the first option.
        options = [o.key for o in d.options]
        g.apply(d.seat, options.index("done") if "done" in options else 0)
    assert "cards.evening" in seen or decision(g).kind == "move.origin"


# -- effects usable at any point of a phase (RT7) ------------------------------------------------


def test_rt7_royal_claim_after_a_new_roost() -> None:
    """Royal Claim: "In Birdsong, you may discard this card to score one victory point per
    clearing you rule." Law 7.4.3 A New Roost is the last step of the Eyrie's Birdsong: the
    claim may wait for it. With no roost on the map the Eyrie rule nothing at the start of
    Birdsong; the new roost and its three warriors go to the one clearing without warriors, and
    the window at the end of Birdsong scores it."""
    empty = 12
    g = position(
        warriors={c: {MARQUISE: 1} for c in range(1, 13) if c != empty},
        hands={MARQUISE: (), EYRIE: ("anvil",)},
        crafted={EYRIE: ("royal_claim",)},
        current=EYRIE,
    )
    d = decision(g)
    assert (d.kind, d.seat) == ("cards.birdsong", EYRIE_SEAT)
    assert g.woodland.ruled_by(EYRIE) == ()
    choose(g, "done")
    # Adding to the Decree offers it too (before the first card), then the new roost.
    assert decision(g).kind == "eyrie.decree_card"
    assert keys(g) == ["decree:anvil", "use:royal_claim"]
    choose(g, "decree:anvil")
    choose(g, "column:move")
    d = decision(g)
    assert (d.kind, d.seat) == ("cards.birdsong_end", EYRIE_SEAT)
    assert g.woodland.warriors(EYRIE, empty) == 3
    assert keys(g) == ["use:royal_claim", "done"]
    choose(g, "use:royal_claim")
    assert g.players[EYRIE_SEAT].vp == len(g.woodland.ruled_by(EYRIE)) == 1
    assert "royal_claim" in g.discard and g.players[EYRIE_SEAT].crafted == []


def test_rt7_tax_collector_between_two_marquise_actions_once_per_turn() -> None:
    """Tax Collector: "Once in Daylight, you may remove one of your warriors from the map to
    draw a card." Between two of her actions the Marquise may use it; once used, neither her
    next action choice nor the end-of-Daylight window offers it again."""
    g = base(
        crafted={MARQUISE: ("tax_collector_1",)},
        buildings={1: ((MARQUISE, "recruiter"),)},
    )
    assert decision(g).kind == "cards.daylight_start"
    choose(g, "done")
    assert decision(g).kind == "marquise.action"
    assert "use:tax_collector" in keys(g)
    choose(g, "action:recruit")
    assert g.woodland.warriors(MARQUISE, 1) == 3
    assert decision(g).kind == "marquise.action"
    assert "use:tax_collector" in keys(g)
    choose(g, "use:tax_collector")
    assert decision(g).kind == "effect.tax_collector"
    choose(g, "clearing:5")
    assert g.woodland.warriors(MARQUISE, 5) == 0 and len(g.players[MARQUISE_SEAT].hand) == 1
    d = decision(g)
    assert d.kind == "marquise.action" and "use:tax_collector" not in keys(g)
    choose(g, "done")
    assert decision(g).kind != "cards.daylight_end"
    assert g.players[MARQUISE_SEAT].used == ("tax_collector",)


def test_rt7_codebreakers_before_any_decree_card() -> None:
    """Codebreakers: "Once in Daylight, you may look at another player's hand." The Eyrie may
    look before each Decree card they resolve: the choice of the next card is asked even with a
    single card left, and no longer once the effect is used."""
    g = position(
        warriors={5: {EYRIE: 2}, 3: {MARQUISE: 1}},
        buildings={5: ((EYRIE, "roost"),)},
        hands={MARQUISE: ("anvil",), EYRIE: ()},
        crafted={EYRIE: ("codebreakers_1",)},
        current=EYRIE,
        hold=True,
    )
    board_of(g, EYRIE_SEAT).decree = ((), ("loyal_vizier_1",), (), ("loyal_vizier_2",))
    g.push(EyrieDaylight(EYRIE_SEAT))
    g.resume()
    assert decision(g).kind == "eyrie.order"
    assert keys(g) == ["resolve:bird", "use:codebreakers"]
    choose(g, "use:codebreakers")
    # Used: the single Move card is taken without asking, and its move begins (from clearing 5,
    # the only origin).
    assert decision(g).kind == "move.destination"
    assert "codebreakers" in g.players[EYRIE_SEAT].used


def test_rt7_an_automatic_birdsong_has_one_window() -> None:
    """The Marquise's Birdsong places wood without a choice: the window at its start is the only
    Birdsong window (one at its end would ask the same question again)."""
    g = base(crafted={MARQUISE: ("royal_claim",)})
    assert decision(g).kind == "cards.birdsong"
    choose(g, "done")
    assert decision(g).kind not in ("cards.birdsong", "cards.birdsong_end")
