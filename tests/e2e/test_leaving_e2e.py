"""End to end over 127.0.0.1, with real processes: leaving is told to the host however the
player leaves.

- A join that quits (Ctrl-C) while its host is gone (killed, not yet restarted) reconnects to
  the restarted host just to say it leaves: the host says "bot2 ... leaves", every other join
  says "bot2 left", and the game ends by bot2's forfeit after the grace with records that
  verify as far as they went.
- A headless join closed by SIGTERM (``kill``) or SIGHUP (a closed SSH session) leaves as Ctrl-C
  does: "you left the game; the host and the other players were told", its record saved, no
  traceback, and every other join says "bot2 left". The table (Textual, in a real terminal under
  tmux) killed, or whose terminal closes, does the same.
- One clock: a player at the table whose program is killed while due and started again sees
  its thinking time counted from when the host says the turn began, not from the rejoin.
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from net.session.commands.hosting import EXIT_FAILED, EXIT_ONE_SIDE
from net.session.records.adopt import SO_FAR
from tests.e2e.test_liveness_e2e import (
    _free_port,
    _has,
    _host_args,
    _join,
    _until,
    game_night,
)
from tests.e2e.test_network_e2e import TIMEOUT, _env, _join_line, _palazzo

LEFT = "you left the game; the host and the other players were told"


def _stop(procs) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGCONT)
            p.kill()


def _others_end_by_forfeit(logs, procs, reason: str) -> None:
    for i in (1, 3):
        assert procs[i].wait(TIMEOUT) == EXIT_ONE_SIDE, logs[i].read_text()[-3000:]
        text = logs[i].read_text()
        assert "bot2 left" in text, text[-3000:]
        assert f"game over: bot2 forfeited ({reason})" in text, text[-3000:]
        assert "audit: verified as far as it went" in text and "Traceback" not in text


@pytest.mark.long
def test_a_join_that_quits_while_its_host_is_gone_tells_the_restarted_host(tmp_path):
    with game_night(tmp_path, "--grace", "3") as (port, logs, procs, line):
        host = procs[0]
        _until("the game under way", lambda: _has(logs[2], "the seats agreed on a seed"))
        host.send_signal(signal.SIGKILL)
        host.wait(TIMEOUT)
        _until("bot2 says the host is gone",
               lambda: _has(logs[2], "the host is gone; trying again ("), procs[1:])
        procs[2].send_signal(signal.SIGINT)  # its connection is down: nobody to tell yet
        _until("bot2 says it tries to tell the host", lambda: _has(logs[2], "leaving: telling"))
        again_log = tmp_path / "p0-again.log"
        again = _palazzo(_host_args(port, "--grace", "3"), tmp_path / "p0", again_log)
        procs.append(again)
        assert procs[2].wait(TIMEOUT) == EXIT_FAILED, logs[2].read_text()[-3000:]
        _others_end_by_forfeit(logs, procs, "bot2 did not come back within 3 seconds")
        assert again.wait(TIMEOUT) == 0, again_log.read_text()[-3000:]
    said = logs[2].read_text()
    assert LEFT in said and "transcript: " in said and "Traceback" not in said, said[-3000:]
    assert "(bot2) leaves" in again_log.read_text()
    assert "Traceback" not in again_log.read_text()


@pytest.mark.long
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_headless_join_closed_by_a_signal_has_left_at_once(tmp_path, sig):
    with game_night(tmp_path, "--grace", "3") as (port, logs, procs, line):
        host = procs[0]
        _until("the game under way", lambda: _has(logs[2], "the seats agreed on a seed"))
        procs[2].send_signal(sig)
        assert procs[2].wait(TIMEOUT) == EXIT_FAILED, logs[2].read_text()[-3000:]
        _others_end_by_forfeit(logs, procs, "bot2 did not come back within 3 seconds")
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
    said = logs[2].read_text()
    assert LEFT in said and "transcript: " in said and "Traceback" not in said, said[-3000:]
    assert "(bot2) leaves" in logs[0].read_text()
    # the lobby said every setting of the table, in the table's words
    assert "Table: no turn limit; grace 3 s for a player who drops; no hints; options: " in said


def _tui_join(tmp_path: Path, line: str, sock: str, err: bool = True) -> Path:
    """``palazzo join LINE --name Jo`` at the table, in a real terminal (a detached tmux
    session); its pid goes to a file, and with ``err`` its stderr to another (the table is
    drawn there then: the terminal shows nothing)."""
    home = tmp_path / "jo"
    env = " ".join(f"{k}={shlex.quote(str(v))}" for k, v in _env(home).items()
                   if k.startswith("XDG_"))
    command = (f"echo $$ > {tmp_path / 'jo.pid'}; exec env {env} {shlex.quote(sys.executable)} "
               f"-m tui join {line} --name Jo" + (f" 2> {tmp_path / 'jo.err'}" if err else ""))
    subprocess.run(["tmux", "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", "-c",
                    str(Path(__file__).parents[2]), "sh", "-c", command], check=True)
    return home


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.long
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
@pytest.mark.parametrize("how", ["SIGTERM", "closed terminal"])
def test_a_join_at_the_table_killed_or_whose_terminal_closes_has_left_at_once(tmp_path, how):
    """The table (Textual) in a real terminal: ``kill`` of its program, or its terminal closed
    (SIGHUP, as an SSH session that ends), tells the host "left" at once, saves the record and
    exits with no traceback; the others see "Jo left" and the game ends by Jo's forfeit."""
    port = _free_port()
    sock = f"palazzo-test-{os.getpid()}-{port}"
    logs = {i: tmp_path / f"p{i}.log" for i in range(4)}
    host = _palazzo(_host_args(port, "--grace", "3"), tmp_path / "p0", logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 3)]
        home = _tui_join(tmp_path, line, sock)
        _until("Jo in the lobby", lambda: _has(logs[1], "Jo ["), procs)
        pid = int((tmp_path / "jo.pid").read_text())
        subprocess.run(["tmux", "-L", sock, "send-keys", "r"], check=True)  # ready
        _until("the game under way", lambda: _has(logs[1], "the seats agreed on a seed"), procs)
        if how == "SIGTERM":
            os.kill(pid, signal.SIGTERM)
        else:
            subprocess.run(["tmux", "-L", sock, "kill-server"], check=True)
        _until("Jo's program ends", lambda: not _alive(pid))
        for i, p in ((1, procs[1]), (3, procs[2])):
            assert p.wait(TIMEOUT) == EXIT_ONE_SIDE, logs[i].read_text()[-3000:]
            text = logs[i].read_text()
            assert "Jo left" in text and "Jo lost the connection" not in text, text[-3000:]
            assert "game over: Jo forfeited (Jo did not come back within 3 seconds)" in text
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
        _stop(procs)
    assert "(Jo) leaves" in logs[0].read_text()
    err = (tmp_path / "jo.err").read_text()
    assert "Traceback" not in err and "Error" not in err, err[-3000:]
    # the record Jo left with (a busy machine may also have had Jo save its record so far, on a
    # host quiet for a moment: ``save_so_far``; never any evidence: nobody cheated)
    saved = [p for p in (home / "data" / "palazzo" / "games").glob("*.palazzo")
             if not p.name.endswith(f"{SO_FAR}.palazzo")]
    assert len(saved) == 1, saved
    kept = saved[0].read_bytes()
    assert len(kept) > 100 and _transcript_of(logs[1]).startswith(kept)  # as far as Jo went


def _transcript_of(log: Path) -> bytes:
    """The record a headless join saved, read up to the entries Jo held: Jo's record is a
    prefix of it (Jo left before the end)."""
    text = log.read_text()
    path = Path(text.split("transcript: ")[1].split()[0])
    return path.read_bytes()


def _screen(sock: str) -> str:
    out = subprocess.run(["tmux", "-L", sock, "capture-pane", "-p"], capture_output=True,
                         text=True)
    return out.stdout if out.returncode == 0 else ""


def _thinking(sock: str) -> int | None:
    """The seconds Jo's screen says Jo has been thinking, if it says so."""
    m = re.search(r"\bJo thinking (\d+):(\d\d)", _screen(sock))
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_one_clock_a_player_back_at_the_table_counts_from_when_the_host_says_the_turn_began(
        tmp_path):
    """Jo is due and thinks; Jo's program is killed and started again with the same line: the
    first time its screen shows Jo thinking, it counts from when the turn began on the host's
    clock (the time before the kill included), not from the rejoin."""
    port = _free_port()
    sock = f"palazzo-test-{os.getpid()}-{port}"
    again = f"{sock}-again"
    logs = {i: tmp_path / f"p{i}.log" for i in range(4)}
    host = _palazzo(_host_args(port), tmp_path / "p0", logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 3)]
        _tui_join(tmp_path, line, sock, err=False)
        _until("Jo in the lobby", lambda: _has(logs[1], "Jo ["), procs)
        subprocess.run(["tmux", "-L", sock, "send-keys", "r"], check=True)  # ready
        _until("Jo due, thinking for 6 s", lambda: (_thinking(sock) or 0) >= 6, procs)
        before = _thinking(sock)
        os.kill(int((tmp_path / "jo.pid").read_text()), signal.SIGKILL)
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
        _until("the host has Jo reconnecting", lambda: _has(logs[1], "Jo lost the connection"))
        # The same line again, in a terminal of its own: a tmux server on the old socket may
        # still be exiting, and a client that reaches it is told "server exited unexpectedly".
        _tui_join(tmp_path, line, again, err=False)
        _until("Jo's screen back, Jo thinking", lambda: _thinking(again) is not None, procs)
        first = _thinking(again)
    finally:
        for name in (sock, again):
            subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)
        _stop(procs)
    assert before is not None and first is not None and first >= before, (before, first)
