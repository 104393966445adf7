"""The map of Condottiere's 17 regions, drawn or listed, from one seat's view.

``map_text(state)`` draws the regions where they lie in Italy, north at the top, with every
border as a dotted road between two cities (``MAP_WIDTH`` x ``MAP_HEIGHT``);
``compact_map_text(state)`` draws them closer, in ``COMPACT_HEIGHT`` rows without the roads
(for 80x24; the borders are named where a region is chosen); ``regions_text(state)`` lists the
regions with their holder and neighbours, for boxes too small for either. All mark the
region under the Condottiere token as ``[Firenze]``, the Favor of the Pope's as ``{Roma}``, and
a held region with its holder's initial, ``Milano:R``, and the regions the last move touched
(``marked``, from the ``("region", r)`` marks of ``tui.condottiere.narrate.marks``) with a star,
underlined, ``Parma:G*``; colours only repeat what the characters say. A click on a region's name gives the screen ``("region", r)`` (``answer`` in the style's
meta), which answers the question when the region is one of its answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text

from engine.condottiere.cards import BORDERS, NEIGHBOURS, REGIONS
from engine.condottiere.state import State
from tui.palette import SEATS, SeatStyles

#: seat colours (their names are Red, Blue, Green, Yellow, Purple, Black: ``tui.palette``)
SEAT_STYLE = SeatStyles(SEATS)
SEAT_INITIAL = ("R", "B", "G", "Y", "P", "K")

#: where each region's label starts, (column, row): a schematic of Italy, north at the top
PLACES: dict[str, tuple[int, int]] = {
    "Torino": (0, 1),
    "Milano": (15, 0),
    "Venezia": (45, 0),
    "Genova": (3, 4),
    "Mantova": (30, 2),
    "Parma": (14, 5),
    "Ferrara": (47, 4),
    "Modena": (27, 6),
    "Bologna": (43, 7),
    "Lucca": (9, 8),
    "Firenze": (24, 10),
    "Urbino": (46, 10),
    "Ancona": (58, 12),
    "Siena": (13, 12),
    "Spoleto": (43, 13),
    "Roma": (27, 15),
    "Napoli": (52, 16),
}
MAP_WIDTH = 68
MAP_HEIGHT = 17

#: the compact map: the same order of regions, north to south, in six rows
COMPACT: dict[str, tuple[int, int]] = {
    "Torino": (0, 0),
    "Milano": (14, 0),
    "Venezia": (44, 0),
    "Genova": (2, 1),
    "Mantova": (28, 1),
    "Ferrara": (46, 1),
    "Parma": (14, 2),
    "Modena": (27, 2),
    "Bologna": (42, 2),
    "Lucca": (8, 3),
    "Firenze": (24, 3),
    "Urbino": (46, 3),
    "Siena": (12, 4),
    "Spoleto": (40, 4),
    "Ancona": (56, 4),
    "Roma": (26, 5),
    "Napoli": (50, 5),
}
COMPACT_HEIGHT = 6


def region_label(s: State, r: int) -> str:
    name = REGIONS[r]
    if r == s.battle:
        name = f"[{name}]"
    elif r == s.favor:
        name = "{" + name + "}"
    owner = s.owner[r]
    if owner >= 0:
        name += ":" + SEAT_INITIAL[owner]
    return name


def marked_regions(marks: Iterable[tuple[object, ...]]) -> frozenset[int]:
    """The regions among a move's marks (``("region", r)``)."""
    return frozenset(m[1] for m in marks
                     if len(m) == 2 and m[0] == "region" and type(m[1]) is int)


def _label_style(s: State, r: int, marked: frozenset[int] = frozenset()) -> Style:
    owner = s.owner[r]
    style = SEAT_STYLE[owner] if owner >= 0 else "bold"
    if r == s.battle:
        style += " reverse"
    elif r == s.favor:
        style += " italic"
    if r in marked:
        style += " underline"
    return Style.parse(style) + Style(meta={"answer": ("region", r)})


def _road(grid: list[list[str]], a: tuple[int, int], b: tuple[int, int]) -> None:
    """A border: a line of ``-``, ``|``, ``/`` or ``\\`` (by its slope) between two cities."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, (y1 - y0) * 2  # a character is about twice as tall as it is wide
    if abs(dy) <= abs(dx) * 0.4:
        ch = "-"
    elif abs(dx) <= abs(dy) * 0.4:
        ch = "|"
    else:
        ch = "\\" if (dx > 0) == (dy > 0) else "/"
    steps = max(abs(x1 - x0), abs(y1 - y0), 1)
    for i in range(1, steps):
        x = round(x0 + (x1 - x0) * i / steps)
        y = round(y0 + (y1 - y0) * i / steps)
        if grid[y][x] == " ":
            grid[y][x] = ch


def map_text(s: State, marked: frozenset[int] = frozenset()) -> Text:
    """The drawn map (``MAP_WIDTH`` x ``MAP_HEIGHT`` characters)."""
    return _draw(s, PLACES, MAP_HEIGHT, True, marked)


def compact_map_text(s: State, marked: frozenset[int] = frozenset()) -> Text:
    """The compact map (``MAP_WIDTH`` x ``COMPACT_HEIGHT`` characters, no roads)."""
    return _draw(s, COMPACT, COMPACT_HEIGHT, False, marked)


def _draw(s: State, places: dict[str, tuple[int, int]], height: int, roads: bool,
          marked: frozenset[int]) -> Text:
    grid = [[" "] * MAP_WIDTH for _ in range(height)]
    labels = {r: region_label(s, r) for r in range(len(REGIONS))}  # the roads meet these
    centre = {}
    for r, name in enumerate(REGIONS):
        x, y = places[name]
        centre[r] = (x + len(labels[r]) // 2, y)
    if roads:
        for a, b in BORDERS:
            _road(grid, centre[a], centre[b])
    spans: list[tuple[int, int, int, int]] = []  # (row, col, length, region)
    for r, name in enumerate(REGIONS):
        x, y = places[name]
        label = labels[r] + ("*" if r in marked else "")
        for i, ch in enumerate(label):
            if x + i < MAP_WIDTH:
                grid[y][x + i] = ch
        spans.append((y, x, len(label), r))
    out = Text(no_wrap=True, overflow="crop")
    for y, row in enumerate(grid):
        line = Text("".join(row).rstrip(), style="dim")
        for sy, sx, length, r in spans:
            if sy == y:
                line.stylize(_label_style(s, r, marked), sx, sx + length)
        if y:
            out.append("\n")
        out.append_text(line)
    return out


def regions_text(s: State, marked: frozenset[int] = frozenset()) -> Text:
    """Every region on a line: its label, then its neighbours; first, the battle and the Pope."""
    out = Text()
    if s.battle >= 0:
        out.append(f"Battle: {REGIONS[s.battle]}", style="bold reverse")
    if s.favor >= 0:
        out.append(("  " if s.battle >= 0 else "") + f"Pope: {REGIONS[s.favor]}", style="italic")
    if s.battle >= 0 or s.favor >= 0:
        out.append("\n")
    width = max(len(region_label(s, r)) for r in range(len(REGIONS))) + bool(marked)
    for r in range(len(REGIONS)):
        if r:
            out.append("\n")
        label = region_label(s, r) + ("*" if r in marked else "")
        out.append(label, style=_label_style(s, r, marked))
        out.append(" " * (width - len(label) + 1))
        near = [REGIONS[q] for q in range(len(REGIONS)) if NEIGHBOURS[r] >> q & 1]
        out.append("- " + ", ".join(near), style="dim")
    return out


def legend() -> Text:
    # the star of the last move is explained on the goal line ("*: the last move (at Parma)")
    return Text("[x] battle here  {x} Favor of the Pope  x:R held by Red", style="italic")


def regions_summary(s: State, marked: frozenset[int] = frozenset()) -> Text:
    """The regions in a few lines, for a small screen: the battle's and the Pope's, then each
    holder's (in the holder's colour, the last move's starred), then how many are free."""
    out = Text()
    if s.battle >= 0:
        out.append(f"Battle: {REGIONS[s.battle]}", style="bold reverse")
    if s.favor >= 0:
        out.append(("  " if s.battle >= 0 else "") + f"Pope: {REGIONS[s.favor]}", style="italic")
    for q in range(len(s.hands)):
        held = [r for r in range(len(REGIONS)) if s.owner[r] == q]
        if not held:
            continue
        if out:
            out.append("\n")
        out.append(f"{SEAT_INITIAL[q]}:", style=SEAT_STYLE[q])
        for r in held:
            out.append(" ")
            out.append(REGIONS[r] + ("*" if r in marked else ""), style=_label_style(s, r, marked))
    free = sum(1 for o in s.owner if o < 0)
    if out:
        out.append("\n")
    out.append(f"{free} of {len(REGIONS)} regions free", style="dim")
    return out
