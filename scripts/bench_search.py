#!/usr/bin/env python3
"""Search speed: iterations per CPU second of the search bot, the fast path against the legacy one.

Collects the decisions of a few seeded greedy games (views of seats with at least
``--min-legal`` legal actions, in the phases the search bot searches), then searches each for
``--iterations`` iterations with the game's ``ismcts`` bot at its default settings (the
registry's; ``--set KEY=VALUE`` overrides one), once with ``path=legacy`` (a state copy a step,
the rollout policy called step by step: the code path before the fast one) and once with
``path=fast``, in alternating rounds in the same process. Time is process time, so that other
load on the machine counts less; each path's figure is its median over the rounds, and the
ratio is the median of the rounds' ratios. Both paths must choose the same moves (they make
the same moves from the same seed); the script says so, and fails if they do not.
``--profile`` prints the top of a cProfile of the fast path.

Where a game's default settings changed since the legacy path was today's (Condottiere's
rollouts now stop ``horizon`` battles ahead and score the position; before, they ran to the
game's end), a third pass, ``before``, runs the legacy path with the settings of that time
(``BEFORE``), and the script also prints the fast path's rate as a ratio to it: what a decision
of the default bot gets now, in iterations per CPU second, against what it got before.

    scripts/bench_search.py --games 2 --iterations 200 --rounds 3

With no game named, both games are measured one after the other at the same settings.

``--level LEVEL`` measures instead how long that level's decisions take: ``--games`` seeded
games with the level in every seat, each decision that offers a choice timed in CPU seconds of
the deciding thread (the time its ``think`` caps), and prints their median, 95th percentile and
most, with the load average before and after.

    scripts/bench_search.py condottiere --level hard --games 2
"""

from __future__ import annotations

import argparse
import cProfile
import math
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import LocalGame  # noqa: E402
from engine.registry import get_game  # noqa: E402
from engine.search.ismcts import Budget  # noqa: E402

#: per game, the settings that make the ``ismcts`` bot what it was before the fast path
BEFORE: dict[str, dict[str, Any]] = {"condottiere": {"horizon": 0}}


def decisions(game: str, players: int, games: int, min_legal: int, skip: tuple[str, ...]) -> list[tuple[Any, int]]:
    entry = get_game(game)
    rules = entry.rules
    out = []
    for g in range(games):
        local = LocalGame(rules, rules.make_config(players, {}), g)
        bots = [entry.make_bot("greedy", random.Random(i)) for i in range(players)]
        while True:
            local.advance()
            who = rules.current_player(local.state)
            if who < 0:
                break
            view = rules.view(local.state, who)
            if getattr(view, "phase", None) not in skip and len(rules.legal_actions(view)) >= min_legal:
                out.append((view, who))
            local.step(bots[who].choose(view, who), checked=False)
    return out


def parse_set(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        for kind in (int, float):
            try:
                out[key] = kind(value)
                break
            except ValueError:
                continue
        else:
            out[key] = value
    return out


def run(game: str, settings: dict[str, Any], path: str, views: list[tuple[Any, int]], iterations: int) -> tuple[float, list[Any]]:
    """(iterations per CPU second, the moves chosen) of one pass over ``views``."""
    bot = get_game(game).make_bot("ismcts", random.Random(1), **settings, path=path)
    budget = Budget(iterations=iterations)
    start = time.process_time()
    moves = [bot.search.run(view, seat, budget).action for view, seat in views]
    return len(views) * iterations / (time.process_time() - start), moves


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def decision_times(game: str, level: str, players: int, games: int, settings: dict[str, Any]) -> list[float]:
    """CPU seconds of every decision with a choice that ``level`` makes in ``games`` seeded
    games with it in every seat."""
    entry = get_game(game)
    rules = entry.rules
    times = []
    for g in range(games):
        local = LocalGame(rules, rules.make_config(players, {}), g)
        bots = [entry.make_bot(level, random.Random(1000 * g + i), **settings) for i in range(players)]
        while True:
            local.advance()
            who = rules.current_player(local.state)
            if who < 0:
                break
            view = rules.view(local.state, who)
            start = time.thread_time()
            action = bots[who].choose(view, who)
            spent = time.thread_time() - start
            if len(rules.legal_actions(view)) > 1:
                times.append(spent)
            local.step(action, checked=False)
    return times


def bench_level(args: argparse.Namespace) -> None:
    load = os.getloadavg()[0]
    times = decision_times(args.game, args.level, args.players, args.games, parse_set(args.set))
    print(
        f"{args.game}, {args.players} players, level {args.level}: {len(times)} decisions with a "
        f"choice in {args.games} games; CPU seconds a decision: median {percentile(times, 0.5):.3f}, "
        f"95th percentile {percentile(times, 0.95):.3f}, most {max(times):.3f}; "
        f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", default="both", help="medici, condottiere or both (the default)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--decisions", type=int, default=10)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--min-legal", type=int, default=3)
    p.add_argument("--set", action="append", default=[], help="a search setting, KEY=VALUE")
    p.add_argument("--profile", action="store_true")
    p.add_argument("--level", default="", help="time this level's decisions in its own games instead")
    args = p.parse_args(argv)
    games = ["medici", "condottiere"] if args.game == "both" else [args.game]
    ok = True
    for game in games:
        args.game = game
        if args.level:
            bench_level(args)
            continue
        ok = bench(args) and ok
    return 0 if ok else 1


def bench(args: argparse.Namespace) -> bool:
    """One game's figures (``args.game``); whether both paths chose the same moves."""
    settings = parse_set(args.set)
    probe = get_game(args.game).make_bot("ismcts", random.Random(0), **settings)
    skip = probe.setup_phases if probe.fallback is not None else ()
    views = decisions(args.game, args.players, args.games, args.min_legal, skip)[::3][: args.decisions]
    s = probe.search
    print(
        f"{args.game}, {args.players} players: {len(views)} decisions, {args.iterations} iterations each, "
        f"{args.rounds} rounds; rollout {s.rollout_name}, bias {s.bias}, exploration {s.c}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    before = {**BEFORE.get(args.game, {}), **settings} if not args.set else settings
    rates: dict[str, list[float]] = {"legacy": [], "fast": []}
    if before != settings:
        rates["before"] = []
    ratios = []
    ratios_before = []
    same = True
    for _ in range(args.rounds):
        old, old_moves = run(args.game, settings, "legacy", views, args.iterations)
        new, new_moves = run(args.game, settings, "fast", views, args.iterations)
        rates["legacy"].append(old)
        rates["fast"].append(new)
        ratios.append(new / old)
        same = same and old_moves == new_moves
        if "before" in rates:
            then, _ = run(args.game, before, "legacy", views, args.iterations)
            rates["before"].append(then)
            ratios_before.append(new / then)
    for path, xs in rates.items():
        print(f"  {path:<7} {statistics.median(xs):8.0f} iterations per CPU second  ({', '.join(f'{x:.0f}' for x in xs)})")
    print(f"  ratio   {statistics.median(ratios):8.2f}  ({', '.join(f'{x:.2f}' for x in ratios)})  fast / legacy, same settings")
    if ratios_before:
        print(
            f"  ratio   {statistics.median(ratios_before):8.2f}  ({', '.join(f'{x:.2f}' for x in ratios_before)})"
            f"  fast, default settings / legacy, settings before ({before})"
        )
    print(f"  same moves on both paths: {'yes' if same else 'NO'}; load average {os.getloadavg()[0]:.2f}")
    if args.profile:
        bot = get_game(args.game).make_bot("ismcts", random.Random(1), **settings, path="fast")
        prof = cProfile.Profile()
        prof.enable()
        for view, seat in views:
            bot.search.run(view, seat, Budget(iterations=args.iterations))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return same


if __name__ == "__main__":
    raise SystemExit(main())
