"""Presence: who is at the table, who the game waits for, and for how long (the host's word).

Rules (``docs/protocol.md``, "Presence"; ``docs/security.md``: presence is the host's word):

* The host keeps one state per seat once the game has started: ``here`` (its connection is
  seated), ``away`` (seated, but its player said ``status {away: true}``: the TUI does after
  three minutes without a key), ``reconnecting`` (its connection was lost without a word, or a
  restarted host has not seen it yet), ``left`` (it said ``leave {}`` before it closed). A seat
  that says hello again is ``here``; ``status {away: false}`` is ``here`` again.
* ``presence {seats: [{state, for}], due, wait, watchers, turn, at}`` goes to every seated
  connection on every change of a state, of the seat due (or of the entry it is due for), of
  when the host would forfeit it, or of the watchers; never two within ``PRESENCE_EVERY``
  seconds (a change meanwhile goes out with the next one, at the latest on the host's next
  tick). ``for`` is whole seconds in that state, ``due`` the seat due to write (-1 none),
  ``wait`` whole seconds before the host forfeits the seat due, or nil when it never will,
  ``turn`` whole seconds the seat due has been due on the host's clock, ``at`` the host's
  transcript length it speaks of; ``acks`` and ``ack_wait``, when the game waits on
  acknowledgements (``net.session.features.acks``), the seats it waits on and whole seconds
  before the host forfeits the first of them. **One clock**: every deadline is the host's, and
  every screen counts down to it (``Presence.due_since``), across reconnects and restarts.
* **Liveness** (``net.session.features.liveness``): a seat whose connection has sent nothing for
  ``liveness.SEAT_QUIET`` seconds (the host pings it every ``liveness.BEAT_EVERY``) is
  ``silent``, shown "not responding"; it counts as gone for the grace period, and is ``here``
  (or ``away``, as it was) again at its next byte.
* The host forfeits the seat due at its turn limit (``--turn-timeout``, twice it with
  ``--on-timeout bot``), or when the others have waited ``grace`` seconds for it while it was
  ``reconnecting``, ``silent`` or ``left`` (counted from the later of it becoming due and it going),
  whichever comes first, with the reason "<name> did not come back within <n> seconds".
* ``status`` and ``leave`` are notifications and are never answered; they speak only for the
  connection's own seat (a field naming another seat is not read). A seat's ``status`` changes
  are bounded by a token bucket (``STATUS_BURST`` at once, one every ``1 / STATUS_RATE``
  seconds after): a flood of toggles beyond it is dropped, logged within the address's log
  budget, and costs the others no message.
* A peer reads a presence with ``read_presence``: a malformed one is refused (``ValueError``
  naming the field), the last good one stays. From two presences in a row ``notes`` gives the
  lines every table shows: "Jo left", "Jo lost the connection", "Jo is back", "Jo is away",
  "Jo is here again", "Jo is not responding", "Jo is responding again", and "waiting for Jo to
  acknowledge" when the game comes to wait on Jo's acknowledgement (``acks``,
  ``net.session.features.acks``). Presence changes no game state: nothing in ``Table`` reads
  it. A peer
  keeps its notes in a ``NoteBook`` (the last ``NOTES_KEPT``), which a table reads from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeGuard

from net.session.features.limits import Bucket
from net.wire.rpc import Fields, Value

#: a seat's presence, as the host says it (the wire's words)
Mark = Literal["here", "away", "reconnecting", "left", "silent"]
STATES: tuple[Mark, ...] = ("here", "away", "reconnecting", "left", "silent")
GONE: frozenset[Mark] = frozenset({"reconnecting", "left", "silent"})
#: how long a peer believes the host's word that the turn began before the entry reached it,
#: when that entry reached it live (``read_presence``)
TURN_SLACK = 2.0
DEFAULT_GRACE = 180.0
PRESENCE_EVERY = 0.25  # seconds between two presence broadcasts, at least
STATUS_RATE = 0.5  # status changes a second per seat, after the burst
STATUS_BURST = 4
MAX_WATCHERS = 8
WATCHER_NAME = 32
MAX_SECONDS = 10**9  # a ``for`` or a ``wait`` a peer accepts, at most
NOTES_KEPT = 200  # notes a peer keeps (a host could send any number)


@dataclass
class _Mark:
    state: Mark
    since: float
    budget: Bucket
    before: Mark = "here"  # what a ``silent`` seat was before it went quiet


class HostPresence:
    """The host's presence book: one ``_Mark`` per seat from the start, and what was last sent."""

    def __init__(self, clock: Callable[[], float], grace: float | None = DEFAULT_GRACE) -> None:
        if grace is not None and not grace > 0:
            raise ValueError("a grace period is more than 0 seconds")
        self.clock = clock
        self.grace = grace
        self.marks: list[_Mark] = []
        #: the watchers' names, as the host would show them (set by whoever seats watchers)
        self.watchers: list[str] = []
        self._sent: tuple[object, ...] | None = None
        self._sent_at = -math.inf

    @property
    def started(self) -> bool:
        return bool(self.marks)

    def begin(self, here: Sequence[bool]) -> None:
        """The game started (or a restarted host restored it): each seat here or not yet."""
        now = self.clock()
        self.marks = [_Mark("here" if h else "reconnecting", now,
                            Bucket(self.clock, STATUS_RATE, STATUS_BURST)) for h in here]

    def state(self, seat: int) -> Mark:
        return self.marks[seat].state

    def _set(self, seat: int, state: Mark) -> None:
        if 0 <= seat < len(self.marks) and self.marks[seat].state != state:
            self.marks[seat].state, self.marks[seat].since = state, self.clock()

    def seated(self, seat: int) -> None:
        """A connection took the seat (a rejoin)."""
        self._set(seat, "here")

    def lost(self, seat: int) -> None:
        """The seat's connection closed: ``reconnecting``, unless it said it leaves."""
        if 0 <= seat < len(self.marks) and self.marks[seat].state != "left":
            self._set(seat, "reconnecting")

    def leave(self, seat: int) -> None:
        self._set(seat, "left")

    def silent(self, seat: int) -> None:
        """The seat's connection has said nothing for a while (``net.session.features.liveness``):
        "not responding"; a seat already gone stays as it is."""
        if 0 <= seat < len(self.marks) and self.marks[seat].state in ("here", "away"):
            self.marks[seat].before = self.marks[seat].state
            self._set(seat, "silent")

    def heard(self, seat: int) -> None:
        """A byte from a ``silent`` seat's connection: it is what it was before."""
        if 0 <= seat < len(self.marks) and self.marks[seat].state == "silent":
            self._set(seat, self.marks[seat].before)

    def status(self, seat: int, away: bool) -> bool:
        """``status {away}`` from the seat's own connection; false when it is over the seat's
        budget (dropped). A seat not seated here is not changed."""
        if not 0 <= seat < len(self.marks):
            return True
        mark = self.marks[seat]
        want: Mark = "away" if away else "here"
        if mark.state == "silent":  # said while quiet: what it is once heard again
            mark.before = want
            return True
        if mark.state not in ("here", "away") or mark.state == want:
            return True
        if not mark.budget.take():
            return False
        self._set(seat, want)
        return True

    def deadline(self, due: int | None, due_since: float, turn_limit: float | None,
                 name: str) -> tuple[float, str] | None:
        """When the host forfeits seat ``due`` (due since ``due_since``), and the reason:
        the turn limit or the grace period, whichever comes first; ``None``: never."""
        found: list[tuple[float, str]] = []
        if turn_limit is not None:
            found.append((due_since + turn_limit, f"no move within {turn_limit:g} seconds"))
        if due is not None and 0 <= due < len(self.marks) and self.grace is not None:
            mark = self.marks[due]
            if mark.state in GONE:
                n = self.grace
                found.append((max(mark.since, due_since) + n,
                              f"{name} did not come back within {n:g} second{'' if n == 1 else 's'}"))
        return min(found, default=None)

    def message(self, due: int | None, deadline: float | None, due_since: float | None = None,
                at: int = 0, acks: Fields | None = None) -> Fields:
        now = self.clock()
        seat = due if due is not None and 0 <= due < len(self.marks) else -1
        return {
            "seats": [{"state": m.state, "for": max(0, int(now - m.since))} for m in self.marks],
            "due": seat,
            "wait": None if deadline is None else max(0, math.ceil(deadline - now)),
            "watchers": [w[:WATCHER_NAME] for w in self.watchers[:MAX_WATCHERS]],
            # rounded up: a screen shows at most a second less than is left, never more
            "turn": None if seat < 0 or due_since is None else
            min(MAX_SECONDS, max(0, math.ceil(now - due_since))),
            "at": min(MAX_SECONDS, max(0, at)),
            **(acks or {}),
        }

    def take(self, due: int | None, deadline: float | None, due_since: float | None = None,
             at: int = 0, acks: Fields | None = None) -> Fields | None:
        """The presence to send now: one when something changed since the last one sent and
        ``PRESENCE_EVERY`` has passed since; else ``None``."""
        if not self.marks:
            return None
        owing = (acks or {}).get("acks")
        key = (tuple(m.state for m in self.marks), due, at,
               None if deadline is None else round(deadline, 1), tuple(self.watchers),
               tuple(owing) if type(owing) is list else ())
        now = self.clock()
        if key == self._sent or now - self._sent_at < PRESENCE_EVERY:
            return None
        self._sent, self._sent_at = key, now
        return self.message(due, deadline, due_since, at, acks)


# -- the peer's side ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatPresence:
    state: Mark
    since: float  # on the reading peer's clock


@dataclass(frozen=True)
class Presence:
    """A presence as a peer read it; times are on the peer's own clock."""

    seats: tuple[SeatPresence, ...]
    due: int  # -1: no seat is due
    #: when the seat due became due: the host's word (``turn``) when it gave one, else when
    #: this peer saw ``due`` become the seat due
    due_since: float
    deadline: float | None  # when the host says it forfeits the seat due; ``None``: never
    watchers: tuple[str, ...] = field(default=())
    #: the host's transcript length this presence speaks of (``None``: it did not say)
    at: int | None = None
    #: whether ``due_since`` is the host's word (``turn``)
    hosts_clock: bool = False
    #: the seats the game waits on for an acknowledgement (``net.session.features.acks``)
    acks: tuple[int, ...] = ()
    #: when the host says it forfeits the first of them; ``None``: never, or none
    ack_deadline: float | None = None

    def seconds(self, seat: int, now: float) -> int:
        """Whole seconds seat ``seat`` has been in its state."""
        return max(0, int(now - self.seats[seat].since))

    def wait(self, now: float) -> int | None:
        """Whole seconds left before the host forfeits the seat due, or ``None``."""
        return None if self.deadline is None else max(0, math.ceil(self.deadline - now))

    def ack_wait(self, now: float) -> int | None:
        """Whole seconds left before the host forfeits a seat the game waits on for an
        acknowledgement, or ``None``."""
        return None if self.ack_deadline is None else max(0, math.ceil(self.ack_deadline - now))


def _is_mark(v: Value) -> TypeGuard[Mark]:
    return type(v) is str and v in STATES


def _whole(v: Value, name: str) -> int:
    if type(v) is not int or not 0 <= v <= MAX_SECONDS:
        raise ValueError(f"presence: {name} must be whole seconds from 0 to {MAX_SECONDS}")
    return v


def read_presence(m: Value, players: int, now: float, last: Presence | None = None,
                  length: int | None = None, live_since: float | None = None) -> Presence:
    """A ``presence`` message for a game of ``players`` seats, read at ``now``; ``ValueError``
    naming the field when it is malformed. ``length``: this peer's transcript length; the
    host's ``turn`` sets the clock of the seat due only when the presence speaks of that
    length (``at``: an older presence, replayed, is not about this turn). ``live_since``: when
    the entry that made the seat due reached this peer on a live connection (not in a rejoin's
    backlog): the host is then believed only ``TURN_SLACK`` seconds before it."""
    if type(m) is not dict:
        raise ValueError("presence: not a map of fields")
    seats = m.get("seats")
    if type(seats) is not list or len(seats) != players:
        raise ValueError(f"presence: 'seats' must list the game's {players} seats")
    read: list[SeatPresence] = []
    for i, s in enumerate(seats):
        state = s.get("state") if type(s) is dict else None
        if type(s) is not dict or not _is_mark(state):
            raise ValueError(f"presence: seat {i}'s state must be one of {', '.join(STATES)}")
        read.append(SeatPresence(state, now - _whole(s.get("for"), f"seat {i}'s 'for'")))
    due = m.get("due")
    if type(due) is not int or not -1 <= due < players:
        raise ValueError(f"presence: 'due' must be a seat from -1 to {players - 1}")
    wait = m.get("wait")
    deadline = None if wait is None else now + _whole(wait, "'wait'")
    watchers = m.get("watchers", [])
    if type(watchers) is not list or len(watchers) > MAX_WATCHERS or not all(
            type(w) is str and 1 <= len(w) <= WATCHER_NAME and w.isprintable() for w in watchers):
        raise ValueError(f"presence: 'watchers' must be at most {MAX_WATCHERS} printable names "
                         f"of 1 to {WATCHER_NAME} characters")
    at = m.get("at")
    if at is not None:
        at = _whole(at, "'at'")
    turn = m.get("turn")
    if turn is not None:
        turn = _whole(turn, "'turn'")
    acks = m.get("acks", [])
    if type(acks) is not list or len(acks) > players or len(set(acks)) != len(acks) or not all(
            type(s) is int and 0 <= s < players for s in acks):
        raise ValueError(f"presence: 'acks' must list distinct seats from 0 to {players - 1}")
    ack_wait = m.get("ack_wait")
    ack_deadline = None if ack_wait is None else now + _whole(ack_wait, "'ack_wait'")
    hosts = turn is not None and due >= 0 and at is not None and at == length
    if hosts and turn is not None:
        due_since = now - turn
        if live_since is not None:
            due_since = max(due_since, live_since - TURN_SLACK)
    elif last is not None and last.due == due and last.at == at:
        due_since = last.due_since
    else:
        due_since = now
    return Presence(tuple(read), due, due_since, deadline,
                    tuple(w for w in watchers if type(w) is str),  # every one is (checked)
                    at, hosts, tuple(s for s in acks if type(s) is int),  # every one is
                    ack_deadline if acks else None)


def notes(old: Presence | None, new: Presence, names: Sequence[str], me: int) -> list[str]:
    """The lines a table shows for the changes from ``old`` to ``new`` (none about ``me``).
    The first presence a peer reads tells only who is not here."""
    lines: list[str] = []
    for i, s in enumerate(new.seats):
        if i == me or i >= len(names):
            continue
        was = old.seats[i].state if old is not None else "here"
        if s.state == was:
            continue
        name = names[i]
        if s.state == "left":
            lines.append(f"{name} left")
        elif s.state == "reconnecting":
            lines.append(f"{name} lost the connection")
        elif s.state == "away":
            lines.append(f"{name} is away")
        elif s.state == "silent":
            lines.append(f"{name} is not responding")
        elif was == "silent":
            lines.append(f"{name} is responding again")
        elif was in GONE:
            lines.append(f"{name} is back")
        else:
            lines.append(f"{name} is here again")
    waited = old.acks if old is not None else ()
    for i in new.acks:
        if i != me and i not in waited and i < len(names):
            lines.append(f"waiting for {names[i]} to acknowledge")
    return lines


class NoteBook:
    """A peer's notes in order, the last ``NOTES_KEPT`` of them kept: ``since(n)`` gives the
    notes after the first ``n`` ever written (those still kept) and the count written so far."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.dropped = 0

    def add(self, line: str) -> None:
        self.lines.append(line)
        if len(self.lines) > NOTES_KEPT:
            cut = len(self.lines) - NOTES_KEPT
            del self.lines[:cut]
            self.dropped += cut

    def since(self, n: int) -> tuple[list[str], int]:
        total = self.dropped + len(self.lines)
        return self.lines[max(0, n - self.dropped):], total
