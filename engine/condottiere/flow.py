"""The course of a Condottiere game between decisions: deals, battles that begin and end,
the resolution of a battle, rounds, and the end of a game and of a match.

These functions change a state in place; ``rules.apply_unchecked`` gives them a fresh copy, so
states stay immutable to everyone else. Cards move between hands, lines, the pile and the
discards only here and in ``rules``: the pile and the discards are counts (``cards.SLOTS``),
and in a view (``viewer`` set) cards that enter the face-down pile become ``UNKNOWN``.
"""

from __future__ import annotations

from typing import TypeVar

from engine.condottiere.cards import EMPTY, FULL_DECK, NREGIONS, SLOTS
from engine.condottiere.measures import (
    ADJACENT_BONUS,
    END_ADJACENT,
    HAND_BASE,
    MAX_BATTLES,
    battle_regions,
    courtesans,
    game_limit,
    hand_limit,
    max_take,
    strengths,
    victory,
)
from engine.condottiere.state import REFEREE, State
from engine.core import UNKNOWN

U = SLOTS - 1  # the counts slot of masked cards
T = TypeVar("T")

END_EXHAUSTED = "board-exhausted"
END_LIMIT = "battle-limit"
END_FINAL = "final-battle"
END_TARGET = "target-score"
END_GAME_LIMIT = "game-limit"
END_MATCH_FINAL = "match-final-battle"


def reset_game(s: State) -> None:
    """A new game: an empty board, every card in the pile, a starting player still to draw."""
    n = s.config.players
    s.phase = "start"
    s.turn = 0
    s.holder = s.placer = 0
    s.battle = s.defender = -1
    s.free = 0
    s.favor = -1
    s.owner = (-1,) * NREGIONS
    s.hands = ((),) * n
    s.lines = ((),) * n
    s.passed = (0,) * n
    if s.viewer == REFEREE:
        s.pile = FULL_DECK
    else:
        s.pile = EMPTY[:U] + (110,)
    s.discards = EMPTY
    s.owed = (0,) * n
    s.queue = ()
    s.then = "place"
    s.pending = -1
    s.fighters = ()
    s.final = 0
    s.battles = 0
    s.winners = ()
    s.end = ""
    s.won_by = ""


def first_face_down(s: State) -> tuple[int, int]:
    """(seat, position) of the first face-down card in the lines, seat by seat; (-1, -1)."""
    for seat, line in enumerate(s.lines):
        for pos, (_, up) in enumerate(line):
            if not up:
                return seat, pos
    return -1, -1


def set_at(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1 :]


def take_card(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    """Take one ``c`` out of a sorted hand; one ``UNKNOWN`` when ``c`` is not known to be in it
    (a masked hand); any card when ``c`` is ``UNKNOWN`` and the hand is all known."""
    if c in cards:
        i = cards.index(c)
    elif UNKNOWN in cards:
        i = cards.index(UNKNOWN)
    else:
        i = 0
    return cards[:i] + cards[i + 1 :]


def put_card(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    for i, x in enumerate(cards):
        if x > c:
            return cards[:i] + (c,) + cards[i:]
    return cards + (c,)


def discard_cards(s: State, cards: list[int] | tuple[int, ...]) -> None:
    if not cards:
        return
    d = list(s.discards)
    for c in cards:
        d[c] += 1  # UNKNOWN (-1) lands in the last slot
    s.discards = tuple(d)


def reshuffle(s: State) -> None:
    """Move the discards into the pile. In a view the pile is face down to the viewer, so the
    cards it receives become ``UNKNOWN``."""
    if s.viewer == REFEREE:
        s.pile = tuple(a + b for a, b in zip(s.pile, s.discards, strict=True))
    else:
        s.pile = s.pile[:U] + (s.pile[U] + sum(s.discards),)
    s.discards = EMPTY


def _collect_all(s: State) -> None:
    """Every card back into the pile (a final battle; a new game of a match)."""
    n = s.players
    for seat in range(n):
        discard_cards(s, s.hands[seat])
        discard_cards(s, [c for c, _ in s.lines[seat]])
    s.hands = ((),) * n
    s.lines = ((),) * n
    reshuffle(s)


def start_deal(s: State) -> None:
    """Deal the cards ``owed``, seat by seat clockwise from the token holder."""
    n = s.players
    h = s.holder
    owed = s.owed
    for k in range(n):
        seat = (h + k) % n
        if owed[seat]:
            if not sum(s.pile):
                reshuffle(s)
                if not sum(s.pile):
                    break
            s.phase = "deal"
            s.turn = seat
            return
    s.owed = (0,) * n
    after_deal(s)


def after_deal(s: State) -> None:
    """What the deal under way was for (``then``): a placement, a battle, more draws."""
    then = s.then
    if then == "place":
        s.phase = "place"
        s.turn = s.holder
    elif then == "take":
        next_take(s)
    else:  # battle, final
        begin_battle(s)


def next_discard(s: State) -> None:
    """Step 4 for the next seat in the queue; then the end of a round if at most one seat
    still holds cards, or the next battle."""
    if s.queue:
        s.phase = "discard"
        s.turn = s.queue[0]
        return
    holding = [q for q in range(s.players) if s.hands[q]]
    if len(holding) >= 2:
        begin_battle(s)
    elif len(holding) == 1:
        s.phase = "keep"
        s.turn = holding[0]
    else:
        new_round(s)


def new_round(s: State) -> None:
    """Shuffle everything but the hands back and deal up to 10 plus one per region."""
    reshuffle(s)
    s.owed = tuple(
        max(0, hand_limit(s, q) - len(s.hands[q])) for q in range(s.players)
    )
    s.then = "battle"
    start_deal(s)


def begin_battle(s: State) -> None:
    """Start the battle for ``battle`` (or a final battle): the placer, or the token holder
    nearest the fighters, acts first; empty hands pass at once."""
    n = s.players
    fighters = s.fighters
    s.lines = ((),) * n
    s.passed = tuple(0 if not fighters or q in fighters else 1 for q in range(n))
    s.free = 1 if s.defender >= 0 else 0
    s.queue = ()
    if fighters:
        first = s.holder
        while first not in fighters:
            first = (first + 1) % n
    else:
        first = s.placer
    s.phase = "play"
    passed = list(s.passed)
    hands = s.hands
    for k in range(n):
        q = (first + k) % n
        if passed[q]:
            continue
        if not hands[q]:
            passed[q] = 1
            continue
        s.passed = tuple(passed)
        s.turn = q
        return
    s.passed = tuple(passed)
    conclude(s)


def next_turn(s: State, seat: int) -> None:
    """Give the turn to the next seat still in the battle after ``seat``; an empty hand passes
    at once. ``seat`` itself plays on when everyone else is out."""
    n = s.players
    passed = s.passed
    hands = s.hands
    auto = None
    for k in range(1, n + 1):
        q = (seat + k) % n
        if passed[q]:
            continue
        if not hands[q]:
            if auto is None:
                auto = list(passed)
            auto[q] = 1
            continue
        if q == seat and seat == s.defender and s.free and k == n:
            break  # the defender passed freely and nobody else is left
        if auto is not None:
            s.passed = tuple(auto)
        s.turn = q
        s.phase = "play"
        return
    if auto is not None:
        s.passed = tuple(auto)
    conclude(s)


def conclude(s: State) -> None:
    """The battle is over: turn every face-down card up, then resolve."""
    if first_face_down(s)[0] >= 0:
        s.phase = "showdown"
        return
    _resolve(s)


def _resolve(s: State) -> None:
    n = s.players
    strength = strengths(s)
    fighters = s.fighters or tuple(range(n))
    best = max(strength[q] for q in fighters)
    top = [q for q in fighters if strength[q] == best]
    if s.final:
        _final_result(s, tuple(top))
        return
    winner = top[0] if len(top) == 1 else -1
    if winner >= 0:
        s.owner = set_at(s.owner, s.battle, winner)
    # the Condottiere token
    if s.defender >= 0 and winner < 0:
        s.holder = s.defender
    else:
        court = courtesans(s)
        most = max(court)
        if most > 0 and court.count(most) == 1:
            s.holder = court.index(most)
        elif winner >= 0:
            s.holder = winner
        else:
            s.holder = (s.placer + 1) % n
    s.battles += 1
    s.defender = -1
    s.free = 0
    if winner >= 0:
        how = victory(s, winner)
        if how:
            _end_game(s, (winner,), how)
            return
    if s.battles >= MAX_BATTLES:
        _board_end(s, END_LIMIT)
        return
    if not battle_regions(s, s.holder):
        _board_end(s, END_EXHAUSTED)
        return
    if s.config.draw_after_battle:
        _start_draws(s)
        return
    s.phase = "place"
    s.turn = s.holder


def _start_draws(s: State) -> None:
    n = s.players
    if not any(s.hands):
        s.owed = (HAND_BASE,) * n  # nobody holds a card: ten each instead of three
        s.then = "take"
        s.queue = ()
        start_deal(s)
        return
    s.queue = tuple((s.holder + k) % n for k in range(n))
    next_take(s)


def next_take(s: State) -> None:
    """Draw After Battle: the next seat in the queue that may draw decides; then step 2."""
    while s.queue:
        seat = s.queue[0]
        if max_take(s, seat) > 0:
            s.phase = "take"
            s.turn = seat
            return
        s.queue = s.queue[1:]
    s.phase = "place"
    s.turn = s.holder


def _board_end(s: State, why: str) -> None:
    """No legal region (or the long-war limit): most regions wins, a tie fights it out."""
    counts = s.region_counts()
    most = max(counts)
    tied = tuple(q for q in range(s.players) if counts[q] == most)
    if len(tied) == 1:
        _end_game(s, tied, why)
        return
    s.won_by = why
    _final_battle(s, tied, 1)


def _final_battle(s: State, tied: tuple[int, ...], level: int) -> None:
    _collect_all(s)
    counts = s.region_counts()
    s.final = level
    s.fighters = tied
    s.battle = -1
    s.defender = -1
    s.owed = tuple(HAND_BASE + counts[q] if q in tied else 0 for q in range(s.players))
    s.then = "final"
    start_deal(s)


def _final_result(s: State, top: tuple[int, ...]) -> None:
    if s.final == 1:
        s.final = 0
        s.fighters = ()
        _end_game(s, top, END_FINAL)
        return
    s.phase = "over"
    s.winners = top
    s.end = END_MATCH_FINAL


def _end_game(s: State, winners: tuple[int, ...], how: str) -> None:
    cfg = s.config
    if how != END_FINAL:
        s.won_by = how
    if not cfg.playing_for_points:
        s.phase = "over"
        s.winners = winners
        s.end = how
        return
    counts = s.region_counts()
    points = [p + c for p, c in zip(s.points, counts, strict=True)]
    if how == END_ADJACENT:
        for w in winners:
            points[w] += ADJACENT_BONUS
    s.points = tuple(points)
    s.games += 1
    reached = max(points) >= cfg.target_score
    if reached or s.games >= game_limit(s):
        best = max(points)
        tied = tuple(q for q in range(s.players) if points[q] == best)
        if len(tied) == 1:
            s.phase = "over"
            s.winners = tied
            s.end = END_TARGET if reached else END_GAME_LIMIT
            return
        _final_battle(s, tied, 2)
        return
    reset_game(s)


