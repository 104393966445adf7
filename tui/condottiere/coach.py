"""Why the coach suggests a Condottiere move, in one line: what it takes, what it risks,
whether it ends the battle or the game; worked out from the seat's view by the rules.

* **takes**: the strengths the play leaves (``tui.condottiere.preview``: the seat's own, its
  face-down cards counted, against the strongest other line as everyone sees it), and the
  region fought over;
* **risks**: a pass or a Surrender that leaves the seat behind; a card spent while already
  ahead;
* **ends**: a Surrender ends the battle; a pass by the last seat still in does too; the
  battle's region would win the game when the seat's regions with it meet a victory
  (``measures.victory``).
"""

from __future__ import annotations

from engine.condottiere import rules
from engine.condottiere.cards import REGIONS, SURRENDER
from engine.condottiere.measures import victory
from engine.condottiere.state import Action, State
from tui.condottiere import preview
from tui.condottiere.render import own_strength, strengths


def _now(s: State, seat: int) -> tuple[int, int]:
    shown = strengths(s, seat)
    mine = own_strength(s, seat)
    return (shown[seat] if mine is None else mine), max(
        (x for i, x in enumerate(shown) if i != seat), default=0)


def _wins_game(s: State, seat: int) -> bool:
    if s.battle < 0:
        return False
    won = s.copy()
    won.owner = tuple(seat if r == s.battle else o for r, o in enumerate(s.owner))
    return bool(victory(won, seat))


def why(s: State, a: Action, seat: int) -> str:
    """One line: what ``a`` takes, what it risks, whether it ends the battle or the game."""
    takes: list[str] = []
    risks: list[str] = []
    ends = "the battle goes on"
    where = REGIONS[s.battle] if 0 <= s.battle < len(REGIONS) else "the battle"
    if a.kind == "play":
        mine, other = preview.strengths_after(s, a, seat)
        takes.append(f"you {mine} against {other}")
        was, _ = _now(s, seat)
        if a.card == SURRENDER:
            ends = "it ends the battle now"
            if mine <= other:
                risks.append(f"{where} goes to another player")
        elif was > other and mine >= was:
            risks.append("a card spent while you already lead")
    elif a.kind == "pass":
        mine, other = _now(s, seat)
        takes.append(f"you keep {mine} against {other}")
        if mine <= other:
            risks.append(f"you stop behind: {where} may go to another player")
        after = rules.apply_unchecked(s, a)
        if after.phase != "play" or after.battle != s.battle:
            ends = "it ends the battle"
    elif a.kind == "place":
        takes.append(f"the next battle is for {REGIONS[a.region]}")
    if a.kind in ("play", "pass") and _wins_game(s, seat):
        ends += f"; winning {where} wins you the game"
    return (f"Takes: {', '.join(takes) or 'nothing'}. Risks: {', '.join(risks) or 'little'}. "
            f"{ends[0].upper()}{ends[1:]}.")
