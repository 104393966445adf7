"""Court of the Medici in words: stack labels, action texts and a state summary.

``action_text(state, action, viewer)`` says what ``action`` does in ``state`` as the seat
``viewer`` may hear it (``None``: everything, for a referee): what ``viewer`` learns of it is
``engine.medici.view.public_action``'s to decide, and a card it may not know is "a card".
Slots are numbered 1 to 3 for people; stacks have letters that never change (A, B, ..., Z, AA,
AB, ...).

Every function here terminates on any int it is given and says something for it: a value no
state can hold (a stack number below 0, a card outside the deck) is written as a number, so an
error message about a hostile action can always be written.
"""

from __future__ import annotations

from engine.core import UNKNOWN
from engine.medici.cards import HOUSES, JESTER, RANKS, long_name, short_name
from engine.medici.state import Action, Stack, State
from engine.medici.view import draw_shown, public_action


def stack_label(sid: int) -> str:
    """``A`` for stack 0, ``Z`` for 25, ``AA`` for 26; ``#-2`` for a number no stack has."""
    if sid < 0:
        return f"#{sid}"
    label = ""
    n = sid + 1
    while n > 0:  # n falls by a factor of 26 each time round
        n, r = divmod(n - 1, 26)
        label = chr(65 + r) + label
    return label


def parse_stack_label(label: str) -> int:
    n = 0
    for ch in label.upper():
        if not "A" <= ch <= "Z":
            raise ValueError(f"not a stack label: {label!r}")
        n = n * 26 + (ord(ch) - 64)
    if n == 0:
        raise ValueError("empty stack label")
    return n - 1


def played(card: int, value: int) -> str:
    """``Noble 4``, ``Jester as 5``."""
    if card >= 0 and card % RANKS == JESTER:
        return f"Jester as {value}"
    return short_name(card)


def stack_text(stack: Stack) -> str:
    """``Orsini Noble 4 + Colonna Jester(5) = 9``."""
    _, total, cards = stack
    parts = [
        long_name(c) + (f"({v})" if c % RANKS == JESTER else "") for c, v in cards
    ]
    return " + ".join(parts) + f" = {total}"


def _house(seat: int) -> str:
    return HOUSES[seat] if 0 <= seat < len(HOUSES) else f"seat {seat}"


def _known(card: int) -> str:
    return "a card" if card == UNKNOWN else short_name(card)


def action_text(state: State, a: Action, viewer: int | None = None) -> str:
    who = _house(a.seat)
    if viewer is not None:
        a = public_action(state, a, viewer)
    k = a.kind
    if k == "draw":
        if draw_shown(state, a.seat):
            return f"{who} draws the last card of the deck and shows it: {short_name(a.card)}"
        return f"{who} draws {_known(a.card)}"
    if k == "first":
        return f"{who} goes first (a tie for the highest face-up total, decided by lot)"
    if k == "hide":
        what = _known(a.card)
        before = "itself" if a.before == a.seat else _house(a.before)
        return f"{who} places {what} face down before {before}"
    if k == "top":
        what = _known(a.card)
        return f"{who} places {what} on shadow alliance {a.slot + 1}"
    if k == "flip":
        return f"{who} turns up {short_name(a.card)} on shadow alliance {a.slot + 1}"
    if k == "court":
        return f"{who}: sends {played(a.card, a.value)} to court (stack {stack_label(state.next_sid)})"
    if k == "build":
        return f"{who}: alliance, {played(a.card, a.value)} onto stack {stack_label(a.stack)}"
    if k == "conspire":
        return (
            f"{who}: conspiracy, {played(a.card, a.value)} onto stack {stack_label(a.stack)}, "
            f"eliminating stack {stack_label(a.elim)}"
        )
    if k == "strike":
        return f"{who}: strike with {played(a.card, a.value)} on shadow alliance {a.slot + 1}"
    if k == "plan":
        what = _known(a.card)
        return f"{who}: plans for the future, {what} under the deck"
    if k == "reveal":
        return f"{who} reveals the hidden card: {long_name(a.card)}"
    if k == "resolve":
        return f"{who}: {_resolve_text(state, a)}"
    if k == "stuck":
        return f"{who} holds no card it may play: the game ends"
    return repr(a)


def _resolve_text(state: State, a: Action) -> str:
    declared = []
    if state.pending is not None and 0 <= state.pending[0] < 3:
        slot, _, _, hidden = state.pending
        alliance = state.alliances[state.turn][slot]
        if alliance is not None and alliance[2] % RANKS == JESTER:
            declared.append(f"the face-up Jester as {a.value}")
        if hidden >= 0 and hidden % RANKS == JESTER:
            declared.append(f"the hidden Jester as {a.extra}")
    head = ("declares " + " and ".join(declared) + "; ") if declared else ""
    if a.elim < 0:
        return head + "no stack matches, the strike fizzles"
    return head + f"the strike eliminates stack {stack_label(a.elim)}"


def summary(state: State) -> str:
    """One line about the position, for error messages."""
    if state.phase == "over":
        return f"the game is over ({state.end})"
    who = _house(state.turn)
    return (
        f"phase {state.phase}, {who} to act, turn {state.turns + 1}, "
        f"{len(state.middle)} stacks in the middle"
    )


def _card_or_unknown(c: int) -> str:
    return "?" if c < 0 else long_name(c)


def view_summary(view: State, seat: int) -> list[str]:
    """A few lines about the position as ``seat`` sees it in ``view`` (a state from
    ``view(state, seat)``): its hand and deck, everyone's shadow alliances, the middle."""
    n = view.players
    hand = view.hands[seat]
    deck = len(view.pools[seat]) + len(view.bottoms[seat])
    mine = f"hand: {', '.join(short_name(c) for c in hand) or 'empty'}; deck {deck}"
    if view.bottoms[seat]:
        mine += " (planned under it: " + ", ".join(short_name(c) for c in view.bottoms[seat]) + ")"
    if view.limits[seat] >= 0:
        mine += f"; may play up to {view.limits[seat]}"
    others = []
    for i in range(n):
        if i == seat:
            continue
        shown = [c for c in view.hands[i] if c >= 0]
        size = len(view.pools[i]) + len(view.bottoms[i])
        part = f"{HOUSES[i]} {len(view.hands[i])} in hand, deck {size}"
        if shown:
            part += f", showing {short_name(shown[0])}"
        if view.limits[i] >= 0:
            part += f", up to {view.limits[i]}"
        others.append(part)
    rows = []
    for holder in range(n):
        slots = []
        for a in view.alliances[holder]:
            if a is None:
                slots.append("empty" if view.phase in ("deal", "hide") else "gone")
            elif a[2] < 0:
                slots.append("? over ?" if a[1] < 0 else f"? over {long_name(a[1])}")
            else:
                top = short_name(a[2]) + ("" if a[3] else " (face down)")
                slots.append(f"{top} over {_card_or_unknown(a[1])}")
        rows.append(f"{HOUSES[holder]} [{' | '.join(slots)}]")
    middle = "; ".join(f"{stack_label(st[0])} {stack_text(st)}" for st in view.middle) or "empty"
    return [
        mine,
        "others: " + "; ".join(others),
        "shadow alliances: " + "; ".join(rows),
        "middle: " + middle,
    ]
