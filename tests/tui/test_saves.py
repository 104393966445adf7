"""Saving a local game on every move and resuming it: the same game, to the same end."""

from __future__ import annotations

import json
import os

import pytest

from tui import saves
from tui.setup import GameSetup, make_client


def _choose(snap):
    """The seat's decision, a function of the table alone (so two runs of one game agree)."""
    return snap.legal[(snap.steps * 7) % len(snap.legal)]


async def _play(client, moves=None):
    """Play the seat's turns until the end (or ``moves`` of them); the log at that point."""
    done = client.decisions = 0
    async for snap in client.updates():
        if snap.over:
            break
        if snap.my_turn:
            if moves is not None and done == moves:
                break
            client.submit(_choose(snap))
            done = client.decisions = done + 1
    return client.snapshot()


SETUPS = [
    GameSetup(game="medici", players=4, seat=1, bots=("random", "", "greedy", "random"), seed=11,
              pace=0, name="Ada"),
    GameSetup(game="condottiere", players=3, seat=0, bots=("", "random", "greedy"), seed=5,
              pace=0, options=(("hidden_cards", True),)),
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.game)
@pytest.mark.parametrize("part", [0, 0.1, 0.6])
async def test_a_game_saved_at_move_k_and_resumed_ends_as_the_unbroken_game(setup, part):
    first = make_client(setup)
    unbroken = await _play(first)
    assert unbroken.over
    k = int(first.decisions * part)

    client = make_client(setup)
    saver = saves.attach(setup, client)
    await _play(client, moves=k)
    client.close()  # quit
    stopped_at = len(client.record()[0])

    [saved] = saves.saved_games()
    assert saved.path == saver.path and saved.path.parent == saves.saves_dir()
    assert saved.setup == setup and saved.steps == stopped_at and not saved.over
    again = saves.resume(saved, pace=0)
    assert again.snapshot().log == client.snapshot().log
    assert again.bot_kinds == client.bot_kinds and again.seed == setup.seed
    resumed = await _play(again)
    again.close()
    assert resumed.log == unbroken.log
    assert resumed.outcome == unbroken.outcome

    # the finished game stays, for replay, and is no longer offered to continue
    assert saves.saved_games() == []
    [done] = saves.saved_games(finished=True)
    assert done.over and done.ended and done.path == saved.path


def test_the_save_folder_follows_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert saves.saves_dir() == tmp_path / "x" / "palazzo" / "local"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert saves.saves_dir() == tmp_path / "home" / ".local" / "share" / "palazzo" / "local"


async def test_a_write_that_fails_midway_leaves_the_last_save_whole(monkeypatch):
    setup = SETUPS[0]
    client = make_client(setup)
    saver = saves.attach(setup, client)
    await _play(client, moves=2)
    saver.flush()
    before = saver.path.read_bytes()

    def crash(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", crash)
    await _play(client, moves=1)
    saver.flush()
    assert "No space left on device" in saver.error
    assert saver.path.read_bytes() == before  # the previous save, whole
    assert [p.name for p in saver.path.parent.iterdir()] == [saver.path.name]  # no stray file
    monkeypatch.undo()
    client.close()
    assert saves.load(saver.path).steps == json.loads(before)["steps"]


@pytest.mark.parametrize("change, words", [
    (lambda d: "not json", "not a saved palazzo game"),
    (lambda d: {**d, "format": "x"}, "not a saved palazzo game"),
    (lambda d: {**d, "version": 9}, "version 9"),
    (lambda d: {**d, "players": "4"}, "'players'"),
    (lambda d: {**d, "game": "chess"}, "unknown game"),
    (lambda d: {**d, "history": d["history"][:5] + [d["history"][9]] + d["history"][5:]},
     "does not play back"),
    (lambda d: {**d, "rng": [3, ["x"], None]}, "generator state"),
    (lambda d: {**d, "bot_rngs": {}}, "generators do not match"),
])
async def test_a_damaged_save_is_refused_naming_the_check(change, words):
    setup = SETUPS[0]
    client = make_client(setup)
    saver = saves.attach(setup, client)
    await _play(client, moves=4)
    client.close()
    data = json.loads(saver.path.read_bytes())
    changed = change(data)
    saver.path.write_text(changed if isinstance(changed, str) else json.dumps(changed))
    with pytest.raises(saves.SaveError, match=words) as e:
        saves.resume(saves.load(saver.path), pace=0)
    assert str(saver.path) in str(e.value)


async def test_a_move_writes_only_its_own_file_however_many_games_are_saved(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    setup = SETUPS[0]
    client = make_client(setup)
    saver = saves.attach(setup, client)
    body = saver.path.read_bytes()
    for i in range(60):  # other games, saved before
        (saver.path.parent / f"medici-20260101-{i:06}-{i}.json").write_bytes(body)
    listed, opened = [], []
    real_open, real_scandir, real_listdir = open, os.scandir, os.listdir
    monkeypatch.setattr(os, "scandir", lambda *a: listed.append(a) or real_scandir(*a))
    monkeypatch.setattr(os, "listdir", lambda *a: listed.append(a) or real_listdir(*a))
    monkeypatch.setattr("builtins.open", lambda f, *a, **k: opened.append(str(f)) or real_open(f, *a, **k))
    await _play(client, moves=4)
    saver.flush()
    steps = json.loads(saver.path.read_bytes())["steps"]
    client.close()
    assert steps > 0 and len(opened) >= 4  # every move was written
    assert listed == []  # no folder is read
    assert {os.path.basename(f) for f in opened} == {f".{saver.path.name}.{os.getpid()}.tmp"}


async def test_a_medici_game_saved_before_the_end_rule_changed_resumes_as_a_short_game():
    """A save written before its file named the configuration was a short game (the default of
    its day); it plays on, and ends, under that reading. A new save names its reading."""
    setup = GameSetup(game="medici", players=4, seat=0, bots=("greedy",), seed=3, pace=0)
    client = make_client(setup)
    saver = saves.attach(setup, client)
    await _play(client, moves=2)
    client.close()
    data = json.loads(saver.path.read_text())
    assert data["config"]["end_when_all_struck"] is True
    del data["config"]  # as an old save was written
    saver.path.write_text(json.dumps(data))
    [old] = saves.saved_games()
    assert dict(old.setup.options) == {"short_game": True}
    again = saves.resume(old, pace=0)
    assert again.snapshot().state.config.short_game
    resumed = await _play(again)
    again.close()
    assert resumed.over and resumed.state.config.short_game
    # a new one, or an old one that named the option, keeps what it says
    data["options"] = [["end_when_all_struck", True]]
    saver.path.write_text(json.dumps(data))
    [named] = saves.saved_games(finished=None)
    assert not saves.resume(named, pace=0).snapshot().state.config.short_game
