"""The table's questions reach every legal action of a Court of the Medici turn, and nothing
else: walking every answer of every question, from positions all through bot games."""

from __future__ import annotations

from engine.core import TERMINAL, LocalGame
from engine.medici import RULES
from engine.medici.bots import GreedyBot, RandomBot
from tui.client import TableView
from tui.medici.choices import question


def _leaves(view: TableView, actions: tuple, asked: tuple, depth: int = 0) -> list:
    q = question(view, actions, asked)
    if q is None:
        assert len(actions) == 1, "the answers must name exactly one action"
        return [actions[0]]
    assert q.prompt and q.choices
    assert len({c.label for c in q.choices}) == len(q.choices), f"two answers alike in {q}"
    out = []
    for c in q.choices:
        assert c.actions and set(c.actions) <= set(actions)
        out += _leaves(view, c.actions, asked + (q.field,), depth + 1)
    return out


def _positions(seed: int, players: int):
    import random

    game = LocalGame(RULES, RULES.make_config(players, {}), seed)
    bots = [RandomBot(random.Random(seed + i)) if i % 2 else GreedyBot(random.Random(i)) for i in range(players)]
    while True:
        game.advance()
        who = RULES.current_player(game.state)
        if who == TERMINAL:
            return
        view = RULES.view(game.state, who)
        yield who, view
        game.step(bots[who].choose(view, who))


def test_every_legal_action_is_one_walk_through_the_questions():
    phases = set()
    for seed, players in ((1, 4), (2, 3), (3, 4), (4, 3)):
        for seat, view in _positions(seed, players):
            legal = tuple(RULES.legal_actions(view))
            tv = TableView("medici", seat, RULES.seat_names, view, seat, legal, ())
            leaves = _leaves(tv, legal, ())
            assert sorted(leaves) == sorted(legal)
            phases.add(view.phase)
    assert {"hide", "top", "play", "resolve"} <= phases


def test_a_turn_asks_card_then_action_then_target():
    for seat, view in _positions(7, 4):
        if view.phase != "play":
            continue
        legal = tuple(RULES.legal_actions(view))
        builds = [a for a in legal if a.kind == "build" and a.card % 13 < 9]
        if len({a.stack for a in builds}) < 2:
            continue
        tv = TableView("medici", seat, RULES.seat_names, view, seat, legal, ())
        q1 = question(tv, legal, ())
        assert q1.field == "card" and "which card" in q1.prompt
        card = next(c for c in q1.choices if c.key == builds[0].card)
        q2 = question(tv, card.actions, ("card",))
        assert q2.field == "kind"
        build = next(c for c in q2.choices if c.key == "build")
        assert build.label.startswith("Alliance")
        q3 = question(tv, build.actions, ("card", "kind"))
        assert q3.field == "target" and q3.prompt.endswith("on which stack?")
        assert all("->" in c.label for c in q3.choices)  # the new total is shown
        return
    raise AssertionError("no position with two stacks to build on")
