"""Condottiere (2 to 6 players), with the five optional variants.

>>> import random
>>> from engine.core import LocalGame
>>> from engine.condottiere import RULES, CondottiereConfig
>>> from engine.condottiere.bots import GreedyBot
>>> game = LocalGame(RULES, CondottiereConfig(players=3, hidden_cards=True), seed=7)
>>> result = game.play_out([GreedyBot(random.Random(i)) for i in range(3)])
>>> len(result.scores), len(result.winners) >= 1
(3, True)
"""

from engine.condottiere.game import RULES, CondottiereRules
from engine.condottiere.state import Action, CondottiereConfig, State

__all__ = ["RULES", "CondottiereRules", "Action", "CondottiereConfig", "State"]
