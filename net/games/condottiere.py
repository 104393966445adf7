"""Condottiere through the fair deck: one shared pile of 110 physical cards, moved by handle.

Rules:

=========================  ======================================================================
step                       deck, and what is checked when
=========================  ======================================================================
start (a lot)              from the joint seed
deal                       one run of ``deal(seat)`` up to the end of the pile, then each seat's
                           shares of the other seats' cards in one entry
play face up               the handle is opened in the same entry; the card must be the one named,
                           and the play legal with it
play face down (Hidden     the handle moves to the line, unopened, with a proof that the card is
Cards)                     one that may go face down (a mercenary, Heroine, Courtesan or Drummer),
                           without saying which (``FairDeck.prove_one_of``); any of those may be
                           played, and it is shown at the showdown
reveal, showdown           the seat opens the handle of its k-th face-down card; the card must be
                           the one named
Scarecrow                  the mercenary taken back is a shown card: it goes back to the hand,
                           and the author masks its whole hand anew in the same entry
                           (``rehand``, ``net.deck.rehand``): new handles, with a shuffle
                           proof, and every other seat's shares of them (a deal without a draw),
                           so no handle links a card played or kept face down later to the
                           card shown
discard (step 4)           the seat opens its whole hand: the rules check it holds no mercenary
keep (round end)           the entry names the kept handles: any one or two cards of the hand may
                           be kept; the rest of the hand goes under the pile unopened (shown cards
                           simply leave the hand)
the pile refilled          the rules moved the discards into the pile: every shown card out of a
                           hand is added face up (``reshuffle``), every hidden card that left a
                           hand without being shown goes under the pile, then every seat
                           shuffles again
=========================  ======================================================================

A shown card out of the hands is in a line or in the discards: they are alike to the deck, and a
Scarecrow's mercenary is taken back from the author's line by kind (of its face-up cards of that
kind, the one that went face up first).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.condottiere import Action, CondottiereConfig, State
from engine.condottiere.cards import COPIES, SCARECROW
from engine.condottiere.state import mk
from engine.condottiere.view import face_down_kinds, plays_face_down, public_action
from engine.core import UNKNOWN
from net.deck.fair_deck import unpack_handles
from net.deck.group import CURRENT_VERSION
from net.deck.rehand import make_rehand, receive_rehand
from net.games.dealer import FairDealer, MoveError, Pending
from net.wire.errors import HOST
from net.wire.rpc import Fields, Value

PILE = "pile"


class CondottiereDealer(FairDealer[State, Action, CondottiereConfig]):
    game = "condottiere"
    ACT_FIELDS = {**FairDealer.ACT_FIELDS, "kind_proof": bytes, "rehand": dict}

    def __init__(self, game_id: bytes, config: CondottiereConfig, seed: bytes, me: int, secret: int | None,
                 version: int = CURRENT_VERSION) -> None:
        super().__init__(game_id, config, seed, me, secret, version)
        n = self.players
        self.face_down = face_down_kinds(self.config)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.down: list[list[int]] = [[] for _ in range(n)]  # face-down handles, in line order
        self.up: list[list[int]] = [[] for _ in range(n)]  # face-up handles in the line

    def _fork_game(self, new: FairDealer[State, Action, CondottiereConfig]) -> None:
        assert isinstance(new, CondottiereDealer)
        new.hands = [list(h) for h in self.hands]
        new.down = [list(d) for d in self.down]
        new.up = [list(u) for u in self.up]

    def deck_specs(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(PILE, tuple(k for k, n in enumerate(COPIES) for _ in range(n)))]

    def deck_of(self, author: int) -> str:
        return PILE

    def lot(self, view: State, rng: random.Random) -> Action | None:
        if view.phase != "start":
            return None
        return mk("start", rng.randrange(self.players))

    def plan(self, view: State) -> list[tuple[str, int | None]]:
        if view.phase != "deal":
            return []
        n, turn = self.players, view.turn
        seats: list[tuple[str, int | None]] = []
        for k in range(n):
            seat = (turn + k) % n
            seats += [(PILE, seat)] * view.owed[seat]
        return seats[: len(self.decks[PILE].pile)]

    def draw_action(self, view: State, p: Pending, card: int) -> Action:
        assert p.to is not None
        self.hands[p.to].append(p.handle)
        return mk("draw", p.to, card=card)

    def _face_down(self, action: Action) -> bool:
        return action.kind == "play" and plays_face_down(self.config, action.card)

    # -- a card played face down must be one that may go face down --------------------------

    @functools.cached_property
    def _may_go_down(self) -> list[int]:
        """The physical cards of the kinds that may be played face down (known once the deck
        is made)."""
        return [c for c, kind in enumerate(self.kinds[PILE]) if kind in self.face_down]

    def act_fields(self, view: State, action: Action, context: bytes) -> Fields:
        fields = super().act_fields(view, action, context)
        if action.kind == "play" and self._face_down(action):
            deck = self.decks[PILE]
            packed = fields["handles"]
            assert type(packed) is bytes  # as ``FairDealer.act_fields`` packs them
            (h,) = unpack_handles(packed)
            if not deck.is_open(h):
                fields["kind_proof"] = deck.prove_one_of(h, self._may_go_down, context)
        back = self._taken_back(action, self.me)
        if back is not None:  # the hand as it will be, the shown card back in it
            packed = fields["handles"]
            assert type(packed) is bytes
            (played,) = unpack_handles(packed)
            hand = [h for h in self.hands[self.me] if h != played] + [back]
            fields["rehand"] = make_rehand(self.decks[PILE], hand, context)
        return fields

    def _taken_back(self, action: Any, seat: int) -> int | None:
        """The shown mercenary a Scarecrow ``action`` of ``seat`` takes back, if any."""
        if action.kind != "play" or action.taken < 0 or action.card != SCARECROW:
            return None
        return next((x for x in self.up[seat] if self.kind(PILE, x) == action.taken), None)

    def read_act(self, view: State, action: Action, fields: Mapping[str, Value], author: int,
                 context: bytes) -> tuple[Action, State]:
        if action.card == UNKNOWN and self._face_down(action):
            packed = fields.get("handles")
            deck = self.decks[PILE]
            if type(packed) is bytes and len(packed) == 4:
                (h,) = unpack_handles(packed)
                if h < deck.handles and deck.holder(h) == author and not deck.is_open(h) \
                        and not deck.verify_one_of(author, h, self._may_go_down,
                                                   fields.get("kind_proof"), context):
                    raise MoveError("the card played face down is not shown to be one that may "
                                    "go face down (its kind proof fails)")
        back = self._taken_back(action, author)
        if back is None and fields.get("rehand") is not None:
            raise MoveError("a hand is masked anew only when a shown card comes back to it")
        mine, check = super().read_act(view, action, fields, author, context)
        if back is not None and back in self.hands[author]:
            new = receive_rehand(self.decks[PILE], author, fields.get("rehand"), context,
                                 self.hands[author])
            self.hands[author] = new
            self.regiven += [Pending(PILE, h, author) for h in new]
        return mine, check

    def public(self, view: State, action: Action) -> Action:
        return public_action(view, action, HOST)

    # -- the author's side ----------------------------------------------------------------------

    def _find(self, cards: list[int] | tuple[int, ...], shown_first: bool = False) -> list[int]:
        """The handles of ``cards`` in this seat's hand: a card played face down or kept is
        taken from the copies no one has seen (a shown copy would tell every peer the hidden
        card), a card played face up from the shown ones."""
        deck = self.decks[PILE]
        left = sorted(self.hands[self.me], key=lambda h: deck.is_open(h) != shown_first)
        out = []
        for c in cards:
            h = next((h for h in left if self.kind(PILE, h) == c), None)
            if h is None:
                raise ValueError(f"no card {c} in this seat's hand")
            left.remove(h)
            out.append(h)
        return out

    def choose(self, view: State, action: Action) -> tuple[list[int], list[int]]:
        deck = self.decks[PILE]
        k = action.kind
        if k == "play":
            hs = self._find([action.card], shown_first=not self._face_down(action))
            return hs, [] if self._face_down(action) or deck.is_open(hs[0]) else hs
        if k == "reveal":
            h = self.down[self.me][_ordinal(view, self.me, action.position)]
            return [], [] if deck.is_open(h) else [h]
        if k == "discard":
            hand = list(self.hands[self.me])
            return hand, [h for h in hand if not deck.is_open(h)]
        if k == "keep":
            return self._find(action.cards), []
        return [], []

    # -- every peer's side ----------------------------------------------------------------------

    def move(self, view: State, action: Action, author: int, handles: list[int],
             opened: dict[int, int]) -> tuple[Action, State]:
        deck = self.decks[PILE]
        k = action.kind
        hand = self.hands[author]
        if any(h not in hand for h in handles):
            raise MoveError("the action names a card that is not in the author's hand")

        def check_shown(hs: list[int]) -> list[int]:
            if set(opened) - set(hs):
                raise MoveError("the entry opens cards the action does not show")
            if any(not deck.is_open(h) for h in hs):
                raise MoveError("a card shown must be opened in the entry")
            return [self.kinds[PILE][deck.card(h)] for h in hs]  # type: ignore[index]

        if k in ("draw", "start"):
            raise MoveError("chance steps come from the dealer, not from an entry")
        if k == "play":
            if len(handles) != 1:
                raise MoveError("a play names one card of the author's hand")
            h = handles[0]
            if action.card == UNKNOWN:
                if opened:
                    raise MoveError("a card played face down is not opened")
                known = self.kind(PILE, h)
                if known is not None and known not in self.face_down:
                    raise MoveError(f"card {known} cannot be played face down")
                hand.remove(h)
                self.down[author].append(h)
                if author == self.me:
                    return action._replace(card=self.known(PILE, h)), view
                return action, _forget_hand(view, author)
            (kind,) = check_shown([h])
            if kind != action.card:
                raise MoveError(f"false reveal: the card shown is {kind}, not {action.card}")
            hand.remove(h)
            self.up[author].append(h)
            if action.taken >= 0 and _is_scarecrow(kind):
                back = next((x for x in self.up[author] if self.kind(PILE, x) == action.taken), None)
                if back is None:
                    raise MoveError("no mercenary of that kind in the author's line to take back")
                self.up[author].remove(back)
                hand.append(back)
            return action, view
        if k == "reveal":
            try:
                h = self.down[author].pop(_ordinal(view, author, action.position))
            except (ValueError, IndexError):
                raise MoveError("no face-down card of the author's there") from None
            (kind,) = check_shown([h])
            if kind != action.card:
                raise MoveError(f"false reveal: the card shown is {kind}, not {action.card}")
            self.up[author].append(h)
            return action, view
        if k == "discard":
            if sorted(handles) != sorted(hand):
                raise MoveError("a discard shows the whole hand")
            if Counter(check_shown(handles)) != Counter(action.cards):
                raise MoveError("false reveal: the cards shown are not the cards discarded")
            hand.clear()
            return action, view
        if opened:
            raise MoveError("the entry opens cards the action does not show")
        if k == "keep":
            if len(handles) != len(action.cards):
                raise MoveError("a keep names each card kept")
            for h in hand:
                if h not in handles and not deck.is_open(h):
                    deck.return_to_bottom(h)
            self.hands[author] = list(handles)
            if author == self.me:
                kept = tuple(sorted(self.known(PILE, h) for h in handles))
                return action._replace(cards=kept), view
            return action, _forget_hand(view, author)
        if handles:
            raise MoveError(f"a {k} names no card")
        return action, view

    def _held(self) -> set[int]:
        return {h for hs in (*self.hands, *self.down, *self.up) for h in hs}

    def settle(self, view: State) -> None:
        deck = self.decks.get(PILE)
        if deck is None:
            return
        for seat in range(self.players):
            # a hand (or a line) the rules emptied into the pile: hidden cards go under it
            if not view.hands[seat]:
                self._under_the_pile(self.hands[seat])
            if not view.lines[seat]:
                self._under_the_pile(self.down[seat])
            # the face-up cards the rules took out of the line (Winter, Bishop, the battle's end)
            count = Counter(c for c, up in view.lines[seat] if up)
            stay = []
            for h in self.up[seat]:
                kind = self.kind(PILE, h)
                if kind is not None and count[kind]:
                    count[kind] -= 1
                    stay.append(h)
            self.up[seat] = stay
        waiting = len(deck.pile) + len(self.pending)
        if sum(view.pile) > waiting:
            held = self._held()
            back = [deck.card(h) for h in range(deck.handles)
                    if h not in held and deck.in_play(h) and deck.is_open(h)]
            deck.reshuffle(sorted(back))  # type: ignore[arg-type]
        if sum(view.pile) != len(deck.pile) + len(self.pending):
            raise RuntimeError(
                f"the pile holds {sum(view.pile)} cards by the rules, {len(deck.pile)} in the deck")


    def _under_the_pile(self, cards: list[int]) -> None:
        deck = self.decks[PILE]
        for h in cards:
            if not deck.is_open(h):
                deck.return_to_bottom(h)
        cards.clear()


def _ordinal(view: State, seat: int, pos: int) -> int:
    line = view.lines[seat]
    if not 0 <= pos < len(line) or line[pos][1]:
        raise ValueError(f"no face-down card at position {pos}")
    return sum(1 for _, up in line[:pos] if not up)


def _is_scarecrow(kind: int) -> bool:
    return kind == SCARECROW


def _forget_hand(view: State, seat: int) -> State:
    """A reader that knows some cards of a hand (a mercenary a Scarecrow took back) and sees an
    unknown card leave it forgets which cards it knew there, so that the rules can apply the
    masked action (a reader that knows less checks less, and never wrongly)."""
    hand = view.hands[seat]
    if all(c == UNKNOWN for c in hand):
        return view
    v = view.copy()
    v.hands = v.hands[:seat] + ((UNKNOWN,) * len(hand),) + v.hands[seat + 1:]
    return v
