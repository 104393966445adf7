"""The asyncio host: a ``HostSession`` behind a TCP server, plus the seats it runs itself.

A thin adapter: each socket is a connection id; bytes read go to the session, the session's
output goes back to sockets (or to in-process peers through ``net.session.runners.link``). A timer calls
``tick`` for the turn timeout. The run ends when the game is over (the transcript is saved by
the caller) and no rematch is awaited, or when the caller cancels it. When the seats agree to a
rematch (``net.session.features.rematch``), ``rematch(old)`` (set by the caller) puts the new game's
session in ``host`` and the run goes on with it, on the same port.

Writes are bounded: the bytes waiting for one socket may not pass ``write_limit`` (by more than
one write). A peer that stops reading while the game goes on (broadcasts keep coming) is dropped
with a logged reason, as if it had left; it may rejoin. The other seats' game goes on. What one
burst of the session's output sends to one socket goes out in as few writes as it can (up to
``JOIN_LIMIT`` bytes each: a relayed entry and the answer to its post make one), in order, and
before that socket's close.

What a stranger may cost is the session's to decide (``net.session.features.limits``): the
adapter tells it each connection's address, and the timer's ``tick`` closes strangers that never
say hello. Once the session closes a connection, nothing more is read from it. A connection is
closed gently (``_shut``): this side's end of file goes after the last bytes, and the socket
itself closes when the peer closes its side (what it still sends is read and dropped), or
``LINGER`` seconds on; the session forgets the connection at once. A socket closed with the
peer's bytes still unread would be reset, and a reset peer may lose what it was sent last: "the
host closed the game" would read as a host gone. Connections come and go in the log only at
debug level; refusals are logged by the session, a few lines per address.

Memory stays bounded under a stream of short connections (``scripts/fuzz_host_memory.py``):
Python frees what each one held, and after every ``TRIM_EVERY`` closed connections the host
asks the C library to give the freed heap back to the system (``malloc_trim``, where there is
one), which it otherwise keeps, in pieces too scattered to reuse.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import logging
from collections.abc import Callable
from typing import Any

from net.session.features.code import address_key
from net.session.machines.conversation import Close, Output, Send
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.link import MemoryLink

log = logging.getLogger("palazzo.net")
READ_SIZE = 65536
WRITE_LIMIT = 16 * 1024 * 1024  # bytes waiting for one socket; beyond it the peer is dropped
JOIN_LIMIT = 64 * 1024  # bytes of one burst for one socket joined into one write, at most
DRAIN_TIMEOUT = 5.0  # seconds for the last words to reach a peer at the end
LINGER = 2.0  # seconds a closed connection is read on (and dropped) for the peer to close its side
TRIM_EVERY = 500  # closed connections between two heap trims


def _heap_trimmer() -> Callable[[int], object] | None:
    """The C library's ``malloc_trim`` (glibc), or ``None`` where there is none."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _heap_trimmer()


class HostRunner(MemoryLink):
    """Routes the session's output to sockets or to the in-process peers; settles an entry
    relayed pending as soon as its check ends (``net.session.machines.relay``)."""

    settle_at_once = False

    def __init__(self, session: HostSession, on_change: Callable[[], object] | None = None,
                 write_limit: int = WRITE_LIMIT) -> None:
        super().__init__(session)
        self.write_limit = write_limit
        self.writers: dict[int, asyncio.StreamWriter] = {}
        self.closing: dict[int, asyncio.Event] = {}  # set when the session closes the socket
        self.serving: set[asyncio.Task[Any]] = set()  # one task per open socket
        self.closed_since_trim = 0
        self.done = asyncio.Event()
        self.on_change = on_change  # called after every burst of traffic (e.g. to print moves)
        #: called with the old session when its seats agreed to a rematch: it sets ``host``
        self.rematch: Callable[[HostSession], object] | None = None

    def deliver(self, outputs: list[Output]) -> None:
        """Hand the session's output to the in-process peers and the sockets: what one burst
        sends to one socket goes out in one write (a relayed entry and the answer to its post,
        say), each socket's bytes in their order, before its close. The sockets first: the
        in-process seats check what they get at once, and the peers on the network need not
        wait for that."""
        local = [o for o in outputs if o.conn in self.peers]
        waiting: dict[int, list[bytes]] = {}
        shut: list[int] = []
        for out in outputs:
            if out.conn not in self.writers:
                continue
            if isinstance(out, Send):
                waiting.setdefault(out.conn, []).append(out.data)
            elif isinstance(out, Close):
                self._write(out.conn, waiting.pop(out.conn, []))
                writer = self.writers.pop(out.conn, None)
                if writer is not None:
                    _shut(writer)
                    shut.append(out.conn)
                if out.conn in self.closing:
                    self.closing[out.conn].set()
        for conn, chunks in waiting.items():
            self._write(conn, chunks)
        # forgotten at once, as ``MemoryLink`` forgets a peer it drops (the socket lingers in
        # ``_serve``, its bytes dropped unread)
        for conn in shut:
            self.deliver(self.host.disconnect(conn))
        super().deliver(local)
        if self.host.rematch.go and self.rematch is not None:
            old = self.host
            old.rematch.start()
            self.rematch(old)
        elif (self.host.finished and not self.host.rematch.waiting
              and not self.host.end_pending()) or self.host.closed:
            self.done.set()

    def _write(self, conn: int, chunks: list[bytes]) -> None:
        """Write ``chunks`` to ``conn``'s socket, joined up to ``JOIN_LIMIT`` bytes a write, and
        drop it as soon as more than the write limit waits for it."""
        i = 0
        while i < len(chunks):
            writer = self.writers.get(conn)
            if writer is None or writer.transport.is_closing():  # gone: its socket is closing
                return
            j, size = i + 1, len(chunks[i])
            while j < len(chunks) and size + len(chunks[j]) <= JOIN_LIMIT:
                size += len(chunks[j])
                j += 1
            writer.write(chunks[i] if j == i + 1 else b"".join(chunks[i:j]))
            i = j
            waiting = writer.transport.get_write_buffer_size()
            if waiting > self.write_limit:
                self.drop(conn, f"it does not read ({waiting} bytes wait for it)")
                return

    def stop(self, reason: str = "the host closed the game") -> None:
        """The host quits before the end: every peer hears ``bye {reason}``, then the run ends
        (``HostSession.close_game``)."""
        self.deliver(self.host.close_game(reason))
        self.done.set()

    def drop(self, conn: int, reason: str = "the connection was cut") -> None:
        """Close a connection at once (what waits for it is lost). An in-process peer is cut
        as ``MemoryLink`` cuts it; for a socket, its ``_serve`` task then tells the session that
        the peer left."""
        if conn in self.peers:
            super().drop(conn)
            return
        writer = self.writers.pop(conn, None)
        if writer is None:
            return
        log.warning("dropping connection %s: %s", conn, reason)
        writer.transport.abort()
        if conn in self.closing:
            self.closing[conn].set()

    def add_local(self, peer: PeerSession, bot: Any) -> None:
        self.add(peer, bot)
        self.pump()

    def pump(self, limit: int = 1_000_000) -> None:
        super().pump(limit)
        self._watch_pending()
        if self.on_change is not None:
            self.on_change()

    def _watch_pending(self) -> None:
        """Settle the pending entry when its check ends (at once outside the event loop)."""
        p = self.host.pending
        if p is None or p is getattr(self, "_watched", None):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving yet: nobody waits on the loop
            self.deliver(self.host.settle(wait=True))
            self.pump()
            return
        self._watched = p
        # settle in this context (a screen opened by what follows must find the app that runs
        # this loop): a check left for the loop runs at its next turn, the relay being out now;
        # one on a worker thread when it ends
        here = contextvars.copy_context()
        if p.later is not None:
            loop.call_soon(self._settled, context=here)
            return
        p.check.add_done_callback(
            lambda _: loop.call_soon_threadsafe(self._settled, context=here))

    def _settled(self) -> None:
        self.deliver(self.host.settle())
        self.pump()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = address_key(str(peer[0])) if isinstance(peer, tuple) and peer else "?"
        self._next += 1
        conn = self._next
        self.writers[conn] = writer
        log.debug("connection %s from %s", conn, peer)
        closed = self.closing[conn] = asyncio.Event()
        task = asyncio.current_task()
        if task is not None:
            self.serving.add(task)
            task.add_done_callback(self.serving.discard)
        try:
            self.deliver(self.host.connect(conn, address))
            while conn in self.writers:
                await writer.drain()
                if not self.host.reading(conn):  # muted: let its bytes wait in its own buffers
                    await closed.wait()
                    break
                data = await reader.read(READ_SIZE)
                if not data or conn not in self.writers:  # closed: nothing more is read
                    break
                self.send(conn, data)
                self.pump()
        except (ConnectionError, OSError) as e:
            log.debug("connection %s lost: %s", conn, e)
        finally:
            self.writers.pop(conn, None)
            self.closing.pop(conn, None)
            self.closed_since_trim += 1
            self.deliver(self.host.disconnect(conn))
            self.pump()
            await _linger(reader, writer)

    async def run(self, bind: str | None, port: int, started: asyncio.Future[Any] | None = None) -> None:
        server = await asyncio.start_server(self._serve, bind, port)
        if started is not None:
            started.set_result([s.getsockname() for s in server.sockets])
        async with server:
            while not self.done.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.done.wait(), 0.5)
                self.deliver(self.host.tick())
                self.pump()
                if self.closed_since_trim >= TRIM_EVERY and _TRIM is not None:
                    self.closed_since_trim = 0
                    _TRIM(0)
            # let the last entries and the goodbyes reach every socket before closing
            for writer in list(self.writers.values()):
                with contextlib.suppress(ConnectionError, OSError, asyncio.TimeoutError):
                    await asyncio.wait_for(writer.drain(), DRAIN_TIMEOUT)
            await asyncio.sleep(0.2)
            for conn in list(self.writers):
                _shut(self.writers.pop(conn))
            for closed in self.closing.values():  # the muted ones stop waiting
                closed.set()
            serving = [t for t in self.serving if not t.done()]
            if serving:  # every connection's task ends here, none is left to be cancelled
                await asyncio.wait(serving, timeout=DRAIN_TIMEOUT)


def _shut(writer: asyncio.StreamWriter) -> None:
    """Close this side of a connection after its last bytes (end of file); its ``_serve``
    closes the socket once the peer closes its side (``_linger``), at the latest ``LINGER``
    seconds on."""
    if writer.transport.is_closing():
        return
    try:
        loop = asyncio.get_running_loop()
        writer.write_eof()
    except (RuntimeError, OSError, NotImplementedError):  # no loop, or no half-close here
        writer.close()
        return
    loop.call_later(LINGER, writer.close)


async def _linger(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Close a connection so that the peer reads everything it was sent: this side's end of
    file first, then what the peer still sends is read and dropped until it closes its side, for
    at most ``LINGER`` seconds; then the socket is closed."""

    async def until_closed() -> None:
        while await reader.read(READ_SIZE):
            pass

    _shut(writer)
    with contextlib.suppress(ConnectionError, OSError, asyncio.TimeoutError, RuntimeError):
        await asyncio.wait_for(until_closed(), LINGER)
    writer.close()
