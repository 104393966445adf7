"""Court of the Medici: Shadow Alliances (3 or 4 players).

>>> from engine.core import LocalGame
>>> from engine.medici import RULES, MediciConfig
>>> from engine.medici.bots import GreedyBot, RandomBot
>>> import random
>>> game = LocalGame(RULES, MediciConfig(players=4), seed=7)
>>> bots = [GreedyBot(random.Random(i)) for i in range(4)]
>>> result = game.play_out(bots)
>>> len(result.scores), result.end in ("alliances-gone", "all-struck", "no-playable-card")
(4, True)
"""

from engine.medici.game import RULES, MediciRules
from engine.medici.state import Action, MediciConfig, State

__all__ = ["RULES", "MediciRules", "Action", "MediciConfig", "State"]
