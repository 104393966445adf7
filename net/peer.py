"""The asyncio peer: a ``PeerSession`` on a TCP connection, with reconnection.

A thin adapter: bytes read go to the session, the session's bytes go back; a bot (or any
``choose(view, seat)`` object) decides when the seat's turn comes. If the connection drops
before the game is over, it reconnects with the same key and the host resends the transcript
from where this peer stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from net.session import PeerEvent, PeerSession

READ_SIZE = 65536


class PeerGone(Exception):
    """The host could not be reached (again)."""


async def run_peer(
    session: PeerSession,
    host: str,
    port: int,
    bot: Any = None,
    on_event: Callable[[PeerEvent], None] | None = None,
    retries: int = 5,
    retry_delay: float = 1.0,
) -> None:
    """Play until the game is over or has failed (see ``session.state`` and ``session.error``)."""
    attempt = 0
    while True:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as e:
            attempt += 1
            if attempt > retries or session.table is None:
                raise PeerGone(f"could not reach {host}:{port}: {e.strerror or e}") from None
            await asyncio.sleep(retry_delay)
            continue
        if attempt or session.state == "disconnected":
            session.reconnect()
        attempt = 0
        try:
            await _converse(session, reader, writer, bot, on_event)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
        if session.state in ("over", "failed"):
            return
        session.connection_lost()
        _emit(session, on_event)
        attempt = 1
        await asyncio.sleep(retry_delay)


async def _converse(session: PeerSession, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter, bot: Any,
                    on_event: Callable[[PeerEvent], None] | None) -> None:
    while True:
        data = await reader.read(READ_SIZE)
        if not data:
            return
        session.receive_data(data)
        while bot is not None and session.decision_due():
            assert session.table is not None
            session.act(bot.choose(session.view, session.table.me))
        out = session.data_to_send()
        if out:
            writer.write(out)
            await writer.drain()
        _emit(session, on_event)
        if session.state in ("over", "failed"):
            return


def _emit(session: PeerSession, on_event: Callable[[PeerEvent], None] | None) -> None:
    events, session.events = session.events, []
    if on_event is not None:
        for e in events:
            on_event(e)
