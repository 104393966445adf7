"""End to end over 127.0.0.1, as the LAN table check does it: a second program with a seated
player's key is refused (exit 4, one line, no traceback) without touching the seated game; a
joiner killed with SIGKILL comes back with the same command; the same join line run again while
the first program lives goes on from the new one; every peer ends with one verified record."""

import hashlib
import re
import shutil
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.test_network_e2e import TIMEOUT, _join_line, _palazzo, _transcript

HOST_ARGS = ["condottiere", "--players", "3", "--port", "0", "--bind", "127.0.0.1", "--no-seat",
             "--headless", "--open", "--option", "playing_for_points=12"]
#: a short game (Court of the Medici, 3 seats), relayed
SHORT = ["medici", "--players", "3", "--port", "0", "--bind", "127.0.0.1", "--no-seat",
         "--headless", "--open"]


def _wait_for(log: Path, words: str, what: str) -> None:
    deadline = time.time() + TIMEOUT  # a hang guard, never a timed assertion
    while words not in log.read_text():
        assert time.time() < deadline, f"{what}: {log.read_text()[-2000:]}"
        time.sleep(0.05)


def _join(tmp_path, line, i, log, config=None, data=None, name=None, extra=()):
    home = tmp_path / f"p{i}"
    if config is not None or data is not None:  # another program with a given key or data
        home = tmp_path / (name or f"x{i}")
        shutil.copytree(tmp_path / f"p{config}" / "config", home / "config")
    return _palazzo(["join", line, "--name", name or f"bot{i}", "--bot", "greedy", *extra], home,
                    log)


@contextmanager
def hosted(tmp_path, args=HOST_ARGS):
    """A relay-only host (``HOST_ARGS``) on loopback, for a test's joins: the logs (``p0`` the
    host's, ``p1``-``p3`` the joiners'; ``args``: another game), the host process, the list of processes the test starts
    (each one still running at the end is killed) and the join line."""
    logs = {i: tmp_path / f"p{i}.log" for i in range(4)}
    host = _palazzo(["host", *args], tmp_path / "p0", logs[0])
    procs = [host]
    try:
        yield logs, host, procs, _join_line(logs[0], host)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


def _same_verified_records(tmp_path, logs):
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in (1, 2, 3)]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    assert all("audit: verified" in logs[i].read_text() for i in (1, 2, 3))


@pytest.mark.long
def test_a_second_program_is_refused_and_a_killed_joiner_comes_back(tmp_path):
    with hosted(tmp_path) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, 1, logs[1]), _join(tmp_path, line, 2, logs[2])]
        _wait_for(logs[1], "lobby 2/3", "the two first seats in the lobby")
        dup_log = tmp_path / "dup.log"
        dup = _join(tmp_path, line, 9, dup_log, config=1, name="dup")
        assert dup.wait(TIMEOUT) == 4, dup_log.read_text()
        said = dup_log.read_text()
        assert "already at the table from another program" in said and "--identity" in said
        assert "Traceback" not in said
        assert procs[1].poll() is None  # the seated program goes on
        procs.append(_join(tmp_path, line, 3, logs[3]))
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        procs[2].send_signal(signal.SIGKILL)
        procs[2].wait(TIMEOUT)
        logs[2] = tmp_path / "p2b.log"
        procs[2] = _join(tmp_path, line, 2, logs[2])  # the same command again
        for i in (1, 2, 3):
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
    _same_verified_records(tmp_path, logs)
    assert "Traceback" not in logs[0].read_text()


@pytest.mark.long
def test_the_same_join_line_again_while_the_first_program_lives_goes_on_from_the_new(tmp_path):
    with hosted(tmp_path) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 2, 3)]
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        first = procs[2]
        first_log, logs[2] = logs[2], tmp_path / "p2b.log"
        procs[2] = _join(tmp_path, line, 2, logs[2])  # the first one is still running
        procs.append(first)  # killed at the end if it hangs
        assert first.wait(TIMEOUT) == 4, first_log.read_text()[-2000:]
        assert "joined again from another program" in first_log.read_text()
        for i in (1, 2, 3):
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
    # the first program saved its part of the record too; the newest is the whole game
    newest = max((tmp_path / "p2" / "data" / "palazzo" / "games").iterdir(),
                 key=lambda f: f.stat().st_mtime)
    assert re.search(r"transcript: (\S+)", logs[2].read_text()).group(1) == str(newest)
    _same_verified_records(tmp_path, logs)
