"""The msgpack-rpc codec: what a peer sees for good, bad, split, glued and hostile frames."""

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.wire.errors import E_MALFORMED, E_TOO_LARGE, LocalProtocolError, RemoteProtocolError
from net.wire.rpc import FRAME_LIMIT, Codec, Notification, Request, Response, RpcError


def roundtrip(event):
    return Codec().receive_data(Codec().send(event))


def test_each_event_kind_round_trips():
    events = [
        Request(7, "hello", ({"name": "Ada", "key": b"k" * 32},)),
        Response(7, None, {"seat": 2}),
        Response(8, RpcError(4, "bad params"), None),
        Notification("entry", ({"body": b"x", "sig": b"y"},)),
    ]
    for e in events:
        assert roundtrip(e) == [e]


def test_wire_layout_is_msgpack_rpc():
    data = Codec().send(Request(1, "post", (1, "a")))
    assert msgpack.unpackb(data) == [0, 1, "post", [1, "a"]]
    data = Codec().send(Response(1, RpcError(9, "no"), None))
    assert msgpack.unpackb(data) == [1, 1, [9, "no"], None]
    assert msgpack.unpackb(Codec().send(Notification("bye", ()))) == [2, "bye", []]


def test_frames_split_at_every_byte_and_glued_together():
    a = Codec().send(Request(1, "hello", ("x" * 300,)))
    b = Codec().send(Notification("ready", ()))
    data = a + b
    for cut in range(len(data)):
        c = Codec()
        got = c.receive_data(data[:cut]) + c.receive_data(data[cut:])
        assert [type(e) for e in got] == [Request, Notification]


@pytest.mark.parametrize(
    "obj",
    [
        5,
        [],
        [3, 1, "x", []],
        [0, 1, "hello"],
        [0, -1, "hello", []],
        [0, 1 << 32, "hello", []],
        [0, 1, "Hello!", []],
        [0, 1, "", []],
        [0, 1, "hello", {"a": 1}],
        [1, 1, [1], None],
        [1, 1, ["x", "y"], None],
        [2, "entry", "params"],
        [0, 1, "hello", [1.5]],
    ],
)
def test_malformed_frames_are_the_remote_side_fault(obj):
    c = Codec()
    with pytest.raises(RemoteProtocolError) as info:
        c.receive_data(msgpack.packb(obj))
    assert info.value.code == E_MALFORMED
    with pytest.raises(RemoteProtocolError):  # a broken connection stays broken
        c.receive_data(Codec().send(Notification("bye", ())))


def test_extension_types_and_timestamps_are_refused():
    for value in (msgpack.ExtType(5, b"abc"), msgpack.Timestamp(1)):
        frame = msgpack.packb([2, "entry", [value]])
        with pytest.raises(RemoteProtocolError):
            Codec().receive_data(frame)


def test_non_string_map_keys_and_bad_utf8_are_refused():
    with pytest.raises(RemoteProtocolError):
        Codec().receive_data(msgpack.packb([2, "entry", [{1: 2}]]))
    bad_str = b"\x93\x02\xa5entry\x91\xa2\xff\xfe"  # [2, "entry", [<invalid utf-8 str>]]
    with pytest.raises(RemoteProtocolError):
        Codec().receive_data(bad_str)


def test_long_arrays_and_big_maps_are_refused():
    with pytest.raises(RemoteProtocolError):
        Codec().receive_data(msgpack.packb([2, "entry", list(range(1000))]))
    with pytest.raises(RemoteProtocolError):
        Codec().receive_data(msgpack.packb([2, "entry", [{str(i): i for i in range(100)}]]))


def nested(depth):
    """Params whose innermost value lies at ``depth`` (the frame array is depth 0)."""
    value = 1
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("params, code", [
    (list(range(65)), E_MALFORMED),  # an array over 64 items: malformed, not too large
    ([{str(i): i for i in range(33)}], E_MALFORMED),  # a map over 32 pairs
    (nested(9), E_MALFORMED),
    ([1.5], E_MALFORMED),
    ([b"x" * FRAME_LIMIT], E_TOO_LARGE),
])
def test_each_frame_error_gets_the_code_the_protocol_gives(params, code):
    with pytest.raises(RemoteProtocolError) as info:
        Codec().receive_data(msgpack.packb([2, "entry", params]))
    assert info.value.code == code


def test_the_limits_themselves_are_allowed():
    frame = [2, "entry", [list(range(64)), {str(i): i for i in range(32)}]]
    assert len(Codec().receive_data(msgpack.packb(frame))) == 1
    assert len(Codec().receive_data(msgpack.packb([2, "entry", nested(8)]))) == 1


def test_an_oversized_frame_is_refused_whole_or_in_pieces():
    frame = msgpack.packb([2, "entry", [b"x" * (FRAME_LIMIT + 10)]])
    with pytest.raises(RemoteProtocolError) as info:
        Codec().receive_data(frame)
    assert info.value.code == E_TOO_LARGE
    c = Codec()
    with pytest.raises(RemoteProtocolError) as info:
        for i in range(0, len(frame), 1000):
            c.receive_data(frame[i : i + 1000])
    assert info.value.code == E_TOO_LARGE


def test_a_huge_frame_of_small_pieces_is_refused():
    # arrays within the length limit, fed in small pieces, never fill the buffer: the frame
    # still counts as too large once it passes the limit
    cube = [[[1] * 64] * 64] * 64
    frame = msgpack.packb([2, "entry", [cube]])
    assert len(frame) > FRAME_LIMIT
    c = Codec()
    with pytest.raises(RemoteProtocolError) as info:
        for i in range(0, len(frame), 4096):
            c.receive_data(frame[i : i + 4096])
    assert info.value.code == E_TOO_LARGE


def test_sending_what_would_be_refused_is_a_local_error():
    with pytest.raises(ValueError):
        Request(1, "hello", ([1.5],))
    with pytest.raises(ValueError):
        Notification("BAD NAME", ())
    with pytest.raises(LocalProtocolError):
        Codec().send(Notification("entry", (b"x" * FRAME_LIMIT,)))


@given(st.binary(max_size=600))
def test_random_bytes_give_events_or_a_remote_error(data):
    c = Codec()
    try:
        c.receive_data(data)
    except RemoteProtocolError:
        pass


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.text(max_size=20)
    | st.binary(max_size=20) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=20,
)


@pytest.mark.long
@given(st.lists(values, max_size=5))
def test_random_msgpack_frames_give_events_or_a_remote_error(frame):
    try:
        data = msgpack.packb(frame)
    except (OverflowError, ValueError):
        return
    c = Codec()
    try:
        events = c.receive_data(data)
    except RemoteProtocolError:
        return
    for e in events:  # whatever got through is a valid event that encodes back the same
        assert Codec().receive_data(Codec().send(e)) == [e]
