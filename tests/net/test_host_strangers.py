"""The idle and flooding strangers of the findings, on real sockets.

* 64 connections that never say a word kept every new player out and every dropped player from
  coming back: now they do neither, and the host closes them (for room, or after its hello
  timeout).
* One stranger's flood of tiny requests slowed a game 40 to 60 times: now the host stops
  reading it after a few, and the flood waits in the flooder's own buffers.
"""

import asyncio
import random
import socket

import pytest

from engine.registry import get_game
from net.session.features import limits
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity

from .test_adapters import HANG, serve_on_loopback


async def _idle(port, n):
    loop = asyncio.get_running_loop()
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        await loop.sock_connect(s, ("127.0.0.1", port))
        socks.append(s)
    return socks


async def _until(condition, what, tries=3000):
    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def _closed_by_host(s):
    """Whether the host closed ``s`` (what it said before closing is read and dropped)."""
    try:
        while s.recv(65536):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


async def test_idle_sockets_keep_neither_a_new_player_out_nor_a_dropped_one_from_rejoining():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    idle = await _idle(port, 70)
    await _until(lambda: len(host.conns) >= limits.STRANGERS_PER_ADDRESS, "the idle ones are in")
    assert len(host.conns) <= limits.MAX_CONNECTIONS
    peers = [PeerSession(Identity.generate(), f"bot{i}") for i in range(3)]
    runners = [PeerRunner(p, "127.0.0.1", port, entry.make_bot("greedy", random.Random(i)),
                          retry_delay=0.05) for i, p in enumerate(peers)]
    playing = [asyncio.create_task(r.run()) for r in runners]
    await _until(lambda: len(host.table.transcript) > 20, "the game started")
    # more idle sockets, then seat 1's connection breaks: it must come back beside them
    idle += await _idle(port, 70)
    seat1 = host.seats[1].conn
    runner.drop(seat1, "a test breaks it")
    await asyncio.wait_for(asyncio.gather(*playing), HANG)
    await asyncio.wait_for(serving, HANG)
    assert host.finished and [p.state for p in peers] == ["over"] * 3
    assert host.seats[1].conn != seat1  # it came back on a new connection
    assert all(p.table.result()["verdict"] == "verified" for p in peers)
    # every idle socket was closed by the host: to make room, at its hello timeout, or at the end
    await _until(lambda: all(_closed_by_host(s) for s in idle), "the host closed the idle ones")
    for s in idle:
        s.close()


@pytest.mark.long
async def test_a_flooding_stranger_is_no_longer_read_and_the_game_goes_on():
    from net.wire.rpc import Codec, Request

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    (flood,) = await _idle(port, 1)
    burst = Codec().send(Request(1, "ready", ())) * 4096
    # the host stops reading it: its own buffers fill and its sends cannot go on
    for _ in range(100_000):
        try:
            flood.send(burst)
        except BlockingIOError:
            break
        await asyncio.sleep(0)
    else:
        raise AssertionError("the host kept reading the flood")
    (conn,) = host.conns
    assert not host.reading(conn) and not host.conns[conn].closed
    peers = [PeerSession(Identity.generate(), f"bot{i}") for i in range(3)]
    await asyncio.wait_for(asyncio.gather(*(
        PeerRunner(p, "127.0.0.1", port, entry.make_bot("greedy", random.Random(i))).run()
        for i, p in enumerate(peers))), HANG)
    await asyncio.wait_for(serving, HANG)
    assert host.finished and [p.state for p in peers] == ["over"] * 3
    flood.close()
