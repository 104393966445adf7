#!/usr/bin/env python3
"""What a seat's file journal costs: one entry written (temporary file, fsync, rename, folder
fsync), and a whole game whose every seat keeps a file journal against one kept in memory.

    .venv/bin/python scripts/bench_journal.py --runs 5

Figures are medians, and the game's cost is given as a ratio (files / memory), with the load
average at the start, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get_game  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.records.journal import Journal  # noqa: E402
from net.session.runners.link import MemoryLink  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.transcript import Entry, genesis  # noqa: E402


def one_write(folder: Path, n: int) -> list[float]:
    me = Identity.generate()
    journal = Journal.for_identity(me.public_key, folder)
    game = os.urandom(16)
    times = []
    for seq in range(n):
        e = Entry.sign(me, {"game": game, "seq": seq, "prev": genesis(game), "author": 0,
                            "kind": "act", "pad": os.urandom(2000)})
        t0 = time.perf_counter()
        journal.write(game, e)
        times.append(time.perf_counter() - t0)
    return times


def game(folder: Path | None, seed: int) -> tuple[float, int]:
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    link = MemoryLink(host)
    for i in range(3):
        me = Identity.generate()
        journal = Journal() if folder is None else Journal.for_identity(me.public_key, folder)
        link.add(PeerSession(me, f"p{i}", journal=journal),
                 entry.make_bot("greedy", random.Random(seed * 10 + i)))
    t0 = time.perf_counter()
    link.pump()
    assert host.finished
    return time.perf_counter() - t0, len(host.table.transcript)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        writes = one_write(Path(tmp), 200)
        print(f"one entry written to the file journal: median {statistics.median(writes) * 1e3:.2f} ms"
              f" (200 entries of ~2 KB)")
        ratios, entries = [], 0
        for run in range(args.runs):
            mem, entries = game(None, run)
            files, _ = game(Path(tmp) / str(run), run)
            ratios.append(files / mem)
        print(f"a 3-seat Medici game ({entries} entries), every seat journaling to files vs in "
              f"memory: median ratio {statistics.median(ratios):.3f} over {args.runs} runs")


if __name__ == "__main__":
    main()
