#!/usr/bin/env python3
"""Whole networked games through the fair deck: what the deck costs a peer, and ``palazzo verify``
of the saved transcript.

Each run plays one game of greedy bots with a relay-only host on the in-memory link (every
peer's table in this one process, each checking every entry as it arrives, as separate machines
would), then measures the check of the saved transcript from scratch
(``net.session.records.verify.verify_bytes``: every signature, proof and move again, as an observer).
Nothing is left for the end of the game: no seat reveals a secret, and there is no end audit.
The last column is verify's CPU over one peer's CPU for the whole game.

    .venv/bin/python scripts/bench_fair_game.py --runs 3
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
from net.session.machines.host_session import HostSession  # noqa: E402
from net.session.machines.peer_session import PeerSession  # noqa: E402
from net.session.records.verify import verify_bytes  # noqa: E402
from net.session.runners.link import MemoryLink  # noqa: E402
from net.wire.identity import Identity  # noqa: E402

SCENARIOS = [
    ("medici", 4, {}),
    ("condottiere", 6, {}),
    ("condottiere", 4, {"hidden_cards": True, "draw_after_battle": True}),
]


def play(game: str, players: int, options: dict, seed: int) -> tuple[HostSession, list, float]:
    entry = get_game(game)
    config = entry.rules.make_config(players, options)
    host = HostSession(Identity.generate(), game, config)
    link = MemoryLink(host)
    peers = []
    for i in range(players):
        peer = PeerSession(Identity.generate(), f"bot{i}")
        link.add(peer, entry.make_bot("greedy", random.Random(seed * 10 + i)))
        peers.append(peer)
    start = time.process_time()
    link.pump()
    cpu = time.process_time() - start
    if not host.finished or any(p.state != "over" for p in peers):
        raise SystemExit(f"{game} {players}: the game did not finish")
    return host, peers, cpu


def timed(fn, *args):
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    # every table here is in one process: without this, tables would share the memo of proofs
    # already checked, which separate machines do not
    from net.deck import checks as deck_checks
    deck_checks.share_answers(False)  # every table checks every proof itself
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median of {args.runs} games per line; times in seconds; load average {load}")
    print(f"{'game':<58}{'entries':>8}{'peer CPU/game':>15}{'verify wall':>13}{'verify CPU':>12}"
          f"{'verify/peer':>13}")
    for game, players, options in SCENARIOS:
        rows = []
        for run in range(args.runs):
            host, peers, cpu = play(game, players, options, run + 1)
            table = peers[0].table
            assert table.result()["verdict"] == "verified"
            peer = cpu / (players + 1)
            v, vw, vc = timed(verify_bytes, table.transcript.to_bytes())
            assert v.ok, v.text
            rows.append((len(table.transcript), peer, vw, vc, vc / peer))
        med = [statistics.median(col) for col in zip(*rows, strict=True)]
        name = f"{game}, {players} seats" + (" + " + ", ".join(options) if options else "")
        print(f"{name:<58}{med[0]:>8.0f}{med[1]:>15.2f}{med[2]:>13.2f}{med[3]:>12.2f}"
              f"{med[4]:>13.2f}")


if __name__ == "__main__":
    main()
