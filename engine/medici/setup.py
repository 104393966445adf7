"""The set-up's choices ahead of a seat's turn: every seat may make them at once.

In phases ``hide`` and ``top`` the seats place their cards one after the other, yet what each
may place depends only on its own hand and its own placements:

* ``hide``: a seat places one card of its hand face down before each holder it owes one (every
  other house, and its own too at three players); the slot it fills in a holder's row is its
  own (``(seat - holder - 1) % players``), which no other seat's placement touches;
* ``top``: a seat puts one card of its hand on each of its own shadow alliances; the rows are
  all made once ``hide`` is over.

So a seat may choose them all before its turn comes, and they stay legal when it comes.
``choices(view, seat, queued)`` gives the set-up actions ``seat`` may choose now in ``view``
(a state or a seat's view: only the seat's own hand is read), after its own ``queued`` ones:
the same actions, in the same order, that ``legal_actions`` gives when its turn comes;
``after(view, seat, queued)`` the seat's own part of the view as it will be then (its hand and
its placements). Nothing here reads another seat's hidden card. ``placed(view)`` counts each seat's placements of the
phase, for a table to show who has placed.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.medici import rules
from engine.medici.state import NO_CARD, Action, State

#: the phases whose choices every seat may make at once
PHASES = ("hide", "top")


def placed(s: State) -> tuple[int, ...]:
    """Each seat's placements so far in phase ``hide`` or ``top`` (3 is done); () otherwise."""
    n = s.players
    if s.phase == "hide":
        return tuple(sum(1 for h in range(n) if (h != seat or n == 3)
                         and s.alliances[h][(seat - h - 1) % n] is not None)
                     for seat in range(n))
    if s.phase == "top":
        return tuple(sum(1 for a in s.alliances[seat] if a is not None and a[2] != NO_CARD)
                     for seat in range(n))
    return ()


def owed(s: State) -> int:
    """The placements every seat makes in the phase."""
    return 3 if s.phase in PHASES else 0


def _ahead(s: State, seat: int, a: Action) -> State:
    """``s`` after ``seat``'s own placement ``a``, still in the phase, ``seat`` to place (the
    other seats' placements touch nothing the seat's choices depend on)."""
    t = rules.apply_unchecked(s, a)
    t.phase, t.turn = s.phase, seat
    return t


def after(s: State, seat: int, queued: Sequence[Action]) -> State:
    """``s`` as ``seat`` will find its own part of it at its turn: after its ``queued``
    placements, still in the phase, ``seat`` to place; ``ValueError`` naming a queued action
    that is not one of its choices."""
    t = s.copy()
    t.turn = seat
    for i, a in enumerate(queued):
        if placed(t)[seat] >= owed(s) or a not in rules.legal_actions(t):
            raise ValueError(f"queued action {i + 1} ({a!r}) is not a set-up choice of seat "
                             f"{seat} now")
        t = _ahead(t, seat, a)
    return t


def choices(s: State, seat: int, queued: Sequence[Action] = ()) -> list[Action]:
    """The set-up actions ``seat`` may choose now in phase ``hide`` or ``top``, ahead of its
    turn, after its own ``queued`` ones ([] in any other phase, or once it has placed all);
    ``ValueError`` naming a queued action that is not one of them."""
    if s.phase not in PHASES or not 0 <= seat < s.players:
        return []
    t = after(s, seat, queued)
    if placed(t)[seat] >= owed(s):
        return []
    return rules.legal_actions(t)
