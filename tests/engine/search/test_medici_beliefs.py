"""The search's beliefs about Court of the Medici's hidden cards (``engine.search.medici_beliefs``):
every draw fits the seat's view, the draws follow the model of the players' choices (a hidden
alliance card is likelier weak, a top card before the flip strong), and no card the view leaves
possible is ruled out."""

from __future__ import annotations

import random

from engine.medici import RULES
from engine.medici.cards import RANK_VALUE, RANKS
from engine.search import medici as uniform
from engine.search import medici_beliefs as beliefs

from .positions import random_position


def _hidden_values(draw, view, seat, n=300):
    rng = random.Random(4)
    out = []
    for _ in range(n):
        s = draw(view, seat, rng)
        for holder, row in enumerate(view.alliances):
            for k, a in enumerate(row):
                if a is not None and a[1] < 0:
                    out.append(s.alliances[holder][k][1])
    return out


def _play_view():
    truth = random_position(3, 100)
    seat = RULES.current_player(truth)
    assert truth.phase == "play" and seat >= 0
    return truth, RULES.view(truth, seat), seat


def test_every_believed_draw_fits_the_view():
    for seed, steps in ((1, 55), (2, 64), (3, 90), (4, 130)):
        truth = random_position(seed, steps)
        for seat in range(4):
            view = RULES.view(truth, seat)
            draw = beliefs.prepare(view, seat)
            rng = random.Random(seed)
            for _ in range(5):
                s = draw(rng)
                assert RULES.view(s, seat) == view
                assert sorted(uniform.unseen_by_house(s)[0]) == []


def test_a_hidden_alliance_card_is_believed_weaker_than_a_card_at_random():
    _, view, seat = _play_view()
    believed = _hidden_values(beliefs.determinize, view, seat)
    flat = _hidden_values(uniform.determinize, view, seat)
    mean = lambda cards: sum(RANK_VALUE[c % RANKS] for c in cards) / len(cards)  # noqa: E731
    assert mean(believed) < mean(flat) - 1.0


def test_no_card_the_view_allows_is_ruled_out():
    _, view, seat = _play_view()
    believed = {c for c in _hidden_values(beliefs.determinize, view, seat, 600)}
    flat = {c for c in _hidden_values(uniform.determinize, view, seat, 600)}
    assert believed <= flat and len(believed) >= len(flat) - 2
