"""End to end over 127.0.0.1, with real processes: endings that say what happened.

- A player at the table (Textual, in a real terminal under tmux) who stops playing once a
  battle is won forfeits at the turn limit: the end screen gives the scores as the game stood,
  places the forfeiter last and says why the game ended.
- A watcher at the table (``palazzo watch HOST:PORT``, in a real terminal under tmux) follows
  the table into the rematch every seat agreed to: it shows the rematch's end, checked again,
  and saves the record of both games, the very records every seat saved.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.session.commands.hosting import EXIT_ONE_SIDE
from tests.e2e.test_leaving_e2e import _screen
from tests.e2e.test_liveness_e2e import _free_port, _has, _join, _until
from tests.e2e.test_network_e2e import TIMEOUT, _env, _join_line, _palazzo
from tests.e2e.test_one_identity_e2e import SHORT, _wait_for, hosted
from tests.e2e.test_rematch_e2e import _records


def _tui(tmp_path: Path, args: list[str], who: str, sock: str, err: bool = False) -> Path:
    """``palazzo ARGS`` at the table in a real terminal (a detached tmux session, 100x30) with
    its own data folder under ``tmp_path / who``; with ``err`` its stderr goes to ``who.err``
    (the table is drawn there then: the terminal shows nothing)."""
    home = tmp_path / who
    env = " ".join(f"{k}={shlex.quote(str(v))}" for k, v in _env(home).items()
                   if k.startswith("XDG_"))
    command = (f"exec env {env} {shlex.quote(sys.executable)} -m tui "
               + " ".join(shlex.quote(a) for a in args)
               + (f" 2> {tmp_path / (who + '.err')}" if err else ""))
    subprocess.run(["tmux", "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", "-c",
                    str(Path(__file__).parents[2]), "sh", "-c", command], check=True)
    return home


def _flat(sock: str) -> str:
    """The words on the screen, a screen's lines and a box's edges run together."""
    return " ".join(_screen(sock).replace("█", " ").replace("▌", " ").split())


def _kept(home: Path) -> list[bytes]:
    """The records a program whose data folder is under ``home`` saved, oldest first."""
    games = home / "data" / "palazzo" / "games"
    paths = sorted(games.glob("*.palazzo"), key=lambda p: p.stat().st_mtime)
    return [p.read_bytes() for p in paths]


@pytest.mark.long
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_a_forfeit_end_at_the_table_shows_the_scores_as_the_game_stood_the_place_and_why(tmp_path):
    """Jo at the table (Condottiere, three seats, a 10 s turn limit) plays until a battle is won
    and a seat holds a region, then stops: Jo forfeits at the limit, and Jo's end screen says
    why, gives every seat's score as the game stood (not all 0: a region is held), and places Jo
    third of 3, never first; the bots' joins say why the game ended."""
    port = _free_port()
    sock = f"palazzo-test-{os.getpid()}-{port}"
    logs = {i: tmp_path / f"p{i}.log" for i in range(4)}
    host = _palazzo(["host", "condottiere", "--players", "3", "--port", str(port), "--bind",
                     "127.0.0.1", "--no-seat", "--headless", "--open", "--turn-timeout", "10"],
                    tmp_path / "p0", logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        bots = {i: _join(tmp_path, line, i, logs[i]) for i in (1, 3)}
        procs += list(bots.values())
        _tui(tmp_path, ["join", line, "--name", "Jo"], "jo", sock)
        _until("Jo in the lobby", lambda: _has(logs[1], "Jo ["), procs)
        subprocess.run(["tmux", "-L", sock, "send-keys", "r"], check=True)  # ready
        deadline = time.time() + TIMEOUT  # a hang guard
        while not re.search(r"regions [1-9]", shown := _screen(sock)):  # a battle won
            assert time.time() < deadline and host.poll() is None, shown
            key = re.search(r"─ ?Your move[^\n]*\n[^\n]*\n[│ ]*(\S) ", shown)
            if "Your turn" in shown and key:  # the first answer offered, whatever the question
                subprocess.run(["tmux", "-L", sock, "send-keys", key.group(1)], check=True)
            time.sleep(0.3)
        # Jo plays no more: forfeited at the turn limit. The end screen, once the notes that
        # cover its top (the record saved) are gone
        deadline = time.time() + 120  # a hang guard
        why = r"The game ended after [^:]*: Jo forfeited \(no move within 10"  # a line wraps
        while not re.search(why, shown := _flat(sock)):
            assert time.time() < deadline, shown
            time.sleep(0.2)
        for i in (1, 3):
            assert bots[i].wait(TIMEOUT) == EXIT_ONE_SIDE, logs[i].read_text()[-3000:]
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert "You forfeited: you finish third of 3." in shown, shown
    assert "first of 3" not in shown and "You win" not in shown
    assert "The scores as the game stood" in shown, shown
    scores = [int(n) for n in re.findall(r"(\d+) regions?\b", shown)]
    assert len(scores) == 3 and any(scores), shown
    assert re.search(r"\(Jo\) +\d+ regions? forfeited", shown), shown  # placed last
    for i in (1, 3):
        text = logs[i].read_text()
        assert "game over: Jo forfeited (no move within 10 seconds)" in text, text[-2000:]
        assert "Traceback" not in text


@pytest.mark.long
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_a_watcher_at_the_table_follows_the_seats_into_the_rematch_and_saves_both_records(
        tmp_path):
    sock = f"palazzo-test-{os.getpid()}-watch"
    with hosted(tmp_path, SHORT) as (logs, host, procs, line):
        try:
            home = _tui(tmp_path, ["watch", line, "--name", "Wanda"], "wanda", sock)
            _wait_for(logs[0], "watcher Wanda", "the host lists the watcher")
            procs += [_palazzo(["join", line, "--name", f"bot{i}", "--bot", "greedy",
                                "--rematch", "2"], tmp_path / f"p{i}", logs[i])
                      for i in (1, 2, 3)]
            for i in (1, 2, 3):
                assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
            assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
            seats = _records(logs[1])
            assert len(seats) == 2 and seats[0] != seats[1]
            _until("the watcher saves the rematch's record too",
                   lambda: len(_kept(home)) >= 2)
            # its screen shows the rematch's end, checked again
            deadline = time.time() + 120  # a hang guard
            while not ("Audit: verified" in (shown := _flat(sock))
                       and "agreed by all 3 seats" in shown):
                assert time.time() < deadline, shown
                time.sleep(0.2)
        finally:
            subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
    assert _kept(home) == seats  # the very records every seat saved, both games
    for i in (1, 2, 3):
        assert _records(logs[i]) == seats
