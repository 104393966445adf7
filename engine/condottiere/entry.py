"""Condottiere's entry in the game registry."""

from __future__ import annotations

from engine.condottiere.bots import GreedyBot, RandomBot
from engine.condottiere.game import RULES
from engine.registry import GameEntry

ENTRY = GameEntry(
    rules=RULES,
    bots={
        "random": lambda rng, settings: RandomBot(rng),
        "greedy": lambda rng, settings: GreedyBot(rng),
    },
)
