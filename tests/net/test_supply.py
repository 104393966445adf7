"""A host whose record was damaged resumes from what checks out, and its seats give back the rest
(``supply``): the game ends verified, every record the same. A seat giving back a forged, a
shorter or a rewritten record gains nothing; a rewritten move of its own is named."""

import os
import random

import pytest

from engine.registry import get_game
from net.session.machines.conversation import hello_signature
from net.session.machines.host_session import HostSession
from net.session.records.resume import MAGIC, HostRecord, keep_record, resume_session
from net.session.runners.link import MemoryLink, RawPeer
from net.wire.errors import E_CHEAT
from net.wire.rpc import Codec, Request, Response
from net.wire.transcript import Entry, pack

from .test_resume import _come_back, _recorded_game


def _cut(record, keep):
    """The host's entries file cut in the middle of entry ``keep``: the host lost the rest."""
    entries = record.entries()
    path = record.folder / "entries"
    whole = MAGIC + b"".join(pack([e.body, e.sig]) for e in entries)
    cut = len(MAGIC) + sum(len(pack([e.body, e.sig])) for e in entries[:keep]) + 5
    path.write_bytes(whole[:cut])
    return entries


def _resumed(g, record):
    again = HostRecord(record.folder)
    host = resume_session(g.host.identity, again)
    keep_record(host, again.settings, record=again)
    return host, again


@pytest.mark.long
def test_an_entries_file_cut_mid_way_resumes_and_the_seats_give_back_the_rest(make_game,
                                                                              tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    entries = _cut(record, 10)
    host, again = _resumed(g, record)
    assert len(host.table.transcript) == 10
    assert "stops in the middle of entry 10" in " ".join(again.damage)
    _come_back(g, host).pump()
    assert host.finished
    assert [p.state for p in g.peers] == ["over"] * 4, [p.error for p in g.peers]
    assert len(g.transcripts()) == 1
    final = g.peers[0].table.transcript.entries
    assert [e.body for e in final[: len(entries)]] == [e.body for e in entries]
    assert [e.body for e in HostRecord(record.folder).entries()] == [e.body for e in final]
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)


def test_attack_a_forged_entry_given_back_is_refused_and_the_game_goes_on(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    entries = _cut(record, 10)
    host, _ = _resumed(g, record)
    liar = g.peers[0]  # the first to come back gives a forged entry 12 (not its author's key)
    held = liar.table.transcript.entries
    held[12] = Entry.parse(held[12].body, bytes(64))
    link = MemoryLink(host)
    liar.connection_lost()
    liar.reconnect()
    link.add(liar)
    link.pump()
    assert len(host.table.transcript) == 12  # 10 and 11 taken, the forgery stops it
    assert [e.body for e in host.table.transcript.entries] == [e.body for e in entries[:12]]
    # the honest seats give back the rest; none of them is named or stopped
    for peer, conn in zip(g.peers[1:], g.conns[1:], strict=True):
        peer.connection_lost()
        peer.reconnect()
        link.add(peer, g.link.bots.get(conn))
    link.pump()
    assert len(host.table.transcript) >= len(entries)
    assert [e.body for e in host.table.transcript.entries[: len(entries)]] == \
        [e.body for e in entries]
    assert all(p.error is None for p in g.peers[1:]), [p.error for p in g.peers[1:]]


@pytest.mark.long
def test_attack_a_shorter_record_gains_nothing(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    entries = _cut(record, 10)
    host, _ = _resumed(g, record)
    short = g.peers[2]
    del short.table.transcript.entries[14:]  # it gives back less than it holds
    link = MemoryLink(host)
    short.connection_lost()
    short.reconnect()
    link.add(short)
    link.pump()
    assert len(host.table.transcript) == 14
    for i in (0, 1, 3):  # a longer copy comes: it is taken, whole
        peer = g.peers[i]
        peer.connection_lost()
        peer.reconnect()
        link.add(peer, g.link.bots.get(g.conns[i]))
    link.pump()
    assert [e.body for e in host.table.transcript.entries[: len(entries)]] == \
        [e.body for e in entries]


@pytest.mark.long
@pytest.mark.parametrize("how", ["posted", "given back"])
def test_attack_a_seat_rewriting_its_own_move_is_named(make_game, tmp_path, how, caplog):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    entries = _cut(record, 10)
    host, _ = _resumed(g, record)
    k = next(i for i in range(11, len(entries)) if entries[i].author >= 0)
    a = entries[k].author
    me = g.peers[a].identity
    # the cheat comes back first, gives back the entries before its own move, and writes that
    # place again, differently, while the others are not back
    link = MemoryLink(host)
    raw = RawPeer()
    conn = link.add(raw, address="10.1.2.3")
    challenge = raw.events()[0].params[0]
    codec = Codec()
    hello = {"name": g.peers[a].name, "key": me.public_key, "code": None, "have": k,
             "nonce": os.urandom(32),
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    other = Entry.sign(me, {**entries[k].fields, "kind": "pass"})
    given = [e.to_wire() for e in entries[10:k]]
    if how == "posted":
        rewrite = codec.send(Request(3, "post", (other.to_wire(),)))
    else:  # given back as if it were the record, after the entries before it
        given.append(other.to_wire())
        rewrite = b""
    link.send(conn, codec.send(Request(1, "hello", (hello,))) + codec.send(Request(
        2, "supply", ({"entries": given},))) + rewrite)
    link.pump()
    assert len(host.table.transcript) == k  # its rewritten move waits for the others
    assert [r.msgid for r in raw.events() if isinstance(r, Response)] == [1, 2]
    for i in range(4):
        if i != a:
            peer = g.peers[i]
            peer.connection_lost()
            peer.reconnect()
            link.add(peer)
    link.pump()
    assert host.table.transcript.entries[k].body == entries[k].body  # the original stands
    if how == "posted":
        (answer,) = [r for r in raw.events() if isinstance(r, Response) and r.msgid == 3]
        assert answer.error.code == E_CHEAT
        assert "signed two different entries" in answer.error.message
    else:
        assert f"cheat detected: seat {a} at step {k}: signed two different entries" in \
            caplog.text


@pytest.mark.long
def test_a_restarted_host_holds_posts_until_its_seats_are_back(make_game, tmp_path):
    """While it gathers, the host answers no post and writes no forfeit."""
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    now = [0.0]
    host = resume_session(g.host.identity, HostRecord(record.folder), clock=lambda: now[0],
                          grace=1.0)
    assert isinstance(host, HostSession)
    link = MemoryLink(host)
    first = g.peers[0]
    first.connection_lost()
    first.reconnect()
    link.add(first, get_game("medici").make_bot("greedy", random.Random(0)))
    link.pump()
    held = len(host.table.transcript)
    now[0] += 5.0  # the grace is over, the gathering is not
    link.deliver(host.tick())
    link.pump()
    assert len(host.table.transcript) == held  # no forfeit
    now[0] += 20.0  # the gathering is over: the host goes on
    link.deliver(host.tick())
    link.pump()
    assert len(host.table.transcript) > held


def _lost_start(g, record):
    """The host's entries file is garbled from its first byte: only its settings and the id of
    its game are left; the host comes back as ``palazzo host`` would."""
    from net.session.commands.hosting import HostSettings, _resumed

    (record.folder / "entries").write_bytes(b"\xc1garbled")
    said = []
    again = HostRecord(record.folder)
    host, *_ = _resumed(HostSettings("medici", 4, {}), again, g.host.identity, said.append)
    return host, said


@pytest.mark.long
def test_a_host_that_lost_its_start_takes_the_game_back_from_a_player(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    entries = record.entries()
    host, said = _lost_start(g, record)
    assert host.table.transcript.entries == [] and host.lost_game == entries[0].fields["game"]
    assert "Nothing of it was kept" in said[0] and "gives it back" in said[0]
    _come_back(g, host).pump()
    assert host.finished
    assert [p.state for p in g.peers] == ["over"] * 4, [p.error for p in g.peers]
    assert len(g.transcripts()) == 1
    assert [e.body for e in g.peers[0].table.transcript.entries[: len(entries)]] == \
        [e.body for e in entries]
    assert [e.body for e in HostRecord(record.folder).entries()] == \
        [e.body for e in g.peers[0].table.transcript.entries]


def test_attack_a_stranger_cannot_give_a_host_that_lost_its_start_another_game(make_game,
                                                                               tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=35)
    other, _ = _recorded_game(make_game, tmp_path / "other", steps=5)  # another host's game
    host, _ = _lost_start(g, record)
    link = MemoryLink(host)
    raw = RawPeer()
    conn = link.add(raw, address="10.9.9.9")
    challenge = raw.events()[0].params[0]
    me = other.peers[0].identity
    codec = Codec()
    hello = {"name": "x", "key": me.public_key, "code": None, "have": 5, "nonce": os.urandom(32),
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    start = other.peers[0].table.transcript.entries[0]
    mine = g.peers[0].table.transcript.entries[0]
    link.send(conn, codec.send(Request(1, "hello", (hello,))) + codec.send(Request(
        2, "supply", ({"entries": [start.to_wire()]},))) + codec.send(Request(
            3, "supply", ({"entries": [mine.to_wire()]},))))
    link.pump()
    answers = {r.msgid: r for r in raw.events() if isinstance(r, Response)}
    assert answers[2].error is not None and "waits for the start of the game it lost" in \
        answers[2].error.message
    # the host's own start, but this key is no seat of it
    assert answers[3].error is not None and "does not name this key" in answers[3].error.message
    assert host.table.transcript.entries == [] and host.lost_game is not None
