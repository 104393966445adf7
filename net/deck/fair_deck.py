"""The fair deck: one peer's sans-IO view of a deck of masked cards (Barnett-Smart).

Nobody, the host included, can see a hidden card before the rules reveal it, choose the order of a
deck, or swap a card unnoticed. The group is ``net.deck.group``, masking and shuffles are
``net.deck.cipher``, the shuffle proof ``net.deck.shuffle_proof``, the other proofs
``net.deck.proofs``. No secret key is ever published: a card is learnt by its receiver alone, or
by everyone when its holder opens it or it is dealt face up, and a card never shown stays masked
for good.

Protocol (every message is a plain dict of str, int, bytes and lists; the session signs and
orders them, and passes each one, its author's seat and a ``context`` (the transcript hash before
it) to every peer's ``receive``; a peer's own messages go through ``receive`` too):

1. **Key** (``net.deck.keys``). Each seat ``j`` draws a secret ``x_j`` and sends
   ``key_message``: ``{"type": "deck/key", "key": Y_j, "proof": 64 bytes}``, a Schnorr proof of
   knowing ``x_j`` bound to the game id and the seat. ``PublicKeys`` holds every checked ``Y_j``
   and the joint key ``H = sum(Y_j)``. One key serves every deck of the game.
2. **Shuffle.** A new deck holds its cards face up, masked with ``r = 1``. Each seat in seat
   order sends ``make_shuffle(context)``: ``{"type": "deck/shuffle", "deck": id, "number": n,
   "cards": 64 bytes per card, "proof": shuffle_proof.proof_bytes(cards) bytes}``: the pile
   permuted and re-masked with a fresh permutation and fresh scalars from ``os.urandom``, which
   the shuffler forgets, and a zero-knowledge proof that the output is exactly the pile permuted
   and re-masked (``net.deck.shuffle_proof``), bound to the game, the deck, the seat, the shuffle
   number ``n`` and the context (``shuffle_context``). Every peer checks the proof against its
   own pile, so a shuffle that drops, duplicates, replaces, adds or copies in a card is refused,
   its author named; no seat ever reveals anything of its shuffle. Either before it takes the
   new pile (nothing changes), or, with ``receive(..., defer=True)``, beside the game
   (``net.deck.checks``): the pile is taken once its points are checked, so the next seat shuffles
   at once, and the proof is checked in a worker thread; ``deal`` and every share message first
   ``require_checked`` every proof of the chain, so no card is dealt and no share made before
   they all hold. The deck deals only once every seat has shuffled: one honest seat's uniform
   permutation makes the whole deck's order uniform.
3. **Deal.** When the rules deal the top card to seat ``s`` (or turn it face up: ``s = None``),
   every peer calls ``deal(s)`` in lockstep, which gives the card a handle (0, 1, 2, ...). Every
   other seat sends its decryption shares with ``make_shares(handles)``: ``{"type": "deck/shares",
   "deck": id, "handles": 4 bytes each (big-endian), "shares": 32 bytes each, "proof": 64 bytes}``,
   each share ``D = x_j*C1`` of the card with the handle in the same place, with one
   Chaum-Pedersen proof for them all bound to the game, deck, seat, handles and context. Once the
   others' shares are in, the receiver adds its own share privately and ``receive`` returns
   ``CardKnown`` to it alone. With ``defer``, a seat takes shares of cards hidden in other hands
   with their points checked and checks the proof beside the game: they serve only once such a
   card is shown, and are checked first (and all before this seat deals).
4. **Open.** The holder shows cards with ``make_open(handles)`` (its own shares, a proof); every
   peer's ``receive`` returns ``CardOpened``. A card dealt face up (``s = None``) opens once every
   seat has sent its share.
5. **Moves without messages**, in lockstep: ``return_to_bottom(handle)`` puts a held card,
   unopened, at the bottom of the pile (Medici's plan for the future); ``reshuffle(cards)`` adds
   opened cards back face up and starts a new round of shuffles by every seat (Condottiere).
6. **The log.** ``log`` records every move and message in order; ``net.deck.deck_log.replay``
   applies it again (an observer that rebuilds a deck from a record).
7. **Clones.** ``clone`` is an independent deck to check a message on (``FairDealer.fork``);
   the records of the cards dealt are shared copy on write (``_mutable``).

Lists of cards, handles and shares travel as packed bytes (``pack``/``unpack``).

Every point a peer sends is checked once: a shuffle's and a share's where the proof's check first
multiplies it (``group.mul_checked``, which refuses what ``group.decode_point`` refuses), a key
share on arrival. A bad message raises ``CheatDetected(author, step, reason)`` with ``step`` one
of ``"key"``, ``"shuffle"``, ``"deal"``, ``"open"``; for a shuffle the reason is the
``ShuffleProofError`` naming the check that failed. A peer's own messages are not checked again.
Every dealt card unmasks to a card of the table, each card once, since every shuffle is proved a
permutation and re-masking of its input; were one ever not to, ``DeckFault`` says so: a fault of
this program, not a protocol step, and the peer stops.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp
from net.deck import shuffle_proof as sp
from net.deck.checks import SHUFFLES_CHECKED as SHUFFLES_CHECKED
from net.deck.checks import Chain, Check, ShareCheck, ShuffleCheck, point_error, run_all
from net.deck.events import CARD_BYTES, HANDLE_BYTES
from net.deck.events import CardKnown as CardKnown
from net.deck.events import CardOpened as CardOpened
from net.deck.events import DeckFault as DeckFault
from net.deck.events import Event as Event
from net.deck.events import Shuffled as Shuffled
from net.deck.events import pack_handles as pack_handles
from net.deck.events import unpack as unpack
from net.deck.events import unpack_handles as unpack_handles
from net.deck.keys import PublicKeys
from net.wire.errors import CheatDetected
from net.wire.rpc import Fields, Value

SHARE_CONTEXT_TAG = b"palazzo/deck/share/v1"
SHUFFLE_CONTEXT_TAG = b"palazzo/deck/shuffle/v2"
ONE_OF_CONTEXT_TAG = b"palazzo/deck/one-of/v1"


@dataclass
class _Dealt:
    ciphertext: dc.Ciphertext
    holder: int | None
    shares: dict[int, bytes] = field(default_factory=dict)
    card: int | None = None  # known to this peer
    public: bool = False
    in_play: bool = True  # False once back in the pile

    def copy(self) -> _Dealt:
        """An independent copy (its shares too)."""
        return _Dealt(self.ciphertext, self.holder, dict(self.shares), self.card, self.public,
                      self.in_play)


# -- the deck ------------------------------------------------------------------------------


class FairDeck:
    """One peer's view of one deck. ``seat``/``secret`` are ``None`` for an observer."""

    def __init__(
        self,
        keys: PublicKeys,
        deck_id: str,
        table: dc.CardTable,
        cards: Sequence[int],
        seat: int | None = None,
        secret: int | None = None,
    ) -> None:
        if (seat is None) != (secret is None):
            raise ValueError("give both seat and secret, or neither (an observer)")
        if seat is not None and (not 0 <= seat < keys.seats or keys.group.base_mul(secret or 0) != keys.shares[seat]):
            raise ValueError("the secret does not match that seat's key share")
        if len(set(cards)) != len(cards):
            raise ValueError("a deck holds each card once")
        if table.group is not keys.group:
            raise ValueError("the card table and the keys are of two groups")
        self.keys = keys
        self.group = keys.group
        self.deck_id = deck_id
        self.table = table
        self.seat = seat
        self._secret = secret
        self.pile: list[dc.Ciphertext] = [
            dc.public_mask(table.point(c), keys.joint, group=keys.group) for c in cards
        ]
        self.shuffles = 0
        self._to_shuffle: list[int] = list(range(keys.seats))
        self._dealt: list[_Dealt] = []
        #: the handles whose record this deck may change in place; the others it shares with
        #: the decks it was cloned from or into, and copies before a change (``_mutable``)
        self._owned: set[int] = set()
        self._seen: dict[int, int] = {}  # card -> handle, for cards known here and in play
        self._returned: dict[dc.Ciphertext, _Dealt] = {}  # cards under the pile, not re-masked
        self._unchecked: list[Check] = []  # messages taken, their proofs not yet checked
        self.chain: Chain | None = None  # a seat's sum of a round's proofs, shared by copies
        self.log: list[Fields] = [
            {"op": "start", "deck": deck_id, "domain": table.domain, "size": table.size,
             "cards": list(cards)}
        ]

    # -- queries ---------------------------------------------------------------------------

    @property
    def shuffling(self) -> bool:
        return bool(self._to_shuffle)

    @property
    def next_shuffler(self) -> int | None:
        return self._to_shuffle[0] if self._to_shuffle else None

    @property
    def handles(self) -> int:
        return len(self._dealt)

    def holder(self, handle: int) -> int | None:
        return self._get(handle).holder

    def card(self, handle: int) -> int | None:
        """The card behind ``handle`` if this peer knows it (its own, or opened)."""
        return self._get(handle).card

    def ciphertext(self, handle: int) -> dc.Ciphertext:
        return self._get(handle).ciphertext

    def is_open(self, handle: int) -> bool:
        return self._get(handle).public

    def in_play(self, handle: int) -> bool:
        """Whether the card is out of the pile (not gone back under it or reshuffled in)."""
        return self._get(handle).in_play

    def clone(self) -> FairDeck:
        """An independent copy (to check a message on without changing this deck). The dealt
        cards' records are shared, copy on write: from now on neither deck changes one in place
        (``_mutable`` copies it first), so a clone costs no copy of them."""
        new = copy.copy(self)
        new.pile = list(self.pile)
        new._to_shuffle = list(self._to_shuffle)
        new._dealt = list(self._dealt)
        new._owned = set()
        self._owned = set()
        new._seen = dict(self._seen)
        new._returned = dict(self._returned)
        new._unchecked = list(self._unchecked)
        new.log = list(self.log)
        return new

    def _mutable(self, handle: int) -> _Dealt:
        """The record of ``handle``, this deck's own to change (a copy if it was shared)."""
        d = self._dealt[handle]
        if handle in self._owned:
            return d
        mine = self._dealt[handle] = d.copy()
        self._owned.add(handle)
        for ct, held in self._returned.items():
            if held is d:
                self._returned[ct] = mine
        return mine

    @property
    def unchecked(self) -> list[Check]:
        """The checks of the messages taken with ``defer``, not yet required, in order (run
        them in a worker thread: ``ShuffleCheck.run``, ``ShareCheck.run``)."""
        return list(self._unchecked)

    def require_checked(self, shares: bool = True) -> None:
        """Check every proof still pending, in order (each once: those a worker thread ran are
        not run again; the shuffles together, ``net.deck.checks.run_all``); ``CheatDetected``
        naming the first bad one's author. Every deal comes after this, every share after the
        shuffles' (``shares=False``: the others' shares are no input of this seat's)."""
        now = [c for c in self._unchecked if shares or isinstance(c, ShuffleCheck)]
        run_all(now)
        self._unchecked = [c for c in self._unchecked if c not in now]

    def missing_shares(self, handle: int) -> list[int]:
        """Seats whose share for ``handle`` is still awaited (the holder's only for an open)."""
        d = self._get(handle)
        return [s for s in range(self.keys.seats) if s != d.holder and s not in d.shares]

    # -- making messages -------------------------------------------------------------------

    def make_shuffle(self, context: bytes, seed: bytes | None = None) -> Fields:
        """This seat's shuffle of the pile with its proof, bound to ``context`` (the transcript
        hash before the message). The permutation and the scalars come from ``os.urandom`` and
        are forgotten; ``seed`` (32 bytes) makes them, and the proof's nonces, reproducible for
        tests."""
        if self.seat is None or self.next_shuffler != self.seat:
            raise ValueError(f"not seat {self.seat}'s turn to shuffle")
        n = len(self.pile)
        draw = dc.fresh_draw(n) if seed is None else dc.shuffle_draw(seed, n)
        out = dc.apply_draw(self.pile, draw, self.keys.joint, group=self.group)
        proof = sp.prove(self.keys.joint, self.pile, out, draw.order, draw.scalars,
                         self.shuffle_context(self.seat, self.shuffles, context), seed,
                         group=self.group)
        return {"type": "deck/shuffle", "deck": self.deck_id, "number": self.shuffles,
                "cards": b"".join(ct.to_bytes() for ct in out), "proof": proof}

    def make_shares(
        self, handles: Sequence[int], context: bytes, entropy: bytes | None = None
    ) -> Fields:
        """Decryption shares, with one proof, for cards dealt to other seats (or face up)."""
        for h in handles:
            if self._get(h).holder == self.seat:
                raise ValueError(f"card {h} is this seat's own: show it with make_open")
        return self._shares_message(handles, context, entropy)

    def make_open(
        self, handles: Sequence[int], context: bytes, entropy: bytes | None = None
    ) -> Fields:
        """Show cards this seat holds: its own shares, with one proof."""
        for h in handles:
            if self._get(h).holder != self.seat:
                raise ValueError(f"card {h} is not held by seat {self.seat}")
        return self._shares_message(handles, context, entropy)

    def forget_secret(self) -> None:
        """Drop this seat's key secret (its game is over): it makes no share or open any more."""
        self._secret = None

    def _shares_message(self, handles: Sequence[int], context: bytes, entropy: bytes | None) -> Fields:
        if self.seat is None or self._secret is None:
            raise ValueError("an observer has no shares")
        self.require_checked(shares=False)
        if not handles or len(set(handles)) != len(handles):
            raise ValueError("give one or more distinct handles")
        for h in handles:
            if not self._get(h).in_play:
                raise ValueError(f"card {h} is back in the pile")
        bases = [self._dealt[h].ciphertext.c1 for h in handles]
        shares, proof = dp.prove_dleq(
            self._secret, bases, self._share_context(handles, self.seat, context), entropy,
            group=self.group,
        )
        return {"type": "deck/shares", "deck": self.deck_id, "handles": pack_handles(handles),
                "shares": b"".join(shares), "proof": proof}

    # -- a hidden card of a set ------------------------------------------------------------

    def prove_one_of(self, handle: int, cards: Sequence[int], context: bytes,
                     entropy: bytes | None = None) -> bytes:
        """A proof that this seat's hidden card ``handle`` is one of ``cards``, without saying
        which (``deck_proofs.prove_dleq_one_of``); ``ValueError`` if it is not."""
        d = self._get(handle)
        if self.seat is None or self._secret is None or d.holder != self.seat or d.card is None:
            raise ValueError(f"card {handle} is not a card this seat holds and knows")
        if d.card not in cards:
            raise ValueError(f"card {handle} is not one of the cards given")
        base, targets = self._one_of(handle, cards)
        return dp.prove_dleq_one_of(self._secret, base, targets, list(cards).index(d.card),
                                    self._one_of_context(handle, self.seat, context), entropy,
                                    group=self.group)

    def verify_one_of(self, author: int, handle: int, cards: Sequence[int], proof: object,
                      context: bytes) -> bool:
        """Whether ``proof`` shows that ``author``'s hidden card ``handle`` is one of ``cards``."""
        d = self._get(handle)
        if d.holder != author or not cards or not d.in_play:
            return False
        if len(d.shares) < self.keys.seats - 1 or author in d.shares:
            return False  # every other seat's share is in, the holder's not
        if author == self.seat and d.card is not None:
            return d.card in cards  # its own card: this peer knows it
        base, targets = self._one_of(handle, cards)
        return dp.verify_dleq_one_of(self.keys.shares[author], base, targets, proof,
                                     self._one_of_context(handle, author, context),
                                     group=self.group)

    def _one_of(self, handle: int, cards: Sequence[int]) -> tuple[bytes, list[bytes]]:
        d = self._dealt[handle]
        rest = dc.unmask(d.ciphertext, [v for k, v in d.shares.items() if k != d.holder],
                         group=self.group)
        return d.ciphertext.c1, [self.group.sub(rest, self.table.point(c)) for c in cards]

    def _one_of_context(self, handle: int, seat: int, context: bytes) -> bytes:
        return g.encode(ONE_OF_CONTEXT_TAG, self.keys.game_id, self.deck_id.encode(),
                        seat.to_bytes(2, "big"), handle.to_bytes(8, "big"), context)

    # -- lockstep moves --------------------------------------------------------------------

    def deal(self, to: int | None) -> int:
        """Take the top card for seat ``to`` (``None``: face up for all); return its handle.
        The seats in ``missing_shares(handle)`` then send their shares."""
        if self.shuffling:
            raise ValueError("the deck is being shuffled")
        if not self.pile:
            raise ValueError("the pile is empty")
        self.require_checked()
        if to is not None and not 0 <= to < self.keys.seats:
            raise ValueError(f"no seat {to}")
        earlier = self._returned.get(self.pile[0])
        if earlier is not None and to is not None and to != earlier.holder:
            raise ValueError(
                f"the top card went under the pile from seat {earlier.holder}'s hand, with every "
                "other seat's share public: dealt to another seat it would be shown to all"
            )
        self.log.append({"op": "deal", "to": to})
        d = _Dealt(self.pile.pop(0), to)
        self._dealt.append(d)
        handle = len(self._dealt) - 1
        self._owned.add(handle)
        if earlier is not None:  # back to its holder (or face up): the shares still serve
            del self._returned[d.ciphertext]
            d.shares = dict(earlier.shares)
            if earlier.card is not None and to is not None:
                d.card = earlier.card
                self._seen[earlier.card] = handle
        return handle

    def return_to_bottom(self, handle: int) -> None:
        """Put a held card, unopened, at the bottom of the pile. Until the next shuffle it may
        only be dealt back to its holder (who knows it at once: no shares are needed) or face
        up (its holder's share alone is missing)."""
        d = self._get(handle)
        if d.public or not d.in_play or d.holder is None:
            raise ValueError(f"card {handle} is not a hidden card in a hand")
        if self.shuffling:
            raise ValueError("the deck is being shuffled")
        self.log.append({"op": "bottom", "handle": handle})
        d = self._mutable(handle)
        d.in_play = False
        if d.card is not None:
            self._seen.pop(d.card, None)
        self.pile.append(d.ciphertext)
        self._returned[d.ciphertext] = d

    def reshuffle(self, cards: Sequence[int]) -> None:
        """Add opened cards back face up and start a round of shuffles by every seat."""
        if self.shuffling:
            raise ValueError("the deck is being shuffled")
        handles = []
        for c in cards:
            h = self._seen.get(c)
            if h is None or not self._dealt[h].public or not self._dealt[h].in_play:
                raise ValueError(f"card {c} is not an opened card of this deck")
            handles.append(h)
        if len(set(cards)) != len(cards):
            raise ValueError("a card listed twice")
        self.log.append({"op": "reshuffle", "cards": list(cards)})
        for c, h in zip(cards, handles, strict=True):
            self._mutable(h).in_play = False
            del self._seen[c]
            self.pile.append(dc.public_mask(self.table.point(c), self.keys.joint, group=self.group))
        self._to_shuffle = list(range(self.keys.seats))

    # -- receiving -------------------------------------------------------------------------

    def receive(self, author: int, msg: Mapping[str, Value], context: bytes, *,
                defer: bool = False) -> list[Event]:
        """Check and apply a deck message from ``author`` (this seat's own included). A refused
        message (``CheatDetected``) changes nothing, not even ``log``. ``defer``: a shuffle, or
        shares of cards in other hands, taken once its form and points are checked, its proof
        checked later (``unchecked``, ``require_checked``)."""
        if not 0 <= author < self.keys.seats:
            raise ValueError(f"no seat {author}")
        if not isinstance(msg, Mapping) or msg.get("deck") != self.deck_id:
            raise ValueError(f"not a message of deck {self.deck_id!r}")
        kind = msg.get("type")
        entry: Fields = {"op": "msg", "author": author, "msg": dict(msg), "context": context}
        if kind == "deck/shuffle":
            events: list[Event] = [self._receive_shuffle(author, msg, context, defer)]
        elif kind == "deck/shares":
            events = self._receive_shares(author, msg, context, defer)
        else:
            raise CheatDetected(author, "deal", f"unknown deck message type {kind!r}")
        self.log.append(entry)
        return events

    def _receive_shuffle(self, author: int, msg: Mapping[str, Value], context: bytes,
                         defer: bool) -> Shuffled:
        if self.next_shuffler != author:
            raise CheatDetected(author, "shuffle", "shuffled out of turn")
        if type(msg.get("number")) is not int or msg.get("number") != self.shuffles:
            raise CheatDetected(author, "shuffle", f"wrong shuffle number {msg.get('number')!r}")
        packed = msg.get("cards")
        if not isinstance(packed, bytes) or len(packed) != CARD_BYTES * len(self.pile):
            raise CheatDetected(
                author, "shuffle", f"the pile has {len(self.pile)} cards of {CARD_BYTES} bytes"
            )
        raw = unpack(packed, CARD_BYTES)
        if len(set(raw)) != len(raw):
            raise CheatDetected(author, "shuffle", "the same masked card twice")
        out = self._read_shuffle(author, raw, msg.get("proof"), context, defer)
        self.pile = out
        self._returned.clear()  # every card re-masked: earlier shares no longer apply
        self.shuffles += 1
        self._to_shuffle.pop(0)
        return Shuffled(author, self.shuffles - 1, not self._to_shuffle)

    def _receive_shares(self, author: int, msg: Mapping[str, Value], context: bytes,
                        defer: bool) -> list[Event]:
        packed_handles, packed_shares = msg.get("handles"), msg.get("shares")
        if (
            not isinstance(packed_handles, bytes) or not isinstance(packed_shares, bytes)
            or not packed_handles or len(packed_handles) % HANDLE_BYTES
            or len(packed_shares) != g.POINT_BYTES * (len(packed_handles) // HANDLE_BYTES)
        ):
            raise CheatDetected(author, "deal", "shares are 4-byte handles and 32-byte points, one each")
        handles = unpack_handles(packed_handles)
        for h in handles:
            if not h < len(self._dealt):
                raise CheatDetected(author, "deal", f"no card with handle {h}")
        own = [self._dealt[h].holder == author for h in handles]
        step = "open" if all(own) else "deal"
        if any(own) and not all(own):
            raise CheatDetected(author, step, "one message both deals and opens")
        if len(set(handles)) != len(handles):
            raise CheatDetected(author, step, "a card twice in one message")
        for h in handles:
            d = self._dealt[h]
            if not d.in_play:
                raise CheatDetected(author, step, f"card {h} is back in the pile")
            if author in d.shares:
                raise CheatDetected(author, step, f"a second share for card {h}")
        shares = unpack(packed_shares, g.POINT_BYTES)  # each point checked by the proof's check
        if author != self.seat:
            check = ShareCheck(author, step, self.group, self.keys.shares[author], handles,
                               [self._dealt[h].ciphertext.c1 for h in handles], shares,
                               msg.get("proof"), self._share_context(handles, author, context))
            if defer and step == "deal" and self.seat is not None and all(  # in other hands:
                self._dealt[h].holder not in (None, self.seat) and not self._dealt[h].public
                for h in handles):  # they tell it nothing until shown (and checked first)
                bad = point_error(author, step, self.group, handles, shares)
                if bad is not None:
                    raise bad
                self._unchecked.append(check)
            else:
                self._require(handles)  # the shares of these cards taken unchecked, if any
                check.run()
        events: list[Event] = []
        for h, share in zip(handles, shares, strict=True):
            d = self._mutable(h)
            d.shares[author] = share
            event = self._progress(h, d)
            if event is not None:
                events.append(event)
        return events

    def _require(self, handles: Sequence[int]) -> None:
        """Check the shares of ``handles`` taken unchecked, before they are used."""
        wanted = set(handles)
        for check in [c for c in self._unchecked if isinstance(c, ShareCheck) and wanted & set(c.handles)]:
            check.run()
            self._unchecked.remove(check)

    def _progress(self, h: int, d: _Dealt) -> Event | None:
        n = self.keys.seats
        if len(d.shares) == n and not d.public:
            card = self._learn(h, d, dc.unmask(d.ciphertext, list(d.shares.values()),
                                               group=self.group))
            d.public = True
            return CardOpened(h, card, d.holder)
        if (
            d.holder is not None and d.holder == self.seat and d.card is None
            and len(d.shares) == n - 1 and self._secret is not None
        ):
            own = self.group.mul(self._secret, d.ciphertext.c1)
            card = self._learn(h, d, dc.unmask(d.ciphertext, [*d.shares.values(), own],
                                               group=self.group))
            return CardKnown(h, card)
        return None

    def _learn(self, h: int, d: _Dealt, point: bytes) -> int:
        card = self.table.index(point)
        if card is None:
            raise DeckFault(self.deck_id, h, "unmasks to no card of the table")
        other = self._seen.get(card)
        if other is not None and other != h:
            raise DeckFault(self.deck_id, h, f"card {card} is also card handle {other}")
        d.card = card
        self._seen[card] = h
        return card

    # -- reading points and proofs --------------------------------------------------------------

    def _read_shuffle(self, author: int, raw: list[bytes], proof: object, context: bytes,
                      defer: bool) -> list[dc.Ciphertext]:
        """The masked cards of a shuffle once its proof holds against the pile (this peer's own
        shuffle trusted); the proof's check also checks every point. ``defer``: every point is
        checked now, the proof later (``require_checked``); an observer, which never shuffles
        on the pile, leaves its points to the proof's check too (``palazzo verify``)."""
        out = [dc.Ciphertext(data[:32], data[32:]) for data in raw]
        if author == self.seat:
            return out
        chain = None
        if defer and self.seat is not None:  # a seat sums the round's proofs as they come
            first = self.shuffles - author  # every seat shuffles once a round, in seat order
            if self.chain is None or self.chain.first != first:
                self.chain = Chain(self.group, self.keys.seats, first, first + self.seat)
            chain = self.chain
        check = ShuffleCheck(author, self.group, self.keys.joint, self.pile, out, proof,
                             self.shuffle_context(author, self.shuffles, context), self.shuffles,
                             chain)
        if not defer:
            check.run()
            return out
        for j, data in enumerate(raw if self.seat is not None else ()):
            try:
                dc.Ciphertext.decode(data, group=self.group)
            except g.InvalidPoint as e:
                raise CheatDetected(author, "shuffle", f"format: masked card {j}: {e}") from None
        self._unchecked.append(check)
        return out

    # -- helpers ---------------------------------------------------------------------------

    def _get(self, handle: int) -> _Dealt:
        if not 0 <= handle < len(self._dealt):
            raise ValueError(f"no card with handle {handle}")
        return self._dealt[handle]

    def shuffle_context(self, seat: int, number: int, context: bytes) -> bytes:
        """What a shuffle proof is bound to: the game, the deck, the shuffler's seat, the shuffle
        number and the transcript hash before the message."""
        return g.encode(SHUFFLE_CONTEXT_TAG, self.keys.game_id, self.deck_id.encode(),
                        seat.to_bytes(2, "big"), number.to_bytes(4, "big"), context)

    def _share_context(self, handles: Sequence[int], seat: int, context: bytes) -> bytes:
        return g.encode(
            SHARE_CONTEXT_TAG, self.keys.game_id, self.deck_id.encode(), seat.to_bytes(2, "big"),
            b"".join(h.to_bytes(8, "big") for h in handles), context,
        )
