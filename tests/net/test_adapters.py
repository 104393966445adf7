"""The asyncio host and peers on 127.0.0.1: a whole game, and a peer whose connection is cut
mid-game reconnects by itself and finishes."""

import asyncio
import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import HostRunner
from net.session.runners.peer import run_peer
from net.wire.identity import Identity
from net.wire.rpc import Codec


class StreamConnection:
    """A codec on an asyncio stream pair, as a hand-driven client: ``await recv()`` yields
    events (``None`` once the other side closed the stream), ``send`` writes one."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.codec = Codec()
        self._pending = []

    async def recv(self):
        while not self._pending:
            data = await self.reader.read(65536)
            if not data:
                return None
            self._pending.extend(self.codec.receive_data(data))
        return self._pending.pop(0)

    async def send(self, event):
        self.writer.write(self.codec.send(event))
        await self.writer.drain()

    async def close(self):
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass

#: seconds a game over loopback, or a host's end after it, may take before it counts as a hang:
#: a guard far beyond what a loaded machine needs, never a timed assertion
HANG = 600


async def serve_on_loopback(host):
    """``host`` behind a ``HostRunner`` on a free port of 127.0.0.1: the runner, the task that
    runs it, and the port."""
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    return runner, serving, (await started)[0][1]


async def _cutting_proxy(upstream_port, cut_after):
    """A proxy that forwards to the host and cuts its first connection after ``cut_after`` bytes
    came down from the host."""
    state = {"connections": 0}

    async def handle(reader, writer):
        state["connections"] += 1
        first = state["connections"] == 1
        up_r, up_w = await asyncio.open_connection("127.0.0.1", upstream_port)

        async def pipe(src, dst, limit):
            sent = 0
            try:
                while data := await src.read(4096):
                    dst.write(data)
                    await dst.drain()
                    sent += len(data)
                    if limit and sent >= limit:
                        break
            except ConnectionError:
                pass
            dst.close()

        await asyncio.gather(pipe(up_r, writer, cut_after if first else 0), pipe(reader, up_w, 0))
        writer.close()
        up_w.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, state


@pytest.mark.long
async def test_a_cut_connection_is_rejoined_and_the_game_finishes():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    proxy, state = await _cutting_proxy(port, cut_after=3000)
    proxy_port = proxy.sockets[0].getsockname()[1]
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(3)]
    ports = [port, port, proxy_port]
    await asyncio.wait_for(asyncio.gather(*(
        run_peer(p, "127.0.0.1", pt, b, retry_delay=0.05)
        for p, b, pt in zip(peers, bots, ports, strict=True))), HANG)
    await asyncio.wait_for(serving, HANG)
    proxy.close()
    assert state["connections"] >= 2  # the third peer came back
    assert [p.state for p in peers] == ["over"] * 3
    assert len({p.table.transcript.to_bytes() for p in peers}) == 1
    assert host.finished


@pytest.mark.long
async def test_a_raw_client_over_tcp_gets_clear_errors_and_the_host_goes_on():
    from net.wire.errors import E_MALFORMED, E_UNKNOWN_METHOD
    from net.wire.rpc import Notification, Request, Response

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)

    conn = StreamConnection(*await asyncio.open_connection("127.0.0.1", port))
    challenge = await conn.recv()
    assert isinstance(challenge, Notification) and challenge.method == "challenge"
    await conn.send(Request(7, "deal_me_aces", ()))
    answer = await conn.recv()
    assert isinstance(answer, Response) and answer.msgid == 7
    assert answer.error.code == E_UNKNOWN_METHOD
    conn.writer.write(b"\xc1")  # never valid msgpack
    note = await conn.recv()
    assert note.method == "error" and note.params[0]["code"] == E_MALFORMED
    assert await conn.recv() is None  # and the host closed the connection
    await conn.close()

    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(3)]
    await asyncio.wait_for(asyncio.gather(*(
        run_peer(p, "127.0.0.1", port, b) for p, b in zip(peers, bots, strict=True))), HANG)
    await asyncio.wait_for(serving, HANG)
    assert [p.state for p in peers] == ["over"] * 3


@pytest.mark.long
async def test_a_player_deciding_from_outside_and_the_fallback_bot_after_the_timeout(clock):
    """A table screen decides through ``PeerRunner.act``; once, the player lets the turn
    timeout pass and the seat's own fallback bot decides on its machine. The host and the
    player share a fake clock, moved on by the timeout once, at that first decision: how slowly
    the machine runs cannot make a seat miss its turn."""
    from net.session.runners.peer import PeerRunner

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}),
                       turn_timeout=1, on_timeout="bot", clock=clock)
    runner, serving, port = await serve_on_loopback(host)
    me = PeerSession(Identity.generate(), "person", clock=clock)
    mine = entry.make_bot("greedy", random.Random(7))
    decided = []
    person = None

    def on_event(e):
        if e.kind == "turn" and len(decided) < 1000:
            decided.append(e)
            if len(decided) == 1:  # the first decision is left to the timeout
                clock.now += 1
            else:
                asyncio.get_running_loop().call_soon(
                    lambda: me.decision_due() and person.act(mine.choose(me.view, me.table.me)))

    person = PeerRunner(me, "127.0.0.1", port, on_event=on_event,
                        fallback=entry.make_bot("greedy", random.Random(8)))
    others = [PeerSession(Identity.generate(), f"p{i}") for i in range(2)]
    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(2)]
    await asyncio.wait_for(asyncio.gather(person.run(), *(
        run_peer(p, "127.0.0.1", port, b) for p, b in zip(others, bots, strict=True))), HANG)
    await asyncio.wait_for(serving, HANG)
    assert me.state == "over" and len(decided) > 1
    assert me.table.result()["end"] != "forfeit"
