"""The host's door: who comes in, what each connection may cost, and what goes out.

``HostDoor`` is the part of ``HostSession`` (``net.session.machines.host_session``) that knows
connections rather than the game: the ``hello`` and its checks (the game code, its budget of checks and its delays
per address, ``net.session.features.code``; the key and its signature), the seats and the
connections that hold them (a key already seated takes its seat back: ``_claim``), the watchers
let in (``net.session.features.watch``), what a stranger or a seat may cost
(``net.session.features.limits``), the log lines a refusal may take, and the output (the bytes
for each connection, and its close). Sans-IO as the session: no socket, no clock it was not
given.

The states of a connection are ``ConnState``, and ``CONN_TRANSITIONS`` (at the top of the code)
is the one place that says which follows which: new, it is a *stranger* (challenged); its hello
seats it, lets it watch, or (for a seat another connection holds) makes it a *claimant* until the
holder answers a ping or not; then closed. A stranger or a claimant over its budget is also
muted (nothing more it sends is read) until it is closed: ``muted`` is a mark, not a state. A frame
the codec refuses gets an ``error`` notification and the connection is closed; a bad request
gets an error response and the connection stays, except for a wrong code or a full
game (``CLOSING``). Nothing a connection sends can change another connection's game except a
valid entry from the seat due to write. What a connection may cost (connections, hello time,
messages, log lines) is ``net.session.features.limits``; the game code, its budget of checks and its delays per address,
``net.session.features.code``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final, TypeAlias

from net.session.features import limits, watch
from net.session.features.code import QUEUE_WAIT, CodeGuard, same_code
from net.session.features.limits import Bucket, QuietLog, StrangerNews
from net.session.features.presence import HostPresence
from net.session.machines.conversation import (
    HELLO_TAG,
    VERSION,
    Close,
    Output,
    Send,
    host_proof,
    param_map,
    printable,
    typed,
)
from net.session.machines.entries import NAME_LIMIT, Phase
from net.session.machines.table import Table
from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_BUSY,
    E_FULL,
    E_KEY_IN_USE,
    E_TIMEOUT,
    E_WRONG_CODE,
    E_WRONG_PHASE,
    RemoteProtocolError,
)
from net.wire.identity import (
    PUBLIC_KEY_SIZE,
    SIGNATURE_SIZE,
    Identity,
    InvalidKey,
    check_public_key,
    fingerprint,
    verify,
)
from net.wire.rpc import Codec, Event, Fields, Notification, Request, Response, RpcError, Value
from net.wire.transcript import NONCE_SIZE

log = logging.getLogger("palazzo.net")


class ConnState(str, Enum):
    """Where a connection to the host stands (``CONN_TRANSITIONS``: which follows which)."""

    STRANGER = "stranger"  # challenged; no seat, not watching
    CLAIMANT = "claimant"  # its hello proved a seat's key another connection holds: it waits
    SEATED = "seated"
    WATCHING = "watching"
    CLOSED = "closed"  # nothing more is read from it or sent to it

    def __str__(self) -> str:
        return self.value


class Turn(Enum):
    """What moves a connection from one state to another."""

    SEAT = "its hello takes a seat (a new one, its key's again, or one it claimed)"
    CLAIM = "its hello claims a seat another connection holds"
    WATCH = "its hello with watch: true is let in"
    CLOSE = "the host closes it (a refusal, a seat taken over, the end, a rematch)"


#: The rule of the connections: this table is the one place that says which state follows
#: which, and ``Conn.go`` alone changes ``Conn.state``. A turn its state has no row for leaves it
#: as it is (the code never takes one: ``_hello`` refuses a second hello, ``_close`` a closed
#: connection).
CONN_TRANSITIONS: dict[ConnState, dict[Turn, ConnState]] = {
    ConnState.STRANGER: {Turn.SEAT: ConnState.SEATED, Turn.CLAIM: ConnState.CLAIMANT,
                         Turn.WATCH: ConnState.WATCHING, Turn.CLOSE: ConnState.CLOSED},
    ConnState.CLAIMANT: {Turn.SEAT: ConnState.SEATED, Turn.CLOSE: ConnState.CLOSED},
    ConnState.SEATED: {Turn.CLOSE: ConnState.CLOSED},
    ConnState.WATCHING: {Turn.CLOSE: ConnState.CLOSED},
    ConnState.CLOSED: {},
}


@dataclass
class Seat:
    name: str
    key: bytes
    conn: int | None
    nonce: bytes
    ready: bool = False


@dataclass
class Conn:
    codec: Codec
    nonce: bytes
    address: str = ""
    since: float = 0.0  # when it connected
    budget: Bucket | None = None  # requests, once seated (``net.session.features.limits``)
    asked: int = 0  # messages received before it took a seat
    muted: bool = False  # nothing more it sends is read (a stranger over its budget)
    seat: int | None = None
    state: ConnState = ConnState.STRANGER
    resume_from: int = 0
    ping: int | None = None  # the msgid of the ping it was sent and has not answered
    heard: float = 0.0  # when the host last read a byte from it (``net.session.features.liveness``)
    beat: float = 0.0  # when the host last sent it a heartbeat ``ping``
    beating: bool = False  # a heartbeat ``ping`` waits for its answer (never two at once)
    watcher: str | None = None  # the name of a watcher (``net.session.features.watch``): never a seat
    #: its hello waits for its turn to have its code checked, since then (``None``: it does not)
    queued: float | None = None
    checked: bool = False  # its turn came: its hello's code is compared now
    #: a hello with a longer ``have`` to a host that lost its start: its key, nonce and have
    #: (``net.session.machines.host_gather``)
    supplier: tuple[bytes, bytes, int] | None = None

    def go(self, turn: Turn) -> None:
        """Take ``turn``: the state ``CONN_TRANSITIONS`` says follows."""
        self.state = CONN_TRANSITIONS[self.state].get(turn, self.state)

    @property
    def closed(self) -> bool:
        return self.state is ConnState.CLOSED

    @property
    def claim(self) -> bool:
        """Its hello waits for the seat's holder to answer a ping."""
        return self.state is ConnState.CLAIMANT


@dataclass(frozen=True)
class Claim:
    """A hello for a held seat, waiting on the holder's answer to a ping."""

    conn: int
    msgid: int
    key: bytes
    nonce: bytes
    have: int
    deadline: float


class Deferred(Enum):
    """The answer of a request answered later (``DEFERRED``)."""

    DEFERRED = "deferred"


#: what ``_hello`` returns for a hello answered later
DEFERRED: Final = Deferred.DEFERRED
#: what a request's method gives: its answer's result, or ``DEFERRED``
Answer: TypeAlias = Value | Deferred
#: the refusal of a second live connection with a seated key
IN_USE = ("this player is already at the table from another program; to play as a second "
          "player on this account use --identity FILE (or a profile name)")


class HostDoor:
    """The connections of a ``HostSession`` and their costs (see the module docstring). The
    attributes below are the session's, set by its ``__init__``."""

    identity: Identity
    code: str | None
    clock: Callable[[], float]
    seats: list[Seat]
    conns: dict[int, Conn]  # in the order they connected
    guard: CodeGuard
    quiet: QuietLog
    stranger_news: StrangerNews
    _out: list[Output]
    game: str
    players: int
    table: Table
    presence: HostPresence
    finished: bool
    ended_for: set[int]
    admissions: watch.Admissions
    _claims: dict[int, Claim]  # holder's connection -> the hello claiming its seat
    _claimed: dict[bytes, float]  # key -> when a claim on its seat last began
    _turns: list[tuple[int, int, Request]]  # hellos waiting to have their code checked
    lost_game: bytes | None  # the game whose start this host lost (``host_gather``)

    def _handle(self, conn: int, event: Event) -> None:
        """Handle one message (the session's)."""
        raise NotImplementedError

    def _after(self, conn: int, method: str) -> None:
        """What follows an answered request (the session's)."""
        raise NotImplementedError

    # -- who comes in -------------------------------------------------------------------------

    def _hello(self, conn: int, req: Request) -> Answer:
        m = param_map(req)
        c = self.conns[conn]
        # a program of version 2 stops at the challenge (its version named there), before any
        # hello; a hello that names another version is refused naming both
        said = m.get("version", VERSION)
        if said != VERSION:
            raise RemoteProtocolError(
                f"this host speaks protocol version {VERSION}, the program that said hello "
                f"version {printable(said)}: both must run the same version (update the older "
                "one)", E_WRONG_PHASE)
        if not self._check_code(conn, c, m, req):
            return DEFERRED  # it waits for its turn (``_serve_turns``)
        name = typed(m, "name", str).strip()
        if not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
            raise RemoteProtocolError(f"a name is 1 to {NAME_LIMIT} printable characters",
                                      E_BAD_PARAMS)
        key = typed(m, "key", bytes, size=PUBLIC_KEY_SIZE)
        sig = typed(m, "sig", bytes, size=SIGNATURE_SIZE)
        nonce = typed(m, "nonce", bytes, size=NONCE_SIZE)
        have = typed(m, "have", int, optional=True) or 0
        watching = typed(m, "watch", bool, optional=True) or False
        try:
            check_public_key(key)
        except InvalidKey as e:
            raise RemoteProtocolError(f"key check: the key is refused ({e})", E_BAD_PARAMS) from None
        if not verify(key, HELLO_TAG, c.nonce + self.identity.public_key, sig):
            raise RemoteProtocolError("signature check: the hello signature does not match the key", E_BAD_SIGNATURE)
        # a seat of the game under way may hold more than a host whose record was damaged:
        # it is seated, and gives the rest back (``supply``)
        seated = self.table.phase is not Phase.LOBBY and any(s.key == key for s in self.seats)
        lost = (self.lost_game is not None and self.table.phase is Phase.LOBBY and have > 0
                and not watching and not self.table.transcript.entries)
        if have < 0 or (have > len(self.table.transcript) and (watching or not seated)
                        and not lost):
            raise RemoteProtocolError(f"'have' is {have}: the transcript holds "
                                      f"{len(self.table.transcript)} entries", E_BAD_PARAMS)
        if c.seat is not None:
            raise RemoteProtocolError("this connection already said hello", E_WRONG_PHASE)
        if c.claim or c.watcher is not None:
            raise RemoteProtocolError("this connection already said hello", E_WRONG_PHASE)
        if watching:
            return self._watch(conn, name, key, nonce, have)
        if lost:  # a player of the game whose start this host lost: it gives the game back
            c.supplier = (key, nonce, have)
            log.info("%s (%s) holds %s entries of the game this host lost: asking for them", name,
                     fingerprint(key), have)
            return {"seat": -1, "players": self.players, "length": 0, "resume": True,
                    "proof": host_proof(self.identity, nonce, key)}
        for i, seat in enumerate(self.seats):
            if seat.key == key:
                old = seat.conn
                if old is not None and old in self.conns and old != conn \
                        and not self.conns[old].closed:
                    return self._claim(conn, req.msgid, i, nonce, have, name == seat.name)
                return self._seat(conn, i, nonce, have)
        started = self.table.phase is not Phase.LOBBY
        if started or len(self.seats) >= self.players:
            raise RemoteProtocolError("the game is full", E_FULL)
        self.seats.append(Seat(name, key, conn, nonce))
        c.seat = len(self.seats) - 1
        c.go(Turn.SEAT)
        log.info("seat %s: %s (%s)", c.seat, name, fingerprint(key))
        return {"seat": c.seat, "players": self.players, "length": 0, "resume": False,
                "proof": host_proof(self.identity, nonce, key)}

    def _watch(self, conn: int, name: str, key: bytes, nonce: bytes, have: int) -> Answer:
        """Let ``conn`` watch (``net.session.features.watch``): no seat, the entries from ``have`` on."""
        watch.check_room(len(self.watchers()))
        c = self.conns[conn]
        if not self.admissions.take(c.address):
            self._shut(conn, E_BUSY, f"{watch.ADMIT_BURST} watchers came in from your address "
                       f"just now: watch again in {watch.ADMIT_EVERY:g} seconds")
            return DEFERRED
        c.watcher, c.resume_from = name, have
        c.go(Turn.WATCH)
        log.info("watcher %s (%s) is watching", name, fingerprint(key))
        return watch.welcome(self.players, len(self.table.transcript), self.table.phase is not Phase.LOBBY,
                             host_proof(self.identity, nonce, key))

    def watchers(self) -> list[str]:
        """The names of the watchers, in the order they came."""
        return [c.watcher for c in self.conns.values() if c.watcher is not None and not c.closed]

    def _seat(self, conn: int, i: int, nonce: bytes, have: int) -> Fields:
        """Seat ``conn`` on seat ``i``, whose key its hello proved: the welcome."""
        seat, c = self.seats[i], self.conns[conn]
        seat.conn, c.seat, c.resume_from = conn, i, have
        c.go(Turn.SEAT)
        started = self.table.phase is not Phase.LOBBY
        if not started:  # its contribution is the nonce of its latest hello
            seat.nonce = nonce
        self.presence.seated(i)
        if self.finished:  # the entries it is sent next hold the end
            self.ended_for.add(i)
        log.info("seat %s (%s) is back", i, seat.name)
        return {"seat": i, "players": self.players, "length": len(self.table.transcript),
                "resume": started, "proof": host_proof(self.identity, nonce, seat.key)}

    def _claim(self, conn: int, msgid: int, i: int, nonce: bytes, have: int,
               same_name: bool) -> Answer:
        """A hello that proves the key of seat ``i`` while another connection holds it: the
        host pings the holder and answers the hello later (``DEFERRED``), refusing it if the
        holder answers within ``limits.PING_WAIT`` and seating it otherwise (the holder was a
        dead connection). The same join line again (the seat's own name, from the network)
        is the player going on from a new program: it takes the seat at once, and the old
        program is told. A seat played in the host's own process is never taken (it cannot be a
        dead connection). One claim per seat at a time and one per ``limits.CLAIM_INTERVAL``."""
        seat = self.seats[i]
        old = seat.conn
        assert old is not None
        now = self.clock()
        if any(k.key == seat.key for k in self._claims.values()) or \
                now - self._claimed.get(seat.key, -math.inf) < limits.CLAIM_INTERVAL:
            self._shut(conn, E_BUSY, f"seat {i} ({seat.name}) was just claimed by another "
                       "connection with its key: try again in a few seconds")
            return DEFERRED
        self._claimed[seat.key] = now
        o = self.conns[old]
        if same_name and o.address and self.conns[conn].address:
            self._replace(old, i, "the same player joined again from another program "
                          "(the same key and name); this program stops here")
            return self._seat(conn, i, nonce, have)
        msg = o.codec.next_msgid()
        o.ping = msg
        self._send(old, Request(msg, "ping", ()))
        self._claims[old] = Claim(conn, msgid, seat.key, nonce, have, now + limits.PING_WAIT)
        self.conns[conn].go(Turn.CLAIM)
        log.info("seat %s (%s): a second connection with its key; asking the first", i, seat.name)
        return DEFERRED

    def _settle(self, old: int, alive: bool) -> None:
        """The end of a claim on the seat ``old`` holds: refused if ``old`` answered, else the
        new connection takes the seat and ``old`` is closed."""
        k = self._claims.pop(old)
        c = self.conns.get(k.conn)
        if c is None or c.closed:
            return
        i = next((n for n, s in enumerate(self.seats) if s.key == k.key), None)
        if alive or i is None:
            why = (IN_USE if i is not None else "the seat this key held is gone")
            self._warn(k.conn, f"refused: {why}")
            self._respond(k.conn, k.msgid, None, RpcError(E_KEY_IN_USE, why))
            self._close(k.conn, why)
            return
        self._replace(old, i, f"seat {i} was taken over by a new connection with the same key "
                      "(this one did not answer)")
        self._respond(k.conn, k.msgid, self._seat(k.conn, i, k.nonce, k.have))
        self._after(k.conn, "hello")

    def _replace(self, old: int, i: int, msg: str) -> None:
        """Close ``old``, the holder of seat ``i``, telling it why: its seat is someone else's."""
        if old in self.conns and not self.conns[old].closed:
            log.info("seat %s (%s): %s", i, self.seats[i].name, msg)
            self._notify(old, "error", {"code": E_KEY_IN_USE, "message": msg})
            self._close(old, msg)
            self.conns[old].seat = None

    def _answer(self, conn: int, event: Response) -> None:
        c = self.conns[conn]
        if c.ping is not None and event.msgid == c.ping:
            c.ping = None
            if conn in self._claims:
                self._settle(conn, alive=True)
            return
        if c.seat is not None or c.watcher is not None:  # a heartbeat's answer: a sign of life
            c.beating = False
            return
        self._warn(conn, f"ignoring a response (msgid {event.msgid})")

    def _check_code(self, conn: int, c: Conn, m: Fields, req: Request) -> bool:
        """The game code of a hello (``net.session.features.code``): ``True`` when it is right;
        ``False`` when the hello must wait for its turn (its address's delay, the host's budget
        of checks, or hellos ahead of it); ``E_WRONG_CODE`` for a missing or wrong one, which
        counts against the address. A hello that proves a seated key needs no code: it is no
        stranger (a host whose settings were lost has a new code; its players keep theirs)."""
        if self.code is None or self._proves_seated_key(c, m):
            return True
        if c.queued is not None and not c.checked:  # its first hello waits already
            raise RemoteProtocolError("this connection already said hello", E_WRONG_PHASE)
        if not c.checked:
            if self._turns or not self.guard.turn(c.address):
                c.queued = self.clock()
                self._turns.append((len(self._turns) and self._turns[-1][0] + 1, conn, req))
                return False
            c.checked = True
        given = m.get("code")
        if type(given) is not str or not same_code(given, self.code):
            delay = self.guard.wrong(c.address)
            what = "a wrong" if given else "no"
            then = (f"; the next code from your address is checked in {delay:g} seconds"
                    if delay else "")
            raise RemoteProtocolError(
                f"{what} game code: ask the host for the line to join "
                f"(palazzo join HOST:PORT --code CODE){then}", E_WRONG_CODE)
        self.guard.right(c.address)
        return True

    def _serve_turns(self) -> None:
        """Give the hellos waiting their turn: the least suspect address first
        (``CodeGuard.rank``), then the oldest, while the budget of checks lasts; one that
        waited ``code.QUEUE_WAIT`` seconds is told to try again."""
        now = self.clock()
        while self._turns:
            live = [t for t in self._turns if t[1] in self.conns and not self.conns[t[1]].closed]
            for t in live:
                if now - (self.conns[t[1]].queued or now) >= QUEUE_WAIT:
                    self._shut(t[1], E_BUSY, "the host is checking many game codes just now: "
                               "try again")
            self._turns = [t for t in live if not self.conns[t[1]].closed]
            ready = [t for t in self._turns if self.guard.delay(self.conns[t[1]].address) == 0]
            if not ready:
                return
            best = min(ready, key=lambda t: (self.guard.rank(self.conns[t[1]].address), t[0]))
            if not self.guard.budget.take():
                return
            self._turns.remove(best)
            c = self.conns[best[1]]
            c.checked, c.queued = True, None
            self._handle(best[1], best[2])

    def _proves_seated_key(self, c: Conn, m: Fields) -> bool:
        key, sig = m.get("key"), m.get("sig")
        return (type(key) is bytes and type(sig) is bytes and any(s.key == key for s in self.seats)
                and verify(key, HELLO_TAG, c.nonce + self.identity.public_key, sig))

    # -- connections ---------------------------------------------------------------------------

    def reading(self, conn: int) -> bool:
        """Whether what ``conn`` sends is still read: a stranger over its budget is not (the
        adapter then stops reading its socket, so the flood waits in the sender's buffers and
        costs nothing) until its hello timeout closes it."""
        c = self.conns.get(conn)
        return c is not None and not c.closed and not c.muted

    def take_output(self) -> list[Output]:
        out, self._out = self._out, []
        return out

    # -- what a connection may cost (``net.session.features.limits``) ---------------------------------

    def _make_room(self, address: str) -> None:
        """Before a connection from ``address`` comes in: close the oldest stranger of that
        address when it holds its share, or the oldest of all when the host is full."""
        strangers = [n for n, c in self.conns.items()
                     if c.seat is None and c.watcher is None and not c.closed]
        same = [n for n in strangers if self.conns[n].address == address]
        held = sum(1 for c in self.conns.values() if not c.closed)
        if address and len(same) >= limits.STRANGERS_PER_ADDRESS:
            self._shut(same[0], E_BUSY, f"{limits.STRANGERS_PER_ADDRESS} connections without a "
                       "seat from one address: the oldest is closed for a new one")
        elif held >= limits.MAX_CONNECTIONS and strangers:
            self._shut(strangers[0], E_BUSY, "the host is full: the oldest connection without a "
                       "seat is closed for a new one")

    def _within_budget(self, conn: int, c: Conn) -> bool:
        """Whether one more message from ``conn`` may be read; if not, a stranger is muted and a
        seated connection closed."""
        if c.seat is None and c.watcher is None:
            c.asked += 1
            if c.asked <= limits.STRANGER_REQUESTS:
                return True
            why = (f"{limits.STRANGER_REQUESTS} messages without taking a seat: nothing more is "
                   "read from this connection")
            self._warn(conn, f"muted: {why}")
            self._notify(conn, "error", {"code": E_BUSY, "message": why})
            c.muted = True
            return False
        if not c.address:  # an in-process seat: the host's own program
            return True
        if c.budget is None:
            c.budget = (Bucket(self.clock, watch.RATE, watch.BURST) if c.watcher is not None
                        else Bucket(self.clock, limits.REQUEST_RATE, limits.REQUEST_BURST))
        if c.budget.take():
            return True
        self._shut(conn, E_BUSY, f"more than {c.budget.burst:g} messages at once, or "
                   f"{c.budget.rate:g} a second")
        return False

    def _expire_strangers(self) -> None:
        now = self.clock()
        for conn, c in list(self.conns.items()):
            if c.seat is None and c.watcher is None and not c.closed and not c.claim \
                    and c.queued is None and now - c.since >= limits.HELLO_TIMEOUT:
                self._shut(conn, E_TIMEOUT, f"no seat taken within {limits.HELLO_TIMEOUT:g} "
                           "seconds of connecting")

    def _shut(self, conn: int, code: int, why: str) -> None:
        """Tell ``conn`` why, log it (within the address's log budget) and close it."""
        self._warn(conn, f"closed: {why}")
        self._notify(conn, "error", {"code": code, "message": why})
        self._close(conn, why)

    def _warn(self, conn: int, msg: str) -> None:
        """Log a refusal, within its address's log budget (in-process seats: always)."""
        c = self.conns.get(conn)
        address = c.address if c is not None else ""
        if not address:
            log.warning("connection %s: %s", conn, msg)
            return
        if c is not None and c.seat is None and c.watcher is None:  # a stranger: one line a minute
            if not self.stranger_news.refused(address, msg):
                log.debug("connection %s from %s: %s", conn, address, msg)
                return
        ok, skipped = self.quiet.allow(address)
        if ok:
            more = f" ({skipped} more from {address} not logged)" if skipped else ""
            log.warning("connection %s from %s: %s%s", conn, address, msg, more)

    def _seat_of(self, conn: int, method: str = "do that") -> int:
        c = self.conns[conn]
        if c.watcher is not None:
            raise watch.refuse(method)
        seat = c.seat
        if seat is None:
            raise RemoteProtocolError("say hello first", E_WRONG_PHASE)
        return seat

    # -- output -------------------------------------------------------------------------------

    def _send(self, conn: int, event: Event) -> None:
        c = self.conns.get(conn)
        if c is not None and not c.closed:
            self._out.append(Send(conn, c.codec.send(event)))

    def _notify(self, conn: int, method: str, payload: Fields) -> None:
        self._send(conn, Notification(method, (payload,)))

    def _respond(self, conn: int, msgid: int, result: Value, error: RpcError | None = None) -> None:
        self._send(conn, Response(msgid, error, result))

    def _close(self, conn: int, reason: str) -> None:
        c = self.conns.get(conn)
        if c is not None and not c.closed:
            c.go(Turn.CLOSE)
            self._out.append(Close(conn, reason))

    def _broadcast(self, method: str, payload: Fields, but: int | None = None,
                   first: tuple[int | None, ...] = ()) -> None:
        """Notify every seated connection and every watcher, but ``but`` (what everyone at the
        table may know goes through here, so that watchers hear it too); the seats in ``first``
        hear it first, in that order. Encoded once: a notification's bytes are the same on
        every connection."""
        to = [conn for conn, c in self.conns.items()
              if (c.seat is not None or c.watcher is not None) and not c.closed and conn != but]
        if not to:
            return
        if first:
            rank: dict[int | None, int] = {}
            for seat in first:
                rank.setdefault(seat, len(rank))
            to.sort(key=lambda conn: rank.get(self.conns[conn].seat, len(rank)))
        data = self.conns[to[0]].codec.send(Notification(method, (payload,)))
        self._out += [Send(conn, data) for conn in to]
