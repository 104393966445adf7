#!/usr/bin/env python3
"""Time the fair deck: every peer of a table simulated in this one process (net.deck.memory_table).

Scenarios (each gated at 2 s: the set-ups on the whole table, a whole game on its busiest peer,
which is what one machine spends on it):

  condottiere   6 seats shuffle 110 cards in turn, then 10 cards are dealt to each seat
                (every share proved, every proof and point checked by every other peer)
  medici-setup  4 seats, four 25-card house decks, each shuffled by all four seats, 11 cards
                dealt from each deck to its owner
  whole game    the fair deck of a whole simulated game, every message checked by every peer
                as it arrives (nothing is left for the end: no seat reveals a secret); a
                4-round 6-seat Condottiere game and a 4-seat Medici game

Each scenario runs twice:

* in one process (``net.deck.memory_table``): "table CPU" is the processor time of the whole table,
  every peer one after another; "busiest peer" the most processor time spent in one peer's deck
  calls. Also counted: libsodium scalar multiplications (variable base, fixed base) and point
  checks.
* on loopback, one process per peer (the set-up scenarios): a hub relays every message to
  every peer through pipes, as a host would, and the peers work in parallel; "table CPU" adds up
  the peers' processor times.

Figures are medians over --runs runs; the gate applies to the wall time and the table CPU.

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

from net.deck import group  # noqa: E402
from net.deck.cipher import CardTable  # noqa: E402
from net.deck.fair_deck import FairDeck  # noqa: E402
from net.deck.memory_table import LocalTable  # noqa: E402

GATE = 2.0
COUNTED = {
    "crypto_scalarmult_ed25519_noclamp": "mul",
    "crypto_scalarmult_ed25519_base_noclamp": "base_mul",
    "crypto_core_ed25519_is_valid_point": "point checks",
}
CONDOTTIERE = CardTable("condottiere", 110)
MEDICI = CardTable("medici", 100)


class _Counting:
    """Stands in for ``nacl.bindings`` inside ``net.deck.group`` and counts the costly calls."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.counts: Counter[str] = Counter()

    def __getattr__(self, name: str) -> object:
        fn = getattr(self._inner, name)
        if name not in COUNTED:
            return fn
        label = COUNTED[name]

        def counted(*args: object) -> object:
            self.counts[label] += 1
            return fn(*args)

        return counted


COUNTER = _Counting(group._na)  # type: ignore[attr-defined]
group._na = COUNTER  # type: ignore[attr-defined]


def condottiere(rng: random.Random) -> LocalTable:
    t = LocalTable(6, game_id=b"bench-condottiere", rng=rng)
    t.new_deck("deck", CONDOTTIERE, range(110))
    t.shuffle("deck")
    t.deal_round("deck", 10)
    return t


def medici_setup(rng: random.Random) -> LocalTable:
    t = LocalTable(4, game_id=b"bench-medici", rng=rng)
    for house in range(4):
        deck = f"house {house}"
        t.new_deck(deck, MEDICI, range(25 * house, 25 * house + 25))
        t.shuffle(deck)
        t.deal(deck, house, 11)
    return t


def condottiere_game(rng: random.Random, rounds: int = 4) -> LocalTable:
    """Each round: 10 cards to each seat, every card played (opened) one at a time, the
    discards shuffled back in by every seat."""
    t = LocalTable(6, game_id=b"bench-condottiere-game", rng=rng)
    t.new_deck("deck", CONDOTTIERE, range(110))
    t.shuffle("deck")
    for r in range(rounds):
        dealt = t.deal_round("deck", 10)
        for i in range(10):
            for seat in range(6):
                t.open("deck", dealt[seat][i])
        if r < rounds - 1:
            deck = t.peers[0].decks["deck"]
            shown = [c for hs in dealt.values() for h in hs if (c := deck.card(h)) is not None]
            t.reshuffle("deck", shown)
    return t


def medici_game(rng: random.Random, turns: int = 40) -> LocalTable:
    """The set-up, the twelve face-up alliance cards shown, then ``turns`` turns: a card played
    (opened) or, every fifth turn, planned for the future (back to the bottom unopened), and a
    draw; then eight strikes reveal hidden alliance cards."""
    t = medici_setup(rng)
    hands = {s: list(range(11)) for s in range(4)}  # handles of each house deck held by its owner
    for seat in range(4):
        for _ in range(3):
            t.open(f"house {seat}", hands[seat].pop())
    hidden = {s: [hands[s].pop() for _ in range(3)] for s in range(4)}
    for turn in range(turns):
        seat, deck = turn % 4, f"house {turn % 4}"
        card = hands[seat].pop(0)
        if turn % 5 == 4:
            t.return_to_bottom(deck, card)
        else:
            t.open(deck, card)
        if t.peers[0].decks[deck].pile:
            hands[seat] += t.deal(deck, seat)
    for i in range(8):
        seat = i % 4
        t.open(f"house {seat}", hidden[seat].pop())
    return t


def measure(run: Callable[[random.Random], LocalTable], runs: int) -> dict[str, Any]:
    walls, cpus, busiest, counts = [], [], [], []
    for i in range(runs):
        rng = random.Random(i)
        COUNTER.counts.clear()
        w, c = time.perf_counter(), time.process_time()
        t = run(rng)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        busiest.append(max(t.cpu))
        counts.append(dict(COUNTER.counts))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "busiest": statistics.median(busiest), "counts": counts[0]}


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
            conn.send(decks[args[0]].make_shuffle())
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
        for seat, c in enumerate(self.conns):
            c.send(("shuffle", deck_id))
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

    def close(self) -> float:
        """Wait for every peer to be done; the table's processor time since the start."""
        cpu = sum(self.sync()) - sum(self.cpu0)
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
    walls, cpus = [], []
    for i in range(runs):
        net = Loopback(seats, random.Random(i))
        w = time.perf_counter()
        run(net)
        net.sync()
        walls.append(time.perf_counter() - w)
        cpus.append(net.close())
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = [
        ("condottiere: 6 seats shuffle 110, deal 10 each", measure(condottiere, args.runs), False),
        ("medici set-up: 4 decks x 4 shuffles, deal 11 each", measure(medici_setup, args.runs), False),
        ("whole game: Condottiere, 6 seats, 4 rounds", measure(condottiere_game, args.runs), True),
        ("whole game: Medici, 4 seats, 40 turns", measure(medici_game, args.runs), True),
    ]
    loop = [
        ("condottiere: 6 seats shuffle 110, deal 10 each", measure_loopback(loopback_condottiere, 6, args.runs)),
        ("medici set-up: 4 decks x 4 shuffles, deal 11 each", measure_loopback(loopback_medici_setup, 4, args.runs)),
    ]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median of {args.runs} runs; gate {GATE:.1f} s on table CPU and wall time (a whole "
          f"game: on its busiest peer); load average {load}")
    print("\none process, every peer in turn")
    print(f"{'scenario':52} {'wall s':>7} {'table CPU s':>11} {'busiest peer s':>14}  "
          "mul / base_mul / point checks")
    ok = True
    for name, r, per_peer in rows:
        passed = r["busiest"] < GATE if per_peer else r["wall"] < GATE and r["cpu"] < GATE
        ok &= passed
        c = r["counts"]
        print(f"{name:52} {r['wall']:7.3f} {r['cpu']:11.3f} {r['busiest']:14.3f}  "
              f"{c.get('mul', 0)} / {c.get('base_mul', 0)} / {c.get('point checks', 0)}"
              f"{'' if passed else '  OVER THE GATE'}")
    print("\nloopback, one process per peer")
    print(f"{'scenario':52} {'wall s':>7} {'table CPU s':>11}")
    for name, r in loop:
        passed = r["wall"] < GATE and r["cpu"] < GATE
        ok &= passed
        print(f"{name:52} {r['wall']:7.3f} {r['cpu']:11.3f}{'' if passed else '  OVER THE GATE'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
