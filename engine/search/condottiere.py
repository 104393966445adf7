"""Condottiere for the search bot: determinizer, observations, rollout policies.

Determinizing a view of seat ``s`` (see ``engine.condottiere.view`` for what it masks): the 110
cards of ``cards.COPIES`` are all somewhere: in hands, battle lines, the draw pile or the
discards. ``s`` sees its own hand, every face-up card in the lines, its own face-down cards and
the discards; the unseen cards are the deck minus all of those, and they fill exactly:

* the other seats' hands (their sizes are public);
* the other seats' face-down cards (Hidden Cards), which can only be of the kinds played face
  down (``cards.FACE_DOWN_KINDS``);
* the draw pile (a view counts only how many cards it holds);
* discards a view could not see (only in a view that followed masked actions; ``view()``
  never hides a discard).

The face-down places are filled first, by a uniform draw among the unseen cards of the kinds
allowed there; the rest of the unseen cards are shuffled into the other places. That is the
uniform distribution over all placements that respect the constraint.

Observations are the engine's own ``public_action``: what a seat learns of an action.

Rollouts stop at a horizon (``horizon``: two battles past the one under way) and judge the
position there (``evaluate``: a soft maximum of each seat's progress toward a victory, its
connected group or its region count, plus a little for its hand), which plays better than one
noisy game to its end and costs a fraction of it: against three greedy bots, 100 iterations a
decision won 18 of 24 games so, 14 of 24 played to the end. ``evaluate_fitted`` judges the
same figures with weights fitted to how games of ``normal`` bots ended (``FITTED``): it reads
the winner better than ``evaluate`` does, and it counts the cards in a hand, which win the
battles left in a round. The bot's setting ``judge`` picks one (``fitted``, the default, or ``progress``). With ``horizon=0`` in the bot's
settings, rollouts play to the end. Either way ``condottiere_sim`` plays them in place (the same
moves, faster: a judged rollout about twice as fast as one step by step).

Rollout policies: ``random`` (uniform over the legal actions) and ``light``: in a battle, pass
when its line leads, else play the weakest card that takes the lead (a mercenary or Heroine),
else pass; take as many cards as allowed, keep the two strongest; random elsewhere, and a
random action now and then. The bot plays no move that ``engine.condottiere.sense`` calls
senseless while it has another.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable

from engine.condottiere import rules, sense
from engine.condottiere.cards import COPIES, FACE_DOWN_KINDS, KINDS, SLOTS, STRENGTH, largest_group
from engine.condottiere.game import outcome
from engine.condottiere.state import REFEREE, VARIANTS, Action, State, mk
from engine.condottiere.view import public_action, view
from engine.core import UNKNOWN
from engine.search.condottiere_sim import MIRRORED, simulate
from engine.search.determinize import InconsistentViewError, deal, unseen
from engine.search.game import SearchGame, mirrored, mirrored_judged, outcome_rewards

U = SLOTS - 1  # the count of masked cards in a count vector
FULL = {c: COPIES[c] for c in range(KINDS)}


def _visible_cards(v: State) -> list[int]:
    seen: list[int] = []
    for h in v.hands:
        seen.extend(h)
    for line in v.lines:
        seen.extend(c for c, _ in line)
    for c in range(KINDS):
        seen.extend([c] * v.discards[c])
        seen.extend([c] * v.pile[c])
    return seen


def determinize(v: State, seat: int, rng: random.Random) -> State:
    """A full state drawn uniformly among those that look like ``v`` to ``seat``."""
    if v.viewer == REFEREE:
        return v
    return _draw(v, _count(v), rng)


def prepare(v: State, seat: int) -> Callable[[random.Random], State]:
    """``determinize`` for many draws from one view: the view's unseen cards and hidden places
    are counted once. Each draw is a fresh state (the same as ``determinize`` would give from
    the same generator state)."""
    if v.viewer == REFEREE:
        return lambda rng: v.copy()
    counted = _count(v)
    return lambda rng: _draw(v, counted, rng)


def _count(v: State) -> tuple[list[int], int, list[int], int, int]:
    """(the unseen cards, how many face-down places, the indices of the unseen cards that may
    be face down, how many hidden places in hands, how many in all but the face-down ones)."""
    cards = unseen(FULL, _visible_cards(v))
    face_down = sum(1 for line in v.lines for c, _ in line if c == UNKNOWN)
    allowed = [i for i, c in enumerate(cards) if c in FACE_DOWN_KINDS] if face_down else []
    if len(allowed) < face_down:
        raise InconsistentViewError("too few unseen cards of the face-down kinds")
    hand_slots = sum(h.count(UNKNOWN) for h in v.hands)
    slots = hand_slots + v.pile[U] + v.discards[U]
    if slots != len(cards) - face_down:
        deal({0: slots}, {0: cards[face_down:]}, random.Random(0))  # refuses, naming the counts
    return cards, face_down, allowed, hand_slots, slots


def _draw(v: State, counted: tuple[list[int], int, list[int], int, int], rng: random.Random) -> State:
    cards, face_down, allowed, hand_slots, slots = counted
    if face_down:
        cards = list(cards)
        picked = rng.sample(allowed, face_down)
        down = [cards[i] for i in picked]
        for i in sorted(picked, reverse=True):
            del cards[i]
    else:
        down = []
    rest = deal({0: slots}, {0: cards}, rng)[0]
    s = v.copy()
    s.viewer = REFEREE
    if hand_slots:
        hands = []
        for h in v.hands:
            if UNKNOWN in h:
                h = tuple(sorted(rest.pop() if c == UNKNOWN else c for c in h))
            hands.append(h)
        s.hands = tuple(hands)
    if down:
        s.lines = tuple(
            tuple((down.pop(), 0) if c == UNKNOWN else (c, up) for c, up in line)
            for line in v.lines
        )
    if v.discards[U]:
        d = list(v.discards)
        for _ in range(v.discards[U]):
            d[rest.pop()] += 1
        d[U] = 0
        s.discards = tuple(d)
    pile = list(v.pile)
    pile[U] = 0
    for c in rest:
        pile[c] += 1
    s.pile = tuple(pile)
    return s


def observe(s: State, a: Action, seat: int) -> Hashable:
    return public_action(s, a, seat)


def sample_chance(s: State, rng: random.Random) -> Action:
    """A chance or reveal step of a full state, drawn as ``LocalGame`` would."""
    phase = s.phase
    if phase == "deal":
        pile = s.pile
        r = rng.randrange(sum(pile))
        for c in range(KINDS):
            r -= pile[c]
            if r < 0:
                return mk("draw", s.turn, card=c)
        raise AssertionError("the pile counts do not add up")
    if phase == "start":
        return mk("start", rng.randrange(s.players))
    return rules.legal_actions(s)[0]


def random_action(s: State, seat: int, rng: random.Random) -> Action:
    legal = rules.legal_actions(s)
    return legal[rng.randrange(len(legal))]


def light_action(s: State, seat: int, rng: random.Random, explore: float = 0.1) -> Action:
    """A cheap battle sense (see the module docstring)."""
    legal = rules.legal_actions(s)
    if len(legal) == 1 or rng.random() < explore:
        return legal[rng.randrange(len(legal))]
    phase = s.phase
    if phase == "play":
        strengths = rules.strengths(s)
        mine = strengths[seat]
        best = max(x for q, x in enumerate(strengths) if q != seat)
        if mine > best:
            return legal[0]  # pass while ahead
        need = best - mine
        fits = [a for a in legal if a.kind == "play" and 0 <= a.card < 8 and a.flip <= 0]
        # with no Winter or Drummer about, a card adds its printed strength
        winning = [a for a in fits if STRENGTH[a.card] > need]
        if winning:
            return min(winning, key=lambda a: STRENGTH[a.card])
        return legal[0]
    if phase == "take":
        return legal[-1]
    if phase == "keep":
        return max(legal, key=lambda a: (len(a.cards), sum(STRENGTH[c] for c in a.cards)))
    return legal[rng.randrange(len(legal))]


def rewards(s: State) -> list[float]:
    return outcome_rewards(outcome(s), scale=3.0)


#: battles a rollout plays past the one under way before the position is judged
HORIZON_BATTLES = 2
#: how sharply the judgement turns a lead in progress into a chance to win
SHARPNESS = 6.0


def horizon(s: State) -> int:
    return s.battles + HORIZON_BATTLES


def evaluate(s: State, until: int) -> list[float] | None:
    """Past the horizon (and between battles), each seat's chance to win as a soft maximum of
    its progress: the larger of its connected group and its region count, each as a share of
    what wins, plus a little for the strength in its hand."""
    if s.battles < until or s.phase == "play":
        return None
    total_need, adjacent_need = rules.thresholds(s)
    scores = []
    for q in range(s.players):
        mask = s.regions_of(q)
        progress = max(largest_group(mask) / adjacent_need, mask.bit_count() / total_need)
        hand = sum(STRENGTH[c] for c in s.hands[q] if c >= 0)
        scores.append(SHARPNESS * (progress + hand / 150.0))
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


#: ``fitted``'s weights of each seat's figures: its largest connected group (a share of the
#: connected regions that win), its region count (a share of the regions that win), the
#: strength in its hand and the cards in its hand (both in tens). Fitted by
#: ``scripts/fit_condottiere_judge.py`` to how 150 games of four ``normal`` bots ended (a
#: conditional logit: on games it was not fitted to, a log-loss of 1.093 against 1.195 for
#: ``evaluate`` and 1.386 for knowing nothing)
FITTED = (0.84, 3.76, 0.53, 1.28)


def evaluate_fitted(s: State, until: int) -> list[float] | None:
    """Past the horizon (and between battles), each seat's chance to win as a soft maximum of
    a weighted sum of its figures (``FITTED``): what it holds on the board and in its hand.
    A hand counts for more than in ``evaluate``: the battles left in a round go to the seats
    with cards left."""
    if s.battles < until or s.phase == "play":
        return None
    total_need, adjacent_need = rules.thresholds(s)
    group_w, count_w, hand_w, cards_w = FITTED
    scores = []
    for q in range(s.players):
        mask = s.regions_of(q)
        hand = s.hands[q]
        strength = 0
        for c in hand:
            if c >= 0:
                strength += STRENGTH[c]
        scores.append(group_w * largest_group(mask) / adjacent_need
                      + count_w * mask.bit_count() / total_need
                      + hand_w * strength / 10 + cards_w * len(hand) / 10)
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


def _search_game(judge: Callable[[State, int], list[float] | None]) -> SearchGame[State, Action]:
    """The search's Condottiere, judging a position at the horizon by ``judge``."""
    return SearchGame(
        name="condottiere",
        current_player=rules.current_player,
        legal_actions=rules.legal_actions,
        apply=rules.apply_unchecked,
        determinize=determinize,
        observe=observe,
        sample_chance=sample_chance,
        rollouts={"random": random_action, "light": light_action},
        rewards=rewards,
        senseless=sense.senseless,
        mask=view,
        horizon=horizon,
        evaluate=judge,
        copy=State.copy,
        play=rules.apply_in_place,
        prepare=prepare,
        simulations={
            "random": mirrored(lambda s, rng: simulate(s, rng, False, random_action, rewards), rules,
                               VARIANTS, MIRRORED, random_action, sample_chance, rewards),
            "light": mirrored(lambda s, rng: simulate(s, rng, True, light_action, rewards), rules,
                              VARIANTS, MIRRORED, light_action, sample_chance, rewards),
        },
        judged_simulations={
            "random": mirrored_judged(
                lambda s, until, rng: simulate(s, rng, False, random_action, rewards, judge, until),
                rules, VARIANTS, MIRRORED, random_action, sample_chance, rewards, judge),
            "light": mirrored_judged(
                lambda s, until, rng: simulate(s, rng, True, light_action, rewards, judge, until),
                rules, VARIANTS, MIRRORED, light_action, sample_chance, rewards, judge),
        },
    )


#: the search's Condottiere (judging by ``evaluate_fitted``); ``JUDGES``: by each judgement,
#: by name
GAME = _search_game(evaluate_fitted)
JUDGES = {"fitted": GAME, "progress": _search_game(evaluate)}
