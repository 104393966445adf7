"""Acknowledging is a duty: a seat whose acknowledgement the game waits on is due, as the seat
that writes is (the host's side of the liveness of ``net.session.machines.echo``).

A seat holds an entry that discloses until every other seat still in has acknowledged the head
it is written on (``net.session.machines.agreement``). A seat that does not acknowledge (frozen,
gone, or withholding on purpose) would so hold the seat due to write, and the host, forfeiting
only the seat due, would stall the game or forfeit the honest writer. Rules (``docs/protocol.md``,
"Liveness"; ``docs/security.md``, "Agreement before disclosure"):

* The host keeps, for every seat, the longest prefix of its transcript whose acknowledgement
  by that seat it holds: an ``ack`` it relayed, or the seat's own entry, which signs the head
  after it (``AckBook``); and when each head became the host's (relayed, or, after a restart,
  restored).
* A seat still in (not forfeited, not signed its end), other than the seat due to write, that
  has not acknowledged the host's head **owes** an acknowledgement, from when the first head
  it has not acknowledged became the host's. Every honest seat acknowledges each head as it
  reaches it (a seat back on a new connection acknowledges its head again), so a seat that
  owes one for long is frozen, gone, or withholding it, and the seat due may be holding a
  disclosure for it: the game waits on it.
* A seat that owes an acknowledgement is due for the host's deadlines, as the writer is: it is
  forfeited ``ack_limit`` seconds after it began to owe (the turn limit, twice it with
  ``--on-timeout bot``; without a turn limit, while it is here, the grace period, but at least
  ``ACK_LEAST`` seconds, so that an honest seat slow to check a large entry is not taken for a
  withholder under a short grace, and at most ``ACK_MOST``, so that the host forfeits it
  before the seat it holds gives up, ``ACK_WAIT``) with the reason "<name>
  did not acknowledge within <n> seconds", or, while it is gone (reconnecting, silent, left),
  ``grace`` seconds after the later of its going and its owing, with "<name> did not come back
  within <n> seconds". The writer who waited on it is never charged for the wait.
* The seat due to write is charged its turn limit from when every seat it may wait on has
  acknowledged the head it writes on (``turn_start``); acknowledgements that come within
  ``ACK_SLACK`` seconds leave its turn as it was (counted from when it became due).
* **One clock across restarts.** A restarted host counts the turn from when its last entry was
  saved (``resumed_since``: the wall-clock time of its record's last write), not from its
  restart: the deadline every screen counted down to stays. A host that was down for longer
  than the limit leaves the seat due at least ``RESUME_LEAST`` seconds. Until a new entry is
  written, acknowledgements given again after the restart do not move the writer's turn.
* Every presence says which seats the game waits on for an acknowledgement (``acks``: those
  that have owed one for ``ACK_SLACK`` seconds at least) and the seconds before the host
  forfeits the first of them (``ack_wait``); every screen says "waiting for Jo to acknowledge".
* What this does not prove: that the seat due holds anything. A seat that owes an
  acknowledgement has not done what every honest seat does at once; a forfeit for it is a fault
  that names nobody (the host's word, as every forfeit: a host may forfeit any seat still in,
  and a seat it forfeits signs no end, so the record says "one side's").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from net.session.features.presence import DEFAULT_GRACE, GONE, HostPresence
from net.session.machines.entries import Phase
from net.wire.errors import HOST
from net.wire.rpc import Fields

if TYPE_CHECKING:  # the host session's parts
    from net.session.machines.host_door import Seat
    from net.session.machines.table import Table

#: seconds an acknowledgement may take before the game is said to wait on it
ACK_SLACK = 1.0
#: without a turn limit, the seconds a seat that is here may owe an acknowledgement, at least
ACK_LEAST = 30.0
#: without a turn limit, the seconds a seat that is here may owe an acknowledgement, at most:
#: less than a waiting seat's own patience (``net.session.machines.echo.ACK_WAIT``), so that
#: the host forfeits a withholder before the honest seat it holds gives up
ACK_MOST = DEFAULT_GRACE
#: seconds a restarted host leaves the seat due, at least, whatever its turn's saved start
RESUME_LEAST = 20.0


class AckBook:
    """Which head each seat has acknowledged, as the host holds it, and since when."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        #: when the heads the host did not see become its own began (a restarted host: then)
        self.origin = clock()
        self.relayed: dict[int, float] = {}  # n -> when the head of n entries became the host's
        self.acked: dict[int, int] = {}  # seat -> the longest prefix it acknowledged
        self.acked_at: dict[int, float] = {}  # seat -> when that prefix grew last
        #: the length a restarted host resumed at (-1: not restarted)
        self.restored_at = -1

    def restored(self) -> None:
        """A restarted host: every head it holds is its own from now on."""
        self.origin = self.clock()
        self.relayed.clear()

    def head(self, n: int) -> None:
        """The host's transcript has ``n`` entries now."""
        self.relayed[n] = self.clock()

    def ack(self, seat: int, n: int) -> None:
        """The host holds seat ``seat``'s acknowledgement of the first ``n`` entries."""
        if seat >= 0 and n > self.acked.get(seat, 0):
            self.acked[seat] = n
            self.acked_at[seat] = self.clock()

    def owing(self, length: int, seats: Iterable[int]) -> dict[int, float]:
        """Each of ``seats`` that has not acknowledged the head of ``length`` entries, with when
        it began to owe an acknowledgement."""
        out: dict[int, float] = {}
        for s in seats:
            a = self.acked.get(s, 0)
            if a < length:
                out[s] = self.relayed.get(a + 1, self.origin)
        return out

    def settled(self, length: int, seats: Iterable[int]) -> float | None:
        """When the last of ``seats`` acknowledged the head of ``length`` entries (``None``:
        some have not)."""
        at = self.relayed.get(length, self.origin)
        for s in seats:
            if self.acked.get(s, 0) < length:
                return None
            at = max(at, self.acked_at.get(s, at))
        return at


def turn_start(due_since: float, settled: float | None, now: float) -> float | None:
    """When the writer's turn limit starts: when it became due, unless it waited on
    acknowledgements for ``ACK_SLACK`` seconds or more (then when the last came; ``None`` while
    it still waits)."""
    if settled is None:
        return None if now - due_since >= ACK_SLACK else due_since
    return due_since if settled - due_since < ACK_SLACK else settled


def resumed_since(now: float, wall: float, written: float, limit: float | None) -> float:
    """A restarted host's start of the turn under way, on its clock ``now`` (wall-clock time
    ``wall``): when its last entry was ``written`` (wall-clock time), but late enough that the
    seat due has ``RESUME_LEAST`` seconds left, at least, under ``limit``."""
    since = now - max(0.0, wall - written)
    if limit is not None:
        since = max(since, now + min(RESUME_LEAST, limit) - limit)
    return since


def ack_deadline(owing: dict[int, float], presence: HostPresence, limit: float | None,
                 names: list[str]) -> tuple[float, str, int] | None:
    """The first forfeit of a seat that owes an acknowledgement: when, why, and which seat."""
    grace = presence.grace
    found: list[tuple[float, str, int]] = []
    for seat, since in owing.items():
        name = names[seat]
        gone = 0 <= seat < len(presence.marks) and presence.marks[seat].state in GONE
        ack_limit = limit if limit is not None else \
            None if grace is None or gone else min(max(grace, ACK_LEAST), ACK_MOST)
        if ack_limit is not None:
            found.append((since + ack_limit,
                          f"{name} did not acknowledge within {ack_limit:g} seconds", seat))
        if grace is not None and gone:
            mark = presence.marks[seat]
            found.append((max(mark.since, since) + grace, f"{name} did not come back within "
                          f"{grace:g} second{'' if grace == 1 else 's'}", seat))
    return min(found, default=None)


def presence_fields(owing: dict[int, float], deadline: tuple[float, str, int] | None,
                    now: float) -> Fields:
    """What a presence says of the acknowledgements the game waits on: ``acks`` (the seats
    that have owed one for ``ACK_SLACK`` seconds) and ``ack_wait``; nothing when none."""
    late = sorted(s for s, since in owing.items() if now - since >= ACK_SLACK)
    if not late:
        return {}
    wait = None if deadline is None else max(0, math.ceil(deadline[0] - now))
    return {"acks": [*late], "ack_wait": wait}


class HostDeadlines:
    """Whom the host forfeits, when and why: the seat due to write and every seat that owes an
    acknowledgement (see the module docstring); a mixin of ``HostSession``, whose attributes
    these are."""

    clock: Callable[[], float]
    table: Table
    seats: list[Seat]
    presence: HostPresence
    acks: AckBook
    turn_timeout: float | None
    on_timeout: str
    _due: tuple[int | None, int]
    _due_since: float

    def _limit(self) -> float | None:
        """The seconds after which a seat due is forfeited (twice the turn limit with ``bot``)."""
        if self.turn_timeout is None:
            return None
        return self.turn_timeout * (2 if self.on_timeout == "bot" else 1)

    def _waits_on(self) -> list[int]:
        """The seats the writer may wait on: every seat still in that may be forfeited."""
        t = self.table
        if not self.presence.started or t.phase in (Phase.LOBBY, Phase.OVER):
            return []
        who = self._due[0]
        return [s for s in range(t.players)
                if s != who and s not in t.forfeited and s not in t.ended]

    def _owing(self) -> dict[int, float]:
        return self.acks.owing(len(self.table.transcript), self._waits_on())

    def _turn_start(self) -> float | None:
        length = len(self.table.transcript)
        settled = self.acks.settled(length, self._waits_on())
        if settled is not None and length == self.acks.restored_at:  # given again: in time
            return self._due_since
        return turn_start(self._due_since, settled, self.clock())

    def _writer_deadline(self) -> tuple[float, str] | None:
        """When the host forfeits the seat due to write, and why (``HostPresence.deadline``):
        its turn limit from ``turn_start``, its grace while it is gone."""
        who, _ = self._due
        if who is None or who == HOST or self.table.phase in (Phase.LOBBY, Phase.OVER):
            return None
        found = []
        gone = self.presence.deadline(who, self._due_since, None, self.seats[who].name)
        if gone is not None:
            found.append(gone)
        limit, start = self._limit(), self._turn_start()
        if limit is not None and start is not None:
            found.append((start + limit, f"no move within {limit:g} seconds"))
        return min(found, default=None)

    def _ack_deadline(self, owing: dict[int, float]) -> tuple[float, str, int] | None:
        return ack_deadline(owing, self.presence, self._limit(), [s.name for s in self.seats])

    def _deadline(self) -> tuple[float, str, int] | None:
        """The host's first forfeit: when, why, and of which seat."""
        found = []
        writer = self._writer_deadline()
        if writer is not None and self._due[0] is not None:
            found.append((writer[0], writer[1], self._due[0]))
        owed = self._ack_deadline(self._owing())
        if owed is not None:
            found.append(owed)
        return min(found, default=None)

    def _presence_now(self) -> tuple[float | None, float, Fields]:
        """For a presence: the writer's deadline, its turn's start, and the acknowledgements
        the game waits on (``presence_fields``)."""
        writer = self._writer_deadline()
        start = self._turn_start()
        owing = self._owing()
        extra = presence_fields(owing, self._ack_deadline(owing), self.clock())
        return (None if writer is None else writer[0],
                self._due_since if start is None else start, extra)
