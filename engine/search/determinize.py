"""Dealing the unseen cards into the hidden places: the game-independent half of determinizing.

A view hides cards in *slots* (a place in a hand, a deck, a face-down pile ...). Each slot
belongs to a *group*: the set of cards that can be there (in Court of the Medici, one house; in
Condottiere, the one shared deck). The unseen cards of a group are the group's full multiset
minus every card the view shows anywhere. A view is consistent when each group has exactly as
many unseen cards as hidden slots.

``deal`` shuffles each group's unseen cards and lays them into its slots in order. Every
permutation being equally likely, each way of placing the unseen multiset into the slots comes
up with its true probability given the view (the hypergeometric one), which is what an
observer who ignores the other seats' motives should believe.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

#: a group of slots (a house, a deck)
G = TypeVar("G", bound=Hashable)


class InconsistentViewError(ValueError):
    """The view shows more cards of a kind than exist, or its hidden slots do not add up."""


def unseen(full: Mapping[int, int], seen: Iterable[int]) -> list[int]:
    """The cards of multiset ``full`` (card -> copies) not among ``seen`` (negatives ignored),
    as a sorted list."""
    left = Counter(full)
    for c in seen:
        if c >= 0:
            left[c] -= 1
            if left[c] < 0:
                raise InconsistentViewError(f"the view shows card {c} more often than it exists")
    return sorted(left.elements())


def deal(
    slots: Mapping[G, int], cards: Mapping[G, list[int]], rng: random.Random
) -> dict[G, list[int]]:
    """For each group, its ``cards`` shuffled, to fill its ``slots[group]`` hidden places."""
    out: dict[G, list[int]] = {}
    for group, k in slots.items():
        pool = list(cards.get(group, ()))
        if len(pool) != k:
            raise InconsistentViewError(
                f"group {group!r} has {k} hidden places but {len(pool)} unseen cards"
            )
        rng.shuffle(pool)
        out[group] = pool
    for group, pool in cards.items():
        if group not in slots and pool:
            raise InconsistentViewError(f"{len(pool)} unseen cards of group {group!r} have no place")
    return out
