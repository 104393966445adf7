"""``palazzo sim`` and the tournament report how games went: length in turns and moves a seat,
the end, who ended the game and whether it lost, and per seat the counts of ``report``."""

from __future__ import annotations

import json
import random

from engine.core import LocalGame
from engine.medici import report as medici_report
from engine.medici.entry import ENTRY as MEDICI
from engine.medici.game import RULES
from engine.report import Tally
from tui.cli import main


def test_medici_figures_count_moves_strikes_fizzles_and_the_ender():
    game = LocalGame(RULES, RULES.make_config(4, {}), 11)
    bots = [MEDICI.make_bot("random", random.Random(k)) for k in range(4)]
    outcome = game.play_out(bots, checked=False)
    f = medici_report.figures(game.history, outcome)
    plays = [st for st in game.history if st.action.kind in medici_report.PLAY_KINDS]
    assert sum(f["moves"]) == len(plays)
    assert f["ender"] == plays[-1].action.seat
    assert f["ender_lost"] == int(f["ender"] not in outcome.winners)
    strikes = sum(1 for st in game.history if st.action.kind == "strike")
    misses = sum(1 for st in game.history if st.action.kind == "resolve" and st.action.elim < 0)
    assert sum(s["strikes"] for s in f["seats"]) == strikes
    assert sum(s["fizzled"] for s in f["seats"]) == misses


def test_a_tally_tells_length_ends_and_shares_per_bot():
    t = Tally(medici_report)
    t.add(["hard", "easy", "easy", "easy"], 12, "alliances-gone",
          {"moves": [3, 3, 3, 2], "ender": 0, "ender_lost": 1,
           "seats": [{"strikes": 3, "fizzled": 1}] + [{"strikes": 1, "fizzled": 1}] * 3})
    t.add(["easy", "hard", "easy", "easy"], 20, "no-playable-card",
          {"moves": [5, 5, 5, 5], "ender": -1, "ender_lost": 0,
           "seats": [{"strikes": 0, "fizzled": 0}] * 4})
    lines = t.lines()
    assert lines[0] == "length: median 16.0 turns (12-20), median 4.0 moves a seat (2-5)"
    assert lines[1] == "ends: alliances-gone 1, no-playable-card 1"
    assert "easy: fizzled strikes 3/3 (100%)" in lines
    assert "hard: ended 1 games and lost 1 of them (100%); fizzled strikes 1/3 (33%)" in lines


def test_sim_json_lines_carry_moves_the_ender_and_figures(capsys):
    assert main(["sim", "medici", "--games", "2", "--seed", "3", "--bots", "greedy", "--json"]) == 0
    out, err = capsys.readouterr()
    games = [json.loads(line) for line in out.splitlines()]
    assert len(games) == 2
    for g in games:
        assert len(g["moves"]) == 4 and sum(g["moves"]) >= g["turns"] - 1
        assert g["end"] == "alliances-gone" and 0 <= g["ender"] < 4
        assert {"strikes", "fizzled"} <= set(g["figures"][0])
    assert "median" in err and "fizzled strikes" in err
