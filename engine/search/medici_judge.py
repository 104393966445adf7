"""A judgement of a Court of the Medici position a few turns ahead, for rollouts that stop there.

Under the full game (the default end: no house has a shadow alliance left) a game lasts about
seventeen moves a seat, so a rollout played to the end is one long, noisy game of the rollout
policy's. A rollout that stops at a horizon (``HORIZON_TURNS`` turns past where it starts)
and judges the position there is cheaper and, if the judgement is right, a better estimate: the search's
setting ``judge=fitted`` does that; ``judge=rollout`` (the default) plays every rollout to the
end, as before.

The judgement (``evaluate``) gives each seat a chance to win: a soft maximum of a weighted sum
of its figures (``figures``):

* its influence in the middle (the score so far), in tens;
* the face-up cards of its shadow alliances still in front of it (they go to the middle with its
  strikes), in tens, and how many such alliances it holds;
* how many hidden cards it placed in front of others are still hidden (they score for its house
  once struck);
* the value of its hand, in tens, and how many cards it has left (hand and deck), in tens;
* whether it is the seat to move.

It reads nothing a seat cannot know of itself or the table: the middle and the face-up cards are
public, a hidden card counts only as a place (never its value), and a seat's hand is its own.
In the search's full states the other seats' hands are the ones its beliefs drew.

The weights were fitted by ``scripts/fit_medici_judge.py`` (a conditional logit) to how games
end, one set per end rule (``FITTED``, ``FITTED_SHORT``): what wins differs between them.

Measured, it is not yet a level's: with ``judge=fitted:widen=1:iterations=1200`` a hard bot won
4 of 9 games two against two with the hard of before, and struck 0.6 times a game where those
struck 2.7. The weight of the alliances held, fitted to how games of greedy bots end, makes every
strike look like a loss at a horizon that always lies ahead, and an alliance never struck
scores nothing when the decks run out. A judgement for the search wants the value of an
alliance held to fall as the decks empty (e.g. a figure of alliances held times cards left).

The same setting gives the set-up's moves (hiding, crowning) a prior (``setup_prior``): the
greedy rule's order, so that a set-up searched with a progressive bias starts from the greedy
choices (with ``judge=rollout`` every set-up move starts alike, as before).
"""

from __future__ import annotations

import math
from dataclasses import replace

from engine.medici import rules
from engine.medici.cards import JESTER, RANK_VALUE, RANKS
from engine.medici.state import VARIANTS, Action, State
from engine.search.game import SearchGame, mirrored_judged
from engine.search.medici import dealt_action, fast_action, prior, rewards, sample_chance
from engine.search.medici_sim import MIRRORED, simulate

#: turns a rollout plays past the position searched before the position is judged
HORIZON_TURNS = 8

#: the weights of ``figures`` under the full game (the default end): score, alliance tops,
#: alliances held, hidden cards placed, hand value, cards left, to move. Fitted by
#: ``scripts/fit_medici_judge.py --games 600 --every 3`` (seed 10000, easy bots): on the games
#: it was not fitted to, a log-loss of 1.171 against 2.270 for the score alone and 1.386 for
#: knowing nothing. A seat that still holds its alliances wins: it strikes last.
FITTED = (0.14, -0.56, 5.56, -0.34, -0.20, -0.22, -0.07)
#: the same under the short game (``--games 800 --every 1 --option short_game``: 1.228 against
#: 1.719 for the score alone, and 1.910 for ``FITTED``): there a seat that holds its alliances
#: loses, since whoever strikes its last one ends the game
FITTED_SHORT = (0.35, 0.24, -4.10, -0.17, 0.13, 2.42, 0.33)

_VALUE = tuple(RANK_VALUE[c % RANKS] for c in range(4 * RANKS))


def horizon(s: State) -> int:
    return s.turns + HORIZON_TURNS


def figures(s: State) -> list[list[float]]:
    """Per seat, the figures ``FITTED`` weighs (see the module docstring)."""
    n = s.players
    score = [0] * n
    for _, _, cards in s.middle:
        for c, _ in cards:
            score[c // RANKS] += _VALUE[c]
    tops = [0] * n
    held = [0] * n
    placed = [0] * n
    for holder, row in enumerate(s.alliances):
        for a in row:
            if a is not None:
                held[holder] += 1
                if a[3] and a[2] >= 0:
                    tops[holder] += _VALUE[a[2]]
                if a[0] != holder:
                    placed[a[0]] += 1
    out = []
    turn = s.turn
    for q in range(n):
        hand = s.hands[q]
        value = 0
        for c in hand:
            if c >= 0:
                value += _VALUE[c]
        left = len(hand) + len(s.pools[q]) + len(s.bottoms[q])
        out.append([score[q] / 10, tops[q] / 10, held[q] / 3, placed[q] / 3, value / 10,
                    left / 10, 1.0 if q == turn else 0.0])
    return out


def weights_for(s: State) -> tuple[float, ...]:
    """The weights of the end rule ``s`` is played under."""
    return FITTED if s.config.end_when_all_struck else FITTED_SHORT


def chances(s: State, weights: tuple[float, ...] | None = None) -> list[float]:
    """Each seat's chance to win as the judgement sees it (by default with the weights of the
    end rule the game is played under)."""
    if weights is None:
        weights = weights_for(s)
    scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in figures(s)]
    top = max(scores)
    e = [math.exp(x - top) for x in scores]
    z = sum(e)
    return [x / z for x in e]


def evaluate(s: State, until: int) -> list[float] | None:
    """At a turn's start at or past the horizon ``until``, each seat's chance to win
    (``chances``); ``None`` before it."""
    if s.phase != "play" or s.turns < until:
        return None
    return chances(s)


def _keep(c: int) -> int:
    """How much a seat wants to keep a card of its opening eleven (a Jester most)."""
    return 20 if c % RANKS == JESTER else _VALUE[c]


def setup_prior(s: State, a: Action, seat: int) -> float:
    """``engine.search.medici.prior``, and in the set-up the greedy rule's order
    (``engine.medici.bots.GreedyBot``) as a judgement in [-1, 1]: hide the cards least worth
    keeping (a Minister 1, a Noble 10 0, a Jester -1), crown with the strongest (a Duke 1, a
    Jester -1). A set-up searched with a progressive bias (and ``widen``) looks at the greedy
    choices first and leaves them only for what its iterations show."""
    kind = a.kind
    if kind == "hide":
        return max(-1.0, 1.0 - _keep(a.card) / 10)
    if kind == "top":
        return -1.0 if a.card % RANKS == JESTER else _VALUE[a.card] / 15
    return prior(s, a, seat)


def judged(game: SearchGame[State, Action]) -> SearchGame[State, Action]:
    """``game`` (the search's Court of the Medici, drawing hidden cards its own way) with
    rollouts that stop at the horizon and judge the position by ``evaluate``, and the set-up's
    moves judged by ``setup_prior``."""
    return replace(
        game,
        horizon=horizon,
        evaluate=evaluate,
        prior=setup_prior,
        judged_simulations={
            "fast": mirrored_judged(
                lambda s, until, rng: simulate(s, rng, fast_action, sample_chance, rewards,
                                               evaluate=evaluate, until=until),
                rules, VARIANTS, MIRRORED, fast_action, sample_chance, rewards, evaluate),
            "dealt": mirrored_judged(
                lambda s, until, rng: simulate(s, rng, dealt_action, sample_chance, rewards,
                                               guess=False, evaluate=evaluate, until=until),
                rules, VARIANTS, MIRRORED, dealt_action, sample_chance, rewards, evaluate),
        },
    )
