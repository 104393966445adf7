"""Acknowledging is a duty (``net.session.features.acks``): a seat whose acknowledgement the
game waits on is due, for the grace period and for the turn limit; the writer who waited on it
is never charged for the wait.

Real sessions on the in-memory link, with a fake clock; the attackers are subclasses of the
project's own ``PeerSession`` and ``HostSession``."""

import random

import pytest

from engine.registry import get_game
from net.session.features.acks import ACK_LEAST, ACK_SLACK, AckBook, ack_deadline, turn_start
from net.session.features.presence import HostPresence
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.verify import verify_bytes
from net.session.runners.link import MemoryLink
from net.wire.errors import CheatDetected
from net.wire.identity import Identity
from net.wire.transcript import Entry
from tests.net.conftest import FakeClock
from tests.net.test_agreement import _play_until

PLAYERS = 3


class Withholder(PeerSession):
    """A seat that plays its moves but signs no acknowledgement while ``withhold`` is set."""

    withhold = True

    def _acknowledge(self):
        if not self.withhold:
            super()._acknowledge()


def _table(clock, seat_cls=(PeerSession, PeerSession, PeerSession), host_cls=HostSession,
           game="medici", **kw):
    config = get_game(game).rules.make_config(PLAYERS, {})
    host = host_cls(Identity.generate(), game, config, clock=clock, **kw)
    link = MemoryLink(host)
    peers, conns = [], []
    for i, cls in enumerate(seat_cls):
        peer = cls(Identity.generate(), f"p{i}", clock=clock)
        conns.append(link.add(peer, get_game(game).make_bot("greedy", random.Random(i))))
        peers.append(peer)
    return host, link, peers, conns


def _forfeits(host):
    return [(e.fields["seat"], e.fields["reason"]) for e in host.table.transcript.entries
            if e.kind == "forfeit"]


def _named(peer):
    named = {e.data.seat for e in peer.events if e.kind == "cheat"}
    if isinstance(peer.error, CheatDetected):
        named.add(peer.error.seat)
    return named


# -- the host's book --------------------------------------------------------------------------------


def test_a_seat_owes_the_acknowledgement_of_every_head_from_the_first_it_did_not_sign():
    clock = FakeClock()
    book = AckBook(clock)
    for n in (1, 2, 3):
        book.head(n)
        clock.now += 10
    book.ack(0, 3)
    book.ack(1, 1)  # it signed the first head only: it owes since the second came
    assert book.owing(3, [0, 1, 2]) == {1: 1010.0, 2: 1000.0}
    assert book.settled(3, [0, 1]) is None
    book.ack(1, 3)
    assert book.settled(3, [0, 1]) == clock.now  # when the last of them came
    book.ack(1, 2)  # an older acknowledgement takes nothing back
    assert book.owing(3, [0, 1]) == {}


def test_the_writers_turn_starts_when_the_acknowledgements_it_waited_on_came():
    assert turn_start(100.0, 100.2, 100.5) == 100.0  # within the slack: as it was
    assert turn_start(100.0, 140.0, 150.0) == 140.0  # waited: its turn starts then
    assert turn_start(100.0, None, 100.0 + ACK_SLACK / 2) == 100.0
    assert turn_start(100.0, None, 100.0 + ACK_SLACK) is None  # still waiting: no clock runs


def test_a_seat_that_owes_an_acknowledgement_is_forfeited_at_the_limit_or_after_the_grace():
    clock = FakeClock()
    presence = HostPresence(clock, grace=20)
    presence.begin([True, True, True])
    names = ["Ann", "Bo", "Cy"]
    assert ack_deadline({1: 1000.0}, presence, 30, names) == (
        1030.0, "Bo did not acknowledge within 30 seconds", 1)
    assert ack_deadline({1: 1000.0}, presence, None, names) == (
        1000.0 + ACK_LEAST, f"Bo did not acknowledge within {ACK_LEAST:g} seconds", 1)
    presence.grace = 50
    assert ack_deadline({1: 1000.0}, presence, None, names) == (
        1050.0, "Bo did not acknowledge within 50 seconds", 1)  # no limit: the grace
    presence.grace = 20
    clock.now = 1005.0
    presence.lost(2)
    assert ack_deadline({1: 1000.0, 2: 1001.0}, presence, 60, names) == (
        1025.0, "Cy did not come back within 20 seconds", 2)
    assert ack_deadline({}, presence, 30, names) is None


# -- the rule in every reader's table -----------------------------------------------------------


def _ended_game(clock):
    host, link, peers, _ = _table(clock)
    link.pump()
    assert host.finished
    return host


def test_a_forfeit_of_a_seat_still_in_that_is_not_due_is_taken_one_that_signed_its_end_is_not():
    clock = FakeClock()
    host = _ended_game(clock)
    entries = host.table.transcript.entries
    first_end = next(i for i, e in enumerate(entries) if e.kind == "end")
    follower = Table(host.identity.public_key, None)
    for e in entries[:first_end + 1]:
        follower.accept(e)
    done = entries[first_end].author
    later = next(s for s in range(PLAYERS) if s != done and s != follower.writer())

    def forfeit(seat):
        return Entry.sign(host.identity, {
            "game": follower.game_id, "seq": first_end + 1, "prev": follower.transcript.head,
            "author": -1, "kind": "forfeit", "seat": seat, "reason": "did not acknowledge"})

    try:
        follower.accept(forfeit(done))
    except CheatDetected as c:
        assert c.seat == -1 and "signed its end already" in c.reason
    else:
        raise AssertionError("a seat that signed its end was forfeited")
    follower.accept(forfeit(later))  # not due to write, still in: the game waits on it too
    assert later in follower.forfeited and follower.writer() != later


# -- a seat that withholds its acknowledgements ---------------------------------------------------


def test_attack_withheld_ack_forfeits_the_withholder_never_the_writer():
    clock = FakeClock()
    host, link, peers, _ = _table(clock, (PeerSession, PeerSession, Withholder), turn_timeout=30)
    link.pump()
    held = [p for p in peers[:2] if p._gated is not None]
    assert held and not host.finished  # a disclosure waits on p2's acknowledgement
    assert all(p.waiting_for() == [2] for p in held)
    writer = host.table.writer()
    assert writer != 2
    clock.now += 2 * ACK_SLACK
    link.pump()
    for p in peers[:2]:  # every screen says whom the game waits on
        assert p.presence.acks == (2,) and "waiting for p2 to acknowledge" in p.notes.lines
    clock.now += 29  # past the writer's own limit, had it been counted from its turn
    link.pump()
    assert _forfeits(host) == [(2, "p2 did not acknowledge within 30 seconds")]
    assert host.finished and [p.state for p in peers[:2]] == ["over", "over"]
    for p in peers[:2]:
        assert not _named(p)  # a fault: nobody named
        assert p.table.result()["agreed"].startswith("one side's record: seats p2 did not sign")
    assert {p.table.transcript.to_bytes() for p in peers[:2]} == {
        host.table.transcript.to_bytes()}
    assert verify_bytes(host.table.transcript.to_bytes()).ok


def test_attack_withheld_ack_without_a_turn_limit_costs_the_withholder_the_grace():
    clock = FakeClock()
    host, link, peers, _ = _table(clock, (PeerSession, PeerSession, Withholder), grace=40)
    link.pump()
    assert not host.finished and not _forfeits(host)
    clock.now += 39
    link.pump()
    assert not _forfeits(host)
    clock.now += 2
    link.pump()
    assert _forfeits(host) == [(2, "p2 did not acknowledge within 40 seconds")]
    assert host.finished and not any(_named(p) for p in peers[:2])


def test_a_seat_gone_while_another_is_due_is_the_one_forfeited_after_the_grace():
    clock = FakeClock()
    host, link, peers, conns = _table(clock, grace=5, turn_timeout=60)
    _play_until(host, link, lambda: len(host.table.transcript) >= 4  # under way, another due
                and host.table.writer() not in (2, None, -1))
    assert host.table.writer() not in (2, None, -1)
    link.drop(conns[2])
    link.pump()
    assert not host.finished and not _forfeits(host)  # a disclosure waits on p2
    clock.now += 6
    link.pump()
    assert _forfeits(host) == [(2, "p2 did not come back within 5 seconds")]
    assert host.finished and [p.state for p in peers[:2]] == ["over", "over"]
    assert not any(_named(p) for p in peers[:2])


@pytest.mark.long
def test_acknowledgements_that_come_at_once_change_no_ones_clock():
    """An honest table: nobody owes an acknowledgement for long, no presence names one, and the
    game ends agreed by every seat."""
    clock = FakeClock()
    host, link, peers, _ = _table(clock, turn_timeout=30)
    link.pump()
    assert host.finished and not _forfeits(host)
    assert all(p.table.result()["agreed"] == "agreed by all 3 seats" for p in peers)
    assert not any("to acknowledge" in line for p in peers for line in p.notes.lines)


# -- a host that withholds the acknowledgements it should relay ----------------------------------


class MuteHost(HostSession):
    """Relays no seat's acknowledgement to seat 0: its disclosures wait for ever."""

    def _broadcast(self, method, payload, but=None, first=()):
        if method != "ack":
            return super()._broadcast(method, payload, but, first)
        for conn, c in list(self.conns.items()):
            if conn != but and c.seat not in (None, 0) and not c.closed:
                self._notify(conn, method, payload)
        return None


def test_attack_host_withholding_acks_forfeits_only_by_its_own_word():
    """The host can always forfeit a seat by its word: the seat it starves is forfeited at the
    limit, as a fault that names nobody, and the record says it is one side's."""
    clock = FakeClock()
    host, link, peers, _ = _table(clock, host_cls=MuteHost, turn_timeout=30)
    link.pump()
    assert peers[0]._gated is not None and not host.finished
    clock.now += 31
    link.pump()
    assert host.finished and [seat for seat, _ in _forfeits(host)] == [0]
    assert not any(_named(p) for p in peers)
    for p in peers[1:]:
        assert p.table.result()["agreed"].startswith("one side's record: seats p0 did not sign")


# -- one clock across restarts ------------------------------------------------------------------


def test_a_restarted_host_keeps_the_turns_start_and_leaves_at_least_a_short_while():
    from net.session.features.acks import RESUME_LEAST, resumed_since

    assert resumed_since(500.0, 10_000.0, 9_990.0, 60) == 490.0  # down 10 s: 50 s left
    assert resumed_since(500.0, 10_000.0, 9_900.0, 60) == 500.0 + RESUME_LEAST - 60  # down long
    assert resumed_since(500.0, 10_000.0, 9_990.0, 5) == 500.0  # a limit under the least: whole
    assert resumed_since(500.0, 10_000.0, 9_000.0, None) == -500.0  # no limit: as it was
    assert resumed_since(500.0, 10_000.0, 10_050.0, 60) == 500.0  # a clock set back: from now


def test_a_restarted_hosts_deadline_is_the_one_every_returning_screen_counts_down_to(
        make_game, tmp_path):
    import os

    from net.session.records.resume import HostRecord, keep_record, resume_session, unfinished
    g = make_game(3, game="medici")
    keep_record(g.host, {"code": None}, base=tmp_path)
    for i in range(3):
        g.add_bot(i)
    while True:  # on until a player has a decision to make, nothing else under way
        moved = True
        while moved:
            moved = False
            for conn, peer in list(g.link.peers.items()):
                data = peer.data_to_send()
                if data:
                    g.link.send(conn, data)
                    moved = True
        assert not g.host.finished
        if len(g.host.table.transcript) >= 30 and any(p.decision_due() for p in g.peers):
            break
        for conn, peer in list(g.link.peers.items()):
            if peer.decision_due():
                peer.act(g.link.bots[conn].choose(peer.view, peer.table.me))
    held = len(g.host.table.transcript)
    (record,) = unfinished(g.host.identity.public_key, base=tmp_path)
    wall = 1_800_000_000.0
    os.utime(record.folder / "entries", (wall - 25, wall - 25))  # its last entry, 25 s ago
    clock = FakeClock()
    host = resume_session(g.host.identity, HostRecord(record.folder), turn_timeout=60,
                          clock=clock, wall=lambda: wall)
    link = MemoryLink(host)
    for peer in g.peers:
        peer.connection_lost()
        peer.reconnect()
        link.add(peer)  # nobody moves: the clock is looked at
    link.pump()
    clock.now += 1
    link.pump()
    writer = host.table.writer()
    assert writer is not None and writer >= 0 and len(host.table.transcript) == held
    deadline = host._deadline()
    assert deadline is not None and deadline[2] == writer
    assert deadline[0] - clock.now == 60 - 25 - 1  # the turn counted from before the restart
    for p in g.peers:  # every screen, back on a new connection, counts down to it
        assert p.presence is not None and p.presence.due == writer and p.presence.hosts_clock
        assert abs(p.presence.wait(p.clock()) - 34) <= 1
