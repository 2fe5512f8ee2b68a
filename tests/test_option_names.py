"""Every game refuses an option it does not know, naming it (a typo must not pass silently
and leave a tournament running with the default rules)."""

from __future__ import annotations

import pytest

from games import GameConfig, InvalidConfig, games


@pytest.mark.parametrize("name", sorted(games()))
def test_an_unknown_option_is_refused_by_name(name: str) -> None:
    game = games()[name]
    config = GameConfig(max(game.player_counts), game.variants[0], {"colour": "blue"})
    with pytest.raises(InvalidConfig, match="no option 'colour'"):
        game.new(config, 1)
    for key in game.option_keys:
        assert key  # the options a game declares are the ones its docs and errors list


def test_known_options_still_work() -> None:
    root = games()["root"]
    assert root.new(GameConfig(2, "autumn", {"games": "1"}), 1) is not None
    from games.gnomeville import GnomevilleState

    state = games()["gnomeville"].new(GameConfig(2, "standard", {"towns": "2,3"}), 1)
    assert isinstance(state, GnomevilleState) and state.towns[1].layout.number == 3
