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


def test_a_strike_shows_its_odds_from_what_the_seat_may_know():
    """The odds of the risky move: a strike's answer says how often its hidden card makes a
    total some stack has: certain with a hidden card the seat placed itself, a share of the
    cards it cannot rule out otherwise."""
    from engine.medici.report import elimination_chance
    from engine.medici.scenario import position

    s = position(hands=["O5 O6", "C2", "R2", "G2"],
                 alliances=[["O4/O9", "O2/C3", "O3/G6"], ["C4/R9", "C2/G5", "C3/O6"],
                            ["R4/G9", "R2/O5", "R3/C6"], ["G4/O9", "G2/C5", "G3/R6"]],
                 middle=["R10 R8", "C10"])
    view = RULES.view(s, 0)
    legal = tuple(RULES.legal_actions(view))
    tv = TableView("medici", 0, RULES.seat_names, view, 0, legal, ())
    fives = tuple(a for a in legal if a.kind == "strike" and a.card == legal[0].card)
    labels = [c.label for c in question(tv, fives, ("card", "kind")).choices]
    assert labels[0].endswith("4/[your 9]  eliminates a stack")  # 5 + 4 + 9 = 18: R10 R8
    for label, a in zip(labels[1:], fives[1:], strict=True):
        chance = elimination_chance(view, a)
        assert 0 < chance < 1 and label.endswith(f"eliminates a stack {chance:.0%} of the time")
    # what the seat cannot see decides nothing: the same odds whatever the hidden cards are
    other = position(hands=["O5 O6", "C2", "R2", "G2"],
                     alliances=[["O4/O9", "O2/C10", "O3/G7"], ["C4/R9", "C2/G5", "C3/O6"],
                                ["R4/G9", "R2/O5", "R3/C6"], ["G4/O9", "G2/C5", "G3/R6"]],
                     middle=["R10 R8", "C10"])
    oview = RULES.view(other, 0)
    olegal = tuple(RULES.legal_actions(oview))
    otv = TableView("medici", 0, RULES.seat_names, oview, 0, olegal, ())
    ofives = tuple(a for a in olegal if a.kind == "strike" and a.card == olegal[0].card)
    assert [c.label for c in question(otv, ofives, ("card", "kind")).choices] == labels
