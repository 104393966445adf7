#!/usr/bin/env python3
"""How soon every screen hears of a fault, with real processes on 127.0.0.1: a relay-only host
(Condottiere, 3 seats) and three headless joins whose bots move no sooner than 0.2 s after their
turn; the figures are read from the joins' own lines as they are printed.

* **Frozen seat.** ``kill -STOP`` on join 2: seconds until "bot2 is not responding" on join 1
  and on join 3 (goal: under 10 s). Then ``kill -CONT``: seconds until "bot2 is responding
  again" on both, the **reference**: what the path from a process to another screen costs here
  without any waiting rule (the host's loop, its presence, the join's print, this script's
  polling), measured in the same run.
* **Stopped host.** ``kill -STOP`` on the host: seconds until "the host is gone" on every join
  (goal: under 5 s); ``kill -CONT``: until "the host is back" on every join.
* **Killed host.** ``kill -9`` on the host: seconds until "the host is gone" on every join
  (goal: under 5 s).

Each figure is the slowest screen's; with ``--rounds N`` the median and the worst of N games.
Every figure is also given as a ratio to the reference of its round.

    nice -n 19 .venv/bin/python scripts/bench_faults.py [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEATS = (1, 2, 3)
POLL = 0.02
GUARD = 60.0  # seconds to wait for a line before the round is called failed


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spawn(args: list[str], home: Path, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    return subprocess.Popen([sys.executable, "-m", "tui", *args], env=env, cwd=ROOT,
                            stdout=open(log, "w"), stderr=subprocess.STDOUT)


def _count(log: Path, words: str) -> int:
    return log.read_text(errors="replace").count(words)


def _until_all(logs: list[Path], words: str, before: list[int]) -> float:
    """Seconds until every log has one more line with ``words`` than ``before``."""
    start = time.monotonic()
    while time.monotonic() - start < GUARD:
        if all(_count(log, words) > n for log, n in zip(logs, before, strict=True)):
            return time.monotonic() - start
        time.sleep(POLL)
    raise RuntimeError(f"no {words!r} on every screen within {GUARD:g} s")


def _timed(logs: list[Path], words: str, act) -> float:
    before = [_count(log, words) for log in logs]
    act()
    return _until_all(logs, words, before)


def one_round(tmp: Path) -> dict[str, float]:
    port = _port()
    host_args = ["host", "condottiere", "--players", "3", "--port", str(port), "--bind",
                 "127.0.0.1", "--no-seat", "--headless", "--open", "--option",
                 "playing_for_points=14"]
    logs = {i: tmp / f"p{i}.log" for i in range(4)}
    host = _spawn(host_args, tmp / "p0", logs[0])
    procs = [host]
    try:
        start = time.monotonic()
        while not re.search(r"palazzo join (\S+)", logs[0].read_text()):
            if time.monotonic() - start > GUARD or host.poll() is not None:
                raise RuntimeError("the host printed no join line")
            time.sleep(POLL)
        line = re.search(r"palazzo join (\S+)", logs[0].read_text()).group(1)  # type: ignore[union-attr]
        joins = {i: _spawn(["join", line, "--name", f"bot{i}", "--bot", "greedy", "--pace",
                            "0.2"], tmp / f"p{i}", logs[i]) for i in SEATS}
        procs += list(joins.values())
        _until_all([logs[1]], "the seats agreed on a seed", [0])
        time.sleep(1.0)
        others = [logs[1], logs[3]]
        every = [logs[i] for i in SEATS]
        out: dict[str, float] = {}
        try:
            out["frozen seat -> not responding"] = _timed(
                others, "bot2 is not responding", lambda: joins[2].send_signal(signal.SIGSTOP))
        finally:
            joins[2].send_signal(signal.SIGCONT)
        out["reference: thawed seat -> responding again"] = _until_all(
            others, "bot2 is responding again", [0, 0])
        try:
            out["stopped host -> host is gone"] = _timed(
                every, "the host is gone", lambda: host.send_signal(signal.SIGSTOP))
        finally:
            host.send_signal(signal.SIGCONT)
        out["thawed host -> host is back"] = _until_all(every, "the host is back", [0, 0, 0])
        out["killed host -> host is gone"] = _timed(
            every, "the host is gone", lambda: host.send_signal(signal.SIGKILL))
        return out
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGCONT)
                p.kill()
                p.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1, help="games to measure (default 1)")
    args = ap.parse_args()
    rounds: list[dict[str, float]] = []
    for n in range(args.rounds):
        with tempfile.TemporaryDirectory() as d:
            rounds.append(one_round(Path(d)))
        print(f"round {n + 1}: " + "; ".join(f"{k} {v:.2f} s" for k, v in rounds[-1].items()),
              flush=True)
    ref = "reference: thawed seat -> responding again"
    goals = {"frozen seat -> not responding": 10.0, "stopped host -> host is gone": 5.0,
             "killed host -> host is gone": 5.0}
    print(f"\n{'fault -> line on every screen':44} {'median':>8} {'worst':>8} {'x ref':>7} goal")
    for key in rounds[0]:
        xs = [r[key] for r in rounds]
        ratio = statistics.median(r[key] / max(r[ref], 1e-3) for r in rounds)
        goal = f"< {goals[key]:g} s" if key in goals else ""
        print(f"{key:44} {statistics.median(xs):7.2f}s {max(xs):7.2f}s {ratio:7.1f} {goal}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) at the end: {load:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
