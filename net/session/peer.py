"""The asyncio peer: a ``PeerSession`` on a TCP connection, with reconnection.

A thin adapter: bytes read go to the session, the session's bytes go back. Decisions come from
a bot (``choose(view, seat)``) or from outside (a table screen calls ``PeerRunner.act``); with
the host's ``--on-timeout bot``, a ``fallback`` bot decides for a player who let the turn
timeout pass. If the connection drops before the game is over, it reconnects with the same key
and the host resends the transcript from where this peer stopped. A host that cannot be reached
any more (it may be restarting, ``net.session.resume``) is tried again with doubling delays, up
to ``MAX_DELAY`` apart, ``retries`` times (about a minute by default); the ``host-gone`` event
says so once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from net.session.sessions import PeerEvent, PeerSession

READ_SIZE = 65536
TICK = 0.5
MAX_DELAY = 8.0  # seconds between two tries to reach a host that went away, at most


class PeerGone(Exception):
    """The host could not be reached (again)."""


class PeerRunner:
    """Keeps a ``PeerSession`` connected and fed until its game is over or has failed."""

    def __init__(
        self,
        session: PeerSession,
        host: str,
        port: int,
        bot: Any = None,
        on_event: Callable[[PeerEvent], None] | None = None,
        fallback: Any = None,
        retries: int = 10,
        retry_delay: float = 1.0,
    ) -> None:
        self.session, self.host, self.port = session, host, port
        self.bot, self.fallback, self.on_event = bot, fallback, on_event
        self.retries, self.retry_delay = retries, retry_delay
        self._wake = asyncio.Event()

    def act(self, action: Any) -> None:
        """This seat's decision, from outside (``LocalProtocolError`` if not legal or not due)."""
        self.session.act(action)
        self._wake.set()

    def flush(self) -> None:
        """Send what the session has to say now (after ``session.ready()``, say)."""
        self._wake.set()

    async def run(self) -> None:
        session = self.session
        attempt = 0
        while True:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError as e:
                attempt += 1
                if attempt > self.retries or session.table is None:
                    raise PeerGone(f"could not reach {self.host}:{self.port}: {e.strerror or e}") from None
                if attempt == 2:  # the host is not there any more: it may be restarting
                    session.events.append(PeerEvent("host-gone"))
                    self._emit()
                await asyncio.sleep(min(self.retry_delay * 2 ** (attempt - 1), MAX_DELAY))
                continue
            if session.state == "disconnected":
                session.reconnect()
            attempt = 0
            try:
                await self._converse(reader, writer)
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()
            if session.state in ("over", "failed"):
                return
            session.connection_lost()
            self._emit()
            attempt = 1
            await asyncio.sleep(self.retry_delay)

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = self.session
        read = asyncio.ensure_future(reader.read(READ_SIZE))
        try:
            while True:
                wake = asyncio.ensure_future(self._wake.wait())
                done, _ = await asyncio.wait({read, wake}, timeout=TICK,
                                             return_when=asyncio.FIRST_COMPLETED)
                wake.cancel()
                self._wake.clear()
                if read in done:
                    data = read.result()
                    if not data:
                        return
                    session.receive_data(data)
                    read = asyncio.ensure_future(reader.read(READ_SIZE))
                self._decide()
                out = session.data_to_send()
                if out:
                    writer.write(out)
                    await writer.drain()
                self._emit()
                if session.state in ("over", "failed"):
                    return
        finally:
            read.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await read

    def _decide(self) -> None:
        session = self.session
        while session.decision_due():
            bot = self.bot
            if bot is None and self.fallback is not None and session.takeover_due():
                bot = self.fallback
            if bot is None:
                return
            assert session.table is not None
            session.act(bot.choose(session.view, session.table.me))

    def _emit(self) -> None:
        events, self.session.events = self.session.events, []
        if self.on_event is not None:
            for e in events:
                self.on_event(e)


async def run_peer(
    session: PeerSession,
    host: str,
    port: int,
    bot: Any = None,
    on_event: Callable[[PeerEvent], None] | None = None,
    retries: int = 10,
    retry_delay: float = 1.0,
) -> None:
    """Play until the game is over or has failed (see ``session.state`` and ``session.error``)."""
    await PeerRunner(session, host, port, bot, on_event, None, retries, retry_delay).run()
