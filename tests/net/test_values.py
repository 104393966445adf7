"""Plain protocol values: what the codec, a record and the fair deck's log take, read once at
their boundary, and the clear error for anything else."""

import pytest

from net.deck.deck_log import replay
from net.deck.fair_deck import FairDeck
from net.session.machines.conversation import typed
from net.wire.errors import RemoteProtocolError
from net.wire.rpc import as_value, is_value
from tests.net.test_deck import TABLE, table


def test_plain_data_is_a_value_and_anything_else_is_refused_by_name():
    assert is_value({"seat": 1, "cards": [b"x", "y", None, True, (2, 3)]})
    assert as_value({"a": [1]}) == {"a": [1]}
    assert not is_value({"score": 1.5})
    assert not is_value({1: "a"})
    with pytest.raises(ValueError, match="float"):
        as_value([1.5])
    with pytest.raises(ValueError, match="map keys must be strings"):
        as_value({1: "a"})


def test_a_field_is_read_in_its_own_type_or_refused_naming_it():
    m = {"name": "Ada", "have": 3, "watch": True, "key": b"k" * 32}
    assert typed(m, "name", str) == "Ada"
    assert typed(m, "key", bytes, size=32) == b"k" * 32
    assert typed(m, "missing", int, optional=True) is None
    with pytest.raises(RemoteProtocolError, match="field 'watch' must be int"):
        typed(m, "watch", int)  # a bool is not an int on the wire
    with pytest.raises(RemoteProtocolError, match="'name' must be bytes of 32 bytes"):
        typed(m, "name", bytes, size=32)


def test_a_deck_log_entry_of_another_shape_is_refused_with_a_clear_error():
    t = table(seats=2, cards=6)
    watcher = FairDeck(t.keys, "d", TABLE, range(6))
    msg = t.peers[0].decks["d"].log[1]
    with pytest.raises(ValueError, match="a log entry of a message is"):
        replay(watcher, {**msg, "author": "seat 0"})
    with pytest.raises(ValueError, match="a log entry of a deal names a seat"):
        replay(watcher, {"op": "deal", "to": "everyone"})
    with pytest.raises(ValueError, match="a log entry of a reshuffle lists its cards"):
        replay(watcher, {"op": "reshuffle", "cards": [1, "two"]})
    assert replay(watcher, msg) is not None  # the well-formed entry is still taken
