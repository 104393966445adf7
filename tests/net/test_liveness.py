"""Liveness and one clock (sans-IO, on the in-memory link): the host's heartbeat, a seat that
does not answer, the host's turn clock across a reconnect, the end reaching a hello not yet
answered, and a flood of strangers told in one line a minute (``net.session.features.liveness``,
``net.session.features.presence``)."""

import logging

import pytest

from net.session.features import limits, liveness
from net.session.features.liveness import Hearing, gone_line
from net.session.features.presence import TURN_SLACK, read_presence
from net.session.machines.peer_session import PeerSession
from net.session.runners.link import RawPeer
from net.wire.identity import Identity
from net.wire.rpc import Codec, Request, Response
from tests.net.conftest import waiting_game


class Frozen:
    """A seat's program stopped (``kill -STOP``): what the host sends waits in its buffers and it
    says nothing, until ``thaw``."""

    def __init__(self, peer):
        self.peer, self.frozen, self.waiting = peer, True, bytearray()

    def receive_data(self, data):
        if self.frozen:
            self.waiting += data
        else:
            self.peer.receive_data(data)

    def data_to_send(self):
        return b"" if self.frozen else self.peer.data_to_send()

    def connection_lost(self):
        self.peer.connection_lost()

    def decision_due(self):
        return False

    def thaw(self):
        self.frozen = False
        self.peer.receive_data(bytes(self.waiting))


def _seat(g, clock, i, **kw):
    """Seat ``p<i>`` over the network: the host pings it."""
    return g.add_seat(clock, i, address=f"10.0.0.{i + 1}", **kw)


def _table(make_game, clock, **kw):
    """A 3-seat game over the network whose seat 2 never decides by itself: it waits on it."""
    return waiting_game(make_game, clock, over_network=True, **kw)


def _seconds(g, clock, n, step=0.5):
    """``n`` seconds of the host's loop, a tick every ``step``."""
    for _ in range(int(n / step)):
        clock.now += step
        g.link.pump()


def _notes(peer):
    return [e.data for e in peer.events if e.kind == "note"]


def _pings(peer):
    return [e for e in Codec().receive_data(peer) if isinstance(e, Request) and e.method == "ping"]


def _freeze(g, i):
    frozen = Frozen(g.peers[i])
    g.link.peers[g.conns[i]] = frozen
    return frozen


def test_the_host_pings_every_seat_each_second_and_a_seat_that_answers_stays_here(make_game,
                                                                                  clock):
    g, _ = _table(make_game, clock)
    sent = []
    deliver = g.link.deliver
    g.link.deliver = lambda outs: (sent.extend(outs), deliver(outs))[1]
    _seconds(g, clock, 30)  # seat 2 thinks for 30 s, its program answering every ping
    pings = [o for o in sent if o.conn == g.conns[2] and _pings(o.data)]
    assert 25 <= len(pings) <= 31
    assert [g.host.presence.state(i) for i in range(3)] == ["here"] * 3
    assert all("not responding" not in " ".join(_notes(p)) for p in g.peers)


def test_a_seat_that_does_not_answer_is_not_responding_everywhere_and_its_grace_starts(
        make_game, clock):
    g, _ = _table(make_game, clock, grace=60)
    frozen = _freeze(g, 2)
    _seconds(g, clock, liveness.SEAT_QUIET - 1)
    assert g.host.presence.state(2) == "here"
    _seconds(g, clock, 1.5)
    assert g.host.presence.state(2) == "silent"
    for p in g.peers[:2]:
        assert _notes(p) == ["p2 is not responding"]
        assert p.presence.seats[2].state == "silent"
        assert p.presence.wait(clock()) in (59, 60)  # the grace runs from when it went quiet
    frozen.thaw()
    g.link.pump()
    assert g.host.presence.state(2) == "here"
    for p in g.peers[:2]:
        assert _notes(p) == ["p2 is not responding", "p2 is responding again"]
        assert p.presence.wait(clock()) is None
    assert _notes(g.peers[2]) == []  # nothing about itself


def test_a_stopped_program_is_sent_one_ping_at_a_time_and_answers_one(make_game, clock):
    """A watcher or a seat that was stopped (or fell behind) for a minute finds one ping waiting,
    not sixty: its answers never pass a watcher's request budget of 20 at once."""
    g, _ = _table(make_game, clock)
    frozen = _freeze(g, 2)
    _seconds(g, clock, 60)
    assert len(_pings(bytes(frozen.waiting))) == 1
    frozen.thaw()
    g.link.pump()
    assert g.conns[2] in g.link.peers and g.host.presence.state(2) == "here"
    _seconds(g, clock, 3)
    assert g.host.presence.state(2) == "here"  # and the heartbeat goes on


def test_attack_a_seat_holding_its_connection_but_never_answering_forfeits_after_the_grace(
        make_game, clock):
    """Before the heartbeat, a seat that kept its connection open and said nothing held a game
    without a turn limit for ever; now it is not responding, and forfeits after the grace."""
    g, _ = _table(make_game, clock, grace=10)
    _freeze(g, 2)
    _seconds(g, clock, liveness.SEAT_QUIET + 11)
    reason = "p2 did not come back within 10 seconds"
    assert g.host.finished and g.host.table.forfeits == [(2, reason)]
    for p in g.peers[:2]:
        assert p.table.result()["verdict"] == f"verified as far as it went: p2 forfeited ({reason})"


def test_a_host_whose_own_loop_stood_still_blames_nobody(make_game, clock):
    g, _ = _table(make_game, clock)
    _seconds(g, clock, 2)
    clock.now += 30  # the host's machine was stopped: nobody could be heard
    g.link.deliver(g.host.tick())
    assert [g.host.presence.state(i) for i in range(3)] == ["here"] * 3
    h = Hearing(clock)
    clock.now += 10
    assert h.tick() and h.quiet() == 0  # the same rule on a peer's side
    clock.now += 1
    assert not h.tick() and h.quiet() == 1


def test_one_clock_a_seat_back_from_a_drop_counts_down_to_the_hosts_turn_limit(make_game, clock):
    """The returning seat's own limit and every other screen count from when the host made the
    seat due, not from the reconnect (the game ended because a screen said 0:06 left)."""
    g, ids = _table(make_game, clock, turn_timeout=30, on_timeout="bot")
    host_since = clock()
    _seconds(g, clock, 20)
    journal = g.peers[2].journal
    g.link.drop(g.conns[2])
    _seconds(g, clock, 2)
    back = PeerSession(ids[2], "p2", clock=clock, journal=journal)
    g.link.add(back, address="10.0.0.3")
    _seconds(g, clock, 0.5)
    assert back.decision_due() and back.presence.hosts_clock
    assert host_since - 1 <= back.turn_since <= host_since  # whole seconds on the wire
    assert not back.takeover_due()
    _seconds(g, clock, 30 - (clock() - host_since) + 1)
    assert back.takeover_due()  # at the host's T, not T after the reconnect
    for p in g.peers[:2]:
        assert abs(p.presence.due_since - host_since) <= 1 and p.presence.hosts_clock


def test_attack_a_replayed_presence_of_an_earlier_turn_does_not_set_this_turns_clock(clock):
    old = {"seats": [{"state": "here", "for": 0}] * 3, "due": 1, "wait": None, "turn": 500,
           "at": 7}
    p = read_presence(old, 3, clock(), length=8)  # the transcript has moved on since
    assert not p.hosts_clock and p.due_since == clock()
    p = read_presence({**old, "at": 8}, 3, clock(), length=8)
    assert p.hosts_clock and p.due_since == clock() - 500


def test_attack_a_host_cannot_age_a_turn_this_seat_saw_begin(make_game, clock, tamper):
    """A host that says the seat due has waited 10,000 s, for a turn whose entry reached the seat
    live a moment ago, is believed only ``TURN_SLACK`` seconds before it: it cannot make the
    seat's program play for its player at once (it can forfeit the seat: that is its signed
    word, in the record)."""

    def aged(event):
        if getattr(event, "method", "") == "presence":
            return [type(event)(event.method, ({**event.params[0], "turn": 10_000},))]
        return [event]

    g = make_game(3, clock=clock, turn_timeout=30, on_timeout="bot")
    ids = [Identity.generate() for _ in range(3)]
    for i in range(3):
        _seat(g, clock, i, bot=i < 2, identity=ids[i])
    tamper(g, g.conns[2], aged)
    g.link.pump()
    _seconds(g, clock, 1)
    seat = g.peers[2]
    assert seat.decision_due() and seat.presence.hosts_clock
    assert seat.turn_since >= clock() - 1 - TURN_SLACK
    assert not seat.takeover_due()


def test_a_hello_waiting_on_a_claim_when_the_game_ends_is_sent_the_end(make_game, clock):
    """The final ``bye`` goes to seated connections only: the new program of a seat whose old
    connection hangs (its hello waits for the old one to answer a ping) is seated after the end
    and sent every entry, the end included; the host waits for it."""
    g, ids = _table(make_game, clock, grace=5)
    _freeze(g, 2)
    _seconds(g, clock, liveness.SEAT_QUIET + 3)
    back = PeerSession(ids[2], "p2-again", clock=clock, journal=g.peers[2].journal)
    g.link.add(back, address="10.0.0.9")  # another name: a claim, the old one pinged
    _seconds(g, clock, 2.5)
    assert g.host.finished and back.state == "connecting" and not back.failed
    assert g.host.end_pending()  # waiting for the seat that did not get the end
    _seconds(g, clock, limits.PING_WAIT)
    assert back.state == "over", back.error
    assert back.table.transcript.to_bytes() == g.host.table.transcript.to_bytes()
    assert not g.host.end_pending()


def test_a_seat_that_left_is_not_waited_for_after_the_end(make_game, clock):
    g, _ = _table(make_game, clock, grace=5)
    g.peers[2].leave()
    _seconds(g, clock, 6)
    assert g.host.finished and not g.host.end_pending()


@pytest.mark.long
def test_attack_a_flood_of_strangers_from_many_addresses_is_one_line_a_minute(make_game, clock,
                                                                               caplog):
    g = make_game(3, clock=clock, code="ROOK-LUTE-OWL-4821")  # so they never take a seat
    caplog.set_level(logging.DEBUG, "palazzo.net")
    for n in range(600):  # a wrong code from 600 addresses
        conn = g.link.add(RawPeer(), address=f"10.{n // 250}.{n % 250}.1")
        g.link.send(conn, Codec().send(Request(1, "ready", ())))
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1
    clock.now += limits.SUMMARY_EVERY
    g.link.deliver(g.host.tick())
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2
    assert "more refusals of connections without a seat in the last 60 seconds, from 600 " \
        "addresses" in warned[1]
    # the players' game goes on beside it
    for i in range(3):
        g.add_bot(i, code="ROOK-LUTE-OWL-4821")
    g.link.pump()
    assert g.host.finished and len(g.transcripts()) == 1


def test_attack_a_seat_answering_pings_it_was_never_sent_is_only_alive(make_game, clock, caplog):
    """Made-up answers cost nothing: they are a sign of life, never an error or a log line; a
    flood of them meets the request budget of every seated connection."""
    g, _ = _table(make_game, clock)
    caplog.set_level(logging.WARNING, "palazzo.net")
    codec = Codec()
    g.link.send(g.conns[1], b"".join(codec.send(Response(n, None, None)) for n in range(50)))
    assert not caplog.records and g.conns[1] in g.link.peers
    g.link.send(g.conns[1], b"".join(codec.send(Response(n, None, None)) for n in range(500)))
    assert g.conns[1] not in g.link.peers  # over the budget: closed, its seat kept
    assert g.host.presence.state(1) == "reconnecting"


def test_the_line_while_the_host_is_gone_says_how_long_it_is_tried():
    assert gone_line(52.2) == "the host is gone; trying again (0:53 left)"
    assert gone_line(-3) == "the host is gone; trying again (0:00 left)"


def test_a_seat_frozen_in_the_lobby_is_not_responding_on_every_screen_until_it_answers(
        make_game, clock):
    g = make_game(3, clock=clock)
    for i in range(2):
        _seat(g, clock, i)
    g.link.pump()
    assert g.host.table.phase == "lobby"
    frozen = _freeze(g, 1)
    _seconds(g, clock, liveness.SEAT_QUIET - 1)
    assert not any(s.get("silent") for s in g.peers[0].lobby["seats"])
    _seconds(g, clock, 1.5)
    assert [s.get("silent", False) for s in g.peers[0].lobby["seats"]] == [False, True]
    assert [s.get("silent", False) for s in g.host.lobby()["seats"]] == [False, True]
    from tui.screens.lobby import lobby_text

    assert "p1" in lobby_text(g.peers[0].lobby).plain.split("(not responding)")[0]
    frozen.thaw()
    g.link.pump()
    assert not any(s.get("silent") for s in g.peers[0].lobby["seats"])
    assert not any(s.get("silent") for s in g.peers[1].lobby["seats"])
    assert "not responding" not in lobby_text(g.peers[0].lobby).plain
