"""What a finished game of Court of the Medici says about how it was played.

``figures(history, outcome)`` reads a game's history (``engine.core.Step``: who acted, what,
and the full state before) and returns plain data:

``moves``   per seat, its turns of play (court, build, conspire, strike, plan, stuck);
``ender``   the seat whose turn ended the game (-1 when it ended otherwise);
``ender_lost``  1 when that seat chose to end it (its strike took a seat's last shadow alliance)
            and is not among the winners: a thoughtful player does not end a game it loses;
``seats``   per seat, counts: ``strikes`` and ``fizzled`` (strikes that eliminated nothing).

A game that ended because a seat had no card it could play was not ended by choice, so its
``ender`` is -1. ``FIELDS`` names the per-seat counts, ``SHARES`` the ratios that
``engine.report`` prints from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Outcome
from engine.medici import rules

PLAY_KINDS = frozenset(("court", "build", "conspire", "strike", "plan", "stuck"))
FIELDS = ("strikes", "fizzled")
#: (name, numerator, denominator) over the summed per-seat counts
SHARES: tuple[tuple[str, str, str], ...] = (("fizzled strikes", "fizzled", "strikes"),)


def figures(history: Sequence[Any], outcome: Outcome) -> dict[str, Any]:
    n = len(outcome.scores)
    moves = [0] * n
    seats = [dict.fromkeys(FIELDS, 0) for _ in range(n)]
    last = -1
    for step in history:
        a = step.action
        if step.actor < 0:
            continue
        if a.kind in PLAY_KINDS:
            moves[a.seat] += 1
            last = a.seat
        if a.kind == "strike":
            seats[a.seat]["strikes"] += 1
        elif a.kind == "resolve" and a.elim < 0:
            seats[a.seat]["fizzled"] += 1
    chosen = outcome.end in (rules.END_ALLIANCES, rules.END_ALL_STRUCK)
    ender = last if chosen else -1
    return {
        "moves": moves,
        "ender": ender,
        "ender_lost": int(ender >= 0 and ender not in outcome.winners),
        "seats": seats,
    }
