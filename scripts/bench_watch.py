#!/usr/bin/env python3
"""What a watcher costs the host (``net.session.features.watch``): the bytes and the host's processor
time to let one in at the end of a game, when the whole record goes to it at once, as a ratio
to the host's processor time for one entry during the game (checking it on its observer table
and sending it to every seat and the watcher). What following the game costs the watcher itself
is an observer's table checking every entry: ``palazzo verify``'s time in
``scripts/bench_fair_game.py``.

Each run plays one game of greedy bots with a relay-only host on the in-memory link, with one
watcher following it from the lobby (``WatchSession``); then lets in ``--admissions`` watchers
one after another, each from an address of its own (as many addresses as the admission limit
needs), and takes the median.

    .venv/bin/python scripts/bench_watch.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get_game  # noqa: E402
from net.session.machines.conversation import Send, hello_signature  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.machines.watch_session import WatchSession  # noqa: E402
from net.session.runners.link import MemoryLink  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Request  # noqa: E402

SCENARIOS = [("medici", 4, {}), ("condottiere", 6, {})]


class Timed(HostSession):
    """A host that adds up its own processor time in ``receive_data``."""

    cpu = 0.0

    def receive_data(self, conn, data):  # type: ignore[no-untyped-def]
        c = time.process_time()
        try:
            return super().receive_data(conn, data)
        finally:
            self.cpu += time.process_time() - c


def play(game: str, players: int, options: dict, seed: int):  # type: ignore[no-untyped-def]
    entry = get_game(game)
    host = Timed(Identity.generate(), game, entry.rules.make_config(players, options))
    link = MemoryLink(host)
    watcher = WatchSession(Identity.generate(), "watcher")
    link.add(watcher)
    peers = [PeerSession(Identity.generate(), f"bot{i}") for i in range(players)]
    for i, p in enumerate(peers):
        link.add(p, entry.make_bot("greedy", random.Random(seed * 10 + i)))
    link.pump()
    if not host.finished or watcher.state != "over":
        raise SystemExit(f"{game} {players}: the game did not finish")
    return host, peers, watcher


def admit(host: HostSession, conn: int, address: str) -> tuple[float, int]:
    """The host's processor time and the bytes it sends to let one watcher in."""
    out = host.connect(conn, address)
    challenge = Codec().receive_data(out[0].data)[0].params[0]  # type: ignore[union-attr]
    me = Identity.generate()
    hello = Codec().send(Request(1, "hello", ({
        "name": "w", "key": me.public_key, "nonce": os.urandom(32), "watch": True,
        "sig": hello_signature(me, challenge["nonce"], challenge["host"])},)))
    c = time.process_time()
    out = host.receive_data(conn, hello)
    cpu = time.process_time() - c
    host.disconnect(conn)
    return cpu, sum(len(o.data) for o in out if isinstance(o, Send))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--admissions", type=int, default=20)
    args = ap.parse_args()
    from net.deck import checks as deck_checks
    deck_checks.share_answers(False)  # every table checks every proof itself
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median of {args.runs} games per line; load average {load}")
    print(f"{'game':<24}{'entries':>8}{'record KB':>10}{'admit ms':>10}{'entry ms':>10}"
          f"{'admit/entry':>12}")
    for game, players, options in SCENARIOS:
        rows = []
        for run in range(args.runs):
            host, _, _ = play(game, players, options, run + 1)
            entries = len(host.table.transcript)
            relay = host.cpu / entries  # the host's time per entry: check it, send it to all
            admits = [admit(host, 1000 + i, f"10.{i}.0.1") for i in range(args.admissions)]
            cpu = statistics.median(a for a, _ in admits)
            sent = statistics.median(b for _, b in admits)
            rows.append((entries, sent / 1024, cpu * 1000, relay * 1000, cpu / relay))
        med = [statistics.median(col) for col in zip(*rows, strict=True)]
        name = f"{game}, {players} seats"
        print(f"{name:<24}{med[0]:>8.0f}{med[1]:>10.0f}{med[2]:>10.1f}{med[3]:>10.2f}"
              f"{med[4]:>12.1f}")


if __name__ == "__main__":
    main()
