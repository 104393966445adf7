#!/usr/bin/env python3
"""Time the fair deck with every shuffle proved and every proof checked by every peer.

Scenarios:

  condottiere   6 seats shuffle 110 cards in turn, each shuffle with its Terelius-Wikstrom
                proof, checked by each of the five other peers before it takes the pile; then
                10 cards are dealt to each seat (every share proved, every proof checked by
                every other peer). Gate 2 s wall, goal 0.5 s.
  medici-setup  4 seats, four 25-card house decks, each shuffled (and proved) by all four seats,
                11 cards dealt from each deck to its owner. Gate 1 s wall.
  proof         one shuffle of 110 cards: make its proof, check it.

Each table scenario runs twice:

* in one process (``net.deck.memory_table``): "table CPU" is the processor time of the whole
  table, every peer one after another (nothing shared: the process-wide memo of checked shuffles
  is off), "busiest peer" the most processor time spent in one peer's deck calls. Also counted:
  libsodium's variable-base multiplications, fixed-base multiplications, point additions (and
  subtractions) and separate point checks, for the whole table and for the busiest peer.
* on loopback, one process per peer: a hub relays every message to every peer through pipes, as
  a host would, and the peers work in parallel; "table CPU" adds up the peers' processor times,
  "busiest peer" is the largest of them.

Figures are medians over --runs runs, with the load average before and after (the machine is
shared: read the figures against it).

    .venv/bin/python scripts/bench_deck.py [--runs 5]
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net.deck import fair_deck, group  # noqa: E402
from net.deck import shuffle_proof as sp  # noqa: E402
from net.deck.cipher import CardTable, apply_draw, fresh_draw, public_mask  # noqa: E402
from net.deck.fair_deck import FairDeck  # noqa: E402
from net.deck.memory_table import LocalTable  # noqa: E402

GATES = {"condottiere": 2.0, "medici": 1.0}
GOAL = {"condottiere": 0.5}
COUNTED = {
    "crypto_scalarmult_ed25519_noclamp": "mul",
    "crypto_scalarmult_ed25519_base_noclamp": "base",
    "crypto_core_ed25519_add": "add",
    "crypto_core_ed25519_sub": "add",
    "crypto_core_ed25519_is_valid_point": "check",
}
CONDOTTIERE = CardTable("condottiere", 110)
MEDICI = CardTable("medici", 100)
fair_deck.SHUFFLES_CHECKED.size = 0  # every peer checks every proof itself


class _Counting:
    """Stands in for ``nacl.bindings`` inside ``net.deck.group`` and counts the costly calls,
    in total and for the peer whose deck call is running (``seat``)."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.counts: Counter[str] = Counter()
        self.by_seat: dict[int, Counter[str]] = {}
        self.seat: int | None = None

    def clear(self) -> None:
        self.counts.clear()
        self.by_seat = {}

    def __getattr__(self, name: str) -> object:
        fn = getattr(self._inner, name)
        if name not in COUNTED:
            return fn
        label = COUNTED[name]

        def counted(*args: object) -> object:
            self.counts[label] += 1
            if self.seat is not None:
                self.by_seat.setdefault(self.seat, Counter())[label] += 1
            return fn(*args)

        return counted


COUNTER = _Counting(group._na)  # type: ignore[attr-defined]
group._na = COUNTER  # type: ignore[attr-defined]


class CountingTable(LocalTable):
    """A ``LocalTable`` that tells the counter whose deck call is running."""

    def _timed(self, seat: int, call: Callable[..., Any], *args: object) -> Any:
        COUNTER.seat = seat
        try:
            return super()._timed(seat, call, *args)
        finally:
            COUNTER.seat = None


def condottiere(rng: random.Random) -> LocalTable:
    t = CountingTable(6, game_id=b"bench-condottiere", rng=rng)
    t.new_deck("deck", CONDOTTIERE, range(110))
    t.shuffle("deck")
    t.deal_round("deck", 10)
    return t


def medici_setup(rng: random.Random) -> LocalTable:
    t = CountingTable(4, game_id=b"bench-medici", rng=rng)
    for house in range(4):
        deck = f"house {house}"
        t.new_deck(deck, MEDICI, range(25 * house, 25 * house + 25))
        t.shuffle(deck)
        t.deal(deck, house, 11)
    return t


def _ops(c: Counter[str] | dict[str, int]) -> str:
    return " / ".join(str(c.get(k, 0)) for k in ("mul", "base", "add", "check"))


def measure(run: Callable[[random.Random], LocalTable], runs: int) -> dict[str, Any]:
    walls, cpus, busiest, counts, peak = [], [], [], [], []
    for i in range(runs):
        rng = random.Random(i)
        COUNTER.clear()
        w, c = time.perf_counter(), time.process_time()
        t = run(rng)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        busiest.append(max(t.cpu))
        counts.append(dict(COUNTER.counts))
        top = max(range(len(t.cpu)), key=lambda s: t.cpu[s])
        peak.append(dict(COUNTER.by_seat.get(top, {})))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "busiest": statistics.median(busiest), "counts": counts[0], "peak": peak[0]}


def measure_proof(n: int, runs: int) -> dict[str, Any]:
    """One shuffle of ``n`` cards that were shuffled once already: make its proof, check it."""
    key = group.base_mul(group.random_scalar())
    pile = [public_mask(CONDOTTIERE.point(c), key) for c in range(n)]
    pile = apply_draw(pile, fresh_draw(n), key)
    sp.generators(n)
    make, check, counts = [], [], []
    for _ in range(runs):
        draw = fresh_draw(n)
        out = apply_draw(pile, draw, key)
        COUNTER.clear()
        c = time.process_time()
        proof = sp.prove(key, pile, out, draw.order, draw.scalars, b"bench")
        make.append(time.process_time() - c)
        made = dict(COUNTER.counts)
        COUNTER.clear()
        c = time.process_time()
        sp.verify(key, pile, out, proof, b"bench")
        check.append(time.process_time() - c)
        counts.append((made, dict(COUNTER.counts)))
    return {"make": statistics.median(make), "check": statistics.median(check),
            "counts": counts[0], "bytes": len(proof)}


def measure_primitives(runs: int = 2000) -> dict[str, float]:
    """Each libsodium call's time in microseconds (the median of five batches' means), for the
    ratios."""
    p = group.hash_to_point(b"bench", b"p")
    q = group.hash_to_point(b"bench", b"q")
    k = group.scalar_bytes(group.random_scalar())
    na = COUNTER._inner
    calls = {
        "mul": lambda: na.crypto_scalarmult_ed25519_noclamp(k, p),  # type: ignore[attr-defined]
        "base": lambda: na.crypto_scalarmult_ed25519_base_noclamp(k),  # type: ignore[attr-defined]
        "add": lambda: na.crypto_core_ed25519_add(p, q),  # type: ignore[attr-defined]
        "check": lambda: na.crypto_core_ed25519_is_valid_point(p),  # type: ignore[attr-defined]
    }
    out = {}
    for name, call in calls.items():
        times = []
        for _ in range(5):
            c = time.perf_counter()
            for _ in range(runs // 5):
                call()
            times.append((time.perf_counter() - c) / (runs // 5) * 1e6)
        out[name] = statistics.median(times)
    return out


# -- one process per peer --------------------------------------------------------------------


def _peer_process(conn: Any, table: LocalTable, seat: int) -> None:
    """A peer: its decks, fed commands and messages through a pipe, in order."""
    peer = table.peers[seat]
    tables = {"condottiere": CONDOTTIERE, "medici": MEDICI}
    decks: dict[str, FairDeck] = {}
    start = time.process_time()
    while True:
        cmd, *args = conn.recv()
        if cmd == "new":
            deck_id, domain, cards = args
            decks[deck_id] = FairDeck(table.keys, deck_id, tables[domain], cards, seat, peer.secret)
        elif cmd == "shuffle":
            deck_id, context = args
            conn.send(decks[deck_id].make_shuffle(context))
        elif cmd == "receive":
            author, msg, context = args
            decks[msg["deck"]].receive(author, msg, context)
        elif cmd == "deal":  # deal_to: {seat: count}; answer my shares for the others' cards
            deck_id, deal_to, context = args
            mine = []
            for to, count in deal_to.items():
                handles = [decks[deck_id].deal(to) for _ in range(count)]
                if to != seat:
                    mine += handles
            conn.send(decks[deck_id].make_shares(mine, context) if mine else None)
        elif cmd == "sync":
            conn.send(time.process_time() - start)
        elif cmd == "stop":
            return


class Loopback:
    """A hub and one process per peer; messages relayed to every peer in one order."""

    def __init__(self, seats: int, rng: random.Random) -> None:
        table = LocalTable(seats, game_id=b"bench-loopback", rng=rng)  # keys and secrets
        ctx = multiprocessing.get_context("fork")
        self.conns = []
        self.procs = []
        for seat in range(seats):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_peer_process, args=(theirs, table, seat), daemon=True)
            proc.start()
            self.conns.append(ours)
            self.procs.append(proc)
        self.context = hashlib.sha256(b"bench").digest()
        self.cpu0 = self.sync()

    def sync(self) -> list[float]:
        for c in self.conns:
            c.send(("sync",))
        return [c.recv() for c in self.conns]

    def broadcast(self, author: int, msg: dict[str, Any], context: bytes | None = None) -> None:
        for c in self.conns:
            c.send(("receive", author, msg, self.context if context is None else context))
        self.context = hashlib.sha256(self.context + repr((author, msg)).encode()).digest()

    def new_deck(self, deck_id: str, domain: str, cards: list[int]) -> None:
        for c in self.conns:
            c.send(("new", deck_id, domain, cards))

    def shuffle(self, deck_id: str) -> None:
        """Each seat in turn shuffles what it holds once it has checked the shuffle before."""
        for seat, c in enumerate(self.conns):
            c.send(("shuffle", deck_id, self.context))
            self.broadcast(seat, c.recv())

    def deal(self, deck_id: str, deal_to: dict[int, int]) -> None:
        """Every seat makes its shares at once, all bound to the context of the deal."""
        context = self.context
        for c in self.conns:
            c.send(("deal", deck_id, deal_to, context))
        for seat, c in enumerate(self.conns):
            msg = c.recv()
            if msg is not None:
                self.broadcast(seat, msg, context)

    def close(self) -> list[float]:
        """Wait for every peer to be done; each peer's processor time since the start."""
        cpu = [b - a for a, b in zip(self.cpu0, self.sync(), strict=True)]
        for c in self.conns:
            c.send(("stop",))
        for p in self.procs:
            p.join()
        return cpu


def loopback_condottiere(net: Loopback) -> None:
    net.new_deck("deck", "condottiere", list(range(110)))
    net.shuffle("deck")
    net.deal("deck", {s: 10 for s in range(6)})


def loopback_medici_setup(net: Loopback) -> None:
    for house in range(4):
        net.new_deck(f"house {house}", "medici", list(range(25 * house, 25 * house + 25)))
        net.shuffle(f"house {house}")
        net.deal(f"house {house}", {house: 11})


def measure_loopback(run: Callable[[Loopback], None], seats: int, runs: int) -> dict[str, Any]:
    walls, cpus, busiest = [], [], []
    for i in range(runs):
        net = Loopback(seats, random.Random(i))
        w = time.perf_counter()
        run(net)
        net.sync()
        walls.append(time.perf_counter() - w)
        cpu = net.close()
        cpus.append(sum(cpu))
        busiest.append(max(cpu))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "busiest": statistics.median(busiest)}


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sp.generators(110)
    load_before = _load()
    prims = measure_primitives()
    proof = measure_proof(110, args.runs)
    rows = [
        ("condottiere", "6 seats shuffle 110 (proved, checked by all), deal 10 each",
         measure(condottiere, args.runs)),
        ("medici", "medici set-up: 4 decks x 4 proved shuffles, deal 11 each",
         measure(medici_setup, args.runs)),
    ]
    loop = [
        ("condottiere", "6 seats shuffle 110 (proved, checked by all), deal 10 each",
         measure_loopback(loopback_condottiere, 6, args.runs)),
        ("medici", "medici set-up: 4 decks x 4 proved shuffles, deal 11 each",
         measure_loopback(loopback_medici_setup, 4, args.runs)),
    ]
    print(f"median of {args.runs} runs; load average before {load_before}, after {_load()} "
          f"({os.cpu_count()} CPUs)")
    print("\nlibsodium calls, microseconds each: " + ", ".join(
        f"{k} {v:.1f}" for k, v in prims.items())
        + f"  (mul = {prims['mul'] / prims['base']:.1f} base = {prims['mul'] / prims['add']:.1f} add)")
    made, checked = proof["counts"]
    print(f"\none shuffle proof, 110 cards ({proof['bytes']} bytes): make {proof['make'] * 1e3:.1f} ms "
          f"CPU, check {proof['check'] * 1e3:.1f} ms CPU")
    print(f"  group operations mul / base / add / check: make {_ops(made)}, check {_ops(checked)}")
    print("\none process, every peer in turn (ops: mul / base / add / check)")
    print(f"{'scenario':60} {'wall s':>7} {'table CPU s':>11} {'busiest s':>9}  ops (table; busiest peer)")
    ok = True
    for _key, name, r in rows:
        print(f"{name:60} {r['wall']:7.3f} {r['cpu']:11.3f} {r['busiest']:9.3f}  "
              f"{_ops(r['counts'])}; {_ops(r['peak'])}")
    print("\nloopback, one process per peer")
    print(f"{'scenario':60} {'wall s':>7} {'table CPU s':>11} {'busiest s':>9}  gate")
    for key, name, r in loop:
        passed = r["wall"] < GATES[key]
        ok &= passed
        goal = f", goal {GOAL[key]:.1f} s {'met' if r['wall'] < GOAL[key] else 'missed'}" if key in GOAL else ""
        print(f"{name:60} {r['wall']:7.3f} {r['cpu']:11.3f} {r['busiest']:9.3f}  "
              f"{GATES[key]:.1f} s {'met' if passed else 'MISSED'}{goal}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
