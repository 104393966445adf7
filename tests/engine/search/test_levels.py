"""Levels that mean something: easy, normal and hard name growing search budgets, counted in
iterations (so a level plays the same on a busy machine) under a CPU-time cap that ``--think``
sets; the interface offers the levels, not the bot kinds."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engine.registry import get_game
from engine.search.bot import SearchBot
from engine.search.ismcts import Budget, Search

from .positions import game_position

LEVELS = {game: ["easy", "normal", "hard", "expert"] for game in ("medici", "condottiere")}


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_the_levels_grow_and_hard_thinks_at_most_a_second(game):
    entry = get_game(game)
    assert entry.level_names() == LEVELS[game]
    bots = {lv: entry.make_bot(lv, random.Random(0)) for lv in entry.level_names()}
    easy, *searches = bots.values()
    assert not isinstance(easy, SearchBot)
    assert all(isinstance(bot, SearchBot) for bot in searches)
    for lower, higher in pairwise(searches):
        assert lower.budget.iterations < higher.budget.iterations
        assert lower.budget.cap <= higher.budget.cap
    assert bots["hard"].budget.cap <= 1.0


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_expert_is_hard_with_four_times_the_thought_and_at_most_two_seconds(game):
    entry = get_game(game)
    hard, expert = (entry.make_bot(lv, random.Random(0)) for lv in ("hard", "expert"))
    assert expert.budget.iterations == 4 * hard.budget.iterations
    assert expert.budget.cap is not None and expert.budget.cap <= 1.9  # a last iteration's room
    assert entry.levels["expert"][1].get("setup") == entry.levels["hard"][1].get("setup")


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_think_caps_a_level_without_changing_its_iterations(game):
    entry = get_game(game)
    hard = entry.make_bot("hard", random.Random(0))
    quick = entry.make_bot("hard", random.Random(0), think=0.1)
    assert quick.budget.cap == 0.1 and quick.budget.iterations == hard.budget.iterations
    assert entry.make_bot("ismcts", random.Random(0), iterations=30).budget.cap is None


def _decision(game: str):
    entry = get_game(game)
    rules = entry.rules
    for steps in range(60, 200, 7):
        s = game_position(rules, rules.make_config(4, {}), 2, steps)
        seat = rules.current_player(s)
        if seat >= 0 and len(rules.legal_actions(rules.view(s, seat))) > 2:
            return entry, rules.view(s, seat), seat
    raise AssertionError("no decision found")


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_a_cap_that_does_not_bind_leaves_the_choice_reproducible(game):
    entry, view, seat = _decision(game)
    search_game = entry.make_bot("hard", random.Random(0)).game
    a = Search(search_game, random.Random(7)).run(view, seat, Budget(iterations=40))
    b = Search(search_game, random.Random(7)).run(view, seat, Budget(iterations=40, cap=1000.0))
    assert (a.action, a.visits, a.iterations) == (b.action, b.visits, b.iterations)


def test_a_cap_that_binds_ends_the_search():
    entry, view, seat = _decision("medici")
    search_game = entry.make_bot("hard", random.Random(0)).game
    r = Search(search_game, random.Random(7)).run(view, seat, Budget(iterations=10**9, cap=0.02))
    assert Budget().min_iterations <= r.iterations < 10**9
