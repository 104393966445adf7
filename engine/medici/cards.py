"""The cards of Court of the Medici: four houses of 25 cards each.

A card is a small int, ``house * 13 + rank``. Copies of the same card are the same int: two
Orsini Noble 5s are indistinguishable, so hands and decks are sorted tuples (multisets) and no
state can differ only in which copy is where.

Ranks 0..8 are the Nobles 2..10; 9 Minister (0), 10 Lady-in-Waiting (1), 11 Jester (wild,
declared 1..10 when played; counts 1 for the first player and at scoring), 12 Duke (15).
"""

from __future__ import annotations

from engine.core import UNKNOWN

HOUSES: tuple[str, ...] = ("Orsini", "Colonna", "Delle Rovere", "Gonzaga")
RANKS = 13
MINISTER, LADY, JESTER, DUKE = 9, 10, 11, 12
#: copies of each rank in a house's 25 cards
COPIES: tuple[int, ...] = (2,) * 9 + (2, 2, 2, 1)
#: face value of each rank; the Jester's is declared when played (1 here, as it scores)
RANK_VALUE: tuple[int, ...] = tuple(range(2, 11)) + (0, 1, 1, 15)
RANK_NAME: tuple[str, ...] = tuple(f"Noble {n}" for n in range(2, 11)) + (
    "Minister",
    "Lady-in-Waiting",
    "Jester",
    "Duke",
)
#: flavour names of the nobles 2..10, per house
NOBLE_TITLES: tuple[tuple[str, ...], ...] = (
    ("Page", "Lutenist", "Physician", "Notary", "Goldsmith", "Condottiero", "Baron", "Bishop", "Marchesa"),
    ("Herald", "Glassblower", "Alchemist", "Jurist", "Silk Trader", "Admiral", "Viscount", "Archbishop", "Princess"),
    ("Chamberlain", "Sculptor", "Playwright", "Architect", "Banker", "Knight", "Lady", "Praefect", "Count"),
    ("Friar", "Painter", "Poet", "Scholar", "Merchant", "Captain-General", "Lord", "Cardinal", "Countess"),
)
HOUSE_SIZE = 25
#: card numbers run from 0 to CARDS - 1
CARDS = len(HOUSES) * RANKS
JESTER_MAX = 10


def card(house: int, rank: int) -> int:
    return house * RANKS + rank


def house_of(c: int) -> int:
    return c // RANKS


def house_deck(house: int) -> tuple[int, ...]:
    """A house's 25 cards, sorted."""
    return tuple(card(house, r) for r in range(RANKS) for _ in range(COPIES[r]))


def short_name(c: int) -> str:
    """``Noble 4``, ``Jester``: the card without its house (``card 77`` for no card of the game)."""
    if c == UNKNOWN:
        return "a hidden card"
    return RANK_NAME[c % RANKS] if 0 <= c < CARDS else f"card {c}"


def long_name(c: int) -> str:
    """``Gonzaga Noble 9`` (``card 77`` for a number that is no card of the game)."""
    if c == UNKNOWN:
        return "a hidden card"
    return f"{HOUSES[c // RANKS]} {RANK_NAME[c % RANKS]}" if 0 <= c < CARDS else f"card {c}"


def title(c: int) -> str:
    """A noble's flavour title, e.g. ``Poet``; other cards their name."""
    r = c % RANKS
    return NOBLE_TITLES[c // RANKS][r] if r < 9 else RANK_NAME[r]


def parse_card(text: str) -> int:
    """Inverse of ``long_name``: ``"Gonzaga Noble 9"`` -> card."""
    for h, house in enumerate(HOUSES):
        if text.startswith(house + " "):
            rest = text[len(house) + 1 :]
            if rest in RANK_NAME:
                return card(h, RANK_NAME.index(rest))
    raise ValueError(f"not a card: {text!r}")
