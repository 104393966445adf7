"""The search on a toy game of hidden information, where the right answer is known."""

from __future__ import annotations

import random

from engine.core import TERMINAL, UNKNOWN
from engine.search.game import SearchGame
from engine.search.ismcts import Budget, Search

# A card is dealt face down from the deck 0, 0, 1, 2; seat 0 names a card and wins if it is
# the one dealt. State: (dealt card, named card or -1).
DECK = (0, 0, 1, 2)


def toy_game(prior: bool = False) -> SearchGame:
    return SearchGame(
        name="toy",
        current_player=lambda s: 0 if s[1] < 0 else TERMINAL,
        legal_actions=lambda s: [0, 1, 2],
        apply=lambda s, a: (s[0], a),
        determinize=lambda v, seat, rng: (DECK[rng.randrange(4)], v[1]) if v[0] == UNKNOWN else v,
        observe=lambda s, a, seat: a,
        sample_chance=lambda s, rng: None,
        rollouts={"random": lambda s, seat, rng: rng.randrange(3)},
        rewards=lambda s: [float(s[0] == s[1]), float(s[0] != s[1])],
        prior=(lambda s, a, seat: 1.0 if a == 2 else 0.0) if prior else None,
    )


def test_it_names_the_likeliest_card_from_a_view_that_hides_it():
    search = Search(toy_game(), random.Random(1))
    result = search.run((UNKNOWN, -1), 0, Budget(iterations=400))
    assert result.action == 0
    assert abs(result.means[0] - 0.5) < 0.1  # it wins half the time
    assert sum(result.visits.values()) == 400


def test_a_misleading_prior_fades_as_visits_grow():
    biased = Search(toy_game(prior=True), random.Random(2), bias=2.0)
    early = biased.run((UNKNOWN, -1), 0, Budget(iterations=6))
    late = biased.run((UNKNOWN, -1), 0, Budget(iterations=600))
    assert early.action == 2
    assert late.action == 0


def test_a_single_legal_action_is_played_without_search():
    game = toy_game()
    one = SearchGame(**{**game.__dict__, "legal_actions": lambda s: [1]})
    result = Search(one, random.Random(0)).run((UNKNOWN, -1), 0, Budget(iterations=50))
    assert result.action == 1 and result.iterations == 0


def wide_game() -> SearchGame:
    """Ten moves, judged better the higher they are; move 7 wins, the others lose."""
    game = toy_game(prior=True)
    return SearchGame(**{
        **game.__dict__,
        "legal_actions": lambda s: list(range(10)),
        "determinize": lambda v, seat, rng: v,
        "rewards": lambda s: [float(s[1] == 7), float(s[1] != 7)],
        "prior": lambda s, a, seat: a / 10,
    })


def test_progressive_widening_tries_the_best_judged_moves_first_and_few_of_them():
    wide = Search(wide_game(), random.Random(3), bias=1.0, widen=1.0)
    result = wide.run((0, -1), 0, Budget(iterations=15))
    assert set(result.visits) == {9, 8, 7, 6}  # sqrt(16) children, by the prior
    assert result.action == 7
    full = Search(wide_game(), random.Random(3), bias=1.0).run((0, -1), 0, Budget(iterations=15))
    assert set(full.visits) == set(range(10))  # without it, every move is tried
