"""Court of the Medici's entry in the game registry.

``ismcts`` is the search bot (``engine.search``) with its best settings for this game: the
``fast`` rollout policy and a progressive bias of 2 toward the immediate gain; it leaves the
set-up (hiding and crowning alliances) to the greedy bot's rules.

Levels: ``easy`` is the one-move-ahead greedy bot; ``normal`` is the search bot thinking 0.25 s
per decision; ``hard`` the search bot thinking 1 s per decision (``--think`` overrides both).
"""

from __future__ import annotations

from engine.medici import report
from engine.medici.bots import GreedyBot, RandomBot
from engine.medici.game import RULES
from engine.registry import GameEntry
from engine.search import bot as search_bot
from engine.search.medici import GAME as SEARCH_GAME

ENTRY = GameEntry(
    rules=RULES,
    report=report,
    bots={
        "random": lambda rng, settings: RandomBot(rng),
        "greedy": lambda rng, settings: GreedyBot(rng),
        "ismcts": search_bot.factory(
            SEARCH_GAME, GreedyBot, ("hide", "top"), {"rollout": "fast", "bias": 2.0}
        ),
    },
    levels={
        "easy": ("greedy", {}),
        "normal": ("ismcts", {"iterations": 64, "think": 0.25}),
        "hard": ("ismcts", {"iterations": 600, "think": 1.0}),
    },
)
