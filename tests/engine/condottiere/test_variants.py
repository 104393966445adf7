"""The battle's turn order, victory and the end of a game, and the five variants."""

from __future__ import annotations

import random

import pytest

from engine.condottiere import RULES, CondottiereConfig
from engine.condottiere import rules as R
from engine.condottiere.cards import (
    BISHOP,
    SCARECROW,
    SPRING,
    WINTER,
    parse_card,
    region_index,
)
from engine.condottiere.game import make_config
from engine.condottiere.scenario import position
from engine.condottiere.state import State, mk
from engine.core import CHANCE, REVEAL, TERMINAL, IllegalActionError

M = {n: parse_card(f"Mercenary {n}") for n in (1, 2, 3, 4, 5, 6, 10)}
TORINO, MILANO, GENOVA, ROMA = (region_index(r) for r in ("Torino", "Milano", "Genova", "Roma"))


def advance(s: State, seed: int = 0) -> State:
    rng = random.Random(seed)
    while R.current_player(s) in (CHANCE, REVEAL):
        legal = R.legal_actions(s)
        s = R.apply_unchecked(s, rng.choice(legal) if R.current_player(s) == CHANCE else legal[0])
    return s


def act(s: State, *actions) -> State:
    for a in actions:
        s = advance(RULES.apply(s, a))
    return s


# -- the battle --------------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_token_holder_and_empty_hands_pass_at_once() -> None:
    s = position(4, hands=[["Mercenary 1"] * 2, [], ["Mercenary 2"], ["Mercenary 3"] * 2], holder=3)
    assert s.turn == 3
    s = act(s, mk("play", 3, card=M[3]))
    assert s.turn == 0
    s = act(s, mk("play", 0, card=M[1]))
    assert s.turn == 2 and s.passed[1] == 1  # seat 1 had no card: passed at once
    s = act(s, mk("pass", 2))
    # a passed seat never comes back; the last seat in plays on alone
    s = act(s, mk("pass", 3))
    assert s.phase == "play" and s.turn == 0 and s.hands[0] == (M[1],)
    s = act(s, mk("play", 0, card=M[1]))
    assert s.owner[TORINO] == 3  # seat 0 is out of cards: the battle ends, 3 beats 2


def test_a_battle_ends_when_all_have_passed_and_the_strongest_conquers() -> None:
    s = position(3, hands=[["Mercenary 1"] * 2, ["Mercenary 2"] * 2, ["Mercenary 3"]], holder=0)
    s = act(s, mk("play", 0, card=M[1]), mk("play", 1, card=M[2]), mk("pass", 2), mk("pass", 0))
    assert s.phase == "play" and s.turn == 1
    s = act(s, mk("pass", 1))
    assert s.owner[TORINO] == 1 and s.holder == 1 and s.phase == "place"


def test_winter_and_spring_discard_each_other() -> None:
    s = position(2, lines=[["Winter", "Mercenary 10"], ["Winter"]],
                 hands=[["Spring"], ["Winter"]])
    s = act(s, mk("play", 0, card=SPRING))
    assert [c for c, _ in s.lines[0]] == [M[10], SPRING] and s.lines[1] == ()
    assert s.discards[WINTER] == 2
    s = act(s, mk("play", 1, card=WINTER))
    assert [c for c, _ in s.lines[0]] == [M[10]] and [c for c, _ in s.lines[1]] == [WINTER]


def test_a_scarecrow_takes_back_only_own_face_up_mercenaries() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(config=config, lines=[["Mercenary 6", "~Mercenary 10", "Heroine"], ["Mercenary 5"]],
                 hands=[["Scarecrow"], ["Mercenary 1"]])
    picks = {a.taken for a in R.legal_actions(s) if a.card == SCARECROW}
    assert picks == {-1, M[6]}
    with pytest.raises(IllegalActionError):
        RULES.apply(s, mk("play", 0, card=SCARECROW, taken=M[10], flip=0))


def test_victory_thresholds_by_player_count_and_bigger_kingdoms() -> None:
    assert R.thresholds(R.new_game(CondottiereConfig(2))) == (6, 4)
    assert R.thresholds(R.new_game(CondottiereConfig(3))) == (6, 4)
    assert R.thresholds(R.new_game(CondottiereConfig(4))) == (5, 3)
    assert R.thresholds(R.new_game(CondottiereConfig(6))) == (5, 3)
    assert R.thresholds(R.new_game(CondottiereConfig(3, bigger_kingdoms=True))) == (6, 5)
    assert R.thresholds(R.new_game(CondottiereConfig(5, bigger_kingdoms=True))) == (5, 4)


def win_torino(config: CondottiereConfig, owner: dict[str, int]) -> State:
    s = position(config=config, lines=[["Mercenary 10"]] + [[]] * (config.players - 1),
                 hands=[["Scarecrow"]] + [[]] * (config.players - 1), owner=owner,
                 passed=[0] + [1] * (config.players - 1))
    return act(s, mk("pass", 0))


def test_connected_regions_win() -> None:
    s = win_torino(CondottiereConfig(4), {"Milano": 0, "Venezia": 0})
    assert R.is_over(s) and s.winners == (0,) and s.end == R.END_ADJACENT
    # with Bigger Kingdoms three are not enough
    s = win_torino(CondottiereConfig(4, bigger_kingdoms=True), {"Milano": 0, "Venezia": 0})
    assert not R.is_over(s)


def test_regions_in_total_win() -> None:
    owner = {"Roma": 0, "Venezia": 0, "Lucca": 0, "Ancona": 0}
    s = win_torino(CondottiereConfig(4), owner)
    assert R.is_over(s) and s.end == R.END_TOTAL
    assert not R.is_over(win_torino(CondottiereConfig(3), owner))
    assert RULES.outcome(s).scores == (5, 0, 0, 0)


def scattered(counts: list[int], conqueror: int) -> dict[str, int]:
    """Owners for every region but Torino, ``counts[q]`` regions to seat ``q``, no seat holding
    two neighbouring regions, Torino counted as the ``conqueror``'s (a deterministic search)."""
    from engine.condottiere.cards import NEIGHBOURS, REGIONS

    left = list(counts)
    owner: dict[int, int] = {0: conqueror}

    def place(r: int) -> bool:
        if r == 17:
            return not any(left)
        for q in range(len(left)):
            if left[q] and not any(owner.get(x) == q for x in range(17) if NEIGHBOURS[r] >> x & 1):
                owner[r] = q
                left[q] -= 1
                if place(r + 1):
                    return True
                left[q] += 1
                del owner[r]
        return False

    assert place(1)
    return {REGIONS[r]: q for r, q in owner.items() if r != 0}


def exhausted_position(counts: list[int], conqueror: int) -> State:
    """A battle for Torino, the last free region, that ``conqueror`` is about to win."""
    n = len(counts)
    config = CondottiereConfig(n)
    lines: list[list[str]] = [[] for _ in range(n)]
    lines[conqueror] = ["Mercenary 10"]
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[conqueror] = ["Scarecrow"]
    owner = scattered(counts, conqueror)
    assert not (NEIGHBOUR_OF_TORINO & {region_index(r) for r, q in owner.items() if q == conqueror})
    return position(config=config, lines=lines, hands=hands, owner=owner, holder=conqueror,
                    passed=[0 if q == conqueror else 1 for q in range(n)])


NEIGHBOUR_OF_TORINO = {MILANO, GENOVA}


def test_an_exhausted_board_goes_to_the_most_regions() -> None:
    s = exhausted_position([3, 3, 3, 3, 2, 2], conqueror=0)
    s = act(s, mk("pass", 0))
    assert R.is_over(s) and s.end == R.END_EXHAUSTED and s.winners == (0,)
    assert RULES.outcome(s).scores == (4, 3, 3, 3, 2, 2)


def test_a_tie_on_an_exhausted_board_is_settled_by_a_final_battle_among_the_tied() -> None:
    s = exhausted_position([4, 3, 3, 2, 2, 2], conqueror=1)
    s.holder = 3
    s = act(s, mk("pass", 1))
    assert not R.is_over(s) and s.final == 1 and s.fighters == (0, 1)
    assert s.holder == 1  # the winner of the last battle holds the token and starts
    assert s.turn == 1 and [len(h) for h in s.hands] == [14, 14, 0, 0, 0, 0]
    s = act(s, mk("play", 1, card=R.legal_actions(s)[1].card))
    while not R.is_over(s):
        s = act(s, mk("pass", s.turn))
    assert s.end == R.END_FINAL and len(s.winners) >= 1 and set(s.winners) <= {0, 1}
    assert RULES.outcome(s).scores == (4, 4, 3, 2, 2, 2)


def test_the_final_battle_deals_the_tied_ten_plus_regions_and_they_alone_fight() -> None:
    config = CondottiereConfig(3)
    s = position(config=config, hands=[["Heroine"], ["Winter"], ["Bishop"]],
                 lines=[["Mercenary 5"], ["Mercenary 2"], []], owner={"Roma": 0, "Siena": 1},
                 holder=2, turn=0, battles=R.MAX_BATTLES - 1, passed=[0, 1, 1])
    s = act(s, mk("pass", 0))  # seat 0 conquers Torino: 2, 1, 0 regions; the long war ends
    assert R.is_over(s) and s.end == R.END_LIMIT and s.winners == (0,)
    s = position(config=config, hands=[["Heroine"], ["Winter"], ["Bishop"]],
                 lines=[["Mercenary 5"], ["Mercenary 5"], []], owner={"Roma": 0, "Siena": 1},
                 holder=2, turn=0, battles=R.MAX_BATTLES - 1, passed=[0, 1, 1])
    s = act(s, mk("pass", 0))  # a tie: 1, 1, 0 regions at the limit -> final battle of 0 and 1
    assert s.final == 1 and s.fighters == (0, 1)
    assert [len(h) for h in s.hands] == [11, 11, 0]
    assert s.passed == (0, 0, 1) and s.turn == 0  # the token holder (2) is out: its left, 0
    assert sum(s.pile) == 110 - 22
    s = act(s, mk("pass", 0), mk("pass", 1))
    assert R.is_over(s) and s.end == R.END_FINAL and s.winners == (0, 1)  # a tie: shared
    assert RULES.outcome(s).scores == (1, 1, 0)


# -- Capturing Regions -------------------------------------------------------------------------


def test_capturing_the_token_may_go_on_another_players_region() -> None:
    config = CondottiereConfig(3, capturing_regions=True)
    s = position(config=config, owner={"Milano": 1, "Genova": 0}, favor="Roma", phase="place",
                 battles=0, hands=[["Mercenary 1"], ["Mercenary 1"], ["Mercenary 1"]])
    regions = R.battle_regions(s, 0)
    assert MILANO in regions and GENOVA not in regions and ROMA not in regions
    s = act(s, mk("place", 0, region=MILANO))
    assert s.defender == 1 and s.free == 1


def test_the_defender_passes_freely_until_it_plays() -> None:
    config = CondottiereConfig(3, capturing_regions=True)
    s = position(config=config, owner={"Torino": 1},
                 hands=[["Mercenary 5", "Mercenary 1"], ["Mercenary 6", "Mercenary 1"], ["Mercenary 2"]])
    assert s.defender == 1
    s = act(s, mk("play", 0, card=M[5]), mk("pass", 1), mk("pass", 2))
    assert s.turn == 0
    s = act(s, mk("pass", 0))
    # everyone else is out: the defender may still play
    assert s.phase == "play" and s.turn == 1 and s.passed[1] == 0
    s = act(s, mk("play", 1, card=M[6]))
    assert s.free == 0 and s.turn == 1  # from now on normal passing
    s = act(s, mk("pass", 1))
    assert s.owner[TORINO] == 1 and s.holder == 1


def test_capture_replaces_the_marker_and_a_tie_keeps_it_for_the_defender() -> None:
    config = CondottiereConfig(2, capturing_regions=True)
    s = position(config=config, owner={"Torino": 1}, lines=[["Mercenary 6"], ["Mercenary 5"]],
                 hands=[["Scarecrow"], ["Scarecrow"]], passed=[0, 0])
    s = act(s, mk("pass", 0), mk("pass", 1))
    assert s.owner[TORINO] == 0
    # a tie: the defender keeps the region and takes the token (over the Courtesans)
    s = position(config=config, owner={"Torino": 1}, lines=[["Mercenary 1", "Courtesan"], ["Mercenary 2"]],
                 hands=[["Scarecrow"], ["Scarecrow"]])
    s = act(s, mk("pass", 0), mk("pass", 1))
    assert s.owner[TORINO] == 1 and s.holder == 1


def test_capturing_a_bishop_may_put_the_favor_on_a_controlled_region() -> None:
    config = CondottiereConfig(2, capturing_regions=True)
    s = position(config=config, owner={"Milano": 1}, hands=[["Bishop"], ["Mercenary 1"]])
    targets = {a.region for a in R.legal_actions(s) if a.card == BISHOP}
    assert MILANO in targets and TORINO not in targets
    base = position(2, owner={"Milano": 1}, hands=[["Bishop"], ["Mercenary 1"]])
    assert MILANO not in {a.region for a in R.legal_actions(base) if a.card == BISHOP}


# -- Hidden Cards ------------------------------------------------------------------------------


def test_hidden_cards_showdown_reveals_everything_before_strength() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(config=config, lines=[["~Mercenary 10", "Mercenary 1"], ["~Heroine", "~Drummer"]],
                 hands=[["Surrender"], ["Mercenary 1"]])
    s = RULES.apply(s, mk("play", 0, card=parse_card("Surrender")))
    assert R.current_player(s) == REVEAL and s.phase == "showdown" and R.revealer(s) == 0
    s = RULES.apply(s, R.legal_actions(s)[0])
    assert R.revealer(s) == 1
    s = advance(s)
    assert s.owner[TORINO] == 0 and all(up for line in s.lines for _, up in line)


def test_hidden_cards_which_cards_go_face_down() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(config=config, hands=[["Winter", "Courtesan", "Mercenary 3"], ["Spring"]])
    assert RULES.apply(s, mk("play", 0, card=WINTER)).lines[0] == ((WINTER, 1),)
    assert RULES.apply(s, mk("play", 0, card=parse_card("Courtesan"))).lines[0][0][1] == 0
    assert RULES.apply(s, mk("play", 0, card=M[3])).lines[0][0][1] == 0
    # a passing seat keeps its face-down cards hidden until the end
    s = position(config=config, lines=[["~Mercenary 3"], []], hands=[["Spring"], ["Spring"]])
    s = act(s, mk("pass", 0))
    assert s.lines[0] == ((M[3], 0),)
    # playing again turns one up: the choice is part of the play
    s = position(config=config, lines=[["~Mercenary 3", "~Mercenary 6"], []],
                 hands=[["Spring"], ["Spring"]])
    assert [a.flip for a in R.legal_actions(s) if a.kind == "play"] == [0, 1]
    s = act(s, mk("play", 0, card=SPRING, flip=1))
    assert s.lines[0] == ((M[3], 0), (M[6], 1), (SPRING, 1))


# -- Draw After Battle -------------------------------------------------------------------------


def test_draw_after_battle_starts_with_seven_and_has_no_rounds() -> None:
    config = CondottiereConfig(3, draw_after_battle=True)
    s = advance(RULES.new_game(config))
    assert [len(h) for h in s.hands] == [7, 7, 7]
    # when nobody holds a card after a battle, everyone draws ten
    s = position(config=config, lines=[["Mercenary 10"], [], []],
                 hands=[["Scarecrow"], [], []], passed=[0, 1, 1])
    s = act(s, mk("play", 0, card=SCARECROW, taken=-1))  # its last card: the battle ends
    assert s.owner[TORINO] == 0
    assert [len(h) for h in s.hands] == [10, 10, 10]
    assert s.phase == "place"


# -- Playing For Points ------------------------------------------------------------------------


def test_points_regions_plus_five_for_connected_regions_then_a_new_game() -> None:
    config = CondottiereConfig(4, playing_for_points=True, target_score=20)
    s = win_torino(config, {"Milano": 0, "Venezia": 0, "Roma": 1, "Siena": 2})
    assert not R.is_over(s) and s.games == 1 and s.battles == 0
    assert s.points == (3 + 5, 1, 1, 0)
    # a new game: an empty board, a new starting player, ten fresh cards each
    assert s.owner == (-1,) * 17 and s.phase == "place"
    assert [len(h) for h in s.hands] == [10] * 4 and sum(s.pile) == 70


def test_points_the_match_ends_at_the_target_with_the_highest_total() -> None:
    config = CondottiereConfig(4, playing_for_points=True, target_score=20)
    s = win_torino(config, {"Milano": 0, "Venezia": 0})
    s2 = position(config=config, lines=[["Mercenary 10"], [], [], []],
                  hands=[["Scarecrow"], [], [], []], owner={"Milano": 0, "Venezia": 0},
                  passed=[0, 1, 1, 1], points=(12, 19, 3, 3))
    s2 = act(s2, mk("pass", 0))
    assert R.is_over(s2) and s2.end == R.END_TARGET and s2.winners == (0,)
    assert RULES.outcome(s2).scores == (20, 19, 3, 3)
    assert s.points[0] == 8


def test_points_a_tie_at_the_target_is_settled_by_a_final_battle() -> None:
    config = CondottiereConfig(2, playing_for_points=True, target_score=10)
    s = position(config=config, lines=[["Mercenary 10"], []], hands=[["Scarecrow"], []],
                 owner={"Milano": 0, "Venezia": 0, "Mantova": 0}, passed=[0, 1],
                 points=(2, 11))
    s = act(s, mk("pass", 0))  # 4 connected: 4 + 5 points -> 11 each
    assert s.points == (11, 11) and s.final == 2 and s.fighters == (0, 1)
    assert [len(h) for h in s.hands] == [14, 10]
    while not R.is_over(s):
        s = act(s, mk("pass", s.turn))
    assert s.end == R.END_MATCH_FINAL and s.winners == (0, 1)


def test_points_with_capturing_regions_is_allowed_with_a_warning() -> None:
    config = make_config(4, {"playing_for_points": 30, "capturing_regions": True})
    assert config.target_score == 30 and config.capturing_regions
    assert any("advises against" in w for w in config.warnings())
    assert make_config(4, {"playing_for_points": True}).target_score == 20
    assert not make_config(4, {"playing_for_points": True}).warnings()


def test_bad_options_and_player_counts_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        make_config(7, {})
    with pytest.raises(ValueError, match="unknown option 'fog'"):
        make_config(4, {"fog": True})
    with pytest.raises(ValueError, match="takes no value"):
        make_config(4, {"hidden_cards": 3})
    with pytest.raises(ValueError, match="target score"):
        make_config(4, {"playing_for_points": 0})


def test_every_game_and_match_ends_even_when_everyone_always_passes() -> None:
    for config in (CondottiereConfig(2), CondottiereConfig(4, draw_after_battle=True),
                   CondottiereConfig(3, playing_for_points=True, target_score=2, capturing_regions=True)):
        s = RULES.new_game(config)
        rng = random.Random(1)
        while R.current_player(s) != TERMINAL:
            who = R.current_player(s)
            legal = R.legal_actions(s)
            if who == CHANCE:
                a = rng.choice(legal)
            else:
                passes = [a for a in legal if a.kind in ("pass", "hold", "take")]
                a = passes[0] if passes else legal[0]
            s = R.apply_unchecked(s, a)
        o = RULES.outcome(s)
        if config.playing_for_points:
            assert o.end in (R.END_GAME_LIMIT, R.END_MATCH_FINAL) and s.games == R.game_limit(s)
        else:
            assert o.end in (R.END_LIMIT, R.END_FINAL) and s.battles == R.MAX_BATTLES


def test_hidden_cards_players_announce_only_their_face_up_strength() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(config=config, lines=[["Mercenary 6", "~Drummer", "~Heroine"], ["~Mercenary 10"]])
    assert R.announced_strengths(s) == [6, 0]
    assert R.strengths(s) == [22, 10]
    assert R.own_strength(s, 0) == 22 and R.own_strength(s, 1) == 10
