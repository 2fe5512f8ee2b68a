"""Submitted bots on the ladder: upload → unpack → build → validation match → playing.

An upload (``receive``) is unpacked safely into the submissions area and recorded as the
bot's next version; a background task then builds it in its sandbox and plays it in one
validation match against house policies (unrated, not on the ladder). Only a version whose
validation match it played cleanly becomes ``ready``; the pinned version, else the newest
ready one, is the one matchmaking seats (``seat``), up to ``concurrency`` matches at once,
each in a fresh sandbox started by the referee. What a submitted bot writes on stderr in a
match is kept for its author (``versions.keep_tail``), never shown on public pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import os
import secrets
import shutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog
from sqlalchemy.engine import Engine

from games import get_game
from games.contract import GameConfig
from server.chance import draw_seed
from server.hosting import CannotHost, Hosted, MatchPlan, RefereeUnavailable, SeatPlan
from server.referee import Referee
from server.results import Reason
from server.sandbox.build import BuildLimits
from server.sandbox.process import SandboxLimits
from server.sandbox.runtimes import unreachable
from server.sandbox.seat_socket import seat_socket
from server.settings import FailurePolicy, MatchSettings, TimeControl
from tournament.ladder_service import versions
from tournament.ladder_service.rate_limit import RateLimiter
from tournament.ladder_service.registry import BotRecord, RegistryError
from tournament.ladder_service.versions import Version
from tournament.ladder_service.writer import DatabaseWriter
from tournament.submissions.archive import ArchiveError, Limits, unpack
from tournament.submissions.kit import NoSandbox, SandboxKit
from tournament.submissions.manifest import RUNTIMES, ManifestError, read_manifest
from tournament.submissions.runner import SandboxRunner

log = structlog.get_logger("kassen.ladder.submitted")
MB = 1024 * 1024
#: Uploads being received at once (each holds a file until it is unpacked).
MAX_UPLOADS = 4
UPLOAD_BURST = 10
UPLOAD_EVERY_S = 120.0
#: Bytes of an upload gathered before they are written (in a thread, off the match loop).
WRITE_BATCH = 1024 * 1024
#: How long an upload waits for a ladder that is starting.
START_WAIT_S = 60.0
#: Ready versions whose folders are kept (the newest ones; a pinned one is kept too).
KEPT_READY = 3

#: Places a match on a referee: the hosted match and the call that frees its place.
HostMatch = Callable[[MatchPlan], Awaitable[tuple[Hosted, Callable[[], None]]]]


@dataclass(frozen=True)
class SubmissionSettings:
    """``[submissions]`` of ladder.toml."""

    enabled: bool = False
    #: Where versions are unpacked and built: it and every folder above it must let other
    #: users pass (the sandbox runs as ``nobody``), e.g. /srv/kassen, not a home folder.
    folder: Path = Path("ladder-submissions")
    runtimes: tuple[str, ...] = RUNTIMES
    max_upload_mb: int = 64
    max_unpacked_mb: int = 512
    max_files: int = 20_000
    #: Matches one submitted bot plays at once.
    concurrency: int = 2
    build: BuildLimits = field(default_factory=BuildLimits)
    run: SandboxLimits = field(default_factory=SandboxLimits)
    #: A Rust toolchain the sandbox user can reach (None: ``rustc --print sysroot``).
    rust_sysroot: Path | None = None
    #: The validation match's clock (generous: a first match also warms the bot up).
    validation_time: TimeControl = field(
        default_factory=lambda: TimeControl(decision_ms=5000, bank_ms=60_000)
    )


class UploadRefused(ValueError):
    """An upload that is not stored; the message says why in one line."""


class TooManyUploads(UploadRefused):
    """A bot that uploads too often; the message says when to try again."""


@dataclass(frozen=True)
class Header:
    format: str
    size: int
    sha256: str
    note: str


@dataclass
class SubmittedBot:
    versions: list[Version]
    #: Matches it plays now.
    active: set[str] = field(default_factory=set)
    #: The version that plays, found again whenever ``versions`` changes (``refresh``): the
    #: matchmaker asks for it every round, and a bot may have many versions.
    playing: Version | None = None

    def refresh(self) -> None:
        self.playing = versions.playing(self.versions)


class SubmittedBots:
    def __init__(
        self,
        engine: Engine,
        writer: DatabaseWriter,
        referee: Referee,
        settings: SubmissionSettings,
        validation_opponents: Callable[[BotRecord], tuple[int, list[str]]],
        host_match: HostMatch,
    ) -> None:
        """``validation_opponents(bot)``: the player count and house policies of its
        validation match; ``host_match``: how it is placed on a referee (the ladder's
        fleet), with the call that frees its place."""
        self.engine = engine
        self.writer = writer
        self.referee = referee
        self.host_match = host_match
        self.settings = settings
        self.opponents = validation_opponents
        self.bots: dict[str, SubmittedBot] = {}
        self.kit: SandboxKit | None = None
        self.socket_dir: Path | None = None
        self._exit = contextlib.AsyncExitStack()
        self._pipelines: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._uploads = asyncio.Semaphore(MAX_UPLOADS)
        self._validations: set[str] = set()
        #: Set once ``start`` has made the kit: an upload that comes sooner (the gRPC port
        #: opens before the ladder has started) waits for it.
        self.ready = asyncio.Event()
        #: Versions per bot: a few at once, then one every ``UPLOAD_EVERY_S`` (every version
        #: is a build, a validation match and a record kept for good).
        self.uploads = RateLimiter(burst=UPLOAD_BURST, per_second=1 / UPLOAD_EVERY_S)

    # ------------------------------------------------------------------ life cycle

    async def start(
        self,
        records: Mapping[str, BotRecord],
        use_runner: Callable[[SandboxRunner], Awaitable[None]] | None = None,
    ) -> None:
        """Make the sandbox kit (``NoSandbox`` names what the host lacks), serve the
        sandboxes' socket (``use_runner`` is given the runner made of both before any
        version is built: the ladder's own referee runs submitted seats with it), load every
        version, and build again what a previous run left."""
        folder = self.settings.folder.resolve()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise NoSandbox(f"submissions.folder {folder}: {exc.strerror or exc}") from None
        problem = unreachable(folder)
        if problem:
            raise NoSandbox(f"submissions.folder: {problem}")
        self.kit = await asyncio.to_thread(
            SandboxKit.make, folder, self.settings.runtimes, self.settings.rust_sysroot
        )
        for line in self.kit.host.bounds():
            log.info(line)
        for name, runtime in sorted(self.kit.runtimes.items()):
            if runtime.problem:
                log.warning("runtime unavailable", runtime=name, problem=runtime.problem)
        self.socket_dir = await self._exit.enter_async_context(
            seat_socket(self.referee, self.kit.area)
        )
        if use_runner is not None:
            await use_runner(self.runner())
        stopped = await self.writer.call(versions.stop_unfinished, self.engine)
        for version in await self.writer.call(versions.versions, self.engine):
            self.bots.setdefault(version.bot_id, SubmittedBot([])).versions.append(version)
        for entry in self.bots.values():
            entry.refresh()
        for version in stopped:
            record = records.get(version.bot_id)
            if record is not None:
                self._pipeline(record, version)
        self.ready.set()

    async def stop(self) -> None:
        for task in list(self._pipelines.values()):
            task.cancel()
        await asyncio.gather(*self._pipelines.values(), return_exceptions=True)
        await self._exit.aclose()
        if self.kit is not None:
            await asyncio.to_thread(self.kit.close)

    # ------------------------------------------------------------------ reading

    def is_submitted(self, bot_id: str) -> bool:
        return bot_id in self.bots

    def playing(self, bot_id: str) -> Version | None:
        entry = self.bots.get(bot_id)
        return entry.playing if entry else None

    def free_slots(self, bot_id: str) -> int:
        entry = self.bots.get(bot_id)
        if entry is None or self.playing(bot_id) is None:
            return 0
        return max(0, self.settings.concurrency - len(entry.active))

    def all_versions(self, bot_id: str) -> list[Version]:
        entry = self.bots.get(bot_id)
        return sorted(entry.versions, key=lambda v: -v.number) if entry else []

    # ------------------------------------------------------------------ matches

    def seat(self, bot: BotRecord, version: Version | None = None) -> SeatPlan:
        """The seat of ``bot`` (its playing version unless told) in a new match: its built
        folder, where every referee that runs submitted bots finds it."""
        version = version or self.playing(bot.id)
        assert version is not None and self.kit is not None
        folder = self.kit.area / version.folder
        manifest = read_manifest(folder, self.settings.runtimes)
        return SeatPlan(
            bot.name,
            "submitted",
            folder=str(folder),
            limits=self.settings.run,
            runtime=manifest.runtime,
        )

    def runner(self) -> SandboxRunner:
        """How the ladder's own referee runs submitted seats (made at ``start``)."""
        assert self.kit is not None and self.socket_dir is not None
        return SandboxRunner(self.kit, self.socket_dir, self.settings.runtimes)

    def started(self, key: str, bot_id: str) -> None:
        self.bots[bot_id].active.add(key)

    def moved(self, old: str, new: str, bot_id: str) -> None:
        """A match reserved as ``old`` is now known as ``new`` (its referee named it)."""
        entry = self.bots.get(bot_id)
        if entry is not None and old in entry.active:
            entry.active.discard(old)
            entry.active.add(new)

    async def finished(
        self, match_id: str, seats: tuple[str, ...], tails: Mapping[int, str]
    ) -> None:
        """Free the bots' slots and keep each submitted seat's stderr for its author."""
        for index, bot_id in enumerate(seats):
            entry = self.bots.get(bot_id)
            if entry is None or match_id not in entry.active:
                continue
            entry.active.discard(match_id)
            if index not in tails:
                continue  # never placed on a referee: nothing ran
            version = self.playing(bot_id)
            with contextlib.suppress(Exception):
                await self.writer.call(
                    versions.keep_tail,
                    self.engine,
                    bot_id,
                    match_id,
                    version.number if version else 0,
                    tails[index],
                )

    # ------------------------------------------------------------------ uploads

    async def receive(self, bot: BotRecord, header: Header, chunks: Any) -> Version:
        """Store one upload (``chunks``: an async iterator of bytes) as ``bot``'s next
        version and start building it. ``UploadRefused`` names what is wrong."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), START_WAIT_S)
        if self.kit is None:
            raise UploadRefused("this ladder is still starting: try again in a minute")
        if bot.house:
            raise UploadRefused("house bots are not submitted")
        if header.format not in ("tar.gz", "zip"):
            raise UploadRefused(f"format must be tar.gz or zip, not {header.format!r}")
        limit = self.settings.max_upload_mb * MB
        if header.size > limit:
            raise UploadRefused(f"the archive is {header.size:,} bytes; the limit is {limit:,}")
        if any(v.state in versions.UNFINISHED for v in self.all_versions(bot.id)):
            raise UploadRefused("a version of this bot is still being built or validated")
        if not self.uploads.allow(bot.id):
            wait = math.ceil(self.uploads.retry_after(bot.id))
            raise TooManyUploads(f"bot {bot.name} uploads too often: try again in {wait} s")
        async with self._uploads:
            staged = self.kit.area / f"upload-{secrets.token_hex(12)}"
            try:
                digest = await self._write(staged, header, chunks, limit)
                folder_name = f"bot-{secrets.token_hex(12)}"
                await asyncio.to_thread(self._unpack, staged, self.kit.area / folder_name)
            finally:
                staged.unlink(missing_ok=True)
        folder = self.kit.area / folder_name
        try:
            manifest = read_manifest(folder, self.settings.runtimes)
            self.kit.runtime(manifest)
        except (ManifestError, NoSandbox) as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise UploadRefused(str(exc)) from None
        try:
            version = await self.writer.call(
                versions.add_version,
                self.engine,
                bot.id,
                manifest.runtime,
                digest,
                header.size,
                header.note,
                folder_name,
            )
        except RegistryError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise UploadRefused(str(exc)) from None
        entry = self.bots.setdefault(bot.id, SubmittedBot([]))
        entry.versions.append(version)
        entry.refresh()
        self._pipeline(bot, version)
        log.info("version received", bot=bot.id, version=version.number, bytes=header.size)
        return version

    async def _write(self, staged: Path, header: Header, chunks: Any, limit: int) -> str:
        digest = hashlib.sha256()
        received = 0
        pending: list[bytes] = []
        fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            async for chunk in chunks:
                received += len(chunk)
                if received > header.size or received > limit:
                    raise UploadRefused(
                        f"more bytes than the header's size ({header.size:,}) were sent"
                    )
                pending.append(chunk)
                if sum(map(len, pending)) >= WRITE_BATCH:
                    await asyncio.to_thread(_hash_and_write, digest, out, pending)
                    pending = []
            await asyncio.to_thread(_hash_and_write, digest, out, pending)
        if received != header.size:
            raise UploadRefused(f"{received:,} bytes received; the header said {header.size:,}")
        if digest.hexdigest() != header.sha256.lower():
            raise UploadRefused("the archive's SHA-256 differs from the header's: upload again")
        return digest.hexdigest()

    def _unpack(self, archive: Path, folder: Path) -> None:
        limits = Limits(self.settings.max_unpacked_mb * MB, self.settings.max_files)
        try:
            unpack(archive, folder, limits)
        except ArchiveError as exc:
            raise UploadRefused(f"archive refused: {exc}") from None
        os.chmod(folder, 0o755)

    # ------------------------------------------------------------------ build and validate

    def _pipeline(self, bot: BotRecord, version: Version) -> None:
        key = (bot.id, version.number)
        task = asyncio.get_running_loop().create_task(self._prepare(bot, version))
        self._pipelines[key] = task
        task.add_done_callback(lambda _: self._pipelines.pop(key, None))

    async def _prepare(self, bot: BotRecord, version: Version) -> None:
        try:
            await self._build_and_validate(bot, version)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("version pipeline failed", bot=bot.id, version=version.number)
            await self._set(version, "build_failed", f"internal error: {type(exc).__name__}")

    async def _build_and_validate(self, bot: BotRecord, version: Version) -> None:
        assert self.kit is not None
        folder = self.kit.area / version.folder
        manifest = read_manifest(folder, self.settings.runtimes)
        version = await self._set(version, "building", "building")
        built = await self.kit.build(folder, manifest, self.settings.build)
        if built is not None and not built.ok:
            await self._set(version, "build_failed", built.summary, build_log=built.log)
            return
        build_summary = built.summary if built is not None else "nothing to build"
        version = await self._set(
            version,
            "validating",
            f"{build_summary}; validating",
            build_log=built.log if built is not None else "",
        )
        ok, summary, validation_log = await self._validate(bot, version)
        await self._set(
            version,
            "ready" if ok else "validation_failed",
            f"{build_summary}; {summary}",
            validation_log=validation_log,
        )
        await self._prune(bot.id)

    async def _prune(self, bot_id: str) -> None:
        """Delete the folders no match will start from again: failed versions', and ready
        versions' older than the newest ``KEPT_READY`` unless pinned (these are ``retired``: a
        rollback goes back that far). Records and logs stay."""
        assert self.kit is not None
        found = self.all_versions(bot_id)  # newest first
        playing = self.playing(bot_id)
        ready = [v for v in found if v.state == "ready"]
        for version in found:
            if version.state in versions.UNFINISHED:
                continue
            old_ready = (
                version.state == "ready"
                and version not in ready[:KEPT_READY]
                and not version.pinned
                and version != playing
            )
            failed = version.state in ("build_failed", "validation_failed")
            if not (old_ready or failed):
                continue
            folder = self.kit.area / version.folder
            if folder.exists():
                await asyncio.to_thread(shutil.rmtree, folder, True)
            if old_ready:
                await self._set(
                    version, "retired", f"{version.summary}; retired (its folder is deleted)"
                )

    async def _validate(self, bot: BotRecord, version: Version) -> tuple[bool, str, str]:
        """One unrated match against house policies: clean only if the bot played it to
        the end without a failure of its own."""
        players, policies = self.opponents(bot)
        game = get_game(bot.game)
        settings = MatchSettings(
            game=game.name,
            config=GameConfig(players=players, variant=bot.variant),
            seed=draw_seed(),
            time_control=self.settings.validation_time,
            failure_policy=FailurePolicy.FORFEIT,
            join_timeout_ms=60_000,
        )
        seats = [self.seat(bot, version)] + [
            SeatPlan(f"house-{policy}", "house", policy, draw_seed()) for policy in policies
        ]
        try:
            hosted, release = await self.host_match(MatchPlan(settings, tuple(seats)))
        except (RefereeUnavailable, CannotHost) as exc:
            return False, f"validation not played: {exc}", ""
        self._validations.add(hosted.match_id)
        try:
            end = await hosted.ended
        finally:
            self._validations.discard(hosted.match_id)
            release()
        result = end.result
        tail = end.stderr_tails.get(0, "")
        if not result.seats:
            return False, "validation failed: the match did not end", tail
        own = result.seats[0]
        line = f"validation match {hosted.match_id}: {own.reason.name}"
        if own.detail:
            line += f": {own.detail}"
        report = f"{line}\n--- stderr (last lines) ---\n{tail}"
        if result.reason in (Reason.ABORTED, Reason.VOIDED):
            return False, f"validation not completed: {result.reason.name}", report
        if own.reason is not Reason.COMPLETED:
            return False, f"validation failed: {own.reason.name}: {own.detail}"[:400], report
        return True, f"validated (match {hosted.match_id})", report

    async def _set(self, version: Version, state: str, summary: str, **logs: str) -> Version:
        updated = await self.writer.call(
            versions.set_state, self.engine, version.bot_id, version.number, state, summary, **logs
        )
        entry = self.bots.setdefault(version.bot_id, SubmittedBot([]))
        entry.versions = [updated if v.number == updated.number else v for v in entry.versions]
        entry.refresh()
        return updated

    async def pin(self, bot_id: str, number: int) -> None:
        entry = self.bots.get(bot_id)
        if entry is None:
            raise RegistryError("bot_id: this bot has no versions")
        await self.writer.call(versions.pin, self.engine, bot_id, number)
        entry.versions = await self.writer.call(versions.versions, self.engine, bot_id)
        entry.refresh()


def _hash_and_write(digest: Any, out: Any, chunks: list[bytes]) -> None:
    """Hash and write an upload's chunks (in a thread: the loop plays matches)."""
    for chunk in chunks:
        digest.update(chunk)
        out.write(chunk)
