"""Rules of the strike from the shadows, with a hidden card the striker usually cannot see.

In these positions Colonna has no deck and an empty hand, so the only Colonna cards nobody
else can see are its three hidden cards: a Noble 6 before Orsini, an 8 before Delle Rovere and a
9 before Gonzaga. Orsini's first shadow alliance is its Noble 2 over that Colonna Noble 6.
"""

from collections import Counter

import pytest

from engine.core import REVEAL, IllegalActionError
from engine.medici import RULES
from engine.medici.rules import possible_hidden
from engine.medici.scenario import action, after, card_of, cards_of, code_of, position
from engine.medici.text import action_text, stack_label


def board(middle, hands=("O5", "", "", ""), players=4, alliances=None, **kw):
    return position(players, hands=list(hands)[:players], middle=middle, alliances=alliances,
                    decks=[None, "", None, None][:players], **kw)


def strikes(s, slot=1):
    return sorted(a.value for a in RULES.legal_actions(s) if a.kind == "strike" and a.slot == slot - 1)


def stacks(s):
    return {stack_label(sid): " ".join(code_of(c) for c, _ in cards) for sid, _, cards in s.middle}


def test_what_the_striker_knows_of_a_hidden_card():
    s = board(["G10"])
    alliance = s.alliances[0][0]
    assert alliance[:3] == (1, card_of("C6"), card_of("O2"))
    assert possible_hidden(RULES.view(s, 0), 0, alliance) == cards_of("C6 C8 C9")


def test_strike_declarable_only_if_some_hidden_value_matches():
    # Noble 5 + Noble 2 + (6, 8 or 9) can make 13, 15 or 16
    assert strikes(board(["G10 G4"])) == []  # 14: no hidden value reaches it
    with pytest.raises(IllegalActionError):
        after(board(["G10 G4"]), action("strike", 0, "O5", slot=1))
    assert strikes(board(["R10 R5"])) == [5]  # 15: the hidden card could be the 8
    assert strikes(board(["R10 R5"], hands=("O3", "", "", ""))) == []  # 3 + 2 + x is never 15


def test_strike_hidden_card_is_revealed_by_its_placer():
    s = after(board(["R10 R3"]), action("strike", 0, "O5", slot=1))
    assert s.phase == "reveal" and RULES.current_player(s) == REVEAL and RULES.revealer(s) == 1
    (reveal,) = RULES.legal_actions(s)
    assert reveal == action("reveal", 1, "C6", slot=1)
    assert action_text(s, reveal, viewer=2) == "Colonna reveals the hidden card: Colonna Noble 6"
    with pytest.raises(IllegalActionError):
        after(s, action("reveal", 1, "C8", slot=1))  # a placer cannot show another card


def test_strike_eliminates_a_matching_stack_and_moves_into_the_middle():
    before = board(["R10 R3", "G9"])
    s = after(before, action("strike", 0, "O5", slot=1), action("reveal", 1, "C6", slot=1))
    assert s.phase == "resolve" and RULES.current_player(s) == 0
    (resolve,) = RULES.legal_actions(s)
    assert resolve.elim == 0
    s = after(s, resolve)
    # the three cards go to the middle as one stack: the hidden card at the bottom
    assert stacks(s) == {"B": "G9", "C": "C6 O2 O5"} and s.middle[-1][1] == 13
    assert s.alliances[0][0] is None
    gone = Counter(s.eliminated)
    gone.subtract(before.eliminated)
    assert sorted(gone.elements()) == sorted(cards_of("R10 R3"))


def test_strike_elimination_is_compulsory_when_a_stack_matches():
    s = after(board(["R10 R3", "G9 G4"]), action("strike", 0, "O5", slot=1),
              action("reveal", 1, "C6", slot=1))
    assert sorted(a.elim for a in RULES.legal_actions(s)) == [0, 1]  # the striker picks one
    with pytest.raises(IllegalActionError):
        after(s, action("resolve", 0))  # no fizzle while a stack matches
    # nor with a hidden Jester: no value may be declared that fizzles while one matches
    alliances = [["O2/CJ", "O3/R6", "O4/G6"], ["C2/R7", "C3/G7", "C4/O7"],
                 ["R2/G8", "R3/O8", "R4/CJ"], ["G2/O9", "G3/C9", "G4/R9"]]
    s = after(board(["R10 R4"], alliances=alliances), action("strike", 0, "O5", slot=1),
              action("reveal", 1, "CJ", slot=1))
    assert [(a.extra, a.elim) for a in RULES.legal_actions(s)] == [(7, 0)]
    with pytest.raises(IllegalActionError):
        after(s, action("resolve", 0, extra=1))


def test_strike_fizzles_and_stack_still_moves():
    before = board(["R10 R5"])
    s = after(before, action("strike", 0, "O5", slot=1), action("reveal", 1, "C6", slot=1))
    (resolve,) = RULES.legal_actions(s)
    assert resolve.elim == -1
    assert action_text(s, resolve) == "Orsini: no stack matches, the strike fizzles"
    s = after(s, resolve)
    assert stacks(s) == {"A": "R10 R5", "B": "C6 O2 O5"} and s.eliminated == before.eliminated
    assert s.alliances[0][0] is None and s.phase == "draw"


def test_strike_with_known_hidden_card_needs_a_match():
    # three players: Orsini's third alliance is its Noble 4 over its own Noble 6, known to it
    s = board(["G10 G5"], players=3)
    assert s.alliances[0][2][:3] == (0, card_of("O6"), card_of("O4"))
    assert strikes(s, slot=3) == [5]  # 5 + 4 + 6 = 15
    s = board(["G10 G6"], players=3)
    assert strikes(s, slot=3) == []  # 16 would need another hidden card
    assert strikes(s, slot=2) == [5]  # ... as Delle Rovere's may (5 + 3 + an unseen 8)
    s = after(board(["G10 G5"], players=3), action("strike", 0, "O5", slot=3))
    assert RULES.revealer(s) == 0


def test_a_strike_on_the_strikers_own_hidden_card_is_checked_at_its_reveal():
    # three players: Orsini's own Noble 6 lies under its Noble 4, and the middle holds 16, which
    # 5 + 4 makes only with a 7. Orsini, who knows its card, cannot strike; a view that cannot see
    # the card accepts the strike, and then accepts only a reveal of a card that makes the match
    s = board(["G10 G6"], players=3)
    strike = action("strike", 0, "O5", slot=3)
    with pytest.raises(IllegalActionError):
        after(s, strike)
    seen = RULES.apply(RULES.view(s, 1), strike)
    assert [code_of(a.card) for a in RULES.legal_actions(seen)] == ["O7", "OJ"]
    with pytest.raises(IllegalActionError):
        RULES.apply(seen, action("reveal", 0, "O6", slot=3))
    # a card another seat placed may still fizzle: the striker could not know it
    s = after(board(["R10 R5"]), action("strike", 0, "O5", slot=1))
    assert [code_of(a.card) for a in RULES.legal_actions(RULES.view(s, 2))] == ["C6", "C8", "C9"]


def test_alliance_jesters_are_declared_at_resolve():
    alliances = [["OJ/C6", "O3/R6", "O4/G6"], ["C2/R7", "C3/G7", "C4/O7"],
                 ["R2/G8", "R3/O8", "R4/C8"], ["G2/O9", "G3/C9", "G4/R9"]]
    s = board(["R10 R5", "G10 G4"], alliances=alliances)
    assert strikes(s) == [5]
    s = after(s, action("strike", 0, "O5", slot=1), action("reveal", 1, "C6", slot=1))
    # 5 + 6 + the face-up Jester: as 4 it meets A (15), as 3 it meets B (14)
    assert sorted((a.value, a.elim) for a in RULES.legal_actions(s)) == [(3, 1), (4, 0)]
    done = after(s, action("resolve", 0, None, 3, elim="B"))
    assert done.middle[-1][2] == ((card_of("C6"), 6), (card_of("OJ"), 3), (card_of("O5"), 5))
    assert "declares the face-up Jester as 3" in action_text(s, action("resolve", 0, None, 3, elim="B"))


def test_hidden_jester_is_declared_by_the_striker_at_resolve():
    alliances = [["O2/CJ", "O3/R6", "O4/G6"], ["C2/R7", "C3/G7", "C4/O7"],
                 ["R2/G8", "R3/O8", "R4/CJ"], ["G2/O9", "G3/C9", "G4/R9"]]
    s = after(board(["R10 R4"], alliances=alliances), action("strike", 0, "O5", slot=1),
              action("reveal", 1, "CJ", slot=1))
    (resolve,) = RULES.legal_actions(s)
    assert (resolve.extra, resolve.elim) == (7, 0)  # 5 + 2 + Jester as 7 = 14
    assert after(s, resolve).middle[-1][1] == 14


def test_jester_played_in_a_strike_is_declared_when_played():
    s = board(["R10 R5"], hands=("OJ", "", "", ""))
    # Jester + 2 + (6, 8 or 9) = 15: as 7, 5 or 4
    assert strikes(s) == [4, 5, 7]
    s = after(s, action("strike", 0, "OJ", 7, slot=1), action("reveal", 1, "C6", slot=1))
    assert [a.elim for a in RULES.legal_actions(s)] == [0]


def test_fizzled_strike_with_a_jester_still_declares_it():
    alliances = [["OJ/C6", "O3/R6", "O4/G6"], ["C2/R7", "C3/G7", "C4/O7"],
                 ["R2/G8", "R3/O8", "R4/C8"], ["G2/O9", "G3/C9", "G4/R9"]]
    hands = ("O10", "", "", "")
    # 10 + Jester + (6, 8 or 9) reaches 17 to 29
    assert strikes(board(["R10 R6"], alliances=alliances, hands=hands)) == []  # 16
    s = board(["R10 R10 R9"], alliances=alliances, hands=hands)  # 29: only with a hidden 9
    assert strikes(s) == [10]
    s = after(s, action("strike", 0, "O10", slot=1), action("reveal", 1, "C6", slot=1))
    legal = RULES.legal_actions(s)
    assert [(a.value, a.elim) for a in legal] == [(v, -1) for v in range(1, 11)]
    s = after(s, action("resolve", 0, None, 4))
    assert s.middle[-1] == (1, 20, ((card_of("C6"), 6), (card_of("OJ"), 4), (card_of("O10"), 10)))


def test_limit_binds_the_played_card_of_a_strike():
    s = board(["R10 R5"], hands=("OJ O5", "", "", ""), limits=[4, None, None, None])
    # the Noble 5 is above the limit, the Jester may be 4 at most: 4 + 2 + an unseen 9 = 15
    found = [(a.card, a.value) for a in RULES.legal_actions(s) if a.kind == "strike" and a.slot == 0]
    assert found == [(card_of("OJ"), 4)]


def test_limit_does_not_bind_jesters_declared_at_resolve():
    alliances = [["OJ/C6", "O3/R6", "O4/G6"], ["C2/R7", "C3/G7", "C4/O7"],
                 ["R2/G8", "R3/O8", "R4/C8"], ["G2/O9", "G3/C9", "G4/R9"]]
    s = board(["R10 R5 R3"], alliances=alliances, hands=("O2", "", "", ""), limits=[2, None, None, None])
    s = after(s, action("strike", 0, "O2", slot=1), action("reveal", 1, "C6", slot=1))
    # 2 + 6 + the face-up Jester = 18: it is not played from the hand, so it may be 10
    assert [(a.value, a.elim) for a in RULES.legal_actions(s)] == [(10, 0)]


def test_minister_and_lady_have_no_effect_in_a_strike():
    s = after(board(["G9", "R8"], hands=("OL OM", "", "", "")), action("strike", 0, "OL", slot=1),
              action("reveal", 1, "C6", slot=1), action("resolve", 0, elim="A"))
    assert stacks(s) == {"B": "R8", "C": "C6 O2 OL"}  # 1 + 2 + 6 = 9: no split
    s = after(board(["G9", "R8"], hands=("OL OM", "", "", "")), action("strike", 0, "OM", slot=1),
              action("reveal", 1, "C6", slot=1), action("resolve", 0, elim="B"))
    assert stacks(s) == {"A": "G9", "C": "C6 O2 OM"}  # 0 + 2 + 6 = 8: nothing else eliminated
