"""Whether one action is legal now, found without listing the others: the checked door's test.

``is_legal(s, a)`` equals ``a in rules.legal_actions(s)`` for every well-formed action ``a``
(an ``Action`` of a known kind with int fields, as ``game.apply`` lets through), on full states
and on views alike; ``tests/engine/medici/test_legality.py`` holds it to that list on random
positions and actions. In the play phase and the two set-up phases it looks only at what ``a``
names:

* **play**: the seat on turn; with no card it may play, only ``stuck``. Otherwise the card in
  its hand and one of the values the card may take under the seat's limit (``rules._values``);
  a court; a build on a stack in the middle; a conspiracy on a stack that eliminates another
  whose total is the first one's plus the value; a strike on an alliance slot of the seat still
  standing, when the value and a total its two cards may make (``rules._strike_bits``) come to
  a stack's total; a plan while the seat's deck has a card, of a card it may play or of a card
  this state does not show (``UNKNOWN``).
* **hide**: a card of the hand before a holder whose slot for the seat is still empty (never
  the seat itself, except with three players).
* **top**: a card of the hand on one of the seat's own slots that has no top card yet.

Every other field must hold its default, as in the listed actions. The chance steps, the
reveal and the resolution of a strike have short lists: ``a`` is looked up in them.
"""

from __future__ import annotations

from engine.core import UNKNOWN
from engine.medici import rules
from engine.medici.moves import UNKNOWN_PLANS, card_moves
from engine.medici.state import NO_CARD, NONE, Action, State, mk

_new = tuple.__new__


def is_legal(s: State, a: Action) -> bool:
    """Whether ``a`` (well-formed) is one of ``rules.legal_actions(s)``."""
    phase = s.phase
    if phase == "play":
        return _play_legal(s, a)
    if phase == "hide":
        return _hide_legal(s, a)
    if phase == "top":
        return _top_legal(s, a)
    return a in rules.legal_actions(s)


def _play_legal(s: State, a: Action) -> bool:
    seat = s.turn
    if a.seat != seat:
        return False
    if not rules.can_play(s, seat):
        return a == mk("stuck", seat)
    kind, c = a.kind, a.card
    if c not in s.hands[seat]:
        return False
    deck = bool(s.pools[seat] or s.bottoms[seat])
    if c == UNKNOWN:
        return deck and a == UNKNOWN_PLANS[seat]
    moves, plan = card_moves(seat, c, s.limits[seat])
    if not moves:
        return False
    if kind == "plan":
        return deck and a == plan
    v = a.value
    for m in moves:
        if m.value == v:
            break
    else:
        return False
    if kind == "court":
        return a == m.court
    if kind == "build":
        return s.stack(a.stack) is not None and a == _new(
            Action, ("build", seat, c, v, NONE, NONE, a.stack, NONE, 0))
    if kind == "conspire":
        built, gone = s.stack(a.stack), s.stack(a.elim)
        return (built is not None and gone is not None and a.stack != a.elim
                and gone[1] == built[1] + v
                and a == _new(Action, ("conspire", seat, c, v, NONE, NONE, a.stack, a.elim, 0)))
    if kind == "strike":
        k = a.slot
        if not 0 <= k < 3:
            return False
        alliance = s.alliances[seat][k]
        if alliance is None or a != m.strikes[k]:
            return False
        tbits = 0
        for _, total, _ in s.middle:
            tbits |= 1 << total
        return bool(rules._strike_bits(s, seat, alliance) & (tbits >> v))
    return False


def _hide_legal(s: State, a: Action) -> bool:
    seat, n, holder = s.turn, s.players, a.before
    return (a.seat == seat and a.card in s.hands[seat] and 0 <= holder < n
            and (holder != seat or n == 3)
            and s.alliances[holder][(seat - holder - 1) % n] is None
            and a == mk("hide", seat, card=a.card, before=holder))


def _top_legal(s: State, a: Action) -> bool:
    seat, k = s.turn, a.slot
    if a.seat != seat or a.card not in s.hands[seat] or not 0 <= k < 3:
        return False
    alliance = s.alliances[seat][k]
    return (alliance is not None and alliance[2] == NO_CARD
            and a == mk("top", seat, card=a.card, slot=k))
