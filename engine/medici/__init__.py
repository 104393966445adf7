"""Court of the Medici: Shadow Alliances (3 or 4 players).

>>> import random
>>> from engine.core import LocalGame
>>> from engine.medici import RULES, MediciConfig
>>> from engine.medici.bots import GreedyBot
>>> def play(seed):
...     game = LocalGame(RULES, MediciConfig(players=4), seed=seed)
...     return game.play_out([GreedyBot(random.Random(i)) for i in range(4)])
>>> result = play(7)
>>> result == play(7)  # the same seed and the same decisions replay the same game
True
>>> len(result.scores), all(result.scores[w] == max(result.scores) for w in result.winners)
(4, True)
>>> result.end in ("alliances-gone", "all-struck", "no-playable-card")
True
"""

from engine.medici.game import RULES, MediciRules
from engine.medici.state import Action, MediciConfig, State

__all__ = ["RULES", "MediciRules", "Action", "MediciConfig", "State"]
