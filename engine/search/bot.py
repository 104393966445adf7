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
``setup_iterations``, ``setup_think``
                with ``setup="search"``, the budget of each set-up decision (iterations
                under a cap in CPU seconds; by default the budget of any decision)
``beliefs``     how the hidden cards are drawn: ``"model"`` (the game's model of what each
                seat's choices show, e.g. ``engine.search.medici_beliefs``) or ``"uniform"``
``judge``       how a rollout that stops at the horizon judges the position, where a game
                offers more than one way (Condottiere: ``"fitted"``, the default, or
                ``"progress"``, ``engine.search.condottiere``; Court of the Medici:
                ``"rollout"``, the default, every rollout played to the end, or ``"fitted"``,
                stopping at a horizon, ``engine.search.medici_judge``)
``widen``       progressive widening (0, the default, off): a node of the tree tries a new
                action only while it has fewer than ``widen * sqrt(visits + 1)`` children, the
                best by the game's prior first (``engine.search.ismcts``)
``path``        ``"fast"`` (in place, the game's rollout loops) or ``"legacy"`` (a state copy
                a step, the policy called step by step): the same moves, only slower; kept
                to measure the speed against (``scripts/bench_search.py``)

A move the game calls senseless (``SearchGame.senseless``: ending a game it would lose,
surrendering a battle another seat leads, ...) is not played while another move is left: the
most visited sensible move is played instead.

The bot is handed a view and never a state: everything it knows comes from that view. It masks
what it is handed to the seat's view first (``SearchGame.mask``), so that even a caller that
hands it a full state gets a move decided on what the seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Generic

from engine.core import A, Bot, S
from engine.registry import Settings
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
        setup_budget: Budget | None = None,
        widen: float = 0.0,
    ) -> None:
        if rollout not in game.rollouts:
            raise ValueError(f"unknown rollout {rollout!r} (choose from {', '.join(game.rollouts)})")
        self.game = game
        self.rng = rng
        self.budget = Budget(seconds=think, iterations=iterations, cap=cap)
        self.search = Search(game, rng, exploration=exploration, rollout=rollout, bias=bias,
                             horizon=horizon, path=path, widen=widen)
        self.fallback = fallback
        self.setup_phases = setup_phases
        #: the budget of a set-up decision searched (None: the budget of any other decision)
        self.setup_budget = setup_budget
        self.last: SearchResult[A] | None = None

    def choose(self, view: S, seat: int) -> A:
        if self.game.mask is not None:  # never more than the seat may know
            view = self.game.mask(view, seat)
        if self.fallback is not None and getattr(view, "phase", None) in self.setup_phases:
            return self.fallback.choose(view, seat)
        return self.decide(view, seat)[0]

    def decide(self, view: S, seat: int) -> tuple[A, SearchResult[A]]:
        """The searched move on the seat's view of ``view``, and the search's figures."""
        if self.game.mask is not None:
            view = self.game.mask(view, seat)
        budget = self.budget
        if self.setup_budget is not None and getattr(view, "phase", None) in self.setup_phases:
            budget = self.setup_budget
        self.last = self.search.run(view, seat, budget)
        return self._sensible(view, seat, self.last), self.last

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


def _number(settings: Settings, name: str) -> float | None:
    """A setting that is a number (from a level, or the command line's text), or ``None``."""
    value = settings.get(name)
    if value is None:
        return None
    if isinstance(value, (int, float, str)):
        return float(value)
    raise ValueError(f"{name} must be a number, not {value!r}")


def _setup_budget(settings: Settings) -> Budget | None:
    """The budget of a searched set-up decision: ``setup_iterations`` under a cap of
    ``setup_think`` seconds of CPU (None when neither is set: the budget of any decision)."""
    its, cap = _number(settings, "setup_iterations"), _number(settings, "setup_think")
    if its is None and cap is None:
        return None
    if its is None:
        return Budget(seconds=cap or 1.0)
    return Budget(seconds=cap or 1.0, iterations=int(its), cap=cap)


def factory(
    game: SearchGame[S, A],
    make_fallback: Callable[[random.Random], Bot[S, A]] | None = None,
    setup_phases: tuple[str, ...] = (),
    defaults: Settings | None = None,
    beliefs: dict[str, SearchGame[S, A]] | None = None,
    judges: dict[str, SearchGame[S, A]] | None = None,
) -> Callable[[random.Random, Settings], SearchBot[S, A]]:
    """A registry bot factory ``(rng, settings) -> SearchBot`` for ``game``; ``defaults`` are
    the game's best settings, which the given ones override. ``beliefs`` names other ways the
    game draws its hidden cards (``"uniform"``, ...): the setting ``beliefs`` picks one
    (``"model"``, the default, is ``game``). ``judges`` likewise names other ways it judges a
    position at the horizon, which the setting ``judge`` picks (the first name is ``game``'s)."""
    games = {"model": game, **(beliefs or {})}
    judged = dict(judges or {})
    default_judge = next(iter(judged), "")

    def make(rng: random.Random, given: Settings) -> SearchBot[S, A]:
        settings = {**(defaults or {}), **given}
        belief = str(settings.get("beliefs", "model"))
        if belief not in games:
            raise ValueError(f"beliefs must be one of {', '.join(games)}, not {belief!r}")
        judge = str(settings.get("judge", default_judge))
        if judge != default_judge:
            if judge not in judged:
                raise ValueError(f"judge must be one of {', '.join(judged) or 'none'}, not {judge!r}")
            if belief != "model":
                raise ValueError("a judge other than the default takes the default beliefs")
            chosen = judged[judge]
        else:
            chosen = games[belief]
        think = _number(settings, "think")
        iterations = _number(settings, "iterations")
        exploration, bias = _number(settings, "exploration"), _number(settings, "bias")
        setup = settings.get("setup", "greedy")
        if setup not in ("greedy", "search"):
            raise ValueError(f"setup must be greedy or search, not {setup!r}")
        fallback = make_fallback(rng) if setup == "greedy" and make_fallback else None
        return SearchBot(
            chosen,
            rng,
            think=1.0 if think is None else think,
            iterations=None if iterations is None else int(iterations),
            rollout=str(settings.get("rollout", "random")),
            exploration=0.7 if exploration is None else exploration,
            bias=0.0 if bias is None else bias,
            fallback=fallback,
            setup_phases=setup_phases,
            cap=None if think is None or iterations is None else think,
            horizon=settings.get("horizon", 1) not in (0, "0", "no", False),
            path=str(settings.get("path", "fast")),
            setup_budget=_setup_budget(settings) if setup == "search" and setup_phases else None,
            widen=_number(settings, "widen") or 0.0,
        )

    return make
