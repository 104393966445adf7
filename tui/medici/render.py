"""Drawing Court of the Medici from one seat's view: the court, the houses, the hand.

Pure functions from a ``State`` that is a seat's view to Rich ``Text``. Every house has a colour
and its name is always written too, so no meaning rests on colour alone; a hidden card is ``?``
(or, to the player who placed it, its name in brackets), the seat on turn is marked ``>``.

``marks`` (from ``tui.medici.narrate.marks``) are what the last move touched: a marked stack's
letter is starred and its row drawn in reverse, a marked shadow alliance starred and reversed,
so the mark shows without colour too.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from engine.core import UNKNOWN
from engine.medici.cards import HOUSES, JESTER, RANK_NAME, RANKS
from engine.medici.game import scores
from engine.medici.rules import deck_size
from engine.medici.state import NO_CARD, NO_LIMIT, State
from engine.medici.text import stack_label
from engine.words import noun
from tui.palette import HOUSES as HOUSE_COLOURS
from tui.palette import SeatStyles

Marks = frozenset[tuple[object, ...]]
NO_MARKS: Marks = frozenset()
MARK_STYLE = "reverse"

#: the houses' colours (``tui.palette``: Orsini red, Colonna blue, Delle Rovere yellow, Gonzaga green)
HOUSE_STYLE = SeatStyles(HOUSE_COLOURS)
SHORT_HOUSE = ("Orsini", "Colonna", "Rovere", "Gonzaga")


def rank_word(c: int, value: int | None = None) -> str:
    """``4``, ``Jester(5)``, ``Duke``, ``Minister``, ``Lady``: a card without its house."""
    r = c % RANKS
    if r < 9:
        return str(r + 2)
    if r == JESTER:
        return "Jester" if value is None else f"Jester({value})"
    if r == 10:
        return "Lady"
    return RANK_NAME[r]


def card_name(c: int) -> str:
    """``Noble 4``, ``Jester``: as in a hand."""
    return "?" if c == UNKNOWN else RANK_NAME[c % RANKS]


def stack_inline(stack: tuple) -> str:
    """``Orsini 4 + Colonna Jester(5)``: a stack's cards, bottom first."""
    _, _, cards = stack
    return " + ".join(f"{SHORT_HOUSE[c // RANKS]} {rank_word(c, v)}" for c, v in cards)


def stack_cards(stack: tuple) -> Text:
    """A stack's cards, bottom first, each with its house's name and colour."""
    _, _, cards = stack
    t = Text()
    for i, (c, v) in enumerate(cards):
        if i:
            t.append(" + ")
        h = c // RANKS
        t.append(SHORT_HOUSE[h], style=HOUSE_STYLE[h])
        t.append(" " + rank_word(c, v))
    return t


def court_table(s: State, marks: Marks = NO_MARKS) -> Table | Text:
    """The middle: one row per stack, its letter, its total, its cards; the stacks the last
    move touched starred."""
    if not s.middle:
        return Text("No stacks yet. A card sent to court starts one.", style="italic")
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 0), expand=True)
    table.add_column("stack", style="bold", no_wrap=True, justify="right")
    table.add_column("total", style="bold reverse", no_wrap=True, justify="right")
    table.add_column("cards", ratio=1)
    for st in s.middle:
        marked = ("stack", st[0]) in marks
        label = ("*" if marked else "") + stack_label(st[0])
        table.add_row(label, f"{st[1]:>3}", stack_cards(st), style=MARK_STYLE if marked else None)
    return table


def alliance_words(s: State, holder: int, seat: int, k: int, short: bool = False) -> str:
    """One shadow alliance as ``seat`` may know it: ``Duke/?Gonzaga`` (``short``: ``Duke/?Gon``),
    ``7/[your 3]``."""
    a = s.alliances[holder][k]
    if a is None:
        return "(struck)" if s.phase not in ("deal", "hide", "top") else "-"
    placer, hidden, top, up = a
    if top == NO_CARD:
        top_w = "__"
    elif top == UNKNOWN:
        top_w = "(down)"
    else:
        top_w = rank_word(top)
        if not up:
            top_w += "(down)"
    if hidden == UNKNOWN:
        hid = f"?{SHORT_HOUSE[placer][:3]}" if short else f"?{SHORT_HOUSE[placer]}"
    elif placer == seat:
        hid = f"[your {rank_word(hidden)}]"
    else:
        hid = f"{SHORT_HOUSE[placer]} {rank_word(hidden)}"
    if s.pending is not None and holder == s.turn and k == s.pending[0]:
        struck = f" + {rank_word(s.pending[1], s.pending[2])} striking"
    else:
        struck = ""
    return f"{top_w}/{hid}{struck}"


def houses_text(
    s: State, seat: int, names: tuple[str, ...], actor: int, width: int = 80,
    marks: Marks = NO_MARKS,
) -> Text:
    """Every house: turn marker, name, score, hand and deck sizes, limit, and its shadow
    alliances (face-up card / hidden card), on two or three lines as the width allows; the
    alliances the last move touched starred."""
    short = width < 46
    sc = scores(s)
    pad = max(len(n) for n in names[: s.players])
    out = Text()
    for h in range(s.players):
        if h:
            out.append("\n")
        head = Text()
        head.append("> " if h == actor else "  ", style="bold")
        head.append(names[h], style=HOUSE_STYLE[h] + (" underline" if h == actor else ""))
        head.append(" " * (pad - len(names[h])))
        head.append(f" {sc[h]:>3} {noun(sc[h], 'pt', 'pts')}", style="bold")
        sizes = Text(f"hand {len(s.hands[h])} deck {deck_size(s, h)}")
        if s.limits[h] != NO_LIMIT:
            sizes.append(f" limit {s.limits[h]}", style="bold")
        alliances = Text("    ")
        for k in range(3):
            if k:
                alliances.append("  ")
            words = alliance_words(s, h, seat, k, short)
            if ("alliance", h, k) in marks:
                alliances.append("*" + words, style=MARK_STYLE)
            else:
                alliances.append(words)
        out.append_text(head)
        if len(head) + 1 + len(sizes) <= width:
            out.append(" ")
            out.append_text(sizes)
            out.append("\n")
            out.append_text(alliances)
        elif len(alliances) + 2 + len(sizes) <= width:
            out.append("\n")
            out.append_text(alliances)
            out.append("  ")
            out.append_text(sizes)
        else:
            out.append("\n    ")
            out.append_text(sizes)
            out.append("\n")
            out.append_text(alliances)
    return out


def houses_legend(width: int = 80, house: int = 1) -> Text:
    """What the alliance marks mean, with ``house`` (one at the table) as the example."""
    name = SHORT_HOUSE[house]
    sample = "?" + (name[:3] if width < 46 else name)
    return Text(
        f"face-up/hidden; {sample}: hidden {HOUSES[house]} card; [your 3]: placed by you; "
        "*: the last move",
        style="italic",
    )


def hand_text(s: State, seat: int) -> Text:
    hand = s.hands[seat]
    if not hand:
        return Text("(empty)", style="italic")
    t = Text()
    for i, c in enumerate(hand):
        if i:
            t.append("  ")
        t.append(card_name(c), style="bold")
    limit = s.limits[seat]
    if limit != NO_LIMIT:
        t.append(f"   (you may play nothing above {limit})", style="italic")
    return t
