#!/usr/bin/env python3
"""The round trip of a move on loopback with 4 peers: from a peer writing its signed entry to
the host, through the host's checks and relay, to the peer holding it back, checked and applied.

Every peer is a real TCP client of a real host on 127.0.0.1. By default each peer runs in its
own process, as in a real game; ``--one-process`` puts the host and all peers in one event loop
(then a sample also carries the other peers' work, their bots' thinking included). Greedy bots
play whole Court of the Medici games; every entry a seat writes is timed.

    .venv/bin/python scripts/bench_net.py [--games 5] [--one-process]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game  # noqa: E402
from net.session.host import HostRunner  # noqa: E402
from net.session.peer import run_peer  # noqa: E402
from net.session.sessions import HostSession, PeerSession  # noqa: E402
from net.wire.identity import Identity  # noqa: E402

SAMPLES: list[float] = []


class TimedPeer(PeerSession):
    def _post(self, entry):  # type: ignore[no-untyped-def]
        self.__dict__.setdefault("sent", {})[entry.seq] = time.perf_counter()
        super()._post(entry)

    def _on_entry(self, m):  # type: ignore[no-untyped-def]
        sent = self.__dict__.setdefault("sent", {})
        held = len(self.table.transcript) if self.table is not None else 0
        if held in sent:  # this entry is the one this seat posted
            SAMPLES.append(time.perf_counter() - sent.pop(held))
        super()._on_entry(m)


async def one_game(seed: int, processes: bool) -> None:
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(4, {}))
    runner = HostRunner(host)
    started: asyncio.Future = asyncio.get_running_loop().create_future()
    serve = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    if processes:
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--peer", str(port), str(seed * 10 + i),
            stdout=subprocess.PIPE) for i in range(4)]
        outs = await asyncio.gather(*(p.communicate() for p in procs))
        for out, _ in outs:
            SAMPLES.extend(json.loads(out))
    else:
        peers = [TimedPeer(Identity.generate(), f"p{i}") for i in range(4)]
        bots = [entry.make_bot("greedy", random.Random(seed * 10 + i)) for i in range(4)]
        await asyncio.gather(*(run_peer(p, "127.0.0.1", port, b)
                               for p, b in zip(peers, bots, strict=True)))
        assert all(p.state == "over" for p in peers), [p.error for p in peers]
    await serve


def peer_process(port: int, seed: int) -> None:
    peer = TimedPeer(Identity.generate(), f"p{seed}")
    bot = get_game("medici").make_bot("greedy", random.Random(seed))
    asyncio.run(run_peer(peer, "127.0.0.1", port, bot))
    assert peer.state == "over", peer.error
    print(json.dumps(SAMPLES))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--one-process", action="store_true")
    ap.add_argument("--peer", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        peer_process(*args.peer)
        return
    t0 = time.perf_counter()
    for g in range(args.games):
        asyncio.run(one_game(g, not args.one_process))
    wall = time.perf_counter() - t0
    ms = sorted(x * 1000 for x in SAMPLES)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    how = "one process" if args.one_process else "a process per peer"
    print(f"{args.games} games of Court of the Medici, 4 peers on 127.0.0.1 ({how}), "
          f"{len(ms)} moves timed")
    print(f"round trip of a move: median {statistics.median(ms):.2f} ms, "
          f"99th percentile {p99:.2f} ms, max {ms[-1]:.2f} ms")
    print(f"wall time {wall:.1f} s (gate: median under 5 ms)")


if __name__ == "__main__":
    main()
