"""End to end over 127.0.0.1, with real processes: the faults of a game night.

- A host killed (SIGKILL) mid-game is told by every headless join ("the host is gone; trying
  again (0:5x left)", the time left counted from when it last heard the host), and the same host
  command run again finishes the game: every join says "the host is back; the game goes on",
  exits 0 and saves the same verified record.
- A join frozen with SIGSTOP is "not responding" on every other join, and "responding again"
  once it goes on (SIGCONT); a host frozen the same way is "gone" on every join, then "back".
- A join killed just before the end and run again after it receives the end: the host waits for
  it, and its record is complete.
- A join frozen while another seat is due, under a turn limit: the game waits on its
  acknowledgement, every other join says so, and it is the one forfeited, never the writer.

The joins' bots move no sooner than 0.05 s after their turn (``--pace``) so that the faults come
mid-game (a game of 10 points is 130 to 600 moves: 6 s at least); each wait is a hang guard, never a timed assertion (``scripts/bench_faults.py``
measures the times)."""

import hashlib
import re
import signal
import socket
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from net.session.commands.hosting import EXIT_ONE_SIDE
from tests.e2e.test_network_e2e import TIMEOUT, _join_line, _palazzo, _transcript

GIVE_UP = 60  # seconds a join keeps trying by default (``palazzo join --give-up``)
SEATS = (1, 2, 3)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _host_args(port: int, *extra: str) -> list[str]:
    return ["host", "condottiere", "--players", "3", "--port", str(port), "--bind", "127.0.0.1",
            "--no-seat", "--headless", "--open", "--option", "playing_for_points=10", *extra]


def _join(tmp_path: Path, line: str, i: int, log: Path, *extra: str, pace: str = "0.05"):
    return _palazzo(["join", line, "--name", f"bot{i}", "--bot", "greedy", "--pace", pace,
                     *extra], tmp_path / f"p{i}", log)


def _until(what: str, done, procs=()) -> None:
    deadline = time.time() + 120  # a hang guard
    while not done():
        assert time.time() < deadline, what
        for p in procs:
            assert p.poll() is None, f"{what}: a process ended"
        time.sleep(0.05)


@contextmanager
def game_night(tmp_path: Path, *host_extra: str, pace: str = "0.05"):
    """A relay-only Condottiere host on a free port of 127.0.0.1 (``_host_args`` and
    ``host_extra``) and the three joins of ``SEATS`` at ``pace``: the port, the logs (``0`` the host's),
    the processes (``0`` the host; a test adds the ones it starts) and the join line. Every
    process still running at the end is woken (a test may have frozen it) and killed."""
    port = _free_port()
    logs = {i: tmp_path / f"p{i}.log" for i in range(4)}
    procs = [_palazzo(_host_args(port, *host_extra), tmp_path / "p0", logs[0])]
    try:
        line = _join_line(logs[0], procs[0])
        procs += [_join(tmp_path, line, i, logs[i], pace=pace) for i in SEATS]
        yield port, logs, procs, line
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGCONT)
                p.kill()


def _has(log: Path, words: str) -> bool:
    return words in log.read_text()


def _under_way(logs) -> None:
    _until("the game under way", lambda: _has(logs[1], "the seats agreed on a seed"))
    time.sleep(1.0)  # a few moves in


def _verified_and_same(tmp_path: Path, logs, seats=SEATS) -> None:
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in seats]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    for i in seats:
        text = logs[i].read_text()
        assert "audit: verified" in text and "Traceback" not in text, text[-2000:]


@pytest.mark.long
def test_a_host_killed_mid_game_is_told_by_every_join_and_the_same_command_finishes_it(tmp_path):
    with game_night(tmp_path) as (port, logs, procs, line):
        host = procs[0]
        _under_way(logs)
        host.send_signal(signal.SIGKILL)
        host.wait(TIMEOUT)
        _until("every join says the host is gone",
               lambda: all(_has(logs[i], "the host is gone; trying again (") for i in SEATS))
        for i in SEATS:  # said with the time it keeps trying: told soon after the host went
            m = re.search(r"the host is gone; trying again \((\d+):(\d\d) left\)",
                          logs[i].read_text())
            assert m, logs[i].read_text()[-2000:]
            assert int(m.group(1)) * 60 + int(m.group(2)) >= GIVE_UP - 10, m.group(0)
        again_log = tmp_path / "p0-again.log"
        again = _palazzo(_host_args(port), tmp_path / "p0", again_log)  # the same command
        procs.append(again)
        for i in SEATS:
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-3000:]
        assert again.wait(TIMEOUT) == 0, again_log.read_text()[-3000:]
    for i in SEATS:
        assert "the host is back; the game goes on" in logs[i].read_text()
    _verified_and_same(tmp_path, logs)


@pytest.mark.long
def test_a_frozen_join_is_not_responding_and_a_frozen_host_is_gone_then_back(tmp_path):
    with game_night(tmp_path, "--option", "playing_for_points=12") as (port, logs, procs, line):
        host = procs[0]
        _under_way(logs)
        procs[2].send_signal(signal.SIGSTOP)
        try:
            _until("the others say bot2 is not responding",
                   lambda: _has(logs[1], "bot2 is not responding")
                   and _has(logs[3], "bot2 is not responding"), [procs[1], procs[3]])
        finally:
            procs[2].send_signal(signal.SIGCONT)
        _until("bot2 answers again", lambda: _has(logs[1], "bot2 is responding again"))
        host.send_signal(signal.SIGSTOP)
        try:
            _until("every join says the host is gone",
                   lambda: all(_has(logs[i], "the host is gone; trying again (") for i in SEATS))
        finally:
            host.send_signal(signal.SIGCONT)
        for i in SEATS:
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-3000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
    for i in SEATS:
        text = logs[i].read_text()
        assert "the host is back; the game goes on" in text, text[-2000:]
        assert "gave up" not in text and "cheat" not in text
    assert "bot2 is not responding" not in logs[2].read_text()  # nothing about itself
    _verified_and_same(tmp_path, logs)


@pytest.mark.long
def test_a_join_killed_before_the_end_and_run_again_after_it_receives_the_end(tmp_path):
    """The game ends while a seat is away: bot2 is frozen while due, forfeits after a short
    grace, and its program is killed; the same join line run after the end is sent the end by a
    host that waited for it, and saves a complete record."""
    with game_night(tmp_path, "--grace", "2") as (port, logs, procs, line):
        host = procs[0]
        _under_way(logs)
        procs[2].send_signal(signal.SIGSTOP)
        _until("the game ends by bot2's forfeit", lambda: _has(logs[0], "forfeit"), [host])
        procs[2].send_signal(signal.SIGKILL)
        procs[2].wait(TIMEOUT)
        logs[2] = tmp_path / "p2-again.log"
        procs[2] = _join(tmp_path, line, 2, logs[2])  # the same command, after the end
        # a game cut short by a forfeit is one side's record: the forfeited seat signed no end
        for i in SEATS:
            assert procs[i].wait(TIMEOUT) == EXIT_ONE_SIDE, logs[i].read_text()[-3000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
    assert "did not come back within 2 seconds" in logs[2].read_text()
    assert "one side's record: seats bot2 did not sign" in logs[2].read_text()
    _verified_and_same(tmp_path, logs)


def _own_moves(log: Path) -> int:
    """The moves a join printed of its own seat ("Green: plays ..."), after the seed."""
    text = log.read_text()
    after = text.split("the seats agreed on a seed", 1)
    return len(re.findall(r"^[A-Z][a-z]+: ", after[1], re.M)) if len(after) == 2 else 0


@pytest.mark.long
def test_a_join_frozen_while_another_is_due_under_a_turn_limit_is_the_one_forfeited(tmp_path):
    """bot2 is frozen just after a move of its own, while another seat writes: the disclosures
    that wait on its acknowledgement make it the seat the game waits on, and it is the one
    forfeited at the turn limit, never the seat that waited on it."""
    with game_night(tmp_path, "--turn-timeout", "10") as (port, logs, procs, line):
        host = procs[0]
        _under_way(logs)
        moved = _own_moves(logs[2])
        _until("a move of bot2's", lambda: _own_moves(logs[2]) > moved, procs)
        procs[2].send_signal(signal.SIGSTOP)
        try:
            _until("the host forfeits a seat", lambda: _has(logs[0], " forfeits: "), [host])
        finally:
            procs[2].send_signal(signal.SIGCONT)
        for i in (1, 3):
            assert procs[i].wait(TIMEOUT) == EXIT_ONE_SIDE, logs[i].read_text()[-3000:]
        procs[2].wait(TIMEOUT)
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
    forfeits = re.findall(r"^(\w+) forfeits: (.*)$", logs[0].read_text(), re.M)
    # the frozen seat, never the one that waited on it: for its acknowledgement, or for its own
    # move when its turn came first (a three-seat game comes back to it soon)
    assert forfeits in ([("bot2", "bot2 did not acknowledge within 10 seconds")],
                        [("bot2", "no move within 10 seconds")]), forfeits
    for i in (1, 3):
        text = logs[i].read_text()
        if forfeits[0][1].endswith("did not acknowledge within 10 seconds"):
            assert "waiting for bot2 to acknowledge" in text, text[-2000:]
        assert "one side's record: seats bot2 did not sign" in text
        assert "cheat" not in text and "Traceback" not in text
    _verified_and_same(tmp_path, {i: logs[i] for i in (1, 3)}, seats=(1, 3))
