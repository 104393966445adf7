#!/usr/bin/env python3
"""Fit the weights of Condottiere's judgement at the horizon to how games end.

Plays ``--games`` seeded four-player games of one level in every seat (``--level``, ``normal``
by default) and records, after every battle (the states where a rollout stopping at the horizon
is judged), each seat's figures (``engine.search.condottiere.FITTED`` names them) and who won
the game. It fits a conditional logit (the chance that seat ``q`` wins is the soft maximum of
the weighted sums, the form of ``evaluate_fitted``) by gradient ascent on the first 70% of the
positions (in the order played), and prints the weights and, on the other 30%, the mean log-loss of the fitted weights,
of the weights in ``FITTED`` and of the older ``evaluate`` (lower is better; ``ln 4`` = 1.386
knows nothing).

    scripts/fit_condottiere_judge.py --games 150 --level normal --seed 10000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _fit import Row, fit, log_loss, play, weighted  # noqa: E402

from engine.condottiere import rules  # noqa: E402
from engine.condottiere.cards import STRENGTH, largest_group  # noqa: E402
from engine.condottiere.state import State  # noqa: E402
from engine.search.condottiere import FITTED, SHARPNESS  # noqa: E402


def figures(s: State) -> list[list[float]]:
    """Per seat: largest group and region count as shares of what wins, hand strength and
    cards in tens, and the older judgement's progress."""
    total, adjacent = rules.thresholds(s)
    out = []
    for q in range(s.players):
        mask = s.regions_of(q)
        group, count = largest_group(mask) / adjacent, mask.bit_count() / total
        hand = s.hands[q]
        strength = sum(STRENGTH[c] for c in hand)
        out.append([group, count, strength / 10, len(hand) / 10, max(group, count)])
    return out


def collect(level: str, games: int, seed: int) -> list[Row]:
    last = -1

    def sample(s: State) -> list[list[float]] | None:
        nonlocal last
        if s.phase != "play" and s.battles != last:
            last = s.battles
            return figures(s)
        return None

    return [row for game in play("condottiere", level, games, seed, {}, sample) for row in game]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=150)
    p.add_argument("--level", default="normal")
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--steps", type=int, default=800)
    args = p.parse_args(argv)
    rows = [r for r in collect(args.level, args.games, args.seed) if r[1]]
    cut = int(len(rows) * 0.7)  # rows in the order played: the last games are the test's
    train, test = rows[:cut], rows[cut:]
    w = fit(train, 4, args.steps, rate=4.0)
    print(f"{args.games} games of {args.level}, seed {args.seed}: {len(train)} positions to fit, "
          f"{len(test)} to test")
    print("fitted weights (group, count, hand strength, hand cards): "
          + ", ".join(f"{x:.2f}" for x in w))
    judges = {
        "fitted now": lambda f: weighted(w, f),
        "FITTED": lambda f: weighted(FITTED, f),
        "progress (evaluate)": lambda f: SHARPNESS * (f[4] + f[2] / 15),
    }
    for name, judge in judges.items():
        loss = sum(log_loss([judge(x) for x in f], wins) for f, wins in test) / len(test)
        print(f"  log-loss on the test games, {name}: {loss:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
