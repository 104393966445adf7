#!/usr/bin/env python3
"""A game with a flooding stranger beside it, against the same game alone.

The host runs here, on 127.0.0.1; three greedy bots join it from one other process (every
connection a real TCP client). In the flooded runs a third process, a stranger with no seat,
sends tiny ``ready`` requests as fast as it can, and connects again whenever the host closes
it. Runs alternate between alone and flooded; each game's seats use the same bot seeds, so
the runs differ only by the flood and by the fair deck's fresh randomness. The figures are
medians and their ratio, with the load average, and the host's log bytes per byte the stranger
sent (the flood should be logged a few times, not once per frame).

    .venv/bin/python scripts/bench_flood.py [--rounds 5] [--game medici] [--players 3]
                                            [--patience 5]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.runners.host import HostRunner  # noqa: E402
from net.session.runners.peer import run_peer  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Request  # noqa: E402


async def host_game(game: str, players: int, seed: int, flood: float | None) -> dict[str, float]:
    """One game hosted here (a stranger with patience ``flood`` floods it, unless ``None``): its seconds, the
    host's CPU seconds, its connections, its log bytes and the bytes the stranger sent."""
    entry = get_game(game)
    host = HostSession(Identity.generate(), game, entry.rules.make_config(players, {}))
    runner = HostRunner(host)
    log_bytes = io.StringIO()
    handler = logging.StreamHandler(log_bytes)
    net_log = logging.getLogger("palazzo.net")
    net_log.addHandler(handler)
    net_log.setLevel(logging.INFO)
    started: asyncio.Future = asyncio.get_running_loop().create_future()
    serve = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    flooder = None
    if flood is not None:
        flooder = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood", str(port), str(flood), stdout=subprocess.PIPE)
        await asyncio.sleep(0.5)  # the flood is under way before the first player comes
    t0, cpu0 = time.perf_counter(), time.process_time()
    peers = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--peers", str(port), game, str(players), str(seed))
    await serve
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    await peers.wait()
    sent = 0
    if flooder is not None:
        flooder.terminate()
        out, _ = await flooder.communicate()
        sent = int(out.decode().split()[-1]) if out.strip() else 0
    net_log.removeHandler(handler)
    return {"seconds": seconds, "cpu": cpu, "connections": runner._next,
            "logged": len(log_bytes.getvalue().encode()), "sent": sent}


async def peers(port: int, game: str, players: int, seed: int) -> None:
    entry = get_game(game)
    await asyncio.gather(*(
        run_peer(PeerSession(Identity.generate(), f"bot{i}"), "127.0.0.1", port,
                 entry.make_bot("greedy", random.Random(seed * 10 + i)))
        for i in range(players)))


def flood(port: int, patience: float) -> None:
    """Send tiny requests as fast as possible; connect again whenever the host closes, or when
    a send has waited ``patience`` seconds (the host stopped reading)."""
    frame = Codec().send(Request(1, "ready", ()))
    burst = frame * 4096
    sent = 0

    def stop(*_: object) -> None:
        print(sent, flush=True)
        os._exit(0)

    import signal

    signal.signal(signal.SIGTERM, stop)
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=patience or None) as s:
                if not patience:  # a storm of connections: a few frames each, then the next
                    s.sendall(frame * 16)
                    sent += len(frame) * 16
                    continue
                while True:
                    sent += s.send(burst)
        except OSError:
            continue


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--game", default="medici")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--patience", type=float, default=5.0,
                   help="seconds the stranger waits on a blocked send before it connects again "
                        "(small: a new connection whenever the host stops reading it; 0: a "
                        "storm of connections, 16 frames each)")
    p.add_argument("--flood", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--peers", nargs=4, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.flood:
        flood(int(a.flood[0]), float(a.flood[1]))
        return
    if a.peers:
        port, game, players, seed = a.peers
        asyncio.run(peers(int(port), game, int(players), int(seed)))
        return
    load = os.getloadavg()
    alone: list[float] = []
    flooded: list[float] = []
    logged = received = 0
    for r in range(a.rounds):
        for with_flood in ((False, True) if r % 2 == 0 else (True, False)):
            g = asyncio.run(host_game(a.game, a.players, a.seed, a.patience if with_flood else None))
            (flooded if with_flood else alone).append(g["seconds"])
            line = (f"round {r + 1}: {'flooded' if with_flood else 'alone  '} {g['seconds']:.2f} s"
                    f" (host CPU {g['cpu']:.2f} s, {g['connections']:.0f} connections")
            if with_flood:
                logged, received = logged + g["logged"], received + g["sent"]
                line += f"; the stranger sent {g['sent']:,.0f} bytes, the host logged {g['logged']:,.0f}"
            print(line + ")", flush=True)
    ma, mf = statistics.median(alone), statistics.median(flooded)
    print(f"{a.game}, {a.players} seats, {a.rounds} rounds, the stranger's patience "
          f"{a.patience:g} s; load average before "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"alone: median {ma:.2f} s; beside a flooding stranger: median {mf:.2f} s; "
          f"ratio {mf / ma:.2f}")
    if received:
        print(f"host log: {logged / received:.6f} bytes per byte the stranger sent "
              f"({logged:,} bytes for {received:,})")


if __name__ == "__main__":
    main()
