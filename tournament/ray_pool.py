"""Run a tournament's batches of matches as Ray tasks: several cores, several machines.

Ray (an optional extra: ``pip install 'kassen[ray]'``) is used as it is, not imitated: each
batch of matches is one task (the same function the local process pool runs), the driver keeps
a bounded number of tasks in flight and hands every finished batch to the one writer that owns
the database (``TournamentRunner._finished``). Nothing is written by the tasks.

Failures: a task whose worker process or node dies is run again by Ray (``max_retries``), from
the same seeds, so its matches are neither lost nor doubled: a batch's results reach the driver
once, as the task's return value, and the database refuses a match stored twice (primary key).
A match that raises is not retried (``retry_exceptions=False``): the error reaches the driver.

Addresses: ``auto`` joins the cluster this machine belongs to (``ray start --head`` or
``RAY_ADDRESS``), ``local`` starts a private one-machine cluster for the run, anything else
is a cluster address (``ray://host:10001`` or ``host:6379``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: Tasks in flight per CPU of the cluster: enough that no CPU waits for the driver.
IN_FLIGHT_PER_CPU = 2
#: Times Ray reruns a task whose worker died.
MAX_RETRIES = 3


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached (the message says which)."""


def connect(address: str) -> Any:
    """Import Ray and join (or start) the cluster ``address`` names; returns the ``ray`` module."""
    try:
        import ray
    except ModuleNotFoundError:
        raise RayUnavailable(
            "--ray needs Ray: pip install 'kassen[ray]' (or run without --ray: local processes)"
        ) from None
    if ray.is_initialized():
        return ray
    # The workers import this project: make sure they find it from wherever they start.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runtime_env = {"env_vars": {"PYTHONPATH": root, "OPENBLAS_NUM_THREADS": "1"}}
    # Ray 2.59+ raises its own AuthenticationError (not a ConnectionError) for a missing token.
    refused: tuple[type[BaseException], ...] = (
        ConnectionError,
        RuntimeError,
        ValueError,
        *_ray_errors(ray),
    )
    try:
        ray.init(
            address=None if address == "local" else address,
            runtime_env=runtime_env,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
            configure_logging=True,
        )
    except refused as exc:
        hint = ""
        if address not in ("auto", "local") and not os.environ.get("RAY_AUTH_TOKEN"):
            hint = (
                " (a cluster with token authentication needs RAY_AUTH_MODE=token and its"
                " token: RAY_AUTH_TOKEN, or ray get-auth-token on the cluster's machine)"
            )
        raise RayUnavailable(f"cannot join the Ray cluster at {address!r}: {exc}{hint}") from None
    return ray


def _ray_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's own errors for a refused connection, where this version of Ray has them."""
    exceptions = getattr(ray, "exceptions", None)
    found = getattr(exceptions, "AuthenticationError", None)
    return (found,) if isinstance(found, type) and issubclass(found, BaseException) else ()


def run_batches(
    address: str,
    batch_function: Callable[..., list[Any]],
    jobs: Sequence[tuple[Any, ...]],
    on_batch: Callable[[list[Any]], None],
) -> None:
    """Run ``batch_function(*job)`` for every job as Ray tasks; ``on_batch`` gets each result
    in the driver, in the order they finish."""
    ray = connect(address)
    remote = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(batch_function)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    limit = cpus * IN_FLIGHT_PER_CPU
    waiting = iter(jobs)
    in_flight: list[Any] = []
    for job in _take(waiting, limit):
        in_flight.append(remote.remote(*job))
    while in_flight:
        done, in_flight = ray.wait(in_flight, num_returns=1)
        for ref in done:
            on_batch(ray.get(ref))
        for job in _take(waiting, limit - len(in_flight)):
            in_flight.append(remote.remote(*job))


def _take(jobs: Iterable[tuple[Any, ...]], count: int) -> list[tuple[Any, ...]]:
    taken: list[tuple[Any, ...]] = []
    if count <= 0:
        return taken
    for job in jobs:
        taken.append(job)
        if len(taken) >= count:
            break
    return taken
