"""The coach: the hard level's suggestion and the runner-up, with chances, from a view alone."""

from __future__ import annotations

import random

import pytest

from engine.registry import get_game
from engine.search.coach import Hint, calibrated, chance_of, suggest
from engine.search.medici import determinize

from .positions import game_position, random_position


def test_a_hint_comes_from_the_seat_s_view_alone():
    """Two full states that look the same to the seat give the same hint (seeded search)."""
    entry = get_game("medici")
    rules = entry.rules
    truth = random_position(4, 60)
    seat = rules.current_player(truth)
    assert seat >= 0
    view = rules.view(truth, seat)
    other = determinize(view, seat, random.Random(5))
    assert other != truth and rules.view(other, seat) == view
    a = suggest(entry, rules.view(truth, seat), seat, random.Random(1), iterations=60)
    b = suggest(entry, rules.view(other, seat), seat, random.Random(1), iterations=60)
    assert a == b and a.best in rules.legal_actions(view)


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_a_hint_names_a_legal_move_a_different_runner_up_and_chances(game):
    entry = get_game(game)
    rules = entry.rules
    for steps in (60, 90, 140):
        truth = game_position(rules, rules.make_config(4, {}), 3, steps)
        seat = rules.current_player(truth)
        view = rules.view(truth, seat)
        if seat >= 0 and len(rules.legal_actions(view)) > 1:
            break
    hint = suggest(entry, view, seat, random.Random(2), iterations=80)
    legal = rules.legal_actions(view)
    assert hint.best in legal and hint.runner_up in legal and hint.runner_up != hint.best
    assert 0.0 <= hint.chance <= 1.0 and 0.0 <= hint.runner_up_chance <= 1.0
    assert hint.iterations == 80


def test_the_chance_reads_the_mean_reward_of_a_win_and_a_loss():
    assert chance_of(0.95) == pytest.approx(1.0) and chance_of(0.05) == 0.0
    assert chance_of(0.0) == 0.0 and chance_of(None) is None
    assert Hint("x", 0.5).runner_up is None


def _medici_decision():
    entry = get_game("medici")
    rules = entry.rules
    truth = random_position(3, 100)
    seat = rules.current_player(truth)
    assert seat >= 0
    return entry, rules.view(truth, seat), seat


def test_the_coach_says_what_it_assumes_of_the_other_players():
    entry, view, seat = _medici_decision()
    table: list[str | None] = [None, "easy", "normal", None]
    table[seat] = "hard"  # the seat's own entry is not an opponent
    hint = suggest(entry, view, seat, random.Random(1), opponents=table, iterations=40)
    others = [table[i] for i in range(4) if i != seat]
    people = others.count(None)
    assert hint.assumes.startswith("against ")
    assert ("(a person counts as hard)" in hint.assumes) == (people > 0)
    for level in ("easy", "normal"):
        assert (f"1 {level}" in hint.assumes) == (level in others)
    alone = suggest(entry, view, seat, random.Random(1), iterations=40)
    assert alone.assumes == "against 3 hard (a person counts as hard)"


def test_the_chance_models_the_opponents_at_the_table():
    """The same search, the same figure of its own: the chance stated against three easy bots
    is that figure mapped through easy's calibration, against hard ones through hard's, and a
    person counts as hard; a middling figure means more against weak play and less against
    hard play, as the reliability tables show (against three hard bots a raw 40-50% came true
    29% of the time)."""
    entry, view, seat = _medici_decision()
    easy = suggest(entry, view, seat, random.Random(1), opponents=["easy"] * 4, iterations=60)
    hard = suggest(entry, view, seat, random.Random(1), opponents=["hard"] * 4, iterations=60)
    people = suggest(entry, view, seat, random.Random(1), opponents=[None] * 4, iterations=60)
    assert easy.best == hard.best == people.best and easy.raw == hard.raw == people.raw
    assert easy.chance == calibrated("medici", easy.raw, ["easy"] * 3)
    assert hard.chance == calibrated("medici", hard.raw, ["hard"] * 3) == people.chance
    assert calibrated("medici", 0.35, ["easy"] * 3) > 0.6
    assert calibrated("medici", 0.45, ["hard"] * 3) < 0.4
    mixed = calibrated("medici", 0.35, ["easy", "hard", "hard"])
    assert calibrated("medici", 0.35, ["hard"] * 3) < mixed < calibrated("medici", 0.35,
                                                                          ["easy"] * 3)


def test_the_condottiere_coach_against_easy_bots_states_more_than_its_own_figure():
    # a raw 40-50% came true 73% of the time against three easy bots (seeds 1-2, 239 positions)
    assert calibrated("condottiere", 0.45, ["easy"] * 3) > 0.65
    # and 36% of the time against three hard bots, the people's level (seeds 1-4, 779 positions)
    assert calibrated("condottiere", 0.45, ["hard"] * 3) < 0.4


def test_the_medici_coach_searches_at_the_budget_its_calibration_was_fitted_with():
    """Court of the Medici's hard level searches 900 iterations a decision, but its coach keeps
    the 600 its chances were calibrated at (``coach.BUDGET``): a stronger level does not change
    what the coach's figure means."""
    entry, view, seat = _medici_decision()
    assert entry.make_bot("hard", random.Random(0)).budget.iterations == 900
    hint = suggest(entry, view, seat, random.Random(1), think=60.0)  # the cap never binds
    assert hint.iterations == 600
