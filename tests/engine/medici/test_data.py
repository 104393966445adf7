"""Plain data: actions, states and configurations round-trip exactly, and junk is refused with
the project's own errors (never a crash)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import InvalidActionError, InvalidStateError
from engine.medici import RULES, MediciConfig
from engine.medici.cards import long_name, parse_card
from engine.medici.scenario import card_of, code_of, position
from engine.medici.state import FIELD_RANGES, KINDS, NONE, Action, State, place_of, target_field
from engine.medici.text import parse_stack_label, stack_label


def _in_range(name):
    lo, hi = FIELD_RANGES[name]
    return st.integers(lo, hi)


@st.composite
def _actions(draw):
    """Any action in range, its kind's holder, slot or stack (``target_field``) among them."""
    kind = draw(st.sampled_from(KINDS))
    values = {n: draw(_in_range(n)) for n in ("seat", "card", "value", "elim", "extra")}
    field = target_field(kind)
    if field is not None:
        values[field] = draw(_in_range("target"))
    return Action(kind, **values)


actions = _actions()
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(actions)
def test_action_round_trips_through_plain_data_and_json(a):
    assert Action.from_data(a.to_data()) == a
    assert Action.from_data(json.loads(json.dumps(a.to_data()))) == a
    assert eval(repr(a), {"Action": Action}) == a


@given(st.sampled_from(sorted(FIELD_RANGES)), st.booleans(), st.integers(1, 2**70))
def test_a_field_outside_its_range_is_refused_naming_the_field(name, below, by):
    lo, hi = FIELD_RANGES[name]
    data = {"kind": "build", "seat": 0, name: lo - by if below else hi + by}
    with pytest.raises(InvalidActionError, match=f"action field {name} must be an int from {lo}"):
        Action.from_data(data)


@given(junk)
def test_junk_is_never_an_action_by_accident(data):
    try:
        a = Action.from_data(data)
    except InvalidActionError:
        return
    assert a.to_data() == data


@given(st.dictionaries(st.sampled_from(["kind", "seat", "card", "value", "target", "elim", "extra", "x"]),
                       junk | st.integers(-3, 1000), max_size=7))
def test_actions_with_wrong_fields_are_invalid(data):
    well_formed = (
        "x" not in data
        and data.get("kind") in KINDS
        and "seat" in data
        and all(type(v) is int and FIELD_RANGES[k][0] <= v <= FIELD_RANGES[k][1]
                for k, v in data.items() if k != "kind")
        and (data.get("target", NONE) == NONE or target_field(data["kind"]) is not None)
    )
    try:
        a = Action.from_data(data)
    except InvalidActionError:
        assert not well_formed
        return
    assert well_formed and all((place_of(a) if k == "target" else getattr(a, k)) == v for k, v in data.items())


@pytest.mark.parametrize(("kind", "field"), [
    ("hide", "before"), ("top", "slot"), ("flip", "slot"), ("strike", "slot"), ("reveal", "slot"),
    ("build", "stack"), ("conspire", "stack"),
])
def test_the_wire_target_carries_the_holder_slot_or_stack_of_the_kind(kind, field):
    data = {"kind": kind, "seat": 1, "card": 7, "target": 2}
    a = Action.from_data(data)
    assert getattr(a, field) == 2
    assert {a.before, a.slot, a.stack} - {2} == {NONE}
    assert a.to_data() == data


@pytest.mark.parametrize("kind", ["draw", "first", "court", "plan", "resolve", "stuck"])
def test_a_target_on_a_kind_that_names_no_place_is_refused(kind):
    with pytest.raises(InvalidActionError, match=f"action field target is not used by a {kind}"):
        Action.from_data({"kind": kind, "seat": 0, "target": 0})
    assert Action.from_data({"kind": kind, "seat": 0, "target": NONE}) == Action(kind, 0)


def test_a_field_of_another_kind_is_never_written():
    with pytest.raises(InvalidActionError, match="a strike has no stack"):
        Action("strike", 0, card=7, value=8, stack=1).to_data()
    with pytest.raises(InvalidActionError, match="a court has no before"):
        Action("court", 0, card=7, value=8, before=1).to_data()


STATE = position(hands=["O5 OJ", "C2", "R3", "G4"], middle=["C10 GJ=4", "O9"])


@given(st.sampled_from(sorted(STATE.to_data())), junk)
def test_a_state_with_a_bad_field_is_refused_cleanly(field, value):
    data = STATE.to_data()
    data[field] = value
    try:
        s = State.from_data(data)
    except InvalidStateError:
        return
    assert State.from_data(s.to_data()) == s


def test_state_round_trips_and_repr_rebuilds_it():
    assert State.from_data(STATE.to_data()) == STATE
    assert eval(repr(STATE), {"State": State}) == STATE
    assert RULES.state_from_data(json.loads(json.dumps(RULES.state_to_data(STATE)))) == STATE


def test_configuration_round_trips():
    for config in (MediciConfig(3), MediciConfig(4, True), MediciConfig(4, False, (30, 9, 41, 9))):
        assert MediciConfig.from_data(json.loads(json.dumps(config.to_data()))) == config
    for bad in ({"players": 2}, {"players": 5}, {"players": 4, "ages": [1, 2]},
                {"players": 4, "end_when_all_struck": 1}, {"players": 4, "colour": "red"}, [4]):
        with pytest.raises(InvalidStateError):
            MediciConfig.from_data(bad)


@given(st.integers(0, 100_000))
def test_stack_labels_round_trip(sid):
    label = stack_label(sid)
    assert label.isalpha() and label.isupper() and parse_stack_label(label) == sid


any_int = st.integers(-(2**63), 2**64 - 1)


@given(st.sampled_from(KINDS), any_int, any_int, any_int, any_int, any_int, any_int,
       st.one_of(st.none(), st.integers(-3, 5)), st.sampled_from([0, 7, 40]))
def test_every_text_of_any_action_is_written_and_ends(budget, kind, seat, card, value, target,
                                                      elim, extra, viewer, moves):
    # a stack number of -2 once sent stack_label into a loop that never ended
    from engine.medici import text

    state = RULES.new_game(MediciConfig(3))
    for _ in range(moves):
        if RULES.current_player(state) == -3:
            break
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    a = Action(kind, seat, card=card, value=value, before=target, slot=target, stack=target, elim=elim, extra=extra)
    with budget(2):
        assert isinstance(text.action_text(state, a, viewer), str)
        assert isinstance(text.summary(state), str)
        assert text.stack_label(target) and long_name(card)


def test_a_stack_number_no_stack_has_is_written_as_a_number(budget):
    with budget(2):
        assert [stack_label(i) for i in (-1, -2, -(2**63))] == ["#-1", "#-2", f"#{-(2**63)}"]


def test_stack_labels_run_a_to_z_then_aa():
    assert [stack_label(i) for i in (0, 1, 25, 26, 27, 701, 702)] == ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]


def test_card_names_and_codes_round_trip():
    for c in range(4 * 13):
        assert parse_card(long_name(c)) == c
        assert card_of(code_of(c)) == c


@pytest.mark.parametrize("field, value", [
    ("turn", 4), ("next_sid", 1), ("turns", -1), ("limits", [16, -1, -1, -1]),
    ("eliminated", [52]), ("hands", [[60], [], [], []]), ("shown", [-3, -2, -2, -2]),
    ("middle", [[0, 5, [[3, 5]]], [0, 9, [[20, 9]]]]), ("middle", [[0, 99, [[99, 99]]]]),
    ("pending", [3, 3, 5, -2]), ("alliances", [[[7, 1, 2, 1], None, None]] + [[None] * 3] * 3),
])
def test_a_state_with_numbers_out_of_range_is_refused(field, value):
    data = STATE.to_data()
    data[field] = value
    with pytest.raises(InvalidStateError):
        State.from_data(data)
