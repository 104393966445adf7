#!/usr/bin/env python3
"""The host's processor time per relayed entry: its check, and the relay itself.

A game of greedy bots is played once on the in-memory link (``net.session.runners.link``).
Its record is then given, entry by entry, to a fresh observer table, as the host's own table
checks each entry a seat posts before relaying it (every proof checked: the process-wide memo
of checked shuffles is off), and each entry is encoded and framed for every seat as the host
relays it (``entry`` notifications). Each step is timed in processor time, and put in units of
one PyNaCl edwards25519 variable-base multiplication measured in the same run (before and
after), so that the figure does not depend on the machine's speed or load.

    .venv/bin/python scripts/bench_relay.py [--game condottiere] [--players 6] [--runs 3]

Since protocol version 3 the host relays a post once its cheap checks pass (``frame``:
sequence, chain, signature, turn, fields: ``Table.check_frame``) and checks it in full beside the
relay (``net.session.machines.relay``), then sends a short ``confirm``. So two figures per entry:
the host's processor time before the entry goes out (version 2: check + relay; version 3:
frame + relay) and in all (version 3 adds the frame check and the confirm to version 2's).

Printed: per kind of entry (a shuffle, shares, a move, the rest) its count and the host's
median frame, check and relay in ms and units; then the means over the whole game, and the load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nacl.bindings as nb  # noqa: E402

from engine.registry import get_game  # noqa: E402
from net.deck import checks  # noqa: E402
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.machines.table import Table  # noqa: E402
from net.session.runners.link import MemoryLink  # noqa: E402
from net.wire.identity import Identity  # noqa: E402
from net.wire.rpc import Codec, Notification  # noqa: E402
from net.wire.transcript import Entry  # noqa: E402


def unit() -> float:
    """Seconds of one PyNaCl edwards25519 variable-base multiplication (processor time)."""
    s = nb.crypto_core_ed25519_scalar_reduce(os.urandom(64))
    p = nb.crypto_scalarmult_ed25519_base_noclamp(s)
    t = time.process_time()
    for _ in range(300):
        nb.crypto_scalarmult_ed25519_noclamp(s, p)
    return (time.process_time() - t) / 300


def play(game: str, players: int, seed: int) -> list[Entry]:
    entry = get_game(game)
    host = HostSession(Identity.generate(), game, entry.rules.make_config(players, {}))
    link = MemoryLink(host)
    for i in range(players):
        link.add(PeerSession(Identity.generate(), f"bot{i}"),
                 entry.make_bot("greedy", random.Random(seed * 10 + i)))
    link.pump()
    if not host.finished:
        raise SystemExit(f"{game} for {players}: the game did not finish")
    return list(host.table.transcript.entries)


def kind(e: Entry) -> str:
    if e.kind == "deck":
        types = {m.get("type") for m in e.fields["msgs"]}
        return "shuffle" if "deck/shuffle" in types else "key" if "deck/key" in types else "shares"
    return "move" if e.kind == "act" else "other"


def measure(entries: list[Entry], players: int) -> dict[str, list[tuple[float, float, float]]]:
    """Per kind, each entry's (frame, check, relay) processor seconds: its cheap checks, its
    full check (which does them again), and its relay (pending, then its ``confirm``)."""
    table = Table(entries[0].fields["host"])
    out: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    codecs = [Codec() for _ in range(players)]
    ack = bytes(64)  # the host's signature of the head: made in both versions, not timed
    for e in entries:
        t = time.process_time()
        if e.seq:
            table.check_frame(e)
        frame = time.process_time() - t
        t = time.process_time()
        table.accept(e)
        check = time.process_time() - t
        t = time.process_time()
        wire = e.to_wire()
        for c in codecs:
            c.send(Notification("entry", (wire,)))
            c.send(Notification("confirm", ({"n": e.seq + 1, "ack": ack},)))
        relay = time.process_time() - t
        out[kind(e)].append((frame, check, relay))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="medici")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3, help="times the record is checked again")
    args = ap.parse_args()
    checks.share_answers(False)  # every table checks every proof itself
    entries = play(args.game, args.players, 1)
    u0 = unit()
    runs = [measure(entries, args.players) for _ in range(args.runs)]
    u = (u0 + unit()) / 2
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.game} for {args.players}: {len(entries)} entries; a unit (one PyNaCl "
          f"multiplication) {u * 1e6:.1f} us; load average {load}")
    print(f"{'entry':<9}{'count':>6}{'frame ms':>10}{'units':>8}{'check ms':>10}{'units':>8}"
          f"{'relay ms':>10}{'units':>8}")
    kinds = sorted(runs[0], key=lambda k: -len(runs[0][k]))
    for k in kinds:
        frame, check, relay = (statistics.median(x[i] for r in runs for x in r[k])
                               for i in range(3))
        print(f"{k:<9}{len(runs[0][k]):>6}{frame * 1e3:>10.3f}{frame / u:>8.2f}"
              f"{check * 1e3:>10.2f}{check / u:>8.1f}{relay * 1e3:>10.3f}{relay / u:>8.2f}")
    per_run = [[sum(x[i] for v in r.values() for x in v) / len(entries) for i in range(3)]
               for r in runs]
    frame, check, relay = (statistics.median(r[i] for r in per_run) for i in range(3))
    v2, v3 = check + relay, frame + relay
    print(f"the host's processor time per relayed entry, mean over the game (median of "
          f"{args.runs}): frame {frame * 1e3:.3f} ms ({frame / u:.2f} units), check "
          f"{check * 1e3:.2f} ms ({check / u:.1f} units), relay {relay * 1e3:.3f} ms "
          f"({relay / u:.2f} units)")
    print(f"before the entry goes out: version 2 (check, relay) {v2 * 1e3:.2f} ms "
          f"({v2 / u:.1f} units); version 3 (frame, relay) {v3 * 1e3:.3f} ms ({v3 / u:.2f} "
          f"units); version 3 / version 2 = {v3 / v2:.3f}")
    print(f"in all: version 3 (frame, check beside, relay and confirm) / version 2 = "
          f"{(v3 + check) / v2:.3f}")


if __name__ == "__main__":
    main()
