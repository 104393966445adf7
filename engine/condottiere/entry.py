"""Condottiere's entry in the game registry.

``ismcts`` is the search bot (``engine.search``) with its best settings for this game: the
``light`` rollout policy.

Levels (a ladder: each beats three of the level below, see the README): ``easy`` is the greedy
bot; ``normal`` the search bot with 64 iterations a decision, ``hard`` with 1000 and ``expert``
with 4000, each under a cap in CPU time (0.25 s, 1 s and 1.9 s; ``--think`` sets the cap).
Expert is hard with four times the thought, and its own line in the ladder: it won more than a
fair share against three hard bots (``docs/opponents.md``). Its cap leaves room for a decision's
last iteration: under a cap of 2 s the longest of 3,756 decisions took 2.10 s. Court of the
Medici has none: a ladder's 160 games of four searching bots there take hours of CPU, not yet
spent. The search's rollouts stop two battles ahead and judge the position
(``engine.search.condottiere.evaluate_fitted``), which makes an iteration several times cheaper
than one played to the end of the game. The setting ``judge=progress`` judges as the search did
before (``evaluate``): ``ismcts:iterations=1000:think=1.0:judge=progress`` is the hard level of
that time.

The search's modules are imported when the first search bot is made, not with the registry:
the start screen reads the game's rules without them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from engine.condottiere import report
from engine.condottiere.bots import GreedyBot, RandomBot
from engine.condottiere.game import RULES
from engine.registry import GameEntry, Settings


@cache
def _search_factory() -> Callable[[random.Random, Settings], Any]:
    from engine.search import bot as search_bot
    from engine.search.condottiere import JUDGES

    # the first judge is the default
    judges = {name: JUDGES[name] for name in ("fitted", "progress")}
    return search_bot.factory(judges["fitted"], defaults={"rollout": "light"}, judges=judges)


def _ismcts(rng: random.Random, settings: Settings) -> Any:
    return _search_factory()(rng, settings)

ENTRY = GameEntry(
    rules=RULES,
    report=report,
    bots={
        "random": lambda rng, settings: RandomBot(rng),
        "greedy": lambda rng, settings: GreedyBot(rng),
        "ismcts": _ismcts,
    },
    levels={
        "easy": ("greedy", {}),
        "normal": ("ismcts", {"iterations": 64, "think": 0.25}),
        "hard": ("ismcts", {"iterations": 1000, "think": 1.0}),
        "expert": ("ismcts", {"iterations": 4000, "think": 1.9}),
    },
)
