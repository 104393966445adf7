"""An in-memory table of peers that drive ``FairDeck`` through the whole protocol.

It is the reference for the order of the fair-deck messages (what a session does over the
network), and it serves the tests and ``scripts/bench_deck.py``. Every message goes to every peer,
its author included, in one order, with a ``context`` that chains a hash over the messages before
it, as a transcript would. ``tamper`` may replace a message in transit (tests of cheating peers).

A ``random.Random`` makes secrets, shuffles and proof nonces reproducible; without one they come
from the operating system. ``cpu[seat]`` adds up the processor time spent in each peer's deck calls (what
that peer's own machine would spend), for the benchmark.

``defer=True`` plays the messages as a seat's table does: each peer takes a shuffle, and the shares
of cards dealt to other seats, once their points are checked (``FairDeck.receive(...,
defer=True)``), and checks their proofs in that peer's worker thread
(``net.deck.checks.deck_checks_beside``) while the next seat shuffles; every deck checks every proof of
its chain before the first deal, and the shares of a card before it is shown.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from net.deck import group as g
from net.deck.checks import Worker, deck_checks_beside
from net.deck.cipher import CardTable
from net.deck.fair_deck import Event, FairDeck
from net.deck.keys import PublicKeys, key_message
from net.wire.rpc import Fields

Tamper = Callable[[int, Fields], Fields]
_P = ParamSpec("_P")
_R = TypeVar("_R")


class Peer:
    def __init__(self, seat: int, secret: int) -> None:
        self.seat = seat
        self.secret = secret
        self.decks: dict[str, FairDeck] = {}
        self.events: list[tuple[str, Event]] = []


class LocalTable:
    def __init__(
        self, seats: int, game_id: bytes = b"game", rng: random.Random | None = None,
        tamper: Tamper | None = None, defer: bool = False, group: g.Group = g.RISTRETTO255,
    ) -> None:
        self.rng = rng
        self.defer = defer
        self.game_id = game_id
        self.tamper = tamper
        self.context = hashlib.sha256(b"transcript:" + game_id).digest()
        secrets = [self._scalar() for _ in range(seats)]
        messages = [key_message(game_id, s, x, self._bytes(), group=group)
                    for s, x in enumerate(secrets)]
        self.keys = PublicKeys.from_messages(game_id, messages, group=group)
        self.peers = [Peer(s, x) for s, x in enumerate(secrets)]
        #: each peer's worker thread, as on a machine of its own (``defer``)
        self.workers = [Worker(f"proofs-{s}") for s in range(seats)]
        self.cpu = [0.0] * seats

    def _bytes(self, n: int = 32) -> bytes:
        return os.urandom(n) if self.rng is None else self.rng.randbytes(n)

    def _scalar(self) -> int:
        return int.from_bytes(self._bytes(64), "little") % g.L or 1

    def _timed(self, seat: int, call: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        start = time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            self.cpu[seat] += time.process_time() - start

    # -- the protocol ----------------------------------------------------------------------

    def new_deck(self, deck_id: str, table: CardTable, cards: Sequence[int]) -> None:
        for p in self.peers:
            p.decks[deck_id] = FairDeck(self.keys, deck_id, table, cards, p.seat, p.secret)

    def broadcast(self, author: int, msg: Fields) -> None:
        if self.tamper is not None:
            msg = self.tamper(author, msg)
        context = self.context
        deck_id = msg["deck"]
        assert type(deck_id) is str, "a deck message names its deck"
        for p in self.peers:
            deck = p.decks[deck_id]
            receive = functools.partial(deck.receive, defer=self.defer)
            for e in self._timed(p.seat, receive, author, msg, context):
                p.events.append((deck_id, e))
            if self.defer:  # checked beside the game, as a seat's table does
                deck_checks_beside(deck, self.workers[p.seat])
        self.context = hashlib.sha256(context + repr((author, msg)).encode()).digest()

    def shuffle(self, deck_id: str) -> None:
        """Every seat shuffles in turn."""
        lead = self.peers[0].decks[deck_id]
        while lead.shuffling:
            seat = lead.next_shuffler
            assert seat is not None
            deck = self.peers[seat].decks[deck_id]
            seed = None if self.rng is None else self._bytes()
            self.broadcast(seat, self._timed(seat, deck.make_shuffle, self.context, seed))

    def deal(self, deck_id: str, to: int | None, count: int = 1) -> list[int]:
        """Deal ``count`` top cards to ``to``; every other seat sends its shares in one message."""
        handles = []
        for p in self.peers:
            handles = [p.decks[deck_id].deal(to) for _ in range(count)]
        for p in self.peers:
            deck = p.decks[deck_id]
            mine = [h for h in handles if p.seat in deck.missing_shares(h)]
            if mine:
                self.broadcast(p.seat, self._timed(p.seat, deck.make_shares, mine, self.context, self._bytes()))
        return handles

    def deal_round(self, deck_id: str, count: int) -> dict[int, list[int]]:
        """Deal ``count`` cards to each seat (in blocks), then each seat sends its shares for
        the cards dealt to the others, one message for each seat they go to (as a session's
        ``FairDealer`` does: a seat checks at once only the shares of its own cards)."""
        dealt: dict[int, list[int]] = {}
        for s in range(len(self.peers)):
            for p in self.peers:
                dealt[s] = [p.decks[deck_id].deal(s) for _ in range(count)]
        for p in self.peers:
            deck = p.decks[deck_id]
            for hs in dealt.values():
                mine = [h for h in hs if p.seat in deck.missing_shares(h)]
                if mine:
                    self.broadcast(p.seat, self._timed(p.seat, deck.make_shares, mine, self.context,
                                                       self._bytes()))
        return dealt

    def open(self, deck_id: str, handle: int) -> None:
        holder = self.peers[0].decks[deck_id].holder(handle)
        assert holder is not None
        make = self.peers[holder].decks[deck_id].make_open
        self.broadcast(holder, self._timed(holder, make, [handle], self.context, self._bytes()))

    def return_to_bottom(self, deck_id: str, handle: int) -> None:
        for p in self.peers:
            p.decks[deck_id].return_to_bottom(handle)

    def reshuffle(self, deck_id: str, cards: Sequence[int]) -> None:
        for p in self.peers:
            p.decks[deck_id].reshuffle(cards)
        self.shuffle(deck_id)
