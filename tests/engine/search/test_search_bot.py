"""The search bot: it decides from its view alone, reproducibly, finds a winning move and beats
random play."""

from __future__ import annotations

import random

import pytest

from engine.core import LocalGame
from engine.medici import RULES, MediciConfig, rules
from engine.medici.bots import RandomBot
from engine.medici.cards import card, house_deck
from engine.medici.entry import ENTRY
from engine.medici.state import NO_CARD, NO_LIMIT, State
from engine.search.bot import SearchBot
from engine.search.medici import GAME, determinize

from .positions import random_position


def decision_position(seed: int, steps: int) -> tuple[State, int]:
    """A full state where a seat must choose among several plays."""
    for extra in range(200):
        s = random_position(seed, steps + extra)
        who = rules.current_player(s)
        if s.phase == "play" and len(rules.legal_actions(s)) > 3:
            return s, who
    raise AssertionError("no decision found")


def bot(seed: int = 5, iterations: int = 100) -> SearchBot:
    return ENTRY.make_bot("ismcts", random.Random(seed), iterations=iterations)


def test_the_choice_does_not_depend_on_cards_the_seat_cannot_see():
    for seed in (1, 2):
        truth, seat = decision_position(seed, 70)
        view = RULES.view(truth, seat)
        other = determinize(view, seat, random.Random(99))  # same view, other hidden cards
        assert other != truth
        assert RULES.view(other, seat) == view
        a = bot().choose(RULES.view(truth, seat), seat)
        b = bot().choose(RULES.view(other, seat), seat)
        assert a == b


def test_a_fixed_seed_and_iteration_budget_reproduce_the_search():
    truth, seat = decision_position(4, 60)
    view = RULES.view(truth, seat)
    first, second = bot(seed=8), bot(seed=8)
    assert first.choose(view, seat) == second.choose(view, seat)
    assert first.last is not None and second.last is not None
    assert first.last.visits == second.last.visits
    assert first.last.iterations == 100
    assert sum(first.last.visits.values()) == 100
    other = bot(seed=9)
    other.choose(view, seat)
    assert other.last is not None and other.last.visits != first.last.visits


def noble(house: int, value: int) -> int:
    return card(house, value - 2)


def endgame() -> State:
    """Three players, the short game. Seat 0 has one shadow alliance left, its own Noble 2 under its Noble 10.
    Striking it with the Noble 8 makes 20: it eliminates Colonna's stack of 20 and ends the game
    with Orsini far ahead. Anything else leaves Colonna leading, with the game going on."""
    n = 3
    middle = (
        (0, 20, ((noble(1, 10), 10), (noble(1, 10), 10))),
        (1, 5, ((noble(0, 5), 5),)),
        (2, 3, ((noble(2, 3), 3),)),
    )
    alliances = (
        (None, None, (0, noble(0, 2), noble(0, 10), 1)),
        ((2, noble(2, 4), noble(1, 6), 1), (0, noble(0, 4), noble(1, 7), 1), (1, noble(1, 2), noble(1, 9), 1)),
        ((0, noble(0, 6), noble(2, 6), 1), (1, noble(1, 4), noble(2, 7), 1), (2, noble(2, 2), noble(2, 9), 1)),
    )
    hands: list[list[int]] = [[noble(0, 8), noble(0, 3), noble(0, 4)], [], []]
    pools: list[tuple[int, ...]] = []
    out: list[int] = []
    placed = [c for _, _, cs in middle for c, _ in cs] + hands[0]
    placed += [c for row in alliances for a in row if a for c in a[1:3]]
    for h in range(n):
        rest = list(house_deck(h))
        for c in placed:
            if c // 13 == h:
                rest.remove(c)
        if h:  # the others hold four cards each
            hands[h], rest = rest[:4], rest[4:]
        pools.append(tuple(rest[:6]))  # six cards left in each deck, the rest eliminated
        out += rest[6:]
    s = object.__new__(State)
    s.config = MediciConfig(n, end_when_all_struck=False)  # the short game
    s.phase, s.turn = "play", 0
    s.hands = tuple(tuple(sorted(h)) for h in hands)
    s.pools = tuple(pools)
    s.bottoms = ((),) * n
    s.alliances = alliances
    s.middle = middle
    s.next_sid = 3
    s.eliminated = tuple(sorted(out))
    s.limits = (NO_LIMIT,) * n
    s.shown = (NO_CARD,) * n
    s.pending = None
    s.turns = 9
    s.end = ""
    return s


def test_it_finds_the_winning_strike():
    s = endgame()
    win = rules.legal_actions(s)
    strikes = [a for a in win if a.kind == "strike"]
    assert len(strikes) == 1 and len(win) > 8
    view = RULES.view(s, 0)
    for seed in (1, 2):
        assert bot(seed, iterations=300).choose(view, 0) == strikes[0]


@pytest.mark.long
def test_it_beats_random_bots():
    wins = 0
    games = 8
    for i in range(games):
        game = LocalGame(RULES, MediciConfig(4), 1000 + i)
        seat = i % 4
        bots = [RandomBot(random.Random(i * 4 + k)) for k in range(4)]
        bots[seat] = bot(seed=i, iterations=40)
        outcome = game.play_out(bots, checked=True)
        wins += seat in outcome.winners
    assert wins >= 6  # a fair share would be 2


def test_levels_name_their_bots_and_think_overrides_the_budget():
    hard = ENTRY.make_bot("hard", random.Random(0))
    normal = ENTRY.make_bot("normal", random.Random(0))
    assert isinstance(hard, SearchBot) and isinstance(normal, SearchBot)
    assert normal.budget.seconds < hard.budget.seconds
    assert ENTRY.make_bot("hard", random.Random(0), think=0.1).budget.seconds == 0.1
    assert ENTRY.make_bot("easy", random.Random(0)).name == "greedy"
    assert {"easy", "normal", "hard"} <= set(ENTRY.bot_names())
    assert GAME.name == "medici"
