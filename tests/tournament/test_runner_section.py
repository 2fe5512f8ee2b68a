"""``[runner]`` and ``--ray``: where the matches run, checked before anything runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.tournament.test_config_validation import BOTS, run_file


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[runner]\nrya = "auto"\n', "did you mean ray"),
        ("[runner]\nray = 5\n", "ray must be"),
        ('[runer]\nray = "auto"\n', "did you mean [runner]"),
    ],
)
def test_a_bad_runner_section_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, line = run_file(tmp_path, capsys, text + BOTS)
    assert code == 2 and message in line, line


def test_ray_without_ray_installed_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    code, line = run_file(tmp_path, capsys, BOTS, "--ray", "auto")
    assert code == 2 and "pip install 'kassen[ray]'" in line, line
