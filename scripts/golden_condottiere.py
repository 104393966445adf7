#!/usr/bin/env python3
"""Golden per-seat playthroughs of Condottiere: regenerate or check them.

For a few fixed seeds, greedy bots play a whole game; for each seat a text file tells the game
step by step as that seat hears it (``text.action_text`` with ``viewer=seat``), with a short
summary of the seat's view before each of its decisions: its hand, every battle line as it
sees it (``##`` for a face-down card it may not know, ``(10)`` for its own), the strengths
everyone sees, and who holds which region. A card that leaks to a seat that may not know it
shows as a one-line diff.

    .venv/bin/python scripts/golden_condottiere.py          # rewrite tests/engine/condottiere/golden/
    .venv/bin/python scripts/golden_condottiere.py --check  # exit 1 if a file differs
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from _golden import main as golden_main  # noqa: E402
from _golden import transcript  # noqa: E402

from engine.condottiere import RULES, CondottiereConfig  # noqa: E402
from engine.condottiere.bots import GreedyBot  # noqa: E402
from engine.condottiere.cards import NAMES, REGIONS  # noqa: E402
from engine.condottiere.measures import announced_strengths  # noqa: E402
from engine.condottiere.state import State  # noqa: E402
from engine.condottiere.text import SEAT_NAMES  # noqa: E402
from engine.core import UNKNOWN, LocalGame  # noqa: E402
from engine.sim import bot_rng  # noqa: E402

GOLDEN = ROOT / "tests" / "engine" / "condottiere" / "golden"
#: (players, seed, options) of the games kept as golden files: a plain game of three, and a
#: game of two with Hidden Cards, whose face-down cards each seat must not learn
GAMES: tuple[tuple[int, int, dict[str, Any]], ...] = (
    (3, 1, {}),
    (2, 3, {"hidden_cards": True}),
)


def play(players: int, seed: int, options: dict[str, Any]) -> LocalGame[Any, Any, Any]:
    game: LocalGame[Any, Any, Any] = LocalGame(RULES, CondottiereConfig(players, **options), seed)
    game.play_out([GreedyBot(bot_rng(seed, i)) for i in range(players)])
    return game


def _card(c: int, up: int) -> str:
    if c == UNKNOWN:
        return "##"
    return NAMES[c] if up else f"({NAMES[c]})"


def view_summary(v: State, seat: int) -> list[str]:
    """What ``seat`` knows of the table: its hand, the lines, the strengths, the regions."""
    hand = ", ".join(_card(c, 1) for c in v.hands[seat]) or "nothing"
    lines = [f"hand: {hand}"]
    for q, line in enumerate(v.lines):
        held = f"{len(v.hands[q])} cards" if q != seat else "you"
        cards = ", ".join(_card(c, up) for c, up in line) or "-"
        lines.append(f"{SEAT_NAMES[q]} ({held}): {cards}")
    shown = ", ".join(f"{SEAT_NAMES[q]} {x}" for q, x in enumerate(announced_strengths(v)))
    lines.append(f"strength shown: {shown}")
    held_regions = [f"{REGIONS[r]} {SEAT_NAMES[o]}" for r, o in enumerate(v.owner) if o >= 0]
    lines.append("regions: " + (", ".join(held_regions) or "none"))
    return lines


def playthrough(game: LocalGame[Any, Any, Any], options: dict[str, Any], seat: int) -> str:
    """The game as ``seat`` saw it."""
    n = game.config.players
    named = "".join(f", option {o}" for o in sorted(options))
    header = (f"Condottiere, {n} players{named}, seed {game.seed}, greedy bots: "
              f"the game as {SEAT_NAMES[seat]} (seat {seat}) sees it")
    end = RULES.outcome(game.state).end
    return transcript(game, seat, header, SEAT_NAMES, view_summary, end)


def golden_files() -> dict[Path, str]:
    """Every golden file's path and the text it should hold."""
    out = {}
    for players, seed, options in GAMES:
        game = play(players, seed, options)
        tag = "".join(f"-{o.replace('_', '-')}" for o in sorted(options))
        for seat in range(players):
            name = f"condottiere-{players}p-seed{seed}{tag}-{SEAT_NAMES[seat].lower()}.txt"
            out[GOLDEN / name] = playthrough(game, options, seat)
    return out


def main(argv: list[str] | None = None) -> int:
    return golden_main(__doc__ or "", ROOT, GOLDEN, golden_files, argv)


if __name__ == "__main__":
    raise SystemExit(main())
