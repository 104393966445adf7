"""Court of the Medici in plain words for the table's log.

``narrate(before, action, after, seat, names)`` tells one step as ``seat`` may hear it. Both
states are that seat's views and the action is told as ``engine.medici.view.public_action``
says the seat learns it, so nothing here can leak a card the seat may not know: a card is named
only when the view around the step shows it, or the seat learnt it from the action.

Whatever the action's numbers, narrating it ends and says something (a seat or a stack no
table has is told by its number): the log never stops a table.

The last line of a game names why it ended and, when the end is one house's, which house (the
end screen's words).

Set-up chatter is folded: the deal is one line, the top cards turning up is one line. Every
face-down placement is told, the other seats' without their card ("Colonna places a card face
down before Orsini"): where it went is public, what it is is not. A strike is announced when it
is made and told in full when it resolves, with the hidden card and what it eliminated; a
Minister's wipe names every card it eliminates, a Lady's split every stack it leaves.

``marks(before, action, after, seat)`` says what the step touched on the table, for the table
to mark until the next move: ``("stack", sid)`` for a stack made, built on or split, and
``("alliance", holder, slot)`` for a shadow alliance placed on or striking; ``None`` for a step
that is not a move (a draw, a reveal, the set-up's turning up), which keeps the last move's
marks. A stack that was eliminated is gone from the table: the log names it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import UNKNOWN
from engine.medici.cards import JESTER, RANK_VALUE, RANKS, long_name, short_name
from engine.medici.game import END_TEXT
from engine.medici.rules import END_ALLIANCES, END_STUCK, first_candidates
from engine.medici.state import Action, State
from engine.medici.text import stack_label
from engine.medici.view import draw_shown, public_action


def card_text(card: int, value: int | None = None) -> str:
    """``Gonzaga Noble 9``, ``Orsini Jester(5)``."""
    text = long_name(card)
    if value is not None and card >= 0 and card % RANKS == JESTER:
        text += f"({value})"
    return text


def stack_words(stack: tuple) -> str:
    """``stack C (Orsini Noble 4 + Colonna Jester(5) = 9)``."""
    sid, total, cards = stack
    inner = " + ".join(card_text(c, v) for c, v in cards)
    return f"stack {stack_label(sid)} ({inner} = {total})"


def _played(card: int, value: int) -> str:
    if card >= 0 and card % RANKS == JESTER:
        return f"Jester as {value}"
    return short_name(card)


def narrate(
    before: State, a: Action, after: State, seat: int, names: Sequence[str]
) -> list[str]:
    lines = _lines(before, a, after, seat, names)
    if after.phase == "over" and before.phase != "over":
        lines.append(f"The game ends: {_end_words(after, names)}.")
    return lines


def _end_words(after: State, names: Sequence[str]) -> str:
    """Why the game ended, naming the house when the end is one house's (as the end screen does)."""
    if after.end == END_ALLIANCES:
        gone = [_name(names, h) for h in range(after.players)
                if all(a is None for a in after.alliances[h])]
        if gone:
            verb = "has" if len(gone) == 1 else "have"
            return f"{' and '.join(gone)} {verb} no shadow alliance left"
    if after.end == END_STUCK and 0 <= after.turn < after.players:
        return f"{_name(names, after.turn)} starts a turn with no card it can play"
    return END_TEXT.get(after.end, after.end)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _lines(before: State, a: Action, after: State, seat: int, names: Sequence[str]) -> list[str]:
    who = _name(names, a.seat)
    k = a.kind
    if not 0 <= a.seat < before.players:
        return [f"{who}: {k}"]
    a = public_action(before, a, seat)
    known = a.card != UNKNOWN
    if k == "draw":
        return _draw(before, a, after, seat, who)
    if k == "hide":
        what = short_name(a.card) if known else "a card"
        where = "itself" if a.before == a.seat else _name(names, a.before)
        return [f"{who} places {what} face down before {where}."]
    if k == "top":
        if known:
            return [f"{who} places {short_name(a.card)} on shadow alliance {a.slot + 1}."]
        return [f"{who} places a card face down on its shadow alliance {a.slot + 1}."]
    if k == "flip":
        if before.phase == "flip" and any(
            x is not None and x[3] for row in before.alliances for x in row
        ):
            return _first_player(after, names)
        return ["Every top card is turned face up."] + _first_player(after, names)
    if k == "first":
        return [f"A lot decides between the tied houses: {who} plays first."]
    if k == "court":
        return [
            f"{who} sends {_played(a.card, a.value)} to court: new stack "
            f"{stack_label(before.next_sid)} ({a.value})."
        ]
    if k == "build":
        return [_build(before, a, after, who)]
    if k == "conspire":
        st = before.stack(a.stack)
        victim = before.stack(a.elim)
        total = (st[1] if st else 0) + a.value
        return [
            f"{who} conspires: {_played(a.card, a.value)} onto stack {stack_label(a.stack)}, "
            f"now {total}; {stack_words(victim) if victim else 'a stack'} is eliminated."
        ]
    if k == "strike":
        return [
            f"{who} strikes from the shadows with {_played(a.card, a.value)} on shadow "
            f"alliance {a.slot + 1}..."
        ]
    if k == "reveal":
        return []
    if k == "resolve":
        return [_resolve(before, a, after, who)]
    if k == "plan":
        what = short_name(a.card) if known else "a card"
        return [f"{who} plans for the future: {what} goes under the deck."]
    if k == "stuck":
        return [f"{who} holds no card that may be played."]
    return [f"{who}: {k}"]


def _draw(before: State, a: Action, after: State, seat: int, who: str) -> list[str]:
    if before.phase == "deal":
        if a.seat == 0 and not before.hands[0]:
            return ["Every house shuffles its deck and draws 11 cards."]
        return []
    if draw_shown(before, a.seat):
        shown = after.shown[a.seat]
        name = short_name(shown) if shown >= 0 else "its last card"
        limit = after.limits[a.seat]
        return [
            f"{who} draws the last card of the deck and shows it: {name}. "
            f"From now on {who} may play no card above {limit}."
        ]
    if a.card >= 0:
        return [f"{who} draws {short_name(a.card)}."]
    return []


def _first_player(after: State, names: Sequence[str]) -> list[str]:
    if after.phase != "play":
        return []
    tied = first_candidates(after)
    if len(tied) > 1:
        return []
    return [f"{_name(names, after.turn)} has the highest face-up total and plays first."]


def _build(before: State, a: Action, after: State, who: str) -> str:
    st = before.stack(a.stack)
    what = _played(a.card, a.value)
    label = stack_label(a.stack)
    rank = a.card % RANKS
    if st is not None and rank == 9 and len(st[2]) >= 2:
        gone = ", ".join(card_text(c, v) for c, v in st[2])
        return (
            f"{who} builds with the Minister on {stack_words(st)}: {gone} "
            f"{'are' if len(st[2]) > 1 else 'is'} eliminated and the Minister stays alone as "
            f"stack {label}."
        )
    if st is not None and rank == 10:
        split = [(a.stack, st[2][0])] if st[2] else []
        rest = list(st[2][1:]) + [(a.card, a.value)]
        split += [(before.next_sid + j, cv) for j, cv in enumerate(rest)]
        parts = ", ".join(f"{stack_label(sid)} ({card_text(c, v)})" for sid, (c, v) in split)
        return (
            f"{who} builds with the Lady-in-Waiting on {stack_words(st)}: "
            f"the stack splits into single cards, stacks {parts}."
        )
    total = (st[1] if st else 0) + a.value
    return f"{who} builds an alliance: {what} onto stack {label}, now {total}."


def _resolve(before: State, a: Action, after: State, who: str) -> str:
    if before.pending is None or not 0 <= before.pending[0] < 3:
        return f"{who} resolves a strike."
    slot, pc, pv, hidden = before.pending
    alliance = before.alliances[before.turn][slot]
    top = alliance[2] if alliance else -1
    tv = a.value if top >= 0 and top % RANKS == JESTER else None
    hv = a.extra if hidden >= 0 and hidden % RANKS == JESTER else None
    tval = tv if tv is not None else RANK_VALUE[top % RANKS]
    hval = hv if hv is not None else RANK_VALUE[hidden % RANKS]
    total = tval + hval + pv
    head = f"{who} strikes from the shadows: the hidden card is {card_text(hidden, hv)}"
    parts = [head]
    if tv is not None:
        parts.append(f"the face-up Jester is declared as {tv}")
    if a.elim >= 0:
        victim = before.stack(a.elim)
        parts.append(f"{stack_words(victim) if victim else 'a stack'} is eliminated")
    else:
        parts.append(f"no stack totals {total}, the strike fizzles")
    new = stack_label(before.next_sid)
    parts.append(
        # bottom card first, as the court lists a stack: the hidden card, the face-up card,
        # the card played
        f"{card_text(hidden, hv)} + {card_text(top, tv)} + {card_text(pc, pv)} = {total} "
        f"becomes stack {new}"
    )
    return "; ".join(parts) + "."


Mark = tuple[object, ...]


def marks(before: State, a: Action, after: State, seat: int) -> frozenset[Mark] | None:
    """What the step touched on the table (see the module docstring)."""
    k = a.kind
    n = before.players
    if k == "hide" and n > 0:
        return frozenset({("alliance", a.before, (a.seat - a.before - 1) % n)})
    if k in ("top", "strike"):
        return frozenset({("alliance", a.seat, a.slot)})
    if k in ("court", "resolve"):
        return frozenset({("stack", before.next_sid)})
    if k == "conspire":
        return frozenset({("stack", a.stack)})
    if k == "build":
        first = before.next_sid
        made = range(first, min(max(first, after.next_sid), first + 16))  # a Lady's new stacks
        return frozenset({("stack", a.stack)} | {("stack", sid) for sid in made})
    if k in ("plan", "stuck"):
        return frozenset()
    return None
