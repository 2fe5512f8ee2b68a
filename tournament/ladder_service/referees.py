"""The referees ``[referees]`` (or ``--referees``) lists, made into the fleet's slots for the
time the ladder runs: ``kassen serve`` addresses and, on a Ray cluster, referee actors."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from tournament.ladder_service.fleet import FleetSettings, RefereeSlot, RemoteReferee
from tournament.ladder_service.submitted import SubmissionSettings


class RefereesError(ValueError):
    """A referee setting that cannot be used (an unreadable file); the message names it."""


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise RefereesError(f"{what} {path}: {exc.strerror or exc}") from None


def parse_referees(specs: list[str], base: FleetSettings) -> FleetSettings:
    """``--referees`` (each a host:port or ``ray:CLUSTER``, comma-separated or repeated) in
    place of the file's addresses and Ray cluster; ``RefereesError`` names a bad one."""
    import dataclasses

    addresses: list[str] = []
    ray = None
    for spec in (part.strip() for each in specs for part in each.split(",")):
        if spec.startswith("ray:"):
            if ray is not None or not spec[4:]:
                raise RefereesError(f"--referees: {spec!r}: name one Ray cluster, e.g. ray:auto")
            ray = spec[4:]
        elif is_address(spec):
            addresses.append(spec)
        else:
            raise RefereesError(
                f"--referees: {spec!r} is neither host:port nor ray:CLUSTER (e.g. ray:auto)"
            )
    return dataclasses.replace(base, addresses=tuple(addresses), ray=ray)


def is_address(text: str) -> bool:
    host, _, port = text.rpartition(":")
    return bool(host) and port.isdigit() and 0 < int(port) < 65536


@contextlib.asynccontextmanager
async def remote_referees(
    settings: FleetSettings,
    ladder_token: str | None,
    submissions: SubmissionSettings | None = None,
    max_live: int = 100,
    relay_token: str | None = None,
) -> AsyncIterator[list[RefereeSlot]]:
    """The fleet's remote referees for as long as the block runs (Ray actors are started
    here and killed at its end; they trust ``relay_token``, the ladder's web page, as a
    relay of Watch streams)."""
    token = ladder_token
    if settings.token_file is not None:
        token = _read(settings.token_file, "referees.token_file").decode().strip() or None
    ca = _read(settings.tls_ca, "referees.tls_ca") if settings.tls_ca is not None else None
    slots: list[RefereeSlot] = [
        RemoteReferee(address, token, tls=settings.tls, tls_ca=ca) for address in settings.addresses
    ]
    if settings.ray is None:
        yield slots
        return
    from tournament.ladder_service.ray_referees import ray_referees

    runtimes: tuple[str, ...] = ()
    folder = None
    if submissions is not None and submissions.enabled:
        runtimes, folder = submissions.runtimes, submissions.folder.resolve()
    async with ray_referees(
        settings.ray, settings.ray_referees, runtimes, folder, max_live, relay_token
    ) as actors:
        yield [*slots, *actors]
