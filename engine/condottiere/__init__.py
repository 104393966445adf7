"""Condottiere (2 to 6 players), with the five optional variants.

>>> import random
>>> from engine.core import LocalGame
>>> from engine.condottiere import RULES, CondottiereConfig
>>> from engine.condottiere.bots import GreedyBot
>>> def play(seed):
...     game = LocalGame(RULES, CondottiereConfig(players=3, hidden_cards=True), seed=seed)
...     return game.play_out([GreedyBot(random.Random(i)) for i in range(3)])
>>> result = play(7)
>>> result == play(7)  # the same seed and the same decisions replay the same game
True
>>> len(result.scores), len(result.winners) >= 1, result.detail["battles"] > 0
(3, True, True)
"""

from engine.condottiere.game import RULES, CondottiereRules
from engine.condottiere.state import Action, CondottiereConfig, State

__all__ = ["RULES", "CondottiereRules", "Action", "CondottiereConfig", "State"]
