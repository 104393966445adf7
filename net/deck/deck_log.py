"""A deck's log applied again: an observer rebuilds a deck from another's record.

``FairDeck.log`` records every move and message of a deck in order: ``{"op": "start", ...}``,
``{"op": "msg", "author", "msg", "context"}``, ``{"op": "deal", "to"}``, ``{"op": "bottom",
"handle"}``, ``{"op": "reshuffle", "cards"}``. ``replay(deck, entry)`` applies one entry to
``deck`` as its peer applied it (a message through ``receive``, every check as ever); an entry
that is not one of these is a ``ValueError``, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from net.deck.events import Event
from net.deck.fair_deck import FairDeck
from net.wire.rpc import Value


def replay(deck: FairDeck, entry: Mapping[str, Value]) -> list[Event]:
    """Apply one entry of ``deck.log`` to ``deck`` (an observer rebuilding a deck from a record)."""
    op = entry.get("op")
    if op == "msg":
        author, msg, context = entry["author"], entry["msg"], entry["context"]
        if type(author) is not int or type(msg) is not dict or type(context) is not bytes:
            raise ValueError("a log entry of a message is {author, msg, context}")
        return deck.receive(author, msg, context)
    if op == "deal":
        to = entry["to"]
        if to is not None and type(to) is not int:
            raise ValueError("a log entry of a deal names a seat or none")
        deck.deal(to)
    elif op == "bottom":
        handle = entry["handle"]
        if type(handle) is not int:
            raise ValueError("a log entry of a card put under names its handle")
        deck.return_to_bottom(handle)
    elif op == "reshuffle":
        cards = entry["cards"]
        if type(cards) is not list or any(type(c) is not int for c in cards):
            raise ValueError("a log entry of a reshuffle lists its cards")
        deck.reshuffle([c for c in cards if type(c) is int])
    else:
        raise ValueError(f"unknown log entry {op!r}")
    return []
