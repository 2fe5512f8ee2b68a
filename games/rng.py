"""Fast seeded chance helpers shared by the engines.

``random.Random.shuffle`` and ``randrange`` go through a Python-level rejection sampler that
costs about ten times a ``random()`` call. Engines set up and roll thousands of games per
second, so they draw from ``random()`` directly: the bias of scaling a 53-bit float to a range
of at most a few hundred values is below 2**-45, far beneath anything a game could notice.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n)."""
    return int(rng.random() * n)


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Fisher-Yates shuffle in place."""
    rnd = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]
