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
"""

from __future__ import annotations

from engine.core import UNKNOWN
from engine.medici.state import NO_CARD, Alliance, State


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
