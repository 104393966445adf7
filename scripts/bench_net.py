#!/usr/bin/env python3
"""The round trip of a move on loopback with 4 peers, as a ratio to a bare msgpack-rpc echo
measured in the same run.

A move's round trip runs from a peer handing its signed entry to the connection, through the
host's checks, its record and its relay, to the peer holding the entry back, checked and applied
to its own table (before it writes anything next). Every entry a seat writes is timed: its
moves, and its seed and deck entries (most entries of a game are deck entries: the shares of
each deal).

Every peer is a real TCP client of a real host on 127.0.0.1, as in a real game, but by
default each seat keeps its journal in memory and the host keeps no record, as the figure of
issue 14 was measured; ``--disk`` has each seat keep its journal on disk and the host its record
(``net.session.records.resume``), each entry fsync'd, in a temporary ``XDG_DATA_HOME`` removed at the
end (on a disk shared with other work, the fsyncs then weigh most). By default each peer runs
in its own process; ``--one-process`` puts the host and all peers in one event loop (then a
sample also carries the other peers' work, their bots' thinking included). Greedy bots play
whole Court of the Medici games.

With chat and presence on: when this program's ``PeerSession`` can talk (``say``, the table
talk), each seat says a line every ``CHAT_EVERY`` entries it writes (at most ``CHAT_MAX`` a
game, within the host's rate limit), which the host relays to every seat and the seat's next
entry carries; when it can tell the host it is away (``set_away``), each seat is away once a
game, from its fifth entry to its sixth. The host's presence notifications (on every change of the
seat due) are the host's own. What was on is printed with the figure.

The reference: a bare msgpack-rpc echo over asyncio TCP on 127.0.0.1 with the same codec
(``net.wire.rpc.Codec``) and no game: a client asks ``post`` with an entry's worth of bytes
(``ECHO_BODY``, the size of a typical act or deck entry, and a signature) and the server answers
with them. It runs as the game does (the server in this process, the client in a process of its
own; with ``--one-process``, both in this loop), a block of ``--echo`` round trips before every
game and one after the last, so that the load of the machine weighs on both alike.

    .venv/bin/python scripts/bench_net.py [--games 5] [--one-process] [--disk] [--json]
        [--against DIR]

Agreement before disclosure (``docs/protocol.md``, 8.1): a seat's entry that discloses (an open,
decryption shares, an end) waits until every other seat has acknowledged the head it is written
on; its round trip is timed from when it was ready, so the wait is in the sample. ``held`` is the
share of the timed entries that waited: each of those took one more round (the others' ``ack``
up to the host and relayed) before its own. ``--against DIR`` plays, after each game of this
checkout, one game of the checkout at ``DIR`` (its own ``scripts/bench_net.py``, say the code
before a change) with the same options, and prints the ratio of the two medians, measured in
the same run under the same load.

The last line printed is the figure: the ratio of the medians and the load average (``--json``:
one JSON object instead). Gate: 20 times the echo, goal 8. Beside it, with a process per peer,
the processor time the host and the peers spent per entry: on a machine shared with other work
the round trip waits mostly for a processor, and this shows the work itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import get_game  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.records.journal import Journal  # noqa: E402
from net.session.records.resume import keep_record  # noqa: E402
from net.session.runners.host import HostRunner  # noqa: E402
from net.session.runners.peer import run_peer  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Request, Response  # noqa: E402

GATE, GOAL = 20, 8
CHAT_EVERY = 6  # entries a seat writes between two lines it says
CHAT_MAX = 4  # lines a seat says in one game (the host allows 5 in 10 seconds)
AWAY_AT = (5, 6)  # a seat is away from its 5th entry to its 6th (within the status budget)
ECHO_BODY = 290  # bytes of the echoed body: a typical act or deck entry
SIG = 64

SAMPLES: list[float] = []
HELD = [0, 0]  # timed entries that waited for acknowledgements, and all timed entries
WRITTEN: list[int] = []  # the entries the seats wrote, per game (each is timed once)
CPU = {"host": 0.0, "peers": 0.0}  # processor seconds the host and the peers spent in the games
ECHOED = asyncio.Event()  # the echo server's connection has ended
TALK = {"chat": hasattr(PeerSession, "say"), "presence": hasattr(PeerSession, "set_away")}


class TimedPeer(PeerSession):
    """A seat that times its own entries' round trips, and talks when it can."""

    def _post(self, entry):  # type: ignore[no-untyped-def]
        bench = self.__dict__.setdefault("bench", {"sent": {}, "posted": 0, "said": 0})
        bench["sent"][entry.seq] = time.perf_counter()
        super()._post(entry)
        HELD[0] += getattr(self, "_gated", None) is entry
        HELD[1] += 1
        bench["posted"] += 1
        self._talk(bench)

    def _talk(self, bench: dict[str, Any]) -> None:
        n = bench["posted"]
        if TALK["chat"] and n % CHAT_EVERY == 0 and bench["said"] < CHAT_MAX:
            bench["said"] += 1
            self.say(f"{self.name}: entry {n}, all well here")
        if TALK["presence"] and n in AWAY_AT:
            self.set_away(n == AWAY_AT[0])

    def _stamp(self) -> None:
        """A sample when the table now holds the entry this seat posted last."""
        bench = self.__dict__.get("bench")
        if bench is None or self.table is None:
            return
        held = len(self.table.transcript)
        for seq in [s for s in bench["sent"] if s < held]:
            SAMPLES.append(time.perf_counter() - bench["sent"].pop(seq))

    def _maybe_write(self) -> None:  # after an entry is accepted, before the next is written
        self._stamp()
        super()._maybe_write()

    def _on_entry(self, m):  # type: ignore[no-untyped-def]
        super()._on_entry(m)
        self._stamp()  # the last entry of the game (nothing is written after it)

    def _on_confirm(self, m):  # type: ignore[no-untyped-def]
        super()._on_confirm(m)
        self._stamp()  # an entry relayed at once is held once it is confirmed


def make_peer(i: int, seed: int, memory: bool) -> TimedPeer:
    key = Identity.generate()
    journal = Journal() if memory else Journal.for_identity(key.public_key)
    return TimedPeer(key, f"p{seed}-{i}", journal=journal)


# -- the reference: a bare msgpack-rpc echo ----------------------------------------------------


async def _echo_serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    codec = Codec()
    try:
        while data := await reader.read(65536):
            for event in codec.iter_events(data):
                if isinstance(event, Request):
                    writer.write(codec.send(Response(event.msgid, None, event.params[0])))
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()
        ECHOED.set()


async def echo_client(port: int, n: int) -> list[float]:
    """``n`` round trips of an entry's worth of bytes to the echo server on ``port``."""
    payload = {"body": os.urandom(ECHO_BODY), "sig": os.urandom(SIG)}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    codec = Codec()
    out = []
    try:
        for _ in range(n):
            t = time.perf_counter()
            writer.write(codec.send(Request(codec.next_msgid(), "post", (payload,))))
            await writer.drain()
            got: list[Any] = []
            while not got:
                data = await reader.read(65536)
                if not data:
                    raise ConnectionError("the echo server closed the connection")
                got = codec.receive_data(data)
            assert isinstance(got[0], Response) and got[0].result == payload
            out.append(time.perf_counter() - t)
    finally:
        writer.close()
        await writer.wait_closed()
    return out


async def echo_block(n: int, processes: bool) -> list[float]:
    ECHOED.clear()
    server = await asyncio.start_server(_echo_serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        if processes:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--echo-client", str(port), str(n),
                stdout=subprocess.PIPE)
            out, _ = await proc.communicate()
            if proc.returncode:
                raise SystemExit(f"the echo client failed ({proc.returncode})")
            samples: list[float] = json.loads(out)
        else:
            samples = await echo_client(port, n)
        await ECHOED.wait()  # the server has seen the client go
    return samples


# -- the game ------------------------------------------------------------------------------------


async def one_game(seed: int, processes: bool, memory: bool, data: Path | None) -> None:
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(4, {}))
    if not memory:
        assert data is not None
        keep_record(host, {}, base=data / "hosting")
    runner = HostRunner(host)
    cpu = time.process_time()
    started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    serve = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    if processes:
        flags = [] if memory else ["--disk"]
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--peer", str(port), str(seed), str(i), *flags,
            stdout=subprocess.PIPE) for i in range(4)]
        outs = await asyncio.gather(*(p.communicate() for p in procs))
        for p, (out, _) in zip(procs, outs, strict=True):
            if p.returncode:
                raise SystemExit(f"a peer failed ({p.returncode})")
            got = json.loads(out)
            SAMPLES.extend(got["samples"])
            CPU["peers"] += got["cpu"]
            HELD[0] += got.get("held", [0, 0])[0]
            HELD[1] += got.get("held", [0, 0])[1]
    else:
        peers = [make_peer(i, seed, memory) for i in range(4)]
        bots = [entry.make_bot("greedy", random.Random(seed * 10 + i)) for i in range(4)]
        await asyncio.gather(*(run_peer(p, "127.0.0.1", port, b)
                               for p, b in zip(peers, bots, strict=True)))
        assert all(p.state == "over" for p in peers), [p.error for p in peers]
    await serve
    if processes:
        CPU["host"] += time.process_time() - cpu
    assert host.table.phase == "over"
    WRITTEN.append(sum(1 for e in host.table.transcript.entries if e.author >= 0))


def peer_process(port: int, seed: int, i: int, memory: bool) -> None:
    peer = make_peer(i, seed, memory)
    bot = get_game("medici").make_bot("greedy", random.Random(seed * 10 + i))
    cpu = time.process_time()
    asyncio.run(run_peer(peer, "127.0.0.1", port, bot))
    assert peer.state == "over", peer.error
    print(json.dumps({"samples": SAMPLES, "cpu": time.process_time() - cpu, "held": HELD}))


REFERENCE: list[dict[str, Any]] = []  # the figures of each game of ``--against``
MINE: list[float] = []  # this checkout's median per game, for the same comparison


async def reference_game(directory: Path, flags: list[str], echo_n: int) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(directory / "scripts" / "bench_net.py"), "--games", "1", "--json",
        "--echo", str(echo_n), *flags, stdout=subprocess.PIPE, cwd=str(directory))
    out, _ = await proc.communicate()
    if proc.returncode:
        raise SystemExit(f"the reference's game failed ({proc.returncode})")
    REFERENCE.append(json.loads(out.decode().strip().splitlines()[-1]))


async def run(games: int, processes: bool, memory: bool, echo_n: int,
              data: Path | None, against: Path | None = None,
              flags: list[str] | None = None) -> list[float]:
    echo: list[float] = []
    for g in range(games):
        echo += await echo_block(echo_n, processes)
        before = len(SAMPLES)
        await one_game(g, processes, memory, data)
        MINE.append(statistics.median(SAMPLES[before:]))
        if against is not None:
            await reference_game(against, flags or [], echo_n)
    echo += await echo_block(echo_n, processes)
    return echo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--echo", type=int, default=200, help="echo round trips per block")
    ap.add_argument("--one-process", action="store_true")
    ap.add_argument("--disk", action="store_true",
                    help="journals and the host's record on disk, fsync'd (default: in memory)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--peer", nargs=3, type=int, help=argparse.SUPPRESS)
    ap.add_argument("--echo-client", nargs=2, type=int, help=argparse.SUPPRESS)
    ap.add_argument("--against", type=Path, default=None, metavar="DIR",
                    help="after each game, play one of the checkout at DIR, and compare")
    args = ap.parse_args()
    memory = not args.disk
    if args.peer:
        port, seed, i = args.peer
        peer_process(port, seed, i, memory)
        return
    if args.echo_client:
        print(json.dumps(asyncio.run(echo_client(*args.echo_client))))
        return
    data = None if memory else Path(tempfile.mkdtemp(prefix="palazzo-bench-"))
    if data is not None:
        os.environ["XDG_DATA_HOME"] = str(data)  # the seats' journals (the peers inherit it)
    t0 = time.perf_counter()
    try:
        flags = [f for f, on in (("--one-process", args.one_process), ("--disk", args.disk)) if on]
        echo = asyncio.run(run(args.games, not args.one_process, memory, args.echo, data,
                               args.against, flags))
    finally:
        if data is not None:
            shutil.rmtree(data, ignore_errors=True)
    wall = time.perf_counter() - t0
    ms = sorted(x * 1000 for x in SAMPLES)
    echo_ms = sorted(x * 1000 for x in echo)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    move, ref = statistics.median(ms), statistics.median(echo_ms)
    load = os.getloadavg()
    figures = {
        "games": args.games, "moves": len(ms), "seat_entries": sum(WRITTEN), "one_process": args.one_process,
        "durable": args.disk, "chat": TALK["chat"], "presence": TALK["presence"],
        "move_median_ms": round(move, 4), "move_p99_ms": round(p99, 4),
        "move_max_ms": round(ms[-1], 4), "echo_median_ms": round(ref, 4),
        "echo_round_trips": len(echo_ms), "ratio": round(move / ref, 2),
        "gate": GATE, "goal": GOAL,
        "held": round(HELD[0] / max(1, HELD[1]), 3),
        # processor time per entry (a process per peer only): less hostage to the load
        "cpu_per_entry_ms": {k: round(v * 1000 / max(1, sum(WRITTEN)), 3) for k, v in CPU.items()}, "load": [round(x, 2) for x in load], "wall_s": round(wall, 1),
    }
    if REFERENCE:
        ref_move = statistics.median(r["move_median_ms"] for r in REFERENCE)
        figures["against"] = {
            "dir": str(args.against), "move_median_ms": ref_move,
            "echo_median_ms": statistics.median(r["echo_median_ms"] for r in REFERENCE),
            "held": statistics.median(r.get("held", 0) for r in REFERENCE),
            "per_game_ratio": round(statistics.median(MINE) * 1000 / ref_move, 2),
            "ratio_of_ratios": round((move / ref) / statistics.median(r["ratio"] for r in REFERENCE), 2)}
    if args.json:
        print(json.dumps(figures))
        return
    how = "one process" if args.one_process else "a process per peer"
    kept = "on disk" if args.disk else "in memory"
    on = ", ".join(f"{k} {'on' if v else 'off'}" for k, v in TALK.items())
    print(f"{args.games} games of Court of the Medici, 4 peers on 127.0.0.1 ({how}; journals "
          f"and the host's record {kept}; {on}), {len(ms)} moves timed")
    print(f"round trip of a move: median {move:.2f} ms, 99th percentile {p99:.2f} ms, "
          f"max {ms[-1]:.2f} ms")
    print(f"bare msgpack-rpc echo: median {ref:.3f} ms over {len(echo_ms)} round trips, "
          f"interleaved with the games; wall time {wall:.1f} s")
    if not args.one_process:
        c = figures["cpu_per_entry_ms"]
        print(f"processor time per entry: host {c['host']:.2f} ms, the 4 peers {c['peers']:.2f} ms")
    print(f"entries that waited for every other seat's acknowledgement: {figures['held']:.0%} "
          f"(each one more round: 1 + {figures['held']:.2f} rounds a move on average)")
    if REFERENCE:
        a = figures["against"]
        print(f"against {a['dir']} in the same run ({len(REFERENCE)} games, interleaved): its "
              f"move median {a['move_median_ms']:.2f} ms; this one's / its: per game "
              f"{a['per_game_ratio']:.2f}, move/echo ratios {a['ratio_of_ratios']:.2f}")
    print(f"move / echo: {move / ref:.1f} times (gate {GATE}, goal {GOAL}); "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
