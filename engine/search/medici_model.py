"""The tables of the model of Court of the Medici players' choices that the search believes
(``engine.search.medici_beliefs`` says what they mean and how they were measured), and the
guess a rollout's striker makes at a hidden card it cannot see."""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

from engine.medici.cards import COPIES, RANKS

#: how much likelier a card of each rank (Noble 2..10, Minister, Lady, Jester, Duke) is to be a
#: hidden alliance card than an unseen card picked at random (the greedy set-up rule)
HIDE = (2.72, 1.59, 0.72, 0.23, 0.05, 0.01, 0.0, 0.0, 0.0, 3.67, 3.55, 0.0, 0.0)
#: ... to be a top card before the flip (its holder's crown)
TOP = (0.0, 0.0, 0.02, 0.11, 0.41, 1.06, 2.13, 3.22, 3.67, 0.0, 0.0, 0.0, 3.67)
#: ... to be in a hand rather than a deck
HAND = (1.21, 1.48, 2.21, 1.93, 1.09, 0.88, 0.57, 0.34, 0.24, 0.30, 0.97, 1.29, 0.32)
#: the model's weight against the uniform belief
TRUST = 0.7


def _mixed(table: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(TRUST * x + (1.0 - TRUST) for x in table)


#: the weights by rank, mixed with the uniform belief
HIDE_W, TOP_W, HAND_W = _mixed(HIDE), _mixed(TOP), _mixed(HAND)

#: the rank a quick judgement (``engine.search.medici.prior``) takes a hidden card its striker
#: cannot see to be: Noble 2, about a hidden card's worth under the model
GUESS_RANK = 0

#: a hidden card's rank as the model believes it before anything is seen: its copies times
#: its weight to be hidden, as cumulative weights
_GUESS = tuple(accumulate(COPIES[r] * HIDE_W[r] for r in range(RANKS)))


def guess_rank(rng: random.Random) -> int:
    """A rank for a hidden card that a rollout's striker cannot see, drawn by the model (one
    call on ``rng``): the striker plans its strike on it; the strike resolves with the card
    the determinization dealt."""
    return bisect_right(_GUESS, rng.random() * _GUESS[-1])
