"""Rules of the empty deck, the end of the game, scoring and the tie-break."""

import pytest

from engine.core import TERMINAL, UNKNOWN, IllegalActionError
from engine.medici import RULES
from engine.medici.scenario import action, after, card_of, position
from engine.medici.state import NO_CARD
from engine.medici.text import action_text


def playable(s):
    return sorted({(a.card, a.value) for a in RULES.legal_actions(s) if a.kind == "court"})


def test_last_card_shown_and_limit():
    s = position(hands=["O9 O5 O10", "C2", "R2", "G2"], decks=["O7", "", "", ""])
    s = after(s, action("court", 0, "O9"))
    (draw, p), = RULES.chance_outcomes(s)
    assert draw.card == card_of("O7") and p == 1.0
    for seat in (1, 2, 3):
        assert action_text(s, draw, viewer=seat) == (
            "Orsini draws the last card of the deck and shows it: Noble 7"
        )
    s = after(s, draw)
    assert s.limits[0] == 7 and s.shown[0] == card_of("O7")
    assert RULES.view(s, 2).hands[0] == (UNKNOWN, UNKNOWN, card_of("O7"))  # shown to all
    s = after(s, action("court", 1, "C2"), action("court", 2, "R2"), action("court", 3, "G2"))
    assert s.turn == 0
    assert playable(s) == sorted([(card_of("O5"), 5), (card_of("O7"), 7)])  # not the 10
    with pytest.raises(IllegalActionError):
        after(s, action("court", 0, "O10"))


def test_a_jester_drawn_last_sets_a_limit_of_ten():
    s = position(hands=["O9 O5", "C2", "R2", "G2"], decks=["OJ", "", "", ""])
    s = after(s, action("court", 0, "O9"))
    (draw, _), = RULES.chance_outcomes(s)
    s = after(s, draw)
    assert s.limits[0] == 10 and s.shown[0] == card_of("OJ")
    s = after(s, action("court", 1, "C2"), action("court", 2, "R2"), action("court", 3, "G2"))
    assert playable(s) == sorted([(card_of("O5"), 5)] + [(card_of("OJ"), v) for v in range(1, 11)])


def test_a_planned_card_drawn_last_is_shown_and_sets_the_limit():
    s = position(hands=["O9 O5", "C2", "R2", "G2"], decks=["", "", "", ""], bottoms=["O4", "", "", ""])
    s = after(s, action("court", 0, "O9"))
    (draw, p), = RULES.chance_outcomes(s)
    assert draw.card == card_of("O4") and p == 1.0
    for seat in (1, 2, 3):  # shown to all, though only its owner knew it was under the deck
        assert action_text(s, draw, viewer=seat) == (
            "Orsini draws the last card of the deck and shows it: Noble 4"
        )
    s = after(s, draw)
    assert s.limits[0] == 4 and s.shown[0] == card_of("O4")
    assert RULES.view(s, 1).hands[0] == (UNKNOWN, card_of("O4"))


def test_limit_lasts_after_the_shown_card_is_played():
    s = position(hands=["O7 O5 O10", "C2", "", ""], decks=[""] * 4, limits=[7, None, None, None],
                 shown=["O7", None, None, None])
    s = after(s, action("court", 0, "O7"))
    assert s.shown[0] == NO_CARD and s.limits[0] == 7
    assert RULES.view(s, 1).hands[0] == (UNKNOWN, UNKNOWN)


def test_played_copy_of_the_shown_card_is_the_shown_card():
    # two Noble 7s in hand, one of them shown: after a 7 is played nobody may learn of the other
    s = position(hands=["O5 O5 O2", "C2", "", ""], decks=[""] * 4, limits=[5, None, None, None],
                 shown=["O5", None, None, None])
    assert RULES.view(s, 1).hands[0] == (UNKNOWN, UNKNOWN, card_of("O5"))
    s = after(s, action("court", 0, "O5"))
    assert s.shown[0] == NO_CARD
    assert RULES.view(s, 1).hands[0] == (UNKNOWN, UNKNOWN)


def test_shown_jester_allows_up_to_ten():
    s = position(hands=["OJ OD O10", "", "", ""], decks=[""] * 4, limits=[10, None, None, None])
    jester, ten = card_of("OJ"), card_of("O10")
    assert playable(s) == sorted([(jester, v) for v in range(1, 11)] + [(ten, 10)])


def test_jester_under_a_limit_is_declared_at_or_below_it():
    s = position(hands=["OJ O9", "", "", ""], decks=[""] * 4, limits=[4, None, None, None])
    assert playable(s) == [(card_of("OJ"), v) for v in range(1, 5)]
    with pytest.raises(IllegalActionError):
        after(s, action("court", 0, "OJ", 5))


def test_jester_under_limit_zero_cannot_be_played():
    s = position(hands=["OJ OM O2", "", "", ""], decks=[""] * 4, limits=[0, None, None, None])
    assert playable(s) == [(card_of("OM"), 0)]
    s = position(hands=["OJ", "", "", ""], decks=[""] * 4, limits=[0, None, None, None])
    assert RULES.legal_actions(s) == [action("stuck", 0)]


def test_no_playable_card_ends_game():
    s = position(hands=["O9 OD", "C2", "", ""], decks=[""] * 4, limits=[5, None, None, None])
    assert RULES.legal_actions(s) == [action("stuck", 0)]
    s = after(s, action("stuck", 0))
    assert RULES.current_player(s) == TERMINAL and s.end == "no-playable-card"
    assert s.turns == 0  # the turn that could not be played is not counted
    assert RULES.outcome(s).end == "no-playable-card"


def test_empty_hand_ends_game():
    s = position(hands=["", "C2", "", ""], decks=[""] * 4)
    assert RULES.legal_actions(s) == [action("stuck", 0)]
    with pytest.raises(IllegalActionError):
        after(position(hands=["O2", "", "", ""]), action("stuck", 0))  # only when nothing is playable


ONE_LEFT = [["O2/C6", None, None], ["C2/R7", "C3/G7", "C4/O7"],
            ["R2/G8", "R3/O8", "R4/C8"], ["G2/O9", "G3/C9", "G4/R9"]]


def last_strike(end_when_all_struck=False, alliances=ONE_LEFT):
    s = position(hands=["O5", "", "", ""], alliances=alliances, middle=["R10 R3"],
                 end_when_all_struck=end_when_all_struck)
    return s, after(s, action("strike", 0, "O5", slot=1), action("reveal", 1, "C6", slot=1),
                    action("resolve", 0, elim="A"))


def test_game_ends_when_some_player_has_no_shadow_alliances_left():
    _, s = last_strike()
    assert RULES.is_over(s) and s.end == "alliances-gone" and s.turns == 1


def test_final_turn_draw_is_skipped():
    before, s = last_strike()
    assert s.pools == before.pools and len(s.hands[0]) == 0


def test_end_when_all_struck_option():
    _, s = last_strike(end_when_all_struck=True)
    assert not RULES.is_over(s) and s.phase == "draw"
    everyone_done = [["O2/C6", None, None], [None] * 3, [None] * 3, [None] * 3]
    _, s = last_strike(True, everyone_done)
    assert RULES.is_over(s) and s.end == "all-struck"


def test_end_when_all_struck_is_a_configuration_option():
    config = RULES.make_config(3, {"end_when_all_struck": True})
    assert config.end_when_all_struck and RULES.new_game(config).config == config
    with pytest.raises(ValueError):
        RULES.make_config(4, {"end_when_all_struck": 3})


def over(middle, alliances=None):
    s = position(hands=["", "", "", ""], middle=middle, alliances=alliances, decks=[""] * 4)
    return RULES.outcome(after(s, action("stuck", 0)))


def test_scoring_counts_own_house_cards_in_the_middle_whoever_played_them():
    o = over(["O10 C3 GJ=9", "OD", "R5 RM RL"])
    assert o.scores == (25, 3, 6, 1) and o.winners == (0,)


def test_cards_in_shadow_alliances_do_not_score():
    o = over(["C3"], alliances=[["OD/C10", "O10/R10", "O9/G10"]] + [[None] * 3] * 3)
    assert o.scores == (0, 3, 0, 0)


def test_revealed_hidden_card_scores_for_its_house():
    _, s = last_strike()
    o = RULES.outcome(s)
    assert card_of("C6") in [c for _, _, cards in s.middle for c, _ in cards]
    assert o.scores == (2 + 5, 6, 0, 0)


def test_tie_break_highest_card():
    o = over(["O10 O2", "C7 C5", "R8 R4", "G3"])  # 12, 12, 12: Orsini's 10 is the highest
    assert o.scores[:3] == (12, 12, 12) and o.winners == (0,)


def test_tie_break_jester_counts_one():
    o = over(["OJ=9 O4", "C5", "G2"])  # 5 and 5: Colonna's 5 beats Orsini's 4 (the Jester is 1)
    assert o.scores[:2] == (5, 5) and o.winners == (1,)


def test_shared_win_when_still_tied():
    o = over(["O10 O3", "C10 C3", "R10"])
    assert o.winners == (0, 1)


def test_outcome_only_when_over():
    with pytest.raises(ValueError):
        RULES.outcome(position(hands=["O2", "", "", ""]))


def test_with_the_option_a_player_without_alliances_plays_on():
    s = position(hands=["O5 O6", "C2", "R2", "G2"], alliances=[[None] * 3] + ONE_LEFT[1:],
                 middle=["R10 R3"], end_when_all_struck=True)
    kinds = {a.kind for a in RULES.legal_actions(s)}
    assert kinds == {"court", "build", "plan"}  # no strike without an alliance; no conspiracy here
    s = after(s, action("court", 0, "O5"))
    assert not RULES.is_over(s)
