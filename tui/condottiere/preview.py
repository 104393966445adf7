"""What a Condottiere card does to the battle, worked out by the rules themselves.

``result(view, action, seat)`` applies the play to the seat's view (``rules.apply_unchecked``)
and words the strengths it leaves: the seat's own (its face-down cards counted, as only it
knows them) and the strongest other line as everyone sees it (face-up cards only), with what a
Bishop discards. A Surrender ends the battle as the lines stand. Nothing here adds strengths by
hand, so a preview cannot disagree with the move.
"""

from __future__ import annotations

from engine.condottiere import rules
from engine.condottiere.cards import BISHOP, SURRENDER
from engine.condottiere.state import NONE, Action, State
from engine.words import plural
from tui.condottiere.render import own_strength, strengths


def after(s: State, a: Action) -> State:
    """The seat's view right after its play ``a`` (no face-down card turned up yet)."""
    return rules.apply_unchecked(s, a._replace(flip=NONE))


def strengths_after(s: State, a: Action, seat: int) -> tuple[int, int]:
    """The seat's strength and the strongest other line's after play ``a``."""
    new = s if a.card == SURRENDER else after(s, a)
    shown = strengths(new, seat)
    mine = own_strength(new, seat)
    others = [x for i, x in enumerate(shown) if i != seat]
    return (shown[seat] if mine is None else mine), max(others, default=0)


def result(s: State, a: Action, seat: int) -> str:
    """``-> you 14, best other 12``; a Bishop adds what it discards; a Surrender says the battle
    ends there; "" for anything but a play."""
    if a.kind != "play":
        return ""
    mine, other = strengths_after(s, a, seat)
    words = f"-> you {mine}, best other {other}"
    if a.card == BISHOP:
        new = after(s, a)
        gone = sum(map(len, s.lines)) - sum(map(len, new.lines))
        words += f"; discards {plural(gone, 'card')}" if gone else "; discards nothing"
    elif a.card == SURRENDER:
        words = f"-> the battle ends: you {mine}, best other {other}"
    return words
