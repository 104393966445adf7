"""The search bot in Condottiere: its determinizer keeps to the view (with every variant), and
the bot decides from its view alone and beats random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.condottiere import rules
from engine.condottiere.cards import COPIES, FACE_DOWN_KINDS, KINDS
from engine.condottiere.entry import ENTRY
from engine.condottiere.game import RULES
from engine.condottiere.state import REFEREE, State
from engine.core import UNKNOWN, LocalGame
from engine.search.bot import SearchBot
from engine.search.condottiere import determinize

from .positions import game_position

VARIANTS = [
    {},
    {"hidden_cards": True},
    {"hidden_cards": True, "draw_after_battle": True, "capturing_regions": True},
    {"playing_for_points": True, "bigger_kingdoms": True},
]


def all_cards(s: State) -> Counter[int]:
    cards: Counter[int] = Counter()
    for h in s.hands:
        cards.update(h)
    for line in s.lines:
        cards.update(c for c, _ in line)
    for c in range(KINDS):
        cards[c] += s.pile[c] + s.discards[c]
    return cards


positions = st.builds(
    lambda seed, steps, players, variant, seat: (
        game_position(RULES, RULES.make_config(players, VARIANTS[variant]), seed, steps),
        seat % players,
    ),
    st.integers(0, 10_000),
    st.integers(0, 400),
    st.integers(2, 6),
    st.integers(0, len(VARIANTS) - 1),
    st.integers(0, 5),
)


@given(positions, st.integers(0, 2**32))
def test_every_determinization_is_a_full_state_with_the_same_view(pos, det_seed):
    truth, seat = pos
    view = RULES.view(truth, seat)
    s = determinize(view, seat, random.Random(det_seed))
    assert s.viewer == REFEREE
    assert all_cards(s) == Counter({c: COPIES[c] for c in range(KINDS)})
    assert UNKNOWN not in all_cards(s) and not s.pile[-1] and not s.discards[-1]
    for q, line in enumerate(s.lines):
        for (c, up), (was, _) in zip(line, view.lines[q], strict=True):
            assert up or c in FACE_DOWN_KINDS
            assert was == UNKNOWN or c == was
    assert RULES.view(s, seat) == view
    if rules.current_player(view) == seat:
        assert rules.legal_actions(s) == rules.legal_actions(view)


def test_hidden_hands_vary_between_samples():
    truth = game_position(RULES, RULES.make_config(4, {"hidden_cards": True}), 3, 40)
    view = RULES.view(truth, 0)
    rng = random.Random(1)
    hands = {determinize(view, 0, rng).hands[1] for _ in range(50)}
    assert len(hands) > 10


def bot(seed: int, iterations: int = 40) -> SearchBot:
    return ENTRY.make_bot("ismcts", random.Random(seed), iterations=iterations)


def battle_position(seed: int) -> tuple[State, int]:
    for steps in range(60, 400):
        s = game_position(RULES, RULES.make_config(4, {"hidden_cards": True}), seed, steps)
        who = rules.current_player(s)
        if s.phase == "play" and len(rules.legal_actions(s)) > 3:
            return s, who
    raise AssertionError("no battle decision found")


def test_the_choice_does_not_depend_on_cards_the_seat_cannot_see():
    for seed in (1, 2):
        truth, seat = battle_position(seed)
        view = RULES.view(truth, seat)
        other = determinize(view, seat, random.Random(7))
        assert other.hands != truth.hands and RULES.view(other, seat) == view
        assert bot(3).choose(RULES.view(truth, seat), seat) == bot(3).choose(
            RULES.view(other, seat), seat
        )


@pytest.mark.long
def test_it_beats_random_bots():
    wins = 0
    games = 24
    for i in range(games):
        game = LocalGame(RULES, RULES.make_config(4, {}), 300 + i)
        seat = i % 4
        bots = [ENTRY.make_bot("random", random.Random(i * 4 + k)) for k in range(4)]
        bots[seat] = bot(i, iterations=40)
        wins += seat in game.play_out(bots, checked=True).winners
    assert wins >= 12  # a fair share would be 6


def test_levels_name_their_bots():
    assert isinstance(ENTRY.make_bot("hard", random.Random(0)), SearchBot)
    assert ENTRY.make_bot("hard", random.Random(0), think=0.05).budget.seconds == 0.05
    assert ENTRY.make_bot("easy", random.Random(0)).name == "greedy"
    assert {"easy", "normal", "hard", "ismcts"} <= set(ENTRY.bot_names())


def test_the_judge_setting_picks_how_the_horizon_is_judged():
    from engine.search import condottiere as csearch

    assert ENTRY.make_bot("hard", random.Random(0)).game.evaluate is csearch.evaluate_fitted
    old = ENTRY.make_bot("ismcts", random.Random(0), iterations=1000, think=1.0, judge="progress")
    assert old.game.evaluate is csearch.evaluate
    with pytest.raises(ValueError, match="judge"):
        ENTRY.make_bot("hard", random.Random(0), judge="guess")


def test_the_fitted_judgement_favours_the_seat_nearer_victory_and_holding_more():
    from engine.search.condottiere import evaluate_fitted

    for seed in range(1, 40):
        s = game_position(RULES, RULES.make_config(4, {}), seed, 120)
        if s.phase not in ("play", "over"):
            break
    else:
        raise AssertionError("no position between battles")
    assert evaluate_fitted(s, s.battles + 1) is None  # before the horizon it does not judge
    even = s.copy()
    even.owner = (-1,) * len(s.owner)
    even.hands = ((0, 1),) * 4
    base = evaluate_fitted(even, even.battles)
    assert base is not None and abs(sum(base) - 1) < 1e-9
    ahead = even.copy()
    ahead.owner = (2, 2) + (-1,) * (len(s.owner) - 2)  # seat 2 holds two regions
    judged = evaluate_fitted(ahead, ahead.battles)
    assert judged is not None and judged[2] > base[2] and judged[2] == max(judged)
    richer = even.copy()
    richer.hands = ((0, 1), (0, 1), (6, 7, 7), (0, 1))  # seat 2 holds a 10, two Heroines
    judged = evaluate_fitted(richer, richer.battles)
    assert judged is not None and judged[2] == max(judged) and judged[2] > base[2]
