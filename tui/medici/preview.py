"""What a Court of the Medici move does to the court, worked out by the rules themselves.

``after(view, action)`` applies the move to the seat's view (``rules.apply_unchecked``: a move
of the seat's own touches only what the seat sees: its hand and the court), and ``result``
words what changed in the court: the stack's new total, a Minister's stack left at 0 with the
cards it eliminated, a Lady's stack split into single cards, the stack a conspiracy
eliminates. Nothing here adds values by hand, so a preview cannot disagree with the move.
"""

from __future__ import annotations

from engine.medici import rules
from engine.medici.state import Action, State
from engine.medici.text import stack_label
from engine.words import plural


def after(s: State, a: Action) -> State:
    """The seat's view after its move ``a`` (court, build, conspire or plan)."""
    return rules.apply_unchecked(s, a)


def result(s: State, a: Action) -> str:
    """``-> 16``; ``-> 0, eliminating 2 cards``; ``-> splits into 5 | 3 | 1``; ``-> 12,
    eliminating stack C``; ``-> new stack D, 7``; "" for a move that changes no stack."""
    if a.kind not in ("court", "build", "conspire"):
        return ""
    new = after(s, a)
    before_ids = {st[0] for st in s.middle}
    if a.kind == "court":
        made = [st for st in new.middle if st[0] not in before_ids]
        return f"-> new stack {stack_label(made[0][0])}, {made[0][1]}" if made else ""
    target = new.stack(a.stack)
    if target is None:
        return ""
    split = [st for st in new.middle if st[0] not in before_ids]
    if split:  # a Lady: the stack and the new one-card stacks
        return "-> splits into " + " | ".join(str(st[1]) for st in (target, *split))
    words = f"-> {target[1]}"
    gone = len(new.eliminated) - len(s.eliminated)
    if a.kind == "conspire":
        words += f", eliminating stack {stack_label(a.elim)}"
    elif gone:
        words += f", eliminating {plural(gone, 'card')}"
    return words
