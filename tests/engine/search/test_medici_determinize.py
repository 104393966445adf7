"""The Medici determinizer: every sample is a legal full state that the seat cannot tell from
the truth, and it spreads over the possibilities."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import UNKNOWN
from engine.medici import RULES, rules
from engine.medici.cards import house_deck
from engine.medici.state import State
from engine.search.determinize import InconsistentViewError, deal
from engine.search.medici import determinize, hidden_slots, unseen_by_house

from .positions import random_position


def all_cards(s: State) -> list[int]:
    cards: list[int] = []
    for group in (s.hands, s.pools, s.bottoms):
        for cs in group:
            cards.extend(cs)
    for row in s.alliances:
        for a in row:
            if a is not None:
                cards.extend(c for c in a[1:3] if c >= 0)
    for _, _, pairs in s.middle:
        cards.extend(c for c, _ in pairs)
    cards.extend(s.eliminated)
    if s.pending is not None:
        cards.append(s.pending[1])
    return cards


def assert_legal_full_state(s: State) -> None:
    n = s.players
    assert Counter(all_cards(s)) == Counter(c for h in range(n) for c in house_deck(h))
    for i in range(n):
        assert all(c // 13 == i for c in s.hands[i] + s.pools[i] + s.bottoms[i])
        assert list(s.hands[i]) == sorted(s.hands[i]) and list(s.pools[i]) == sorted(s.pools[i])
    for holder, row in enumerate(s.alliances):
        for a in row:
            if a is not None:
                placer, hidden, top, _ = a
                assert hidden // 13 == placer
                assert top < 0 or top // 13 == holder


positions = st.builds(
    lambda seed, steps, players, seat: (random_position(seed, steps, players), seat % players),
    st.integers(0, 10_000),
    st.integers(0, 160),
    st.sampled_from([3, 4]),
    st.integers(0, 3),
)


@given(positions, st.integers(0, 2**32))
def test_every_determinization_is_a_full_state_with_the_same_view(pos, det_seed):
    truth, seat = pos
    view = RULES.view(truth, seat)
    s = determinize(view, seat, random.Random(det_seed))
    assert UNKNOWN not in all_cards(s)
    assert_legal_full_state(s)
    assert RULES.view(s, seat) == view
    if rules.current_player(view) == seat:
        assert rules.legal_actions(s) == rules.legal_actions(view)


@given(positions)
def test_the_unseen_cards_fill_the_hidden_places_exactly(pos):
    truth, seat = pos
    view = RULES.view(truth, seat)
    slots = hidden_slots(view)
    cards = unseen_by_house(view)
    assert {h: len(cs) for h, cs in cards.items()} == slots
    # the truth is one of the possible deals
    hidden = Counter(all_cards(truth)) - Counter(c for c in all_cards(view) if c >= 0)
    assert hidden == Counter(c for cs in cards.values() for c in cs)


def test_samples_vary_and_cover_the_possibilities():
    truth = random_position(11, 60)
    seat = rules.current_player(truth) if rules.current_player(truth) >= 0 else 0
    view = RULES.view(truth, seat)
    rng = random.Random(3)
    other = (seat + 1) % 4
    hands = {determinize(view, seat, rng).hands[other] for _ in range(200)}
    assert len(hands) > 20
    # a card of the other house that the view does not show turns up in its hand sometimes
    some = unseen_by_house(view)[other][0]
    assert any(some in h for h in hands)


def test_a_full_state_is_its_own_determinization():
    truth = random_position(5, 80)
    assert determinize(truth, 0, random.Random(1)) == truth


def test_an_inconsistent_view_is_refused():
    with pytest.raises(InconsistentViewError):
        deal({0: 2}, {0: [1]}, random.Random(0))
    with pytest.raises(InconsistentViewError):
        deal({0: 1}, {0: [1], 1: [2]}, random.Random(0))
    truth = random_position(2, 40)
    view = RULES.view(truth, 0)
    view.hands = (view.hands[0],) + tuple(h + (UNKNOWN,) for h in view.hands[1:])
    with pytest.raises(InconsistentViewError):
        determinize(view, 0, random.Random(0))
