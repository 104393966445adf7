"""The warning line of a Court of the Medici table: which house can end the game on its next
turn, from one seat's view (so it says only what that seat may know).

The game ends (``docs/rules/medici.md``, "End of the game"):

* by default, when no house has a shadow alliance left: the last alliance on the table ends it
  with its holder's strike;
* in the short game (option ``short_game``), at the end of a turn after which some house has no
  shadow alliance left: a house down to its last alliance ends the game with its next strike
  (houses in that state are named in one sentence, so that two of them do not fill two lines);
* when a house starts its turn with no card it may play: a house with no card left in hand or
  deck ends it when its turn comes; one whose deck is empty (its last card shown, a limit set)
  ends it if it starts a turn with no card at or below its limit. A seat knows its own hand, so
  it is told for sure about itself; of the others it knows only hand sizes and limits.

Nothing is said during the set-up or once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.medici.rules import can_play, deck_size
from engine.medici.state import NO_LIMIT, State
from tui.names import possessive

PLAY_PHASES = ("play", "reveal", "resolve", "draw")


def _name(names: Sequence[str], h: int) -> str:
    return names[h] if 0 <= h < len(names) else f"house {h + 1}"


def warning(s: State, seat: int, names: Sequence[str]) -> str:
    """One line (or "") naming every way the game can end on a house's next turn."""
    if s.phase not in PLAY_PHASES:
        return ""
    said: list[str] = []
    left = [sum(a is not None for a in row) for row in s.alliances]
    if s.config.end_when_all_struck:
        if sum(left) == 1:
            h = next(h for h in range(s.players) if left[h])
            who = _name(names, h)
            said.append(f"One shadow alliance is left, {possessive(who)}: its strike ends the game.")
    else:
        last = [_name(names, h) for h in range(s.players) if left[h] == 1]
        if len(last) == 1:
            said.append(f"{last[0]} is at its last shadow alliance: its next strike ends the game.")
        elif last:
            who = ", ".join(last[:-1]) + " and " + last[-1]
            anyone = "either" if len(last) == 2 else "any of them"
            said.append(f"{who} are each at their last shadow alliance: a strike by {anyone} "
                        "ends the game.")
    for h in range(s.players):
        if deck_size(s, h):
            continue
        who = _name(names, h)
        if not s.hands[h]:
            said.append(f"{who} has no card left: the game ends when its turn comes.")
        elif h == seat:
            if not can_play(s, seat):
                said.append("You hold no card you may play: the game ends when your turn comes.")
        elif s.limits[h] != NO_LIMIT:
            said.append(
                f"{possessive(who)} deck is empty: if it starts a turn with no card of {s.limits[h]} or "
                "less, the game ends."
            )
    return " ".join(said)
