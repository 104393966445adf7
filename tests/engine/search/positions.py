"""Random positions of a game, reached by random play from a seeded game."""

from __future__ import annotations

import random
from typing import Any

from engine.core import CHANCE, TERMINAL, LocalGame, sample_chance
from engine.medici import RULES as MEDICI
from engine.medici import MediciConfig


def random_position(seed: int, steps: int, players: int = 4) -> Any:
    """A Court of the Medici position (see ``game_position``)."""
    return game_position(MEDICI, MediciConfig(players), seed, steps)


def game_position(rules: Any, config: Any, seed: int, steps: int) -> Any:
    """The full state after ``steps`` steps (chance and reveal steps included) of a game in
    which every seat picks uniformly among its legal actions, from its view; or the final
    state if the game ends sooner."""
    game = LocalGame(rules, config, seed)
    rng = random.Random(seed * 7 + 1)
    for _ in range(steps):
        state = game.state
        who = rules.current_player(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            action = sample_chance(rules.chance_outcomes(state), game.rng)
        elif who < 0:
            action = rules.legal_actions(state)[0]
        else:
            action = rng.choice(rules.legal_actions(rules.view(state, who)))
        game.step(action, checked=False)
    return game.state
