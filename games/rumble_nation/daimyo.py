"""The six daimyo cards of the advanced game, one class each (the Board Game Arena walkthrough, its table
大名カード).

A daimyo card is used instead of a turn, once per game, only while the daimyo is on the map
and before the cut-off. The origin of every effect is the daimyo's area when the card is played
(R10). "Up to N" effects act one piece per decision, with "stop" after the first.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option
from games.rumble_nation import options as opt
from games.rumble_nation.board import ADJ, LAND_ADJ, SEA_ADJ
from games.rumble_nation.effects import Effect, has_opponent, opponents_in

if TYPE_CHECKING:
    from games.rumble_nation.state import RumbleNationState

NONE = -1
UP_TO = 3


@dataclasses.dataclass(slots=True)
class Uesugi(Effect):
    """上杉謙信: move up to 3 of your soldiers from the daimyo's area to land-adjacent areas."""

    card: ClassVar[str] = "uesugi"
    origin: int = NONE
    moved: int = 0

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        origin = s.daimyo_at[seat]
        return s.soldiers[origin][seat] > 0 and bool(LAND_ADJ[origin])

    def step(self) -> str:
        return "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        found = opt.areas(LAND_ADJ[self.origin])
        return found + (opt.STOP,) if self.moved else found

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if value[0] == "stop":
            return True
        s.move(self.seat, self.origin, value[1], 1)
        self.moved += 1
        return self.moved == UP_TO or s.soldiers[self.origin][self.seat] == 0


@dataclasses.dataclass(slots=True)
class Oda(Effect):
    """織田信長: move the daimyo to an adjacent area; 1 soldier from there may go with it."""

    card: ClassVar[str] = "oda"
    origin: int = NONE
    destination: int = NONE

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return bool(ADJ[s.daimyo_at[seat]])

    def step(self) -> str:
        return "destination" if self.destination == NONE else "escort"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.destination == NONE:
            return opt.areas(ADJ[self.origin])
        return (opt.ESCORT, opt.ALONE)

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if self.destination == NONE:
            self.destination = value[1]
            s.move_daimyo(self.seat, self.destination)
            # Nothing to take along: the card is done without asking.
            return s.soldiers[self.origin][self.seat] == 0
        if value[1]:
            s.move(self.seat, self.origin, self.destination, 1)
        return True


@dataclasses.dataclass(slots=True)
class Takeda(Effect):
    """武田信玄: move up to 3 soldiers of one opponent from the daimyo's area to adjacent areas."""

    card: ClassVar[str] = "takeda"
    origin: int = NONE
    opponent: int = NONE
    moved: int = 0

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        origin = s.daimyo_at[seat]
        return has_opponent(s, origin, seat) and bool(ADJ[origin])

    def step(self) -> str:
        return "opponent" if self.opponent == NONE else "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.opponent == NONE:
            return tuple(opt.seat(p) for p in opponents_in(s, self.origin, self.seat))
        found = opt.areas(ADJ[self.origin])
        return found + (opt.STOP,) if self.moved else found

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if self.opponent == NONE:
            self.opponent = value[1]
            return False
        if value[0] == "stop":
            return True
        s.move(self.opponent, self.origin, value[1], 1)
        self.moved += 1
        return self.moved == UP_TO or s.soldiers[self.origin][self.opponent] == 0


@dataclasses.dataclass(slots=True)
class Mori(Effect):
    """毛利元就: place up to 3 soldiers from your stock in areas adjacent to the daimyo."""

    card: ClassVar[str] = "mori"
    origin: int = NONE
    placed: int = 0

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.stock[seat] > 0 and bool(ADJ[s.daimyo_at[seat]])

    def step(self) -> str:
        return "destination"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        found = opt.areas(ADJ[self.origin])
        return found + (opt.STOP,) if self.placed else found

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if value[0] == "stop":
            return True
        s.from_stock(self.seat, value[1], 1)
        self.placed += 1
        return self.placed == UP_TO or s.stock[self.seat] == 0


@dataclasses.dataclass(slots=True)
class Chosokabe(Effect):
    """長宗我部元親: move up to 3 of your pieces (soldiers or the daimyo) from the daimyo's area
    to sea-adjacent areas."""

    card: ClassVar[str] = "chosokabe"
    origin: int = NONE
    moved: int = 0

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return bool(SEA_ADJ[s.daimyo_at[seat]])

    def step(self) -> str:
        return "move"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        found: list[Option] = []
        if s.soldiers[self.origin][self.seat] > 0:
            found.extend(opt.piece_to("soldier", b) for b in SEA_ADJ[self.origin])
        if s.daimyo_at[self.seat] == self.origin:
            found.extend(opt.piece_to("daimyo", b) for b in SEA_ADJ[self.origin])
        if self.moved:
            found.append(opt.STOP)
        return tuple(found)

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if value[0] == "stop":
            return True
        if value[0] == "move_daimyo":
            s.move_daimyo(self.seat, value[1])
        else:
            s.move(self.seat, self.origin, value[1], 1)
        self.moved += 1
        nothing_left = (
            s.soldiers[self.origin][self.seat] == 0 and s.daimyo_at[self.seat] != self.origin
        )
        return self.moved == UP_TO or nothing_left


@dataclasses.dataclass(slots=True)
class Otomo(Effect):
    """大友宗麟: in up to 2 areas adjacent to the daimyo, replace 1 opponent soldier each with a
    soldier from your stock (R15)."""

    card: ClassVar[str] = "otomo"
    origin: int = NONE
    area: int = NONE
    done_areas: tuple[int, ...] = ()

    @classmethod
    def _areas(
        cls, s: RumbleNationState, seat: int, origin: int, done: tuple[int, ...]
    ) -> list[int]:
        return [b for b in ADJ[origin] if b not in done and has_opponent(s, b, seat)]

    @classmethod
    def usable(cls, s: RumbleNationState, seat: int) -> bool:
        return s.stock[seat] > 0 and bool(cls._areas(s, seat, s.daimyo_at[seat], ()))

    def step(self) -> str:
        return "area" if self.area == NONE else "opponent"

    def options(self, s: RumbleNationState) -> tuple[Option, ...]:
        if self.area == NONE:
            found = opt.areas(self._areas(s, self.seat, self.origin, self.done_areas))
            return found + (opt.STOP,) if self.done_areas else found
        return tuple(opt.seat(p) for p in opponents_in(s, self.area, self.seat))

    def choose(self, s: RumbleNationState, value: tuple[Any, ...]) -> bool:
        if value[0] == "stop":
            return True
        if self.area == NONE:
            self.area = value[1]
            return False
        s.to_stock(value[1], self.area, 1)
        s.from_stock(self.seat, self.area, 1)
        self.done_areas = (*self.done_areas, self.area)
        self.area = NONE
        more = self._areas(s, self.seat, self.origin, self.done_areas)
        return len(self.done_areas) == 2 or s.stock[self.seat] == 0 or not more


DAIMYO_EFFECTS: dict[str, type[Effect]] = {
    cls.card: cls for cls in (Uesugi, Oda, Takeda, Mori, Chosokabe, Otomo)
}
