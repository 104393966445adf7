#!/usr/bin/env python3
"""Engine benchmark: the rules' steps a second against references, random games a second, and
the cost of one step.

**Steps a second.** One loop drives every engine, the rules alone: a chance step samples an
outcome by its probability (``engine.core.sample_chance``), a reveal takes the one legal action,
a decision picks uniformly among the legal actions, and the action is applied without checks.
Every step counts (deal, draws, decisions). It runs, in turns within each of ``--runs`` runs, on
each game of ``engine.registry.game_names()`` (4 players), on the minimal engine
``scripts/minimal_engine.py`` (the floor of a game in this style), and, given ``--openspiel``
(a Python that imports ``pyspiel``), on OpenSpiel's pure-Python ``python_team_dominoes`` in
that interpreter. Each run's figures are steps per CPU second of the process that ran them;
the ratios are taken within a run and their median is shown.

The same games are also played as ``palazzo sim`` plays them (``LocalGame.play_out``: a random
bot decides from its seat's view, the history is kept) and their steps a second are put beside
the same references (``played from views``): the references have no views to make.

**Games a second.** Random bots play whole 4-player games as ``palazzo sim`` does (a view per
decision, the history kept); only ``play_out`` is timed: the report figures of each game are
computed after its clock stops.

**One step.** Over the decision points of some random games, the median time to list the legal
actions and to apply one of them through the checked door (``apply``) and the fast path
(``apply_unchecked``).

    .venv/bin/python scripts/bench_engine.py [--games 100] [--runs 5] [--seed 1]
        [--openspiel /tmp/osvenv/bin/python]

Gate (exit status 1 below it): Court of the Medici takes at least 0.2 of the minimal engine's
steps a second, and, when OpenSpiel is measured, at least 1.0 of team dominoes'.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import minimal_engine  # noqa: E402

from engine.core import CHANCE, REVEAL, TERMINAL, LocalGame, sample_chance  # noqa: E402
from engine.registry import GameEntry, game_names, get_game  # noqa: E402
from engine.sim import bot_rng, game_seed, play_one  # noqa: E402

PLAYERS = 4
#: the name of a game's figure in the loop that ``palazzo sim`` plays
PLAYED = "played from views"
#: the gate: Court of the Medici's steps a second over each reference's, at least
GATE = {"minimal": 0.2, "dominoes": 1.0}

#: the steps loop on OpenSpiel's team dominoes, run by the ``--openspiel`` interpreter: the
#: same loop as ``random_steps`` (``sample_chance`` is read from this checkout's engine)
DOMINOES = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import pyspiel
from open_spiel.python.games import team_dominoes  # noqa: F401 (registers the game)
from engine.core import sample_chance
game = pyspiel.load_game("python_team_dominoes")
def play(rng):
    s, steps = game.new_initial_state(), 0
    while not s.is_terminal():
        if s.is_chance_node():
            a = sample_chance(s.chance_outcomes(), rng)
        else:
            a = rng.choice(s.legal_actions())
        s.apply_action(a)
        steps += 1
    return steps
play(random.Random(0))
for line in sys.stdin:
    games, seed = map(int, line.split())
    rng = random.Random(seed)
    t = time.process_time()
    steps = sum(play(rng) for _ in range(games))
    print(json.dumps([steps, time.process_time() - t]), flush=True)
"""


def random_steps(rules: Any, new_game: Callable[[], Any], games: int, seed: int) -> tuple[int, float]:
    """Steps taken and CPU seconds spent by ``games`` random games of ``rules``."""
    rng = random.Random(seed)
    current, chance, legal, apply = (
        rules.current_player, rules.chance_outcomes, rules.legal_actions, rules.apply_unchecked)
    steps = 0
    t = time.process_time()
    for _ in range(games):
        s = new_game()
        while (who := current(s)) != TERMINAL:
            if who == CHANCE:
                a = sample_chance(chance(s), rng)
            elif who == REVEAL:
                a = legal(s)[0]
            else:
                a = rng.choice(legal(s))
            s = apply(s, a)
            steps += 1
    return steps, time.process_time() - t


def played_steps(entry: GameEntry, config: object, games: int, seed: int) -> tuple[int, float]:
    """Steps taken and CPU seconds spent by ``games`` random games played as ``palazzo sim``
    plays them (``LocalGame.play_out``: each bot decides from its seat's view, the history is
    kept); only ``play_out`` is timed."""
    steps, cpu = 0, 0.0
    for i in range(games):
        one_seed = game_seed(seed, i)
        game = LocalGame(entry.rules, config, one_seed)
        bots = [entry.make_bot("random", bot_rng(one_seed, k)) for k in range(PLAYERS)]
        t = time.process_time()
        game.play_out(bots, checked=False)
        cpu += time.process_time() - t
        steps += len(game.history)
    return steps, cpu


class Dominoes:
    """OpenSpiel's team dominoes in a process of the given interpreter, run on demand."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", DOMINOES, str(ROOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True)

    def steps(self, games: int, seed: int) -> tuple[int, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{games} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the OpenSpiel process stopped (does that Python import pyspiel?)")
        steps, cpu = json.loads(line)
        return int(steps), float(cpu)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def steps_per_second(args: argparse.Namespace) -> bool:
    """Print each engine's steps a CPU second and the ratios of each game to the references;
    whether Court of the Medici meets the gate."""
    engines: dict[str, tuple[Callable[[int], tuple[int, float]], int]] = {}
    for name in game_names():
        entry = get_game(name)
        rules = entry.rules
        config = rules.make_config(PLAYERS, {})
        engines[name] = (lambda seed, rules=rules, config=config: random_steps(
            rules, lambda: rules.new_game(config), args.games, seed), args.games)
        engines[f"{name} {PLAYED}"] = (lambda seed, entry=entry, config=config: played_steps(
            entry, config, args.games, seed), args.games)
    engines["minimal"] = (lambda seed: random_steps(
        minimal_engine, minimal_engine.new_game, 2 * args.games, seed), 2 * args.games)
    dominoes = Dominoes(args.openspiel) if args.openspiel else None
    if dominoes is not None:
        engines["dominoes"] = (lambda seed: dominoes.steps(4 * args.games, seed), 4 * args.games)
    rates: dict[str, list[float]] = {name: [] for name in engines}
    try:
        for run, _ in engines.values():
            run(args.seed)  # warm up
        for r in range(args.runs):
            for name, (run, _) in engines.items():
                steps, cpu = run(args.seed + r)
                rates[name].append(steps / cpu)
    finally:
        if dominoes is not None:
            dominoes.close()
    for name, (_, games) in engines.items():
        label = {"minimal": "the minimal engine", "dominoes": "OpenSpiel's python_team_dominoes"}
        print(f"steps a CPU second: {label.get(name, name)}: {statistics.median(rates[name]):.0f} "
              f"(median of {args.runs} runs of {games} games: "
              f"{', '.join(f'{x:.0f}' for x in rates[name])})")
    ok = True
    refs = [ref for ref in ("minimal", "dominoes") if ref in rates]
    for name in [n for game in game_names() for n in (game, f"{game} {PLAYED}")]:
        for ref in refs:
            ratio = statistics.median(a / b for a, b in zip(rates[name], rates[ref], strict=True))
            line = f"steps a second: {name} / {ref} = {ratio:.3f}"
            if name == "medici":
                passed = ratio >= GATE[ref]
                ok &= passed
                line += f" (gate {GATE[ref]}: {'met' if passed else 'NOT met'})"
            print(line)
    if dominoes is None:
        print("steps a second: OpenSpiel not measured (give --openspiel PYTHON)")
    return ok


def games_per_second(entry: GameEntry, config: object, games: int, run_seed: int) -> tuple[float, float]:
    """Random games per second of wall-clock time and of this process's CPU time, counting only
    the play (``play_out``); each game's report figures are computed after its clock stops."""
    bots = ["random"] * PLAYERS
    wall = cpu = 0.0
    for i in range(games):
        seed = game_seed(run_seed, i)
        game = LocalGame(entry.rules, config, seed)
        players = [entry.make_bot(name, bot_rng(seed, k)) for k, name in enumerate(bots)]
        w, c = time.perf_counter(), time.process_time()
        outcome = game.play_out(players, checked=False)
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
        if entry.report is not None:
            entry.report.figures(game.history, outcome)
    return games / wall, games / cpu


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


def median_us(fn: Callable[[Any], object], items: list, repeat: int = 3) -> float:
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
    p.add_argument("--games", type=int, default=100, help="games per run (default 100)")
    p.add_argument("--runs", type=int, default=5, help="runs per figure; the median is shown")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--openspiel", metavar="PYTHON",
                   help="a Python that imports pyspiel: measure OpenSpiel's team dominoes")
    args = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    ok = steps_per_second(args)
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
              f"apply {checked:.1f} us (checked door), {fast:.1f} us (unchecked): "
              f"checked / unchecked = {checked / fast:.1f}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
