"""Drawing Condottiere's players, battle lines and hand from one seat's view.

Every seat's line shows its cards in play order (a face-down card as ``##``, or to its owner
``(6)``), the strength it would have if the battle ended now as everyone sees it (face-up cards
only: in the Hidden Cards variant players announce only their face-up strength; the seat's own
row adds what its line counts with its face-down cards, which only it knows), whether it passed,
its hand size and regions, and the Condottiere token. ``>`` marks the seat to act; colours only
repeat the names; the legend under the lines says what ``##`` and ``(6)`` are.

``marks`` (from ``tui.condottiere.narrate.marks``) are what the last move touched: a marked
line is starred, the card just played drawn in reverse, so the mark shows without colour too.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from engine.condottiere.cards import KINDS, MERC_STRENGTH, NAMES, REGIONS
from engine.condottiere.measures import announced_strengths, thresholds
from engine.condottiere.measures import own_strength as _own_strength
from engine.condottiere.state import State
from engine.core import UNKNOWN
from engine.words import plural
from tui.condottiere.regions import SEAT_STYLE

SHORT = tuple(str(n) for n in MERC_STRENGTH) + NAMES[7:]

Marks = frozenset[tuple[object, ...]]
NO_MARKS: Marks = frozenset()
MARK_STYLE = "reverse"


def card_word(c: int, up: int = 1, mine: bool = False) -> str:
    """``10``, ``Drummer``; a face-down card ``##``, or ``(10)`` to its owner."""
    if c == UNKNOWN or not 0 <= c < KINDS:
        return "##"
    return SHORT[c] if up else f"({SHORT[c]})"


def strengths(s: State, seat: int) -> list[int]:
    """What each line would count now as everyone sees it: its face-up cards only (the strength
    a player announces in Hidden Cards)."""
    return announced_strengths(s)


def own_strength(s: State, seat: int) -> int | None:
    """What ``seat``'s line would count with its own face-down cards turned up, as only that
    seat knows it (the others' face-down cards stay out); ``None`` with no face-down card."""
    return _own_strength(s, seat)


def players_text(
    s: State, seat: int, names: tuple[str, ...], actor: int, width: int = 80,
    marks: Marks = NO_MARKS,
) -> Text:
    """Every seat: marker, name, strength, pass; hand, regions, tokens; then its battle line,
    starred if the last move touched it, wrapped at ``width`` under its first card."""
    st = strengths(s, seat)
    mine = own_strength(s, seat)
    pad = max(len(n) for n in names[: s.players])
    fighting = s.fighters or tuple(range(s.players))
    out = Text()
    for q in range(s.players):
        if q:
            out.append("\n")
        head = Text()
        head.append("> " if q == actor else "  ", style="bold")
        head.append(names[q], style=SEAT_STYLE[q] + (" underline" if q == actor else ""))
        head.append(" " * (pad - len(names[q])))
        if q in fighting:
            head.append(f" strength {st[q]:>2}", style="bold")
            if q == seat and mine is not None and mine != st[q]:
                head.append(f" ({mine} with your face-down)")
            if s.passed[q]:
                head.append(" passed", style="italic")
        else:
            head.append(" not fighting", style="italic")
        more = f"hand {len(s.hands[q])}, regions {s.owner.count(q)}"
        if s.config.playing_for_points:
            more += f", points {s.points[q]}"
        if q == s.holder:
            more += ", Condottiere token"
        if q == s.defender:
            more += ", defending"
        out.append_text(head)
        if len(head) + 2 + len(more) <= width:
            out.append("  " + more)
        else:
            out.append("\n    " + more)
        line = s.lines[q]
        touched = ("line", q) in marks or any(m[:2] == ("card", q) for m in marks)
        out.append("\n  * " if touched else "\n    ")
        if not line:
            out.append("-")
        col = 4
        for i, (c, up) in enumerate(line):
            word = card_word(c, up, q == seat)
            if i and col + 2 + len(word) > width:
                out.append("\n    ")  # a long line wraps under its first card
                col = 4
            elif i:
                out.append("  ")
                col += 2
            marked = ("card", q, i) in marks
            out.append(word, style=MARK_STYLE if marked else "")
            col += len(word)
    return out


#: the phases between one battle's resolution and the next battle's region being chosen: the
#: battle count is already the next one's, the region still the last one's
BETWEEN = ("place", "take")


def battle_words(s: State) -> str:
    """Which battle the table is at, as the header and the battle panel both say it:
    ``battle 3 for Parma``, ``choosing the region of battle 4``, ``game over after 7 battles``.
    The count is the one the end screen gives (battles fought, the final battle apart)."""
    if s.phase == "over":
        return f"game over after {plural(s.battles, 'battle')}"
    if s.final:
        return "final battle"
    if s.phase in BETWEEN or s.battle < 0:
        return f"choosing the region of battle {s.battles + 1}"
    where = f"battle {s.battles + 1} for {REGIONS[s.battle]}"
    return where + (" (held, attacked)" if s.defender >= 0 else "")


def battle_title(s: State) -> str:
    words = battle_words(s)
    return words[0].upper() + words[1:]


def hand_text(s: State, seat: int) -> Text:
    hand = s.hands[seat]
    if not hand:
        return Text("(no cards: you pass until the battle ends)", style="italic")
    counts = Counter(hand)
    t = Text()
    for i, c in enumerate(sorted(counts, key=lambda c: (-(MERC_STRENGTH[c] if c < 7 else 0), c))):
        if i:
            t.append("  ")
        t.append(NAMES[c] if 0 <= c < KINDS else "?", style="bold")
        if counts[c] > 1:
            t.append(f" x{counts[c]}")
    return t


def goal_text(s: State, marks: Marks = NO_MARKS) -> str:
    """What wins, the marks' legend, and the regions the last move touched (the token placed,
    the Favor of the Pope moved, a battle fought over), by name."""
    total, adjacent = thresholds(s)
    text = f"To win: {total} regions, or {adjacent} adjacent ones."
    if s.config.playing_for_points:
        text += f" Match to {s.config.target_score} points (game {s.games + 1})."
    if s.config.hidden_cards:
        text += ("\n##: a face-down card, (6): your own; a strength counts face-up cards, "
                 "as everyone sees them")
    places = sorted(r for kind, r, *_ in marks
                    if kind == "region" and isinstance(r, int) and 0 <= r < len(REGIONS))
    where = f" (at {', '.join(REGIONS[r] for r in places)})" if places else ""
    return text + f"\n*: the last move{where}"
