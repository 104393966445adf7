"""The asyncio peer: a ``PeerSession`` on a TCP connection, with reconnection.

A thin adapter: bytes read go to the session, the session's bytes go back. Decisions come from
a bot (``choose(view, seat)``) or from outside (a table screen calls ``PeerRunner.act``); with
the host's ``--on-timeout program-plays`` (``bot`` on the wire), a ``fallback`` bot decides for a
player who let the turn timeout pass, and its entry says so (``auto: true``,
``net.session.features.timeout``). If the connection drops before the game is over, it reconnects with the same key
and the host resends the transcript from where this peer stopped. After the end it keeps the
connection while the session waits for a rematch (``PeerSession.lingers``). With ``pace`` a bot
moves no sooner than that many seconds after its decision became due (its thinking counts), so
that the people at the table see its moves one by one (``palazzo join --bot --pace``).

Retries are bounded. After a connection that ends without the host taking this peer in (no
answer to its hello: the host closed it, was full, or is gone), it waits ``retry_delay``
seconds, doubled after each such try up to ``MAX_DELAY``, and gives up after ``retries`` of them
in a row with ``PeerGone`` (``gave_up`` set): one line saying how many tries and what the host
said last. A connection on which the host took it in starts the count again. The very first
connection failing to open at all is ``PeerGone`` at once (nobody listens there), unless
``first_tries`` allows that many more tries first (a headless join started while its host
restarts), each said once as a ``note``.
A host that is gone once this peer was taken in (it may be restarting,
``net.session.records.resume``) is tried again every ``retry_delay`` seconds, doubled up to
``liveness.GONE_RETRY``, until ``give_up`` seconds after it was last heard
(``net.session.features.liveness``): a killed host's connection ends, a stopped one goes quiet
for ``liveness.HOST_QUIET`` seconds. The ``host-gone`` event says so once (its data the time, on
the session's clock, when this peer gives up), even for a host given up on at once (its last word
older than ``give_up``: the record so far is saved all the same); the host's next byte is the
``host-back`` event.
A host that answers and closes without taking it in again is still given up on after ``retries``
such connections in a row.

A peer that quits on purpose calls ``leave()``: the host is told ``leave {}`` (written to the
socket at once, so it goes out even if the program ends right after) and the run ends without
trying again; the others see "Jo left" (``net.session.features.presence``). A peer that leaves
while its connection is down (its host gone, restarting, or not answering its hello yet) makes
a short reconnect just to say it: it tries every ``retry_delay`` seconds (at most 1) for
``LEAVE_TRY`` seconds, and says ``leave`` as soon as a host answers its hello (its bot decides
nothing meanwhile); a second ``leave()`` stops trying at once. ``told`` says whether the host
was told. ``away(flag)`` tells the host the player is away or here again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from engine.core import GameAction
from net.session.features import liveness
from net.session.features.liveness import Hearing
from net.session.machines.peer_session import PeerEvent, PeerSession, PeerState

READ_SIZE = 65536
TICK = 0.5
MAX_DELAY = 30.0  # seconds between two tries, at most
LEAVE_WAIT = 5.0  # seconds for the leave to go out before the program ends
LEAVE_TRY = 15.0  # seconds a peer that left while its connection was down tries to say so


class PeerGone(Exception):
    """The host could not be reached (again); ``gave_up`` once the retries ran out."""

    def __init__(self, message: str, gave_up: bool = False) -> None:
        super().__init__(message)
        self.gave_up = gave_up


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
        retries: int = 5,
        retry_delay: float = 1.0,
        pace: float = 0.0,
        first_tries: int = 0,
        give_up: float = liveness.GIVE_UP,
    ) -> None:
        self.session, self.host, self.port = session, host, port
        session.acks_first = True  # ``_converse`` sends them before the seat's own work
        self.first_tries = first_tries
        self.bot, self.fallback, self.on_event = bot, fallback, on_event
        self.retries, self.retry_delay = retries, retry_delay
        #: seconds after it last heard its host that a peer taken in stops trying
        self.give_up = give_up
        self.hearing = Hearing(session.clock)
        #: when this peer gives up on a host that is gone (``session.clock``), or None
        self.gone_until: float | None = None
        #: ``bot`` moves no sooner than ``pace`` seconds after its decision became due
        self.pace = pace
        self._paced: asyncio.TimerHandle | None = None
        self._wake = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None
        #: ``leave()`` was called: the run ends and does not reconnect (but to say it)
        self.left = False
        self._leave_by = 0.0  # on ``session.clock``: when a leave not yet said is given up
        self._leaving = asyncio.Event()  # set by ``leave()``: a pause between tries ends

    def act(self, action: GameAction) -> None:
        """This seat's decision, from outside (``LocalProtocolError`` if not legal or not due)."""
        self.session.act(action)
        self._wake.set()

    def flush(self) -> None:
        """Send what the session has to say now (after ``session.ready()``, say)."""
        self._wake.set()

    def away(self, away: bool) -> None:
        """The player is away (no key for a while) or here again: tell the host."""
        self.session.set_away(away)
        self._wake.set()

    def leave(self) -> None:
        """Quit on purpose: tell the host ``leave`` now and end the run; with no connection
        the host answers, reconnect for at most ``LEAVE_TRY`` seconds just to say it (a second
        call gives up on that at once)."""
        if self.left:
            self._leave_by = 0.0
            self._wake.set()
            self._leaving.set()
            return
        self.left = True
        self._leave_by = self.session.clock() + LEAVE_TRY
        self.session.leave()
        out = self.session.data_to_send()
        writer = self._writer
        if out and writer is not None and not writer.transport.is_closing():
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                writer.write(out)  # a socket transport sends at once what it can
        self._wake.set()
        self._leaving.set()

    @property
    def told(self) -> bool:
        """After ``leave()``: whether the leave went to a host (not still waiting to be said)."""
        return self.left and not self.session.leaving

    def _telling(self) -> bool:
        """A leave waits to be said, and there is still time to say it."""
        return self.left and self.session.leaving and self.session.clock() < self._leave_by

    async def _pause(self, delay: float) -> None:
        """Wait ``delay`` seconds between two tries, or until ``leave()`` is called."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._leaving.wait(), delay)
        self._leaving.clear()

    def _host_gone(self) -> None:
        """Say once that the host is gone, with the time this peer keeps trying."""
        if self.gone_until is None:
            self.gone_until = self.session.host_gone = self.hearing.last + self.give_up
            self.session.notes.add(liveness.gone_line(self.gone_until - self.session.clock()))
            self.session.events.append(PeerEvent("host-gone", self.gone_until))
            self._emit()

    def _host_back(self) -> None:
        self.hearing.heard()
        if self.gone_until is not None:
            self.gone_until = self.session.host_gone = None
            self.session.notes.add(liveness.BACK)
            self.session.events.append(PeerEvent("host-back", liveness.BACK))
            self._emit()

    def _seated(self) -> bool:
        """Whether the host took this peer in (its game, or its lobby, goes on without it)."""
        return self.session.seat is not None and self.session.state not in (
            PeerState.OVER, PeerState.FAILED)

    async def run(self) -> None:
        try:
            await self._run()
        finally:  # given up, or over: nobody tries again any more
            self.gone_until = self.session.host_gone = None

    async def _run(self) -> None:
        session = self.session
        failed = 0  # tries in a row on which the host did not take this peer in
        refused = 0  # of them, connections the host opened and closed
        why = ""
        while not self.left or self._telling():
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError as e:
                why = f"could not reach {self.host}:{self.port}: {e.strerror or e}"
                if session.table is None and failed >= self.first_tries:
                    raise PeerGone(why) from None
                if session.table is None:
                    session.events.append(PeerEvent("note", f"{why}; trying again ..."))
                    self._emit()
                if self._seated() and not self.left:  # the host is not there: it may be restarting
                    self._host_gone()
            else:
                if session.state is PeerState.DISCONNECTED:
                    session.reconnect()
                self._writer = writer
                try:
                    await self._converse(reader, writer)
                except (ConnectionError, OSError):
                    pass
                finally:
                    self._writer = None
                    if self.left:  # the leave, and anything before it, reaches the host
                        await self._drain(reader, writer)
                    writer.close()
                if session.state in (PeerState.OVER, PeerState.FAILED) or (
                        self.left and not self._telling()):
                    return
                taken_in = session.state in (PeerState.LOBBY, PeerState.PLAYING)
                session.connection_lost()
                self._emit()
                if taken_in:
                    failed = refused = 0
                else:
                    refused += 1
                why = session.refusal or f"{self.host}:{self.port} closed the connection"
            failed += 1
            if self.left:  # only to say it leaves: soon again, while there is time
                await self._pause(max(0.0, min(self.retry_delay, 1.0,
                                               self._leave_by - session.clock())))
                continue
            if session.seat is not None:  # taken in once: tried for ``give_up`` seconds
                left = self.hearing.last + self.give_up - session.clock()
                if left <= 0 or refused > self.retries:
                    if self._seated():  # said even when given up at once: its record is saved
                        self._host_gone()
                    raise PeerGone(f"gave up after {failed} tries to reach {self.host}:"
                                   f"{self.port} again: {why}", gave_up=True)
                delay = min(self.retry_delay * 2 ** min(failed - 1, 8), liveness.GONE_RETRY, left)
            elif failed > self.retries:
                raise PeerGone(f"gave up after {failed} tries to join {self.host}:{self.port}: "
                               f"{why}", gave_up=True)
            else:
                delay = min(self.retry_delay * 2 ** (failed - 1), MAX_DELAY)
            await self._pause(delay)

    @staticmethod
    async def _drain(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """After a leave: let what waits for the socket go out and read on until the host
        closes the connection (it does on ``leave``; a host that waits to write to this peer
        reads nothing more from it), at most ``LEAVE_WAIT`` seconds; then close."""

        async def until_closed() -> None:
            await writer.drain()
            while await reader.read(READ_SIZE):
                pass

        with contextlib.suppress(ConnectionError, OSError, asyncio.TimeoutError, RuntimeError):
            await asyncio.wait_for(until_closed(), LEAVE_WAIT)
        writer.close()
        with contextlib.suppress(ConnectionError, OSError, asyncio.TimeoutError, RuntimeError):
            await asyncio.wait_for(writer.wait_closed(), LEAVE_WAIT)

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = self.session
        read = asyncio.ensure_future(reader.read(READ_SIZE))
        self.hearing.awake()
        session.flush = lambda: self._send(writer)  # an acknowledgement out before own checks
        try:
            while True:
                wake = asyncio.ensure_future(self._wake.wait())
                done, _ = await asyncio.wait({read, wake}, timeout=TICK,
                                             return_when=asyncio.FIRST_COMPLETED)
                wake.cancel()
                self._wake.clear()
                self.hearing.tick()  # a loop that did not run heard nothing: not the host's fault
                if read in done:
                    data = read.result()
                    if not data:
                        return
                    self._host_back()
                    session.receive_data(data)
                    self._send(writer)  # its acknowledgements go before this seat's own work
                    read = asyncio.ensure_future(reader.read(READ_SIZE))
                elif self.left and not self._telling():
                    return  # a leave that could not be said in time
                elif self._seated() and self.hearing.quiet() >= liveness.HOST_QUIET:
                    self._host_gone()  # a stopped host: its connection stays, it says nothing
                    if self.hearing.quiet() >= self.give_up:
                        return  # given up on this connection: ``run`` decides what follows
                session.write_due()
                if not self.left:
                    self._decide()
                if self._send(writer):
                    await writer.drain()
                self._emit()
                if (session.state in (PeerState.OVER, PeerState.FAILED) and not session.lingers()) or (
                        self.left and not self._telling()):
                    return
        finally:
            session.flush = None
            read.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await read

    def _send(self, writer: asyncio.StreamWriter) -> bool:
        """Hand the session's bytes to the socket, which sends at once what it can (whether
        there were any)."""
        out = self.session.data_to_send()
        if out:
            writer.write(out)
            self.session.check_ahead()  # while the host checks what was just posted
        return bool(out)

    def _decide(self) -> None:
        session = self.session
        while session.decision_due():
            bot, auto = self.bot, False
            if bot is None and self.fallback is not None and session.takeover_due():
                bot, auto = self.fallback, True  # marked: the player did not choose it
            if bot is None:
                return
            if not auto and self.pace > 0:
                wait = session.turn_since + self.pace - session.clock()
                if wait > 0:  # the people at the table see its moves one by one
                    loop = asyncio.get_running_loop()
                    at = loop.time() + wait
                    if self._paced is not None and self._paced.when() > at + 0.05:
                        self._paced.cancel()  # the host's clock says the turn began sooner
                        self._paced = None
                    if self._paced is None:
                        self._paced = loop.call_later(wait, self._paced_out)
                    return
            assert session.table is not None
            session.act(bot.choose(session.view, session.table.me), auto)

    def _paced_out(self) -> None:
        self._paced = None
        self._wake.set()

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
    retries: int = 5,
    retry_delay: float = 1.0,
) -> None:
    """Play until the game is over or has failed (see ``session.state`` and ``session.error``)."""
    await PeerRunner(session, host, port, bot, on_event, None, retries, retry_delay).run()
