"""Liveness over real sockets on 127.0.0.1 (``net.session.runners``): a host that withholds its
heartbeat from one peer only is "gone" on that peer's screen alone, "back" when its bytes come
again, and the game ends the same, verified, for everyone."""

import asyncio
import random

import pytest

from engine.registry import get_game
from net.session.features import liveness
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import HostRunner
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback


async def _holding_proxy(upstream):
    """A proxy to the host on ``upstream`` whose ``hold(True)`` keeps what the host sends in the
    proxy (nothing is lost) until ``hold(False)``: a host that says nothing to this peer alone."""
    state = {"held": False, "waiting": bytearray(), "writer": None}

    async def handle(reader, writer):
        up_r, up_w = await asyncio.open_connection("127.0.0.1", upstream)
        state["writer"] = writer

        async def up():
            while data := await reader.read(65536):
                up_w.write(data)
            up_w.close()

        async def down():
            while data := await up_r.read(65536):
                if state["held"]:
                    state["waiting"] += data
                else:
                    writer.write(data)
            writer.close()

        await asyncio.gather(up(), down(), return_exceptions=True)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)

    def hold(flag):
        state["held"] = flag
        if not flag and state["waiting"]:
            state["writer"].write(bytes(state["waiting"]))
            state["waiting"].clear()

    return server, server.sockets[0].getsockname()[1], hold


async def _until(done, what, seconds=60):
    for _ in range(int(seconds / 0.02)):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(what)


@pytest.mark.long
async def test_attack_a_host_withholding_its_heartbeat_from_one_peer_is_gone_there_alone():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    server, proxied, hold = await _holding_proxy(port)
    heard = {i: [] for i in range(3)}
    sessions = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    peers = [PeerRunner(s, "127.0.0.1", proxied if i == 2 else port,
                        entry.make_bot("greedy", random.Random(i)),
                        lambda e, i=i: heard[i].append(e.kind), pace=0.05)
             for i, s in enumerate(sessions)]
    tasks = [asyncio.create_task(peers[2].run())]
    try:
        await _until(lambda: sessions[2].seat is not None, "p2 seated")
        hold(True)  # from now on the host says nothing to p2 (its bytes wait in the proxy)
        tasks += [asyncio.create_task(p.run()) for p in peers[:2]]
        await _until(lambda: "host-gone" in heard[2], "p2 says the host is gone")
        assert sessions[2].host_gone is not None
        left = sessions[2].host_gone - sessions[2].clock()
        assert liveness.GIVE_UP - liveness.HOST_QUIET - 5 <= left <= liveness.GIVE_UP
        hold(False)
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
    finally:
        hold(False)
        runner.stop()
        server.close()
        await asyncio.wait_for(serving, 30)
    assert heard[2].count("host-gone") == 1 and "host-back" in heard[2]
    assert sessions[2].host_gone is None
    for i in (0, 1):  # the others heard their host all along
        assert "host-gone" not in heard[i]
    assert all(s.state == "over" for s in sessions)
    assert len({s.table.transcript.to_bytes() for s in sessions}) == 1
    assert sessions[2].table.result()["verdict"] == "verified"


async def _vanishing_proxy(upstream):
    """A proxy to the host on ``upstream``; ``vanish()`` closes it and every connection at
    once, without a word, as a host killed with SIGKILL does."""
    links = []

    async def handle(reader, writer):
        up_r, up_w = await asyncio.open_connection("127.0.0.1", upstream)
        links.extend([writer, up_w])

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
            except (ConnectionError, OSError):
                pass
            dst.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)

    def vanish():
        server.close()
        for w in links:
            w.transport.abort()

    return server.sockets[0].getsockname()[1], vanish


async def test_a_leave_while_no_host_answers_is_given_up_after_its_time_and_says_so(monkeypatch):
    """A seat whose host vanished quits: it tries to say it for ``LEAVE_TRY`` seconds only,
    then its run ends, not told; a second ``leave()`` ends the trying at once."""
    from net.session.runners import peer as peer_runner

    monkeypatch.setattr(peer_runner, "LEAVE_TRY", 3600.0)  # only a second leave ends it
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    try:
        for second in (True, False):
            if not second:
                monkeypatch.setattr(peer_runner, "LEAVE_TRY", 1.0)
            port, vanish = await _vanishing_proxy((await started)[0][1])
            session = PeerSession(Identity.generate(), "Bea")
            peer = PeerRunner(session, "127.0.0.1", port, retry_delay=0.05)
            task = asyncio.create_task(peer.run())
            await _until(lambda s=session: s.state == "lobby", "Bea in the lobby")
            vanish()  # the host cannot be reached any more
            await _until(lambda s=session: s.state == "disconnected", "the drop")
            peer.leave()
            await asyncio.sleep(0.3)
            assert not peer.told and not task.done()  # trying to say it
            if second:
                peer.leave()  # "again to quit now"
            await asyncio.wait_for(task, 30)  # a hang guard: over by itself, or at once
            assert not peer.told and session.leaving
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)


async def test_a_host_given_up_on_at_once_is_still_said_gone_first():
    """A seat whose host vanished when it had not heard it for longer than it waits
    (``give_up``) gives up at once; it still says "host-gone" first, once, so its screen saves
    the record so far (``save_so_far``) before the last line."""
    from net.session.runners.peer import PeerGone

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    proxied, vanish = await _vanishing_proxy(port)
    heard = []
    session = PeerSession(Identity.generate(), "Bea")
    peer = PeerRunner(session, "127.0.0.1", proxied, on_event=lambda e: heard.append(e.kind),
                      retry_delay=0.01, give_up=0.05)
    task = asyncio.create_task(peer.run())
    try:
        await _until(lambda: session.state == "lobby", "Bea in the lobby")
        await asyncio.sleep(0.2)  # longer than give_up since the host last spoke
        vanish()
        try:
            await asyncio.wait_for(task, 30)
        except PeerGone as e:
            assert e.gave_up
        else:
            raise AssertionError("the run ended without giving up")
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
    assert heard.count("host-gone") == 1
