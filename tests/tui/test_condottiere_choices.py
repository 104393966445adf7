"""The table's questions reach every legal action of a Condottiere decision, and nothing else:
walking every answer of every question, from positions all through bot games with every
variant."""

from __future__ import annotations

import random

import pytest

from engine.condottiere import RULES  # noqa: E402
from engine.condottiere.bots import GreedyBot, RandomBot  # noqa: E402
from engine.core import TERMINAL, LocalGame  # noqa: E402
from tui.client import TableView  # noqa: E402
from tui.condottiere.choices import question  # noqa: E402


def _leaves(view: TableView, actions: tuple, asked: tuple) -> list:
    q = question(view, actions, asked)
    if q is None:
        assert len(actions) == 1, "the answers must name exactly one action"
        return [actions[0]]
    assert q.prompt and q.choices
    assert len({c.label for c in q.choices}) == len(q.choices), f"two answers alike in {q}"
    out = []
    for c in q.choices:
        assert c.actions and set(c.actions) <= set(actions)
        out += _leaves(view, c.actions, asked + (q.field,))
    return out


def _positions(seed: int, players: int, options: dict, limit: int = 400):
    game = LocalGame(RULES, RULES.make_config(players, options), seed)
    bots = [RandomBot(random.Random(seed + i)) if i % 2 else GreedyBot(random.Random(i))
            for i in range(players)]
    for _ in range(limit):
        game.advance()
        who = RULES.current_player(game.state)
        if who == TERMINAL:
            return
        view = RULES.view(game.state, who)
        yield who, view
        game.step(bots[who].choose(view, who))


@pytest.mark.parametrize("options, phases_seen", [
    ({}, {"place", "play", "keep", "discard"}),
    ({"hidden_cards": True, "capturing_regions": True}, {"place", "play", "keep", "discard"}),
    ({"draw_after_battle": True, "playing_for_points": 10, "bigger_kingdoms": True},
     {"place", "play", "take"}),
], ids=["base", "hidden+capturing", "draw+points"])
def test_every_legal_action_is_one_walk_through_the_questions(options, phases_seen):
    phases = set()
    for seed, players in ((1, 3), (2, 2), (3, 5)):
        for seat, view in _positions(seed, players, options):
            legal = tuple(RULES.legal_actions(view))
            tv = TableView("condottiere", seat, RULES.seat_names, view, seat, legal, ())
            assert sorted(_leaves(tv, legal, ())) == sorted(legal)
            phases.add(view.phase)
    assert phases_seen <= phases
