"""The ladder's configuration: defaults that let a lone bot play at once, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.policies.registry import make_policy
from tournament.ladder_service.config import LadderConfigError, default_settings, load_settings
from tournament.ladder_service.referees import RefereesError, parse_referees
from tournament.ladder_service.service import PoolKey


def test_defaults_run_every_game_with_enough_house_bots_for_a_full_table() -> None:
    settings = default_settings()
    games = {key.game for key in settings.pools}
    assert games == {"rumble-nation", "root", "gnomeville"}
    for key in settings.pools:
        house = [
            h for h in settings.house_bots if h.game == key.game and key.players in h.player_counts
        ]
        assert len(house) >= key.players - 1, key  # a lone connected bot fills the rest


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ladder.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_chooses_pools_house_bots_and_clocks(tmp_path: Path) -> None:
    settings = load_settings(
        write(
            tmp_path,
            """
[ladder]
pools = ["rumble-nation/advanced/3", "root/winter/2"]
decision_ms = 500
bank_ms = 0
pause_after_failures = 3
gather_ms = 2500

[[ladder.house]]
name = "rn-house"
policy = "greedy"
game = "rumble-nation"
variant = "advanced"
""",
        )
    )
    assert settings.pools == (PoolKey("rumble-nation", "advanced", 3), PoolKey("root", "winter", 2))
    (house,) = settings.house_bots
    assert (house.name, house.variant, house.player_counts) == ("rn-house", "advanced", (3,))
    assert settings.time_control.decision_ms == 500 and settings.time_control.bank_ms == 0
    assert settings.pause_after_failures == 3
    assert settings.gather_s == 2.5
    assert default_settings().gather_s == 5.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[ladder]\npools = ['chess/base/2']", "unknown game"),
        ("[ladder]\npools = ['rumble-nation/base/9']", "is played by 2, 3, 4 players"),
        ("[ladder]\npools = ['rumble-nation/expert/2']", "no variant 'expert'"),
        ("[ladder]\npools = ['rumble-nation-base-2']", "must be written game/variant/players"),
        ("[ladder]\npools = ['root/autumn/2', 'root/autumn/2']", "lists a pool twice"),
        ("[ladder]\ndecision_ms = -1", "ladder.decision_ms must be a whole number from 1"),
        ("[ladder]\nbank_ms = 'lots'", "ladder.bank_ms must be a whole number"),
        ("[ladder]\npause_after_failure = 2", "did you mean 'pause_after_failures'"),
        ("[ladder]\ngather_ms = 3600000", "ladder.gather_ms must be a whole number from 0 to"),
        ("[ladderr]\n", "unknown section 'ladderr'"),
        ("[ladder]\nhouse = 3", "must be [[ladder.house]] tables"),
        ("[[ladder.house]]\nname='hh1'\npolicy='smart'\ngame='root'", "policy must be one of"),
        ("[[ladder.house]]\nname='h'\npolicy='random'\ngame='root'", "name must be 3-32"),
        (
            "[[ladder.house]]\nname='hh1'\npolicy='ismcts:seconds=-1'\ngame='root'",
            "ladder.house[0]: policy: ismcts parameter seconds must be at least 0",
        ),
        (
            "[ladder]\npools=['root/autumn/2']\n[[ladder.house]]\nname='hh1'\npolicy='random'\n"
            "game='root'\nplayers=[4]",
            "players must list pools this ladder runs for root/autumn (2)",
        ),
        ("[ladder\n", "is not valid TOML"),
    ],
)
def test_mistakes_are_one_line_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LadderConfigError) as error:
        load_settings(write(tmp_path, text))
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_house_bot_may_be_the_search_bot_with_parameters(tmp_path: Path) -> None:
    settings = load_settings(
        write(
            tmp_path,
            "[ladder]\npools = ['root/autumn/2']\n[[ladder.house]]\nname = 'house-ismcts'\n"
            "policy = 'ismcts: seconds=0.5 , c=0.7'\ngame = 'root'\n",
        )
    )
    (house,) = settings.house_bots
    assert house.policy == "ismcts:seconds=0.5"  # canonical: the default c left out
    # The ladder makes its seat with the registry, as for greedy and random.
    policy = make_policy(house.policy, "root", 1)
    assert type(policy).__name__ == "IsmctsPolicy" and policy.params.seconds == 0.5


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(LadderConfigError, match=r"cannot read .*missing\.toml"):
        load_settings(tmp_path / "missing.toml")


def test_submissions_are_off_unless_a_section_turns_them_on(tmp_path: Path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text('[ladder]\npools = ["rumble-nation/base/2"]\n')
    assert load_settings(path).submissions is None
    path.write_text(
        '[ladder]\npools = ["rumble-nation/base/2"]\n'
        '[submissions]\nenabled = true\nfolder = "/srv/kassen"\nruntimes = ["python", "go"]\n'
        "max_upload_mb = 8\nconcurrency = 3\nbuild_time_s = 120\nmemory_mb = 256\n"
        'processes = 32\ncpu_s = 60\ntmpfs_mb = 16\nrust_sysroot = "/opt/rust"\ncpus = 0.5\n'
    )
    found = load_settings(path).submissions
    assert found is not None and found.enabled
    assert (found.folder, found.runtimes, found.max_upload_mb, found.concurrency) == (
        Path("/srv/kassen"),
        ("python", "go"),
        8,
        3,
    )
    assert (found.build.time_s, found.run.memory_mb, found.run.processes) == (120, 256, 32)
    assert (found.run.cpu_s, found.run.tmpfs_mb, found.rust_sysroot) == (60, 16, Path("/opt/rust"))
    assert found.run.cpus == 0.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("enabled = 1", "submissions.enabled must be true or false"),
        ('runtimes = ["cobol"]', "submissions.runtimes must list some of python"),
        ("memory_mb = 0", "submissions.memory_mb must be a whole number from 16"),
        (
            "concurency = 2",
            "unknown key in [submissions] 'concurency' (did you mean 'concurrency'?)",
        ),
        ("folder = 3", "submissions.folder must be a path"),
        ("cpus = 0", "submissions.cpus must be a number of cores from 0.01"),
    ],
)
def test_submission_mistakes_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(f"[submissions]\n{text}\n")
    with pytest.raises(LadderConfigError) as error:
        load_settings(path)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_referees_default_to_the_ladders_own_and_a_file_lists_others(tmp_path: Path) -> None:
    assert default_settings().referees.uses_embedded
    assert not default_settings().referees.remote
    settings = load_settings(
        write(
            tmp_path,
            """
[referees]
addresses = ["10.0.0.5:50051", "ref2.example:443"]
tls = true
tls_ca = "ca.pem"
token_file = "referee.token"
ray = "auto"
ray_referees = 3
""",
        )
    )
    referees = settings.referees
    assert referees.addresses == ("10.0.0.5:50051", "ref2.example:443")
    assert (referees.tls, referees.tls_ca, referees.token_file) == (
        True,
        Path("ca.pem"),
        Path("referee.token"),
    )
    assert (referees.ray, referees.ray_referees) == ("auto", 3)
    assert not referees.uses_embedded  # others are listed: the ladder's own stays out
    both = load_settings(write(tmp_path, '[referees]\naddresses = ["h:1"]\nembedded = true\n'))
    assert both.referees.uses_embedded


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[referees]\naddresses = ["no-port"]\n', "referees.addresses must list host:port"),
        ('[referees]\naddresses = ["h:1", "h:1"]\n', "lists an address twice"),
        ("[referees]\nray_referees = 0\n", "referees.ray_referees must be a whole number"),
        ('[referees]\nembedded = "yes"\n', "referees.embedded must be true or false"),
        ("[referees]\nray = 5\n", "referees.ray must be a text"),
        ("[referees]\nadresses = []\n", "did you mean 'addresses'"),
        ("referees = 3\n", "[referees] must be a table"),
    ],
)
def test_referee_mistakes_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LadderConfigError) as error:
        load_settings(write(tmp_path, text))
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["localhost"], "neither host:port nor ray:CLUSTER"),
        (["ray:"], "name one Ray cluster"),
        (["ray:auto,ray:local"], "name one Ray cluster"),
        (["h:99999"], "neither host:port"),
    ],
)
def test_bad_referees_flags_are_named(specs: list[str], message: str) -> None:
    with pytest.raises(RefereesError) as error:
        parse_referees(specs, default_settings().referees)
    assert message in str(error.value)


def test_the_referees_flag_replaces_the_files_lists() -> None:
    parsed = parse_referees(["h1:1,ray:auto", "h2:2"], default_settings().referees)
    assert (parsed.addresses, parsed.ray) == (("h1:1", "h2:2"), "auto")


def test_challenge_limits_default_and_a_file_sets_them(tmp_path: Path) -> None:
    defaults = default_settings().challenges
    assert (defaults.per_client_at_once, defaults.people_at_once, defaults.per_bot_at_once) == (
        2,
        8,
        1,
    )
    settings = load_settings(
        write(
            tmp_path,
            """
[challenges]
per_client_at_once = 1
per_client_per_hour = 5
per_bot_at_once = 3
people_at_once = 4
wait_ms = 2000
person_decision_ms = 90000
person_bank_ms = 0
person_reconnect_ms = 5000
""",
        )
    ).challenges
    assert (settings.per_client_at_once, settings.per_client_per_hour) == (1, 5)
    assert (settings.per_bot_at_once, settings.people_at_once, settings.wait_s) == (3, 4, 2.0)
    assert (settings.person_time.decision_ms, settings.person_time.bank_ms) == (90_000, 0)
    assert settings.person_reconnect_ms == 5000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[challenges]\npeople_at_once = -1\n", "challenges.people_at_once must be a whole"),
        ("[challenges]\nperson_decision_ms = 10\n", "challenges.person_decision_ms must be"),
        ('[challenges]\nwait_ms = "soon"\n', "challenges.wait_ms must be a whole number"),
        ("[challenges]\npeople = 3\n", "did you mean 'people_at_once'"),
        ("challenges = true\n", "[challenges] must be a table"),
    ],
)
def test_challenge_mistakes_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(LadderConfigError) as error:
        load_settings(write(tmp_path, text))
    assert message in str(error.value) and "\n" not in str(error.value)
