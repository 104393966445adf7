"""Previews computed by the rules: every card power of both games, as the table words it
before the move, matches what the move does when the rules apply it."""

from __future__ import annotations

from engine.condottiere import RULES as CRULES
from engine.condottiere.cards import parse_card
from engine.condottiere.scenario import position as cposition
from engine.condottiere.state import NONE, CondottiereConfig, mk
from engine.medici import RULES as MRULES
from engine.medici.scenario import action, position
from tui.client import TableView
from tui.condottiere import choices as cchoices
from tui.condottiere import preview as cpreview
from tui.medici import choices as mchoices
from tui.medici import preview

# -- Court of the Medici -------------------------------------------------------------------------

HAND = ["OM OL O5 OJ OD", "", "", ""]
COURT = ["R10 R6", "C3 C2", "G5"]


def _medici():
    return position(hands=HAND, middle=COURT)


def test_a_noble_on_a_stack_previews_the_new_total():
    s = _medici()
    a = action("build", 0, "O5", stack="A")
    assert preview.result(s, a) == "-> 21"
    assert MRULES.apply(s, a).stack(0)[1] == 21


def test_a_noble_to_court_previews_a_new_stack():
    s = _medici()
    assert preview.result(s, action("court", 0, "O5")) == "-> new stack D, 5"


def test_a_minister_on_a_stack_of_two_previews_0_and_the_cards_eliminated_not_a_sum():
    s = _medici()
    a = action("build", 0, "OM", stack="A")
    assert preview.result(s, a) == "-> 0, eliminating 2 cards"
    after = MRULES.apply(s, a)
    assert after.stack(0)[1] == 0 and len(after.stack(0)[2]) == 1


def test_a_minister_on_a_single_card_adds_nothing():
    s = _medici()
    assert preview.result(s, action("build", 0, "OM", stack="C")) == "-> 5"


def test_a_lady_previews_the_stack_split_into_single_cards():
    s = _medici()
    a = action("build", 0, "OL", stack="A")
    assert preview.result(s, a) == "-> splits into 10 | 6 | 1"
    assert sorted(st[1] for st in MRULES.apply(s, a).middle) == [1, 5, 5, 6, 10]


def test_a_jester_previews_the_value_it_is_declared_as():
    s = _medici()
    a = action("build", 0, "OJ", 4, stack="C")
    assert preview.result(s, a) == "-> 9"


def test_a_duke_previews_fifteen_more():
    s = _medici()
    assert preview.result(s, action("build", 0, "OD", stack="B")) == "-> 20"


def test_a_conspiracy_previews_the_total_and_the_stack_it_eliminates():
    s = position(hands=HAND, middle=["R10 R6", "C3 C2", "G5 G6"])
    a = action("conspire", 0, "O5", stack="B", elim="C")
    assert preview.result(s, a) == "-> 10, eliminating stack C"


def test_the_table_labels_stacks_with_the_rules_preview():
    s = _medici()
    legal = tuple(MRULES.legal_actions(s))
    tv = TableView("medici", 0, MRULES.seat_names, s, 0, legal, ())
    minister = tuple(a for a in legal if a.card == action("build", 0, "OM", stack="A").card)
    builds = tuple(a for a in minister if a.kind == "build")
    q = mchoices.question(tv, builds, ("card", "kind"))
    labels = {c.key: c.label for c in q.choices}
    assert labels[0].endswith("-> 0, eliminating 2 cards")  # never "-> 16"
    lady = tuple(a for a in legal if a.kind == "build" and a.card == action("build", 0, "OL", stack="A").card)
    q = mchoices.question(tv, lady, ("card", "kind"))
    assert {c.key: c.label for c in q.choices}[0].endswith("-> splits into 10 | 6 | 1")  # never "-> 7"


# -- Condottiere -----------------------------------------------------------------------------------


def _play(s, card, **kw):
    return mk("play", 0, card=parse_card(card), **kw)


def _check(s, a, mine, other):
    """The preview's strengths are those the rules give after the play."""
    assert cpreview.strengths_after(s, a, 0) == (mine, other)
    assert cpreview.result(s, a, 0).startswith("-> ")


def test_a_mercenary_previews_its_strength_added():
    s = cposition(2, hands=[["Mercenary 5"], ["Mercenary 1"]], lines=[["Mercenary 6"], ["Mercenary 4"]])
    _check(s, _play(s, "Mercenary 5"), 11, 4)


def test_a_heroine_adds_ten_and_a_courtesan_one():
    s = cposition(2, hands=[["Heroine", "Courtesan"], []], lines=[["Mercenary 2"], ["Mercenary 4"]])
    _check(s, _play(s, "Heroine"), 12, 4)
    _check(s, _play(s, "Courtesan"), 3, 4)


def test_a_drummer_previews_the_mercenaries_doubled():
    s = cposition(2, hands=[["Drummer"], []], lines=[["Mercenary 6", "Heroine"], ["Mercenary 4"]])
    _check(s, _play(s, "Drummer"), 22, 4)


def test_winter_previews_every_mercenary_at_one():
    s = cposition(2, hands=[["Winter"], []], lines=[["Mercenary 6", "Mercenary 5"], ["Mercenary 10"]])
    _check(s, _play(s, "Winter"), 2, 1)


def test_spring_previews_three_more_for_the_strongest():
    s = cposition(2, hands=[["Spring"], []], lines=[["Mercenary 6", "Mercenary 5"], ["Mercenary 4"]])
    _check(s, _play(s, "Spring"), 14, 4)


def test_a_bishop_previews_the_strongest_discarded():
    s = cposition(2, hands=[["Bishop"], []], lines=[["Mercenary 6", "Mercenary 2"], ["Mercenary 6", "Mercenary 1"]])
    a = _play(s, "Bishop", region=NONE)
    _check(s, a, 2, 1)
    assert "discards 2 cards" in cpreview.result(s, a, 0)


def test_a_bishop_ignores_face_down_mercenaries_in_its_preview():
    config = CondottiereConfig(2, hidden_cards=True)
    s = cposition(2, config=config, hands=[["Bishop"], []],
                  lines=[["Mercenary 2"], ["Mercenary 6", "Mercenary 6", "~Mercenary 10"]])
    a = _play(s, "Bishop", region=NONE)
    assert "discards 2 cards" in cpreview.result(s, a, 0)
    after = CRULES.apply_unchecked(s, a)
    assert [c for c, _ in after.lines[1]] == [parse_card("Mercenary 10")]


def test_a_scarecrow_previews_the_mercenary_taken_back():
    s = cposition(2, hands=[["Scarecrow"], []], lines=[["Mercenary 6", "Mercenary 2"], ["Mercenary 4"]])
    _check(s, _play(s, "Scarecrow", taken=parse_card("Mercenary 6")), 2, 4)
    legal = tuple(CRULES.legal_actions(s))
    tv = TableView("condottiere", 0, CRULES.seat_names, s, 0, legal, ())
    scare = tuple(a for a in legal if a.card == parse_card("Scarecrow"))
    q = cchoices.question(tv, scare, ("card",))
    assert any(c.label.startswith("Mercenary 6 back to hand  -> you 2") for c in q.choices)


def test_a_scarecrow_is_not_offered_a_face_down_mercenary():
    config = CondottiereConfig(2, hidden_cards=True)
    s = cposition(2, config=config, hands=[["Scarecrow"], []],
                  lines=[["~Mercenary 6"], ["Mercenary 4"]])
    takes = {a.taken for a in CRULES.legal_actions(s) if a.card == parse_card("Scarecrow")}
    assert takes == {NONE}


def test_a_surrender_previews_the_battle_ending_as_it_stands():
    s = cposition(2, hands=[["Surrender"], []], lines=[["Mercenary 6"], ["Mercenary 4"]])
    a = _play(s, "Surrender")
    assert cpreview.result(s, a, 0) == "-> the battle ends: you 6, best other 4"


# -- the coach's reason, from the same rules ------------------------------------------------------


def test_the_coach_says_what_a_medici_move_takes_risks_and_whether_it_ends_the_game():
    from tui.medici.coach import why

    s = position(hands=HAND, middle=["R10 R6", "C3 C2", "G5 G6"])
    line = why(s, action("conspire", 0, "O5", stack="B", elim="C"), 0)
    assert line.startswith("Takes: +5 for your house, 11 from Gonzaga.")
    assert line.endswith("The game goes on.")
    line = why(s, action("build", 0, "OM", stack="A"), 0)
    assert "16 from Delle Rovere" in line
    assert "Risks: nothing played to court" in why(s, action("plan", 0, "O5"), 0)


def test_the_coach_says_a_strike_of_the_last_alliance_ends_the_game():
    from tui.medici.coach import why

    last = [["O2/C6", None, None], [None] * 3, [None] * 3, [None] * 3]
    s = position(hands=["O5", "", "", ""], alliances=last, middle=["R10 R3"],
                 end_when_all_struck=True)
    strike = next(a for a in MRULES.legal_actions(s) if a.kind == "strike")
    line = why(s, strike, 0)
    assert "a stack eliminated" in line and line.endswith("It ends the game.")


def test_the_coach_says_what_a_condottiere_play_leaves_and_that_a_surrender_ends_the_battle():
    from tui.condottiere.coach import why

    s = cposition(2, hands=[["Surrender", "Mercenary 5"], []], lines=[["Mercenary 6"], ["Mercenary 10"]])
    line = why(s, _play(s, "Surrender"), 0)
    assert "you 6 against 10" in line and "goes to another player" in line
    assert line.endswith("It ends the battle now.")
    assert "you 11 against 10" in why(s, _play(s, "Mercenary 5"), 0)


def test_a_scarecrow_that_can_take_nothing_back_asks_first():
    from tui.condottiere.table import CondottiereTable

    config = CondottiereConfig(2, hidden_cards=True)
    s = cposition(2, config=config, hands=[["Scarecrow"], []], lines=[["~Mercenary 6"], ["Mercenary 4"]])
    tv = TableView("condottiere", 0, CRULES.seat_names, s, 0, tuple(CRULES.legal_actions(s)), ())
    words = CondottiereTable.final_words(None, tv, _play(s, "Scarecrow", taken=NONE))  # type: ignore[arg-type]
    assert "cannot take back a face-down card" in words and "spent for nothing" in words
