"""Condottiere rollouts played in place, without listing every legal action.

``simulate`` plays a private full state (``viewer`` the referee) to its end and returns the
rewards, making exactly the moves that the search's step-by-step loop makes with the
``random`` or ``light`` policy of ``engine.search.condottiere``, its ``sample_chance`` and
``rules.apply_in_place``, from the same generator state: the same calls on the generator, in
the same order, with the same arguments (``tests/engine/search/test_fast_path.py`` checks it
for every variant). It is faster because:

* a play-phase move is drawn by its index among the legal actions, counted from the hand (one
  pass over its distinct cards), and only the drawn action is built; ``light``'s battle sense
  needs only the line strengths (kept while a pass leaves the lines as they were) and the
  hand, and it counts the legal actions only when it explores;
* a deal is played out in one loop over lists, the pile, hand and debts written back once;
* a reveal needs no list of the one card it can show; the commonest actions are built once.

The rarer decisions (take, keep) go through the policy itself. Given the search's judgement of
a position (``judge``, ``until``), ``simulate`` stops where the search's loop would stop and
judge (``engine.search.ismcts``: rollouts that end at a horizon); a deal never crosses such a
point, since the judgement reads only the battles fought and the phase, which a deal leaves
as they were until its last card. ``sample_play`` is the uniform draw among the legal actions
of the play phase (``random``'s move there), usable on its own.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from typing import Any

from engine.condottiere import rules
from engine.condottiere.cards import (
    BISHOP,
    COURTESAN,
    DRUMMER,
    HEROINE,
    KINDS,
    MERC_STRENGTH,
    SCARECROW,
    SPRING,
    STRENGTH,
    SURRENDER,
    WINTER,
)
from engine.condottiere.flow import after_deal, first_face_down, reshuffle
from engine.condottiere.measures import battle_regions, favor_regions, strengths
from engine.condottiere.state import NO_CARD, NONE, Action, State, _new, mk
from engine.core import UNKNOWN

#: the options whose rules this module mirrors. A game that plays any other option is not
#: simulated here: ``engine.search.condottiere`` plays it with the rules themselves
#: (``engine.search.game.mirrored``), so a variant added to the rules alone cannot make this
#: copy of them disagree
#: (not Hidden Cards: a seat that passes may turn a face-down card up, which this copy does not
#: play)
MIRRORED = frozenset(
    ("draw_after_battle", "playing_for_points", "bigger_kingdoms", "capturing_regions")
)
_PASS = "pass"
_SEATS = 6  # the most players a Condottiere game seats (``CondottiereConfig``)
#: the actions a rollout takes most, built once: a pass, holding one's hand, a plain play (a
#: card of the ``light`` kinds, played without turning a card up or turning up the first)
_PASSES = tuple(_new(Action, (_PASS, q, NO_CARD, NONE, NONE, NONE, NONE, NONE, ()))
                for q in range(_SEATS))
_HOLDS = tuple(mk("hold", q) for q in range(_SEATS))
_PLAYS = tuple(
    tuple(tuple(_new(Action, ("play", q, c, NONE, NONE, NONE, NONE, f, ())) for f in (NONE, 0))
          for c in range(8))
    for q in range(_SEATS)
)


def _targets(s: State, c: int, line: tuple[tuple[int, int], ...]) -> list[int]:
    """A Bishop's regions or a Scarecrow's mercenaries to take back, ``NONE`` first."""
    if c == BISHOP:
        return [NONE, *favor_regions(s)]
    return [NONE, *sorted({m for m, up in line if up and 0 <= m < 7})]


def _play_count(s: State, seat: int) -> tuple[int, int]:
    """(how many legal actions the play phase offers ``seat``, how many face-down cards its line
    holds)."""
    line = s.lines[seat]
    down = 0
    for _, up in line:
        if not up:
            down += 1
    flips = down or 1
    total = 1
    prev = None
    for c in s.hands[seat]:
        if c == prev or c == UNKNOWN:
            continue
        prev = c
        if c == BISHOP or c == SCARECROW:
            t = len(_targets(s, c, line))
            total += t * flips
        elif c == SURRENDER:
            total += 1
        else:
            total += flips
    return total, down


def _play_at(s: State, seat: int, r: int, down: int) -> Action:
    """The ``r``-th legal action of the play phase, in ``rules.legal_actions``' order."""
    if r == 0:
        return _PASSES[seat]
    r -= 1
    line = s.lines[seat]
    flips = down or 1
    prev = None
    for c in s.hands[seat]:
        if c == prev or c == UNKNOWN:
            continue
        prev = c
        if c == BISHOP or c == SCARECROW:
            targets = _targets(s, c, line)
            w = len(targets) * flips
            if r < w:
                t, f = divmod(r, flips)
                f = f if down else NONE
                if c == BISHOP:
                    return _new(Action, ("play", seat, c, targets[t], NONE, NONE, NONE, f, ()))
                return _new(Action, ("play", seat, c, NONE, targets[t], NONE, NONE, f, ()))
        elif c == SURRENDER:
            if r == 0:
                return _new(Action, ("play", seat, c, NONE, NONE, NONE, NONE, NONE, ()))
            w = 1
        else:
            w = flips
            if r < w:
                return _new(Action, ("play", seat, c, NONE, NONE, NONE, NONE, r if down else NONE, ()))
        r -= w
    raise AssertionError("the index is beyond the legal actions")


def sample_play(s: State, seat: int, rng: random.Random) -> Action:
    """A uniform draw among the play phase's legal actions of ``seat`` (as
    ``legal[rng.randrange(len(legal))]``)."""
    n, down = _play_count(s, seat)
    return _play_at(s, seat, rng.randrange(n), down)


def _light_play(s: State, seat: int, rng: random.Random, memo: list[Any], explore: float = 0.1) -> Action:
    """``light``'s move in the play phase; ``memo`` holds the last lines seen and their
    strengths (a pass leaves the lines as they were)."""
    hand = s.hands[seat]
    # more than one legal action (pass) exactly when the hand holds a card: only when light
    # explores does it need their number
    if not hand or hand[-1] == UNKNOWN or rng.random() < explore:  # sorted: UNKNOWN first
        n, down = _play_count(s, seat)
        return _play_at(s, seat, rng.randrange(n), down)
    lines = s.lines
    if memo[0] is lines:
        counted = memo[1]
    else:
        counted = memo[1] = _strengths(s)
        memo[0] = lines
    mine = counted[seat]
    best = max(counted[:seat] + counted[seat + 1 :])
    if mine <= best:
        need = best - mine
        for c in hand:  # sorted: the first that takes the lead is the weakest
            if 0 <= c < 8:
                if STRENGTH[c] > need:
                    down = any(not up for _, up in lines[seat])
                    return _PLAYS[seat][c][1 if down else 0]
            elif c >= 8:
                break
    return _PASSES[seat]


def _strengths(s: State) -> list[int]:
    """``measures.strengths`` of a full state, in one pass while no season is in play (under
    the options in ``MIRRORED`` only, where strength is a function of the lines)."""
    lines = s.lines
    out = []
    for line in lines:
        mercs = bonus = 0
        drum = False
        for c, _ in line:
            if c < 7:
                mercs += MERC_STRENGTH[c]
            elif c == HEROINE:
                bonus += 10
            elif c == COURTESAN:
                bonus += 1
            elif c == DRUMMER:
                drum = True
            elif c == WINTER or c == SPRING:
                return strengths(s)
        out.append((2 * mercs if drum else mercs) + bonus)
    return out


# mercenaries and the Heroine (cards 0..7) rise in strength, so the first of them in a sorted
# hand that beats a need is the weakest such card, the first of ties (``light``'s ``min``)
assert all(STRENGTH[c] <= STRENGTH[c + 1] for c in range(7))


def _deal(s: State, rng: random.Random) -> None:
    """Every draw of the deal under way, as ``sample_chance`` and the draw rule would make
    them one by one (a draw of ``r`` among the pile's cards is the ``r``-th card of the pile
    laid out kind by kind)."""
    n = s.players
    pile = list(s.pile)
    cards = [c for c in range(KINDS) for _ in range(pile[c])]
    owed = list(s.owed)
    hands = list(s.hands)
    seat = s.turn
    hand = list(hands[seat])
    randrange = rng.randrange
    while True:
        c = cards.pop(randrange(len(cards)))
        pile[c] -= 1
        insort(hand, c)
        owed[seat] -= 1
        if not cards:
            hands[seat] = tuple(hand)
            s.pile, s.hands, s.owed, s.turn = tuple(pile), tuple(hands), tuple(owed), seat
            reshuffle(s)
            pile = list(s.pile)
            cards = [c for c in range(KINDS) for _ in range(pile[c])]
            if not cards:
                s.owed = (0,) * n
                after_deal(s)
                return
        if owed[seat]:
            continue
        hands[seat] = tuple(hand)
        for k in range(1, n):
            q = (seat + k) % n
            if owed[q]:
                seat = q
                hand = list(hands[q])
                break
        else:
            s.pile, s.hands, s.owed, s.turn = tuple(pile), tuple(hands), tuple(owed), seat
            after_deal(s)
            return


def _reveal(s: State) -> Action:
    if s.phase == "reveal":
        seat = s.turn
        pos = rules.face_down_position(s.lines[seat], s.pending)
    else:
        seat, pos = first_face_down(s)
    return mk("reveal", seat, card=s.lines[seat][pos][0], position=pos)


def simulate(
    s: State,
    rng: random.Random,
    light: bool,
    policy: Callable[[State, int, random.Random], Action],
    rewards: Callable[[State], list[float]],
    judge: Callable[[State, int], list[float] | None] | None = None,
    until: int = 0,
) -> list[float]:
    """Play private full state ``s`` to its end in place as the ``light`` policy (or, with
    ``light`` false, ``random``) would, which ``policy`` is (it decides the rare phases, take
    and keep), and return ``rewards`` of the end. With a ``judge`` (the search's ``evaluate``),
    stop instead at the first state it judges against horizon ``until`` (checked before every
    step, as the search's own loop does; it judges nothing in the play phase) and return its
    judgement."""
    play = rules._APPLY
    random_, randrange = rng.random, rng.randrange
    memo: list[Any] = [None, None]
    while True:
        phase = s.phase
        if judge is not None and phase != "over" and phase != "play" and s.battles >= until:
            judged = judge(s, until)
            if judged is not None:
                return judged
        if phase == "play":
            seat = s.turn
            a = _light_play(s, seat, rng, memo) if light else sample_play(s, seat, rng)
            play[a[0]](s, a)
        elif phase == "deal":
            _deal(s, rng)
        elif phase == "reveal" or phase == "showdown":
            a = _reveal(s)
            play["reveal"](s, a)
        elif phase == "place":
            seat = s.turn
            regions = battle_regions(s, seat)
            if light and len(regions) > 1:
                random_()  # light's test for exploring: it plays at random either way
            r = regions[randrange(len(regions))]
            play["place"](s, _new(Action, ("place", seat, NO_CARD, r, NONE, NONE, NONE, NONE, ())))
        elif phase == "discard":
            seat = s.turn
            hand = s.hands[seat]
            may = bool(hand) and hand[0] >= 7
            if light and may:
                random_()
            if randrange(2 if may else 1):
                play["discard"](s, mk("discard", seat, cards=hand))
            else:
                play["hold"](s, _HOLDS[seat])
        elif phase == "start":
            play["start"](s, mk("start", randrange(s.players)))
        elif phase == "over":
            return rewards(s)
        else:  # take, keep
            a = policy(s, s.turn, rng)
            play[a[0]](s, a)
