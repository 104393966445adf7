"""What a finished game of Court of the Medici says about how it was played.

``figures(history, outcome)`` reads a game's history (``engine.core.Step``: who acted, what,
and the full state before) and returns plain data:

``moves``   per seat, its turns of play (court, build, conspire, strike, plan, stuck);
``ender``   the seat whose turn ended the game (-1 when it ended otherwise);
``ender_lost``  1 when that seat chose to end it (its strike took a seat's last shadow alliance)
            and is not among the winners: a thoughtful player does not end a game it loses;
``seats``   per seat, counts: ``strikes`` and ``fizzled`` (strikes that eliminated nothing),
            and the strikes by kind (``strike_kind``).

A strike's kind is decided from what the striker could know when it struck: the values its
face-up card and the hidden card may take (``rules._strike_sums``: the hidden card as the
striker may know it, any card of its placer's house not seen elsewhere otherwise), the value
the striker played, and the totals of the stacks in the middle. A strike is ``hopeless`` when
no such value makes a stack's total: whatever the hidden card, it cannot eliminate. The legal
moves of today's rules hold no hopeless strike (``rules.legal_actions`` offers a strike only
when some value makes a total), so the count is a check on histories from anywhere. Hopeless
strikes are split by whether the striker led alone by influence in the middle
(``sense.leads``) and whether the strike took its last shadow alliance and so ended the game
(``sense.ends_game``):

``hopeless_lead_end``    leading, ended the game (a leader ending the game sooner);
``hopeless_lead``        leading, the game went on;
``hopeless_behind_end``  not leading, ended the game;
``hopeless_behind``      not leading, the game went on;
``hopeless_free``        hopeless, not leading, and the seat had a move other than a strike;
``unlucky``              a strike that could have eliminated and fizzled: the hidden card (or
                         the Jester values declared) made no stack's total;
``worse_odds``           a strike that could eliminate while another legal strike had a greater
                         chance to (``elimination_chance``: over the hidden cards its striker
                         could not rule out, weighed by their unseen copies).

A game that ended because a seat had no card it could play was not ended by choice, so its
``ender`` is -1. ``FIELDS`` names the per-seat counts, ``SHARES`` the ratios that
``engine.report`` prints from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Outcome
from engine.medici import rules, sense
from engine.medici.cards import COPIES, RANKS
from engine.medici.state import Action, State

PLAY_KINDS = frozenset(("court", "build", "conspire", "strike", "plan", "stuck"))
HOPELESS_LEAD_END = "hopeless_lead_end"
HOPELESS_LEAD = "hopeless_lead"
HOPELESS_BEHIND_END = "hopeless_behind_end"
HOPELESS_BEHIND = "hopeless_behind"
HOPELESS_FREE = "hopeless_free"
UNLUCKY = "unlucky"
WORSE_ODDS = "worse_odds"
HOPELESS_KINDS = (HOPELESS_LEAD_END, HOPELESS_LEAD, HOPELESS_BEHIND_END, HOPELESS_BEHIND)
FIELDS = ("strikes", "fizzled", *HOPELESS_KINDS, HOPELESS_FREE, UNLUCKY, WORSE_ODDS)
#: (name, numerator, denominator) over the summed per-seat counts
SHARES: tuple[tuple[str, str, str], ...] = (
    ("fizzled strikes", "fizzled", "strikes"),
    ("unlucky", UNLUCKY, "strikes"),
    ("worse odds than another strike", WORSE_ODDS, "strikes"),
    ("hopeless leading+ending", HOPELESS_LEAD_END, "strikes"),
    ("hopeless leading", HOPELESS_LEAD, "strikes"),
    ("hopeless behind+ending", HOPELESS_BEHIND_END, "strikes"),
    ("hopeless behind", HOPELESS_BEHIND, "strikes"),
    ("hopeless behind, not forced", HOPELESS_FREE, "strikes"),
)


def can_eliminate(s: State, a: Action) -> bool:
    """Whether strike ``a`` in ``s`` may make a stack's total for some hidden card its striker
    cannot rule out (and some value of each Jester)."""
    alliance = s.alliances[a.seat][a.slot]
    if alliance is None:
        return False
    totals = {total for _, total, _ in s.middle}
    return any(a.value + x in totals for x in rules._strike_sums(s, a.seat, alliance))


def elimination_chance(s: State, a: Action) -> float:
    """The chance that strike ``a`` in ``s`` can eliminate a stack, over the hidden cards its
    striker cannot rule out (``rules.possible_hidden``), weighed by their unseen copies."""
    alliance = s.alliances[a.seat][a.slot]
    if alliance is None:
        return 0.0
    totals = {total for _, total, _ in s.middle}
    top = rules._RANK_VALUES[alliance[2] % RANKS]
    seen = rules._public_counts(s, alliance[0])
    hit = weight = 0
    for h in rules.possible_hidden(s, a.seat, alliance):
        w = 1 if alliance[0] == a.seat and alliance[1] >= 0 else COPIES[h % RANKS] - seen[h % RANKS]
        if w <= 0:
            continue
        weight += w
        if any(a.value + tv + hv in totals for tv in top for hv in rules._RANK_VALUES[h % RANKS]):
            hit += w
    return hit / weight if weight else 0.0


def strike_kind(s: State, a: Action) -> str:
    """The hopeless kind of strike ``a`` in ``s`` (``HOPELESS_KINDS``), or ``""`` when it may
    eliminate."""
    if can_eliminate(s, a):
        return ""
    lead = sense.leads(s, a.seat)
    end = sense.ends_game(s, a, a.seat)
    if lead:
        return HOPELESS_LEAD_END if end else HOPELESS_LEAD
    return HOPELESS_BEHIND_END if end else HOPELESS_BEHIND


def worse_odds(s: State, a: Action) -> bool:
    """Whether another legal strike in ``s`` had a greater chance to eliminate than ``a``."""
    mine = elimination_chance(s, a)
    return any(
        elimination_chance(s, x) > mine + 1e-9
        for x in rules.legal_actions(s)
        if x.kind == "strike" and x != a
    )


def forced(s: State) -> bool:
    """Whether every legal move of the seat on turn is a strike."""
    return all(x.kind == "strike" for x in rules.legal_actions(s))


def figures(history: Sequence[Any], outcome: Outcome) -> dict[str, Any]:
    n = len(outcome.scores)
    moves = [0] * n
    seats = [dict.fromkeys(FIELDS, 0) for _ in range(n)]
    last = -1
    hopeful = False  # the strike under way could have eliminated
    for step in history:
        a = step.action
        if step.actor < 0:
            continue
        if a.kind in PLAY_KINDS:
            moves[a.seat] += 1
            last = a.seat
        if a.kind == "strike":
            c = seats[a.seat]
            c["strikes"] += 1
            kind = strike_kind(step.before, a)
            hopeful = not kind
            if kind:
                c[kind] += 1
                if kind in (HOPELESS_BEHIND, HOPELESS_BEHIND_END) and not forced(step.before):
                    c[HOPELESS_FREE] += 1
            elif worse_odds(step.before, a):
                c[WORSE_ODDS] += 1
        elif a.kind == "resolve" and a.elim < 0:
            seats[a.seat]["fizzled"] += 1
            seats[a.seat][UNLUCKY] += int(hopeful)
    chosen = outcome.end in (rules.END_ALLIANCES, rules.END_ALL_STRUCK)
    ender = last if chosen else -1
    return {
        "moves": moves,
        "ender": ender,
        "ender_lost": int(ender >= 0 and ender not in outcome.winners),
        "seats": seats,
    }
