"""``palazzo sim`` and the tournament report how games went: length in turns and moves a seat,
the end, who ended the game and whether it lost, and per seat the counts of ``report``."""

from __future__ import annotations

import json
import random
import re

from engine.core import LocalGame, Outcome, Step
from engine.medici import game as medici_game
from engine.medici import report as medici_report
from engine.medici import rules as medici_rules
from engine.medici import scenario
from engine.medici.entry import ENTRY as MEDICI
from engine.medici.game import RULES
from engine.report import Tally, wilson
from tui.cli import main


def test_medici_figures_count_moves_strikes_fizzles_and_the_ender():
    game = LocalGame(RULES, RULES.make_config(4, {"short_game": True}), 11)
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
    assert lines[2] == "whoever ended the game won 0/1 (0%) of the games a seat chose to end"
    easy = next(line for line in lines if line.startswith("easy: "))
    hard = next(line for line in lines if line.startswith("hard: "))
    assert easy.startswith("easy: fizzled strikes 3/3 (100%); unlucky 0/3 (0%); ")
    assert hard.startswith("hard: ended 1 games and lost 1 of them (100%); fizzled strikes 1/3 (33%); ")
    assert "hopeless behind, not forced 0/3 (0%)" in hard


def test_a_tally_tells_the_share_of_games_won_by_whoever_ended_them():
    t = Tally(medici_report)
    for ender, lost in ((0, 0), (1, 0), (2, 1), (-1, 0)):
        t.add(["a", "b", "a", "b"], 10, "alliances-gone" if ender >= 0 else "no-playable-card",
              {"moves": [3] * 4, "ender": ender, "ender_lost": lost, "seats": [{}] * 4})
    assert "whoever ended the game won 2/3 (67%) of the games a seat chose to end" in t.lines()


def test_sim_json_lines_carry_moves_the_ender_and_figures(capsys):
    assert main(["sim", "medici", "--games", "2", "--seed", "3", "--bots", "greedy", "--json",
                 "--option", "short_game"]) == 0
    out, err = capsys.readouterr()
    games = [json.loads(line) for line in out.splitlines()]
    assert len(games) == 2
    for g in games:
        assert len(g["moves"]) == 4 and sum(g["moves"]) >= g["turns"] - 1
        assert g["end"] == "alliances-gone" and 0 <= g["ender"] < 4
        assert {"strikes", "fizzled"} <= set(g["figures"][0])
    assert "median" in err and "fizzled strikes" in err
    assert "end rule: short game" in err


def test_sim_reports_the_median_moves_a_seat_under_the_end_rule_played(capsys):
    assert main(["sim", "medici", "--games", "3", "--seed", "5", "--bots", "greedy"]) == 0
    out, _ = capsys.readouterr()
    assert "end rule: full game: it ends when no house has a shadow alliance left" in out
    full = float(re.search(r"median ([0-9.]+) moves a seat", out).group(1))
    assert main(["sim", "medici", "--games", "3", "--seed", "5", "--bots", "greedy",
                 "--option", "short_game"]) == 0
    out, _ = capsys.readouterr()
    assert "end rule: short game" in out
    short = float(re.search(r"median ([0-9.]+) moves a seat", out).group(1))
    assert full > 2 * short


# -- strikes by kind, on histories built from positions ----------------------------------------

ROWS = [  # per holder: face-up/hidden, the hidden card its placer's
    ["O2/C6", "O3/R6", "O4/G6"],
    ["C2/R7", "C3/G7", "C4/O7"],
    ["R2/G8", "R3/O8", "R4/C8"],
    ["G2/O9", "G3/C9", "G4/R9"],
]


def _strike(middle, slot=1, last=False):
    """Seat 0 (Orsini) strikes shadow alliance ``slot`` with its O5, the hidden card revealed
    and the strike resolved as well as it can be; returns the seat's figures."""
    rows = [list(r) for r in ROWS]
    if last:
        rows[0] = [r if k == slot - 1 else None for k, r in enumerate(rows[0])]
    state = scenario.position(hands=["O5 O6", "", "", ""], alliances=rows, middle=middle)
    history = []
    for a in (scenario.action("strike", 0, "O5", slot=slot), None, None):
        if a is None:
            a = medici_rules.legal_actions(state)[0]
        history.append(Step(a.seat, a, state))
        state = medici_rules.apply_unchecked(state, a)
    if state.phase == "over":
        out = medici_game.outcome(state)
    else:
        out = Outcome(medici_game.scores(state), (0,), "", 1)
    return medici_report.figures(history, out)["seats"][0]


def _kinds(seat):
    return {k for k in medici_report.FIELDS if seat[k] and k != "strikes"}


def test_hopeless_behind_a_strike_no_hidden_card_lets_eliminate_while_another_house_leads():
    seat = _strike(["C10 C10 CD"])  # 35: O5 + O2 + at most a Duke's 15 is 22
    assert seat["strikes"] == 1
    assert _kinds(seat) == {"fizzled", "hopeless_behind", "hopeless_free"}


def test_hopeless_behind_end_the_same_strike_on_the_last_alliance_ends_the_game():
    seat = _strike(["C10 C10 CD"], last=True)
    assert _kinds(seat) == {"fizzled", "hopeless_behind_end", "hopeless_free"}


def test_hopeless_lead_a_leader_strikes_for_nothing_and_the_game_goes_on():
    seat = _strike(["O10 O10 OD"])
    assert _kinds(seat) == {"fizzled", "hopeless_lead"}


def test_hopeless_lead_end_a_leader_ends_the_game_with_a_strike_that_cannot_eliminate():
    seat = _strike(["O10 O10 OD"], last=True)
    assert _kinds(seat) == {"fizzled", "hopeless_lead_end"}


def test_unlucky_a_strike_that_could_eliminate_but_the_hidden_card_did_not_make_the_total():
    seat = _strike(["C10 C2"])  # 12 wants a hidden 5 (C5 or a Jester); it is C6
    assert _kinds(seat) == {"fizzled", "unlucky"}


def test_a_strike_whose_hidden_card_makes_the_total_eliminates_and_is_of_no_kind():
    seat = _strike(["C10 C3"])  # 13 = O5 + O2 + C6
    assert seat["strikes"] == 1 and _kinds(seat) == set()


def test_worse_odds_a_strike_on_an_alliance_whose_hidden_card_matches_less_often():
    # totals 13 and 12: under O3/R6 the Rovere card must be a 4 or 5 and both R5 and both
    # Rovere Jesters are in the middle; under O2/C6 a Colonna 5, 6 or Jester does it
    middle = ["C10 C3", "R5 R5 RJ=1 RJ=1"]
    assert "worse_odds" in _kinds(_strike(middle, slot=2))
    assert "worse_odds" not in _kinds(_strike(middle, slot=1))


def test_legal_play_holds_no_hopeless_strike():
    game = LocalGame(RULES, RULES.make_config(4, {}), 5)
    bots = [MEDICI.make_bot("random", random.Random(k)) for k in range(4)]
    outcome = game.play_out(bots, checked=False)
    f = medici_report.figures(game.history, outcome)
    assert sum(s["strikes"] for s in f["seats"]) > 0
    assert all(s[k] == 0 for s in f["seats"] for k in medici_report.HOPELESS_KINDS)
    assert all(s["unlucky"] == s["fizzled"] for s in f["seats"])


def test_wilson_interval_of_a_fair_share_over_100_games():
    lo, hi = wilson(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
