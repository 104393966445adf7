"""What one seat may know: ``view(state, seat)`` masks every other card with ``UNKNOWN``.

Hidden from a seat (see ``docs/rules/medici.md``, "Hidden information"):

* other seats' hands, except a deck's last card while its owner still holds it (it was shown);
* the order of every deck: pools stay multisets. A seat's own pool is kept, since the seat can
  work out which of its house's cards it holds (they are all the house's cards it cannot see
  elsewhere); other pools and other seats' bottom cards become ``UNKNOWN``;
* the hidden card of a shadow alliance, except to the seat that placed it;
* a top card before it is turned face up, except to its holder.

Everything else (the middle, eliminated cards, face-up cards, a strike under way, hand and deck
sizes, limits) is public.

What a seat learns of an action: ``public_action(state, action, seat)``, the one place that
decides it (the search's observations, the log's words, the wire form of a networked move and
the checked door on a view all ask it). The relation, checked at every step of the conformance
games for every seat (``tests/engine/test_public_action.py``), with ``m = public_action(state,
action, seat)``:

* the author learns its action whole: ``m == action`` when ``seat == action.seat``;
* another seat learns ``action`` with the card it may not see ``UNKNOWN`` and every other field
  as it is: the card of a draw (except the last card of a deck, which is shown), and the card
  placed by a ``hide``, a ``top`` or a ``plan`` (``FACE_DOWN``); ``draw_shown(state, seat)``
  says when a draw is shown;
* ``m`` is decided by what ``seat`` sees: ``public_action(view(state, seat), action, seat) ==
  m``, and masking again changes nothing;
* ``m`` is enough to follow the game: applying it to ``seat``'s view gives a state whose view
  for ``seat`` is ``view(after, seat)``;
* ``m`` tells ``seat`` no more than its views do: in any full state that ``seat``'s view before
  the step leaves open, if some action there leaves ``seat`` with the same view after the step,
  one of those actions has the form ``m``.

A number that is no seat (the host's ``-1``, an observer's seat after the last) learns what
every seat but the author learns: the public form, the one that travels on the wire.
"""

from __future__ import annotations

from engine.core import UNKNOWN
from engine.medici.state import NO_CARD, Action, Alliance, State

#: the moves whose card goes face down: only their author knows it
FACE_DOWN: frozenset[str] = frozenset(("hide", "top", "plan"))
_new = tuple.__new__


def _masked_hand(hand: tuple[int, ...], shown: int) -> tuple[int, ...]:
    if shown != NO_CARD and shown in hand:
        return (UNKNOWN,) * (len(hand) - 1) + (shown,)
    return (UNKNOWN,) * len(hand)


def _masked_row(
    row: tuple[Alliance | None, ...], holder: int, seat: int
) -> tuple[Alliance | None, ...]:
    """A holder's three slots as ``seat`` sees them (the same tuple when nothing is hidden)."""
    out: list[Alliance | None] = []
    changed = False
    for a in row:
        if a is not None:
            placer, hidden, top, up = a
            mask_hidden = placer != seat and hidden >= 0
            mask_top = not up and holder != seat and top >= 0
            if mask_hidden or mask_top:
                a = (placer, UNKNOWN if mask_hidden else hidden, UNKNOWN if mask_top else top, up)
                changed = True
        out.append(a)
    return tuple(out) if changed else row


def view(state: State, seat: int) -> State:
    v = state.copy()
    v.hands = tuple(
        h if i == seat else _masked_hand(h, state.shown[i]) for i, h in enumerate(state.hands)
    )
    v.pools = tuple(p if i == seat else (UNKNOWN,) * len(p) for i, p in enumerate(state.pools))
    v.bottoms = tuple(
        b if i == seat else (UNKNOWN,) * len(b) for i, b in enumerate(state.bottoms)
    )
    v.alliances = tuple(_masked_row(row, holder, seat) for holder, row in enumerate(state.alliances))
    if state.pending is not None and state.pending[3] != NO_CARD:
        # a revealed hidden card is public: show it in its slot
        slot = state.pending[0]
        row = v.alliances[state.turn]
        a = row[slot]
        if a is not None:
            row = row[:slot] + ((a[0], state.pending[3], a[2], a[3]),) + row[slot + 1 :]
            v.alliances = v.alliances[:state.turn] + (row,) + v.alliances[state.turn + 1 :]
    return v


def draw_shown(state: State, seat: int) -> bool:
    """Whether the card ``seat`` draws now is shown to all: the last card of its deck."""
    return 0 <= seat < len(state.pools) and len(state.pools[seat]) + len(state.bottoms[seat]) == 1


def public_action(state: State, action: Action, seat: int) -> Action:
    """What ``seat`` learns of ``action`` taken in ``state`` (a full state or any seat's view):
    the card it may not see becomes ``UNKNOWN`` (see the module docstring)."""
    if seat == action.seat or action.card == UNKNOWN:
        return action
    k = action.kind
    if k == "draw":
        if draw_shown(state, action.seat):
            return action
    elif k not in FACE_DOWN:
        return action
    return _new(Action, (k, action.seat, UNKNOWN) + action[3:])
