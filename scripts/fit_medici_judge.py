#!/usr/bin/env python3
"""Fit the weights of Court of the Medici's judgement at the horizon to how games end.

Plays ``--games`` seeded four-player games of one level in every seat (``--level``, ``easy`` by
default; ``--option short_game`` for the short game) and records, at the start of every
``--every``-th turn of play (the states where a rollout stopping at the horizon is judged), each
seat's figures (``engine.search.medici_judge.figures``) and who won the game. It fits a
conditional logit (the chance that seat ``q`` wins is the soft maximum of the weighted sums, the
form of ``medici_judge.chances``) by gradient ascent on the first 70% of the games, and prints
the weights and, on the other 30%, the mean log-loss of the fitted weights, of the weights in
``FITTED`` (the full game's) and ``FITTED_SHORT`` (the short game's) and of the score alone
(lower is better; ``ln 4`` = 1.386 knows nothing).

    scripts/fit_medici_judge.py --games 400 --level easy --seed 10000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _fit import Row, fit, log_loss, play, weighted  # noqa: E402

from engine.search.medici_judge import FITTED, FITTED_SHORT, figures  # noqa: E402

NAMES = ("score", "tops", "held", "placed", "hand", "left", "to move")


def collect(level: str, games: int, seed: int, every: int, options: dict[str, object]) -> list[list[Row]]:
    """Per game, its rows (figures at a turn's start, the game's winners)."""
    last = -1

    def sample(s: Any) -> list[list[float]] | None:
        nonlocal last
        if s.phase == "play" and s.turns != last:
            last = s.turns
            if last % every == 0:
                return figures(s)
        return None

    return play("medici", level, games, seed, options, sample)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--level", default="easy")
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--every", type=int, default=4, help="record every N-th turn of play")
    p.add_argument("--option", action="append", default=[], help="a rules option, NAME")
    args = p.parse_args(argv)
    games = collect(args.level, args.games, args.seed, args.every, dict.fromkeys(args.option, True))
    cut = int(len(games) * 0.7)  # the last games are the test's
    train = [r for g in games[:cut] for r in g if r[1]]
    test = [r for g in games[cut:] for r in g if r[1]]
    w = fit(train, len(NAMES), args.steps, rate=2.0)
    print(f"{args.games} games of {args.level}, seed {args.seed}, options {args.option or 'none'}: "
          f"{len(train)} positions to fit, {len(test)} to test")
    print("fitted weights (" + ", ".join(NAMES) + "): " + ", ".join(f"{x:.2f}" for x in w))
    judges = {
        "fitted now": lambda f: weighted(w, f),
        "FITTED": lambda f: weighted(FITTED, f),
        "FITTED_SHORT": lambda f: weighted(FITTED_SHORT, f),
        "score alone": lambda f: 2.0 * f[0],
    }
    for name, judge in judges.items():
        loss = sum(log_loss([judge(x) for x in f], wins) for f, wins in test) / len(test)
        print(f"  log-loss on the test games, {name}: {loss:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
