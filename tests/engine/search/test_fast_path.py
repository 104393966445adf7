"""The search's fast path makes exactly the moves of the step-by-step (legacy) path, and its
samplers draw only legal moves from the policy's own distribution.

The fast path plays an iteration in place on one private copy, draws determinizations from a
prepared view and plays rollouts in each game's own loop. Each part is checked against the
plain thing it stands for, from the same generator state: the same rollout (final state,
rewards, generator state after), the same determinization, the same move, the same search.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.condottiere import rules as crules
from engine.condottiere.entry import ENTRY as CONDOTTIERE
from engine.condottiere.game import RULES as CRULES
from engine.core import TERMINAL, LocalGame
from engine.medici import RULES as MRULES
from engine.medici import rules as mrules
from engine.medici.entry import ENTRY as MEDICI
from engine.search import condottiere as csearch
from engine.search import medici as msearch
from engine.search import medici_judge
from engine.search.condottiere_sim import MIRRORED as CMIRRORED
from engine.search.condottiere_sim import sample_play
from engine.search.game import SearchGame
from engine.search.ismcts import Search
from engine.search.medici_sim import fast_play

from .positions import game_position, random_position
from .test_condottiere_search import VARIANTS

medici_positions = st.builds(
    lambda seed, steps, players: random_position(seed, steps, players),
    st.integers(0, 10_000),
    st.integers(0, 160),
    st.sampled_from([3, 4]),
)
condottiere_positions = st.builds(
    lambda seed, steps, players, variant: game_position(
        CRULES, CRULES.make_config(players, VARIANTS[variant]), seed, steps
    ),
    st.integers(0, 10_000),
    st.integers(0, 400),
    st.integers(2, 6),
    st.integers(0, len(VARIANTS) - 1),
)
seeds = st.integers(0, 2**32)


def step_by_step(game: SearchGame, policy: str, state: Any, rng: random.Random) -> tuple[Any, list[float]]:
    """The rollout as the legacy loop plays it: a chance step or the policy's move, applied
    with a copy, until the end."""
    move = game.rollouts[policy]
    while True:
        p = game.current_player(state)
        if p == TERMINAL:
            return state, game.rewards(state)
        a = game.sample_chance(state, rng) if p < 0 else move(state, p, rng)
        state = game.apply(state, a)


def assert_simulations_match(game: SearchGame, state: Any, seed: int) -> None:
    assert game.simulations
    for policy, simulate in game.simulations.items():
        old_rng, new_rng = random.Random(seed), random.Random(seed)
        end, rewards = step_by_step(game, policy, state, old_rng)
        mine = state.copy()
        assert simulate(mine, new_rng) == rewards
        assert mine == end
        assert new_rng.getstate() == old_rng.getstate()  # the same draws, no more, no fewer


@given(medici_positions, seeds)
def test_a_medici_simulation_is_the_step_by_step_rollout(truth, seed):
    assert_simulations_match(msearch.GAME, truth, seed)


@given(condottiere_positions, seeds)
def test_a_condottiere_simulation_is_the_step_by_step_rollout(truth, seed):
    assert_simulations_match(csearch.GAME, truth, seed)


def judged_step_by_step(game: SearchGame, policy: str, state: Any, rng: random.Random) -> tuple[Any, list[float]]:
    """The rollout the search's own loop plays to its horizon: a chance step or the policy's
    move, until the game ends or ``evaluate`` judges the state."""
    move, until = game.rollouts[policy], game.horizon(state)
    while True:
        p = game.current_player(state)
        if p == TERMINAL:
            return state, game.rewards(state)
        judged = game.evaluate(state, until)
        if judged is not None:
            return state, judged
        a = game.sample_chance(state, rng) if p < 0 else move(state, p, rng)
        state = game.apply(state, a)


@given(condottiere_positions, seeds)
def test_a_condottiere_rollout_to_the_horizon_is_the_step_by_step_one(truth, seed):
    game = csearch.GAME
    assert set(game.judged_simulations) == set(game.rollouts)
    _each_judged_rollout_is_the_step_by_step_one(game, truth, seed)


@given(medici_positions, seeds)
def test_a_medici_rollout_to_the_horizon_is_the_step_by_step_one(truth, seed):
    game = medici_judge.judged(msearch.GAME)
    assert set(game.judged_simulations) == set(game.simulations)
    _each_judged_rollout_is_the_step_by_step_one(game, truth, seed)


def _each_judged_rollout_is_the_step_by_step_one(game, truth, seed):
    """Each of ``game``'s judged rollouts from ``truth`` to the horizon ends where the step by
    step one ends, with its rewards, having drawn as many random numbers."""
    for policy, simulate in game.judged_simulations.items():
        old_rng, new_rng = random.Random(seed), random.Random(seed)
        end, rewards = judged_step_by_step(game, policy, truth, old_rng)
        mine = truth.copy()
        assert simulate(mine, game.horizon(truth), new_rng) == rewards
        assert mine == end
        assert new_rng.getstate() == old_rng.getstate()


def assert_prepared_draws_match(game: SearchGame, view: Any, seat: int, seed: int) -> None:
    assert game.prepare is not None
    draw = game.prepare(view, seat)
    old_rng, new_rng = random.Random(seed), random.Random(seed)
    for _ in range(3):
        assert draw(new_rng) == game.determinize(view, seat, old_rng)
    first = draw(new_rng)
    assert draw(new_rng) is not first and first is not view  # each draw is the search's own


@given(medici_positions, st.integers(0, 3), seeds)
def test_a_prepared_medici_view_draws_what_the_determinizer_draws(truth, seat, seed):
    seat %= truth.players
    view = MRULES.view(truth, seat)
    assert_prepared_draws_match(msearch.GAME, view, seat, seed)
    assert_prepared_draws_match(msearch.GAME, truth, seat, seed)


@given(condottiere_positions, st.integers(0, 5), seeds)
def test_a_prepared_condottiere_view_draws_what_the_determinizer_draws(truth, seat, seed):
    seat %= truth.players
    view = CRULES.view(truth, seat)
    assert_prepared_draws_match(csearch.GAME, view, seat, seed)
    assert_prepared_draws_match(csearch.GAME, truth, seat, seed)


def medici_play_position(seed: int) -> Any:
    for steps in range(40 + seed % 50, 400):
        s = random_position(seed, steps)
        if s.phase == "play":
            return s
    return None


@given(st.integers(0, 10_000), seeds)
def test_the_fast_medici_move_is_legal_and_the_policys_own(seed, rng_seed):
    s = medici_play_position(seed)
    if s is None:
        return
    seat = s.turn
    legal = mrules.legal_actions(s)
    for k in range(20):
        a, b = random.Random(rng_seed + k), random.Random(rng_seed + k)
        move = fast_play(s, seat, a)
        assert move in legal
        assert move == msearch.fast_action(s, seat, b) and a.getstate() == b.getstate()


#: the variants whose rules the fast copy plays itself (``condottiere_sim.MIRRORED``; any other
#: game is played by the rules themselves)
FAST_VARIANTS = [v for v in VARIANTS if {k for k, on in v.items() if on} <= CMIRRORED]


def condottiere_battle(seed: int, variant: int) -> Any:
    for steps in range(30 + seed % 60, 600):
        s = game_position(CRULES, CRULES.make_config(4, FAST_VARIANTS[variant]), seed, steps)
        if s.phase == "play":
            return s
    return None


@given(st.integers(0, 10_000), st.integers(0, len(FAST_VARIANTS) - 1), seeds)
def test_the_uniform_condottiere_move_draws_every_legal_action_and_nothing_else(seed, variant, rng_seed):
    s = condottiere_battle(seed, variant)
    if s is None:
        return
    seat = s.turn
    legal = crules.legal_actions(s)
    rng = random.Random(rng_seed)
    drawn = Counter(sample_play(s, seat, rng) for _ in range(40 * len(legal)))
    assert set(drawn) == set(legal)
    # and it is the random policy's draw: the same action from the same generator state
    a, b = random.Random(rng_seed), random.Random(rng_seed)
    for _ in range(10):
        assert sample_play(s, seat, a) == csearch.random_action(s, seat, b)


def search_views(entry: Any, options: dict[str, Any], games: int) -> list[tuple[Any, int]]:
    """Views of seats deciding in a few seeded greedy games (every eighth decision)."""
    rules = entry.rules
    out = []
    for g in range(games):
        local = LocalGame(rules, rules.make_config(4, options), 50 + g)
        bots = [entry.make_bot("greedy", random.Random(g * 4 + i)) for i in range(4)]
        k = 0
        while True:
            local.advance()
            who = rules.current_player(local.state)
            if who < 0:
                break
            view = rules.view(local.state, who)
            if k % 8 == 0 and len(rules.legal_actions(view)) > 1:
                out.append((view, who))
            k += 1
            local.step(bots[who].choose(view, who), checked=False)
    return out


@pytest.mark.parametrize(
    "entry, options",
    [(MEDICI, {}), (CONDOTTIERE, {}), (CONDOTTIERE, VARIANTS[2])],
    ids=["medici", "condottiere", "condottiere-variants"],
)
def test_both_paths_search_alike_and_play_only_legal_moves(entry, options):
    views = search_views(entry, options, 1)[:12]
    assert views
    for i, (view, seat) in enumerate(views):
        results = []
        for path in ("legacy", "fast"):
            bot = entry.make_bot("ismcts", random.Random(i), iterations=40, path=path)
            assert bot.search.fast == (path == "fast")
            results.append(bot.search.run(view, seat, bot.budget))
        old, new = results
        assert (new.action, new.visits, new.means, new.iterations) == (
            old.action, old.visits, old.means, old.iterations
        )
        assert new.action in entry.rules.legal_actions(view)


def test_an_unknown_path_is_refused():
    with pytest.raises(ValueError, match="path"):
        Search(msearch.GAME, random.Random(0), path="quick")


def test_in_place_application_is_the_copying_one():
    for rules, truth in (
        (mrules, random_position(4, 90)),
        (crules, game_position(CRULES, CRULES.make_config(4, {}), 4, 90)),
    ):
        for a in rules.legal_actions(truth)[:5]:
            mine = truth.copy()
            rules.apply_in_place(mine, a)
            assert mine == rules.apply_unchecked(truth, a)
