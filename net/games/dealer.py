"""Dealing through the fair deck: who writes which deck message when, and what each peer learns.

A ``FairDealer`` is one peer's part of the fair deck for one networked game (``net.session.machines.table``
drives it; ``net.deck.fair_deck`` is the deck itself). It follows the transcript in lockstep with every
other peer, and decides, after each entry, whether a seat owes a ``deck`` entry and what the
next chance step is. Rules:

1. **Keys.** When play begins, every seat in seat order writes a ``deck`` entry holding its
   ``deck/key`` message (``net.deck.keys``). After the last, every deck of the game is made
   (``decks()``: Court of the Medici has one per house, Condottiere one shared pile), and every
   seat in seat order writes one ``deck`` entry holding its ``deck/shuffle`` of every deck that
   awaits its shuffle, each with its proof bound to the transcript hash before the entry. A
   reader checks each proof before it takes the shuffled pile (a wrong shuffle is refused at
   once and its author named), or, with ``defer`` (a seat's table), takes the pile once its
   points are checked and checks the proof in a worker thread (``check_beside``), so that it
   shuffles on at once: no card is dealt and no share made before every proof of the chain
   holds (``FairDeck.require_checked``), and a bad one names its author at its entry.
2. **Deals.** At a chance step that draws a card, the dealer plans the whole run of draws that
   follows without a decision between them (``plan(view)``: the deal at the start of a game,
   one card in a Medici turn, a Condottiere deal up to the end of the pile) and calls
   ``FairDeck.deal`` for each, in lockstep. Every seat that owes decryption shares for those
   cards then writes one ``deck`` entry with all of them (seats in order): a ``deck/shares``
   message for each seat the cards go to (and one for cards dealt face up), so that a seat's
   table checks at once only the shares of its own cards and the rest beside the game
   (``FairDeck.receive``'s ``defer``), before any card they serve is shown. A draw is applied to
   the views, card by card, as soon as its shares are in: the receiver applies the card it alone
   learnt, everyone else applies it ``UNKNOWN`` (or the card itself, when it was dealt face up).
3. **Moves.** An ``act`` entry that takes a card from a hand, or turns one up, names the card's
   handle (``handles``), and when it shows a hidden card it carries its author's ``deck/shares``
   message opening it (``open``): every peer learns the card from the shares, with a proof that
   it is the card dealt to the author, and checks it is the card the action names. Cards placed
   face down move by handle, unopened. The games' subclasses say which action does what.
4. **Lots.** Chance steps that deal no card (the first player) come from the joint seed that
   the seats agreed by commit-and-reveal before play.
5. **Nothing is revealed.** No seat ever publishes its secret or its seeds, at the end or
   after a forfeit: a card is shown only by its holder's open or by every seat's shares when
   the rules show it, and a card never shown stays masked for good. So every check that needs
   a card is made when the entry arrives: a card shown is the one named (its open proves it);
   a card that goes face down needs no check where any card of the hand may go there (a
   Medici hide, top or plan, a Condottiere keep: the handle proves it is a card of the hand),
   and carries a proof where only some may (``kind_proof``, Condottiere's face-down play); a
   Medici ``stuck`` proves each hidden card of the hand unplayable, one card at a time without
   saying which (``stuck_proof``); any other claim about a hidden card is checked when the rules
   show it (a striker's own hidden card, its reveal).

A seat's secret is in no entry: ``make_deck_entry`` gives it back beside the public fields, for
the seat's own journal to keep (``net.session.machines.own_seat``), and a peer that restarts
takes it back from there (``restore_secret``) before it reads its own key entry again;
``forget_secret`` drops it when the game is over. Nothing of a shuffle is kept: the shuffle
entry is in the transcript, and that is all a restarted peer needs.

Everything a peer receives is checked on a copy (``fork``); the table keeps the copy only when
the whole entry passed, so a refused entry changes nothing.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic

from engine.core import UNKNOWN, A, C, GameAction, GameConfig, GameState, S
from net.deck import group as g
from net.deck.checks import ShareCheck, deck_checks_beside, together
from net.deck.cipher import CardTable
from net.deck.fair_deck import CardOpened, DeckFault, FairDeck, pack_handles, unpack_handles
from net.deck.keys import PublicKeys, key_message, read_key_message
from net.wire.errors import HOST, CheatDetected
from net.wire.rpc import Fields, Value

MAX_HANDLES = 64


@functools.cache
def card_table(domain: str, size: int, group: g.Group = g.RISTRETTO255) -> CardTable:
    """The card points of a deck (made once per process: hashing to the curve costs)."""
    return CardTable(domain, size, group=group)


class MoveError(ValueError):
    """An act entry whose cards do not fit what the dealer knows (its author cheated)."""


@dataclass
class Pending:
    deck: str
    handle: int
    to: int | None


class FairDealer(Generic[S, A, C]):
    """One peer's fair deck for one game; the games subclass it (see the module docstring).
    ``S``, ``A`` and ``C`` are the game's state (a seat's view), action and configuration
    types."""

    #: the fields an ``act`` entry may carry beside its ``action``, and their types (the table
    #: refuses any other field, and these of another type)
    ACT_FIELDS: dict[str, type] = {"handles": bytes, "open": dict}

    game = ""

    def __init__(self, game_id: bytes, config: C, seed: bytes, me: int, secret: int | None,
                 version: int = g.CURRENT_VERSION) -> None:
        self.game_id = game_id
        #: the protocol version the game is played in, and its group (``group.for_version``)
        self.version = version
        self.group = g.for_version(version)
        self.config = config
        self.players: int = config.players
        self.seed = seed
        self.me = me
        self.secret = secret if me != HOST else None
        self.key_msgs: list[Fields] = []
        self.keys: PublicKeys | None = None
        self.decks: dict[str, FairDeck] = {}
        self.kinds: dict[str, tuple[int, ...]] = {}
        self.pending: list[Pending] = []
        #: cards of a hand masked anew (``net.deck.rehand``), awaiting the other seats' shares
        self.regiven: list[Pending] = []
        self.lots = 0
        #: take shuffles once their points are checked and check their proofs beside the game
        self.defer = False
        #: hand those proofs to the worker thread (``check_beside``); ``False``: they wait for
        #: ``require_checked`` (``palazzo verify``, one thread: a chain's proofs checked together)
        self.beside = True

    # -- what each game says ------------------------------------------------------------------

    def deck_specs(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every deck of the game: its id and the kind (engine card) of each physical card."""
        raise NotImplementedError

    def lot(self, view: S, rng: random.Random) -> A | None:
        """The chance step now if it deals no card (a lot), else ``None``."""
        raise NotImplementedError

    def plan(self, view: S) -> list[tuple[str, int | None]]:
        """The deals to make now, as ``(deck, seat or None for face up)``, in order."""
        raise NotImplementedError

    def draw_action(self, view: S, p: Pending, card: int) -> A:
        """The draw step for ``p`` with ``card`` (the kind, or ``UNKNOWN``)."""
        raise NotImplementedError

    def public(self, view: S, action: A) -> A:
        """The form of ``action``, taken in ``view``, that travels on the wire: what the host,
        no seat, learns of it (the game's ``public_action``: face-down cards ``UNKNOWN``). Every
        game says it; there is no default that could send a card in the clear."""
        raise NotImplementedError

    def choose(self, view: S, action: A) -> tuple[list[int], list[int]]:
        """The author's side: the handles ``action`` names, and those it must open now."""
        raise NotImplementedError

    def move(self, view: S, action: A, author: int, handles: list[int],
             opened: dict[int, int]) -> tuple[A, S]:
        """Check and make the moves of ``action`` (its named ``handles``, the kinds ``opened``
        in its entry): the action as this peer knows it and the view to check it on.
        ``MoveError`` when they do not fit."""
        raise NotImplementedError

    def settle(self, view: S) -> None:
        """After a step: the lockstep moves the rules made without a message (reshuffles)."""

    # -- queries ------------------------------------------------------------------------------

    def kind(self, deck: str, handle: int) -> int | None:
        """The engine card behind ``handle`` if this peer knows it."""
        card = self.decks[deck].card(handle)
        return None if card is None else self.kinds[deck][card]

    def known(self, deck: str, handle: int) -> int:
        """The engine card behind ``handle``, which this peer knows (its own card, or one shown):
        ``DeckFault`` if it does not, a fault of this program."""
        card = self.kind(deck, handle)
        if card is None:
            raise DeckFault(deck, handle, "a card this seat should know is unknown to it")
        return card

    def due(self) -> int | None:
        """The seat that owes a ``deck`` entry now, or ``None``."""
        if self.keys is None:
            return len(self.key_msgs)
        owed = [d.next_shuffler for d in self.decks.values() if d.shuffling]
        if owed:
            return min(s for s in owed if s is not None)
        missing = [s for p in self.pending + self.regiven
                   for s in self.decks[p.deck].missing_shares(p.handle) if s != p.to]
        return min(missing) if missing else None

    def step(self) -> tuple[str, int, int] | None:
        """What the deck waits for now, in a table's words: ``("key", n, players)`` or
        ``("shuffle", n, players)`` for the ``n``-th seat's (from 1) of a round, ``("shares",
        0, 0)`` for the shares of the cards being dealt; ``None`` when it waits for nothing."""
        due = self.due()
        if due is None:
            return None
        if self.keys is None:
            return ("key", due + 1, self.players)
        if any(d.shuffling for d in self.decks.values()):
            return ("shuffle", due + 1, self.players)
        return ("shares", 0, 0)

    def fork(self) -> FairDealer[S, A, C]:
        """A copy to check an entry on: the table keeps it only if the entry passes."""
        new = copy.copy(self)
        new.key_msgs = list(self.key_msgs)
        new.decks = {k: d.clone() for k, d in self.decks.items()}
        new.pending = list(self.pending)
        new.regiven = list(self.regiven)
        self._fork_game(new)
        return new

    def _fork_game(self, new: FairDealer[S, A, C]) -> None:
        """Copy the game's own mutable records into ``new``."""

    # -- chance steps -------------------------------------------------------------------------

    def chance(self, view: S) -> A | None:
        """The chance step to apply to this peer's view now, or ``None`` (waiting for entries)."""
        rng = random.Random(int.from_bytes(
            hashlib.sha256(b"palazzo/lot/v1" + self.seed + self.lots.to_bytes(4, "big")).digest(),
            "big"))
        action = self.lot(view, rng)
        if action is not None:
            self.lots += 1
            return action
        if self.keys is None or any(d.shuffling for d in self.decks.values()):
            return None
        if not self.pending:
            planned = self.plan(view)
            if not planned:
                return self._immediate(view)
            self.require_checked()  # every deck's pending proofs together, before any deal
            for deck, to in planned:
                self.pending.append(Pending(deck, self.decks[deck].deal(to), to))
        p = self.pending[0]
        fair = self.decks[p.deck]
        if [s for s in fair.missing_shares(p.handle) if s != p.to]:
            return None
        if p.to is not None and p.to == self.me and fair.card(p.handle) is None:
            # every other share is in, so this seat learnt its card (``FairDeck`` raises
            # ``DeckFault`` for a card that is none): not knowing it is a fault of this program
            raise DeckFault(p.deck, p.handle, "this seat's own card is unknown to it")
        self.pending.pop(0)
        card = self.kind(p.deck, p.handle)
        return self.draw_action(view, p, UNKNOWN if card is None else card)

    def _immediate(self, view: S) -> A | None:
        """A draw that needs no deal (a card everyone saw go under a deck), with its card."""
        return None

    # -- deck entries -------------------------------------------------------------------------

    def make_deck_entry(self, context: bytes) -> tuple[Fields, Fields]:
        """The public fields of the ``deck`` entry this seat owes now (its shuffles bound to
        ``context``, the transcript hash before the entry), and what it keeps for itself in its
        journal (its secret, with its key entry; never in the entry)."""
        assert self.secret is not None
        if self.keys is None:
            msg = key_message(self.game_id, self.me, self.secret, group=self.group)
            return {"msgs": [msg]}, {"secret": g.scalar_bytes(self.secret)}
        msgs: list[Value] = [d.make_shuffle(context) for d in self.decks.values()
                             if d.shuffling and d.next_shuffler == self.me]
        if msgs:
            return {"msgs": msgs}, {}
        by_deck: dict[tuple[str, int | None], list[int]] = {}  # one message a deck and seat
        for p in self.pending + self.regiven:
            if p.to != self.me and self.me in self.decks[p.deck].missing_shares(p.handle):
                by_deck.setdefault((p.deck, p.to), []).append(p.handle)
        for (deck_id, _), handles in by_deck.items():
            for i in range(0, len(handles), MAX_HANDLES):
                msgs.append(self.decks[deck_id].make_shares(handles[i:i + MAX_HANDLES], context))
        return {"msgs": msgs}, {}

    def read_deck_entry(self, author: int, msgs: Value, context: bytes, where: int | None = None) -> None:
        """Check and take a ``deck`` entry's messages (on a fork); ``CheatDetected`` if bad.
        ``where``: the entry's place, named if a proof checked later fails (``defer``)."""
        if type(msgs) is not list or not msgs or len(msgs) > 64:
            raise CheatDetected(author, "deal", "a deck entry holds a list of deck messages")
        if self.keys is None:
            if len(msgs) != 1:
                raise CheatDetected(author, "key", "a key entry holds one key message")
            key_msg = msgs[0]
            if type(key_msg) is not dict:
                raise CheatDetected(author, "key", "not a key message")
            read_key_message(self.game_id, author, key_msg, group=self.group)
            self.key_msgs.append(dict(key_msg))
            if len(self.key_msgs) == self.players:
                self._make_decks()
            return
        for msg in msgs:
            if type(msg) is not dict or type(msg.get("deck")) is not str or msg["deck"] not in self.decks:
                raise CheatDetected(author, "deal", "a deck message names no deck of this game")
            deck = self.decks[msg["deck"]]
            kind = msg.get("type")
            if kind == "deck/shares":
                wanted = {p.handle for p in self.pending + self.regiven
                          if p.deck == msg["deck"] and p.to != author}
                handles = msg.get("handles")
                if type(handles) is not bytes or not set(unpack_handles(handles)) <= wanted:
                    raise CheatDetected(author, "deal", "shares for cards that are not being dealt")
            elif kind != "deck/shuffle":  # a shuffle's turn, number and proof: FairDeck checks them
                raise CheatDetected(author, "deal", f"a deck entry cannot hold {kind!r}")
            deck.receive(author, msg, context, defer=self.defer)
            for check in deck.unchecked:
                if check.where is None:
                    check.where = where
        self.regiven = [p for p in self.regiven if self.decks[p.deck].missing_shares(p.handle)]

    def require_checked(self) -> None:
        """Check every proof still pending, of every deck (``FairDeck.require_checked``), those
        of all the decks together first (``net.deck.checks.together``)."""
        together([c for deck in self.decks.values() for c in deck.unchecked])
        for deck in self.decks.values():
            deck.require_checked()

    def check_beside(self) -> None:
        """Hand every proof taken unchecked to the worker thread (``net.deck.checks``): the
        shuffles at once (a seat sums those of a round as they come, ``Chain``), the shares of
        cards in other hands once the deal is done."""
        if not self.beside:
            return
        for deck in self.decks.values():
            deck_checks_beside(deck)

    def raise_found(self) -> None:
        """Name the author of shares the worker thread found false (``CheatDetected``, at
        their entry), without waiting for any check still under way (a shuffle's is named
        before the deal, as ever)."""
        for deck in self.decks.values():
            for check in deck.unchecked:
                if check.done and isinstance(check, ShareCheck):
                    check.run()

    def _make_decks(self) -> None:
        self.keys = PublicKeys.from_messages(self.game_id, self.key_msgs, group=self.group)
        for deck_id, kinds in self.deck_specs():
            table = card_table(f"{self.game}/{deck_id}", len(kinds), self.group)
            seat = self.me if self.secret is not None else None
            self.decks[deck_id] = FairDeck(self.keys, deck_id, table, range(len(kinds)), seat, self.secret)
            self.kinds[deck_id] = kinds

    def restore_secret(self, fields: Mapping[str, Value]) -> bool:
        """Take back this seat's own secret (after a restart, from its journal) before its own
        key entry is read, since the last key makes the decks; whether it was taken."""
        secret = fields.get("secret")
        if type(secret) is not bytes or self.me == HOST:
            return False
        try:
            self.secret = g.decode_scalar(secret)
        except ValueError:
            return False
        return True

    def forget_secret(self) -> None:
        """Drop this seat's secret (the game is over): no deck of this dealer opens a card any
        more."""
        self.secret = None
        for deck in self.decks.values():
            deck.forget_secret()

    # -- act entries --------------------------------------------------------------------------

    def deck_of(self, author: int) -> str:
        """The deck whose cards ``author``'s moves name."""
        raise NotImplementedError

    def act_fields(self, view: S, action: A, context: bytes) -> Fields:
        """The fields this seat adds to its ``act`` entry for ``action``."""
        handles, to_open = self.choose(view, action)
        fields: Fields = {}
        if handles:
            fields["handles"] = pack_handles(handles)
        if to_open:
            fields["open"] = self.decks[self.deck_of(self.me)].make_open(to_open, context)
        return fields

    def read_act(self, view: S, action: A, fields: Mapping[str, Value], author: int,
                 context: bytes) -> tuple[A, S]:
        """Check an ``act`` entry's cards (on a fork): the action as this peer knows it and the
        view to check it on. ``CheatDetected`` or ``MoveError`` when they do not fit."""
        if self.public(view, action) != action:
            raise MoveError("an action must travel in its public form (face-down cards unknown)")
        packed = fields.get("handles", b"")
        if type(packed) is not bytes or len(packed) % 4 or len(packed) > 4 * MAX_HANDLES:
            raise MoveError("handles are 4 bytes each")
        handles = unpack_handles(packed)
        if len(set(handles)) != len(handles):
            raise MoveError("a card named twice")
        deck_id = self.deck_of(author)
        opened: dict[int, int] = {}
        msg = fields.get("open")
        if msg is not None:
            if type(msg) is not dict or msg.get("deck") != deck_id or msg.get("type") != "deck/shares":
                raise MoveError("an open is a deck/shares message of the author's deck")
            deck = self.decks[deck_id]
            packed_shown = msg.get("handles")
            shown = unpack_handles(packed_shown) if type(packed_shown) is bytes else []
            if any(deck.holder(h) != author for h in shown if h < deck.handles):
                raise MoveError("an open shows only the author's own cards")
            for event in deck.receive(author, msg, context):
                if isinstance(event, CardOpened):
                    opened[event.handle] = self.kinds[deck_id][event.card]
        return self.move(view, action, author, handles, opened)


#: a fair dealer of some game, seen through the contract: what a table that learns its game
#: from the start entry holds
SomeDealer = FairDealer[GameState, GameAction, GameConfig]
