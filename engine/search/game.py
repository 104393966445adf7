"""What the search needs to know about a game, beyond the engine contract.

The search bot (``engine.search.ismcts``) works on any game that offers the engine contract
(``engine.core.Rules``) plus the few things below, gathered in a ``SearchGame``:

* ``determinize(view, seat, rng)``: a full state drawn at random among those that the seat's
  view allows (every ``UNKNOWN`` filled, the deck's composition respected), uniformly over the
  ways to deal the unseen cards into the hidden places;
* ``observe(state, action, seat)``: the action as ``seat`` perceives it (a card ``seat`` does not
  see replaced by ``UNKNOWN``). Two actions with the same observation lead to the same node of
  the search tree, since the seat cannot tell them apart;
* ``sample_chance(state, rng)``: a chance (or reveal) outcome in a full state, as
  ``engine.core.sample_chance`` would pick it, but fast;
* ``rollouts``: default policies, by name, that play a simulated game to its end: each maps
  ``(state, seat, rng)`` to an action of ``seat``; ``"random"`` is always offered;
* ``rewards(state)``: one number per seat for a finished game, larger is better;
* ``mask(state, seat)``: the seat's view of a state (the game's ``view``; a view is left as it
  is). The search and the bot mask what they are handed first, so that a card the seat cannot
  see is never read, even when a caller hands them a full state;
* ``horizon(state)`` and ``evaluate(state, horizon)``: optionally, a rollout that reaches the
  horizon (``evaluate`` gives rewards instead of ``None``) stops there and takes the
  evaluation as its result: for a long game, a judgement of the position a few steps ahead is
  a better (and much cheaper) estimate than one noisy game played to its end;
* ``senseless(view, action, seat)``: optionally, why a player who wants to win would not
  make the move (``""`` if it makes sense): the bot does not play such a move while it has
  another;
* ``prior(state, action, seat)``: optionally, a quick judgement of an action for the seat that
  takes it, about in ``[-1, 1]``: the search tries actions in its order and adds it as a
  progressive bias that fades as the action gathers visits.

Optionally, for speed (the search works without them, at the cost of a state copy a step):

* ``copy(state)``: a copy of a state that the search may then change in place;
* ``prepare(view, seat)``: a function ``rng -> state`` drawing what ``determinize(view, seat,
  rng)`` would, each draw a fresh state the search may change in place, with the work that
  depends on the view alone done once;
* ``play(state, action)``: ``apply`` done in place on such a copy (nothing else holds it);
* ``simulations``: per rollout policy's name, a function ``(state, rng) -> rewards`` that plays
  a private full state to its end in place, exactly as the search's own loop would with that
  policy, ``sample_chance`` and ``play`` (the same moves from the same generator state), only
  faster: it may pick moves without listing every legal action and deal many cards at once.

``outcome_rewards`` turns an ``Outcome`` into rewards: a win (shared equally among tied
winners) is worth ``1 - margin_weight``, and ``margin_weight`` more is spread by the score margin
over the best other seat, so that among won (or lost) games the search prefers larger margins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome


def outcome_rewards(outcome: Outcome, scale: float, margin_weight: float = 0.1) -> list[float]:
    """Per-seat rewards in [0, 1]: the share of the win, with a score-margin tiebreak."""
    scores = outcome.scores
    n = len(scores)
    win = (1.0 - margin_weight) / len(outcome.winners) if outcome.winners else 0.0
    out = []
    for i in range(n):
        best_other = max((scores[j] for j in range(n) if j != i), default=0)
        m = (scores[i] - best_other) / scale
        m = -1.0 if m < -1.0 else 1.0 if m > 1.0 else m
        out.append((win if i in outcome.winners else 0.0) + margin_weight * (0.5 + 0.5 * m))
    return out


@dataclass(frozen=True)
class SearchGame:
    """A game as the search sees it (see the module docstring)."""

    name: str
    current_player: Callable[[Any], int]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], Any]
    determinize: Callable[[Any, int, random.Random], Any]
    observe: Callable[[Any, Any, int], Hashable]
    sample_chance: Callable[[Any, random.Random], Any]
    rollouts: Mapping[str, Callable[[Any, int, random.Random], Any]]
    rewards: Callable[[Any], list[float]]
    prior: Callable[[Any, Any, int], float] | None = None
    mask: Callable[[Any, int], Any] | None = None
    senseless: Callable[[Any, Any, int], str] | None = None
    horizon: Callable[[Any], Any] | None = None
    evaluate: Callable[[Any, Any], list[float] | None] | None = None
    copy: Callable[[Any], Any] | None = None
    prepare: Callable[[Any, int], Callable[[random.Random], Any]] | None = None
    play: Callable[[Any, Any], None] | None = None
    simulations: Mapping[str, Callable[[Any, random.Random], list[float]]] = field(default_factory=dict)
