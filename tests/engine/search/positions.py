"""Random positions of Court of the Medici, reached by random bots from a seeded game."""

from __future__ import annotations

import random

from engine.core import CHANCE, TERMINAL, LocalGame, sample_chance
from engine.medici import RULES, MediciConfig
from engine.medici.bots import RandomBot
from engine.medici.state import State


def random_position(seed: int, steps: int, players: int = 4) -> State:
    """The full state after ``steps`` steps (chance and reveal steps included) of a random
    game, or the final state if it ends sooner."""
    game = LocalGame(RULES, MediciConfig(players), seed)
    bots = [RandomBot(random.Random(seed * 7 + i)) for i in range(players)]
    for _ in range(steps):
        state = game.state
        who = RULES.current_player(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            action = sample_chance(RULES.chance_outcomes(state), game.rng)
        elif who < 0:
            action = RULES.legal_actions(state)[0]
        else:
            action = bots[who].choose(RULES.view(state, who), who)
        game.step(action, checked=False)
    return game.state
