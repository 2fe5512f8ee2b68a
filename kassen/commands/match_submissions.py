"""``kassen match --seat sub:DIR``: a submission folder, built and played in its sandbox as the
ladder would (tournament/submissions/kit.py), so its author can try it before uploading."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.errors import UsageError

if TYPE_CHECKING:
    from client_sdk import Bot
    from server.referee import CommandBot, Referee
    from tournament.submissions.manifest import Manifest

SUB_PREFIX = "sub:"
#: Lines of a failed build's log shown on the terminal.
LOG_LINES = 40


@dataclass(frozen=True)
class LocalSubmission:
    folder: Path
    manifest: Manifest
    name: str


def submission_seat(spec: str) -> LocalSubmission:
    """``sub:DIR`` read and checked (a usage error names what is wrong with it)."""
    folder = Path(spec[len(SUB_PREFIX) :]).expanduser()
    manifest = read_folder(folder, f"--seat {spec}: ")
    return LocalSubmission(folder.resolve(), manifest, folder.resolve().name)


def read_folder(folder: Path, label: str) -> Manifest:
    """The manifest of a submission folder; a usage error, starting with ``label``, names a
    folder that is not one or a manifest that cannot be used."""
    from tournament.submissions.manifest import ManifestError, read_manifest

    if not folder.is_dir():
        raise UsageError(f"{label}{folder} is not a folder")
    try:
        return read_manifest(folder)
    except ManifestError as exc:
        raise UsageError(f"{label}{exc}") from None


def prepare(folder: Path, command: str | None, label: str = "") -> None:
    """Run a manifest's ``prepare`` in the author's own folder, outside any sandbox: it is
    the author's command on the author's machine (``kassen ladder submit`` and ``sub:`` seats
    both run it). Its output goes to stderr; a failure is a usage error."""
    if command is None:
        return
    print(f"{label}prepare: {command}", file=sys.stderr)
    done = subprocess.run(["/bin/sh", "-c", command], cwd=folder, stdout=sys.stderr, check=False)
    if done.returncode != 0:
        raise UsageError(f"{folder}: prepare failed with exit status {done.returncode}")


@contextlib.asynccontextmanager
async def sandboxed_seats(
    referee: Referee, seats: Sequence[Bot | CommandBot | LocalSubmission]
) -> AsyncIterator[list[Bot | CommandBot]]:
    """The seats with each submission copied, built and made a sandboxed command bot; the
    referee's sandbox socket is served until the block exits. Raises ``UsageError`` when the
    host has no sandbox or a build fails (its log's last lines are printed first)."""
    from server.referee import CommandBot
    from server.sandbox.seat_socket import seat_socket
    from tournament.submissions.kit import NoSandbox, SandboxKit

    if not any(isinstance(seat, LocalSubmission) for seat in seats):
        yield [seat for seat in seats if not isinstance(seat, LocalSubmission)]
        return
    parent = Path(tempfile.mkdtemp(prefix="kassen-sub-"))
    try:
        os.chmod(parent, 0o711)
        try:
            kit = SandboxKit.make(parent)
        except NoSandbox as exc:
            raise UsageError(f"cannot run sub: seats here: {exc}") from None
        async with seat_socket(referee, kit.area) as socket_dir:
            ready: list[Bot | CommandBot] = []
            for seat in seats:
                if not isinstance(seat, LocalSubmission):
                    ready.append(seat)
                    continue
                try:
                    kit.runtime(seat.manifest)
                except NoSandbox as exc:
                    raise UsageError(f"--seat sub:{seat.folder}: {exc}") from None
                prepare(seat.folder, seat.manifest.prepare, f"{seat.name}: ")
                folder = kit.copy_in(seat.folder, seat.manifest)
                built = await kit.build(folder, seat.manifest)
                if built is not None:
                    print(f"{seat.name}: {built.summary}", file=sys.stderr)
                    if not built.ok:
                        tail = built.log.rstrip().splitlines()[-LOG_LINES:]
                        print("\n".join(tail), file=sys.stderr)
                        raise UsageError(f"--seat sub:{seat.folder}: {built.summary}")
                command = kit.run_command(folder, seat.manifest, socket_dir)
                ready.append(CommandBot(command=[], name=seat.name, sandbox=command))
            yield ready
    finally:
        shutil.rmtree(parent, ignore_errors=True)
