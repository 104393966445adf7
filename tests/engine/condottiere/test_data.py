"""Plain data and bad input: round trips, clear errors, readable texts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.condottiere import RULES, CondottiereConfig
from engine.condottiere.cards import BISHOP, SCARECROW, parse_card, region_index
from engine.condottiere.scenario import position
from engine.condottiere.state import ACTION_KINDS, Action, State, mk
from engine.core import InvalidActionError, InvalidStateError
from engine.registry import get_game


def test_the_registry_knows_condottiere() -> None:
    entry = get_game("condottiere")
    assert entry.rules is RULES and RULES.name == "condottiere"
    assert (RULES.min_players, RULES.max_players) == (2, 6)
    assert set(entry.bot_names()) >= {"random", "greedy"}
    assert RULES.seat_names[:2] == ("Red", "Blue")


def test_states_and_actions_round_trip() -> None:
    config = CondottiereConfig(3, hidden_cards=True, playing_for_points=True, target_score=30)
    s = position(config=config, lines=[["~Mercenary 10", "Winter"], [], ["Heroine"]],
                 hands=[["Bishop"], ["Scarecrow", "Scarecrow"], []], owner={"Roma": 1})
    assert State.from_data(s.to_data()) == s
    assert eval(repr(s), {"State": State}) == s
    a = mk("play", 0, card=BISHOP, region=region_index("Roma"))
    assert Action.from_data(a.to_data()) == a
    assert a.to_data() == {"kind": "play", "seat": 0, "card": BISHOP, "target": 10 + 5}


@pytest.mark.parametrize(("action", "data"), [
    (mk("place", 1, region=4), {"kind": "place", "seat": 1, "target": 4}),
    (mk("play", 0, card=BISHOP, region=7, flip=1), {"kind": "play", "seat": 0, "card": BISHOP,
                                              "target": 7, "flip": 1}),
    (mk("play", 0, card=BISHOP), {"kind": "play", "seat": 0, "card": BISHOP}),
    (mk("play", 2, card=SCARECROW, taken=5), {"kind": "play", "seat": 2, "card": SCARECROW,
                                        "target": 5}),
    (mk("reveal", 0, card=3, position=2), {"kind": "reveal", "seat": 0, "card": 3, "target": 2}),
    (mk("reveal", 0, card=3, position=0), {"kind": "reveal", "seat": 0, "card": 3, "target": 0}),
    (mk("take", 1, draws=0), {"kind": "take", "seat": 1, "target": 0}),
    (mk("take", 1, draws=3), {"kind": "take", "seat": 1, "target": 3}),
])
def test_each_action_field_travels_as_the_target_of_its_kind(action: Action, data: dict) -> None:
    assert action.to_data() == data
    assert Action.from_data(data) == action


@pytest.mark.parametrize("bad", [
    {"kind": "pass", "seat": 0, "target": 3}, {"kind": "play", "seat": 0, "card": 2, "target": 3},
    {"kind": "keep", "seat": 0, "cards": [1], "target": 0},
])
def test_a_target_on_an_action_that_has_none_is_refused(bad: dict) -> None:
    with pytest.raises(InvalidActionError, match="target"):
        Action.from_data(bad)


@pytest.mark.parametrize("bad", [mk("pass", 0, region=3), mk("place", 0, region=1, draws=2),
                                 mk("play", 0, card=BISHOP, taken=4)])
def test_an_action_with_a_field_its_kind_does_not_use_is_not_written(bad: Action) -> None:
    with pytest.raises(InvalidActionError):
        bad.to_data()


@pytest.mark.parametrize("bad", [
    None, [], {"kind": "fly", "seat": 0}, {"kind": "pass"}, {"kind": "pass", "seat": 9},
    {"kind": "play", "seat": 0, "card": 99}, {"kind": "play", "seat": 0, "card": "Heroine"},
    {"kind": "keep", "seat": 0, "cards": [1, "x"]}, {"kind": "pass", "seat": 0, "colour": 1},
])
def test_malformed_actions_are_invalid(bad: object) -> None:
    s = position(2, hands=[["Heroine"], ["Heroine"]])
    with pytest.raises(InvalidActionError):
        RULES.apply(s, bad)


@pytest.mark.parametrize("bad", [
    None, {}, {"phase": "play"},
])
def test_malformed_states_are_invalid(bad: object) -> None:
    with pytest.raises(InvalidStateError):
        State.from_data(bad)


def test_a_state_with_a_wrong_field_is_invalid() -> None:
    d = position(2).to_data()
    d["hands"] = [[1], [2], [3]]
    with pytest.raises(InvalidStateError, match="2 seats"):
        State.from_data(d)
    d = position(2).to_data()
    d["owner"] = [5] * 17
    with pytest.raises(InvalidStateError):
        State.from_data(d)
    d = position(2).to_data()
    d["turn"] = 2
    with pytest.raises(InvalidStateError, match="turn"):
        State.from_data(d)


def test_action_texts_read_as_the_table_says_them() -> None:
    s = position(2, hands=[["Mercenary 6", "Bishop", "Scarecrow"], ["Surrender"]],
                 lines=[["Mercenary 10"], []])
    text = RULES.action_text
    assert text(s, mk("play", 0, card=parse_card("Mercenary 6"))) == "Red: plays Mercenary 6"
    assert text(s, mk("play", 0, card=BISHOP, region=region_index("Firenze"))) == \
        "Red: Bishop, Favor of the Pope to Firenze"
    assert text(s, mk("play", 0, card=BISHOP)) == "Red: Bishop, Favor of the Pope off the board"
    assert text(s, mk("play", 0, card=SCARECROW, taken=parse_card("Mercenary 10"))) == \
        "Red: Scarecrow, takes back Mercenary 10"
    assert text(s, mk("pass", 1)) == "Blue: passes"
    assert text(s, mk("draw", 1, card=BISHOP), 0) == "Blue draws a card"
    assert text(s, mk("draw", 1, card=BISHOP), 1) == "Blue draws Bishop"
    assert text(s, mk("place", 0, region=region_index("Napoli"))) == \
        "Red: places the Condottiere token on Napoli"


def test_outcome_of_an_unfinished_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        RULES.outcome(position(2))


_any_int = st.integers(-(2**63), 2**64 - 1)


@given(st.sampled_from(ACTION_KINDS), _any_int, _any_int, _any_int, _any_int,
       st.lists(_any_int, max_size=4), st.one_of(st.none(), st.integers(-3, 7)),
       st.sampled_from([0, 9, 30]), st.booleans())
def test_every_text_of_any_action_is_written_and_ends(budget, kind, seat, card, target, flip,
                                                      cards, viewer, moves, hidden) -> None:
    from engine.condottiere import text

    state = RULES.new_game(CondottiereConfig(3, hidden_cards=hidden))
    for _ in range(moves):
        if RULES.current_player(state) == -3:
            break
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    a = Action(kind, seat, card=card, region=target, taken=target, position=target, draws=target,
               flip=flip, cards=tuple(cards))
    with budget(2):
        assert isinstance(text.action_text(state, a, viewer), str)
        assert isinstance(text.summary(state), str)
