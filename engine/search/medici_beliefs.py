"""What a seat believes of the cards it cannot see in Court of the Medici, from what each seat
has shown by its choices.

The search (``engine.search.ismcts``) plays many games from full states drawn to fit the seat's
view. ``engine.search.medici.determinize`` draws them uniformly: every way to deal a house's
unseen cards into its hidden places equally likely. But the places were filled by choices, and
players choose with a purpose, so some deals are much likelier than others. This module draws
them by a model of those choices instead (``prepare``, ``determinize``).

The model
---------
Each hidden place is filled by a choice or by chance:

* **a hidden alliance card** (``hide``): its placer chose it among its eleven opening cards,
  and a placer keeps its useful cards: it hides its weakest ones (Ministers, Ladies, low
  nobles), keeps its Jesters, and crowns its own alliances with its strongest (which everyone
  sees once they are turned up). ``HIDE[rank]`` (``engine.search.medici_model``) is how much likelier a card of that rank is to
  be hidden than an unseen card at random;
* **a top card not yet turned up** (``top``, only until the flip): its holder crowned its
  alliance with one of its strongest cards: ``TOP[rank]``;
* **a card in another seat's hand**: what the seat kept when it played. A player spends its
  strong nobles and its Ministers early (they gain the most at once) and keeps middle nobles,
  Ladies and Jesters for later: ``HAND[rank]``;
* **a card in a deck** (a pool, or under it): chance; what is left.

``HIDE`` and ``TOP`` are the greedy set-up rule (``engine.medici.bots.GreedyBot``) worked out
over 20,000 random opening hands: the rate at which a card of each rank ends hidden (or on top)
against the 3 in 11 of a card picked at random. ``HAND`` is the rate at which a card of each
rank sits in another seat's hand rather than its deck, counted at every move of 30 games of
four greedy bots (option ``end_when_all_struck``). Each table is mixed with the
uniform belief (``TRUST`` of the model, the rest uniform), so that a player who chooses
otherwise (a person, a bot that searches its set-up) is still well inside what the search
considers, and no card is ever ruled out: each rank keeps at least ``1 - TRUST`` of its weight.

A house's unseen cards are dealt place by place, in that order (hidden alliance cards, tops,
hands, then decks): each place takes one of the cards left with a chance proportional to the
card's weight for that kind of place. It is a draw from the product of the per-place beliefs
restricted to the deals the view allows (the cards of a house fill its places exactly), which
is what a player who reads the table that way would believe. What each seat has shown of its
choices that the view keeps (its crowns, what it holds when its deck is empty, what is left in
the middle) enters through the unseen cards themselves: a card shown anywhere is no longer
unseen.

Nothing here reads a hidden card: the draws depend on the view alone (the search masks what it
is handed to the seat's view first), and the rollouts (``engine.search.medici``) judge a strike
by what its striker may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine.core import UNKNOWN
from engine.medici.cards import RANKS
from engine.medici.state import State
from engine.search.determinize import deal
from engine.search.medici import GAME as UNIFORM
from engine.search.medici import hidden_slots, unseen_by_house
from engine.search.medici_model import HAND_W, HIDE_W, TOP_W


def _take(pile: list[int], weights: tuple[float, ...], k: int, rng: random.Random) -> list[int]:
    """``k`` cards taken out of ``pile``, each with a chance proportional to its rank's weight."""
    out = []
    rand = rng.random
    for _ in range(k):
        total = 0.0
        for c in pile:
            total += weights[c % RANKS]
        x = rand() * total
        i = 0
        last = len(pile) - 1
        while i < last:
            x -= weights[pile[i] % RANKS]
            if x < 0:
                break
            i += 1
        out.append(pile.pop(i))
    return out


def prepare(v: State, seat: int) -> Callable[[random.Random], State]:
    """A function ``rng -> state`` drawing full states that fit view ``v`` of ``seat`` by the
    model (see the module docstring); the view's hidden places and unseen cards are counted
    once. Each draw is a fresh state."""
    slots, cards = hidden_slots(v), unseen_by_house(v)
    deal(slots, cards, random.Random(0))  # refuse an inconsistent view now
    if not any(slots.values()):
        return lambda rng: v.copy()
    n = v.players
    # per house: how many of its places of each kind are hidden
    hide = [0] * n
    top = [0] * n
    for holder, row in enumerate(v.alliances):
        for a in row:
            if a is not None:
                if a[1] == UNKNOWN:
                    hide[a[0]] += 1
                if a[2] == UNKNOWN:
                    top[holder] += 1
    hand = [h.count(UNKNOWN) for h in v.hands]
    piles = [sorted(cards[h]) for h in range(n)]

    def draw(rng: random.Random) -> State:
        # per house: its hidden cards, tops, hand cards and deck cards, in the order filled
        dealt: list[tuple[list[int], list[int], list[int], list[int]]] = []
        for h in range(n):
            pile = list(piles[h])
            hidden = _take(pile, HIDE_W, hide[h], rng) if hide[h] else []
            tops = _take(pile, TOP_W, top[h], rng) if top[h] else []
            held = _take(pile, HAND_W, hand[h], rng) if hand[h] else []
            rng.shuffle(pile)
            dealt.append((hidden, tops, held, pile))
        s = v.copy()
        s.hands = tuple(
            h if UNKNOWN not in h else tuple(sorted([c for c in h if c != UNKNOWN] + dealt[i][2]))
            for i, h in enumerate(v.hands)
        )
        pools = []
        for i, p in enumerate(v.pools):
            if UNKNOWN in p:
                rest = dealt[i][3]
                k = p.count(UNKNOWN)
                p = tuple(sorted([c for c in p if c != UNKNOWN] + rest[-k:]))
                del rest[-k:]
            pools.append(p)
        s.pools = tuple(pools)
        bottoms = []
        for i, b in enumerate(v.bottoms):
            if UNKNOWN in b:
                rest = dealt[i][3]
                b = tuple(rest.pop() if c == UNKNOWN else c for c in b)
            bottoms.append(b)
        s.bottoms = tuple(bottoms)
        rows = []
        for holder, row in enumerate(v.alliances):
            new_row = []
            for a in row:
                if a is not None and (a[1] == UNKNOWN or a[2] == UNKNOWN):
                    placer, hidden_card, top_card, up = a
                    if hidden_card == UNKNOWN:
                        hidden_card = dealt[placer][0].pop()
                    if top_card == UNKNOWN:
                        top_card = dealt[holder][1].pop()
                    a = (placer, hidden_card, top_card, up)
                new_row.append(a)
            rows.append(tuple(new_row))
        s.alliances = tuple(rows)
        return s

    return draw


def determinize(v: State, seat: int, rng: random.Random) -> State:
    """A full state drawn by the model among those that look like ``v`` to ``seat``."""
    return prepare(v, seat)(rng)


#: the search's Court of the Medici with these beliefs (``engine.search.medici.GAME`` draws
#: uniformly)
GAME = replace(UNIFORM, determinize=determinize, prepare=prepare)
