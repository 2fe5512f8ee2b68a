"""Every Root ruling (games/root/rulings.py) is named by a test and listed in the docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from games.root.rulings import RULINGS, ruling

_ID = re.compile(r"(?<![a-z0-9])(r[tmeav]\d+)(?![0-9])")


def _rulings_named_by_tests() -> set[str]:
    """Ruling ids (e.g. ``test_rt3_...``, ``test_rm1_...``) in test names and docstrings here."""
    named: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = (node.name + " " + (ast.get_docstring(node) or "")).lower()
                named.update(m.upper() for m in _ID.findall(text))
    return named


def test_every_ruling_is_named_by_a_test() -> None:
    missing = sorted(set(RULINGS) - _rulings_named_by_tests())
    assert not missing, f"rulings without a test: {missing}"


def test_rulings_doc_matches_code() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "rulings" / "root.md").read_text()
    for ruling_id, text in RULINGS.items():
        assert f"| {ruling_id} | {text} |" in doc, f"{ruling_id} differs in docs/rulings/root.md"


def test_ruling_ids_are_unique_per_family_and_numbered_from_one() -> None:
    for prefix in ("RT", "RM", "RE", "RA", "RV"):
        numbers = sorted(int(r[2:]) for r in RULINGS if r.startswith(prefix))
        assert numbers == list(range(1, len(numbers) + 1)), prefix
    assert ruling("RT1").startswith("A two-player contest")
