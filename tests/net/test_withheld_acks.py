"""A host that withholds the seats' acknowledgements (``net.session.machines.echo``,
``ACK_WAIT``): no seat discloses without them, and the seat kept waiting ends on a fault that
names nobody, with a line that says what happened; no honest seat is ever named.

Real sessions on the in-memory link; the attacker is a ``HostSession`` subclass that relays
every entry and no acknowledgement."""

import random

import pytest

from engine.registry import get_game
from net.session.machines.agreement import discloses
from net.session.machines.echo import ACK_WAIT
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.link import MemoryLink
from net.wire.errors import CheatDetected, Fault
from net.wire.identity import Identity
from net.wire.transcript import Entry
from tests.net.conftest import FakeClock
from tests.net.test_agreement import readable

PLAYERS = 3


class Withholding(HostSession):
    """Takes every acknowledgement (so it holds no seat late for one) and relays none; relays
    every entry; keeps every post it is sent."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.posted = []

    def _broadcast(self, method, payload, but=None, first=()):
        if method == "ack":
            return None  # taken, never relayed
        return super()._broadcast(method, payload, but, first)

    def _resend_acks(self, conn):
        return None

    def _post(self, conn, req):
        m = req.params[0]
        self.posted.append(Entry.parse(m["body"], m["sig"]))
        return super()._post(conn, req)


def _game(host_cls, clock, timeout=None):
    config = get_game("condottiere").rules.make_config(PLAYERS, {})
    host = host_cls(Identity.generate(), "condottiere", config, clock=clock, turn_timeout=timeout)
    link = MemoryLink(host)
    peers = []
    for i in range(PLAYERS):
        peers.append(PeerSession(Identity.generate(), f"p{i}", clock=clock))
        link.add(peers[-1], get_game("condottiere").make_bot("greedy", random.Random(i)))
    return host, link, peers


def test_attack_withheld_acks():
    clock = FakeClock()
    host, link, peers = _game(Withholding, clock)
    link.pump()
    # the game went as far as it goes without a disclosure: one seat holds its entry back
    waiting = [p for p in peers if p._gated is not None]
    assert len(waiting) == 1 and discloses(waiting[0]._gated)
    victim = waiting[0]
    # for the seats whose only acknowledgement would be an ``ack`` (an entry of a seat's own
    # acknowledges the heads it signs)
    assert victim.waiting_for() and victim.table.me not in victim.waiting_for()
    assert not any(discloses(e) for e in host.posted)  # nothing disclosed reached the host
    # a while later, still nothing: it waits on
    clock.now += ACK_WAIT - 1
    link.pump()
    assert victim.state == "playing" and victim.error is None
    # then it stops, on a fault that names nobody and says what happened
    clock.now += 2
    link.pump()
    assert victim.state == "failed" and isinstance(victim.error, Fault), victim.error
    line = str(victim.error)
    assert line.startswith("fault (nobody is named): agreement check: for 240 seconds the host "
                           "relayed no acknowledgement by ")
    assert "the host may be withholding them" in line
    assert not any(discloses(e) for e in host.posted)  # still: no card, no share, no end
    # no honest party is named, by anyone
    for p in peers:
        assert not isinstance(p.error, CheatDetected)
        assert all(e.kind != "cheat" for e in p.events)
    # and the attacker opened nothing the rules never showed
    assert readable([*host.table.transcript.entries, *host.posted], host.table) == []


@pytest.mark.long
def test_a_seat_whose_acknowledgements_are_relayed_never_waits_that_long():
    """The same game with an honest host: the wait ends at once, and the game reaches its
    agreed end with nobody stopped."""
    clock = FakeClock()
    host, link, peers = _game(HostSession, clock)
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS
    assert all(p.table.agreed()[0] for p in peers)


def test_a_turn_limit_lengthens_the_wait_by_twice_the_limit():
    clock = FakeClock()
    host, link, peers = _game(Withholding, clock, timeout=30)
    host.tick = lambda: []  # the host forfeits nobody: it only withholds
    link.pump()
    victim = next(p for p in peers if p._gated is not None)
    clock.now += ACK_WAIT + 59
    link.pump()
    assert victim.state == "playing"
    clock.now += 2
    link.pump()
    assert isinstance(victim.error, Fault) and "for 300 seconds" in str(victim.error)
