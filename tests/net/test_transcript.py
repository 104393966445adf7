"""The signed, chained transcript: what a reader accepts and refuses."""

import msgpack
import pytest

from net.session.records.verify import read_entries
from net.wire.errors import E_OUT_OF_ORDER, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import MAGIC, Entry, Transcript, chain, genesis, save

GAME = b"g" * 16
GENESIS = genesis(GAME)


def entry(ident, t, kind="act", **extra):
    prev = t.head if t.entries else GENESIS
    return Entry.sign(ident, {"game": GAME, "seq": len(t), "prev": prev, "author": 0,
                              "kind": kind, **extra})


def test_entries_chain_and_round_trip_through_the_file(tmp_path):
    a = Identity.generate()
    t = Transcript()
    for i in range(3):
        t.append(entry(a, t, n=i))
    assert t.head == chain(chain(chain(GENESIS, t.entries[0]), t.entries[1]), t.entries[2])
    path = save(t, "x.palazzo", tmp_path)
    data = path.read_bytes()
    assert data.startswith(MAGIC)
    again = Transcript()
    for e in read_entries(data):
        again.append(e)
    assert [e.body for e in again.entries] == [e.body for e in t.entries]
    assert again.to_bytes() == data
    assert all(e.signed_by(a.public_key) for e in again.entries)


def test_replayed_skipped_and_forked_entries_are_refused():
    a = Identity.generate()
    t = Transcript()
    first = entry(a, t)
    t.append(first)
    with pytest.raises(RemoteProtocolError) as info:
        t.append(first)  # replayed
    assert info.value.code == E_OUT_OF_ORDER
    ahead = Entry.sign(a, {"game": GAME, "seq": 2, "prev": t.head, "author": 0, "kind": "act"})
    with pytest.raises(RemoteProtocolError):
        t.append(ahead)
    fork = Entry.sign(a, {"game": GAME, "seq": 1, "prev": GENESIS, "author": 0, "kind": "act"})
    with pytest.raises(RemoteProtocolError):
        t.append(fork)
    assert len(t) == 1


def test_the_chain_starts_from_the_hash_of_its_own_game_id():
    a = Identity.generate()
    other = b"o" * 16
    assert genesis(other) != GENESIS
    t = Transcript()
    with pytest.raises(RemoteProtocolError) as info:  # chained on another game's genesis
        t.append(Entry.sign(a, {"game": GAME, "seq": 0, "prev": genesis(other), "author": 0,
                                "kind": "act"}))
    assert info.value.code == E_OUT_OF_ORDER and len(t) == 0
    t.append(entry(a, t))
    assert t.head == chain(GENESIS, t.entries[0])


def test_a_changed_byte_breaks_the_signature():
    a = Identity.generate()
    e = entry(a, Transcript(), card=5)
    assert e.signed_by(a.public_key)
    body = e.body.replace(b"card\x05", b"card\x06")
    assert body != e.body
    assert not Entry.parse(body, e.sig).signed_by(a.public_key)


@pytest.mark.parametrize("body", [
    msgpack.packb([1, 2]),
    msgpack.packb({"v": 1}),
    msgpack.packb({"v": 4, "game": GAME, "seq": 0, "prev": GENESIS, "author": 0, "kind": "x"}),
    msgpack.packb({"v": 1, "game": b"short", "seq": 0, "prev": GENESIS, "author": 0, "kind": "x"}),
    msgpack.packb({"v": 1, "game": GAME, "seq": -1, "prev": GENESIS, "author": 0, "kind": "x"}),
    msgpack.packb({"v": 1, "game": GAME, "seq": 0, "prev": GENESIS, "author": 0, "kind": 3}),
    b"\xc1",
])
def test_malformed_bodies_are_refused(body):
    with pytest.raises(RemoteProtocolError):
        Entry.parse(body, b"s" * 64)
