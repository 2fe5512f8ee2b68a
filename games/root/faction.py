"""What the shared rules ask of a faction: one small interface, one subclass per faction.

The shared layer (turn phases, deck, crafting, movement, battle, removal) is the same for every
faction; the places where factions differ are the hooks below. ``marquise.py`` and ``eyrie.py``
implement them for part 1; the Alliance and the Vagabond will add their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import random

    from games.root.cards import Card
    from games.root.state import RootState
    from games.root.steps import Step

BIRDSONG, DAYLIGHT, EVENING = "birdsong", "daylight", "evening"
PHASES: tuple[str, ...] = (BIRDSONG, DAYLIGHT, EVENING)


class FactionBoard:
    """The faction-specific state of one player (tracks, supplies, leader...). Copyable."""

    __slots__ = ()

    def copy(self) -> FactionBoard:
        raise NotImplementedError

    def canonical(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def public(self) -> dict[str, Any]:
        """Everything on this board that every seat may see."""
        raise NotImplementedError

    @classmethod
    def from_public(cls, values: dict[str, Any]) -> FactionBoard:
        """The board again from ``public()`` (plus ``private()`` in the owner's own view): what
        lets a bot rebuild a playable position from its observation. Cards it cannot see (the
        Alliance's supporters, seen from another seat) come back as placeholders that
        ``RootState.redeal`` deals again."""
        raise NotImplementedError

    def private(self) -> dict[str, Any]:
        """What only the owner sees of this board (the Alliance's supporters), added to
        ``public()`` in the owner's own view."""
        return {}

    def hidden_cards(self) -> tuple[str, ...]:
        """Face-down cards on this board that other seats cannot see (the Alliance's
        supporters): determinization deals them again with the other hidden cards (RT6)."""
        return ()

    def set_hidden_cards(self, cards: list[str]) -> None:
        """Replace the ``hidden_cards`` (same number) with ``cards``."""
        if cards:
            raise ValueError("this board holds no hidden cards")

    def warriors_off_map(self) -> int:
        """Warriors out of the supply but not on the map (the Alliance's officers)."""
        return 0

    def redeal_hidden(self, rng: random.Random) -> None:
        """Shuffle again what no seat can see on this board that is not a card of the deck
        (the Vagabond's quest deck and ruin items): determinization (RT6)."""


class Faction:
    """The rules of one faction. Instances are stateless; state lives in ``FactionBoard``."""

    #: ``marquise``, ``eyrie``, ... (the strings of ``woodland.FACTIONS``).
    name: ClassVar[str]
    #: Warriors in the box (the supply limit, Law 1.4 "Limits").
    warriors: ClassVar[int]
    #: Setup order (Law 5.1 step 7: A Marquise, B Eyrie, C Alliance, D Vagabond).
    setup_order: ClassVar[int]
    #: Whether ``blocks_placement`` is overridden, i.e. can ever say yes (set for each subclass;
    #: spares ``may_place`` the call for the others).
    blocks_anything: ClassVar[bool] = False
    #: Whether ``enemy_moved`` is overridden (set for each subclass; spares every move the call).
    watches_moves: ClassVar[bool] = False
    #: Guerrilla War (the Alliance, Law 8.2.2): as defender this faction deals the higher roll.
    guerrilla: ClassVar[bool] = False
    #: The Vagabond (Law 9.2.8 with 3.3): activates a dominance card only to form a coalition
    #: (four or more players), never for its own dominance victory (``dominance.options``).
    can_form_coalition: ClassVar[bool] = False

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.blocks_anything = cls.blocks_placement is not Faction.blocks_placement
        cls.watches_moves = cls.enemy_moved is not Faction.enemy_moved

    def new_board(self) -> FactionBoard:
        raise NotImplementedError

    def setup(self, g: RootState, seat: int) -> Step | None:
        """The step that sets this faction up (it may ask decisions), or None if automatic."""
        raise NotImplementedError

    def coalition_formed(self, g: RootState, seat: int, partner: int) -> None:
        """``seat`` (a faction that ``can_form_coalition``) formed a coalition with
        ``partner``: what its board changes (nothing by default)."""

    def phase(self, g: RootState, seat: int, phase: str) -> Step | None:
        """The faction's own part of ``phase`` (run after the shared start-of-phase effects)."""
        raise NotImplementedError

    def crafting_pieces(self, g: RootState, seat: int) -> dict[str, int]:
        """Crafting pieces on the map by clearing suit (workshops, roosts...)."""
        raise NotImplementedError

    def craft_vp(self, g: RootState, seat: int, card: Card) -> int:
        """VP for crafting an item card (the Eyrie's Disdain for Trade changes it)."""
        return card.vp

    def battle_extra_hits(self, g: RootState, seat: int, attacking: bool) -> int:
        """Extra hits this faction's own abilities add in battle (the Eyrie's Commander)."""
        return 0

    def removed_in_battle(self, g: RootState, seat: int, buildings_or_tokens: int) -> None:
        """Called on the remover after a battle removed enemy buildings/tokens (Despot)."""

    def warriors_removed(self, g: RootState, seat: int, c: int, count: int) -> None:
        """Called after ``count`` of this faction's warriors left clearing ``c`` by removal
        (Field Hospitals pushes its offer here)."""

    def piece_removed(
        self, g: RootState, seat: int, c: int, kind: str, by: int | None = None
    ) -> None:
        """Called after a building or token of this faction was removed by seat ``by`` (None:
        by no one) (the keep leaves the game, a roost goes back to its track, a removed
        sympathy token outrages the Alliance...)."""

    def enemy_moved(self, g: RootState, seat: int, mover: int, c: int) -> None:
        """Called after another seat (``mover``) moved warriors into clearing ``c`` (the
        Alliance's Outrage, Law 8.2.6)."""

    def blocks_placement(self, g: RootState, seat: int, placer: int, c: int) -> bool:
        """Whether this faction (at ``seat``) forbids ``placer`` to place pieces in ``c``
        (the Marquise's keep, Law 6.2.2)."""
        return False

    #: Whether this faction fights with a pawn, not warriors (the Vagabond, Law 9.2.2).
    pawn: ClassVar[bool] = False

    def battle_strength(self, g: RootState, seat: int, c: int) -> int:
        """The cap on this faction's rolled hits in ``c`` (Law 4.3.2: its warriors there; the
        Vagabond's undamaged swords); 0 makes it defenseless (Law 4.3.3.2)."""
        return g.woodland.warriors(g.faction_of(seat), c)

    def hit_choices(self, g: RootState, seat: int) -> tuple[str, ...]:
        """For a pawn faction: what a hit it takes can damage (the Vagabond's undamaged items)."""
        return ()

    def take_hit(self, g: RootState, seat: int, choice: str) -> None:
        """For a pawn faction: take one hit on ``choice`` (one of ``hit_choices``)."""
        raise NotImplementedError

    def removed_enemy(
        self, g: RootState, seat: int, victim: int, kind: str, count: int, attacking: bool
    ) -> None:
        """Called on the remover after its battle hits removed ``count`` of ``victim``'s
        ``kind`` pieces (``warrior`` or a building/token kind) (the Vagabond's relationships
        and infamy, Law 9.2.9)."""

    def full_removal(self, g: RootState, seat: int, c: int, by: int) -> None:
        """Called after an effect of ``by`` removed every enemy piece in ``c`` (a revolt, a
        favor card): the Vagabond's Full Removal (Law 9.2.2.1)."""
