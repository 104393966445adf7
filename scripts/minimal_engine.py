"""A minimal game written in the style of palazzo's engine: the yardstick of ``bench_engine.py``.

Four seats, each with its own deck of 13 cards (one of each rank, ``seat * 13 + rank``). Each
seat draws three cards; then the seat on turn plays one card of its hand to a common pile and
draws again while its deck lasts. The game ends when every hand is empty: 104 steps.

It does what every step of a palazzo game does and nothing more: the state is an immutable
value of tuples, copied (``__slots__``, one attribute at a time) and changed only in the copy;
actions are named tuples; a draw is a chance step whose outcomes are listed with their
probabilities, one per card left in the deck (the deck is a sorted multiset, not an order); a
decision lists its legal actions, one per card in hand, in card order. The steps a second of a
real game, measured beside it in the same run, say what its rules cost above this floor.
"""

from __future__ import annotations

from typing import NamedTuple

CHANCE, TERMINAL = -1, -3
SEATS, RANKS, HAND = 4, 13, 3
_new = tuple.__new__


class Action(NamedTuple):
    kind: str
    seat: int
    card: int


class State:
    __slots__ = ("phase", "turn", "hands", "decks", "pile")
    phase: str
    turn: int
    hands: tuple[tuple[int, ...], ...]
    decks: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]

    def copy(self) -> State:
        new = object.__new__(State)
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.decks = self.decks
        new.pile = self.pile
        return new


def new_game() -> State:
    s = object.__new__(State)
    s.phase, s.turn = "deal", 0
    s.hands = ((),) * SEATS
    s.decks = tuple(tuple(range(seat * RANKS, (seat + 1) * RANKS)) for seat in range(SEATS))
    s.pile = ()
    return s


def current_player(s: State) -> int:
    phase = s.phase
    if phase == "play":
        return s.turn
    if phase in ("deal", "draw"):
        return CHANCE
    return TERMINAL


def chance_outcomes(s: State) -> list[tuple[Action, float]]:
    seat = s.turn
    deck = s.decks[seat]
    n = len(deck)
    return [(_new(Action, ("draw", seat, c)), deck.count(c) / n) for c in sorted(set(deck))]


def legal_actions(s: State) -> list[Action]:
    seat = s.turn
    return [_new(Action, ("play", seat, c)) for c in sorted(set(s.hands[seat]))]


def _set(t: tuple, i: int, v: object) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


def apply_unchecked(state: State, a: Action) -> State:
    s = state.copy()
    seat, c = a.seat, a.card
    hand = s.hands[seat]
    if a.kind == "draw":
        deck = s.decks[seat]
        i = deck.index(c)
        s.decks = _set(s.decks, seat, deck[:i] + deck[i + 1 :])
        s.hands = _set(s.hands, seat, tuple(sorted(hand + (c,))))
        if s.phase == "deal":
            if len(s.hands[seat]) == HAND:
                if seat + 1 == SEATS:
                    s.phase, s.turn = "play", 0
                else:
                    s.turn = seat + 1
        else:
            s.phase, s.turn = "play", (seat + 1) % SEATS
        return s
    i = hand.index(c)
    s.hands = _set(s.hands, seat, hand[:i] + hand[i + 1 :])
    s.pile = s.pile + (c,)
    if s.decks[seat]:
        s.phase = "draw"
    elif not any(s.hands):
        s.phase = "over"
    else:
        s.turn = (seat + 1) % SEATS
    return s
