"""Drops and returns over real sockets on 127.0.0.1: a connection reset mid-game is rejoined by
the program itself and every other seat sees the seat go reconnecting, then here again; a
peer that leaves on purpose is ``left`` for everyone and forfeits after the grace period."""

import asyncio
import random

import pytest

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import HANG, _cutting_proxy, serve_on_loopback


def _notes(events):
    return [e.data for e in events if e.kind == "note"]


async def _until(condition):
    """Wait for ``condition()``; a hang fails after ``HANG`` seconds (never a timed assertion)."""

    async def poll():
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), HANG)


@pytest.mark.long
async def test_a_reset_connection_comes_back_by_itself_and_everyone_sees_it():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    proxy, state = await _cutting_proxy(port, cut_after=20000)  # well into the game
    proxy_port = proxy.sockets[0].getsockname()[1]
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    heard = [[] for _ in range(3)]
    seen = [[] for _ in range(3)]  # the states each peer saw seat 2 in, in order

    def listen(i):
        def on_event(e):
            heard[i].append(e)
            if e.kind == "presence" and (not seen[i] or seen[i][-1] != e.data.seats[2].state):
                seen[i].append(e.data.seats[2].state)
        return on_event

    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(3)]
    # the dropped program waits 2 s before it tries again: the host's ticks (twice a second, on
    # the same loop) tell the others it went before it is back
    runners = [PeerRunner(p, "127.0.0.1", pt, b, listen(i), retry_delay=rd)
               for i, (p, b, pt, rd) in enumerate(zip(peers, bots, [port, port, proxy_port],
                                                      [0.05, 0.05, 2.0], strict=True))]
    await asyncio.wait_for(asyncio.gather(*(r.run() for r in runners)), HANG)
    await asyncio.wait_for(serving, HANG)
    proxy.close()
    assert state["connections"] >= 2  # the third program came back by itself
    assert any(e.kind == "disconnected" for e in heard[2])
    assert [p.state for p in peers] == ["over"] * 3
    assert len({p.table.transcript.to_bytes() for p in peers}) == 1
    for i in (0, 1):
        assert seen[i][:3] == ["here", "reconnecting", "here"], seen[i]
        assert _notes(heard[i])[:2] == ["p2 lost the connection", "p2 is back"]
    assert _notes(heard[2]) == []


async def test_a_peer_that_leaves_is_left_for_everyone_and_forfeits_after_the_grace():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}), grace=1)
    runner, serving, port = await serve_on_loopback(host)
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    heard = [[] for _ in range(3)]
    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(2)] + [None]
    runners = [PeerRunner(p, "127.0.0.1", port, b, heard[i].append, retry_delay=0.05)
               for i, (p, b) in enumerate(zip(peers, bots, strict=True))]
    tasks = [asyncio.create_task(r.run()) for r in runners]
    await _until(peers[2].decision_due)  # the game waits on the seat with no bot
    runners[2].leave()
    await asyncio.wait_for(asyncio.gather(*tasks), HANG)
    await asyncio.wait_for(serving, HANG)
    assert peers[2].state == "playing" and runners[2].left  # it stopped, and did not come back
    reason = "p2 did not come back within 1 second"
    assert host.table.forfeits == [(2, reason)]
    for i in (0, 1):
        assert "p2 left" in _notes(heard[i])
        assert peers[i].state == "over"
        assert peers[i].table.result()["verdict"] == \
            f"verified as far as it went: p2 forfeited ({reason})"


@pytest.mark.long
async def test_a_connection_reset_by_the_host_side_mid_game_is_rejoined():
    """The host's end of a seat's socket aborted (a TCP reset) in mid-game: the seat's program
    reconnects by itself, and the others see it go reconnecting, then here."""
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    heard = [[] for _ in range(3)]
    bots = [entry.make_bot("greedy", random.Random(i)) for i in range(2)] + [None]
    runners = [PeerRunner(p, "127.0.0.1", port, b, heard[i].append, retry_delay=2.0)
               for i, (p, b) in enumerate(zip(peers, bots, strict=True))]
    tasks = [asyncio.create_task(r.run()) for r in runners]
    await _until(peers[2].decision_due)  # mid-game, the game waiting on seat 2
    runner.drop(host.seats[2].conn, "a reset, as a network would")
    await _until(lambda: any(e.kind == "disconnected" for e in heard[2]))
    await _until(lambda: host.seats[2].conn is not None)  # it comes back by itself
    runners[2].bot = entry.make_bot("greedy", random.Random(2))  # and now it plays on
    runners[2].flush()
    await asyncio.wait_for(asyncio.gather(*tasks), HANG)
    await asyncio.wait_for(serving, HANG)
    assert [p.state for p in peers] == ["over"] * 3
    assert len({p.table.transcript.to_bytes() for p in peers}) == 1
    for i in (0, 1):
        assert _notes(heard[i])[:2] == ["p2 lost the connection", "p2 is back"]
