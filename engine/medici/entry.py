"""Court of the Medici's entry in the game registry.

``ismcts`` is the search bot (``engine.search``) with its best settings for this game: the
``fast`` rollout policy and a progressive bias of 2 toward the immediate gain; it leaves the
set-up (hiding and crowning alliances) to the greedy bot's rules.

Levels (a ladder: each beats three of the level below, see the README): ``easy`` is the
one-move-ahead greedy bot; ``normal`` the search bot with 64 iterations a decision, ``hard``
with 900 and its set-up searched (400 a placement, under 0.45 s), each under a cap in CPU time
(0.25 s and 0.95 s; ``--think`` sets the cap). Two against two, hard won 60 of 100 games
against the hard of before (600 iterations, the greedy set-up, every unseen card equally
likely; ``docs/opponents.md``); the cap keeps every decision under 1 s of CPU. ``expert`` is
hard with four times the iterations (3,600) under a 1.9 s cap, its set-up as hard's; against
three hard bots it won more than a fair share (the README's ladder).

The search's modules are imported when the first search bot is made, not with the registry:
the start screen reads the game's rules without them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from engine.medici import report
from engine.medici.bots import GreedyBot, RandomBot
from engine.medici.game import RULES
from engine.registry import GameEntry, Settings


@cache
def _search_factory() -> Callable[[random.Random, Settings], Any]:
    from engine.search import bot as search_bot
    from engine.search.medici import GAME as UNIFORM_GAME
    from engine.search.medici_beliefs import GAME as SEARCH_GAME
    from engine.search.medici_judge import judged

    return search_bot.factory(
        SEARCH_GAME, GreedyBot, ("hide", "top"), {"rollout": "fast", "bias": 2.0},
        beliefs={"uniform": UNIFORM_GAME},
        judges={"rollout": SEARCH_GAME, "fitted": judged(SEARCH_GAME)},
    )


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
        "hard": ("ismcts", {"iterations": 900, "think": 0.95, "setup": "search",
                            "setup_iterations": 400, "setup_think": 0.45}),
        "expert": ("ismcts", {"iterations": 3600, "think": 1.9, "setup": "search",
                              "setup_iterations": 400, "setup_think": 0.45}),
    },
)
