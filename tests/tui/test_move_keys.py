"""Keys bound to meanings: a kind of move answers to one letter, the same every turn, in both
games; numbers are only for cards, stacks, regions and values; no letter of a question is a key
the table itself uses."""

from __future__ import annotations

import random

from textual.binding import Binding

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.bots import GreedyBot as CGreedy
from engine.core import TERMINAL, LocalGame
from engine.medici import RULES as MEDICI
from engine.medici.bots import GreedyBot as MGreedy
from tui.client import TableView
from tui.condottiere import choices as cchoices
from tui.medici import choices as mchoices
from tui.table import TableScreen

#: the letters the table and the app answer themselves (help, rules, log, hint, results, leave,
#: talk, undo)
TABLE_LETTERS = {k for b in TableScreen.BINDINGS if isinstance(b, Binding)
                 for k in b.key.split(",") if len(k) == 1 and k.isalpha()} | {"t", "u"}


def _questions(rules, module, game, options, seed, players, limit=300):
    """Every question of every decision of a greedy bots' game, walked through all answers."""
    g = LocalGame(rules, rules.make_config(players, options), seed)
    bot = CGreedy if game == "condottiere" else MGreedy
    bots = [bot(random.Random(seed + i)) for i in range(players)]
    for _ in range(limit):
        g.advance()
        who = rules.current_player(g.state)
        if who == TERMINAL:
            return
        view = rules.view(g.state, who)
        legal = tuple(rules.legal_actions(view))
        tv = TableView(game, who, rules.seat_names, view, who, legal, ())
        todo = [(legal, ())]
        while todo:
            acts, asked = todo.pop()
            q = module.question(tv, acts, asked)
            if q is None:
                continue
            yield q
            todo += [(c.actions, asked + (q.field,)) for c in q.choices]
        g.step(bots[who].choose(view, who))


def _check(q, letters: dict[str, set[str]]) -> None:
    keys = q.keys()
    assert len(set(k for k in keys if k)) == len([k for k in keys if k]), f"two answers share a key: {q}"
    numbered = [k for k, c in zip(keys, q.choices, strict=True) if not c.hotkey]
    assert all(k.isdigit() or k == "" for k in numbered)
    for c in q.choices:
        if c.hotkey:
            assert c.hotkey not in TABLE_LETTERS, f"{c.hotkey} is a table key"
            letters.setdefault(c.hotkey, set()).add(c.label.split(":")[0].split(" (")[0])


def test_each_kind_of_medici_move_has_one_key_every_turn_and_numbers_are_for_cards_and_stacks():
    letters: dict[str, set[str]] = {}
    kinds_seen: set[str] = set()
    for seed in (1, 2):
        for q in _questions(MEDICI, mchoices, "medici", {}, seed, 4):
            _check(q, letters)
            if q.field == "kind":
                assert all(c.hotkey == mchoices.KIND_KEYS[c.key] for c in q.choices)
                kinds_seen |= {c.key for c in q.choices}
            if q.field in ("card", "target", "value"):
                assert all(not c.hotkey or c.key == -2 for c in q.choices)
    assert {"court", "build", "plan"} <= kinds_seen
    assert mchoices.KIND_KEYS == {"court": "c", "build": "a", "conspire": "x", "strike": "s",
                                  "plan": "p", "stuck": "g"}
    # a letter means one thing: the same words wherever it is offered
    assert letters["c"] == {"Court"} and letters["a"] == {"Alliance"} and letters["p"] == {"Plan"}


def test_each_kind_of_condottiere_answer_has_one_key_every_turn():
    letters: dict[str, set[str]] = {}
    for options in ({}, {"hidden_cards": True}, {"draw_after_battle": True}):
        for q in _questions(CONDOTTIERE, cchoices, "condottiere", options, 3, 3):
            _check(q, letters)
            if q.field == "card":
                passes = [c for c in q.choices if c.key == cchoices.PASS]
                assert all(c.hotkey == "p" for c in passes)
                assert all(not c.hotkey for c in q.choices if c.key != cchoices.PASS)
    assert letters["p"] <= {"Pass", "Pass for now"} and letters["p"]
    assert {"k", "n"} <= set(letters)
