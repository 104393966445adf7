#!/usr/bin/env python3
"""The host's memory under a long fuzz: frames of every kind over many short connections, with
the host's resident set size (RSS) sampled as they go.

The host runs in a process of its own (so that its RSS is its alone) on 127.0.0.1, with a game
code. The fuzzer connects again and again; on each connection it reads the challenge and sends
a few frames drawn from a pool: hellos with a wrong code, a right one or none, garbage bytes,
random msgpack values, requests of unknown methods, floods of ``ready``, posts of random
entries, oversized frames; then it closes, or leaves the connection to the host's limits. The
report gives the RSS after a warm-up (the first tenth of the frames) and at the end, and their
difference: the growth that the run did not give back.

    .venv/bin/python scripts/fuzz_host_memory.py [--frames 1000000] [--samples 10]

``PALAZZO_LONG=1`` runs ``tests/net/test_host_memory.py`` with 10^6 frames; by default it runs
a short version.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgpack  # noqa: E402

from net.session.machines.conversation import hello_signature  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import FRAME_LIMIT, Codec, Notification, Request  # noqa: E402


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def serve() -> None:
    """The host process: print the port and the code, serve until stdin closes."""
    from engine.registry import get_game
    from net.session.features.code import new_code
    from net.session.machines.host_session import HostSession
    from net.session.runners.host import HostRunner

    async def main() -> None:
        entry = get_game("medici")
        code = new_code()
        host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}), code=code)
        runner = HostRunner(host)
        started: asyncio.Future = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(runner.run("127.0.0.1", 0, started))
        port = (await started)[0][1]
        print(port, code, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        task.cancel()

    asyncio.run(main())


def _values(rng: random.Random, depth: int = 0):  # type: ignore[no-untyped-def]
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, -2, 7, 2**31, -(2**63), 2**64 - 1])
    if kind == 3:
        return rng.randbytes(rng.choice([0, 4, 16, 32, 64, 300]))
    if kind == 4:
        return rng.choice(["", "x", "\x1b[2J", "ready", "medici", "é" * 40])
    if kind == 5:
        return rng.randbytes(rng.randrange(8))
    if kind in (6, 7):
        return [_values(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(["name", "key", "sig", "code", "have", "body", "kind", "seq"]):
            _values(rng, depth + 1) for _ in range(rng.randrange(5))}


def frame_pool(rng: random.Random, size: int = 400) -> list[bytes]:
    """Frames that need no challenge: garbage, random values, unknown and known methods."""
    c = Codec()
    pool = [b"\xc1\xc1", b"\x93\x00", msgpack.packb([0, 1, "hello", [b"x" * FRAME_LIMIT]]),
            c.send(Request(1, "ready", ())) * 64]
    methods = ["hello", "ready", "post", "shuffle", "entry", "bye"]
    while len(pool) < size:
        r = rng.randrange(4)
        if r == 0:
            pool.append(rng.randbytes(rng.randrange(1, 40)))
        elif r == 1:
            pool.append(msgpack.packb(_values(rng), use_bin_type=True))
        elif r == 2:
            params = tuple(_values(rng) for _ in range(rng.randrange(3)))
            pool.append(msgpack.packb([0, rng.randrange(2**32), rng.choice(methods),
                                       list(params)], use_bin_type=True))
        else:
            pool.append(c.send(Notification(rng.choice(methods), ({"x": 1},))))
    return pool


@dataclass
class Fuzz:
    port: int
    code: str
    rng: random.Random
    pool: list[bytes]
    ids: list[Identity] = field(default_factory=lambda: [Identity.generate() for _ in range(8)])
    sent: int = 0
    connections: int = 0

    def one_connection(self) -> None:
        self.connections += 1
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            challenge = None
            data = s.recv(65536)
            events = Codec().receive_data(data) if data else []
            if events and isinstance(events[0], Notification):
                challenge = events[0].params[0]
            frames = []
            if challenge is not None and self.rng.random() < 0.4:
                me = self.rng.choice(self.ids)
                code = self.rng.choice([self.code, self.code.lower(), "WOLF-OWL-OAK-0000", None])
                hello = {"name": "fuzz", "key": me.public_key, "code": code,
                         "sig": hello_signature(me, challenge["nonce"], challenge["host"]),
                         "have": self.rng.choice([0, 0, 1, -1])}
                frames.append(Codec().send(Request(1, "hello", (hello,))))
            frames += [self.rng.choice(self.pool) for _ in range(self.rng.randrange(1, 9))]
            for f in frames:
                try:
                    s.sendall(f)
                except OSError:
                    break
                self.sent += 1
            if self.rng.random() < 0.5:  # read what the host says at once, or just go
                s.settimeout(0.01)
                try:
                    while s.recv(65536):
                        pass
                except OSError:
                    pass


def run(frames: int, samples: int = 10, seed: int = 1, say=print) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Fuzz a fresh host with ``frames`` frames; the RSS samples (KiB) and the figures."""
    host = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        port, code = host.stdout.readline().split()
        rng = random.Random(seed)
        fuzz = Fuzz(int(port), code, rng, frame_pool(rng))
        start = rss_kib(host.pid)
        marks = [frames * (i + 1) // samples for i in range(samples)]
        rss = []
        t0 = time.perf_counter()
        for mark in marks:
            while fuzz.sent < mark:
                try:
                    fuzz.one_connection()
                except OSError:
                    pass
            rss.append(rss_kib(host.pid))
            say(f"{fuzz.sent:>9,} frames, {fuzz.connections:>7,} connections: host RSS "
                f"{rss[-1] / 1024:.1f} MiB")
        seconds = time.perf_counter() - t0
        alive = host.poll() is None
    finally:
        if host.stdin is not None:
            host.stdin.close()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
    result = {"start": start, "warm": rss[0], "end": rss[-1], "peak": max(rss),
              "growth": rss[-1] - rss[0], "frames": fuzz.sent, "connections": fuzz.connections,
              "alive": int(alive)}
    load = os.getloadavg()
    say(f"{fuzz.sent:,} frames over {fuzz.connections:,} connections in {seconds:.0f} s "
        f"(load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}); host RSS at the start "
        f"{start / 1024:.1f} MiB, after the warm-up {rss[0] / 1024:.1f} MiB, at the end "
        f"{rss[-1] / 1024:.1f} MiB (peak {max(rss) / 1024:.1f}): growth after the warm-up "
        f"{(rss[-1] - rss[0]) / 1024:.1f} MiB")
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=1_000_000)
    p.add_argument("--samples", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.serve:
        serve()
        return
    run(a.frames, a.samples, a.seed)


if __name__ == "__main__":
    main()
