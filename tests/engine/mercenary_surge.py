"""The tests of Mercenary Surge (every mercenary counts 1 more in a game's first battle), a
variant that exists only in a copy of the tree: ``test_variant_in_three_files.py`` declares it
in ``engine/condottiere/state.py``, writes its rule in ``engine/condottiere/measures.py`` and
adds these tests to ``tests/engine/condottiere/test_variants.py``, then runs them there. They
check that every layer that shows or weighs strength agrees with the result the rules reach:
the log, the table, the greedy bot, the search's rollout policy and its fast simulation, and the
generic conformance games. (Not collected here: the file's name is not a test module's.)
"""

import random

from engine.condottiere import rules as R
from engine.condottiere.bots import estimated_strengths
from engine.condottiere.cards import parse_card, region_index
from engine.condottiere.game import RULES
from engine.condottiere.scenario import position
from engine.condottiere.state import mk
from engine.condottiere.text import SEAT_NAMES
from engine.search import condottiere as search
from tests.engine.contract import check_game
from tests.engine.search.test_fast_path import assert_simulations_match
from tui.condottiere import narrate, render

SURGE = RULES.make_config(2, {"mercenary_surge": True})


def surge_battle(battles: int) -> object:
    """Red's 5 and 4 against Blue's Heroine in the battle for Torino, Red to play."""
    return position(config=SURGE, lines=[["Mercenary 5", "Mercenary 4"], ["Heroine"]],
                    hands=[["Mercenary 1"], ["Mercenary 1"]], battles=battles)


def test_mercenary_surge_counts_mercenaries_one_more_in_the_first_battle() -> None:
    s = surge_battle(0)
    assert R.strengths(s) == [11, 10]
    assert R.strengths(surge_battle(1)) == [9, 10]  # the second battle counts as printed
    plain = position(2, lines=[["Mercenary 5", "Mercenary 4"], ["Heroine"]], battles=0)
    assert R.strengths(plain) == [9, 10]  # and the game without the variant too


def test_mercenary_surge_the_log_the_table_the_bots_and_the_search_agree() -> None:
    s = surge_battle(0)
    # the table and the bots see the strengths the rules count
    assert render.strengths(RULES.view(s, 1), 1) == [11, 10]
    assert estimated_strengths(RULES.view(s, 1)) == [11, 10]
    # the search's battle sense sees Red ahead, so it passes (it never explores at 0)
    assert search.light_action(s, 0, random.Random(0), explore=0.0).kind == "pass"
    # both pass: the rules give Torino to Red, and the log says so with the same numbers
    after_red = RULES.apply(s, mk("pass", 0))
    end = RULES.apply(after_red, mk("pass", 1))
    assert end.owner[region_index("Torino")] == 0
    told = " ".join(narrate.narrate(after_red, mk("pass", 1), end, 0, SEAT_NAMES))
    assert "Red 11, Blue 10. Red conquers Torino." in told
    # and the search's fast rollouts still play exactly the rules' moves
    for seed in range(3):
        assert_simulations_match(search.GAME, s, seed)


def test_mercenary_surge_plays_whole_games_by_the_contract() -> None:
    for seed in range(2):
        check_game(RULES, SURGE, seed)
    assert parse_card("Mercenary 5") >= 0
