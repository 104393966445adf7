"""A host that quits before the end (``HostSession.close_game``, ``HostRunner.stop``) tells
every peer and lets nobody in afterwards; the peers stop with the reason."""

from net.session.machines.conversation import Close
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import HostRunner
from net.session.runners.link import RawPeer
from net.wire.identity import Identity


def test_a_host_that_quits_mid_game_tells_every_peer_why(make_game):
    g = make_game(3)
    waiting = g.add_bot(0, bot=None)  # the game waits on it: under way, not over
    g.add_bot(1)
    g.add_bot(2)
    g.link.pump()
    assert waiting.state == "playing"
    held = len(g.host.table.transcript)
    g.link.deliver(g.host.close_game())
    assert all(p.state == "failed" for p in g.peers)
    assert all("the host closed the game" in str(p.error) for p in g.peers)
    assert all(len(p.table.transcript) == held for p in g.peers)  # each keeps its record
    assert not g.host.finished and g.host.closed == "the host closed the game"
    raw = RawPeer()
    late = g.link.add(raw)
    assert raw.closed and late not in g.link.peers


def test_the_runner_stops_its_in_process_seats_too(make_game):
    g = make_game(3)
    runner = HostRunner(g.host)
    seat = PeerSession(Identity.generate(), "own")
    runner.add_local(seat, None)
    assert seat.state == "lobby"
    runner.stop()
    assert runner.done.is_set()
    assert seat.state == "failed" and "the host closed the game" in str(seat.error)
    assert isinstance(g.host.connect(99), list) and g.host.connect(100)[0] == Close(100, g.host.closed)
