"""The host's record writes a seat's post while the observer table checks it (its fsync on a
thread): an entry is in the record, fsync'd, before any peer is sent it; a refused post is cut
off the record again; a record whose last entry the host never finished checking, or whose last
entry is torn, resumes with the entries that stand, and what it appends follows them."""

import os

import pytest

from net.session.records.resume import MAGIC, HostRecord, keep_record, resume_session
from net.wire.transcript import Entry, pack

from .test_resume import _come_back, _recorded_game


def _due_seat_post(g, fields):
    """A post of ``fields`` signed by the seat due, as its program would send it."""
    t = g.host.table
    due = t.writer()
    peer = g.peers[due]
    entry = Entry.sign(peer.identity, {"game": t.game_id, "seq": len(t.transcript),
                                       "prev": t.transcript.head, "author": due, **fields})
    peer.data_to_send()  # its honest post, if it has one ready, is not sent
    peer._call("post", (entry.to_wire(),))
    return g.conns[due], peer.data_to_send(), entry


@pytest.mark.long
def test_every_relayed_entry_is_in_the_record_and_synced_before_it_is_sent(make_game, tmp_path,
                                                                           monkeypatch):
    g, record = _recorded_game(make_game, tmp_path, steps=3)
    path = record.folder / "entries"
    synced = [path.stat().st_size]  # the size of the record at its last fsync that has returned
    fsync = os.fsync

    def recording(fd):
        size = os.fstat(fd).st_size
        fsync(fd)
        if os.path.samefile(f"/proc/self/fd/{fd}", path):
            synced[0] = size

    monkeypatch.setattr(os, "fsync", recording)
    receive = g.host.receive_data
    checked = []

    def checking(conn, data):
        out = receive(conn, data)  # what goes to the peers now
        saved = HostRecord(record.folder).entries()
        assert [e.body for e in saved] == [e.body for e in g.host.table.transcript.entries]
        assert synced[0] == path.stat().st_size  # all of it fsync'd, none under way
        checked.append(len(saved))
        return out

    g.host.receive_data = checking
    settle = g.host.settle

    def settling(wait=False):  # a seat's entry relayed pending goes in once confirmed
        return _checked(settle(wait))

    def _checked(out):
        saved = HostRecord(record.folder).entries()
        assert [e.body for e in saved] == [e.body for e in g.host.table.transcript.entries]
        assert synced[0] == path.stat().st_size
        checked.append(len(saved))
        return out

    g.host.settle = settling
    g.link.pump()
    assert g.host.finished and len(checked) > 100


@pytest.mark.long
def test_a_refused_post_is_cut_off_the_record(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=30)
    path = record.folder / "entries"
    before = path.read_bytes()
    conn, data, _ = _due_seat_post(g, {"kind": "end"})  # an end in the middle of play
    g.link.send(conn, data)
    assert "'end' entry is not allowed in phase play" in str(g.peers[g.host.table.writer()].error)
    assert path.read_bytes() == before
    assert len(HostRecord(record.folder).entries()) == len(g.host.table.transcript)


def _play_on(g, record, tmp_path):
    host = resume_session(g.host.identity, HostRecord(record.folder))
    keep_record(host, record.settings, record=HostRecord(record.folder))
    _come_back(g, host).pump()
    assert host.finished
    assert [p.state for p in g.peers] == ["over"] * 4, [p.error for p in g.peers]
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
    saved = HostRecord(record.folder).entries()
    assert [e.body for e in saved] == [e.body for e in g.peers[0].table.transcript.entries]
    return host


@pytest.mark.long
def test_a_host_stopped_while_checking_a_bad_post_resumes_without_it(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=30)
    n = len(g.host.table.transcript)
    _, _, bad = _due_seat_post(g, {"kind": "end"})
    path = record.folder / "entries"
    path.write_bytes(path.read_bytes() + pack([bad.body, bad.sig]))  # written, never relayed
    host = _play_on(g, record, tmp_path)
    assert host.table.transcript.entries[n].body != bad.body


@pytest.mark.long
def test_a_torn_last_entry_is_cut_before_the_resumed_host_appends(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=30)
    entries = record.entries()
    path = record.folder / "entries"
    whole = path.read_bytes()
    path.write_bytes(whole[:-9])  # the last entry was being written when the host died
    again = HostRecord(record.folder)
    host = resume_session(g.host.identity, again)
    assert len(host.table.transcript) == len(entries) - 1
    assert path.read_bytes() == whole[: -len(pack([entries[-1].body, entries[-1].sig]))]
    again.append(entries[-1])  # its author sends it again; the record reads whole
    assert [e.body for e in HostRecord(record.folder).entries()] == [e.body for e in entries]


@pytest.mark.long
@pytest.mark.parametrize("where", ["middle", "host's last"])
def test_a_record_refused_elsewhere_than_at_a_seats_last_entry_is_cut_and_said(make_game, tmp_path,
                                                                             where):
    g, record = _recorded_game(make_game, tmp_path, steps=30)
    entries = record.entries()
    path = record.folder / "entries"
    if where == "middle":
        _, _, bad = _due_seat_post(g, {"kind": "end"})
        broken = [*entries[:-1], bad, entries[-1]]
    else:  # the host's own entries are checked before they are written: never cut off
        t = g.host.table
        forged = Entry.sign(g.host.identity, {"game": t.game_id, "seq": len(entries),
                                              "prev": t.transcript.head, "author": -1,
                                              "kind": "end"})
        broken = [*entries, forged]
    path.write_bytes(MAGIC + b"".join(pack([e.body, e.sig]) for e in broken))
    again = HostRecord(record.folder)
    host = resume_session(g.host.identity, again)  # what checks out is kept, the rest said
    assert len(host.table.transcript) == len(entries) - (1 if where == "middle" else 0)
    assert "does not check out" in " ".join(again.damage)
    assert [e.body for e in HostRecord(record.folder).entries()] == \
        [e.body for e in host.table.transcript.entries]
