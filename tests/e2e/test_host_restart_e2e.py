"""End to end over 127.0.0.1: a host killed (kill -9) mid-game and restarted with the same
identity and port resumes from its record; the joins reconnect by themselves, the game ends,
every saved record is identical and ``palazzo verify`` says verified."""

import hashlib
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_network_e2e import JOIN_LINE, TIMEOUT, _env, _join_line, _palazzo, _transcript


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(log: Path, proc: subprocess.Popen, done) -> str:
    deadline = time.time() + JOIN_LINE
    while time.time() < deadline:
        text = log.read_text()
        if done(text):
            return text
        if proc.poll() is not None:
            raise AssertionError(f"the process stopped: {text[-2000:]}")
        time.sleep(0.01)
    raise AssertionError(f"never happened: {log.read_text()[-2000:]}")


@pytest.mark.long
def test_a_host_killed_mid_game_comes_back_and_the_game_ends_verified(tmp_path):
    port = _free_port()
    homes = [tmp_path / f"p{i}" for i in range(3)]
    logs = [tmp_path / f"p{i}.log" for i in range(3)]
    args = ["host", "medici", "--players", "4", "--bots", "1", "--port", str(port), "--bind",
            "127.0.0.1", "--headless", "--open"]
    host = _palazzo(args, homes[0], logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        for i in (1, 2):
            procs.append(_palazzo(["join", line, "--name", f"bot{i}", "--bot", "greedy"],
                                  homes[i], logs[i]))
        # well into the game: the seed made, the decks shuffled, moves made
        _wait_for(logs[0], host, lambda t: t.count("\n", t.find("the game starts")) > 6
                  and "the game starts" in t)
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        assert "game over" not in logs[0].read_text()
        first = logs[0].read_text()
        again_log = tmp_path / "p0-again.log"
        again = _palazzo(args, homes[0], again_log)
        procs.append(again)
        for p, log in [(again, again_log), (procs[1], logs[1]), (procs[2], logs[2])]:
            assert p.wait(TIMEOUT) == 0, log.read_text()[-3000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    text = again_log.read_text()
    assert "resuming game " in text and " at entry " in text, text[:2000]
    assert "game over" in text
    for log in logs[1:]:
        t = log.read_text()
        assert "the host is gone; trying again (" in t or "connection lost" in t, t
        assert "audit: verified" in t and "cheat" not in t, t
    saved = [_transcript(homes[0], again_log), _transcript(homes[1], logs[1]),
             _transcript(homes[2], logs[2])]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    path = tmp_path / "game.palazzo"
    path.write_bytes(saved[0])
    out = subprocess.run([sys.executable, "-m", "tui", "verify", str(path)], env=_env(homes[0]),
                         capture_output=True, text=True, cwd=Path(__file__).parents[2],
                         timeout=TIMEOUT)
    assert out.returncode == 0 and "verified" in out.stdout, out.stdout + out.stderr
    assert "game over" not in first
