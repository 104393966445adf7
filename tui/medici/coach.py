"""Why the coach suggests a Court of the Medici move, in one line: what it takes, what it
risks, whether it ends the game; worked out from the seat's view by the rules themselves.

* **takes**: the influence the move moves, by house: the points its own house gains in the
  court, the points it eliminates from other houses (a conspiracy's stack, a Minister's cards);
  a strike brings the alliance's cards to court and eliminates a stack if the hidden card makes
  a total (its chance over the cards the seat cannot rule out, ``report.elimination_chance``);
* **risks**: the points of its own house it eliminates itself, a strike that may fizzle, a
  stack of the seat's points left at a total another stack already has (a conspiracy needs
  only a card to make the match), or playing nothing to court (a plan);
* **ends**: whether the move ends the game (``sense.ends_game``).
"""

from __future__ import annotations

from engine.medici import report, sense
from engine.medici.cards import HOUSES, RANKS
from engine.medici.game import scores
from engine.medici.state import Action, State
from tui.medici import preview


def why(s: State, a: Action, seat: int) -> str:
    """One line: what ``a`` takes, what it risks, whether it ends the game."""
    takes: list[str] = []
    risks: list[str] = []
    if a.kind in ("court", "build", "conspire", "plan"):
        new = preview.after(s, a)
        before, after = scores(s), scores(new)
        gain = after[seat] - before[seat]
        if gain > 0:
            takes.append(f"+{gain} for your house")
        elif gain < 0:
            risks.append(f"{-gain} of your own points eliminated")
        for h in range(s.players):
            if h != seat and after[h] < before[h]:
                takes.append(f"{before[h] - after[h]} from {HOUSES[h]}")
        if a.kind == "plan":
            risks.append("nothing played to court this turn")
        else:
            mine = [st for st in new.middle if any(c // RANKS == seat for c, _ in st[2])]
            totals = [st[1] for st in new.middle]
            exposed = [st for st in mine if totals.count(st[1]) > 1]
            if exposed:
                risks.append(f"a stack of yours at {exposed[0][1]}, a total another stack has")
    elif a.kind == "strike":
        chance = report.elimination_chance(s, a)
        takes.append(f"your alliance to court; a stack eliminated {chance:.0%} of the time")
        if chance < 1:
            risks.append(f"it fizzles {1 - chance:.0%} of the time")
    ends = "it ends the game" if sense.ends_game(s, a, seat) else "the game goes on"
    line = f"Takes: {', '.join(takes) or 'nothing'}. Risks: {', '.join(risks) or 'little'}. {ends[0].upper()}{ends[1:]}."
    return line
