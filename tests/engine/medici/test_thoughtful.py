"""Court of the Medici bots play the end of the game as people who want to win: no bot above
random ends a game it would lose while another move is left, a bot ahead ends it, and a strike
more likely to eliminate is preferred."""

from __future__ import annotations

import random

import pytest

from engine.medici import rules, sense
from engine.medici.bots import GreedyBot
from engine.medici.entry import ENTRY
from engine.medici.game import RULES
from engine.medici.scenario import _default_alliances, action, position

LEVELS = ["greedy", "normal", "hard"]


def _last_alliance(middle: list[str]):
    """Orsini (seat 0) to play with one shadow alliance left (Noble 2 over a Colonna card it
    cannot see) and a Noble 10 that may strike it, or a Noble 3 to court."""
    return position(
        4,
        hands=["O10 O3", "C5", "R5", "G5"],
        alliances=[["O2/C6", None, None], *(_default_alliances(4, h) for h in (1, 2, 3))],
        middle=middle,
    )


def _choose(level: str, state, seed: int = 1):
    bot = ENTRY.make_bot(level, random.Random(seed), **({} if level == "greedy" else {"iterations": 300}))
    return bot.choose(RULES.view(state, 0), 0)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_behind_with_its_last_alliance_does_not_strike_when_another_move_exists(level):
    s = _last_alliance(["C10 C8", "R10 R9"])  # Colonna 18, Delle Rovere 19, Orsini nothing
    strike = action("strike", 0, "O10", slot=1)
    view = RULES.view(s, 0)
    assert strike in rules.legal_actions(view)
    assert sense.senseless(view, strike, 0) == sense.ENDS_LOST  # Orsini gets 12 at most
    assert _choose(level, s).kind != "strike"


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_ahead_with_its_last_alliance_strikes_to_end_the_game(level):
    s = _last_alliance(["O10 O9", "C8 C7"])  # Orsini 19, Colonna 15
    strike = action("strike", 0, "O10", slot=1)
    assert sense.senseless(RULES.view(s, 0), strike, 0) == ""
    assert _choose(level, s).kind == "strike"


def test_the_greedy_bot_prefers_the_strike_more_likely_to_eliminate():
    """Two alliances under Noble 4s, over a Colonna and a Delle Rovere card that Orsini cannot
    see; a Noble 5 makes 15 with a hidden 6 (or a Jester), the total of Gonzaga's stack. Every
    Colonna 6 is in sight, so only a Colonna Jester would match there: the strike on the Delle
    Rovere card is the one that can eliminate."""
    s = position(
        4,
        hands=["O5", "C5", "R5", "G5"],
        alliances=[["O4/C9", "O4/R9", None], *(_default_alliances(4, h) for h in (1, 2, 3))],
        middle=["G7 G8", "C6 C6 G10"],
    )
    view = RULES.view(s, 0)
    strikes = {a.slot for a in rules.legal_actions(view) if a.kind == "strike"}
    assert strikes == {0, 1}
    assert GreedyBot(random.Random(0)).choose(view, 0) == action("strike", 0, "O5", slot=2)


def test_a_last_strike_that_wins_only_with_a_lucky_hidden_card_is_senseless():
    """Only a Colonna 6 or Jester under the alliance eliminates Colonna's 18 and puts Orsini
    ahead; any other card leaves Colonna ahead when the game ends."""
    s = _last_alliance(["C10 C8"])
    strike = action("strike", 0, "O10", slot=1)
    view = RULES.view(s, 0)
    assert 0 < sense.win_share(view, strike, 0) < 0.5
    assert sense.senseless(view, strike, 0) == sense.ENDS_LOST
    assert sense.win_share(s, strike, 0) == 1.0  # the full state knows the card: a 6


def _last_on_the_table(middle: list[str], others_left: bool = False):
    """As ``_last_alliance``, under the reading that ends the game only when no player has a
    shadow alliance left (``end_when_all_struck``): Orsini's is the last on the table unless
    ``others_left``."""
    others = [_default_alliances(4, h) if others_left else [None, None, None] for h in (1, 2, 3)]
    return position(
        4,
        hands=["O10 O3", "C5", "R5", "G5"],
        alliances=[["O2/C6", None, None], *others],
        middle=middle,
        end_when_all_struck=True,
    )


@pytest.mark.parametrize("level", LEVELS)
def test_when_all_must_be_struck_a_bot_behind_does_not_strike_the_last_alliance_on_the_table(level):
    s = _last_on_the_table(["C10 C8", "R10 R9"])
    strike = action("strike", 0, "O10", slot=1)
    view = RULES.view(s, 0)
    assert sense.ends_game(view, strike, 0)
    assert sense.senseless(view, strike, 0) == sense.ENDS_LOST
    assert _choose(level, s).kind != "strike"


@pytest.mark.parametrize("level", LEVELS)
def test_when_all_must_be_struck_a_bot_ahead_strikes_the_last_alliance_on_the_table(level):
    s = _last_on_the_table(["O10 O9", "C8 C7"])
    strike = action("strike", 0, "O10", slot=1)
    assert sense.senseless(RULES.view(s, 0), strike, 0) == ""
    assert _choose(level, s).kind == "strike"


def test_when_all_must_be_struck_a_seats_last_alliance_does_not_end_the_game_while_others_remain():
    s = _last_on_the_table(["C10 C8", "R10 R9"], others_left=True)
    strike = action("strike", 0, "O10", slot=1)
    view = RULES.view(s, 0)
    assert not sense.ends_game(view, strike, 0)
    assert sense.senseless(view, strike, 0) == ""
