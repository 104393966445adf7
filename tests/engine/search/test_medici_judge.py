"""Court of the Medici's judgement at the horizon (``engine.search.medici_judge``): it judges
a turn's start at or past the horizon and nothing before, it never reads the value of a hidden
alliance card, it favours a seat that still holds its shadow alliances under the full game (it
strikes last) and disfavours it under the short game (whoever strikes out ends the game), and
the set-up's prior follows the greedy rule."""

from __future__ import annotations

import pytest

from engine.medici import RULES
from engine.medici.cards import DUKE, JESTER, MINISTER, RANKS
from engine.medici.state import mk
from engine.search import medici_judge as judge

from .positions import random_position


def _play_state(seed: int = 3, steps: int = 100):
    s = random_position(seed, steps)
    while s.phase != "play":
        steps += 1
        s = random_position(seed, steps)
    return s


def test_the_judgement_waits_for_a_turns_start_at_the_horizon():
    s = _play_state()
    assert judge.evaluate(s, s.turns + 1) is None
    chances = judge.evaluate(s, s.turns)
    assert chances is not None and abs(sum(chances) - 1.0) < 1e-9
    t = s.copy()
    t.phase = "draw"
    assert judge.evaluate(t, s.turns) is None


def test_the_judgement_never_reads_a_hidden_alliance_cards_value():
    s = _play_state()
    slots = [(h, k) for h, row in enumerate(s.alliances) for k, a in enumerate(row)
             if a is not None and a[1] >= 0]
    assert slots
    for holder, k in slots:
        placer, hidden, top, up = s.alliances[holder][k]
        for other in (placer * RANKS + MINISTER, placer * RANKS + DUKE):
            t = s.copy()
            row = list(t.alliances[holder])
            row[k] = (placer, other, top, up)
            t.alliances = t.alliances[:holder] + (tuple(row),) + t.alliances[holder + 1 :]
            assert judge.chances(t) == judge.chances(s)


@pytest.mark.parametrize("short", [False, True])
def test_a_seat_that_still_holds_its_alliances_is_judged_likelier_to_win_in_the_full_game_only(short):
    s = _play_state()
    s.config = RULES.make_config(4, {"short_game": True} if short else {})
    holder = next(h for h, row in enumerate(s.alliances) if sum(a is not None for a in row) >= 2)
    before = judge.chances(s)[holder]
    t = s.copy()
    row = list(t.alliances[holder])
    row[next(k for k, a in enumerate(row) if a is not None)] = None
    t.alliances = t.alliances[:holder] + (tuple(row),) + t.alliances[holder + 1 :]
    assert (judge.chances(t)[holder] > before) if short else (judge.chances(t)[holder] < before)


@pytest.mark.parametrize("players", [3, 4])
def test_the_set_up_prior_hides_the_weak_cards_and_crowns_with_the_strong(players):
    s = RULES.new_game(RULES.make_config(players, {}))
    prior = judge.setup_prior
    hide = lambda rank: prior(s, mk("hide", 0, card=rank, before=1), 0)  # noqa: E731
    top = lambda rank: prior(s, mk("top", 0, card=rank, slot=0), 0)  # noqa: E731
    assert hide(MINISTER) > hide(0) > hide(8) > hide(DUKE) > hide(JESTER)
    assert top(DUKE) > top(8) > top(0) > top(JESTER)
