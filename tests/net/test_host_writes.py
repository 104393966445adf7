"""A peer that stops reading cannot make the host buffer without limit: once more than the
host's write limit waits for its socket, the host drops it with a logged reason, and the other
seats play their game to the end."""

import asyncio
import logging
import random
import socket

import pytest

from engine.registry import get_game
from net.session.machines.conversation import Close, Send
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import JOIN_LIMIT, HostRunner
from net.session.runners.peer import run_peer
from net.wire.identity import Identity

LIMIT = 256 * 1024
CHUNK = 64 * 1024
#: seconds a game over loopback, or a host's end after it, may take before it counts as a hang:
#: a guard far beyond what a loaded machine needs, never a timed assertion
HANG = 600


@pytest.mark.long
async def test_a_peer_that_never_reads_is_dropped_and_the_game_goes_on(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}), code=None)
    runner = HostRunner(host, write_limit=LIMIT)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"bot{i}", None),
                   entry.make_bot("random", random.Random(i)))
    runner.pump()

    # a client on 127.0.0.1 that connects and never reads a byte
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    silent.setblocking(False)
    await asyncio.get_running_loop().sock_connect(silent, ("127.0.0.1", port))
    for _ in range(500):
        if runner.writers:
            break
        await asyncio.sleep(0.01)
    (conn, writer), = runner.writers.items()

    # the host keeps sending to it; what waits for it never passes the limit by more than a send
    for _ in range(2000):
        if conn not in runner.writers:
            break
        runner.deliver([Send(conn, b"\x00" * CHUNK)])
        assert writer.transport.get_write_buffer_size() <= LIMIT + CHUNK
        await asyncio.sleep(0)
    assert conn not in runner.writers, "the silent peer was never dropped"
    assert any(f"dropping connection {conn}: it does not read" in r.getMessage()
               for r in caplog.records)

    # the third seat joins over the network and the game is played to the end
    peer = PeerSession(Identity.generate(), "late", None)
    await asyncio.wait_for(run_peer(peer, "127.0.0.1", port,
                                    entry.make_bot("random", random.Random(9))), HANG)
    await asyncio.wait_for(serving, HANG)
    silent.close()
    assert peer.state == "over" and host.finished
    assert peer.table.result()["verdict"] == "verified"


async def _silent_client(runner, port):
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.setblocking(False)
    await asyncio.get_running_loop().sock_connect(client, ("127.0.0.1", port))
    for _ in range(500):
        if runner.writers:
            break
        await asyncio.sleep(0.01)
    (conn, writer), = runner.writers.items()
    return client, conn, writer


async def _serving(write_limit=LIMIT):
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}), code=None)
    runner = HostRunner(host, write_limit=write_limit)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    return runner, serving, (await started)[0][1]


async def test_one_burst_larger_than_the_limit_drops_a_peer_that_does_not_read(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    runner, serving, port = await _serving()
    client, conn, writer = await _silent_client(runner, port)
    waited = []
    write = writer.write

    def counting(data):
        write(data)
        waited.append(writer.transport.get_write_buffer_size())

    writer.write = counting
    runner.deliver([Send(conn, b"\x00" * 16384)] * 4000)  # 64 MB in one burst
    assert conn not in runner.writers
    assert waited and max(waited) <= LIMIT + JOIN_LIMIT  # it stopped at the limit
    assert any(f"dropping connection {conn}: it does not read" in r.getMessage()
               for r in caplog.records)
    runner.stop()
    await asyncio.wait_for(serving, HANG)
    client.close()


async def test_a_burst_reaches_the_socket_whole_and_in_order_before_its_close():
    runner, serving, port = await _serving(write_limit=1 << 30)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for _ in range(500):
        if runner.writers:
            break
        await asyncio.sleep(0.01)
    (conn, _), = runner.writers.items()
    challenge = await reader.read(65536)  # what the host said on connect
    parts = [bytes([i % 251]) * (1 + i * 997 % 70_000) for i in range(40)]  # small and large
    runner.deliver([*(Send(conn, p) for p in parts), Close(conn, "enough")])
    got = await asyncio.wait_for(reader.read(-1), HANG)  # up to the end of the stream
    assert challenge and got == b"".join(parts)
    writer.close()
    runner.stop()
    await asyncio.wait_for(serving, HANG)
