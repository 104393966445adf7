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

* ``judged_simulations``: the same, for rollouts that stop at the horizon: per policy's name,
  a function ``(state, horizon, rng) -> rewards`` that plays as the search's loop does until the
  game ends or ``evaluate(state, horizon)`` judges the state, and returns the rewards or that
  judgement.

A simulation is a copy of the rules written for speed, so it is written for the options it
knows: ``mirrored`` runs it only on a game that plays none other, and plays any other game
step by step with the rules themselves.

``outcome_rewards`` turns an ``Outcome`` into rewards: a win (shared equally among tied
winners) is worth ``1 - margin_weight``, and ``margin_weight`` more is spread by the score margin
over the best other seat, so that among won (or lost) games the search prefers larger margins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from engine.core import TERMINAL, A, Option, Outcome, S, options_on

S_contra = TypeVar("S_contra", contravariant=True)
A_contra = TypeVar("A_contra", contravariant=True)


class _InPlace(Protocol[S_contra, A_contra]):
    """The rules a step-by-step rollout needs: whose turn, and a move applied in place."""

    def current_player(self, state: S_contra, /) -> int: ...
    def apply_in_place(self, state: S_contra, action: A_contra, /) -> None: ...


def mirrored(
    fast: Callable[[S, random.Random], list[float]],
    rules: _InPlace[S, A],
    variants: Sequence[Option],
    names: frozenset[str],
    policy: Callable[[S, int, random.Random], A],
    sample_chance: Callable[[S, random.Random], A],
    rewards: Callable[[S], list[float]],
) -> Callable[[S, random.Random], list[float]]:
    """A simulation that uses ``fast``, a copy of the rules written for the options ``names``,
    only on a game that plays no other option of ``variants``; any other game is played step by
    step with the rules themselves (``rules.current_player``, ``rules.apply_in_place``), the
    same moves from the same generator state. So a variant added to the rules alone never
    meets a copy of them that does not know it."""

    def slow(s: S, rng: random.Random) -> list[float]:
        current_player, play = rules.current_player, rules.apply_in_place
        while True:
            p = current_player(s)
            if p == TERMINAL:
                return rewards(s)
            play(s, sample_chance(s, rng) if p < 0 else policy(s, p, rng))

    def run(s: S, rng: random.Random) -> list[float]:
        config: object = getattr(s, "config")  # noqa: B009 - every game's state has one
        if options_on(variants, config) <= names:
            return fast(s, rng)
        return slow(s, rng)

    return run


def mirrored_judged(
    fast: Callable[[S, int, random.Random], list[float]],
    rules: _InPlace[S, A],
    variants: Sequence[Option],
    names: frozenset[str],
    policy: Callable[[S, int, random.Random], A],
    sample_chance: Callable[[S, random.Random], A],
    rewards: Callable[[S], list[float]],
    evaluate: Callable[[S, int], list[float] | None],
) -> Callable[[S, int, random.Random], list[float]]:
    """``mirrored`` for a rollout that stops at the horizon: ``fast(state, horizon, rng)`` on a
    game that plays only the options ``names``, else the rules step by step, stopping at the
    first state ``evaluate`` judges."""

    def slow(s: S, until: int, rng: random.Random) -> list[float]:
        current_player, play = rules.current_player, rules.apply_in_place
        while True:
            p = current_player(s)
            if p == TERMINAL:
                return rewards(s)
            judged = evaluate(s, until)
            if judged is not None:
                return judged
            play(s, sample_chance(s, rng) if p < 0 else policy(s, p, rng))

    def run(s: S, until: int, rng: random.Random) -> list[float]:
        config: object = getattr(s, "config")  # noqa: B009 - every game's state has one
        if options_on(variants, config) <= names:
            return fast(s, until, rng)
        return slow(s, until, rng)

    return run


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
class SearchGame(Generic[S, A]):
    """A game as the search sees it (see the module docstring), over the game's state and
    action types."""

    name: str
    current_player: Callable[[S], int]
    legal_actions: Callable[[S], list[A]]
    apply: Callable[[S, A], S]
    determinize: Callable[[S, int, random.Random], S]
    observe: Callable[[S, A, int], Hashable]
    sample_chance: Callable[[S, random.Random], A]
    rollouts: Mapping[str, Callable[[S, int, random.Random], A]]
    rewards: Callable[[S], list[float]]
    prior: Callable[[S, A, int], float] | None = None
    mask: Callable[[S, int], S] | None = None
    senseless: Callable[[S, A, int], str] | None = None
    horizon: Callable[[S], int] | None = None
    evaluate: Callable[[S, int], list[float] | None] | None = None
    copy: Callable[[S], S] | None = None
    prepare: Callable[[S, int], Callable[[random.Random], S]] | None = None
    play: Callable[[S, A], None] | None = None
    simulations: Mapping[str, Callable[[S, random.Random], list[float]]] = field(default_factory=dict)
    judged_simulations: Mapping[str, Callable[[S, int, random.Random], list[float]]] = field(
        default_factory=dict
    )
