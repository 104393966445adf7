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

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from _golden import main as golden_main  # noqa: E402
from _golden import transcript  # noqa: E402

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
    header = (f"Court of the Medici, {n} players{option}, seed {game.seed}, {bots} bots: "
              f"the game as {HOUSES[seat]} (seat {seat}) sees it")
    end = RULES.outcome(game.state).detail["text"]
    return transcript(game, seat, header, HOUSES, view_summary, end)


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
    return golden_main(__doc__ or "", ROOT, GOLDEN, golden_files, argv)


if __name__ == "__main__":
    raise SystemExit(main())
