"""``kassen ladder submit | versions | log | pin``: submitted bots, from the author's and the
organiser's side.

``submit DIR`` reads the folder's ``kassen-bot.toml``, runs its ``prepare`` here (vendoring,
with this machine's network), packs the folder without ``exclude`` into a tar.gz and streams it
to ``Ladder/SubmitBot`` with its size and SHA-256; the ladder builds and validates it in its
sandbox. ``--wait`` follows the version until it is ready or failed.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kassen.commands.credentials import add_token_flag, admin_token
from kassen.commands.ladder_calls import (
    DEFAULT_GRPC,
    NoAnswer,
    bot_flags,
    bot_token,
    call_ladder,
)
from kassen.errors import UsageError

if TYPE_CHECKING:
    from kassen.v1 import ladder_pb2 as lpb

#: Bytes per message: the ladder takes no message over 64 KiB.
CHUNK = 32 * 1024
#: Never packed: version control and Python's caches.
ALWAYS_EXCLUDED = (".git", "__pycache__", ".mypy_cache", ".pytest_cache")
FINAL_STATES = ("build_failed", "validation_failed", "ready")


def add_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    submit = actions.add_parser(
        "submit",
        help="upload a bot folder (kassen-bot.toml) as the bot's next version",
        description="Run the folder's prepare step here, pack it (without its exclude "
        "paths) and upload it as the next version of the bot whose token is given. The ladder "
        "builds it in its sandbox, plays a validation match, and then plays it on the ladder.",
    )
    submit.add_argument("folder", type=Path, help="the bot's folder, with kassen-bot.toml")
    bot_flags(submit)
    submit.add_argument("--note", default="", help="a line about this version (200 characters)")
    submit.add_argument(
        "--no-prepare", action="store_true", help="do not run the manifest's prepare step"
    )
    submit.add_argument(
        "--wait",
        type=float,
        default=0,
        metavar="SECONDS",
        help="wait up to this long for the build and validation, and say how they went",
    )
    submit.set_defaults(run=run_submit)

    listing = actions.add_parser("versions", help="the versions of your submitted bot")
    bot_flags(listing)
    _organiser_flag(listing)
    listing.set_defaults(run=run_versions)

    log = actions.add_parser(
        "log", help="a version's build and validation logs, or your bot's stderr in a match"
    )
    bot_flags(log)
    _organiser_flag(log)
    which = log.add_mutually_exclusive_group(required=True)
    which.add_argument("--version", type=int, help="a version's build and validation logs")
    which.add_argument("--match", default="", help="the bot's stderr in this match")
    log.set_defaults(run=run_log)

    pin = actions.add_parser("pin", help="make a version the playing one (organiser)")
    pin.add_argument("bot_id", help="the bot (kassen ladder versions, ListBots)")
    pin.add_argument("version", type=int, help="a ready version; 0 unpins")
    pin.add_argument("--address", default=DEFAULT_GRPC, help="the ladder's gRPC address")
    add_token_flag(pin, "file holding the organiser token")
    pin.set_defaults(run=run_pin)


def _organiser_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot", default="", metavar="BOT_ID", help="another bot's (with the organiser token)"
    )


def run_submit(args: argparse.Namespace) -> int:
    from kassen.commands.match_submissions import prepare, read_folder

    token = bot_token(args)
    folder: Path = args.folder
    manifest = read_folder(folder, "" if not folder.is_dir() else f"{folder}: ")
    if not args.no_prepare:
        prepare(folder, manifest.prepare)
    with tempfile.TemporaryDirectory(prefix="kassen-submit-") as scratch:
        archive = Path(scratch) / "bot.tar.gz"
        files = pack(folder, archive, manifest.exclude)
        size = archive.stat().st_size
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()
        print(f"packed {files} files: {size / 1e6:.1f} MB, sha256 {digest[:16]}…", file=sys.stderr)
        answer = call_ladder(
            args.address,
            token,
            lambda stub, md: stub.SubmitBot(
                _requests(archive, size, digest, args.note), metadata=md, timeout=600
            ),
            "the upload",
        )
    print(f"uploaded version {answer.version} ({answer.runtime}): {answer.state}")
    if args.wait <= 0:
        print(f"follow it with: kassen ladder versions --token-file {args.token_file}")
        return 0
    return _follow(args, token, answer.version)


def pack(folder: Path, archive: Path, exclude: tuple[str, ...]) -> int:
    """Write ``folder`` (without ``exclude`` and ``ALWAYS_EXCLUDED``) to a tar.gz; the number
    of files packed."""
    root = folder.resolve()
    skipped = {(root / each).resolve() for each in exclude}
    count = 0

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        nonlocal count
        path = (root / info.name).resolve() if not info.issym() else root / info.name
        if path in skipped or Path(info.name).name in ALWAYS_EXCLUDED:
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        count += 0 if info.isdir() else 1
        return info

    with tarfile.open(archive, "w:gz", compresslevel=6) as tarred:
        for entry in sorted(root.iterdir()):
            tarred.add(entry, arcname=entry.name, filter=keep)
    return count


def _requests(archive: Path, size: int, digest: str, note: str) -> Iterator[lpb.SubmitBotRequest]:
    from kassen.v1 import ladder_pb2 as lpb

    yield lpb.SubmitBotRequest(
        header=lpb.SubmitHeader(format="tar.gz", size=size, sha256=digest, note=note)
    )
    with archive.open("rb") as source:
        while chunk := source.read(CHUNK):
            yield lpb.SubmitBotRequest(chunk=chunk)


def _follow(args: argparse.Namespace, token: str, number: int) -> int:
    """Ask for the version every second until it is ready or failed; a question the ladder
    does not answer in time (a busy machine) is asked again, not a failure: the upload
    itself is done."""
    deadline = time.monotonic() + args.wait
    last = ""
    while True:
        try:
            found = _version(args.address, token, number)
        except NoAnswer as exc:
            if time.monotonic() > deadline:
                raise UsageError(str(exc)) from None
            print(f"kassen: {exc}; asking again", file=sys.stderr)
            time.sleep(1.0)
            continue
        if found.summary != last:
            print(f"version {number}: {found.state}: {found.summary}")
            last = found.summary
        if found.state in FINAL_STATES:
            return 0 if found.state == "ready" else 1
        if time.monotonic() > deadline:
            print(f"version {number} is still {found.state} after {args.wait:g} s", file=sys.stderr)
            return 1
        time.sleep(1.0)


def _version(address: str, token: str, number: int) -> lpb.BotVersion:
    from kassen.v1 import ladder_pb2 as lpb

    answer = call_ladder(
        address,
        token,
        lambda stub, md: stub.ListVersions(lpb.ListVersionsRequest(), metadata=md, timeout=30),
        "the versions",
    )
    for version in answer.versions:
        if version.number == number:
            found: lpb.BotVersion = version
            return found
    raise UsageError(f"the ladder lists no version {number}")


def run_versions(args: argparse.Namespace) -> int:
    from kassen.v1 import ladder_pb2 as lpb

    token = bot_token(args)
    answer = call_ladder(
        args.address,
        token,
        lambda stub, md: stub.ListVersions(
            lpb.ListVersionsRequest(bot_id=args.bot), metadata=md, timeout=30
        ),
        "the versions",
    )
    if not answer.versions:
        print("no versions submitted yet")
        return 0
    for v in answer.versions:
        marks = " ".join(m for m, on in (("playing", v.playing), ("pinned", v.pinned)) if on)
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(v.submitted_at))
        print(f"v{v.number:<3} {v.state:<18} {marks:<15} {when} UTC  {v.summary}")
    return 0


def run_log(args: argparse.Namespace) -> int:
    from kassen.v1 import ladder_pb2 as lpb

    token = bot_token(args)
    request = lpb.GetBotLogRequest(bot_id=args.bot, version=args.version or 0, match_id=args.match)
    answer = call_ladder(
        args.address,
        token,
        lambda stub, md: stub.GetBotLog(request, metadata=md, timeout=30),
        "the log",
    )
    if args.match:
        print(answer.stderr, end="" if answer.stderr.endswith("\n") else "\n")
        return 0
    print(f"--- build log of version {args.version} ---")
    print(answer.build_log or "(empty)")
    print(f"--- validation of version {args.version} ---")
    print(answer.validation_log or "(not validated)")
    if answer.match_ids:
        print("--- matches whose stderr is kept (kassen ladder log --match ID) ---")
        print("\n".join(answer.match_ids))
    return 0


def run_pin(args: argparse.Namespace) -> int:
    from kassen.v1 import ladder_pb2 as lpb

    if args.version < 0:
        raise UsageError("version must be 0 (unpin) or a version number")
    token = admin_token(args.admin_token_file)
    request = lpb.PinVersionRequest(bot_id=args.bot_id, version=args.version)
    answer = call_ladder(
        args.address,
        token,
        lambda stub, md: stub.PinVersion(request, metadata=md, timeout=30),
        "the pin",
    )
    bot = answer.bot
    print(
        f"{bot.name}: playing version {bot.playing_version}" + (" (pinned)" if bot.pinned else "")
    )
    return 0
