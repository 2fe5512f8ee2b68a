"""The twelve tactic cards, one class each, read like the card texts (the Board Game Arena walkthrough,
its table 戦術カード).

"Soldier" never includes the daimyo. Every step offers only options after which the card can
still be completed. Rulings cited as Rn are in ``rulings.py``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.rumble_nation import options as opt
from games.rumble_nation.board import ADJ, AREA_COUNT, KYO, LAND_ADJ, SEA_ADJ
from games.rumble_nation.effects import Effect, has_opponent, has_opponent_row, opponents_in

if TYPE_CHECKING:
    from games.rumble_nation.state import RumbleNationState

NONE = -1


def _own_areas(s: RumbleNationState, seat: int, at_least: int = 1) -> list[int]:
    return [a for a in range(AREA_COUNT) if s.soldiers[a][seat] >= at_least]


@dataclasses.dataclass(slots=True)
class SourceToDestination(Effect):
    """Shared steps of Scout, Over the Mountain, Marine, Sub Squad and Ninja: pick an area of
    your soldiers, then where they go; ``_count`` soldiers move."""

    source: int = NONE

    def _sources(self, s: RumbleNationState) -> list[int]:
        return _own_areas(s, self.seat)

    def _destinations(self, s: RumbleNationState) -> list[int] | tuple[int, ...]:
        return ADJ[self.source]

    def _count(self, s: RumbleNationState) -> int:
        return 1

    def step(self) -> str:
        return "source" if self.source == NONE else "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.source == NONE:
            return opt.areas(self._sources(s))
        return opt.areas(self._destinations(s))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if self.source == NONE:
            self.source = value[1]
            return False
        s.move(self.seat, self.source, value[1], self._count(s))
        return True


@dataclasses.dataclass(slots=True)
class Scout(SourceToDestination):
    """偵察: move 1 of your soldiers to an adjacent area."""

    card: ClassVar[str] = "scout"

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.on_map[seat] > 0


@dataclasses.dataclass(slots=True)
class OverTheMountain(SourceToDestination):
    """越山: move 2 of your soldiers from one area to one land-adjacent area, both together."""

    card: ClassVar[str] = "over_the_mountain"
    links: ClassVar[tuple[tuple[int, ...], ...]] = LAND_ADJ

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        links = cls.links
        return any(row[seat] >= 2 and links[a] for a, row in enumerate(s.soldiers))

    def _sources(self, s: RumbleNationState) -> list[int]:
        return [a for a in range(AREA_COUNT) if s.soldiers[a][self.seat] >= 2 and self.links[a]]

    def _destinations(self, s: RumbleNationState) -> tuple[int, ...]:
        return self.links[self.source]

    def _count(self, s: RumbleNationState) -> int:
        return 2


@dataclasses.dataclass(slots=True)
class Marine(OverTheMountain):
    """水軍: move 2 of your soldiers from one area to one sea-adjacent area, both together."""

    card: ClassVar[str] = "marine"
    links: ClassVar[tuple[tuple[int, ...], ...]] = SEA_ADJ


@dataclasses.dataclass(slots=True)
class SubSquad(SourceToDestination):
    """分隊: from an area with 2+ of your soldiers, move half (rounded down) to one adjacent area."""

    card: ClassVar[str] = "sub_squad"

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return any(row[seat] >= 2 for row in s.soldiers)

    def _sources(self, s: RumbleNationState) -> list[int]:
        return _own_areas(s, self.seat, 2)

    def _count(self, s: RumbleNationState) -> int:
        return s.soldiers[self.source][self.seat] // 2


@dataclasses.dataclass(slots=True)
class Ninja(SourceToDestination):
    """忍者: move 1 of your soldiers to any other area where you have soldiers (R8)."""

    card: ClassVar[str] = "ninja"

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        found = 0
        for row in s.soldiers:
            if row[seat]:
                found += 1
                if found == 2:
                    return True
        return False

    def _destinations(self, s: RumbleNationState) -> list[int]:
        return [a for a in _own_areas(s, self.seat) if a != self.source]


@dataclasses.dataclass(slots=True)
class EnteringKyo(Effect):
    """入京: move any number of your soldiers from areas adjacent to Kyo into Kyo (R11)."""

    card: ClassVar[str] = "entering_kyo"
    moved: int = 0

    @classmethod
    def _sources(cls, s: RumbleNationState, seat: int) -> list[int]:
        return [a for a in ADJ[KYO] if s.soldiers[a][seat] > 0]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return bool(cls._sources(s, seat))

    def step(self) -> str:
        return "source"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        found = opt.areas(self._sources(s, self.seat))
        return found + (opt.STOP,) if self.moved else found

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if value[0] == "stop":
            return True
        s.move(self.seat, value[1], KYO, 1)
        self.moved += 1
        return not self._sources(s, self.seat)


@dataclasses.dataclass(slots=True)
class Support(Effect):
    """援軍: place 1 soldier from your stock in an area where you have soldiers (R7)."""

    card: ClassVar[str] = "support"

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.stock[seat] > 0 and s.on_map[seat] > 0

    def step(self) -> str:
        return "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        return opt.areas(_own_areas(s, self.seat))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        s.from_stock(self.seat, value[1], 1)
        return True


@dataclasses.dataclass(slots=True)
class Rebel(Effect):
    """反乱: return 1 opponent soldier to its owner's stock; put 1 of yours in its place (R7)."""

    card: ClassVar[str] = "rebel"
    area: int = NONE

    @classmethod
    def _areas(cls, s: RumbleNationState, seat: int) -> list[int]:
        return [a for a in range(AREA_COUNT) if has_opponent(s, a, seat)]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.stock[seat] > 0 and sum(s.on_map) > s.on_map[seat]

    def step(self) -> str:
        return "area" if self.area == NONE else "opponent"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.area == NONE:
            return opt.areas(self._areas(s, self.seat))
        return tuple(opt.seat(p) for p in opponents_in(s, self.area, self.seat))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if self.area == NONE:
            self.area = value[1]
            return False
        s.to_stock(value[1], self.area, 1)
        s.from_stock(self.seat, self.area, 1)
        return True


@dataclasses.dataclass(slots=True)
class OpponentMove(Effect):
    """Shared steps of Exile, Prisoner and Decoy: an area, an opponent there, a destination."""

    #: Soldiers the chosen opponent must have in the area.
    at_least: ClassVar[int] = 1
    area: int = NONE
    opponent: int = NONE

    @classmethod
    def _areas(cls, s: RumbleNationState, seat: int) -> list[int]:
        raise NotImplementedError

    def _destinations(self, s: RumbleNationState) -> list[int] | tuple[int, ...]:
        return ADJ[self.area]

    def _move(self, s: RumbleNationState, destination: int) -> None:
        s.move(self.opponent, self.area, destination, 1)

    def step(self) -> str:
        if self.area == NONE:
            return "area"
        return "opponent" if self.opponent == NONE else "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.area == NONE:
            return opt.areas(self._areas(s, self.seat))
        if self.opponent == NONE:
            return tuple(opt.seat(p) for p in opponents_in(s, self.area, self.seat, self.at_least))
        return opt.areas(self._destinations(s))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if self.area == NONE:
            self.area = value[1]
            return False
        if self.opponent == NONE:
            self.opponent = value[1]
            return False
        self._move(s, value[1])
        return True


@dataclasses.dataclass(slots=True)
class Exile(OpponentMove):
    """追放: from an area where you have soldiers, move 1 opponent soldier to an adjacent area."""

    card: ClassVar[str] = "exile"

    @classmethod
    def _areas(cls, s: RumbleNationState, seat: int) -> list[int]:
        return [
            a for a in range(AREA_COUNT) if s.soldiers[a][seat] > 0 and has_opponent(s, a, seat)
        ]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return any(row[seat] and sum(row) > row[seat] for row in s.soldiers)


@dataclasses.dataclass(slots=True)
class Prisoner(OpponentMove):
    """捕虜: move 1 opponent soldier from any area into an adjacent area where you have soldiers."""

    card: ClassVar[str] = "prisoner"

    @classmethod
    def _areas(cls, s: RumbleNationState, seat: int) -> list[int]:
        return [
            a
            for a in range(AREA_COUNT)
            if has_opponent(s, a, seat) and any(s.soldiers[b][seat] > 0 for b in ADJ[a])
        ]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        soldiers = s.soldiers
        for a, row in enumerate(soldiers):
            if sum(row) > row[seat]:
                for b in ADJ[a]:
                    if soldiers[b][seat]:
                        return True
        return False

    def _destinations(self, s: RumbleNationState) -> list[int]:
        return [b for b in ADJ[self.area] if s.soldiers[b][self.seat] > 0]


@dataclasses.dataclass(slots=True)
class Decoy(OpponentMove):
    """囮: move 1 of your soldiers and 2 of one opponent's, all from one area, to one adjacent area."""

    card: ClassVar[str] = "decoy"
    at_least: ClassVar[int] = 2

    @classmethod
    def _areas(cls, s: RumbleNationState, seat: int) -> list[int]:
        return [
            a for a in range(AREA_COUNT) if s.soldiers[a][seat] > 0 and has_opponent(s, a, seat, 2)
        ]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        for row in s.soldiers:
            if row[seat] and sum(row) - row[seat] >= 2 and has_opponent_row(row, seat, 2):
                return True
        return False

    def _move(self, s: RumbleNationState, destination: int) -> None:
        s.move(self.seat, self.area, destination, 1)
        s.move(self.opponent, self.area, destination, 2)


@dataclasses.dataclass(slots=True)
class Retreat(Effect):
    """撤退: return 2 of your soldiers from the map (one or two areas) to your stock (R12)."""

    card: ClassVar[str] = "retreat"
    returned: int = 0

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.on_map[seat] >= 2

    def step(self) -> str:
        return "first" if self.returned == 0 else "second"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        return opt.areas(_own_areas(s, self.seat))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        s.to_stock(self.seat, value[1], 1)
        self.returned += 1
        return self.returned == 2


TACTIC_EFFECTS: dict[str, type[Effect]] = {
    cls.card: cls
    for cls in (
        Scout,
        OverTheMountain,
        Marine,
        SubSquad,
        Ninja,
        EnteringKyo,
        Support,
        Rebel,
        Exile,
        Prisoner,
        Decoy,
        Retreat,
    )
}
