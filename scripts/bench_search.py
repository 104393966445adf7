#!/usr/bin/env python3
"""Search speed: iterations per CPU second of the search bot, per rollout policy.

Collects the decisions of a few greedy games (views of seats with more than ``--min-legal``
legal actions), then searches each for ``--iterations`` iterations with every rollout policy
the game offers, and prints iterations per second of process time (so that other load on the
machine counts less). ``--profile`` prints the top of a cProfile of the default policy.

    scripts/bench_search.py medici --games 2 --iterations 200
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import LocalGame  # noqa: E402
from engine.registry import get_game  # noqa: E402
from engine.search.ismcts import Budget, Search  # noqa: E402


def decisions(game: str, players: int, games: int, min_legal: int) -> list[tuple[object, int]]:
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
            if len(rules.legal_actions(view)) >= min_legal:
                out.append((view, who))
            local.step(bots[who].choose(view, who), checked=False)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--decisions", type=int, default=10)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--min-legal", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    args = p.parse_args(argv)
    search_game = importlib.import_module(f"engine.search.{args.game}").GAME
    views = decisions(args.game, args.players, args.games, args.min_legal)[:: 3][: args.decisions]
    print(f"{args.game}: {len(views)} decisions, {args.iterations} iterations each")
    for rollout in search_game.rollouts:
        for bias in (0.0, 2.0) if search_game.prior else (0.0,):
            search = Search(search_game, random.Random(1), rollout=rollout, bias=bias)
            start = time.process_time()
            for view, seat in views:
                search.run(view, seat, Budget(iterations=args.iterations))
            rate = len(views) * args.iterations / (time.process_time() - start)
            print(f"  rollout {rollout:<8} bias {bias:<4} {rate:8.0f} iterations per CPU second")
    if args.profile:
        search = Search(search_game, random.Random(1), rollout=next(iter(search_game.rollouts)))
        prof = cProfile.Profile()
        prof.enable()
        for view, seat in views:
            search.run(view, seat, Budget(iterations=args.iterations))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
