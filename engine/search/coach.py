"""A coach: the hard bot's suggested move for a seat, from that seat's view alone.

``suggest(entry, view, seat)`` searches the view with the game's ``hard`` level (its iteration
budget and CPU-time cap, ``engine.search.ismcts.Budget``; the set-up phases are searched too,
rather than handed to the greedy rules, so that every suggestion comes with figures) and
returns a ``Hint``: the most visited move and the runner-up, each with the search's estimate
of the seat's chance to win after it. The search sees only the view it is given, as a bot
always does, so a hint tells the seat nothing its view does not already hold.

The estimate is read off the mean reward (``engine.search.game.outcome_rewards``): a win is
worth ``1 - margin_weight`` and the margin adds up to ``margin_weight``, so the chance is about
``(mean - margin_weight / 2) / (1 - margin_weight)``, clipped to [0, 1]. It is a rough figure
from a few hundred simulated games, not a promise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.search.bot import SearchBot

MARGIN_WEIGHT = 0.1


@dataclass(frozen=True)
class Hint:
    best: Any
    chance: float | None
    runner_up: Any = None
    runner_up_chance: float | None = None
    iterations: int = 0


def chance_of(mean: float | None) -> float | None:
    if mean is None:
        return None
    c = (mean - MARGIN_WEIGHT / 2) / (1 - MARGIN_WEIGHT)
    return 0.0 if c < 0 else 1.0 if c > 1 else c


def suggest(entry: Any, view: Any, seat: int, rng: random.Random | None = None, **settings: Any) -> Hint:
    """The hard level's suggestion for ``seat`` on its ``view`` (``settings`` override the
    level's, e.g. ``iterations`` for a reproducible hint)."""
    if "iterations" in settings:  # a set-up decision too: reproducible
        settings.setdefault("setup_iterations", settings["iterations"])
    if "think" in settings:
        settings.setdefault("setup_think", settings["think"])
    bot = entry.make_bot("hard", rng or random.Random(), setup="search", **settings)
    if not isinstance(bot, SearchBot):
        return Hint(bot.choose(view, seat), None)
    best, result = bot.decide(view, seat)
    ranked = sorted(
        (a for a in result.visits if a != best),
        key=lambda a: (result.visits[a], result.means.get(a, -1.0)),
        reverse=True,
    )
    runner = ranked[0] if ranked else None
    return Hint(
        best,
        chance_of(result.means.get(best)),
        runner,
        chance_of(result.means.get(runner)) if runner is not None else None,
        result.iterations,
    )
