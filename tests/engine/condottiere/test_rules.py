"""The worked examples (T1-T10) and the decisions (D1-D12) of the rules, one test each, on
hand-made positions."""

from __future__ import annotations

import random

import pytest

from engine.condottiere import RULES, CondottiereConfig
from engine.condottiere import rules as R
from engine.condottiere.cards import (
    BISHOP,
    COURTESAN,
    DRUMMER,
    HEROINE,
    SCARECROW,
    SURRENDER,
    counts_of,
    parse_card,
    region_index,
)
from engine.condottiere.scenario import position
from engine.condottiere.state import ACTION_KINDS, State, mk
from engine.condottiere.view import view
from engine.core import CHANCE, REVEAL, UNKNOWN, IllegalActionError

M = {n: parse_card(f"Mercenary {n}") for n in (1, 2, 3, 4, 5, 6, 10)}
TORINO, MILANO, FIRENZE = region_index("Torino"), region_index("Milano"), region_index("Firenze")


def advance(s: State, seed: int = 0) -> State:
    """Resolve chance and reveal steps until a seat must decide."""
    rng = random.Random(seed)
    while R.current_player(s) in (CHANCE, REVEAL):
        if R.current_player(s) == CHANCE:
            s = R.apply_unchecked(s, rng.choice(R.legal_actions(s)))
        else:
            s = R.apply_unchecked(s, R.legal_actions(s)[0])
    return s


def act(s: State, *actions) -> State:
    for a in actions:
        s = advance(RULES.apply(s, a))
    return s


def strength(*lines: list[str]) -> list[int]:
    return R.strengths(position(max(2, len(lines)), lines=list(lines) + [[]] * (2 - len(lines))))


# -- worked examples ---------------------------------------------------------------------------


def test_T1_a_line_of_mercenaries_adds_up() -> None:
    assert strength(["Mercenary 10", "Mercenary 10", "Mercenary 5", "Mercenary 4"])[0] == 29


def test_a_heroine_counts_ten_and_a_courtesan_one() -> None:
    assert strength(["Heroine"], ["Courtesan", "Courtesan"]) == [10, 2]
    # neither is a mercenary: a Winter and a Drummer leave them as they are
    assert strength(["Heroine", "Courtesan", "Drummer"], ["Winter"]) == [11, 0]


def test_T2_winter_makes_every_mercenary_one() -> None:
    line = ["Mercenary 10", "Mercenary 10", "Mercenary 5", "Mercenary 4"]
    assert strength(line, ["Winter"])[0] == 4
    assert strength(line + ["Winter"])[0] == 4


def test_T3_a_drummer_doubles_the_mercenaries() -> None:
    assert strength(["Mercenary 10", "Mercenary 6", "Mercenary 5", "Drummer"])[0] == 42


def test_T4_drummer_under_winter() -> None:
    assert strength(["Mercenary 10", "Mercenary 6", "Mercenary 5", "Drummer"], ["Winter"])[0] == 6


def test_T5_spring_gives_three_to_the_top_printed_mercenaries() -> None:
    a = ["Mercenary 2", "Mercenary 5", "Mercenary 5"]
    b = ["Mercenary 1", "Mercenary 4", "Heroine", "Spring"]
    assert strength(a, b) == [18, 15]
    # and the stronger line conquers when the battle ends
    s = position(2, lines=[a, b], passed=[0, 1], battle="Firenze", hands=[["Scarecrow"], []])
    s = act(s, mk("pass", 0))
    assert s.owner[FIRENZE] == 0


def test_T6_spring_with_a_drummer() -> None:
    assert strength(["Mercenary 2", "Mercenary 4", "Drummer"], ["Spring", "Mercenary 3"])[0] == 15


def test_T7_bishop_discards_every_top_mercenary_and_takes_the_favor() -> None:
    s = position(
        2,
        lines=[["Mercenary 6", "Mercenary 3", "Mercenary 1", "Mercenary 1"],
               ["Mercenary 6", "Mercenary 1", "Mercenary 1"]],
        hands=[["Mercenary 2"], ["Bishop", "Mercenary 2"]],
        turn=1,
    )
    s = act(s, mk("play", 1, card=BISHOP, region=FIRENZE))
    assert [c for c, _ in s.lines[0]] == [M[3], M[1], M[1]]
    assert [c for c, _ in s.lines[1]] == [M[1], M[1]]
    assert R.strengths(s) == [5, 2]
    assert s.favor == FIRENZE
    assert s.discards[M[6]] == 2 and s.discards[BISHOP] == 1


def test_T8_end_of_round_keep_two_then_deal_up_to_ten_plus_regions() -> None:
    s = position(
        3,
        hands=[["Mercenary 1", "Mercenary 2", "Heroine", "Bishop", "Winter"], [], []],
        lines=[["Mercenary 10"], ["Mercenary 1"], []],
        owner={"Milano": 0},
        phase="place",
        battles=2,
    )
    s = act(s, mk("place", 0, region=TORINO))
    assert s.phase == "discard"  # step 4: the only seat with cards may discard (it holds mercenaries)
    assert R.legal_actions(s) == [mk("hold", 0)]
    s = act(s, mk("hold", 0))
    assert s.phase == "keep" and s.turn == 0
    assert all(len(a.cards) <= 2 for a in R.legal_actions(s))
    assert max(len(k) for k in R.keep_choices((M[1], M[1], M[1], HEROINE))) == 2
    s = act(s, mk("keep", 0, cards=(HEROINE, BISHOP)))
    assert s.phase == "play"
    assert [len(h) for h in s.hands] == [11, 10, 10]
    assert s.hands[0].count(HEROINE) >= 1 and BISHOP in s.hands[0]
    assert s.battle == TORINO and s.turn == 0


def test_T9_draw_after_battle_respects_the_hand_limit() -> None:
    config = CondottiereConfig(2, draw_after_battle=True)
    nine = ["Scarecrow"] * 9
    s = position(config=config, hands=[nine, ["Mercenary 2"] * 3],
                 lines=[["Mercenary 1"], ["Mercenary 10"]], owner={"Milano": 0},
                 passed=[0, 1], battle="Torino")
    s = act(s, mk("pass", 0))
    assert s.owner[TORINO] == 1
    assert s.phase == "take" and s.turn == 1  # clockwise from the new token holder
    assert [a.draws for a in R.legal_actions(s)] == [0, 1, 2, 3]
    s = act(s, mk("take", 1, draws=3))
    assert s.phase == "take" and s.turn == 0
    assert [a.draws for a in R.legal_actions(s)] == [0, 1, 2]  # 9 cards, limit 11
    s = act(s, mk("take", 0, draws=2))
    assert [len(h) for h in s.hands] == [11, 6]
    assert s.phase == "place" and s.turn == 1


def test_T10_a_bishop_ignores_face_down_mercenaries() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(
        config=config,
        lines=[["Mercenary 6", "Mercenary 6", "~Mercenary 10"],
               ["Mercenary 5", "Mercenary 1", "Mercenary 1"]],
        hands=[["Mercenary 2"], ["Bishop", "Mercenary 2"]],
        turn=1,
    )
    s = act(s, mk("play", 1, card=BISHOP, region=-1))
    assert s.lines[0] == ((M[10], 0),)
    assert [c for c, _ in s.lines[1]] == [M[5], M[1], M[1]]
    # a face-down mercenary as strong as the top face-up ones is spared too
    s = position(config=config, lines=[["Mercenary 6", "~Mercenary 6"], ["Mercenary 1"]],
                 hands=[["Mercenary 2"], ["Bishop", "Mercenary 2"]], turn=1)
    s = act(s, mk("play", 1, card=BISHOP, region=-1))
    assert s.lines[0] == ((M[6], 0),) and s.discards[M[6]] == 1


# -- decisions ---------------------------------------------------------------------------------


def test_D1_the_favor_cannot_go_on_the_region_fought_over() -> None:
    s = position(2, hands=[["Bishop"], ["Mercenary 1"]], battle="Firenze")
    targets = {a.region for a in R.legal_actions(s) if a.card == BISHOP}
    assert FIRENZE not in targets and TORINO in targets and -1 in targets
    with pytest.raises(IllegalActionError):
        RULES.apply(s, mk("play", 0, card=BISHOP, region=FIRENZE))


def test_D2_highest_means_printed_strength() -> None:
    # a Drummer doubles the 5 to 10, but the printed top is the 6
    lines = [["Mercenary 5", "Drummer"], ["Mercenary 6"]]
    s = position(2, lines=lines, hands=[["Bishop"], ["Mercenary 1"]])
    s = act(s, mk("play", 0, card=BISHOP))
    assert [c for c, _ in s.lines[0]] == [M[5], DRUMMER] and s.lines[1] == ()
    assert strength(lines[0], lines[1] + ["Spring"]) == [10, 9]


def test_D3_most_courtesans_takes_the_token_even_in_a_tie() -> None:
    s = position(3, lines=[["Courtesan", "Courtesan"], ["Mercenary 2"], []],
                 hands=[["Scarecrow"], [], []], passed=[0, 1, 1], holder=2, turn=0)
    s = act(s, mk("pass", 0))
    assert s.owner[TORINO] == -1 and s.holder == 0
    # the token would go left of its placer, Blue, to Green: the Courtesans take it from it
    s = position(3, lines=[["Courtesan", "Courtesan"], ["Mercenary 2"], []],
                 hands=[["Scarecrow"], [], []], passed=[0, 1, 1], holder=1, turn=0)
    s = act(s, mk("pass", 0))
    assert s.owner[TORINO] == -1 and s.holder == 0
    # and when the Courtesans lose the battle, they still take the token
    s = position(2, lines=[["Courtesan"], ["Mercenary 10"]], hands=[["Scarecrow"], []],
                 passed=[0, 1])
    s = act(s, mk("pass", 0))
    assert s.owner[TORINO] == 1 and s.holder == 0
    # a tie in Courtesans too: the token goes left of the seat that placed it
    s = position(3, lines=[["Courtesan"], ["Courtesan"], []], hands=[["Scarecrow"], [], []],
                 passed=[0, 1, 1], holder=1, turn=0)
    s = act(s, mk("pass", 0))
    assert s.owner[TORINO] == -1 and s.holder == 2


def test_D4_a_bishop_with_no_mercenary_in_play_still_moves_the_favor() -> None:
    s = position(2, lines=[["Heroine"], ["Courtesan"]], hands=[["Bishop"], ["Mercenary 1"]])
    s = act(s, mk("play", 0, card=BISHOP, region=MILANO))
    assert [c for c, _ in s.lines[0]] == [HEROINE] and [c for c, _ in s.lines[1]] == [COURTESAN]
    assert s.favor == MILANO


def test_D5_the_favor_may_leave_the_board_and_frees_its_region() -> None:
    s = position(2, hands=[["Bishop"], ["Mercenary 1"]], favor="Firenze", battle="Torino")
    assert FIRENZE not in R.battle_regions(s, 0)
    s = act(s, mk("play", 0, card=BISHOP, region=-1))
    assert s.favor == -1
    assert FIRENZE in R.battle_regions(s, 0)


def test_D6_seasons_and_drummers_count_at_conclusion() -> None:
    # the Drummer was played before the 5, the Winter before the 10: both still apply
    s = position(2, lines=[["Drummer"], ["Winter"]],
                 hands=[["Mercenary 5"], ["Mercenary 10"]])
    s = act(s, mk("play", 0, card=M[5]), mk("play", 1, card=M[10]))
    assert R.strengths(s) == [2, 1]


def test_D7_a_mercenary_taken_back_may_be_played_again() -> None:
    s = position(2, lines=[["Mercenary 6"], ["Mercenary 10"]],
                 hands=[["Scarecrow", "Mercenary 1"], ["Mercenary 1", "Mercenary 1"]])
    s = act(s, mk("play", 0, card=SCARECROW, taken=M[6]))
    assert s.lines[0] == () and M[6] in s.hands[0] and s.discards[SCARECROW] == 1
    s = act(s, mk("play", 1, card=M[1]))
    assert mk("play", 0, card=M[6]) in R.legal_actions(s)
    s = act(s, mk("play", 0, card=M[6]))
    assert s.lines[0] == ((M[6], 1),)


def test_D8_surrender_ties_and_modifiers() -> None:
    # a tie at the moment of the Surrender is a normal tie
    s = position(2, lines=[["Mercenary 5"], ["Mercenary 5"]], hands=[["Surrender"], ["Heroine"]])
    s = act(s, mk("play", 0, card=SURRENDER))
    assert s.owner[TORINO] == -1 and s.holder == 1 and s.battles == 2
    # as the first card of a battle: a tie at 0
    s = position(2, lines=[[], []], hands=[["Surrender"], ["Heroine"]])
    s = act(s, mk("play", 0, card=SURRENDER))
    assert s.owner[TORINO] == -1
    # end-of-battle modifiers count: the Drummer doubles 5 to beat 6
    s = position(2, lines=[["Mercenary 5", "Drummer"], ["Mercenary 6"]],
                 hands=[["Surrender"], ["Heroine"]])
    s = act(s, mk("play", 0, card=SURRENDER))
    assert s.owner[TORINO] == 0


def test_D9_hand_sizes_are_public() -> None:
    s = position(3, hands=[["Heroine", "Bishop"], ["Mercenary 1"] * 4, ["Winter"]])
    v = view(s, 0)
    assert [len(h) for h in v.hands] == [2, 4, 1]
    assert v.hands[1] == (UNKNOWN,) * 4 and v.hands[0] == s.hands[0]


def test_D10_a_token_holder_without_cards_still_chooses_the_battle() -> None:
    s = position(2, lines=[["Mercenary 10"], ["Mercenary 1"]], hands=[[], ["Heroine", "Winter"]],
                 passed=[1, 0], turn=1, holder=1)
    s = act(s, mk("pass", 1))
    assert s.owner[TORINO] == 0 and s.holder == 0 and s.hands[0] == ()
    assert s.phase == "place" and R.current_player(s) == 0
    assert len(R.legal_actions(s)) == 16


def test_D11_no_action_gives_cards_to_another_seat() -> None:
    assert set(ACTION_KINDS) == {
        "start", "draw", "place", "pass", "play", "reveal", "take", "hold", "discard", "keep"
    }
    rng = random.Random(11)
    config = CondottiereConfig(4, capturing_regions=True, hidden_cards=True)
    s = RULES.new_game(config)
    steps = 0
    while not R.is_over(s):
        a = rng.choice(R.legal_actions(s))
        after = R.apply_unchecked(s, a)
        for seat in range(4):
            if seat != a.seat:
                # a hand changes only by its own seat's actions and draws
                assert after.hands[seat] == s.hands[seat], (a, seat)
            elif a.kind not in ("draw", "start") and not (a.kind == "play" and a.card == SCARECROW):
                gained = [c for c in set(after.hands[seat]) if after.hands[seat].count(c) > s.hands[seat].count(c)]
                assert not gained, a
        s = after
        steps += 1
    assert steps > 100


def test_D12_discards_become_the_new_pile_when_it_runs_out() -> None:
    config = CondottiereConfig(2, draw_after_battle=True)
    s = position(config=config, hands=[["Heroine"], []], lines=[["Mercenary 10"], []],
                 passed=[0, 1], battle="Torino")
    # leave a single card in the pile: everything else is in the discards
    rest = list(s.pile)
    keep = rest[SCARECROW]
    s.discards = tuple(x if i != SCARECROW else x - 1 for i, x in enumerate(rest))
    s.pile = counts_of([SCARECROW])
    assert keep >= 1
    s = act(s, mk("pass", 0))  # seat 0 conquers Torino, then draws
    assert s.phase == "take" and s.turn == 0
    s = RULES.apply(s, mk("take", 0, draws=3))
    # the first draw empties the pile, the discards become the pile, the other two come from it
    s = advance(s, 3)
    assert len(s.hands[0]) == 4
    assert sum(s.pile) + sum(s.discards) == 110 - 4 - 1  # four in hand, the 10 in the line
    assert sum(s.discards) == 0
