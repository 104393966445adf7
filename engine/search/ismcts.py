"""Information-set Monte Carlo tree search (single observer, partially observable moves).

Theory of operation
-------------------
This is SO-ISMCTS+POM of Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search" (IEEE TCIAIG, 2012). The searching seat (the *observer*) knows only its view. One tree
is grown, whose nodes are the observer's information sets: a node is reached by the sequence of
actions from the root **as the observer perceives them** (``SearchGame.observe``: a card the
observer does not see is ``UNKNOWN``), so every node stands for all the positions the observer
cannot tell apart.

Each iteration:

1. **Determinize**: draw a full state consistent with the view (``SearchGame.determinize``).
2. **Select**: walk down the tree, playing in that state. At a decision node only the actions
   legal in this determinization are candidates; they are grouped by their observation (for the
   observer each group is one action; for another seat a group is, e.g., "plans a card"). If a
   group has no child yet, go to step 3. Otherwise pick the group that maximises, for the seat
   deciding there,

       mean reward + c * sqrt(ln(availability) / visits)

   where *availability* counts the iterations in which that group was legal (the ISMCTS form of
   UCB1: an action that is rarely legal is not penalised for the visits it could not have).
   When the game offers a ``prior`` (a quick judgement of an action) and ``bias`` is set, the
   term ``bias * prior / (visits + 1)`` is added (progressive bias, Chaslot et al. 2008): the
   search looks at promising actions first, and the statistics take over as visits grow.
   Within a group, the concrete action is drawn uniformly (the observer cannot know which one
   was played, so it is modelled as random: the "POM" part). Chance and reveal steps draw their
   outcome in the determinization and follow (or create) the child of its observation.
3. **Expand** one untried group (at random, or the best by the prior): add its child and play
   one of its actions. With progressive widening (``widen``, Coulom 2007; Chaslot et al. 2008)
   a node expands only while it has fewer than ``widen * sqrt(visits + 1)`` children among
   the groups legal here, and otherwise selects among those it has: with a prior, a node with
   many moves spends its iterations on its few best-judged ones first and lets the others in
   as its visits grow, so the tree grows deeper instead of wider.
4. **Roll out**: play to the end of the game with a cheap default policy.
5. **Backpropagate** the finished game's per-seat rewards: each node adds the reward of the
   seat that chose the edge into it.

The move played is the root action with the most visits (ties: the better mean).

Only ``SearchGame`` functions touch states, and the root state comes from the determinizer, so
the search never sees more than the view it is given.

Speed. Each iteration's determinization is its own: when the game offers ``copy`` and
``play``, the search copies it once (or draws it fresh from the game's ``prepare``, which
counts the view's hidden cards once a search) and plays every step of the iteration on it in
place; a rollout policy with a ``simulation`` plays the whole rollout in the game's own loop
(moves picked without listing every legal action, many cards dealt at once), and one that stops
at the game's horizon does so too when the game offers it (``judged_simulations``); the observer's
actions at the root are listed once, from the view. All of it makes exactly the moves the
step-by-step loop makes from the same generator state, so a seeded search decides the same
either way. ``path="legacy"`` keeps the step-by-step loop, a copy a step (for comparison, and
for games without the fast parts).

The think time is CPU time of the searching thread (``time.thread_time``), so that other
processes' load, or another thread of the same process, does not shorten a decision's search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic

from engine.core import TERMINAL, A, S
from engine.search.game import SearchGame

#: how an iteration plays: ``fast`` (in place, the game's simulations) or ``legacy`` (a copy a
#: step, the policy called step by step)
PATHS = ("fast", "legacy")


class Node:
    """An information set of the observer, and the statistics of the edge into it."""

    __slots__ = ("children", "visits", "reward", "avail", "prior")

    def __init__(self, prior: float = 0.0) -> None:
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.prior = prior


@dataclass(frozen=True)
class Budget:
    """How long one decision may think: ``iterations`` when given (reproducible), else
    ``seconds`` of the searching thread's CPU time (always at least ``min_iterations``). With ``iterations`` and a
    ``cap`` both given, the search stops at whichever comes first, the cap counted in the
    thread's CPU time: a level so set plays the same on a busy machine as on an idle one, as
    long as the cap does not bind."""

    seconds: float = 1.0
    iterations: int | None = None
    min_iterations: int = 16
    cap: float | None = None


@dataclass
class SearchResult(Generic[A]):
    action: A
    iterations: int
    visits: dict[A, int]
    means: dict[A, float]


class Search(Generic[S, A]):
    """One decision's search: a tree over the observer's information sets."""

    def __init__(
        self,
        game: SearchGame[S, A],
        rng: random.Random,
        exploration: float = 0.7,
        rollout: str = "random",
        bias: float = 0.0,
        horizon: bool = True,
        path: str = "fast",
        widen: float = 0.0,
    ) -> None:
        if path not in PATHS:
            raise ValueError(f"unknown search path {path!r} (choose from {', '.join(PATHS)})")
        self.game = game
        #: rollouts stop at the game's horizon with its evaluation (``SearchGame.evaluate``)
        self.judged = horizon and game.horizon is not None and game.evaluate is not None
        self.rng = rng
        self.c = exploration
        self.bias = bias if game.prior is not None else 0.0
        self.rollout_name = rollout
        #: progressive widening (0: off): a node tries a new group only while it has fewer
        #: than ``widen * sqrt(visits + 1)`` children available, the best by the prior first
        self.widen = widen
        self.rollout_policy = game.rollouts[rollout]
        self.fast = path == "fast" and game.copy is not None and game.play is not None
        self.simulation = game.simulations.get(rollout) if self.fast else None
        self.judged_simulation = (
            game.judged_simulations.get(rollout) if self.fast and self.judged else None
        )
        self._iterate = self._iterate_fast if self.fast else self._iterate_legacy

    def run(self, view: S, seat: int, budget: Budget) -> SearchResult[A]:
        g = self.game
        if g.mask is not None:  # never more than the seat may know, whatever it is handed
            view = g.mask(view, seat)
        legal = g.legal_actions(view)
        if len(legal) == 1:
            return SearchResult(legal[0], 0, {}, {})
        root = Node()
        if self.fast:
            # the observer's actions at the root depend only on what it sees: the view's
            self._root_groups = self._groups(view, legal, seat, seat)
            prepare, copy, determinize = g.prepare, g.copy, g.determinize
            assert copy is not None
            self._draw = (
                prepare(view, seat)
                if prepare is not None
                else lambda rng: copy(determinize(view, seat, rng))
            )
        done = 0
        if budget.iterations is not None and budget.cap is not None:
            deadline = time.thread_time() + budget.cap
            while done < budget.iterations and (
                done < budget.min_iterations or time.thread_time() < deadline
            ):
                self._iterate(root, view, seat)
                done += 1
        elif budget.iterations is not None:
            for _ in range(budget.iterations):
                self._iterate(root, view, seat)
            done = budget.iterations
        else:
            clock = time.thread_time
            deadline = clock() + budget.seconds
            while done < budget.min_iterations or clock() < deadline:
                self._iterate(root, view, seat)
                done += 1
        visits = {a: root.children[a].visits for a in legal if a in root.children}
        means = {
            a: root.children[a].reward / root.children[a].visits
            for a, v in visits.items()
            if v > 0
        }
        best = max(legal, key=lambda a: (visits.get(a, 0), means.get(a, -1.0)))
        return SearchResult(best, done, visits, means)

    # -- one iteration ----------------------------------------------------------------------

    def _iterate_fast(self, root: Node, view: S, seat: int) -> None:
        """One iteration on a private copy of the determinization, changed in place."""
        g, rng = self.game, self.rng
        assert g.play is not None
        state = self._draw(rng)
        node = root
        root_groups = self._root_groups
        path: list[tuple[Node, int]] = []
        current_player, legal_actions, play, observe = (
            g.current_player,
            g.legal_actions,
            g.play,
            g.observe,
        )
        while True:
            p = current_player(state)
            if p == TERMINAL:
                break
            if p < 0:
                a = g.sample_chance(state, rng)
                key = observe(state, a, seat)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                path.append((child, -1))
                node = child
                play(state, a)
                continue
            if node is root and p == seat:
                groups = root_groups
            else:
                groups = self._groups(state, legal_actions(state), p, seat)
            children = node.children
            untried = []
            for key in groups:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried and (not self.widen or self._may_widen(node, groups, untried)):
                key, prior = self._pick_untried(state, untried, groups, p)
                child = children[key] = Node(prior)
                path.append((child, p))
                options = groups[key]
                play(state, options[rng.randrange(len(options))])
                break
            key = self._select(children, groups if not untried else self._tried(children, groups))
            child = children[key]
            path.append((child, p))
            node = child
            options = groups[key]
            play(state, options[rng.randrange(len(options))] if len(options) > 1 else options[0])
        sim = self.simulation
        judged = self.judged_simulation
        if judged is not None:
            assert g.horizon is not None
            rewards = judged(state, g.horizon(state), rng)
        elif self.judged:
            rewards = self._rollout_to(state, True)
        else:
            rewards = sim(state, rng) if sim is not None else self._rollout_in_place(state)
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            if mover >= 0:
                n.reward += rewards[mover]

    def _iterate_legacy(self, root: Node, view: S, seat: int) -> None:
        g, rng = self.game, self.rng
        state = g.determinize(view, seat, rng)
        node = root
        path: list[tuple[Node, int]] = []
        current_player, legal_actions, apply, observe = (
            g.current_player,
            g.legal_actions,
            g.apply,
            g.observe,
        )
        while True:
            p = current_player(state)
            if p == TERMINAL:
                break
            if p < 0:
                a = g.sample_chance(state, rng)
                key = observe(state, a, seat)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                path.append((child, -1))
                node = child
                state = apply(state, a)
                continue
            groups = self._groups(state, legal_actions(state), p, seat)
            children = node.children
            untried = []
            for key in groups:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried and (not self.widen or self._may_widen(node, groups, untried)):
                key, prior = self._pick_untried(state, untried, groups, p)
                child = children[key] = Node(prior)
                path.append((child, p))
                options = groups[key]
                state = apply(state, options[rng.randrange(len(options))])
                break
            key = self._select(children, groups if not untried else self._tried(children, groups))
            child = children[key]
            path.append((child, p))
            node = child
            options = groups[key]
            state = apply(state, options[rng.randrange(len(options))] if len(options) > 1 else options[0])
        rewards = self._rollout(state)
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            if mover >= 0:
                n.reward += rewards[mover]

    def _may_widen(self, node: Node, groups: dict[Hashable, list[A]], untried: list[Hashable]) -> bool:
        """With progressive widening: whether a node may take one more of its untried groups,
        i.e. it has fewer children available here than ``widen * sqrt(visits + 1)``."""
        return len(groups) - len(untried) < self.widen * math.sqrt(node.visits + 1)

    @staticmethod
    def _tried(children: dict[Hashable, Node], groups: dict[Hashable, list[A]]) -> dict[Hashable, list[A]]:
        return {key: g for key, g in groups.items() if key in children}

    def _groups(self, state: S, legal: list[A], p: int, seat: int) -> dict[Hashable, list[A]]:
        if p == seat:
            return {a: [a] for a in legal}
        observe = self.game.observe
        groups: dict[Hashable, list[A]] = {}
        for a in legal:
            key = observe(state, a, seat)
            bucket = groups.get(key)
            if bucket is None:
                groups[key] = [a]
            else:
                bucket.append(a)
        return groups

    def _pick_untried(
        self, state: S, untried: list[Hashable], groups: dict[Hashable, list[A]], p: int
    ) -> tuple[Hashable, float]:
        """The untried group to expand: at random, or with a prior, the best by the prior
        (ties at random); for another seat's group the prior of its best action."""
        rng = self.rng
        if not self.bias:
            return (untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]), 0.0
        prior = self.game.prior
        assert prior is not None
        best = -1e300
        picks: list[Hashable] = []
        for key in untried:
            group = groups[key]
            v = prior(state, group[0], p) if len(group) == 1 else max(prior(state, a, p) for a in group)
            if v > best:
                best, picks = v, [key]
            elif v == best:
                picks.append(key)
        return (picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]), best

    def _select(self, children: dict[Hashable, Node], groups: dict[Hashable, list[A]]) -> Hashable:
        c = self.c
        bias = self.bias
        log = math.log
        sqrt = math.sqrt
        best_key = None
        best = -1e300
        for key in groups:
            ch = children[key]
            v = ch.visits
            if v == 0:  # created this iteration elsewhere on the path; try it
                return key
            score = ch.reward / v + c * sqrt(log(ch.avail) / v)
            if bias:
                score += bias * ch.prior / (v + 1)
            if score > best:
                best, best_key = score, key
        return best_key

    def _rollout_in_place(self, state: S) -> list[float]:
        g, rng = self.game, self.rng
        current_player, play, policy = g.current_player, g.play, self.rollout_policy
        assert play is not None
        while True:
            p = current_player(state)
            if p == TERMINAL:
                return g.rewards(state)
            if p < 0:
                play(state, g.sample_chance(state, rng))
            else:
                play(state, policy(state, p, rng))

    def _rollout(self, state: S) -> list[float]:
        g, rng = self.game, self.rng
        current_player, apply, policy = g.current_player, g.apply, self.rollout_policy
        if self.judged:
            return self._rollout_to(state, False)
        while True:
            p = current_player(state)
            if p == TERMINAL:
                return g.rewards(state)
            if p < 0:
                state = apply(state, g.sample_chance(state, rng))
            else:
                state = apply(state, policy(state, p, rng))

    def _rollout_to(self, state: S, in_place: bool) -> list[float]:
        """A rollout that stops at the game's horizon with its evaluation (``in_place``: on
        the iteration's private state, with ``play``; else a copy a step, with ``apply``)."""
        g, rng = self.game, self.rng
        assert g.horizon is not None and g.evaluate is not None
        horizon, evaluate = g.horizon(state), g.evaluate
        current_player, apply, play, policy = g.current_player, g.apply, g.play, self.rollout_policy
        while True:
            p = current_player(state)
            if p == TERMINAL:
                return g.rewards(state)
            judged = evaluate(state, horizon)
            if judged is not None:
                return judged
            a = g.sample_chance(state, rng) if p < 0 else policy(state, p, rng)
            if in_place:
                assert play is not None
                play(state, a)
            else:
                state = apply(state, a)
