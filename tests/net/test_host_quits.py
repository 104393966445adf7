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


def test_a_peer_whose_bytes_the_host_left_unread_still_reads_its_last_words(make_game):
    """The host closes a connection while bytes the peer sent wait unread (here a malformed frame,
    then more of them): the peer still reads the host's answer, then the end of the stream,
    never a reset that would lose it (a seat could then take "the host closed the game" for a
    host gone)."""
    import asyncio
    import socket

    from tests.net.test_adapters import serve_on_loopback

    async def scenario():
        runner, serving, port = await serve_on_loopback(make_game(3).host)
        loop = asyncio.get_running_loop()
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        await loop.sock_sendall(s, b"\xc1" * 1_000_000)  # a byte no msgpack value starts with
        got, reset = b"", False
        try:
            while chunk := await asyncio.wait_for(loop.sock_recv(s, 65536), 10):
                got += chunk
        except ConnectionResetError:
            reset = True
        s.close()
        runner.stop()
        await serving
        return got, reset

    got, reset = asyncio.run(scenario())
    assert not reset and b"malformed frame" in got, (reset, got[:200])


def test_attack_a_peer_that_never_closes_its_side_holds_no_socket_past_the_linger(make_game,
                                                                                  monkeypatch):
    """A peer the host closed that keeps its own side open and goes on sending (to hold the
    host's socket, and its buffers, for ever): the session forgets it at once, and the socket
    itself is closed ``LINGER`` seconds on, whatever the peer still sends."""
    import asyncio
    import socket
    import time

    from net.session.runners import host as host_runner
    from tests.net.test_adapters import serve_on_loopback

    monkeypatch.setattr(host_runner, "LINGER", 0.5)

    async def scenario():
        runner, serving, port = await serve_on_loopback(make_game(3).host)
        loop = asyncio.get_running_loop()
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        await loop.sock_sendall(s, b"\xc1" * 1000)  # malformed: the host closes it
        while await asyncio.wait_for(loop.sock_recv(s, 65536), 10):  # the answer, then EOF
            pass
        forgotten = not runner.writers
        start, cut = time.monotonic(), None
        while time.monotonic() - start < 10:  # the peer goes on talking into the half-closed line
            try:
                await loop.sock_sendall(s, b"\xc1" * 4096)
            except (ConnectionResetError, BrokenPipeError):
                cut = time.monotonic() - start
                break
            await asyncio.sleep(0.05)
        s.close()
        runner.stop()
        await serving
        return forgotten, cut

    forgotten, cut = asyncio.run(scenario())
    assert forgotten  # no longer counted against the host's connections while it lingers
    assert cut is not None and cut < 5, cut  # the host's socket closed soon after LINGER
