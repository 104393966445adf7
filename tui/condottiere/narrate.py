"""Condottiere in plain words for the table's log.

``narrate(before, action, after, seat, names)`` tells one step as ``seat`` may hear it; both
states are that seat's views, the action is what ``engine.condottiere.view.public_action`` says
the seat learns of it, and it is told by the engine's ``action_text(before, action, seat)``,
which names a card only to a seat that may know it.
Whatever the action's numbers, narrating it ends and says something. The
deal is folded into one line, a game won by regions ends on a line naming the winner and what it
holds (``victory_words``, which the end screen says too), and the end of a battle is told with every line's strength, who
conquers and who takes the Condottiere token. Every card a play takes off the table is named,
with whose line it left: a Bishop's discards (the face-up mercenaries of the highest printed
strength, read from the line before it), the Spring a Winter discards and the Winter a Spring
does; a Scarecrow names the card it takes back.

``marks(before, action, after, seat)`` says what the step touched, for the table to mark until
the next move: ``("card", seat, index)`` for the card just played into a line, ``("line",
seat)`` for a line a card left, ``("region", r)`` for the region the token went to, the Favor of
the Pope went to, or a battle was fought over; ``None`` for a step that is not a move on the
table (a draw, a reveal, the choices between battles), which keeps the last move's marks.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.condottiere.cards import (
    BISHOP,
    MERC_STRENGTH,
    NAMES,
    REGIONS,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
)
from engine.condottiere.game import END_TEXT
from engine.condottiere.measures import END_ADJACENT, END_TOTAL, fought_strengths, thresholds
from engine.condottiere.state import Action, State
from engine.condottiere.text import SEAT_NAMES, action_text
from engine.condottiere.view import public_action


def _named(text: str, seat: int, names: Sequence[str]) -> str:
    if 0 <= seat < min(len(SEAT_NAMES), len(names)):
        base = SEAT_NAMES[seat]
        if text.startswith(base) and names[seat] != base:
            text = names[seat] + text[len(base) :]
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def narrate(before: State, a: Action, after: State, seat: int, names: Sequence[str]) -> list[str]:
    a = public_action(before, a, seat)
    lines: list[str] = []
    if a.kind == "draw":
        if before.phase == "deal" and after.phase != "deal":
            held = f": you hold {len(after.hands[seat])}" if 0 <= seat < len(after.hands) else ""
            lines.append(f"The cards are dealt{held}.")
    else:
        lines.append(_named(action_text(before, a, seat), a.seat, names))
        if a.kind == "play":
            lines.extend(_discarded(before, a, names))
    if after.battles > before.battles or (before.final and after.phase == "over"):
        lines.append(_battle_end(before, after, names))
    if after.games > before.games and after.phase != "over":
        pts = ", ".join(f"{names[q]} {p}" for q, p in enumerate(after.points))
        lines.append(f"Game {after.games} of the match is over. Points: {pts}.")
    if after.phase == "over" and before.phase != "over":
        who = " and ".join(names[w] for w in after.winners)
        won = victory_words(after, names)
        if won:
            lines.append(f"The game ends: {won} and wins.")
        else:
            lines.append(f"The game ends: {END_TEXT.get(after.end, after.end)}. {who} won.")
    return lines


def victory_words(s: State, names: Sequence[str]) -> str:
    """How a player won by its regions, naming it ("Green holds 3 adjacent regions"); "" for
    the other ends, which the outcome's text tells. The log and the end screen both say it."""
    winners = [names[w] for w in s.winners if 0 <= w < len(names)]
    if len(winners) != 1 or s.end not in (END_ADJACENT, END_TOTAL):
        return ""
    total, adjacent = thresholds(s)
    if s.end == END_ADJACENT:
        return f"{winners[0]} holds {adjacent} adjacent regions"
    return f"{winners[0]} holds {total} regions"


def _whose(q: int, names: Sequence[str]) -> str:
    return f"{names[q]}'s" if 0 <= q < len(names) else f"seat {q + 1}'s"


def _discarded(before: State, a: Action, names: Sequence[str]) -> list[str]:
    """The cards a Bishop, a Winter or a Spring takes off the table, line by line."""
    if a.card == BISHOP:
        up = [(q, c) for q, line in enumerate(before.lines) for c, shown in line
              if shown and 0 <= c < len(MERC_STRENGTH)]
        top = max((MERC_STRENGTH[c] for _, c in up), default=0)
        if not top:
            return ["No mercenary is face up: the Bishop discards nothing."]
        gone = [q for q, c in up if MERC_STRENGTH[c] == top]
        card = NAMES[MERC_STRENGTH.index(top)]
        where = _counted(gone, names)
        return [f"The Bishop discards every face-up {card}: {where}."]
    if a.card in (WINTER, SPRING):
        other = SPRING if a.card == WINTER else WINTER
        gone = [q for q, line in enumerate(before.lines) for c, _ in line if c == other]
        if gone:
            return [f"The {NAMES[a.card]} discards every {NAMES[other]}: {_counted(gone, names)}."]
    return []


def _counted(seats: list[int], names: Sequence[str]) -> str:
    """``2 from Red's line and 1 from Blue's line``, in seat order."""
    parts = [f"{seats.count(q)} from {_whose(q, names)} line" for q in sorted(set(seats))]
    return " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]


Mark = tuple[object, ...]


def marks(before: State, a: Action, after: State, seat: int) -> frozenset[Mark] | None:
    """What the step touched on the table (see the module docstring)."""
    out: set[Mark] = set()
    if after.battles > before.battles and 0 <= before.battle:
        out.add(("region", before.battle))
    if a.kind == "place" and a.region >= 0:
        out.add(("region", a.region))
    elif a.kind == "pass":
        out.add(("line", a.seat))
    elif a.kind == "play":
        n = min(len(before.lines), len(after.lines))
        for q in range(n):
            if len(after.lines[q]) < len(before.lines[q]):
                out.add(("line", q))
        if a.card == BISHOP and a.region >= 0:
            out.add(("region", a.region))
        elif a.card not in (SCARECROW, SURRENDER) and 0 <= a.seat < n and after.lines[a.seat]:
            if len(after.lines[a.seat]) > len(before.lines[a.seat]):
                out.add(("card", a.seat, len(after.lines[a.seat]) - 1))
    elif not out:
        return None
    return frozenset(out)


def _battle_end(before: State, after: State, names: Sequence[str]) -> str:
    strength = fought_strengths(before, after)
    fighters = before.fighters or tuple(range(before.players))
    where = "the final battle" if before.final else f"the battle for {REGIONS[before.battle]}"
    scores = ", ".join(f"{names[q]} {strength[q]}" for q in fighters)
    text = f"End of {where}: {scores}."
    if not before.final and before.battle >= 0:
        owner = after.owner[before.battle]
        if owner >= 0 and owner != before.owner[before.battle]:
            text += f" {names[owner]} conquers {REGIONS[before.battle]}."
        elif owner >= 0:
            text += f" {names[owner]} keeps {REGIONS[before.battle]}."
        else:
            text += f" A tie: nobody conquers {REGIONS[before.battle]}."
        if after.phase != "over":
            text += f" {names[after.holder]} takes the Condottiere token."
    return text
