"""Rules of a turn: the five actions, the draw, stacks in the middle, shadow alliances."""

import pytest

from engine.core import IllegalActionError, InvalidActionError
from engine.medici import RULES
from engine.medici.scenario import action, after, card_of, cards_of, position
from engine.medici.state import Action
from engine.medici.text import action_text


def stacks(s):
    """The middle as ``{letter: "codes"}``."""
    from engine.medici.scenario import code_of
    from engine.medici.text import stack_label

    return {stack_label(sid): " ".join(code_of(c) for c, _ in cards) for sid, _, cards in s.middle}


def totals(s):
    from engine.medici.text import stack_label

    return {stack_label(sid): total for sid, total, _ in s.middle}


def test_court_makes_a_new_one_card_stack():
    s = position(hands=["O5 OD", "", "", ""], middle=["C3"])
    s = after(s, action("court", 0, "OD"))
    assert stacks(s) == {"A": "C3", "B": "OD"} and totals(s)["B"] == 15
    assert cards_of("O5") == list(s.hands[0])


def test_any_card_may_be_sent_to_court():
    s = position(hands=["OM OL OJ", "", "", ""])
    kinds = {(a.card, a.value) for a in RULES.legal_actions(s) if a.kind == "court"}
    jester = card_of("OJ")
    assert kinds == {(card_of("OM"), 0), (card_of("OL"), 1)} | {(jester, v) for v in range(1, 11)}


def test_build_on_any_stack_of_any_house():
    s = position(hands=["O4", "", "", ""], middle=["C3", "O9 G2", "R10"])
    builds = {a.stack for a in RULES.legal_actions(s) if a.kind == "build"}
    assert builds == {0, 1, 2}
    s = after(s, action("build", 0, "O4", stack="B"))
    assert stacks(s)["B"] == "O9 G2 O4" and totals(s)["B"] == 15


def test_stacks_have_no_size_limit():
    s = position(hands=["O2 O3", "C2 C3", "R2 R3", "G2 G3"], middle=["G10"], decks=[""] * 4)
    for code in ("O2", "C2", "R2", "G2", "O3", "C3", "R3", "G3"):
        s = after(s, action("build", s.turn, code, stack="A"))
    assert len(s.middle[0][2]) == 9 and totals(s)["A"] == 10 + 4 * 2 + 4 * 3


def test_conspiracy_eliminates_another_stack_with_the_new_total():
    s = position(hands=["O4", "", "", ""], middle=["C3", "G7", "R5 R2"])
    conspiracies = {(a.stack, a.elim) for a in RULES.legal_actions(s) if a.kind == "conspire"}
    assert conspiracies == {(0, 1), (0, 2)}
    s = after(s, action("conspire", 0, "O4", stack="A", elim="C"))
    assert stacks(s) == {"A": "C3 O4", "B": "G7"}
    assert s.eliminated == tuple(sorted(cards_of("R5 R2")))


def test_conspiracy_only_when_a_matching_stack_exists():
    s = position(hands=["O4", "", "", ""], middle=["C3", "G8"])
    assert not [a for a in RULES.legal_actions(s) if a.kind == "conspire"]
    with pytest.raises(IllegalActionError):
        after(s, action("conspire", 0, "O4", stack="A", elim="B"))


def test_conspiracy_never_eliminates_its_own_stack():
    s = position(hands=["OM", "", "", ""], middle=["C3"])  # a Minister adds 0: C3 still totals 3
    assert not [a for a in RULES.legal_actions(s) if a.kind == "conspire"]
    with pytest.raises(IllegalActionError):
        after(s, action("conspire", 0, "OM", stack="A", elim="A"))


def test_plan_puts_the_card_under_the_deck_then_draws():
    s = position(hands=["O9 O5", "", "", ""], decks=["O2 O3", None, None, None])
    s = after(s, action("plan", 0, "O9"))
    assert s.bottoms[0] == (card_of("O9"),) and s.phase == "draw"
    assert {a.card for a, _ in RULES.chance_outcomes(s)} == set(cards_of("O2 O3"))  # the top first


def test_plan_card_is_drawn_after_the_rest_of_the_deck():
    s = position(hands=["O9 O5", "", "", ""], decks=["", None, None, None], bottoms=["O2", "", "", ""])
    s = after(s, action("plan", 0, "O9"))
    assert s.bottoms[0] == tuple(cards_of("O2 O9"))
    (draw, p), = RULES.chance_outcomes(s)
    assert draw.card == card_of("O2") and p == 1.0


def test_plan_not_allowed_with_empty_deck():
    s = position(hands=["O9 O5", "", "", ""], decks=["", None, None, None])
    assert not [a for a in RULES.legal_actions(s) if a.kind == "plan"]
    with pytest.raises(IllegalActionError):
        after(s, action("plan", 0, "O9"))


def test_a_turn_ends_with_a_draw_of_the_top_card():
    s = position(hands=["O9 O5", "", "", ""], decks=["O2 O3 O4", None, None, None])
    s = after(s, action("court", 0, "O9"))
    assert s.phase == "draw" and s.turn == 0
    outcomes = RULES.chance_outcomes(s)
    assert [(a.card, round(p, 3)) for a, p in outcomes] == [(c, 0.333) for c in cards_of("O2 O3 O4")]
    s = after(s, outcomes[1][0])
    assert sorted(s.hands[0]) == sorted(cards_of("O3 O5")) and len(s.pools[0]) == 2


def test_no_draw_from_an_empty_deck():
    s = position(hands=["O9 O5", "C2", "", ""], decks=["", None, None, None], limits=[9, None, None, None])
    s = after(s, action("court", 0, "O9"))
    assert s.phase == "play" and s.turn == 1 and s.hands[0] == (card_of("O5"),)


def test_shadow_alliances_are_not_stacks_of_the_middle():
    s = position(hands=["O4", "", "", ""], middle=["C3"])
    legal = RULES.legal_actions(s)
    assert {a.stack for a in legal if a.kind in ("build", "conspire")} == {0}
    assert {a.elim for a in legal if a.kind == "conspire"} <= {0}
    with pytest.raises(IllegalActionError):
        after(s, action("build", 0, "O4", stack="B"))  # there is no stack B


def test_strike_only_on_your_own_remaining_alliances():
    s = position(
        hands=["O5", "", "", ""],
        alliances=[["O2/C6", None, None], ["C2/R6", "C3/G6", "C4/O6"],
                   ["R2/G7", "R3/O7", "R4/C7"], ["G2/O8", "G3/C8", "G4/R8"]],
        middle=["O10", "C10", "G10", "R10"],
    )
    strikes = {a.slot for a in RULES.legal_actions(s) if a.kind == "strike"}
    assert strikes == {0}
    for slot in (2, 3):
        with pytest.raises(IllegalActionError):
            after(s, action("strike", 0, "O5", slot=slot))


def test_eliminated_cards_leave_the_game():
    s = position(hands=["O4", "", "", ""], middle=["C3", "G7"])
    s = after(s, action("conspire", 0, "O4", stack="A", elim="B"))
    g7 = card_of("G7")
    assert g7 in s.eliminated and all(g7 not in [c for c, _ in st[2]] for st in s.middle)


def test_stack_letters_never_change():
    s = position(hands=["O4 O5", "C2", "", ""], middle=["C3", "G7", "R6", "G9"])
    s = after(s, action("conspire", 0, "O4", stack="A", elim="B"))
    s = after(s, RULES.chance_outcomes(s)[0][0], action("court", 1, "C2"))
    assert list(totals(s)) == ["A", "C", "D", "E"]


def test_actions_read_well_as_text():
    s = position(hands=["O4 OJ", "", "", ""], middle=["C3", "G7", "R8 R2"])
    assert action_text(s, action("strike", 0, "O4", slot=2)) == (
        "Orsini: strike with Noble 4 on shadow alliance 2"
    )
    assert action_text(s, action("conspire", 0, "OJ", 5, stack="B", elim="C")) == (
        "Orsini: conspiracy, Jester as 5 onto stack B, eliminating stack C"
    )
    assert action_text(s, action("court", 0, "O4")) == "Orsini: sends Noble 4 to court (stack D)"


def test_malformed_actions_are_invalid_and_wrong_ones_illegal():
    s = position(hands=["O4", "", "", ""], middle=["C3"])
    for bad in ({"kind": "fly", "seat": 0}, {"kind": "court"}, {"kind": "court", "seat": "0"},
                {"kind": "court", "seat": 0, "colour": 1}, ("court", 0), 7):
        with pytest.raises(InvalidActionError):
            RULES.apply(s, bad)
    with pytest.raises(IllegalActionError) as err:
        RULES.apply(s, action("court", 0, "O9"))  # not in the hand
    message = str(err.value)
    assert "Orsini: sends Noble 9 to court" in message and "phase play" in message
    with pytest.raises(IllegalActionError):
        RULES.apply(s, action("court", 1, "C4"))  # not Colonna's turn
    assert RULES.apply(s, Action.from_data({"kind": "court", "seat": 0, "card": card_of("O4"),
                                            "value": 4})).middle[-1][1] == 4


def test_checked_door_on_a_view_accepts_only_cards_the_hand_may_hold():
    # a peer follows the game on its view: Orsini's hand is hidden from Colonna
    s = position(hands=["O5 O6", "C2", "", ""], middle=["G10", "O10 O10"])
    v = RULES.view(s, 1)
    assert RULES.apply(v, action("court", 0, "O7")).middle[-1][2] == ((card_of("O7"), 7),)
    for bad in (
        Action("court", 0, card=-2, value=5),  # not a card
        action("court", 0, "C7"),  # another house's card
        action("court", 0, "O10"),  # both Orsini 10s are in the middle
    ):
        with pytest.raises(IllegalActionError):
            RULES.apply(v, bad)
