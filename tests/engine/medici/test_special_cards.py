"""Rules of the special cards: Minister, Lady-in-Waiting, Jester, Duke."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import IllegalActionError
from engine.medici import RULES
from engine.medici.cards import RANK_VALUE, RANKS
from engine.medici.scenario import action, after, card_of, cards_of, code_of, position
from engine.medici.text import stack_label


def middle(s):
    """The middle as ``{letter: "codes (total)"}``, a Jester with its value."""
    out = {}
    for sid, total, cards in s.middle:
        words = [code_of(c) + (f"={v}" if code_of(c)[1:] == "J" else "") for c, v in cards]
        out[stack_label(sid)] = " ".join(words) + f" ({total})"
    return out


def test_minister_on_two_or_more_eliminates_the_rest():
    s = position(hands=["OM", "", "", ""], middle=["C3 G7", "R5"])
    s = after(s, action("build", 0, "OM", stack="A"))
    assert middle(s) == {"A": "OM (0)", "B": "R5 (5)"}
    assert s.eliminated == tuple(sorted(cards_of("C3 G7")))


def test_minister_on_single_card_adds_zero():
    s = position(hands=["OM", "", "", ""], middle=["C3 G7", "R5"])
    s = after(s, action("build", 0, "OM", stack="B"))
    assert middle(s) == {"A": "C3 G7 (10)", "B": "R5 OM (5)"}
    assert s.eliminated == ()


def test_minister_has_no_effect_in_a_conspiracy():
    s = position(hands=["OM", "", "", ""], middle=["C3 G7", "R10"])
    s = after(s, action("conspire", 0, "OM", stack="A", elim="B"))
    assert middle(s) == {"A": "C3 G7 OM (10)"}
    assert s.eliminated == (card_of("R10"),)


def test_minister_sent_to_court_is_a_stack_of_zero():
    s = position(hands=["OM", "", "", ""], middle=["C3 G7"])
    s = after(s, action("court", 0, "OM"))
    assert middle(s) == {"A": "C3 G7 (10)", "B": "OM (0)"}


def test_lady_splits_whole_stack():
    s = position(hands=["OL", "", "", ""], middle=["C3 G7 R4", "G9"])
    s = after(s, action("build", 0, "OL", stack="A"))
    # the bottom card keeps the stack's letter, the others get new letters in order
    assert middle(s) == {"A": "C3 (3)", "B": "G9 (9)", "C": "G7 (7)", "D": "R4 (4)", "E": "OL (1)"}
    assert s.eliminated == ()


def test_lady_on_a_single_card_makes_two_stacks():
    s = position(hands=["OL", "", "", ""], middle=["C3"])
    s = after(s, action("build", 0, "OL", stack="A"))
    assert middle(s) == {"A": "C3 (3)", "B": "OL (1)"}


def test_lady_has_no_effect_in_a_conspiracy():
    s = position(hands=["OL", "", "", ""], middle=["C3 G5", "R9"])
    s = after(s, action("conspire", 0, "OL", stack="A", elim="B"))
    assert middle(s) == {"A": "C3 G5 OL (9)"}


def test_jester_is_declared_one_to_ten_when_played():
    s = position(hands=["OJ", "", "", ""], middle=["C3"])
    legal = RULES.legal_actions(s)
    assert sorted(a.value for a in legal if a.kind == "build") == list(range(1, 11))
    for bad in (0, 11):
        with pytest.raises(IllegalActionError):
            after(s, action("build", 0, "OJ", bad, stack="A"))
    s = after(s, action("build", 0, "OJ", 7, stack="A"))
    assert middle(s) == {"A": "C3 OJ=7 (10)"}


def test_jester_keeps_its_value_until_it_leaves_play():
    s = position(hands=["OL", "C2", "", ""], middle=["C3 GJ=7"])
    s = after(s, action("build", 0, "OL", stack="A"))
    assert middle(s)["B"] == "GJ=7 (7)"
    s = after(s, RULES.chance_outcomes(s)[0][0], action("build", 1, "C2", stack="B"))
    assert middle(s)["B"] == "GJ=7 C2 (9)"


def test_jester_conspiracy_declares_the_value_that_matches():
    s = position(hands=["OJ", "", "", ""], middle=["C3", "G9", "R5"])
    found = {(a.stack, a.value, a.elim) for a in RULES.legal_actions(s) if a.kind == "conspire"}
    # onto A (3): as 6 meets G9 (9), as 2 meets R5; onto B (9): nothing reaches; onto C (5): as 4
    assert found == {(0, 6, 1), (0, 2, 2), (2, 4, 1)}


def test_jester_counts_one_at_scoring():
    s = position(hands=["", "", "", ""], middle=["OJ=9", "C2"], decks=[""] * 4)
    s = after(s, action("stuck", 0))
    assert RULES.outcome(s).scores == (1, 2, 0, 0)


def test_duke_is_worth_fifteen_and_has_no_ability():
    assert RANK_VALUE[card_of("OD") % RANKS] == 15
    s = position(hands=["OD", "", "", ""], middle=["C3 G7", "R5"])
    s = after(s, action("build", 0, "OD", stack="A"))
    assert middle(s) == {"A": "C3 G7 OD (25)", "B": "R5 (5)"}


NOBLES = [h + str(v) for h in "CRG" for v in range(2, 11)]
ONE_ALLIANCE_EACH = [["OD/OM", None, None], ["CD/CM", None, None], ["RD/RM", None, None],
                     ["GD/GM", None, None]]


@given(st.lists(st.sampled_from(NOBLES), unique=True, min_size=1, max_size=8),
       st.lists(st.sampled_from(NOBLES[:9]), unique=True, max_size=2))
def test_lady_split_property(stack, others):
    others = [c for c in others if c not in stack]
    s = position(hands=["OL", "", "", ""], alliances=ONE_ALLIANCE_EACH,
                 middle=others + [" ".join(stack)])
    target = stack_label(len(others))
    after_split = after(s, action("build", 0, "OL", stack=target))
    got = middle(after_split)
    # the stack's cards, bottom first, then the Lady: each alone; the bottom one keeps the letter
    singles = [got[target]] + [got[stack_label(len(others) + 1 + i)] for i in range(len(stack))]
    codes = [*stack, "OL"]
    assert [x.split(" (")[0] for x in singles] == codes
    assert len(after_split.middle) == len(s.middle) + len(stack)
    assert after_split.eliminated == s.eliminated


@given(st.lists(st.sampled_from(NOBLES), unique=True, min_size=1, max_size=8))
def test_minister_property(stack):
    s = position(hands=["OM", "", "", ""], alliances=ONE_ALLIANCE_EACH, middle=[" ".join(stack)])
    done = after(s, action("build", 0, "OM", stack="A"))
    if len(stack) >= 2:
        assert middle(done) == {"A": "OM (0)"}
        assert sorted(done.eliminated) == sorted(list(s.eliminated) + cards_of(" ".join(stack)))
    else:
        assert middle(done) == {"A": f"{stack[0]} OM ({int(stack[0][1:])})"}
        assert done.eliminated == s.eliminated
