"""The shape of every piece of a Root turn: a small resumable step on the game's stack.

A Root turn is long and nested (a Daylight action is a battle, the battle offers an ambush to
the other seat, a removed warrior may go to a field hospital...). Each such piece is a ``Step``:
it remembers what was chosen so far in plain fields (so a copy is cheap and an observation can
show it), and the game keeps them on a stack. The game's loop (``RootState._settle``) asks the top
step to ``advance``:

- the step does any automatic work, then returns the options of the decision now due;
- it may push a child step instead (the loop then runs the child; the parent is asked again
  when the child is gone);
- it returns ``()`` when it is finished, and the loop pops it.

A decision with one option is taken by the loop without asking (ruling R4 of the contract), and
every option a step offers can still be completed legally: steps check before they offer.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar

from games.contract import Option

if TYPE_CHECKING:
    from games.root.state import RootState

Options = tuple[Option, ...]
FINISHED: Options = ()

DONE = Option("done", "Done", ("done",))
PASS = Option("pass", "Pass", ("pass",))


class Step:
    """Base of every step. ``seat`` decides this step's decisions; ``stage`` names the one due."""

    __slots__ = ("seat", "stage")

    #: First part of the decision kind, e.g. ``battle`` in ``battle.ambush``.
    name: ClassVar[str] = "step"

    seat: int
    stage: str

    def __init__(self, seat: int, stage: str = "start") -> None:
        self.seat = seat
        self.stage = stage

    def kind(self) -> str:
        return f"{self.name}.{self.stage}"

    def advance(self, g: RootState) -> Options:
        """Run automatic work, then return the options now due (``()``: this step is done)."""
        raise NotImplementedError

    def choose(self, g: RootState, value: tuple[Any, ...]) -> None:
        """Apply the option whose ``value`` was chosen."""
        raise NotImplementedError

    def scores_at_once(self) -> bool:
        """Whether VP scored while this step is on the stack are reached at once with those
        still to come in it (a battle dealing its hits, Law 4.3.4): the game does not end until
        the step calls ``RootState.check_victory`` (Law 3.1, RT5)."""
        return False

    def copy(self) -> Step:
        """An independent copy: fields hold ints, strings and tuples, so shallow is enough."""
        return copy.copy(self)

    def fields(self) -> dict[str, Any]:
        """Public fields for observations and logs."""
        out: dict[str, Any] = {}
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if not slot.startswith("_") and slot not in out:
                    out[slot] = getattr(self, slot)
        return out


def option_cache(make: Any) -> Any:
    """Memoize an option constructor: options are immutable, so equal inputs share one."""
    cache: dict[Any, Option] = {}

    def cached(*args: Any) -> Option:
        found = cache.get(args)
        if found is None:
            found = cache[args] = make(*args)
        return found

    return cached


@option_cache
def clearing_option(c: int) -> Option:
    return Option(f"clearing:{c}", f"clearing {c}", ("clearing", c))


@option_cache
def count_option(n: int) -> Option:
    return Option(f"count:{n}", f"{n}", ("count", n))


@option_cache
def card_option(card: str, verb: str = "card") -> Option:
    return Option(f"{verb}:{card}", f"{verb} {card}", (verb, card))


@option_cache
def seat_option(seat: int) -> Option:
    return Option(f"seat:{seat}", f"seat {seat}", ("seat", seat))
