"""The search bot: an ``engine.core.Bot`` that decides by ISMCTS from its view.

Settings (from the registry's levels and the command line):

``think``       seconds of search per decision (default 1.0), in CPU time of the searching
                thread
``iterations``  a fixed number of iterations per decision: with the bot's seeded generator, the
                same view always gives the same choice (for tests and reproducible runs); with
                ``think`` given too, ``think`` caps each decision in CPU time (the levels:
                ``engine.search.ismcts.Budget``)
``rollout``     the default policy's name (``random``, or a game's cheaper heuristic)
``exploration`` the UCB constant
``bias``        the weight of the game's prior (progressive bias; 0 turns it off)
``setup``       ``"greedy"`` hands the set-up decisions of a game (phases listed in
                ``SETUP_PHASES``) to the game's greedy bot; ``"search"`` searches them too
``path``        ``"fast"`` (in place, the game's rollout loops) or ``"legacy"`` (a state copy
                a step, the policy called step by step): the same moves, only slower; kept
                to measure the speed against (``scripts/bench_search.py``)

A move the game calls senseless (``SearchGame.senseless``: ending a game it would lose,
surrendering a battle another seat leads, ...) is not played while another move is left: the
most visited sensible move is played instead.

The bot is handed a view and never a state: everything it knows comes from that view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic

from engine.core import A, Bot, S
from engine.search.game import SearchGame
from engine.search.ismcts import Budget, Search, SearchResult


class SearchBot(Generic[S, A]):
    name = "ismcts"

    def __init__(
        self,
        game: SearchGame[S, A],
        rng: random.Random,
        think: float = 1.0,
        iterations: int | None = None,
        rollout: str = "random",
        exploration: float = 0.7,
        bias: float = 0.0,
        fallback: Bot[S, A] | None = None,
        setup_phases: tuple[str, ...] = (),
        cap: float | None = None,
        horizon: bool = True,
        path: str = "fast",
    ) -> None:
        if rollout not in game.rollouts:
            raise ValueError(f"unknown rollout {rollout!r} (choose from {', '.join(game.rollouts)})")
        self.game = game
        self.rng = rng
        self.budget = Budget(seconds=think, iterations=iterations, cap=cap)
        self.search = Search(game, rng, exploration=exploration, rollout=rollout, bias=bias,
                             horizon=horizon, path=path)
        self.fallback = fallback
        self.setup_phases = setup_phases
        self.last: SearchResult[A] | None = None

    def choose(self, view: S, seat: int) -> A:
        if self.fallback is not None and getattr(view, "phase", None) in self.setup_phases:
            return self.fallback.choose(view, seat)
        self.last = self.search.run(view, seat, self.budget)
        return self._sensible(view, seat, self.last)

    def _sensible(self, view: S, seat: int, result: SearchResult[A]) -> A:
        """The search's move, or when the game calls it senseless the most visited move that
        is not (the search's move when every move is senseless)."""
        senseless = self.game.senseless
        if senseless is None or not senseless(view, result.action, seat):
            return result.action
        others = [a for a in self.game.legal_actions(view) if not senseless(view, a, seat)]
        if not others:
            return result.action
        return max(others, key=lambda a: (result.visits.get(a, 0), result.means.get(a, -1.0)))


def factory(
    game: SearchGame[S, A],
    make_fallback: Callable[[random.Random], Bot[S, A]] | None = None,
    setup_phases: tuple[str, ...] = (),
    defaults: dict[str, Any] | None = None,
) -> Callable[[random.Random, dict[str, Any]], SearchBot[S, A]]:
    """A registry bot factory ``(rng, settings) -> SearchBot`` for ``game``; ``defaults`` are
    the game's best settings, which the given ones override."""

    def make(rng: random.Random, given: dict[str, Any]) -> SearchBot[S, A]:
        settings = {**(defaults or {}), **given}
        think = settings.get("think")
        iterations = settings.get("iterations")
        setup = settings.get("setup", "greedy")
        if setup not in ("greedy", "search"):
            raise ValueError(f"setup must be greedy or search, not {setup!r}")
        fallback = make_fallback(rng) if setup == "greedy" and make_fallback else None
        return SearchBot(
            game,
            rng,
            think=1.0 if think is None else float(think),
            iterations=None if iterations is None else int(iterations),
            rollout=settings.get("rollout", "random"),
            exploration=float(settings.get("exploration", 0.7)),
            bias=float(settings.get("bias", 0.0)),
            fallback=fallback,
            setup_phases=setup_phases,
            cap=None if think is None or iterations is None else float(think),
            horizon=settings.get("horizon", 1) not in (0, "0", "no", False),
            path=str(settings.get("path", "fast")),
        )

    return make
