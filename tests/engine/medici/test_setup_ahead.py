"""The set-up's choices ahead of a seat's turn (``engine.medici.setup``): in phases hide and
top every seat may choose its placements at once, from its own view; each stays legal when its
turn comes, whatever the seats before it placed, and they are the choices its turn offers."""

import random

import pytest

from engine.core import LocalGame
from engine.medici import RULES, MediciConfig
from engine.medici import setup as ahead


def dealt(players, seed):
    game = LocalGame(RULES, MediciConfig(players), seed)
    game.advance()
    return game


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3), (4, 4)])
@pytest.mark.parametrize("phase", ["hide", "top"])
def test_every_seat_chooses_its_set_up_at_once_and_each_stays_legal_at_its_turn(players, seed,
                                                                                  phase):
    rng = random.Random(seed)
    game = dealt(players, seed)
    while game.state.phase != phase:  # the hide phase played through first, for top
        game.step(rng.choice(RULES.legal_actions(game.state)))
    queued = {}
    for seat in range(players):  # each from its own view, before any of them placed
        view = RULES.view(game.state, seat)
        mine = []
        while offered := ahead.choices(view, seat, mine):
            mine.append(rng.choice(offered))
        assert len(mine) == 3
        queued[seat] = mine
    while game.state.phase == phase:
        seat = game.state.turn
        legal = RULES.legal_actions(game.state)
        done = ahead.placed(game.state)[seat]
        # at its turn, the choices ahead are the turn's own, in the same order
        assert ahead.choices(RULES.view(game.state, seat), seat) == legal
        assert queued[seat][done] in legal
        game.step(queued[seat][done])
    assert game.state.phase == ("top" if phase == "hide" else "flip")


def test_the_choices_read_only_the_seats_own_hand():
    game = dealt(4, 5)
    for seat in range(4):
        full, own = game.state, RULES.view(game.state, seat)
        assert ahead.choices(full, seat) == ahead.choices(own, seat)
        assert all(a.seat == seat and a.kind == "hide" for a in ahead.choices(own, seat))


def test_a_queued_action_that_is_not_a_choice_is_refused_by_name():
    game = dealt(3, 6)
    view = RULES.view(game.state, 1)
    first = ahead.choices(view, 1)[0]  # a card before a holder: that slot is then taken
    assert first not in ahead.choices(view, 1, [first])
    with pytest.raises(ValueError, match="queued action 2"):
        ahead.choices(view, 1, [first, first])


def test_who_has_placed_is_counted_per_seat():
    game = dealt(3, 7)
    assert ahead.placed(game.state) == (0, 0, 0) and ahead.owed(game.state) == 3
    game.step(RULES.legal_actions(game.state)[0])
    assert ahead.placed(game.state) == (1, 0, 0)


def test_no_choices_outside_the_set_up():
    game = dealt(3, 8)
    rng = random.Random(8)
    while game.state.phase != "play":
        game.step(rng.choice(RULES.legal_actions(game.state)))
    assert ahead.choices(game.state, 0) == [] and ahead.placed(game.state) == ()
