"""What a finished game of Condottiere says about how it was played.

``figures(history, outcome)`` reads a game's history (``engine.core.Step``: who acted, what,
and the full state before) and returns plain data: ``moves`` (per seat, its plays and passes in
battles), ``ender`` (-1: a Condottiere game ends by the board, not by one seat's choice) and
``seats``, per seat, counts: ``passes``, ``surrenders``, ``bishops``, and the senseless plays
of ``sense`` (judged on the full state, so with the true strengths): ``pass_lost_decider``,
``surrender_lost``, ``bishop_self_harm``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.condottiere import sense
from engine.condottiere.cards import BISHOP, SURRENDER
from engine.core import Outcome

FIELDS = ("passes", "pass_lost_decider", "surrenders", "surrender_lost", "bishops", "bishop_self_harm")
#: (name, numerator, denominator) over the summed per-seat counts
SHARES: tuple[tuple[str, str, str], ...] = (
    ("passes that lost a deciding battle", "pass_lost_decider", "passes"),
    ("surrenders that lost the battle", "surrender_lost", "surrenders"),
    ("Bishops that hurt their player", "bishop_self_harm", "bishops"),
)


def figures(history: Sequence[Any], outcome: Outcome) -> dict[str, Any]:
    n = len(outcome.scores)
    moves = [0] * n
    seats = [dict.fromkeys(FIELDS, 0) for _ in range(n)]
    for step in history:
        a = step.action
        if step.actor < 0 or a.kind not in ("pass", "play"):
            continue
        moves[a.seat] += 1
        counts = seats[a.seat]
        if a.kind == "pass":
            counts["passes"] += 1
        elif a.card == SURRENDER:
            counts["surrenders"] += 1
        elif a.card == BISHOP:
            counts["bishops"] += 1
        why = sense.senseless(step.before, a, a.seat)
        if why:
            counts[why.replace("-", "_")] += 1
    return {"moves": moves, "ender": -1, "ender_lost": 0, "seats": seats}
