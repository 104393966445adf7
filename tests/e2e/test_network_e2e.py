"""End to end over 127.0.0.1: a host and bot joins as separate processes play a whole game,
and every peer saves the same transcript."""

import hashlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: hang guards only, on the wall clock (the work is in other processes): far beyond what even a
#: loaded machine needs, never a timed assertion
TIMEOUT = 600
JOIN_LINE = 300


def _env(home: Path) -> dict:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(home / "config")
    env["XDG_DATA_HOME"] = str(home / "data")
    return env


def _palazzo(args, home: Path, log: Path) -> subprocess.Popen:
    """``palazzo ARGS`` in its own process; a bot seat moves at once (``--pace 0``) unless the
    test gives it a pace."""
    if args[:1] == ["join"] and "--bot" in args and "--pace" not in args:
        args = [*args, "--pace", "0"]
    out = open(log, "w")
    return subprocess.Popen([sys.executable, "-m", "tui", *args], env=_env(home), stdout=out,
                            stderr=subprocess.STDOUT, cwd=Path(__file__).parents[2])


def _join_line(log: Path, proc: subprocess.Popen) -> str:
    deadline = time.time() + JOIN_LINE
    while time.time() < deadline:
        m = re.search(r"palazzo join (\S+)", log.read_text())
        if m:
            return m.group(1)
        if proc.poll() is not None:
            raise AssertionError(f"the host stopped: {log.read_text()}")
        time.sleep(0.05)
    raise AssertionError("the host never printed its join line")


def _transcript(home: Path, log: Path) -> bytes:
    text = log.read_text()
    m = re.search(r"transcript: (\S+)", text)
    assert m, text
    path = Path(m.group(1))
    assert path.parent == home / "data" / "palazzo" / "games"
    return path.read_bytes()


def play(tmp_path, game, players, host_args):
    homes = [tmp_path / f"p{i}" for i in range(players + 1)]
    logs = [tmp_path / f"p{i}.log" for i in range(players + 1)]
    host = _palazzo(["host", game, "--players", str(players), "--port", "0", "--bind",
                     "127.0.0.1", "--headless", *host_args], homes[0], logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        code = re.search(r"--code (\S+)", logs[0].read_text())
        bots = int(host_args[host_args.index("--bots") + 1]) if "--bots" in host_args else 0
        joins = players - (0 if "--no-seat" in host_args else 1) - bots
        for i in range(1, joins + 1):
            args = ["join", line, "--name", f"bot{i}", "--bot", "greedy"]
            if code:
                args += ["--code", code.group(1)]
            procs.append(_palazzo(args, homes[i], logs[i]))
        for p, log in zip(procs, logs[: len(procs)], strict=True):
            assert p.wait(TIMEOUT) == 0, log.read_text()[-2000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    saved = [_transcript(homes[i], logs[i]) for i in range(len(procs))]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    assert "game over" in logs[1].read_text()
    assert "audit: verified" in logs[1].read_text()  # the join checked every entry as it came
    return saved[0]


def test_a_four_player_medici_game_between_processes(tmp_path):
    data = play(tmp_path, "medici", 4, [])
    assert data.startswith(b"palazzo transcript v1\n")


@pytest.mark.long
def test_a_six_player_condottiere_game_between_processes(tmp_path):
    play(tmp_path, "condottiere", 6, ["--no-seat", "--open"])


@pytest.mark.long
def test_bots_on_the_host_each_with_its_own_key(tmp_path):
    data = play(tmp_path, "medici", 3, ["--no-seat", "--bots", "2"])
    from net.session.records.verify import read_entries

    start = read_entries(data)[0].fields
    keys = [s["key"] for s in start["seats"]]
    assert len(set(keys)) == 3
    assert [s["name"] for s in start["seats"]][:2] == ["bot-1 (greedy)", "bot-2 (greedy)"]


def test_a_join_without_the_code_is_refused_with_a_clear_message(tmp_path):
    host = _palazzo(["host", "medici", "--players", "3", "--port", "0", "--bind", "127.0.0.1",
                     "--headless", "--no-seat"], tmp_path / "h", tmp_path / "h.log")
    try:
        line = _join_line(tmp_path / "h.log", host)
        join = _palazzo(["join", line, "--bot", "random"], tmp_path / "j", tmp_path / "j.log")
        assert join.wait(TIMEOUT) == 1
        text = (tmp_path / "j.log").read_text()
        assert "no game code: ask the host for the line to join" in text
        assert host.poll() is None  # the host is still waiting for its players
    finally:
        host.kill()
