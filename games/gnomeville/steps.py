"""The shape of every piece of a Gnomeville decision sequence: a small resumable step.

Each seat has its own stack of steps (``GnomevilleState.stacks[seat]``): a build phase is one
``BuildStep`` per seat that pushes placement, movement and activation steps as it goes. The
state's loop asks the top step of a seat to ``advance``:

- the step does automatic work, then returns the options of the decision now due;
- it may push a child step instead (the loop runs the child first);
- it returns ``()`` when finished, and the loop pops it.

A decision with one option is taken by the loop without asking (the contract's rule), and a
step only offers options that can still be completed legally. A step touches only its own
seat's town and that town's share of the supply, which is what makes simultaneous phases
independent of the order in which seats answer.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from games.contract import Option

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState
    from games.gnomeville.town import Town

Options = tuple[Option, ...]
FINISHED: Options = ()


class Act(NamedTuple):
    """The value of every Gnomeville option: an action name and the arguments it uses.

    One fixed shape for all decisions keeps the wire message typed (``GnomevilleOption`` has
    exactly these fields) and lets a bot in any language read every option the same way; what
    an action means is its decision kind's (``keep``: the drawn tile in
    ``build.second_chance``, an ability card in ``academy.keep``; docs/games/gnomeville.md).
    Unused arguments keep their defaults.
    """

    action: str
    space: int = -1
    gnome: int = -1
    #: A Tile value (a building, or 8 for a gnome tile).
    tile: int = -1
    #: N, E, S, W (or NE, SE, SW, NW for a diagonal ability).
    direction: str = ""
    amount: int = 0
    #: An index into one of the pack's lists (an ability card, a bonus...).
    card: int = -1


class Step:
    """Base of every step. ``seat`` owns it; ``stage`` names the decision due."""

    __slots__ = ("seat", "stage")

    #: First part of the decision kind, e.g. ``build`` in ``build.draw``.
    name: ClassVar[str] = "step"

    def __init__(self, seat: int, stage: str = "start") -> None:
        self.seat = seat
        self.stage = stage

    def kind(self) -> str:
        return f"{self.name}.{self.stage}"

    def advance(self, g: GnomevilleState, town: Town) -> Options:
        """Run automatic work, then return the options now due (``()``: this step is done)."""
        raise NotImplementedError

    def choose(self, g: GnomevilleState, town: Town, value: tuple[Any, ...]) -> None:
        """Apply the option whose ``value`` was chosen."""
        raise NotImplementedError

    def copy(self) -> Step:
        """Fields hold ints, strings and tuples, so a shallow copy is independent."""
        return copy.copy(self)

    def fields(self) -> dict[str, Any]:
        """Public fields for observations and logs."""
        out: dict[str, Any] = {}
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if not slot.startswith("_") and slot not in out:
                    out[slot] = getattr(self, slot)
        return out
