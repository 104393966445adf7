#!/usr/bin/env python3
"""Golden per-seat playthroughs of Court of the Medici: regenerate or check them.

For a few fixed seeds, bots play a whole game; for each seat a text file tells the game
step by step as that seat hears it (``text.action_text`` with ``viewer=seat``), with a short
summary of the seat's view before each of its decisions. A card that leaks to a seat that may
not know it shows as a one-line diff.

    .venv/bin/python scripts/golden_medici.py          # rewrite tests/engine/medici/golden/
    .venv/bin/python scripts/golden_medici.py --check  # exit 1 if a file differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import LocalGame  # noqa: E402
from engine.medici import RULES, MediciConfig  # noqa: E402
from engine.medici.bots import GreedyBot, RandomBot  # noqa: E402
from engine.medici.cards import HOUSES  # noqa: E402
from engine.medici.text import view_summary  # noqa: E402
from engine.sim import bot_rng  # noqa: E402

GOLDEN = ROOT / "tests" / "engine" / "medici" / "golden"
#: (players, seed, bots, end_when_all_struck) of the games kept as golden files: a short game
#: of greedy bots, and a long one of random bots that empties the decks
GAMES = ((4, 7, "greedy", False), (3, 1, "random", True))
BOTS = {"greedy": GreedyBot, "random": RandomBot}


def play(players: int, seed: int, bots: str, end_when_all_struck: bool) -> LocalGame:
    game: LocalGame = LocalGame(RULES, MediciConfig(players, end_when_all_struck), seed)
    game.play_out([BOTS[bots](bot_rng(seed, i)) for i in range(players)])
    return game


def playthrough(game: LocalGame, bots: str, seat: int) -> str:
    """The game as ``seat`` saw it."""
    n = game.config.players
    option = ", option end_when_all_struck" if game.config.end_when_all_struck else ""
    lines = [
        f"Court of the Medici, {n} players{option}, seed {game.seed}, {bots} bots: "
        f"the game as {HOUSES[seat]} (seat {seat}) sees it",
        "",
    ]
    for i, step in enumerate(game.history, 1):
        if step.actor == seat:
            lines += ["", *("    " + x for x in view_summary(RULES.view(step.before, seat), seat))]
        lines.append(f"{i:4} {game.text(step, viewer=seat)}")
    outcome = RULES.outcome(game.state)
    lines += [
        "",
        *("    " + x for x in view_summary(RULES.view(game.state, seat), seat)),
        "",
        "scores: " + ", ".join(f"{HOUSES[i]} {s}" for i, s in enumerate(outcome.scores)),
        "winners: " + ", ".join(HOUSES[w] for w in outcome.winners)
        + f" ({outcome.detail['text']}, after {outcome.turns} turns)",
    ]
    return "\n".join(lines) + "\n"


def golden_files() -> dict[Path, str]:
    """Every golden file's path and the text it should hold."""
    out = {}
    for players, seed, bots, option in GAMES:
        game = play(players, seed, bots, option)
        for seat in range(players):
            name = f"medici-{players}p-seed{seed}-{HOUSES[seat].replace(' ', '-').lower()}.txt"
            out[GOLDEN / name] = playthrough(game, bots, seat)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    files = golden_files()
    if args.check:
        stale = [p for p, text in files.items() if not p.exists() or p.read_text() != text]
        for p in stale:
            print(f"differs: {p.relative_to(ROOT)}")
        return 1 if stale else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for p, text in files.items():
        p.write_text(text)
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
