"""Condottiere plays a player would find senseless are named (``sense``), counted in a game's
figures (``report``), and the search bot does not make them while it has another move."""

from __future__ import annotations

import random

import pytest

from engine.condottiere import report, rules, sense
from engine.condottiere.cards import BISHOP, SURRENDER
from engine.condottiere.entry import ENTRY
from engine.condottiere.game import RULES
from engine.condottiere.scenario import position
from engine.condottiere.state import Action
from engine.core import LocalGame
from engine.search.ismcts import SearchResult


def _play(s, card: int, target: int = -1) -> Action:
    return next(a for a in rules.legal_actions(s) if a.kind == "play" and a.card == card
                and (a.region if card == BISHOP else a.taken) == target)


def _pass(s) -> Action:
    return rules.legal_actions(s)[0]


def _losing_surrender():
    """Red (seat 0) trails Blue's Mercenary 10 with a Mercenary 1, holding a Surrender."""
    return position(2, hands=[["Surrender", "Mercenary 2"], ["Mercenary 3"]],
                    lines=[["Mercenary 1"], ["Mercenary 10"]])


def _deciding_battle(hand: list[str]):
    """Blue holds Napoli, Roma and Spoleto: Ancona makes four connected and wins Blue the game.
    Blue leads the battle for it, 5 to Red's 1."""
    return position(2, hands=[hand, ["Mercenary 3"]], lines=[["Mercenary 1"], ["Mercenary 5"]],
                    owner={"Napoli": 1, "Roma": 1, "Spoleto": 1}, battle="Ancona")


def test_a_surrender_while_another_seat_leads_the_battle_is_senseless():
    s = _losing_surrender()
    assert sense.senseless(s, _play(s, SURRENDER), 0) == sense.SURRENDER_LOST
    ahead = position(2, hands=[["Surrender"], ["Mercenary 3"]], lines=[["Mercenary 10"], ["Mercenary 1"]])
    assert sense.senseless(ahead, _play(ahead, SURRENDER), 0) == ""


def test_passing_out_of_a_deciding_battle_while_a_card_would_take_the_lead_is_senseless():
    s = _deciding_battle(["Mercenary 10"])
    assert sense.senseless(s, _pass(s), 0) == sense.PASS_LOST_DECIDER
    weak = _deciding_battle(["Mercenary 2"])  # no card would take the lead: passing is fair
    assert sense.senseless(weak, _pass(weak), 0) == ""
    calm = position(2, hands=[["Mercenary 10"], ["Mercenary 3"]], lines=[["Mercenary 1"], ["Mercenary 5"]])
    assert sense.senseless(calm, _pass(calm), 0) == ""  # Torino decides nothing


def test_a_bishop_that_takes_its_own_strongest_mercenary_and_loses_ground_is_senseless():
    s = position(2, hands=[["Bishop"], ["Mercenary 3"]], lines=[["Mercenary 10"], ["Mercenary 5"]])
    assert sense.senseless(s, _play(s, BISHOP), 0) == sense.BISHOP_SELF_HARM
    useful = position(2, hands=[["Bishop"], ["Mercenary 3"]], lines=[["Mercenary 5"], ["Mercenary 10"]])
    assert sense.senseless(useful, _play(useful, BISHOP), 0) == ""


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_search_bot_does_not_surrender_a_battle_another_seat_leads(level):
    s = _losing_surrender()
    bot = ENTRY.make_bot(level, random.Random(3), iterations=200)
    assert bot.choose(RULES.view(s, 0), 0).card != SURRENDER


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_search_bot_does_not_pass_away_a_battle_that_decides_the_game(level):
    s = _deciding_battle(["Mercenary 10", "Mercenary 2"])
    bot = ENTRY.make_bot(level, random.Random(3), iterations=200)
    assert bot.choose(RULES.view(s, 0), 0).kind != "pass"


def test_a_senseless_choice_of_the_search_gives_way_to_the_most_visited_sensible_move():
    s = _losing_surrender()
    view = RULES.view(s, 0)
    surrender, merc = _play(view, SURRENDER), _play(view, 1)
    bot = ENTRY.make_bot("normal", random.Random(0))
    picked = bot._sensible(view, 0, SearchResult(surrender, 30, {surrender: 20, merc: 7, _pass(view): 3}, {}))
    assert picked == merc
    alone = position(2, hands=[["Surrender"], ["Mercenary 3"]], lines=[["Mercenary 1"], ["Mercenary 10"]])
    only = RULES.view(alone, 0)
    # passing is sensible here, so a Surrender gives way to it
    assert bot._sensible(only, 0, SearchResult(_play(only, SURRENDER), 5, {}, {})).kind == "pass"


def test_a_game_s_figures_count_each_seat_s_plays_and_senseless_plays():
    game = LocalGame(RULES, RULES.make_config(4, {}), 5)
    bots = [ENTRY.make_bot("random", random.Random(k)) for k in range(4)]
    outcome = game.play_out(bots, checked=False)
    f = report.figures(game.history, outcome)
    plays = [sum(1 for st in game.history if st.actor == q and st.action.kind in ("pass", "play")) for q in range(4)]
    assert f["moves"] == plays
    for q, counts in enumerate(f["seats"]):
        mine = [st for st in game.history if st.actor == q]
        assert counts["passes"] == sum(1 for st in mine if st.action.kind == "pass")
        assert counts["surrenders"] == sum(1 for st in mine if st.action.kind == "play" and st.action.card == SURRENDER)
        assert counts["surrender_lost"] == sum(
            1 for st in mine if sense.senseless(st.before, st.action, q) == sense.SURRENDER_LOST
        )
    assert sum(c["pass_lost_decider"] + c["surrender_lost"] + c["bishop_self_harm"] for c in f["seats"]) > 0
