#!/usr/bin/env python3
"""Time the fair deck with every shuffle proved and every proof checked by every peer.

Scenarios:

  condottiere   6 seats shuffle 110 cards in turn, each shuffle with its Terelius-Wikstrom
                proof, checked by each of the five other peers; then 10 cards are dealt to each
                seat (every share proved, a message for each seat the cards go to, every proof
                checked by every other peer). Also run on edwards25519 (version 1's group: the
                deal's CPU before ristretto255), and with the proofs checked in a worker thread
                beside the game (``defer``: a seat checks at once only the shares of its own
                cards, the others' beside, after the deal). Loopback gate 2 s wall; checked
                beside the game, gate 1 s.
  medici-setup  4 seats, four 25-card house decks, each shuffled (and proved) by all four seats,
                11 cards dealt from each deck to its owner. Gate 1 s wall.
  proof         one shuffle of 110 cards: make its proof, check it; the six proofs of a new
                deck's chain checked one by one and together.
  steps         one peer's CPU for each step of the 6-seat deal, in both groups, and from them
                the deal's critical path with one machine (two cores) per seat: in sequence
                (each seat checks the pile before it shuffles on) and checked beside the game
                (each seat shuffles at once, its second core checks). Goal 0.5 s beside.

Each table scenario runs in one process (``net.deck.memory_table``): "table CPU" is the
processor time of the whole table, every peer one after another (nothing shared: the
process-wide memo of checked shuffles is off), "busiest peer" the most processor time spent in
one peer's deck calls; group operations are counted (variable-base multiplications, fixed-base
ones, additions and subtractions, point checks). On loopback, one process per peer: a hub relays
every message to every peer through pipes, as a host would, and the peers work in parallel.

libsodium's calls are given in units of one PyNaCl edwards25519 variable-base multiplication
measured in the same run (the unit of the verify figure in ``docs/security.md``).
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

from net.deck import checks as deck_checks  # noqa: E402
from net.deck import group  # noqa: E402
from net.deck import shuffle_proof as sp  # noqa: E402
from net.deck.checks import deck_checks_beside  # noqa: E402
from net.deck.cipher import CardTable, apply_draw, fresh_draw, public_mask  # noqa: E402
from net.deck.edwards import EDWARDS25519  # noqa: E402
from net.deck.fair_deck import FairDeck  # noqa: E402
from net.deck.memory_table import LocalTable  # noqa: E402

GATES = {"condottiere": 2.0, "beside": 1.0, "medici": 1.0}
GOAL = {"condottiere": 0.5}
#: the unit's time on this machine when it is quiet (docs/security.md): the modelled path is
#: measured in units, so that a busy machine's slower calls do not count against it
QUIET_UNIT_US = 75.5
COUNTED = {"mul": "mul", "mul_checked": "mul", "base_mul": "base", "add": "add", "sub": "add",
           "decode_point": "check", "is_valid_point": "check"}
CONDOTTIERE = CardTable("condottiere", 110)
MEDICI = CardTable("medici", 100)
TABLES = {"ristretto255": {"condottiere": CONDOTTIERE, "medici": MEDICI},
          "edwards25519": {"condottiere": CardTable("condottiere", 110, group=EDWARDS25519)}}
deck_checks.share_answers(False)  # every peer checks every proof itself


class _Counting:
    """Counts the costly group operations of a ``Group`` (its methods, wrapped on the object),
    in total and for the peer whose deck call is running (``seat``)."""

    def __init__(self, groups: list[group.Group]) -> None:
        self.counts: Counter[str] = Counter()
        self.by_seat: dict[int, Counter[str]] = {}
        self.seat: int | None = None
        self.groups = groups
        for grp in groups:
            for name, label in COUNTED.items():
                setattr(grp, name, self._wrap(getattr(grp, name), label))

    def remove(self) -> None:
        """Unwrap the groups' methods: a loopback peer times the deck as a game runs it."""
        for grp in self.groups:
            for name in COUNTED:
                vars(grp).pop(name, None)

    def _wrap(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            self.counts[label] += 1
            if self.seat is not None:
                self.by_seat.setdefault(self.seat, Counter())[label] += 1
            return fn(*args)

        return counted

    def clear(self) -> None:
        self.counts.clear()
        self.by_seat = {}


COUNTER = _Counting([group.RISTRETTO255, EDWARDS25519])


class CountingTable(LocalTable):
    """A ``LocalTable`` that tells the counter whose deck call is running."""

    def _timed(self, seat: int, call: Callable[..., Any], *args: object) -> Any:
        COUNTER.seat = seat
        try:
            return super()._timed(seat, call, *args)
        finally:
            COUNTER.seat = None


def condottiere(rng: random.Random, grp: group.Group = group.RISTRETTO255,
                defer: bool = False) -> LocalTable:
    t = CountingTable(6, game_id=b"bench-condottiere", rng=rng, group=grp, defer=defer)
    t.new_deck("deck", TABLES[grp.name]["condottiere"], range(110))
    t.shuffle("deck")
    t.deal_round("deck", 10)
    return t


def condottiere_old_group(rng: random.Random) -> LocalTable:
    return condottiere(rng, EDWARDS25519)


def condottiere_beside(rng: random.Random) -> LocalTable:
    return condottiere(rng, defer=True)


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
    make, check, counts, plain, plain_counts = [], [], [], [], []
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
        sp.BATCHED = False  # the same check, equation by equation
        COUNTER.clear()
        c = time.process_time()
        sp.verify(key, pile, out, proof, b"bench")
        plain.append(time.process_time() - c)
        plain_counts.append(dict(COUNTER.counts))
        sp.BATCHED = True
    return {"make": statistics.median(make), "check": statistics.median(check),
            "plain": statistics.median(plain), "plain counts": plain_counts[0],
            "counts": counts[0], "bytes": len(proof)}


def measure_chain(n: int, shuffles: int, runs: int) -> dict[str, Any]:
    """The proofs of a new deck's chain of ``shuffles`` shuffles of ``n`` cards (a deal's):
    checked one by one, and together (``shuffle_proof.verify_all``)."""
    key = group.base_mul(group.random_scalar())
    pile = [public_mask(CONDOTTIERE.point(c), key) for c in range(n)]
    statements = []
    for k in range(shuffles):
        draw = fresh_draw(n)
        out = apply_draw(pile, draw, key)
        context = b"bench %d" % k
        statements.append((key, pile, out, sp.prove(key, pile, out, draw.order, draw.scalars,
                                                    context), context))
        pile = out
    alone, together, counts = [], [], []
    for _ in range(runs):
        COUNTER.clear()
        c = time.process_time()
        for s in statements:
            sp.verify(*s)
        alone.append(time.process_time() - c)
        one = dict(COUNTER.counts)
        COUNTER.clear()
        c = time.process_time()
        assert sp.verify_all(statements)
        together.append(time.process_time() - c)
        counts.append((one, dict(COUNTER.counts)))
    return {"alone": statistics.median(alone), "together": statistics.median(together),
            "counts": counts[0]}


def measure_primitives(runs: int = 2000) -> dict[str, float]:
    """Each libsodium call's time in microseconds (the median of five batches' means), for the
    ratios: ristretto255 through rbcl, and edwards25519 through PyNaCl (version 1's group, and
    the unit of the verify figure: its variable-base multiplication)."""
    import rbcl
    from nacl import bindings as na

    k = group.scalar_bytes(group.random_scalar())
    p, q = group.hash_to_point(b"bench", b"p"), group.hash_to_point(b"bench", b"q")
    ep, eq = EDWARDS25519.hash_to_point(b"bench", b"p"), EDWARDS25519.hash_to_point(b"bench", b"q")
    calls: dict[str, Callable[[], object]] = {
        "ed mul": lambda: na.crypto_scalarmult_ed25519_noclamp(k, ep),
        "mul": lambda: rbcl.crypto_scalarmult_ristretto255(k, p),
        "base": lambda: rbcl.crypto_scalarmult_ristretto255_base(k),
        "add": lambda: rbcl.crypto_core_ristretto255_add(p, q),
        "check": lambda: rbcl.crypto_core_ristretto255_is_valid_point(p),
        "ed base": lambda: na.crypto_scalarmult_ed25519_base_noclamp(k),
        "ed add": lambda: na.crypto_core_ed25519_add(ep, eq),
        "ed check": lambda: na.crypto_core_ed25519_is_valid_point(ep),
    }
    out = {}
    for _ in range(2):  # interleaved twice: the machine's load changes alike for each
        for name, call in calls.items():
            times = []
            for _ in range(5):
                c = time.process_time()
                for _ in range(runs // 10):
                    call()
                times.append((time.process_time() - c) / (runs // 10) * 1e6)
            out[name] = min(out.get(name, 1e9), statistics.median(times))
    return out


def measure_steps(grp: group.Group, runs: int) -> dict[str, float]:
    """The CPU of each step of the 6-seat Condottiere deal for one peer: make a shuffle of 110
    cards with its proof (``shuffle``), check another seat's (``check``), make one seat's shares
    of the 50 cards dealt to the others, one message for each seat (``shares``), check another
    seat's message for this seat's own 10 cards (``check shares``: the shares of cards in other
    hands are checked beside the game, after the deal)."""
    out: dict[str, list[float]] = {"shuffle": [], "check": [], "shares": [], "check shares": []}
    for i in range(runs):
        t = LocalTable(6, game_id=b"bench-steps", rng=random.Random(i), group=grp)
        t.new_deck("deck", TABLES[grp.name]["condottiere"], range(110))
        mine, other = t.peers[0].decks["deck"], t.peers[1].decks["deck"]
        c = time.process_time()
        msg = mine.make_shuffle(t.context)
        out["shuffle"].append(time.process_time() - c)
        mine.receive(0, msg, t.context)
        c = time.process_time()
        other.receive(0, msg, t.context)
        out["check"].append(time.process_time() - c)
        for p in t.peers[2:]:  # the other seats' shuffles, then the deal, untimed
            p.decks["deck"].receive(0, msg, t.context)
        t.context = b"after seat 0"
        t.shuffle("deck")
        for p in t.peers:
            for s in range(6):
                for _ in range(10):
                    p.decks["deck"].deal(s)
        c = time.process_time()
        shares = [mine.make_shares([h for h in range(60) if mine.holder(h) == s], t.context)
                  for s in range(1, 6)]
        out["shares"].append(time.process_time() - c)
        c = time.process_time()
        other.receive(0, shares[0], t.context, defer=True)  # seat 1's own cards: at once
        out["check shares"].append(time.process_time() - c)
    return {k: statistics.median(v) for k, v in out.items()}


def critical_path(steps: dict[str, float], seats: int = 6) -> tuple[float, float]:
    """The 6-seat deal's critical path with one machine per seat, from the measured steps:
    ``(in sequence, beside)``. In sequence: each seat checks the shuffle before it shuffles on,
    every seat checks the last one, then every seat makes its shares at once and checks the
    others' shares of its own cards. Beside: each seat shuffles as soon as it has the pile and its second core checks
    the other seats' proofs as they come, in order; the deal waits for every seat's last check."""
    s, c = steps["shuffle"], steps["check"]
    deal = steps["shares"] + (seats - 1) * steps["check shares"]
    in_sequence = seats * (s + c) + deal
    ready = 0.0
    for seat in range(seats):
        done = 0.0  # when this seat's checking core is free
        for author in range(seats):
            if author != seat:
                done = max(done, (author + 1) * s) + c  # shuffle `author` arrives at (author+1)*s
        ready = max(ready, done, seats * s)
    return in_sequence, ready + deal


# -- one process per peer --------------------------------------------------------------------


def _peer_process(conn: Any, table: LocalTable, seat: int, defer: bool) -> None:
    """A peer: its decks, fed commands and messages through a pipe, in order. ``defer``: it
    takes a shuffle at once and checks its proof in a worker thread, and the shares of cards
    dealt to other seats likewise (as a seat's table does)."""
    COUNTER.remove()  # this process only: the count's wrappers are not the game's cost
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
            deck = decks[msg["deck"]]
            deck.receive(author, msg, context, defer=defer)
            deck_checks_beside(deck)  # the worker thread, as a seat's table hands it proofs
        elif cmd == "deal":  # deal_to: {seat: count}; answer my shares for the others' cards,
            deck_id, deal_to, context = args  # a message for each seat, as a session's dealer
            msgs = []
            for to, count in deal_to.items():
                handles = [decks[deck_id].deal(to) for _ in range(count)]
                if to != seat:
                    msgs.append(decks[deck_id].make_shares(handles, context))
            conn.send(msgs)
        elif cmd == "sync":
            conn.send(time.process_time() - start)
        elif cmd == "stop":
            return


class Loopback:
    """A hub and one process per peer; messages relayed to every peer in one order."""

    def __init__(self, seats: int, rng: random.Random, defer: bool = False) -> None:
        table = LocalTable(seats, game_id=b"bench-loopback", rng=rng)  # keys and secrets
        ctx = multiprocessing.get_context("fork")
        self.conns = []
        self.procs = []
        for seat in range(seats):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_peer_process, args=(theirs, table, seat, defer), daemon=True)
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
            for msg in c.recv():
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


def wall_unit(n: int = 300) -> float:
    """The unit (one PyNaCl edwards25519 variable-base multiplication) in wall-clock
    microseconds now: on a busy machine it takes longer, as everything else does."""
    from nacl import bindings as na

    k = group.scalar_bytes(group.random_scalar())
    p = EDWARDS25519.hash_to_point(b"bench", b"p")
    w = time.perf_counter()
    for _ in range(n):
        na.crypto_scalarmult_ed25519_noclamp(k, p)
    return (time.perf_counter() - w) / n * 1e6


def measure_loopback(run: Callable[[Loopback], None], seats: int, runs: int,
                     defer: bool = False) -> dict[str, Any]:
    """Wall time (measured), processor time, and the quiet-machine equivalent of the wall time:
    each run's wall time times ``QUIET_UNIT_US`` over the unit's wall time measured just before
    and just after that run (the mean of the two)."""
    walls, cpus, busiest, quiet, units = [], [], [], [], []
    for i in range(runs):
        net = Loopback(seats, random.Random(i), defer)
        before = wall_unit()
        w = time.perf_counter()
        run(net)
        net.sync()
        walls.append(time.perf_counter() - w)
        u = (before + wall_unit()) / 2
        units.append(u)
        quiet.append(walls[-1] * QUIET_UNIT_US / u)
        cpu = net.close()
        cpus.append(sum(cpu))
        busiest.append(max(cpu))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "busiest": statistics.median(busiest), "quiet": statistics.median(quiet),
            "unit": statistics.median(units)}


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sp.generators(110)
    sp.generators(110, EDWARDS25519)
    load_before = _load()
    prims = measure_primitives()
    proof = measure_proof(110, args.runs)
    chain = measure_chain(110, 6, args.runs)
    steps = {name: measure_steps(grp, args.runs)
             for name, grp in (("ristretto255", group.RISTRETTO255), ("edwards25519", EDWARDS25519))}
    rows = [
        ("condottiere", "6 seats shuffle 110 (proved, checked by all), deal 10 each",
         measure(condottiere, args.runs)),
        ("old", "  the same on edwards25519 (version 1's group)",
         measure(condottiere_old_group, args.runs)),
        ("beside", "  the same, proofs checked in a worker thread",
         measure(condottiere_beside, args.runs)),
        ("medici", "medici set-up: 4 decks x 4 proved shuffles, deal 11 each",
         measure(medici_setup, args.runs)),
    ]
    loop = [
        ("condottiere", "6 seats shuffle 110 (proved, checked by all), deal 10 each",
         measure_loopback(loopback_condottiere, 6, args.runs)),
        ("beside", "  the same, proofs checked beside the game",
         measure_loopback(loopback_condottiere, 6, args.runs, defer=True)),
        ("medici", "medici set-up: 4 decks x 4 proved shuffles, deal 11 each",
         measure_loopback(loopback_medici_setup, 4, args.runs)),
    ]
    print(f"median of {args.runs} runs; load average before {load_before}, after {_load()} "
          f"({os.cpu_count()} CPUs)")
    unit = prims["ed mul"]
    print("\nlibsodium calls, in units of one PyNaCl edwards25519 variable-base multiplication "
          f"({unit:.1f} us here):")
    print("  ristretto255 (rbcl):   " + ", ".join(
        f"{k} {prims[k] / unit:.2f}" for k in ("mul", "base", "add", "check")))
    print("  edwards25519 (PyNaCl): " + ", ".join(
        f"{k} {prims['ed ' + k] / unit:.2f}" for k in ("mul", "base", "add", "check")))
    made, checked = proof["counts"]
    print(f"\none shuffle proof, 110 cards ({proof['bytes']} bytes): make {proof['make'] * 1e3:.1f} ms "
          f"CPU, check {proof['check'] * 1e3:.1f} ms CPU")
    print(f"  group operations mul / base / add / check: make {_ops(made)}, check {_ops(checked)}")
    print(f"  checked equation by equation instead of every equation as one random "
          f"linear combination: {proof['plain'] * 1e3:.1f} ms ({_ops(proof['plain counts'])}); "
          f"batched / plain {proof['check'] / proof['plain']:.2f}")
    alone, together = chain["counts"]
    print(f"the 6 proofs of a new deck's chain (110 cards), checked one by one: "
          f"{chain['alone'] * 1e3:.1f} ms CPU ({_ops(alone)}); together: "
          f"{chain['together'] * 1e3:.1f} ms ({_ops(together)}); together / one by one "
          f"{chain['together'] / chain['alone']:.2f}")
    print("\nthe 6-seat deal, one peer's steps (ms CPU) and the critical path modelled with one "
          "machine (two cores) per seat:")
    paths = {}
    for name, st in steps.items():
        paths[name] = critical_path(st)
        print(f"  {name:13} " + ", ".join(f"{k} {v * 1e3:.1f}" for k, v in st.items())
              + f"; path in sequence {paths[name][0]:.3f} s, checked beside {paths[name][1]:.3f} s")
    units = paths["ristretto255"][1] / (unit * 1e-6)
    quiet = units * QUIET_UNIT_US * 1e-6
    print(f"  checked beside, on ristretto255: {units:,.0f} units, {quiet:.2f} s at a quiet "
          f"machine's {QUIET_UNIT_US} us unit; goal {GOAL['condottiere']:.1f} s "
          f"{'met' if quiet <= GOAL['condottiere'] else 'missed'}")
    print("\none process, every peer in turn (ops: mul / base / add / check)")
    print(f"{'scenario':60} {'wall s':>7} {'table CPU s':>11} {'busiest s':>9}  ops (table; busiest peer)")
    ok = True
    for _key, name, r in rows:
        print(f"{name:60} {r['wall']:7.3f} {r['cpu']:11.3f} {r['busiest']:9.3f}  "
              f"{_ops(r['counts'])}; {_ops(r['peak'])}")
    print(f"  table CPU of the deal on ristretto255 / on edwards25519: "
          f"{rows[0][2]['cpu'] / rows[1][2]['cpu']:.2f}")
    here = ", ".join(f"{r['unit']:.1f}" for _, _, r in loop)
    print("\nloopback, one process per peer. 'wall s' is measured; 'quiet s' is its quiet-machine "
          "equivalent: the wall time times the unit's quiet value over the unit's wall time\n"
          f"measured around the same run (the unit here: {here} us; quiet: "
          f"{QUIET_UNIT_US} us, the PyNaCl multiplication timed on this 2-core machine when nothing "
          "else ran: docs/security.md, Costs).\nThe gates apply to the quiet equivalent.")
    print(f"{'scenario':60} {'wall s':>7} {'quiet s':>7} {'table CPU s':>11} {'busiest s':>9}  gate")
    for key, name, r in loop:
        passed = r["quiet"] < GATES[key]
        ok &= passed
        print(f"{name:60} {r['wall']:7.3f} {r['quiet']:7.3f} {r['cpu']:11.3f} {r['busiest']:9.3f}  "
              f"{GATES[key]:.1f} s {'met' if passed else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
