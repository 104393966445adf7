#!/usr/bin/env python3
"""How true the coach's chance to win is: a reliability table over seeded positions.

Games are played with one seat (the *coached* seat, a different one each game) following the
coach (``engine.search.coach.suggest``: it plays the suggested move) against bots of one level
(``--opponents``, ``easy`` by default; ``hard`` is what the coach assumes of a person). At every decision of
the coached seat with more than one move, the chance the coach states for its suggestion is
recorded, until ``--positions`` positions are gathered (the last game is played to its end).
Each position then counts as won or lost by how its game ended.

The table buckets the positions by the stated chance, ten points a bucket, and gives each
bucket's count, mean stated chance, observed rate of wins (with Wilson's 95% interval) and the
gap between the two. A calibrated coach's buckets lie close to the diagonal. ``--raw`` judges
the search's own figure instead (before ``engine.search.coach.CALIBRATION``); ``--fit`` prints
the ``(a, b)`` of the calibration that fits these positions (a logistic regression of the
outcome on the logit of the raw figure). Positions of one game are not independent: read the
intervals as a little narrower than they are. ``--replay FILE`` reads the positions a run
logged (``--log``) instead of playing: their raw figures through today's calibration, so a
calibration just fitted can be checked on the positions it was fitted to in a moment (a run
with another seed checks it on positions it has not seen).

    scripts/coach_calibration.py --game medici --positions 1000 --seed 1 --opponents easy \\
        --option end_when_all_struck
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import CHANCE, TERMINAL, LocalGame, sample_chance  # noqa: E402
from engine.registry import get_game, parse_options  # noqa: E402
from engine.report import wilson  # noqa: E402
from engine.search.coach import calibrated, suggest  # noqa: E402
from engine.sim import bot_rng, game_seed  # noqa: E402


def play(args: argparse.Namespace, index: int) -> list[tuple[float, float, bool]]:
    """One game: (stated chance, raw chance, won) at each decision of the coached seat."""
    entry = get_game(args.game)
    rules = entry.rules
    config = rules.make_config(args.players, parse_options(args.option))
    seed = game_seed(args.seed, index)
    coached = index % args.players
    levels: list[str | None] = [args.opponents] * args.players
    levels[coached] = None
    settings = {} if args.think is None else {"think": args.think}
    if args.iterations:
        settings["iterations"] = args.iterations
    bots = {
        i: entry.make_bot(args.opponents, bot_rng(seed, i), **settings)
        for i in range(args.players)
        if i != coached
    }
    coach_rng = bot_rng(seed, coached)
    game = LocalGame(rules, config, seed)
    seen: list[tuple[float, float]] = []
    while True:
        state = game.state
        who = rules.current_player(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            game.step(sample_chance(rules.chance_outcomes(state), game.rng), checked=False)
            continue
        if who < 0:
            game.step(rules.legal_actions(state)[0], checked=False)
            continue
        view = rules.view(state, who)
        if who != coached:
            game.step(bots[who].choose(view, who), checked=False)
            continue
        hint = suggest(entry, view, who, coach_rng, opponents=levels, **settings)
        if hint.chance is not None and hint.raw is not None and len(rules.legal_actions(view)) > 1:
            seen.append((hint.chance, hint.raw))
        game.step(hint.best, checked=False)
    won = coached in rules.outcome(game.state).winners
    return [(c, r, won) for c, r in seen]


def fit(points: list[tuple[float, bool]]) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of ``won ~ sigmoid(a + b * logit(raw))`` (Newton),
    with a weak ridge toward ``(0, 1)``."""
    xs = []
    for raw, won in points:
        p = min(max(raw, 0.01), 0.99)
        xs.append((math.log(p / (1 - p)), 1.0 if won else 0.0))
    a, b = 0.0, 1.0
    ridge = 1.0  # a weak pull toward the raw figure (a = 0, b = 1), so that few points stay sane
    for _ in range(50):
        ga, gb = -ridge * a, -ridge * (b - 1.0)
        haa = hbb = ridge
        hab = 0.0
        for x, y in xs:
            q = 1 / (1 + math.exp(-min(30.0, max(-30.0, a + b * x))))
            ga += y - q
            gb += (y - q) * x
            w = q * (1 - q)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def table(points: list[tuple[float, bool]], title: str) -> int:
    """Print the reliability table; the number of buckets (of 20 positions or more) off by
    more than ten points."""
    print(title)
    print("| stated chance | positions | mean stated | observed (95% interval) | gap |")
    print("|---|---:|---:|---|---:|")
    off = 0
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        got = [(c, w) for c, w in points if lo <= c < hi or (k == 9 and c == 1.0)]
        if not got:
            continue
        n = len(got)
        stated = sum(c for c, _ in got) / n
        wins = sum(1 for _, w in got if w)
        a, b = wilson(wins, n)
        gap = wins / n - stated
        mark = ""
        if abs(gap) > 0.10 and n >= 20:
            off += 1
            mark = " (off)"
        print(f"| {lo:.0%}-{hi:.0%} | {n} | {stated:.1%} | {wins / n:.1%} ({a:.1%}-{b:.1%}) | "
              f"{gap:+.1%}{mark} |")
    n = len(points)
    wins = sum(1 for _, w in points if w)
    print(f"all: {n} positions, stated {sum(c for c, _ in points) / max(1, n):.1%}, "
          f"observed {wins / max(1, n):.1%}")
    return off


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True)
    p.add_argument("--positions", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--opponents", default="easy", help="the level of the other three seats")
    p.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    p.add_argument("--think", type=float, default=None, help="CPU cap of every search decision")
    p.add_argument("--iterations", type=int, default=0, help="iterations of every search decision")
    p.add_argument("--raw", action="store_true", help="judge the search's own figure")
    p.add_argument("--fit", action="store_true", help="print the calibration that fits")
    p.add_argument("--log", default="", help="append one JSON line per game to this file")
    p.add_argument("--replay", default="", help="the positions a --log holds, instead of playing")
    args = p.parse_args(argv)
    try:
        entry = get_game(args.game)
        entry.check_bot(args.opponents)
        entry.rules.make_config(args.players, parse_options(args.option))
    except ValueError as e:
        p.error(str(e))
    points: list[tuple[float, float, bool]] = []
    index = 0
    if args.replay:
        level = "easy" if args.opponents == "greedy" else args.opponents  # as the coach names it
        levels = [level] * (args.players - 1)
        with open(args.replay) as f:
            for line in f:
                for _, raw, won in json.loads(line)["points"]:
                    chance = calibrated(args.game, raw, levels)
                    assert chance is not None
                    points.append((chance, raw, bool(won)))
                index += 1
    while len(points) < args.positions and not args.replay:
        got = play(args, index)
        if args.log:
            with open(args.log, "a") as f:
                f.write(json.dumps({"game": index, "points": got}) + "\n")
        points += got
        index += 1
    source = f"the positions of {args.replay}" if args.replay else f"seed {args.seed}"
    print(f"{args.game}, {args.players} players, options {args.option or 'none'}, coached seat "
          f"against 3 {args.opponents}, {source}, {index} games")
    stated = [(r if args.raw else c, w) for c, r, w in points]
    off = table(stated, "raw figure" if args.raw else "stated chance")
    if args.fit:
        a, b = fit([(r, w) for _, r, w in points])
        print(f"fit: a = {a:.3f}, b = {b:.3f}")
    print(f"buckets of 20 or more positions off by more than 10 points: {off}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
