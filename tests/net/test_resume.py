"""A host that crashes mid-game and restarts with the same key resumes from its record; the
players come back to it and the game ends verified, nobody named for the restart."""

import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.records.resume import HostRecord, choose, keep_record, resume_session, unfinished
from net.session.runners.link import MemoryLink
from net.wire.errors import HOST, CheatDetected
from net.wire.identity import Identity
from net.wire.transcript import Entry

from .test_session import _steps_until


def _recorded_game(make_game, tmp_path, players=4, steps=40, game="medici"):
    g = make_game(players, game=game)
    keep_record(g.host, {"code": None}, base=tmp_path)
    for i in range(players):
        g.add_bot(i)
    _steps_until(g, steps)
    (record,) = unfinished(g.host.identity.public_key, base=tmp_path)
    return g, record


def _come_back(g, host):
    """Every peer's connection to the dead host is gone; each connects to ``host`` again."""
    link = MemoryLink(host)
    for peer, conn in zip(g.peers, g.conns, strict=True):
        bot = g.link.bots.get(conn)
        peer.connection_lost()
        peer.reconnect()
        link.add(peer, bot or get_game(host.game).make_bot("greedy", random.Random(1)))
    g.host, g.link = host, link
    return link


@pytest.mark.long
@pytest.mark.parametrize(("game", "steps"), [("medici", 40), ("medici", 3), ("condottiere", 25)])
def test_a_host_killed_mid_game_resumes_and_the_game_ends_verified(make_game, tmp_path, game,
                                                                   steps):
    g, record = _recorded_game(make_game, tmp_path, steps=steps, game=game)
    held = len(g.host.table.transcript)
    identity = g.host.identity
    # the old host is gone with everything it held in memory; the new one has only its record
    host = resume_session(identity, HostRecord(record.folder))
    assert len(host.table.transcript) == held
    assert all(s.conn is None for s in host.seats)  # every seat away until it comes back
    keep_record(host, record.settings, record=record)
    _come_back(g, host).pump()
    assert host.finished
    assert [p.state for p in g.peers] == ["over"] * 4, [p.error for p in g.peers]
    assert len(g.transcripts()) == 1
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
    # the record holds the whole game and says it is over
    assert b"".join(e.body for e in record.entries()) == \
        b"".join(e.body for e in g.peers[0].table.transcript.entries)
    assert unfinished(identity.public_key, base=tmp_path) == []


def test_a_host_restarted_without_its_record_loses_the_game(make_game, tmp_path):
    """The finding: a fresh host with the same key has nothing of the game; it refuses the
    players' rejoin (they hold entries it does not) and they stop, signing nothing new: this is
    what resuming avoids."""
    g, _ = _recorded_game(make_game, tmp_path)
    held = [len(p.table.transcript) for p in g.peers]
    fresh = HostSession(g.host.identity, g.host.game, g.host.config)
    _come_back(g, fresh).pump()
    assert all(p.state == "failed" for p in g.peers)
    assert all("the host refused hello: 'have' is" in str(p.error) for p in g.peers), \
        [repr(p.error) for p in g.peers]
    assert [len(p.table.transcript) for p in g.peers] == held
    assert fresh.table.transcript.entries == []


def test_attack_restarted_host_with_another_key(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path)
    with pytest.raises(ValueError, match="another key"):
        resume_session(Identity.generate(), record)
    impostor = HostSession(Identity.generate(), g.host.game, g.host.config)
    impostor.restore([])  # a host with a record of nothing: it still cannot pass for the host
    _come_back(g, impostor).pump()
    for p in g.peers:
        assert p.state == "failed"
        assert not isinstance(p.error, CheatDetected)  # nobody is named: it is not the host
        assert "different host" in str(p.error)
    assert impostor.table.transcript.entries == []


def test_attack_resumed_host_serves_another_history(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path)
    host = resume_session(g.host.identity, record)
    link = _come_back(g, host)
    # before any move: the host tells one peer that a place it holds holds something else
    held = host.table.transcript.entries[5]
    forged = Entry.sign(host.identity, {**held.fields, "kind": "forfeit", "author": HOST,
                                        "seat": 0, "reason": "forged"})
    conn = list(link.peers)[1]  # the second peer's new connection
    host._notify(conn, "entry", forged.to_wire())
    link.deliver(host.take_output())
    peer = g.peers[1]
    assert peer.state == "failed"
    assert isinstance(peer.error, CheatDetected) and peer.error.seat == HOST


def test_a_torn_record_reads_as_its_whole_prefix(make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=20)
    path = record.folder / "entries"
    whole = path.read_bytes()
    n = len(record.entries())
    path.write_bytes(whole[:-7])  # the last entry was being written when the host died
    assert len(HostRecord(record.folder).entries()) == n - 1
    from net.wire.transcript import MAGIC

    torn = HostRecord(record.folder)
    assert "stops in the middle of entry" in " ".join(torn.damage)  # said, not hidden
    path.write_bytes(MAGIC + b"\xc1" + whole[len(MAGIC):])  # not msgpack: nothing guessed at
    garbled = HostRecord(record.folder)
    assert garbled.entries() == []
    assert "entry 0 cannot be read" in " ".join(garbled.damage)


@pytest.mark.long
def test_a_record_that_does_not_check_out_keeps_its_valid_prefix_and_the_seats_give_the_rest(
        make_game, tmp_path):
    g, record = _recorded_game(make_game, tmp_path, steps=20)
    path = record.folder / "entries"
    entries = record.entries()
    import msgpack

    from net.wire.transcript import MAGIC

    swapped = [entries[0], entries[2], entries[1], *entries[3:]]
    path.write_bytes(MAGIC + b"".join(msgpack.packb([e.body, e.sig], use_bin_type=True)
                                      for e in swapped))
    again = HostRecord(record.folder)
    host = resume_session(g.host.identity, again)
    assert len(host.table.transcript) == 1  # the start alone checks out
    assert "entry 1 does not check out" in " ".join(again.damage)
    keep_record(host, again.settings, record=again)
    _come_back(g, host).pump()
    assert host.finished
    assert [p.state for p in g.peers] == ["over"] * 4, [p.error for p in g.peers]
    assert len(g.transcripts()) == 1
    assert [e.body for e in HostRecord(record.folder).entries()] == \
        [e.body for e in g.peers[0].table.transcript.entries]


def test_choosing_the_game_to_resume(make_game, tmp_path):
    a, ra = _recorded_game(make_game, tmp_path, steps=5)
    b, rb = _recorded_game(make_game, tmp_path, steps=5)
    mine = unfinished(a.host.identity.public_key, base=tmp_path)
    assert [r.folder for r in mine] == [ra.folder]
    assert choose(mine, "medici", 4).folder == ra.folder
    assert choose([ra], "condottiere", 4) is None
    assert choose([ra], "medici", 3) is None
    with pytest.raises(ValueError, match="--resume GAME-ID"):
        choose([ra, rb], "medici", 4)
    assert choose([ra, rb], "medici", 4, ra.folder.name[:10]) == ra
    with pytest.raises(ValueError, match="no unfinished"):
        choose([ra], "medici", 4, "ffff" if not ra.folder.name.startswith("ffff") else "0000")
    # another host's records are not this host's to resume
    assert unfinished(Identity.generate().public_key, base=tmp_path) == []
