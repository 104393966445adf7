"""What both games' golden playthrough scripts share: one seat's transcript, and the command.

A transcript is a header line, then every step of the game as ``seat`` hears it, with a summary
of the seat's view before each of its own decisions and at the end, then the scores and the
winners. ``main`` rewrites the golden files, or with ``--check`` lists the ones that differ.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def transcript(
    game: Any,
    seat: int,
    header: str,
    names: Sequence[str],
    summary: Callable[[Any, int], list[str]],
    end_text: str,
) -> str:
    """The game as ``seat`` saw it, told with the seat names ``names``."""
    rules = game.rules
    lines = [header, ""]
    for i, step in enumerate(game.history, 1):
        if step.actor == seat:
            lines += ["", *("    " + x for x in summary(rules.view(step.before, seat), seat))]
        lines.append(f"{i:4} {game.text(step, viewer=seat)}")
    outcome = rules.outcome(game.state)
    lines += [
        "",
        *("    " + x for x in summary(rules.view(game.state, seat), seat)),
        "",
        "scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(outcome.scores)),
        "winners: " + ", ".join(names[w] for w in outcome.winners)
        + f" ({end_text}, after {outcome.turns} turns)",
    ]
    return "\n".join(lines) + "\n"


def main(doc: str, root: Path, golden: Path, files: Callable[[], dict[Path, str]],
         argv: list[str] | None = None) -> int:
    """Write every golden file, or with ``--check`` exit 1 naming those that differ."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    texts = files()
    if args.check:
        stale = [p for p, text in texts.items() if not p.exists() or p.read_text() != text]
        for p in stale:
            print(f"differs: {p.relative_to(root)}")
        return 1 if stale else 0
    golden.mkdir(parents=True, exist_ok=True)
    for p, text in texts.items():
        p.write_text(text)
        print(f"wrote {p.relative_to(root)}")
    return 0
