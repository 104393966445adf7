"""Court of the Medici's entry in the game registry.

Levels: ``easy`` is the one-move-ahead greedy bot; ``normal`` is the search bot thinking 0.25 s
per decision; ``hard`` the search bot thinking 1 s per decision (``--think`` overrides both).
"""

from __future__ import annotations

from engine.medici.bots import GreedyBot, RandomBot
from engine.medici.game import RULES
from engine.registry import GameEntry
from engine.search import bot as search_bot
from engine.search.medici import GAME as SEARCH_GAME

ENTRY = GameEntry(
    rules=RULES,
    bots={
        "random": lambda rng, settings: RandomBot(rng),
        "greedy": lambda rng, settings: GreedyBot(rng),
        "ismcts": search_bot.factory(SEARCH_GAME, GreedyBot, ("hide", "top")),
    },
    levels={
        "easy": ("greedy", {}),
        "normal": ("ismcts", {"think": 0.25}),
        "hard": ("ismcts", {"think": 1.0}),
    },
)
