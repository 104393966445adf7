"""The bot every game has: ``RandomBot`` picks uniformly among the legal actions of its view.

A game's bots module binds it to its rules (``legal_actions``), so that its name
stays ``engine.<game>.bots.RandomBot`` and it is built from a generator alone, like the game's
other bots:

>>> import random
>>> from engine.condottiere.bots import RandomBot
>>> from engine.condottiere.game import RULES
>>> state = RULES.new_game(RULES.make_config(2, {}))
>>> RandomBot(random.Random(0)).name
'random'
"""

from __future__ import annotations

import random
from typing import Generic

from engine.core import A, S


class RandomBot(Generic[S, A]):
    """Uniform over the legal actions of the view it is given, from its own generator."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def legal_actions(self, view: S) -> list[A]:
        """The game's ``legal_actions`` (each game's subclass says it)."""
        raise NotImplementedError

    def choose(self, view: S, seat: int) -> A:
        return self.rng.choice(self.legal_actions(view))
