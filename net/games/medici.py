"""Court of the Medici through the fair deck: which card moves where, by handle.

Each house has its own deck (``house0``, ``house1``, ...: the house's 25 cards, one physical card
per copy) and only its owner draws from it, so every card a seat moves is a card of its own
deck, named by its handle there. Rules:

==========================  =====================================================================
step                        deck, and what is checked when
==========================  =====================================================================
deal (11 cards each)        one run: ``deal(owner)`` x 11 per deck, then each seat's shares of
                            the other seats' cards in one entry
draw                        ``deal(owner)``; the deck's last card ``deal(None)``: shown to all
                            (every seat's share, the owner's included)
first (a tie)               a lot from the joint seed
hide, top                   the handle moves, unopened, to the alliance slot: any card of the
                            hand may go there, and the handle shows it is one
flip, reveal (a strike)     the placer opens the slot's handle; the card must be the one named,
                            and, on a strike on the striker's own hidden card (three players),
                            one that makes a match (the rules' reveal checks the strike)
court, build, conspire,     the handle is opened in the same entry; the card must be the one
strike                      named, and the play legal with it
plan                        ``return_to_bottom(handle)``: unopened, any card of the hand (none
                            of it was shown: a card is shown only as its deck's last, and a
                            plan needs a card in the deck; so no handle links a card planned,
                            hidden or placed on top to a card shown)
stuck                       the seat names its whole hand and opens none of it: for each card
                            of it not shown yet, a proof that it is one of the physical cards of
                            its deck it may not play under its limit (``stuck_proof``, one
                            one-of proof per such card, in the order of ``handles``); the rules
                            check the cards shown. (Records of version 1 open the whole hand.)
==========================  =====================================================================

Nothing else needs a hidden card: a strike on a card another seat placed is legal or not by
what everyone sees, and every other move shows its card.
"""

from __future__ import annotations

import random
from typing import Any

from engine.medici import Action, MediciConfig, State
from engine.medici.cards import house_deck
from engine.medici.moves import card_moves
from engine.medici.rules import first_candidates
from engine.medici.state import mk
from engine.medici.view import FACE_DOWN, draw_shown, public_action
from net.deck.fair_deck import DeckFault, unpack_handles
from net.deck.group import CURRENT_VERSION
from net.games.dealer import FairDealer, MoveError, Pending
from net.wire.errors import HOST

_SHOWN = frozenset(("court", "build", "conspire", "strike"))
HAND_START = 11


class MediciDealer(FairDealer[State, Action, MediciConfig]):
    game = "medici"
    ACT_FIELDS = {**FairDealer.ACT_FIELDS, "stuck_proof": bytes}

    def __init__(self, game_id: bytes, config: MediciConfig, seed: bytes, me: int, secret: int | None,
                 version: int = CURRENT_VERSION) -> None:
        super().__init__(game_id, config, seed, me, secret, version)
        n = self.players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.hidden: dict[tuple[int, int], int] = {}  # (placer, holder) -> handle
        self.tops: dict[tuple[int, int], int] = {}  # (seat, slot) -> handle
        self.bottoms: list[list[int | None]] = [[] for _ in range(n)]  # shown handle or None

    def _fork_game(self, new: FairDealer[State, Action, MediciConfig]) -> None:
        assert isinstance(new, MediciDealer)
        new.hands = [list(h) for h in self.hands]
        new.hidden = dict(self.hidden)
        new.tops = dict(self.tops)
        new.bottoms = [list(b) for b in self.bottoms]

    def deck_specs(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(self.deck_of(h), house_deck(h)) for h in range(self.players)]

    def deck_of(self, author: int) -> str:
        return f"house{author}"

    def lot(self, view: State, rng: random.Random) -> Action | None:
        if view.phase != "first":
            return None
        tied = first_candidates(view)
        return mk("first", tied[rng.randrange(len(tied))])

    def plan(self, view: State) -> list[tuple[str, int | None]]:
        n, turn = self.players, view.turn
        if view.phase == "deal":
            return [(self.deck_of(s), s) for s in range(turn, n)
                    for _ in range(HAND_START - len(view.hands[s]))]
        if not view.pools[turn] and self.bottoms[turn] and self.bottoms[turn][0] is not None:
            return []  # a shown card comes back: no deal (``_immediate``)
        # the card is dealt face up when the rules show it to all (a deck's last card)
        return [(self.deck_of(turn), None if draw_shown(view, turn) else turn)]

    def _immediate(self, view: State) -> Action | None:
        seat = view.turn
        handle = self.bottoms[seat].pop(0)
        assert handle is not None
        self.hands[seat].append(handle)
        deck_id = self.deck_of(seat)
        card = self.kind(deck_id, handle)
        if card is None:
            # the card came back shown, so every peer knows it: not knowing it is a fault of
            # this program
            raise DeckFault(deck_id, handle, "a shown card is unknown to this seat")
        return mk("draw", seat, card=card)

    def draw_action(self, view: State, p: Pending, card: int) -> Action:
        seat = view.turn
        if not view.pools[seat]:
            self.bottoms[seat].pop(0)
        self.hands[seat].append(p.handle)
        return mk("draw", seat, card=card)

    def public(self, view: State, action: Action) -> Action:
        return public_action(view, action, HOST)

    # -- the author's side ----------------------------------------------------------------------

    def _find(self, card: int, shown_first: bool = False) -> int:
        """The handle of a ``card`` in this seat's hand: a card placed face down is taken from
        the copies no one has seen (a shown copy would tell every peer the hidden card), a card
        played face up from the shown ones."""
        deck_id = self.deck_of(self.me)
        deck = self.decks[deck_id]
        for h in sorted(self.hands[self.me], key=lambda h: deck.is_open(h) != shown_first):
            if self.kind(deck_id, h) == card:
                return h
        raise ValueError(f"no card {card} in this seat's hand")

    def choose(self, view: State, action: Action) -> tuple[list[int], list[int]]:
        deck = self.decks[self.deck_of(self.me)]
        k = action.kind
        if k in FACE_DOWN:
            return [self._find(action.card)], []
        if k in _SHOWN:
            h = self._find(action.card, shown_first=True)
            return [h], [] if deck.is_open(h) else [h]
        if k in ("reveal", "flip"):
            h = self.hidden[(self.me, view.turn)] if k == "reveal" else self.tops[(self.me, action.slot)]
            return [], [] if deck.is_open(h) else [h]
        if k == "stuck":
            hand = list(self.hands[self.me])
            return hand, [h for h in hand if not deck.is_open(h)] if self.version == 1 else []
        return [], []

    def act_fields(self, view: Any, action: Any, context: bytes) -> dict[str, Any]:
        fields = super().act_fields(view, action, context)
        if action.kind == "stuck" and self.version != 1:
            deck = self.decks[self.deck_of(self.me)]
            cards = self.unplayable(view, self.me)
            proofs = [deck.prove_one_of(h, cards, context)
                      for h in self.hands[self.me] if not deck.is_open(h)]
            if proofs:
                fields["stuck_proof"] = b"".join(proofs)
        return fields

    # -- a stuck hand, shown to be unplayable card by card without saying which -----------------

    def unplayable(self, view: Any, seat: int) -> list[int]:
        """The physical cards of ``seat``'s deck it may not play under its limit now."""
        limit = view.limits[seat]
        return [i for i, c in enumerate(self.kinds[self.deck_of(seat)])
                if not card_moves(seat, c, limit)[0]]

    def read_act(self, view: Any, action: Any, fields: Any, author: int,
                 context: bytes) -> tuple[Any, Any]:
        if action.kind == "stuck" and self.version != 1:
            self._check_stuck(view, fields, author, context)
        return super().read_act(view, action, fields, author, context)

    def _check_stuck(self, view: Any, fields: Any, author: int, context: bytes) -> None:
        """Every card of the author's hand not shown yet carries a one-of proof that it is a card
        it may not play (``MoveError`` naming the check, ``stuck check``)."""
        packed = fields.get("handles", b"")
        deck = self.decks[self.deck_of(author)]
        hand = self.hands[author]
        if type(packed) is not bytes or len(packed) % 4 or fields.get("open") is not None:
            raise MoveError("stuck check: a stuck seat names its whole hand and opens none of it")
        hidden = [h for h in unpack_handles(packed) if h in hand and not deck.is_open(h)]
        cards = self.unplayable(view, author)
        proof = fields.get("stuck_proof", b"")
        size = 64 * len(cards)
        if type(proof) is not bytes or len(proof) != size * len(hidden) or (hidden and not cards):
            raise MoveError(f"stuck check: one proof of {size} bytes for each of the "
                            f"{len(hidden)} cards of the hand not shown")
        for i, h in enumerate(hidden):
            if not deck.verify_one_of(author, h, cards, proof[i * size:(i + 1) * size], context):
                raise MoveError(f"stuck check: card {h} of the hand is not shown to be one it may "
                                "not play under its limit (its one-of proof fails)")

    # -- every peer's side ----------------------------------------------------------------------

    def move(self, view: State, action: Action, author: int, handles: list[int],
             opened: dict[int, int]) -> tuple[Action, State]:
        deck_id = self.deck_of(author)
        deck = self.decks[deck_id]
        k = action.kind
        hand = self.hands[author]

        def take() -> int:
            if len(handles) != 1 or handles[0] not in hand:
                raise MoveError("the action must name one card of the author's hand")
            hand.remove(handles[0])
            return handles[0]

        def shown(h: int) -> None:
            if set(opened) - {h}:
                raise MoveError("the entry opens cards the action does not show")
            kind = self.kind(deck_id, h)
            if not deck.is_open(h) or kind is None:
                raise MoveError("a card played face up must be opened in the entry")
            if kind != action.card:
                raise MoveError(f"false reveal: the card shown is {kind}, not {action.card}")

        if k in ("draw", "first"):
            raise MoveError("chance steps come from the dealer, not from an entry")
        if k not in _SHOWN and k not in ("reveal", "flip", "stuck") and opened:
            raise MoveError("the entry opens cards the action does not show")
        if k in FACE_DOWN:
            h = take()
            if k == "hide":
                self.hidden[(author, action.before)] = h
            elif k == "top":
                self.tops[(author, action.slot)] = h
            elif deck.is_open(h):
                self.bottoms[author].append(h)
            else:
                deck.return_to_bottom(h)
                self.bottoms[author].append(None)
            if author == self.me:
                return action._replace(card=self.known(deck_id, h)), view
            return action, view
        if handles and k not in _SHOWN and k != "stuck":
            raise MoveError(f"a {k} names no card")
        if k in _SHOWN:
            shown(take())
        elif k == "reveal":
            found = self.hidden.pop((author, view.turn), None)
            if found is None:
                raise MoveError("no card of the author's at that slot")
            shown(found)
        elif k == "flip":
            found = self.tops.pop((author, action.slot), None)
            if found is None:
                raise MoveError("no card of the author's at that slot")
            shown(found)
        elif k == "stuck":
            if sorted(handles) != sorted(hand):
                raise MoveError("a stuck seat shows its whole hand")
            if self.version != 1:  # the proofs were checked (``_check_stuck``); nothing opens
                return action, view
            if any(not deck.is_open(h) for h in hand) or set(opened) - set(hand):
                raise MoveError("a stuck seat opens every card of its hand")
            kinds = [self.known(deck_id, h) for h in hand]  # every one opened
            v = view.copy()
            v.hands = v.hands[:author] + (tuple(sorted(kinds)),) + v.hands[author + 1:]
            return action, v
        return action, view
