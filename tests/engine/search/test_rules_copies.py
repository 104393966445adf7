"""Every copy of the rules agrees with the rules, under every option the game declares.

The search's fast paths (``engine.search.condottiere_sim``, ``engine.search.medici_sim``) are
copies of the rules written for speed. Each is checked here against the rules themselves in
seeded positions of every configuration ``tests.engine.contract.configs`` makes from
``RULES.variants`` (no option, each option alone, all together): a variant declared tomorrow
is checked by being declared, with no list here to forget it in. The positions include the
first battle of each game (Condottiere) and the first turns of play (Court of the Medici),
where a rule about "the first battle" would show, and positions later on.

Checked at each position: a whole simulated rollout is the step-by-step rollout with the
rules (the same end, rewards and generator state), for every rollout policy the game offers;
Condottiere's fast strengths are ``measures.strengths``; its uniform play is drawn among the
rules' legal actions; Court of the Medici's fast move is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.condottiere import rules as crules
from engine.condottiere.game import RULES as CRULES
from engine.core import CHANCE, TERMINAL, LocalGame, sample_chance
from engine.medici import RULES as MRULES
from engine.medici import rules as mrules
from engine.search import condottiere as csearch
from engine.search import medici as msearch
from engine.search.condottiere_sim import _strengths, sample_play
from engine.search.medici_sim import fast_play

from ..contract import configs
from .test_fast_path import assert_simulations_match

SEEDS = range(3)


def positions(
    rules: Any, config: Any, seed: int, opening: Callable[[Any], bool], first: int, later: int
) -> list[Any]:
    """Full states of a seeded game of random decisions in the play phase: the first ``first``
    of those in the ``opening`` (the first battle, the first turns of play), then every
    ``later``-th one after it."""
    game = LocalGame(rules, config, seed)
    rng = random.Random(seed * 31 + 7)
    out: list[Any] = []
    early = 0
    k = 0
    while True:
        s = game.state
        who = rules.current_player(s)
        if who == TERMINAL:
            return out
        if who == CHANCE:
            action = sample_chance(rules.chance_outcomes(s), game.rng)
        elif who < 0:
            action = rules.legal_actions(s)[0]
        else:
            if s.phase == "play":
                if opening(s):
                    if early < first:
                        out.append(s)
                        early += 1
                elif k % later == 0:
                    out.append(s)
                k += 1
            action = rng.choice(rules.legal_actions(rules.view(s, who)))
        game.step(action, checked=False)


def first_battle(s: Any) -> bool:
    return bool(s.battles == 0)


def first_turns(s: Any) -> bool:
    return bool(s.turns < 4)


def _ids(pairs: list[tuple[str, Any]]) -> list[str]:
    return [label for label, _ in pairs]


CONDOTTIERE_CONFIGS = configs(CRULES)
MEDICI_CONFIGS = configs(MRULES)


def test_every_declared_option_is_checked() -> None:
    for rules, made in ((CRULES, CONDOTTIERE_CONFIGS), (MRULES, MEDICI_CONFIGS)):
        labels = " ".join(_ids(made))
        assert all(f"-{name}=" in labels for name in rules.options)


@pytest.mark.parametrize("label, config", CONDOTTIERE_CONFIGS, ids=_ids(CONDOTTIERE_CONFIGS))
def test_the_condottiere_copy_of_the_rules_agrees_with_them(label: str, config: Any) -> None:
    checked = in_first = 0
    for seed in SEEDS:
        for s in positions(CRULES, config, seed, first_battle, first=3, later=60):
            in_first += first_battle(s)
            assert _strengths(s) == crules.strengths(s)
            legal = crules.legal_actions(s)
            rng = random.Random(seed)
            assert all(sample_play(s, s.turn, rng) in legal for _ in range(10))
            assert_simulations_match(csearch.GAME, s, seed)
            checked += 1
    assert checked and in_first


@pytest.mark.parametrize("label, config", MEDICI_CONFIGS, ids=_ids(MEDICI_CONFIGS))
def test_the_medici_copy_of_the_rules_agrees_with_them(label: str, config: Any) -> None:
    checked = opening = 0
    for seed in SEEDS:
        for s in positions(MRULES, config, seed, first_turns, first=3, later=12):
            opening += first_turns(s)
            legal = mrules.legal_actions(s)
            rng = random.Random(seed)
            assert all(fast_play(s, s.turn, rng) in legal for _ in range(10))
            assert_simulations_match(msearch.GAME, s, seed)
            checked += 1
    assert checked and opening
