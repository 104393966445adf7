"""What a finished game of Condottiere says about how it was played.

``figures(history, outcome)`` reads a game's history (``engine.core.Step``: who acted, what,
and the full state before) and returns plain data: ``moves`` (per seat, its plays and passes in
battles), ``ender`` (-1: a Condottiere game ends by the board, not by one seat's choice) and
``seats``, per seat, counts of its plays and of the plays a player would find senseless. The
strengths are the true ones (face-down cards counted), as the table sees them at the showdown:

``passes``, ``surrenders``, ``bishops``
    how often the seat passed, played a Surrender, played a Bishop;
``pass_lost_decider``
    a pass that left the battle while not leading it, in a battle that decides the game (the
    final battle, or one whose leader, or the seat itself, wins the game by taking the region),
    holding a card that would have put the seat in the lead at once;
``surrender_lost``
    a Surrender that ended the battle with another seat alone in the lead;
``bishop_self_harm``
    a Bishop that took the seat's own strongest mercenary and left the seat worse placed in
    the battle (its strength less the best other's went down).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.condottiere import rules
from engine.condottiere.cards import BISHOP, MERC_STRENGTH, SURRENDER, largest_group
from engine.condottiere.measures import line_strengths, thresholds
from engine.condottiere.state import State
from engine.core import Outcome

FIELDS = ("passes", "pass_lost_decider", "surrenders", "surrender_lost", "bishops", "bishop_self_harm")
SHARES = (
    ("passes that lost a deciding battle", "pass_lost_decider", "passes"),
    ("surrenders that lost the battle", "surrender_lost", "surrenders"),
    ("Bishops that hurt their player", "bishop_self_harm", "bishops"),
)


def _margin(strengths: list[int], seat: int) -> int:
    return strengths[seat] - max(x for q, x in enumerate(strengths) if q != seat)


def _leader(strengths: list[int]) -> int:
    best = max(strengths)
    return strengths.index(best) if strengths.count(best) == 1 else -1


def _wins_game(s: State, seat: int) -> bool:
    if seat < 0 or s.battle < 0:
        return False
    total, adjacent = thresholds(s.config)
    mask = s.regions_of(seat) | (1 << s.battle)
    return largest_group(mask) >= adjacent or mask.bit_count() >= total


def deciding(s: State, seat: int) -> bool:
    """Whether the battle under way decides the game (see the module docstring)."""
    if s.final:
        return True
    return _wins_game(s, _leader(line_strengths(s.lines))) or _wins_game(s, seat)


def could_lead(s: State, seat: int) -> bool:
    """Whether one play from ``seat``'s hand would put it alone in the lead at once."""
    for a in rules.legal_actions(s):
        if a.kind != "play" or a.card == SURRENDER:
            continue
        after = rules.apply_unchecked(s, a._replace(flip=-1))
        if _margin(line_strengths(after.lines), seat) > 0:
            return True
    return False


def figures(history: Sequence[Any], outcome: Outcome) -> dict[str, Any]:
    n = len(outcome.scores)
    moves = [0] * n
    seats = [dict.fromkeys(FIELDS, 0) for _ in range(n)]
    for step in history:
        a, s = step.action, step.before
        if step.actor < 0 or a.kind not in ("pass", "play"):
            continue
        seat = a.seat
        moves[seat] += 1
        counts = seats[seat]
        now = line_strengths(s.lines)
        if a.kind == "pass":
            counts["passes"] += 1
            free = seat == s.defender and s.free
            if not free and _margin(now, seat) <= 0 and deciding(s, seat) and could_lead(s, seat):
                counts["pass_lost_decider"] += 1
        elif a.card == SURRENDER:
            counts["surrenders"] += 1
            lead = _leader(now)
            if lead >= 0 and lead != seat:
                counts["surrender_lost"] += 1
        elif a.card == BISHOP:
            counts["bishops"] += 1
            if _bishop_hurts(s, a, seat, now):
                counts["bishop_self_harm"] += 1
    return {"moves": moves, "ender": -1, "ender_lost": 0, "seats": seats}


def _bishop_hurts(s: State, a: Any, seat: int, now: list[int]) -> bool:
    top = max((MERC_STRENGTH[c] for line in s.lines for c, up in line if up and 0 <= c < 7), default=0)
    own = any(up and 0 <= c < 7 and MERC_STRENGTH[c] == top for c, up in s.lines[seat])
    if not top or not own:
        return False
    after = rules.apply_unchecked(s, a._replace(flip=-1))
    return _margin(line_strengths(after.lines), seat) < _margin(now, seat)
