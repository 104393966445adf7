"""The cards and the map of Condottiere.

Cards
-----
A card is a small int, its kind: copies of a kind are indistinguishable, so hands are sorted
tuples and the draw pile and the discards are *count vectors* (see ``Counts`` below).

=====  ===============  ======  ========  ======================================================
int    name             copies  strength  kind
=====  ===============  ======  ========  ======================================================
0..6   Mercenary 1,2,3,  10, 8    printed  mercenary (touched by Winter, Spring and Drummer)
       4,5,6,10          each
7      Heroine             3       10     special, never changed
8      Courtesan          12        1     special; the most Courtesans take the token
9      Drummer             6        0     doubles its own line's mercenaries at conclusion
10     Winter              3        0     discards Springs; every mercenary counts 1
11     Spring              3        0     discards Winters; the top printed mercenaries +3
12     Bishop              6        0     discards the top printed mercenaries; moves the Favor
13     Scarecrow          16        0     takes one own mercenary back to hand
14     Surrender           3        0     ends the battle at once
=====  ===============  ======  ========  ======================================================

110 cards in all.

Counts
------
A multiset of cards whose members may be masked is a tuple of ``SLOTS`` = 16 ints: entry ``c``
counts card ``c`` and the last entry counts ``UNKNOWN`` cards. Since ``UNKNOWN`` is -1,
``counts[card]`` is right for a masked card too.

Map
---
17 regions named for their cities, with the 34 borders of the board. A player's regions are a
bit mask (bit ``r`` for region ``r``); ``largest_group`` is the size of its largest connected
part, which is what "N adjacent regions" means.
"""

from __future__ import annotations

from engine.core import UNKNOWN

MERC_STRENGTH: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 10)
HEROINE, COURTESAN, DRUMMER, WINTER, SPRING, BISHOP, SCARECROW, SURRENDER = range(7, 15)
KINDS = 15
SLOTS = KINDS + 1
NAMES: tuple[str, ...] = tuple(f"Mercenary {n}" for n in MERC_STRENGTH) + (
    "Heroine",
    "Courtesan",
    "Drummer",
    "Winter",
    "Spring",
    "Bishop",
    "Scarecrow",
    "Surrender",
)
COPIES: tuple[int, ...] = (10, 8, 8, 8, 8, 8, 8, 3, 12, 6, 3, 3, 6, 16, 3)
DECK_SIZE = sum(COPIES)
assert DECK_SIZE == 110
#: the full deck as counts (no masked cards)
FULL_DECK: tuple[int, ...] = COPIES + (0,)
EMPTY: tuple[int, ...] = (0,) * SLOTS
#: printed strength of every card (0 for those that add nothing by themselves)
STRENGTH: tuple[int, ...] = MERC_STRENGTH + (10, 1, 0, 0, 0, 0, 0, 0)
#: cards that the Hidden Cards variant plays face down
FACE_DOWN_KINDS: frozenset[int] = frozenset(range(0, 10))
#: cards that stay in the battle line once played
STAYS: frozenset[int] = frozenset(range(0, 12))


def name(c: int) -> str:
    if c == UNKNOWN:
        return "a hidden card"
    return NAMES[c] if 0 <= c < KINDS else "no card"


def parse_card(text: str) -> int:
    """Inverse of ``name``: ``"Mercenary 6"`` -> 5."""
    t = " ".join(text.split()).lower()
    for c, n in enumerate(NAMES):
        if n.lower() == t:
            return c
    raise ValueError(f"not a Condottiere card: {text!r}")


def counts_of(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    out = [0] * SLOTS
    for c in cards:
        out[c] += 1
    return tuple(out)


# -- the map -----------------------------------------------------------------------------------

REGIONS: tuple[str, ...] = (
    "Torino", "Milano", "Venezia", "Genova", "Mantova", "Parma", "Modena", "Ferrara", "Bologna",
    "Lucca", "Firenze", "Siena", "Urbino", "Spoleto", "Ancona", "Roma", "Napoli",
)
_BORDER_TEXT = """
Torino-Milano  Torino-Genova   Milano-Venezia  Milano-Genova   Milano-Mantova  Milano-Parma
Milano-Modena  Venezia-Mantova Venezia-Ferrara Genova-Parma    Mantova-Modena  Mantova-Ferrara
Parma-Modena   Parma-Lucca     Modena-Ferrara  Modena-Bologna  Modena-Lucca    Modena-Firenze
Ferrara-Bologna Bologna-Firenze Bologna-Urbino Lucca-Firenze   Firenze-Siena   Firenze-Urbino
Firenze-Spoleto Firenze-Roma   Siena-Roma      Urbino-Spoleto  Urbino-Ancona   Spoleto-Ancona
Spoleto-Roma   Spoleto-Napoli  Ancona-Napoli   Roma-Napoli
"""
BORDERS: tuple[tuple[int, int], ...] = tuple(
    (REGIONS.index(a), REGIONS.index(b))
    for a, b in (pair.split("-") for pair in _BORDER_TEXT.split())
)
NREGIONS = len(REGIONS)
#: per region, the bit mask of its neighbours
NEIGHBOURS: tuple[int, ...] = tuple(
    sum(1 << (b if a == r else a) for a, b in BORDERS if r in (a, b)) for r in range(NREGIONS)
)


def region_index(text: str) -> int:
    t = text.strip().lower()
    for r, n in enumerate(REGIONS):
        if n.lower() == t:
            return r
    raise ValueError(f"not a region: {text!r} (regions: {', '.join(REGIONS)})")


def mask_of(regions: list[int] | tuple[int, ...]) -> int:
    m = 0
    for r in regions:
        m |= 1 << r
    return m


def largest_group(mask: int) -> int:
    """The size of the largest connected group of the regions in ``mask``."""
    best = 0
    left = mask
    while left:
        low = left & -left
        group = low
        frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grow = NEIGHBOURS[bit.bit_length() - 1] & mask & ~group
            group |= grow
            frontier |= grow
        left &= ~group
        size = group.bit_count()
        if size > best:
            best = size
    return best


def group_of(mask: int, region: int) -> int:
    """The connected group of ``mask`` that holds ``region`` (0 if ``region`` is not in it)."""
    if not mask >> region & 1:
        return 0
    group = frontier = 1 << region
    while frontier:
        bit = frontier & -frontier
        frontier ^= bit
        grow = NEIGHBOURS[bit.bit_length() - 1] & mask & ~group
        group |= grow
        frontier |= grow
    return group
