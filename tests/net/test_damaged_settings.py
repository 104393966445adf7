"""A host record whose settings file is cut keeps every field before the cut and says, in one
line, what it kept and what the rest cost (``net.session.records.resume``): the fields that
matter most (the host, the game, the code, the grace, the bots' keys) are written first, so a
file cut in half keeps them all."""

import pytest

from net.session.commands.hosting import HostSettings, hosted
from net.session.records.resume import HostRecord, hosting_dir


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def _lobby(say) -> tuple[HostSettings, str]:
    s = HostSettings(game="condottiere", players=3, options={}, port=0, bind="127.0.0.1",
                     bots=2, grace=42.0, turn_timeout=30.0)
    session, code, seeds, _ = hosted(s, say)
    assert code and len(seeds) == 2
    return s, code


def _settings_file():
    (folder,) = list(hosting_dir().iterdir())
    return folder, folder / "settings"


def test_settings_cut_in_half_keep_the_code_and_the_grace_and_say_the_bots_keys_are_lost(
        profile):
    s, code = _lobby(lambda line: None)
    folder, path = _settings_file()
    whole = HostRecord(folder).settings
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    record = HostRecord(folder)
    for key in ("host", "game", "players", "code", "grace"):
        assert record.settings[key] == whole[key], key
    (damage,) = record.damage
    assert "kept the fields before the damage: host, game, players, code, grace" in damage
    said: list[str] = []
    session, again, seeds, kept = hosted(s, said.append)  # the same command again
    assert again == code and kept.grace == 42.0
    assert len(seeds) == 2 and seeds != whole["bot_seeds"]  # a lobby: its bots get new keys
    assert any(line.startswith("back in the lobby") for line in said), said
    (line,) = [x for x in said if "is damaged" in x]  # one line: what was kept, what was lost
    assert "kept the fields before the damage: host, game, players, code, grace" in line
    assert "Lost: the keys of the host's computer seats (new ones are made: no game was " \
        "played yet)" in line
    assert "game code" not in line.split("Lost")[1]


def test_settings_cut_after_the_bots_keys_lose_nothing_that_matters(profile):
    s, code = _lobby(lambda line: None)
    folder, path = _settings_file()
    whole = HostRecord(folder).settings
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"options") + 4])
    record = HostRecord(folder)
    assert record.settings == {k: whole[k] for k in ("host", "game", "players", "code", "grace",
                                                     "bot_seeds")}
    assert record.settings_lost() == [] and record.damage
    session, again, seeds, kept = hosted(s, lambda line: None)
    assert again == code and seeds == whole["bot_seeds"] and kept.grace == 42.0


def test_settings_cut_early_say_what_was_lost_and_keep_the_rest(profile):
    _lobby(lambda line: None)
    folder, path = _settings_file()
    data = path.read_bytes()
    cut = data.index(b"code") + 8  # inside the code's value: the host, game, players kept
    path.write_bytes(data[:cut])
    record = HostRecord(folder)
    assert list(record.settings) == ["host", "game", "players"]
    lost = record.settings_lost()
    assert any("game code" in x for x in lost) and any("computer seats" in x for x in lost)
    assert any("grace" in x for x in lost)
