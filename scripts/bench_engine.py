#!/usr/bin/env python3
"""Engine benchmark: random full 4-player games per second, and the cost of one step.

For every game of ``engine.registry.game_names()``: random bots play whole 4-player games in
this one process (one core), a few runs of ``--games`` games each, and the median rate is
printed. Then, over the decision points of some random games, the median time to list the legal
actions, and to apply one of them through the checked door (``apply``) and through the fast
path (``apply_unchecked``).

    .venv/bin/python scripts/bench_engine.py [--games 200] [--runs 5] [--seed 1]

Rates are per second of this process's CPU time (one core's work, what the gate measures) and
per wall-clock second (lower on a busy machine). Gate: Court of the Medici plays at least 200
random 4-player games per CPU second (exit status 1 below it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import CHANCE, REVEAL, TERMINAL, sample_chance  # noqa: E402
from engine.registry import GameEntry, game_names, get_game  # noqa: E402
from engine.sim import game_seed, play_one  # noqa: E402

PLAYERS = 4
GATE = {"medici": 200.0}


def games_per_second(entry: GameEntry, config: object, games: int, run_seed: int) -> tuple[float, float]:
    """Games per second of wall-clock time and per second of this process's CPU time (the
    work of one core, whatever else the machine is doing)."""
    bots = ["random"] * PLAYERS
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        play_one(entry, config, game_seed(run_seed, i), bots)
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def decision_points(entry: GameEntry, config: object, games: int, seed: int) -> list:
    """The states at which a seat decides, over a few random games."""
    rules = entry.rules
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = rules.new_game(config)
        while (who := rules.current_player(s)) != TERMINAL:
            legal = rules.legal_actions(s)
            if who == CHANCE:
                a = sample_chance(rules.chance_outcomes(s), rng)
            elif who == REVEAL:
                a = legal[0]
            else:
                out.append(s)
                a = rng.choice(legal)
            s = rules.apply_unchecked(s, a)
    return out


def median_us(fn, items: list, repeat: int = 3) -> float:
    """The median over ``items`` of the best of ``repeat`` timings of ``fn(item)``, in us."""
    times = []
    clock = time.perf_counter
    for item in items:
        best = float("inf")
        for _ in range(repeat):
            t = clock()
            fn(item)
            best = min(best, clock() - t)
        times.append(best)
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    p.add_argument("--runs", type=int, default=5, help="runs per game; the median is shown")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    ok = True
    for name in game_names():
        entry = get_game(name)
        rules = entry.rules
        config = rules.make_config(PLAYERS, {})
        play_one(entry, config, 0, ["random"] * PLAYERS)  # warm up imports and caches
        runs = [games_per_second(entry, config, args.games, args.seed + r) for r in range(args.runs)]
        wall = statistics.median(w for w, _ in runs)
        rate = statistics.median(c for _, c in runs)
        print(f"{name}: {rate:.0f} random {PLAYERS}-player games per CPU second on one core, "
              f"{wall:.0f} per wall-clock second (median of {args.runs} runs of {args.games}; "
              f"CPU runs: {', '.join(f'{c:.0f}' for _, c in runs)})")
        states = decision_points(entry, config, 20, args.seed)
        rng = random.Random(args.seed)
        picks = [(s, rng.choice(rules.legal_actions(s))) for s in states]
        listing = median_us(rules.legal_actions, states)
        apply, apply_unchecked = rules.apply, rules.apply_unchecked
        checked = median_us(lambda sa, apply=apply: apply(*sa), picks)
        fast = median_us(lambda sa, fast=apply_unchecked: fast(*sa), picks)
        print(f"{name}: median over {len(states)} decisions: legal actions {listing:.1f} us, "
              f"apply {checked:.1f} us (checked door), {fast:.1f} us (unchecked)")
        gate = GATE.get(name)
        if gate is not None:
            passed = rate >= gate
            ok &= passed
            print(f"{name}: gate {gate:.0f} games/s: {'met' if passed else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
