"""Condottiere's entry in the game registry.

``ismcts`` is the search bot (``engine.search``) with its best settings for this game: the
``light`` rollout policy.

Levels: ``easy`` is the greedy bot; ``normal`` is the search bot thinking 0.1 s per decision;
``hard`` the search bot thinking 0.25 s per decision (``--think`` overrides both). A game of
Condottiere asks a seat for a few times as many decisions as one of Court of the Medici, hence
the shorter thinks.
"""

from __future__ import annotations

from engine.condottiere import report
from engine.condottiere.bots import GreedyBot, RandomBot
from engine.condottiere.game import RULES
from engine.registry import GameEntry
from engine.search import bot as search_bot
from engine.search.condottiere import GAME as SEARCH_GAME

ENTRY = GameEntry(
    rules=RULES,
    report=report,
    bots={
        "random": lambda rng, settings: RandomBot(rng),
        "greedy": lambda rng, settings: GreedyBot(rng),
        "ismcts": search_bot.factory(SEARCH_GAME, defaults={"rollout": "light"}),
    },
    levels={
        "easy": ("greedy", {}),
        "normal": ("ismcts", {"iterations": 64, "think": 0.25}),
        "hard": ("ismcts", {"iterations": 1000, "think": 1.0}),
    },
)
