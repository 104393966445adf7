"""Condottiere in plain words for the table's log.

``narrate(before, action, after, seat, names)`` tells one step as ``seat`` may hear it; both
states are that seat's views, and the action itself is told by the engine's
``action_text(before, action, seat)``, which names a card only to a seat that may know it.
Whatever the action's numbers, narrating it ends and says something. The
deal is folded into one line, and the end of a battle is told with every line's strength, who
conquers and who takes the Condottiere token.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.condottiere.cards import REGIONS
from engine.condottiere.game import END_TEXT
from engine.condottiere.measures import line_strengths
from engine.condottiere.state import Action, State
from engine.condottiere.text import SEAT_NAMES, action_text


def _named(text: str, seat: int, names: Sequence[str]) -> str:
    if 0 <= seat < min(len(SEAT_NAMES), len(names)):
        base = SEAT_NAMES[seat]
        if text.startswith(base) and names[seat] != base:
            text = names[seat] + text[len(base) :]
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def narrate(before: State, a: Action, after: State, seat: int, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    if a.kind == "draw":
        if before.phase == "deal" and after.phase != "deal":
            lines.append(f"The cards are dealt: you hold {len(after.hands[seat])}.")
    else:
        lines.append(_named(action_text(before, a, seat), a.seat, names))
    if after.battles > before.battles or (before.final and after.phase == "over"):
        lines.append(_battle_end(before, after, names))
    if after.games > before.games and after.phase != "over":
        pts = ", ".join(f"{names[q]} {p}" for q, p in enumerate(after.points))
        lines.append(f"Game {after.games} of the match is over. Points: {pts}.")
    if after.phase == "over" and before.phase != "over":
        who = " and ".join(names[w] for w in after.winners)
        lines.append(f"The game ends: {END_TEXT.get(after.end, after.end)}. {who} won.")
    return lines


def _battle_end(before: State, after: State, names: Sequence[str]) -> str:
    fought = after.lines if any(after.lines) else before.lines
    strength = line_strengths(fought)
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
