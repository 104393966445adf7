"""What a fair deck tells its peer (``net.deck.fair_deck``), and how its lists travel.

* Events: ``Shuffled`` (a seat's shuffle taken; ``ready`` once every seat has shuffled the
  round), ``CardKnown`` (a card dealt to this peer: only it learns it), ``CardOpened`` (a card
  shown to everyone, with the seat it had been dealt to).
* ``DeckFault``: a dealt card that unmasks to no card of the table, or to a card already out.
  Impossible when every shuffle is proved, so a fault of this program: the peer stops, and
  nobody is named.
* Lists of cards, handles and shares travel as packed bytes, so that a message stays within a
  codec's array limits whatever the size of the deck: a masked card is ``CARD_BYTES`` (64), a
  handle ``HANDLE_BYTES`` (4, big-endian).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from net.deck import group as g

CARD_BYTES = 2 * g.POINT_BYTES
HANDLE_BYTES = 4


def unpack(data: bytes, size: int) -> list[bytes]:
    """Cut packed bytes into items of ``size`` bytes."""
    return [data[i:i + size] for i in range(0, len(data), size)]


def pack_handles(handles: Sequence[int]) -> bytes:
    return b"".join(h.to_bytes(HANDLE_BYTES, "big") for h in handles)


def unpack_handles(data: bytes) -> list[int]:
    return [int.from_bytes(b, "big") for b in unpack(data, HANDLE_BYTES)]


class DeckFault(RuntimeError):
    """A dealt card that unmasks to no card of the table, or to a card already out: impossible
    when every shuffle is proved, so a fault of this program (the peer stops)."""

    def __init__(self, deck_id: str, handle: int, reason: str) -> None:
        super().__init__(f"deck {deck_id!r}, card handle {handle}: {reason}")
        self.deck_id = deck_id
        self.handle = handle
        self.reason = reason


# -- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shuffled:
    seat: int
    number: int
    ready: bool  # every seat has shuffled this round: cards may be dealt


@dataclass(frozen=True)
class CardKnown:
    """A card dealt to this peer: only this peer learns it."""

    handle: int
    card: int


@dataclass(frozen=True)
class CardOpened:
    """A card shown to everyone; ``holder`` is the seat it had been dealt to (or ``None``)."""

    handle: int
    card: int
    holder: int | None


Event = Shuffled | CardKnown | CardOpened
