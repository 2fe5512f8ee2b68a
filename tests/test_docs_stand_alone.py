"""The repository's text stands alone: a reader has the repository and nothing else.

No tracked text file (docs, code, comments, messages, protos, scripts, example bots) points
at files outside the repository (``../shared/...``), at this project's issue numbers ("issue
14", "issues 6, 13 and 14") or at the internal names of the rule sources (a source is named by
what it is: "the Japanese rules summary", "the Law of Root"). A reference to an upstream
project's public issue is fine and is written ``owner/repo#N`` (``grpc/grpc#36066``), which
none of the patterns below matches; "owner/repo issue N" is allowed too.

Every relative markdown link and every backticked repository path in the README, the docs and
the examples' READMEs names a file or folder that is tracked in the repository, and no link
leaves it.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()

#: Text files by suffix (or name) that are scanned; anything else tracked is data or binary.
TEXT_SUFFIXES = {
    ".md", ".py", ".pyi", ".proto", ".toml", ".ts", ".js", ".go", ".rs", ".java", ".cpp",
    ".h", ".hpp", ".html", ".css", ".sh", ".ini", ".txt", ".cfg", ".yaml", ".yml", ".json",
    ".xml", ".mod", ".gitignore",
}  # fmt: skip
TEXT_NAMES = {"run", "protoc", "Makefile", "Dockerfile"}

#: Outside the repository: the sibling folder the project was started from.
OUTSIDE = re.compile(r"\.\./shared\b")
#: This project's issue numbers: "issue 14", "Issue 15:", "issues 6, 13", "issue #3".
ISSUE = re.compile(r"\bissues?\s+#?\d", re.IGNORECASE)
#: An upstream project named just before an issue ("grpc/grpc issue 36066").
UPSTREAM = re.compile(r"[\w.-]+/[\w.-]+\s+$")
#: Internal names of rule sources ("seed 003", "seeds 000 and 001").
SOURCE_NAME = re.compile(r"\bseeds?\s+0\d\d\b", re.IGNORECASE)


@cache
def tracked() -> tuple[str, ...]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return tuple(p for p in out.decode().split("\0") if p)


def text_files() -> list[str]:
    return [
        p
        for p in tracked()
        if (Path(p).suffix in TEXT_SUFFIXES or Path(p).name in TEXT_NAMES)
        and p != THIS
        and (ROOT / p).is_file()
    ]


def offending_lines(pattern: re.Pattern[str], allow: re.Pattern[str] | None = None) -> list[str]:
    found = []
    for path in text_files():
        text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in pattern.finditer(line):
                if allow is not None and allow.search(line[: match.start()]):
                    continue
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def test_the_scan_sees_the_repository() -> None:
    files = set(text_files())
    # The patterns above would find nothing in an empty list: make sure the list is real.
    assert {"README.md", "docs/protocol.md", "proto/kassen/v1/referee.proto"} <= files
    assert any(p.startswith("examples/go/") for p in files)
    assert len(files) > 300


def test_the_patterns_find_what_they_are_for() -> None:
    assert ISSUE.search("Four players (issue 14): the Vagabond")
    assert ISSUE.search("issues 6, 13 and 14's benchmark")
    assert ISSUE.search("Issue 15: bytes that are no message")
    assert not ISSUE.search("status (grpc/grpc#36066): a client")
    line = "masked by grpc/grpc issue 36066"
    match = ISSUE.search(line)
    assert match and UPSTREAM.search(line[: match.start()])
    assert SOURCE_NAME.search("three players play seed 003's trio")
    assert not SOURCE_NAME.search("--seed 31 --games 10")
    assert OUTSIDE.search("see ../shared/seeds/003.txt")


def test_no_text_points_outside_the_repository() -> None:
    assert offending_lines(OUTSIDE) == []


def test_no_text_cites_an_issue_number() -> None:
    assert offending_lines(ISSUE, allow=UPSTREAM) == []


def test_rule_sources_are_named_by_what_they_are() -> None:
    assert offending_lines(SOURCE_NAME) == []


# -- links and paths in the docs -----------------------------------------------------------------

#: Markdown links ``[text](target)``; images too.
LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
#: Inline code spans.
SPAN = re.compile(r"`([^`\n]+)`")
#: A path-like token: relative, made of path characters, with a folder separator.
PATHLIKE = re.compile(r"(?:\.\./|\./)*[\w.-]+(?:/[\w.-]+)+/?")


def pages() -> list[str]:
    return [
        p
        for p in tracked()
        if p == "README.md"
        or (p.startswith("docs/") and p.endswith(".md"))
        or (p.startswith("examples/") and p.endswith("/README.md"))
    ]


@cache
def tracked_paths() -> frozenset[str]:
    """Every tracked file and every folder that holds one."""
    paths: set[str] = set()
    for p in tracked():
        parts = p.split("/")
        paths.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(paths)


def top_level() -> frozenset[str]:
    return frozenset(p.split("/")[0] for p in tracked())


def resolve(page: str, target: str) -> str | None:
    """``target`` as a repository path (None if it leaves the repository)."""
    base = (ROOT / page).parent
    full = (base / target).resolve()
    try:
        return full.relative_to(ROOT).as_posix()
    except ValueError:
        return None


def link_targets(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    out = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor on the same page
        out.append(target.split("#", 1)[0])
    return out


def span_paths(page: str) -> list[tuple[str, str]]:
    """(as written, as resolved) for each backticked token that names a repository path.

    A token counts when it is a relative path whose first folder is one the repository tracks
    at its top (``docs/``, ``games/``, ...) or when it climbs with ``../`` (then it is resolved
    from the page's folder). Placeholders (``<game>``), globs and ``file.py:Name`` suffixes
    are left out or cut off; an output folder that is not tracked (``runs/``) is not a
    repository path and is not a top-level folder either.
    """
    text = (ROOT / page).read_text(encoding="utf-8")
    tops = top_level()
    out = []
    for span in SPAN.findall(text):
        for token in span.split():
            token = token.strip("\"'(),;")
            if any(c in token for c in "<>*{}$") or "://" in token:
                continue
            token = token.split("::", 1)[0]
            match = PATHLIKE.fullmatch(token.split(":", 1)[0] if ":" in token else token)
            if match is None:
                continue
            path = match.group(0)
            if path.startswith("../"):
                resolved = resolve(page, path)
                out.append((path, resolved if resolved is not None else "<outside>"))
            elif path.split("/")[0] in tops:
                out.append((path, path.rstrip("/")))
    return out


def test_the_link_pattern_reads_links() -> None:
    text = 'See [the protocol](docs/protocol.md#clocks), ![a chart](../x.png "t") and [w](https://a.b).'
    assert LINK.findall(text) == ["docs/protocol.md#clocks", "../x.png", "https://a.b"]
    assert resolve("docs/games/root.md", "../protocol.md") == "docs/protocol.md"
    assert resolve("README.md", "../shared/seeds/003.txt") is None  # leaves the repository


def test_the_link_scan_sees_links_and_paths() -> None:
    assert "README.md" in pages() and "docs/protocol.md" in pages()
    assert any(p.startswith("examples/") for p in pages())
    assert any(resolved == "docs/writing-a-bot.md" for _, resolved in span_paths("README.md"))
    assert sum(len(span_paths(p)) for p in pages()) > 100


@pytest.mark.parametrize("page", pages() if (ROOT / ".git").exists() else [])
def test_every_relative_link_names_a_tracked_file(page: str) -> None:
    broken = []
    for target in link_targets(page):
        resolved = resolve(page, target)
        if resolved is None or resolved not in tracked_paths():
            broken.append(target)
    assert broken == [], f"{page} links to what the repository does not hold"


def build_output(path: str) -> bool:
    """A path git ignores: what a build or a run writes (``examples/cpp/build/gen/``)."""
    done = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False, timeout=60)
    return done.returncode == 0


def claims_a_path(written: str) -> bool:
    """A folder (``docs/games/``) or a file with a suffix (``docs/bots.md``); ``games/s`` and
    ``decisions/s`` are units, not paths."""
    return written.endswith("/") or "." in written.rsplit("/", 1)[-1]


@pytest.mark.parametrize("page", pages() if (ROOT / ".git").exists() else [])
def test_every_backticked_repository_path_exists(page: str) -> None:
    missing = [
        written
        for written, resolved in span_paths(page)
        if resolved not in tracked_paths()
        and (resolved == "<outside>" or (claims_a_path(written) and not build_output(resolved)))
    ]
    assert missing == [], f"{page} names paths the repository does not hold"


def test_a_missing_path_is_found() -> None:
    assert claims_a_path("docs/nothing-here.md") and "docs/nothing-here.md" not in tracked_paths()
    assert not build_output("docs/nothing-here.md")
    assert build_output("examples/cpp/build/gen/")
    assert not claims_a_path("games/s")
