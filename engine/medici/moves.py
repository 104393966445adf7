"""The actions of Court of the Medici's play phase, each made once and then kept.

An action is an immutable tuple, so the same object may stand in every list of legal actions
that holds it. ``legal_actions`` lists some fifty actions a decision; building each anew was
most of its cost. Here a card at one value (``CardMoves``) keeps its court, its strike on each
alliance slot, its build on each stack and its conspiracies, made the first time they are
asked for; ``card_moves`` gives a card's moves under a seat's limit, with its plan.

The tables only grow, and a build table is replaced, never changed in place, when it grows: a
thread reading the old one still reads correct actions. They stay small: one entry per card,
value and stack number (stack numbers stay far below ``MAX_STACK``), and per card and value at
most ``KEPT_CONSPIRACIES`` conspiracies (the others are made when asked for).
"""

from __future__ import annotations

from engine.core import UNKNOWN
from engine.medici.cards import CARDS, HOUSES, JESTER, JESTER_MAX, RANK_VALUE, RANKS
from engine.medici.state import NO_LIMIT, NONE, Action

_new = tuple.__new__
#: how many stack numbers a build table holds at first (a game reaches a few dozen)
_FIRST_STACKS = 64
#: how many conspiracies a card at one value keeps (pairs of stack numbers are many more)
KEPT_CONSPIRACIES = 512


class CardMoves:
    """The play actions of seat ``seat`` playing ``card`` as ``value``: ``court``, ``strikes``
    (one per alliance slot), ``builds`` (by stack number, see ``builds_upto``) and conspiracies
    (``conspire``)."""

    __slots__ = ("seat", "card", "value", "court", "strikes", "builds", "_conspires")

    def __init__(self, seat: int, card: int, value: int) -> None:
        self.seat, self.card, self.value = seat, card, value
        self.court: Action = _new(Action, ("court", seat, card, value, NONE, NONE, NONE, NONE, 0))
        self.strikes: tuple[Action, ...] = tuple(
            _new(Action, ("strike", seat, card, value, NONE, k, NONE, NONE, 0)) for k in range(3))
        self.builds: list[Action] = self._builds(0, _FIRST_STACKS)
        self._conspires: dict[int, Action] = {}

    def _builds(self, start: int, stop: int) -> list[Action]:
        seat, card, value = self.seat, self.card, self.value
        return [_new(Action, ("build", seat, card, value, NONE, NONE, sid, NONE, 0))
                for sid in range(start, stop)]

    def builds_upto(self, sid: int) -> list[Action]:
        """The build table, long enough to hold stack ``sid``."""
        builds = self.builds
        if sid >= len(builds):
            builds = self.builds = builds + self._builds(len(builds), max(sid + 1, 2 * len(builds)))
        return builds

    def conspire(self, sid: int, elim: int) -> Action:
        """The conspiracy on stack ``sid`` that eliminates stack ``elim`` (the first
        ``KEPT_CONSPIRACIES`` met are kept)."""
        key = sid * 1024 + elim
        kept = self._conspires
        a = kept.get(key)
        if a is None:
            a = _new(Action, ("conspire", self.seat, self.card, self.value, NONE, NONE, sid, elim, 0))
            if len(kept) < KEPT_CONSPIRACIES:
                a = kept.setdefault(key, a)
        return a


def values(c: int, limit: int = NO_LIMIT) -> range:
    """The values card ``c`` may be played as under ``limit``."""
    r = c % RANKS
    if r == JESTER:
        top = JESTER_MAX if limit == NO_LIMIT else min(JESTER_MAX, limit)
        return range(1, top + 1)
    v = RANK_VALUE[r]
    if limit != NO_LIMIT and v > limit:
        return range(0)
    return range(v, v + 1)


_BY_VALUE: dict[int, CardMoves] = {}
#: ``card_moves`` by its key, ``(seat * CARDS + card) * 17 + limit + 1``
BY_LIMIT: dict[int, tuple[tuple[CardMoves, ...], Action]] = {}


def _moves_at(seat: int, card: int, value: int) -> CardMoves:
    key = (seat * CARDS + card) * 16 + value
    m = _BY_VALUE.get(key)
    if m is None:
        m = _BY_VALUE.setdefault(key, CardMoves(seat, card, value))
    return m


def card_moves(seat: int, card: int, limit: int) -> tuple[tuple[CardMoves, ...], Action]:
    """The moves of ``card`` (not ``UNKNOWN``) in ``seat``'s hand under ``limit``, one per value
    it may be played as (none when the limit forbids it), and its plan."""
    key = (seat * CARDS + card) * 17 + limit + 1
    got = BY_LIMIT.get(key)
    if got is None:
        moves = tuple(_moves_at(seat, card, v) for v in values(card, limit))
        plan = _new(Action, ("plan", seat, card, 0, NONE, NONE, NONE, NONE, 0))
        got = BY_LIMIT.setdefault(key, (moves, plan))
    return got


#: a plan of a card the state does not show, per seat
UNKNOWN_PLANS: tuple[Action, ...] = tuple(
    _new(Action, ("plan", seat, UNKNOWN, 0, NONE, NONE, NONE, NONE, 0)) for seat in range(len(HOUSES)))

#: per seat, the draw of each card by that seat, at ``card + 1`` (``UNKNOWN`` first: the draw of
#: a card the state does not show)
DRAWS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(_new(Action, ("draw", seat, c, 0, NONE, NONE, NONE, NONE, 0)) for c in range(UNKNOWN, CARDS))
    for seat in range(len(HOUSES)))
