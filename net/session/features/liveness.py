"""Liveness both ways: the host's heartbeat to every connection, and what each side makes of a
silence (the host's word for a seat; a peer's own reading of its host).

Rules (``docs/protocol.md``, "Liveness"):

* **The heartbeat.** The host sends the request ``ping`` (no params) to every seated connection
  and every watcher every ``BEAT_EVERY`` seconds, until the game is over, never while its
  previous ping waits for an answer (a peer that was stopped or fell behind answers one ping,
  not a heap of them that would pass a watcher's request budget); a peer answers at once with
  the result nil (as it answers the ping of a claim, section 5.4). The answers are the
  seats' heartbeat to the host; the pings are the host's to them. Any byte counts as a sign of
  life, both ways; an answer to a ping is never an error, whatever its msgid.
* **A seat that does not answer.** A seated connection from which the host has read nothing for
  ``SEAT_QUIET`` seconds is ``silent`` (``net.session.features.presence``): every screen shows it
  "not responding" at the next presence; for the grace period it counts as gone, from when it
  went quiet. Its next byte makes it what it was. A host whose own loop did not run for
  ``LAG`` seconds (a busy or stopped machine) has heard nobody meanwhile for reasons of its own:
  it counts every connection as heard at that moment (``Hearing.lagged``).
* **A host that does not answer.** A peer that has read nothing from its host for
  ``HOST_QUIET`` seconds while seated (lobby or game, not after the end) says "the host is gone;
  trying again (0:52 left)" (``gone_line``), the time left being until it gives up: ``GIVE_UP``
  seconds after it last heard the host (``palazzo join --give-up``), which is "about a minute"
  of ``docs/commandline.md``. It keeps its connection and tries again as the host's connection
  ends (a killed host) or as it gives up on it (a stopped one). The host's next byte, on that
  connection or a new one, is "the host is back; the game goes on" (``BACK``). The same loop-lag
  rule keeps a peer that was itself busy from blaming its host.
* **In the lobby** a seated connection silent for ``SEAT_QUIET`` seconds is "not responding"
  too: the host's ``lobby`` gives its seat ``silent: true`` (``HostHeartbeat.quiet_lobby``), and
  every screen shows it beside the name, until its next byte.
* What a heartbeat proves: nothing but that bytes came. It is nobody's signature and is in no
  record; "not responding" is the host's word, like every presence (``docs/security.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from net.wire.rpc import Event, Request

if TYPE_CHECKING:  # the host session's parts (its door imports this module's neighbours)
    from net.session.features.presence import HostPresence
    from net.session.machines.host_door import Conn, Seat

log = logging.getLogger("palazzo.net")

BEAT_EVERY = 1.0  # seconds between two pings from the host to one connection
SEAT_QUIET = 6.0  # seconds without a byte from a seat before the host says it is not responding
HOST_QUIET = 3.5  # seconds without a byte from the host before a peer says it is gone
GIVE_UP = 60.0  # seconds after it last heard the host that a peer stops trying
LAG = 2.0  # a loop that did not run for this long heard nothing for reasons of its own
GONE_RETRY = 5.0  # seconds between two tries to reach a host that is gone, at most
BACK = "the host is back; the game goes on"


def clock_words(seconds: float) -> str:
    """``0:52``: whole seconds, rounded up, never below 0."""
    s = max(0, int(-(-seconds // 1)))
    return f"{s // 60}:{s % 60:02d}"


def gone_line(left: float) -> str:
    """What every screen says while the host does not answer, ``left`` seconds before its
    program gives up."""
    return f"the host is gone; trying again ({clock_words(left)} left)"


class Hearing:
    """When each side last heard the other, with the loop-lag rule: ``heard()`` at every byte,
    ``tick()`` at every turn of the loop, ``quiet()`` the seconds of silence that count."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.last = clock()
        self._ticked = self.last

    def heard(self) -> None:
        self.last = self.clock()

    def tick(self) -> bool:
        """A turn of the loop; true when the loop had not run for ``LAG`` seconds (then the
        silence so far is not counted)."""
        now = self.clock()
        lagged = now - self._ticked >= LAG
        self._ticked = now
        if lagged:
            self.last = now
        return lagged

    def awake(self) -> None:
        """The loop runs again after a wait of its own choosing (a pause between two tries):
        the wait is no lag."""
        self._ticked = self.clock()

    def quiet(self) -> float:
        return self.clock() - self.last


class HostHeartbeat:
    """The host's side: its pings and its word on who does not answer, in the game and in the
    lobby; a mixin of ``HostSession``, whose attributes these are."""

    conns: dict[int, Conn]
    seats: list[Seat]
    presence: HostPresence
    hearing: Hearing
    clock: Callable[[], float]

    def _send(self, conn: int, message: Event) -> None:
        raise NotImplementedError  # the door's

    def _broadcast_lobby(self) -> None:
        raise NotImplementedError  # the session's

    #: the connections of seats that are not responding in the lobby (set by the session)
    quiet_lobby: set[int]

    def _heard(self, c: Conn) -> None:
        """A byte from connection ``c``: it is alive."""
        c.heard = self.clock()
        if c.seat is None:
            return
        if self.presence.started and self.presence.state(c.seat) == "silent":
            log.info("seat %s (%s) is responding again", c.seat, self.seats[c.seat].name)
            self.presence.heard(c.seat)
        quiet = self.quiet_lobby
        if quiet:
            conn = self.seats[c.seat].conn if 0 <= c.seat < len(self.seats) else None
            if conn in quiet:
                quiet.discard(conn)
                self._broadcast_lobby()

    def _heartbeat(self, now: float) -> None:
        """Ping every seated connection and watcher every ``BEAT_EVERY`` seconds; a seat silent
        for ``SEAT_QUIET`` is "not responding", in the game and in the lobby (the host's own
        seats, in process, are never pinged)."""
        lagged = self.hearing.tick()
        quiet = self.quiet_lobby
        was = set(quiet)
        quiet.intersection_update(c.conn for c in self.seats if c.conn is not None)
        for conn, c in list(self.conns.items()):
            if c.closed or not c.address or (c.seat is None and c.watcher is None):
                continue
            if lagged:  # this loop did not run: nobody could be heard
                c.heard = now
            if now - c.beat >= BEAT_EVERY and not c.beating:  # one at a time: a peer that
                c.beat, c.beating = now, True  # was stopped answers one, not a heap
                self._send(conn, Request(c.codec.next_msgid(), "ping", ()))
            if c.seat is None or now - c.heard < SEAT_QUIET:
                continue
            if not self.presence.started:
                quiet.add(conn)
                continue
            if self.presence.state(c.seat) in ("here", "away"):
                log.info("seat %s (%s) is not responding", c.seat, self.seats[c.seat].name)
            self.presence.silent(c.seat)
        if quiet != was and not self.presence.started:
            self._broadcast_lobby()
