#!/usr/bin/env python3
"""Seeded bot tournaments with seats rotated, and win rates with 95% confidence intervals.

A *match* is a line-up of bots, one per seat (``ismcts,greedy,greedy,greedy``). Game ``i`` of a
match plays the line-up rotated by ``i`` seats, so every bot sits in every seat equally often
(use a multiple of the player count). After each match's table come the figures of how the
games went (``engine.report``: length in turns and moves a seat, end reasons, games ended by a
seat that lost them, and each game's shares of senseless plays, per bot), for a bot seated more
than once the games won by any of its seats (two against two: its team's share), and each
bot's CPU time a decision (those with a choice: median, 95th percentile, most). ``--round-robin A,B,C`` plays a match for every ordered
pair of distinct bots: one ``A`` against ``players - 1`` copies of ``B``, and so on.

A bot is a name the game's registry knows (a kind such as ``greedy`` or ``ismcts``, or a level
such as ``hard``) with optional settings after colons: ``ismcts:think=0.3:rollout=light``.
``--think`` sets the per-decision time of every search bot that does not set its own.

Every game's seed comes from the run's seed and the game's number (``engine.sim.game_seed``), so
a run replays exactly when the bots are given iteration budgets instead of time. Games run on
``--workers`` processes (two by default). A shared win counts as a win for each winner. The
interval is Wilson's score interval. With ``--log F`` every game is written to ``F`` as it ends;
``--resume`` then takes the games ``F`` holds for the match (same seed, same line-up) and plays
only the rest, so a long run that was stopped goes on where it stood.

    scripts/tournament.py medici --players 4 --games 200 --seed 1 \\
        --lineup ismcts:think=0.25,greedy,greedy,greedy
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import LocalGame  # noqa: E402
from engine.registry import get_game, parse_options  # noqa: E402
from engine.report import Tally, wilson  # noqa: E402
from engine.sim import bot_rng, game_seed  # noqa: E402


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:think=0.3:rollout=light"`` -> ``("ismcts", {"think": 0.3, "rollout": "light"})``."""
    name, *pairs = spec.split(":")
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        for kind in (int, float):
            try:
                settings[key] = kind(value)
                break
            except ValueError:
                continue
        else:
            settings[key] = value
    return name, settings


class Timed:
    """A bot whose decisions are timed in CPU seconds of the deciding thread; only decisions
    with a choice (more than one legal action) are kept."""

    def __init__(self, bot: Any, rules: Any) -> None:
        self.bot, self.rules = bot, rules
        self.times: list[float] = []

    def choose(self, view: Any, seat: int) -> Any:
        start = time.thread_time()
        action = self.bot.choose(view, seat)
        spent = time.thread_time() - start
        if len(self.rules.legal_actions(view)) > 1:
            self.times.append(round(spent, 4))
        return action


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def play_game(task: tuple[str, int, dict[str, Any], int, int, list[str], float | None]) -> dict[str, Any]:
    game_name, players, options, run_seed, index, lineup, think = task
    entry = get_game(game_name)
    config = entry.rules.make_config(players, options)
    seed = game_seed(run_seed, index)
    shift = index % players
    seats = lineup[shift:] + lineup[:shift]
    bots = []
    for i, spec in enumerate(seats):
        name, settings = parse_bot(spec)
        if think is not None and "think" not in settings:
            settings["think"] = think
        bots.append(Timed(entry.make_bot(name, bot_rng(seed, i), **settings), entry.rules))
    start = time.perf_counter()
    game = LocalGame(entry.rules, config, seed)
    outcome = game.play_out(bots, checked=False)
    return {
        "index": index,
        "seed": seed,
        "seats": seats,
        "winners": list(outcome.winners),
        "scores": list(outcome.scores),
        "turns": outcome.turns,
        "end": outcome.end,
        "figures": entry.report.figures(game.history, outcome),
        "seconds": round(time.perf_counter() - start, 2),
        "cpu": [bot.times for bot in bots],
    }


def logged_games(args: argparse.Namespace, lineup: list[str]) -> dict[int, dict[str, Any]]:
    """The games of this match that ``--log`` already holds (for ``--resume``).

    A line counts when its game number is below ``--games``, its seed is the one this run gives
    that game, and its seats are the line-up rotated as this run would rotate it. The game and its
    options are not in older lines: resume a log only with the arguments that wrote it.
    """
    found: dict[int, dict[str, Any]] = {}
    try:
        with open(args.log) as f:
            lines = f.readlines()
    except FileNotFoundError:
        return found
    for line in lines:
        try:
            result = json.loads(line)
            index = int(result["index"])
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short when a run was stopped
        shift = index % args.players
        if (0 <= index < args.games and result.get("seed") == game_seed(args.seed, index)
                and result.get("seats") == lineup[shift:] + lineup[:shift]):
            found[index] = result
    return found


def run_match(args: argparse.Namespace, lineup: list[str], pool: Any) -> dict[str, Any]:
    options = parse_options(args.option)
    logged = logged_games(args, lineup) if args.resume else {}
    tasks = [
        (args.game, args.players, options, args.seed, i, lineup, args.think)
        for i in range(args.games) if i not in logged
    ]
    if logged:
        print(f"  {len(logged)} games read back from {args.log}, {len(tasks)} to play", flush=True)
    wins: dict[str, float] = defaultdict(float)
    seat_games: dict[str, int] = defaultdict(int)
    #: per bot, games that a seat of it won (a line-up that seats a bot twice: its team's share)
    team_wins: dict[str, int] = defaultdict(int)
    cpu: dict[str, list[float]] = defaultdict(list)
    tally = Tally(get_game(args.game).report)
    start = time.time()
    log = open(args.log, "a+") if args.log else None  # noqa: SIM115
    if log and log.tell():
        log.seek(log.tell() - 1)
        if log.read(1) != "\n":
            log.write("\n")  # a line cut short when a run was stopped stays apart from the next
    played = pool.imap_unordered(play_game, tasks)
    for done, result in enumerate(itertools.chain(logged.values(), played), 1):
        for seat, spec in enumerate(result["seats"]):
            seat_games[spec] += 1
            cpu[spec].extend(result["cpu"][seat])
            if seat in result["winners"]:
                wins[spec] += 1
        for spec in {result["seats"][q] for q in result["winners"]}:
            team_wins[spec] += 1
        tally.add(result["seats"], result["turns"], result["end"], result["figures"])
        if log and result["index"] not in logged:
            log.write(json.dumps(result) + "\n")
            log.flush()
        if args.progress and done % args.progress == 0:
            focal = lineup[0]
            print(
                f"  {done}/{args.games} games, {focal} won {wins[focal]:.0f}, "
                f"{time.time() - start:.0f}s",
                flush=True,
            )
    if log:
        log.close()
    return {"lineup": lineup, "wins": dict(wins), "seat_games": dict(seat_games),
            "team_wins": dict(team_wins), "games": args.games, "cpu": dict(cpu),
            "seconds": time.time() - start, "tally": tally, "resumed": len(logged)}


def describe(game: str, spec: str, think: float | None) -> str:
    """What a bot spec stands for: ``hard`` -> ``hard = ismcts, think 1.0``."""
    name, settings = parse_bot(spec)
    kind = name
    entry = get_game(game)
    if name in entry.levels:
        kind, preset = entry.levels[name]
        settings = {**preset, **settings}
        name = f"{name} = {kind}"
    if think is not None and "think" not in settings and kind == "ismcts":
        settings["think"] = think
    return name + "".join(f", {k} {v}" for k, v in settings.items())


def print_table(args: argparse.Namespace, match: dict[str, Any]) -> None:
    lineup = match["lineup"]
    print(f"\n{args.game}, {args.players} players, {args.games} games, seed {args.seed}, "
          f"{args.workers} workers, {match['seconds'] / 60:.1f} min wall"
          + (f" (the {match['games'] - match['resumed']} games this run played)" if match["resumed"] else ""))
    for spec in dict.fromkeys(lineup):
        print(f"  {describe(args.game, spec, args.think)}")
    print(f"| {'bot':<40} | seat-games | wins | win rate | 95% CI |")
    print(f"|{'-' * 42}|-----------:|-----:|---------:|:------:|")
    for spec in dict.fromkeys(lineup):
        n = match["seat_games"].get(spec, 0)
        w = match["wins"].get(spec, 0.0)
        lo, hi = wilson(w, n)
        rate = w / n if n else 0.0
        print(f"| {spec:<40} | {n:>10} | {w:>4.0f} | {rate:>8.1%} | {lo:.1%}-{hi:.1%} |")
    games = match["games"]
    for spec in dict.fromkeys(lineup):
        if lineup.count(spec) > 1:
            w = match["team_wins"].get(spec, 0)
            lo, hi = wilson(w, games)
            print(f"  games won by a seat of {spec}: {w}/{games} = {w / games:.1%} ({lo:.1%}-{hi:.1%})")
    for spec in dict.fromkeys(lineup):
        xs = match["cpu"].get(spec, [])
        if xs:
            print(f"  {spec}: CPU s a decision with a choice, over {len(xs)}: median "
                  f"{percentile(xs, 0.5):.3f}, 95th percentile {percentile(xs, 0.95):.3f}, "
                  f"most {max(xs):.3f}")
    for line in match["tally"].lines():
        print(f"  {line}")
    if args.row:
        print(ladder_row(args, match))
    sys.stdout.flush()


def ladder_row(args: argparse.Namespace, match: dict[str, Any]) -> str:
    """The README's ladder row of a match: the first bot against the others."""
    lineup = match["lineup"]
    focal = lineup[0]
    rest = [b for b in lineup if b != focal]
    against = f"{len(rest)} {rest[0]}" if len(set(rest)) == 1 else ", ".join(rest)
    n = match["seat_games"].get(focal, 0)
    w = match["wins"].get(focal, 0.0)
    lo, hi = wilson(w, n)
    name = get_game(args.game).rules.title.split(":")[0]
    options = f" ({', '.join(args.option)})" if args.option else ""
    return (f"| {name}{options} | {focal} vs {against} | {w:.0f}/{n} | "
            f"{w / n if n else 0:.1%} ({lo:.1%}-{hi:.1%}) |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200, help="games per match")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lineup", action="append", default=[], help="comma-separated bot per seat")
    p.add_argument("--round-robin", default="", help="comma-separated bots: every ordered pair")
    p.add_argument("--think", type=float, default=None, help="CPU seconds per search decision")
    p.add_argument("--option", action="append", default=[], help="a rules option, NAME or NAME=N")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--log", default="", help="append one JSON line per game to this file")
    p.add_argument("--resume", action="store_true",
                   help="take the games --log already holds for this match and play the rest")
    p.add_argument("--progress", type=int, default=0, help="print a line every N games")
    p.add_argument("--row", action="store_true", help="after each match, its README ladder row")
    args = p.parse_args(argv)

    lineups = [[b.strip() for b in lu.split(",") if b.strip()] for lu in args.lineup]
    if args.round_robin:
        kinds = [b.strip() for b in args.round_robin.split(",") if b.strip()]
        lineups += [[a] + [b] * (args.players - 1) for a in kinds for b in kinds if a != b]
    if not lineups:
        p.error("give --lineup or --round-robin")
    if args.resume and not args.log:
        p.error("--resume reads the games of --log: give --log")
    for lu in lineups:
        if len(lu) != args.players:
            p.error(f"line-up {','.join(lu)} names {len(lu)} bots for {args.players} players")
    with multiprocessing.Pool(args.workers) as pool:
        for lu in lineups:
            print_table(args, run_match(args, lu, pool))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
