"""The asyncio host's in-process seats (its own seat, its bots) are cut the way the host cuts a
socket: when the session closes one, the seat hears it and the session sees it leave.

``HostRunner`` routes the session's output both to sockets and to in-process peers; closing an
in-process connection used to reach the socket-only ``drop(conn, reason)`` and raise.
"""

from engine.registry import get_game
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import HostRunner
from net.session.runners.link import RawPeer
from net.wire.identity import Identity


def _runner():
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    return host, HostRunner(host)


def test_an_in_process_connection_the_host_closes_for_bad_bytes_is_cut():
    host, runner = _runner()
    raw = RawPeer()
    conn = runner.add(raw)
    runner.send(conn, b"\xc1")  # a byte msgpack never uses: the host refuses and closes
    assert raw.closed
    assert any(e.method == "error" for e in raw.events())
    assert conn not in runner.peers and conn not in host.conns
    # the host goes on: a seat joins in process after it
    seat = PeerSession(Identity.generate(), "alice")
    runner.add_local(seat, None)
    assert seat.state == "lobby"
    assert [s["name"] for s in host.lobby()["seats"]] == ["alice"]


def test_an_in_process_seat_keeps_its_seat_against_a_second_one_with_its_key():
    host, runner = _runner()
    me = Identity.generate()
    first, second = PeerSession(me, "alice"), PeerSession(me, "alice")
    runner.add_local(first, None)
    old = host.seats[0].conn
    runner.add_local(second, None)
    assert second.state == "failed" and "already at the table" in str(second.error)
    assert first.state == "lobby"
    assert old in runner.peers and old in host.conns
    assert host.seats[0].conn == old and len(host.seats) == 1


async def test_what_follows_a_check_on_the_worker_thread_runs_in_the_serving_context():
    """A relayed entry's check ends on a worker thread; the host settles it on its loop in the
    context it serves from, so what a change opens (a screen of the app that runs the loop)
    finds that app. Settled in the worker's context, a rematch's table opened without one."""
    import asyncio
    import contextvars
    import random

    where: contextvars.ContextVar[str] = contextvars.ContextVar("where", default="a worker")
    where.set("the host's loop")
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici",
                       entry.rules.make_config(3, {"short_game": True}))
    runner = HostRunner(host)
    seen: list[str] = []
    runner.on_change = lambda: seen.append(where.get())
    seats = [PeerSession(Identity.generate(), name, auto_ready=True) for name in ("a", "b", "c")]
    for i, seat in enumerate(seats):
        runner.add_local(seat, entry.make_bot("greedy", random.Random(i)))
    for _ in range(2000):  # a hang guard: the game ends in a few hundred settles
        if host.finished:
            break
        await asyncio.sleep(0.005)
    assert host.finished and seen
    assert set(seen) == {"the host's loop"}
