"""Plays of Condottiere that a player would find senseless, named.

``senseless(state, action, seat)`` names the reason (``""``: the play makes sense). It reads a
full state or a seat's view: strengths are ``bots.estimated_strengths`` (a face-down card the
state does not show counts as an average mercenary; in a full state they are the true ones).

``pass-lost-decider``
    a pass that leaves the battle while not leading it, in a battle that decides the game (the
    final battle, or one whose leader, or the seat itself, wins the game by taking the region),
    holding a card that would put the seat alone in the lead at once (a defender's free pass,
    which does not leave the battle, is not one);
``surrender-lost``
    a Surrender that ends the battle with another seat alone in the lead;
``bishop-self-harm``
    a Bishop that takes the seat's own strongest mercenary and leaves the seat worse placed in
    the battle (its strength less the best other's goes down).

The search bot (``engine.search.condottiere``) never plays one while it has a sensible move, and
``report`` counts them.
"""

from __future__ import annotations

from engine.condottiere import rules
from engine.condottiere.bots import estimated_strengths
from engine.condottiere.cards import BISHOP, MERC_STRENGTH, SURRENDER, largest_group
from engine.condottiere.measures import thresholds
from engine.condottiere.state import NONE, Action, State

PASS_LOST_DECIDER = "pass-lost-decider"
SURRENDER_LOST = "surrender-lost"
BISHOP_SELF_HARM = "bishop-self-harm"
KINDS = (PASS_LOST_DECIDER, SURRENDER_LOST, BISHOP_SELF_HARM)


def _margin(strengths: list[float], seat: int) -> float:
    return strengths[seat] - max(x for q, x in enumerate(strengths) if q != seat)


def _leader(strengths: list[float]) -> int:
    best = max(strengths)
    return strengths.index(best) if strengths.count(best) == 1 else -1


def _wins_game(s: State, seat: int) -> bool:
    if seat < 0 or s.battle < 0:
        return False
    total, adjacent = thresholds(s)
    mask = s.regions_of(seat) | (1 << s.battle)
    return largest_group(mask) >= adjacent or mask.bit_count() >= total


def deciding(s: State, seat: int) -> bool:
    """Whether the battle under way decides the game (see the module docstring)."""
    if s.final:
        return True
    return _wins_game(s, _leader(estimated_strengths(s))) or _wins_game(s, seat)


def could_lead(s: State, seat: int) -> bool:
    """Whether one play from ``seat``'s hand would put it alone in the lead at once."""
    for a in rules.legal_actions(s):
        if a.kind != "play" or a.card == SURRENDER:
            continue
        after = rules.apply_unchecked(s, a._replace(flip=NONE))
        if _margin(estimated_strengths(after), seat) > 0:
            return True
    return False


def _bishop_hurts(s: State, a: Action, seat: int, now: list[float]) -> bool:
    top = max((MERC_STRENGTH[c] for line in s.lines for c, up in line if up and 0 <= c < 7), default=0)
    own = any(up and 0 <= c < 7 and MERC_STRENGTH[c] == top for c, up in s.lines[seat])
    if not top or not own:
        return False
    after = rules.apply_unchecked(s, a._replace(flip=NONE))
    return _margin(estimated_strengths(after), seat) < _margin(now, seat)


def senseless(s: State, a: Action, seat: int) -> str:
    """Why ``seat`` playing ``a`` in ``s`` (a battle's turn) is senseless, or ``""``."""
    if s.phase != "play" or a.kind not in ("pass", "play"):
        return ""
    now = estimated_strengths(s)
    if a.kind == "pass":
        free = seat == s.defender and s.free
        if not free and _margin(now, seat) <= 0 and deciding(s, seat) and could_lead(s, seat):
            return PASS_LOST_DECIDER
    elif a.card == SURRENDER:
        lead = _leader(now)
        if lead >= 0 and lead != seat:
            return SURRENDER_LOST
    elif a.card == BISHOP and _bishop_hurts(s, a, seat, now):
        return BISHOP_SELF_HARM
    return ""
