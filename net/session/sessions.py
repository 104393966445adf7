"""The host and peer sessions: sans-IO state machines over the rpc codec and the table.

Both take bytes and return bytes; neither touches a socket, a clock it was not given, or a file.
``net.session.host`` and ``net.session.peer`` drive them over asyncio; tests and host-side bots drive them
through ``net.session.link``.

The conversation (``docs/protocol.md`` gives every field):

1. On connect the host sends ``challenge {nonce, host, version, game, players, code}`` (a
   peer that chose the host from an advertisement on the LAN, ``net.session.discovery``, stops
   here unless the host key has the fingerprint advertised).
2. The peer asks ``hello {name, key, sig, code, have, nonce}``: ``sig`` signs the host's nonce
   and the host key with the peer's identity; ``nonce`` is 32 fresh bytes of the peer's, its
   challenge to the host and, in the lobby, its contribution to the game id (kept in its journal
   before it is sent). The host checks the game code, the key (``check_public_key``) and the
   signature, then seats the key (a key already seated takes its seat back: a rejoin; while
   another connection holds that seat the host first sends it ``ping`` and answers the hello
   only when it has answered, ``E_KEY_IN_USE`` the player is already at the table, or not
   within ``limits.PING_WAIT``, or closed: the new connection takes the seat; a hello from the
   network with the seat's own name too takes it at once, ``_claim``) and answers ``{seat, players, length, resume, proof}``: ``proof``
   is the host's signature of the peer's nonce and key (``HOST_TAG``), which the peer checks with
   the host key of the challenge before it goes on, so nobody without the host's private key
   can play the host (not even with a saved transcript of its). To a rejoining peer the host then
   sends the transcript entries from ``have`` on.
3. In the lobby the host broadcasts ``lobby {...}`` on every change; peers ask ``ready``.
4. When every seat is taken and ready, the host writes the ``start`` entry: it names every seat's
   key and nonce (the nonce of the hello that seated it), and its game id is made from them
   (``derive_game_id``), so every seat makes the game fresh and knows its own part in it; a peer
   follows only a start that carries a live contribution of its own. From then on peers
   ask ``post {body, sig}`` with their entries; the host checks each on its observer table and
   either answers an error (nothing relayed) or relays it to everyone as ``entry {body, sig}``.
   A peer signs each entry once: its journal keeps it before it is posted, and after a reconnect
   or a restart the same bytes go out again.
5. When the table reaches ``over`` the host sends ``bye`` and the peers save the transcript.
   A host that offers a rematch keeps the connections for the answers (``again``, ``rematch``:
   ``net.session.rematch``).

A hello with ``watch: true`` takes no seat: the connection watches (``net.session.watch``), gets
every broadcast a seat gets (``_broadcast``) and may ask nothing a seat alone may ask.

From the start the host also tells every seated connection who is here: ``presence``, and a
peer says ``status {away}`` and ``leave {}`` (notifications, for its own seat only); the seat due
that is gone for the grace period forfeits. ``net.session.presence`` holds those rules; here are
only the hooks (``_peer_note``, ``_send_presence``, ``_deadline``, ``PeerSession._on_presence``).

Host states per connection: new (challenged, a *stranger*) -> seated or watching (after hello)
-> closed; a stranger over its budget is muted (nothing more it sends is read) until it is closed. A frame
the codec refuses gets an ``error`` notification and the connection is closed; a bad request
gets an error response and the connection stays, except for a wrong code, a lock-out or a full
game (``CLOSING``). Nothing a connection sends can change another connection's game except a
valid entry from the seat due to write. What a connection may cost (connections, hello time,
messages, log lines) is ``net.session.limits``; the game code and its lock-out per address,
``net.session.code``.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.session import limits, watch
from net.session.chat import ChatHost, ChatPeer, text_problem
from net.session.code import CodeGuard, same_code
from net.session.journal import Journal
from net.session.limits import Bucket, QuietLog
from net.session.presence import (
    DEFAULT_GRACE,
    HostPresence,
    NoteBook,
    Presence,
    notes,
    read_presence,
)
from net.session.rematch import (
    PEER_GRACE,
    REMATCH_WAIT,
    Expected,
    HostRematch,
    PeerRematch,
)
from net.session.table import MAX_TIMEOUT, NAME_LIMIT, Table
from net.session.verify import printable_line
from net.wire.errors import HOST, CheatDetected, LocalProtocolError, RemoteProtocolError
from net.wire.identity import (
    PUBLIC_KEY_SIZE,
    SIGNATURE_SIZE,
    Identity,
    InvalidKey,
    check_public_key,
    fingerprint,
    verify,
)
from net.wire.rpc import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_BUSY,
    E_FULL,
    E_INTERNAL,
    E_KEY_IN_USE,
    E_LOCKED_OUT,
    E_NOT_YOUR_SEAT,
    E_TIMEOUT,
    E_UNKNOWN_METHOD,
    E_WRONG_CODE,
    E_WRONG_PHASE,
    Codec,
    Notification,
    Request,
    Response,
    RpcError,
)
from net.wire.transcript import NONCE_SIZE, Entry, derive_game_id, genesis

VERSION = 2
HELLO_TAG = b"palazzo/hello/v1\x00"
HOST_TAG = b"palazzo/host/v1\x00"
#: refusals after which the host closes the connection (the peer cannot go on without it)
CLOSING = frozenset({E_WRONG_CODE, E_LOCKED_OUT, E_FULL})
#: what a host says as it closes a connection that may try again later
RETRY = frozenset({E_BUSY, E_TIMEOUT})

log = logging.getLogger("palazzo.net")


def hello_signature(identity: Identity, nonce: bytes, host_key: bytes) -> bytes:
    return identity.sign(HELLO_TAG, nonce + host_key)


def host_proof(identity: Identity, peer_nonce: bytes, peer_key: bytes) -> bytes:
    """The host's answer to a peer's challenge: its signature of the peer's nonce and key."""
    return identity.sign(HOST_TAG, peer_nonce + peer_key)


@dataclass(frozen=True)
class Send:
    conn: int
    data: bytes


@dataclass(frozen=True)
class Close:
    conn: int
    reason: str


Output = Send | Close


@dataclass
class Seat:
    name: str
    key: bytes
    conn: int | None
    nonce: bytes
    ready: bool = False


@dataclass
class _Conn:
    codec: Codec
    nonce: bytes
    address: str = ""
    since: float = 0.0  # when it connected
    budget: Bucket | None = None  # requests, once seated (``net.session.limits``)
    asked: int = 0  # messages received before it took a seat
    muted: bool = False  # nothing more it sends is read (a stranger over its budget)
    seat: int | None = None
    closed: bool = False
    resume_from: int = 0
    ping: int | None = None  # the msgid of the ping it was sent and has not answered
    claim: bool = False  # its hello waits for the seat's holder to answer a ping
    watcher: str | None = None  # the name of a watcher (``net.session.watch``): never a seat


@dataclass(frozen=True)
class _Claim:
    """A hello for a held seat, waiting on the holder's answer to a ping."""

    conn: int
    msgid: int
    key: bytes
    nonce: bytes
    have: int
    deadline: float


#: what ``_hello`` returns for a hello answered later
_DEFERRED = object()
#: the refusal of a second live connection with a seated key
IN_USE = ("this player is already at the table from another program; to play as a second "
          "player on this account use --identity FILE (or a profile name)")


def _param_map(req: Request) -> dict[str, Any]:
    if len(req.params) != 1 or type(req.params[0]) is not dict:
        raise RemoteProtocolError(f"{req.method} takes one map of fields", E_BAD_PARAMS)
    return req.params[0]


def _typed(m: dict[str, Any], name: str, t: type[Any], *, size: int | None = None,
           optional: bool = False) -> Any:
    v: Any = m.get(name)
    if v is None and optional:
        return None
    if type(v) is not t or (size is not None and len(v) != size):
        what = f"{t.__name__}" + (f" of {size} bytes" if size is not None else "")
        raise RemoteProtocolError(f"field {name!r} must be {what}", E_BAD_PARAMS)
    return v


class HostSession:
    """The host: lobby, seats, the start, and the checked relay of every entry."""

    def __init__(
        self,
        identity: Identity,
        game: str,
        config: Any,
        *,
        code: str | None = None,
        turn_timeout: float | None = None,
        on_timeout: str = "forfeit",
        allow_hints: bool = False,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        grace: float | None = DEFAULT_GRACE,
    ) -> None:
        if turn_timeout is not None and not 0 < turn_timeout <= MAX_TIMEOUT:
            raise ValueError(f"a turn timeout is more than 0 and at most {MAX_TIMEOUT} seconds")
        self.identity = identity
        self.wall = wall
        self.game = game
        self.config = config
        self.players: int = config.players
        self.code = code
        self.turn_timeout = turn_timeout
        self.on_timeout = on_timeout
        self.allow_hints = allow_hints
        self.clock = clock
        #: who is here, and the grace period for a seat that went (``net.session.presence``)
        self.presence = HostPresence(clock, grace)
        self.table = Table(identity.public_key, None)
        self.chat = ChatHost(self.table, clock)  # table talk (``net.session.chat``)
        self.seats: list[Seat] = []
        self.conns: dict[int, _Conn] = {}  # in the order they connected
        self.guard = CodeGuard(clock)
        self.quiet = QuietLog(clock)
        self.admissions = watch.Admissions(clock)  # watch hellos per address
        self._lobby_changed = False
        self._claims: dict[int, _Claim] = {}  # holder's connection -> the hello claiming its seat
        self._claimed: dict[bytes, float] = {}  # key -> when a claim on its seat last began
        self._out: list[Output] = []
        self._due: tuple[int | None, int] = (None, -1)
        self._due_since = clock()
        self.finished = False
        self.closed = ""  # why the host closed the game before its end (``close_game``)
        self.rematch = HostRematch(clock)  # the answers after the end (``net.session.rematch``)
        self.reserved = False  # the seats are kept for given keys (``reserve``)
        #: called with every entry the session accepts, before it goes to any peer (the
        #: host's record: ``net.session.resume``)
        self.on_entry: Callable[[Entry], None] | None = None
        #: called with a seat's entry before the observer table checks it; what it returns
        #: (if not ``None``) is called if the table refuses the entry (the host's record
        #: writes it meanwhile, ``net.session.resume``; ``on_entry`` still comes before relay)
        self.on_check: Callable[[Entry], Callable[[], None] | None] | None = None

    # -- the sans-IO surface ------------------------------------------------------------------

    def connect(self, conn: int, address: str = "") -> list[Output]:
        """A new connection from ``address`` (``net.session.code.address_key``; ``""`` for an
        in-process seat). It always gets in: at a limit, the oldest stranger makes room."""
        if self.closed:
            self.conns[conn] = _Conn(Codec(), b"", address, self.clock(), closed=True)
            return [Close(conn, self.closed)]
        self._make_room(address)
        c = _Conn(Codec(), os.urandom(NONCE_SIZE), address, self.clock())
        c.codec.receive_limit = limits.STRANGER_FRAME_LIMIT  # a hello is small
        self.conns[conn] = c
        self._notify(conn, "challenge", {
            "nonce": c.nonce, "host": self.identity.public_key, "version": VERSION,
            "game": self.game, "players": self.players, "code": self.code is not None,
        })
        return self.take_output()

    def receive_data(self, conn: int, data: bytes) -> list[Output]:
        c = self.conns.get(conn)
        if c is None or c.closed or c.muted:
            return []
        try:  # frames are parsed one by one: those after a close are never looked at
            for event in c.codec.iter_events(data):
                if c.closed or c.muted or not self._within_budget(conn, c):
                    break
                self._handle(conn, event)
        except RemoteProtocolError as e:
            self._warn(conn, str(e))
            self._notify(conn, "error", {"code": e.code, "message": str(e)})
            self._close(conn, str(e))
        self._send_presence()
        return self.take_output()

    def reading(self, conn: int) -> bool:
        """Whether what ``conn`` sends is still read: a stranger over its budget is not (the
        adapter then stops reading its socket, so the flood waits in the sender's buffers and
        costs nothing) until its hello timeout closes it."""
        c = self.conns.get(conn)
        return c is not None and not c.closed and not c.muted

    def disconnect(self, conn: int) -> list[Output]:
        c = self.conns.pop(conn, None)
        if conn in self._claims:  # the holder went: the claim wins at once
            self._settle(conn, alive=False)
        for old, k in list(self._claims.items()):
            if k.conn == conn:
                del self._claims[old]
        if c is not None and c.watcher is not None:
            log.info("watcher %s left", c.watcher)
            self._broadcast_lobby()
        if c is not None and c.seat is not None and self.seats[c.seat].conn == conn:
            log.info("seat %s (%s) left", c.seat, self.seats[c.seat].name)
            if self.table.phase == "lobby" and self.reserved:  # kept for its key
                self.seats[c.seat].conn, self.seats[c.seat].ready = None, False
            elif self.table.phase == "lobby":  # before the start a seat is simply given up
                del self.seats[c.seat]
                for other in self.conns.values():
                    if other.seat is not None and other.seat > c.seat:
                        other.seat -= 1
            else:
                self.seats[c.seat].conn = None
                self.presence.lost(c.seat)
            self._broadcast_lobby()
            if self.finished and self.rematch.leave(c.seat):
                self._rematch_news()
        self._send_presence()
        return self.take_output()

    def tick(self) -> list[Output]:
        """Close the strangers past their hello time and check the turn timeout (call it now
        and then: the asyncio host does twice a second)."""
        self._expire_strangers()
        if self.rematch.expire():
            self._rematch_news()
        why = self.rematch.unstarted(self.table.phase, [
            s.name for s in self.seats if s.conn is None or not s.ready])
        if why and not self.closed:
            return self.close_game(why)
        now = self.clock()
        for old, k in list(self._claims.items()):
            if now >= k.deadline:
                self._settle(old, alive=False)
        if self.finished:
            return self.take_output()
        self._track_due()
        deadline = self._deadline()
        if deadline is not None and now >= deadline[0]:
            self._write({"kind": "forfeit", "seat": self._due[0], "reason": deadline[1]})
        self._send_presence()
        return self.take_output()

    def _deadline(self) -> tuple[float, str] | None:
        """When the host forfeits the seat due now, and why (``HostPresence.deadline``)."""
        who, _ = self._due
        if who is None or who == HOST or self.table.phase not in ("seed-commit", "seed-open", "play", "end"):
            return None
        limit = None if self.turn_timeout is None else \
            self.turn_timeout * (2 if self.on_timeout == "bot" else 1)
        return self.presence.deadline(who, self._due_since, limit, self.seats[who].name)

    def _send_presence(self) -> None:
        """Tell every seated connection and every watcher who is here, when something changed
        (throttled)."""
        if self.finished or self.closed or not self.presence.started:
            return
        self.presence.watchers = self.watchers()
        deadline = self._deadline()
        who = self._due[0] if self.table.phase != "over" else None
        m = self.presence.take(who, None if deadline is None else deadline[0])
        if m is not None:
            self._broadcast("presence", m)

    def close_game(self, reason: str = "the host closed the game") -> list[Output]:
        """The host quits: every connection is told ``bye {reason}`` and closed; nothing more
        is read. The record kept so far stays as it is (a resumable game, ``net.session.resume``)."""
        self.closed = reason
        for conn, c in list(self.conns.items()):
            if not c.closed:
                self._notify(conn, "bye", {"reason": reason})
                self._close(conn, reason)
        return self.take_output()

    def take_output(self) -> list[Output]:
        out, self._out = self._out, []
        return out

    # -- handling -------------------------------------------------------------------------------

    def _handle(self, conn: int, event: Any) -> None:
        if isinstance(event, Request):
            name = _METHODS.get(event.method)
            try:
                if name is None:
                    raise RemoteProtocolError(f"unknown method {event.method!r}", E_UNKNOWN_METHOD)
                result = getattr(self, name)(conn, event)
            except (RemoteProtocolError, CheatDetected) as e:
                self._warn(conn, f"{event.method}: {e}")
                self._respond(conn, event.msgid, None, RpcError(e.code, str(e)))
                if e.code in CLOSING:
                    self._close(conn, str(e))
                return
            except Exception as e:  # a fault here must not stop the other players' game
                log.exception("connection %s, %s: internal error", conn, event.method)
                self._respond(conn, event.msgid, None, RpcError(E_INTERNAL, f"host error: {e!r}"))
                return
            if result is _DEFERRED:  # answered when the seat's holder has been asked
                return
            self._respond(conn, event.msgid, result)
            self._after(conn, event.method)
        elif isinstance(event, Notification) and event.method in ("status", "leave"):
            self._peer_note(conn, event)
        elif isinstance(event, Notification):
            msg = f"unknown notification {event.method!r} (peers send requests only)"
            self._warn(conn, msg)
            self._notify(conn, "error", {"code": E_UNKNOWN_METHOD, "message": msg})
        else:
            self._answer(conn, event)

    def _hello(self, conn: int, req: Request) -> Any:
        m = _param_map(req)
        c = self.conns[conn]
        self._check_code(c, m)
        name = _typed(m, "name", str).strip()
        if not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
            raise RemoteProtocolError(f"a name is 1 to {NAME_LIMIT} printable characters",
                                      E_BAD_PARAMS)
        key = _typed(m, "key", bytes, size=PUBLIC_KEY_SIZE)
        sig = _typed(m, "sig", bytes, size=SIGNATURE_SIZE)
        nonce = _typed(m, "nonce", bytes, size=NONCE_SIZE)
        have = _typed(m, "have", int, optional=True) or 0
        watching = _typed(m, "watch", bool, optional=True) or False
        if not 0 <= have <= len(self.table.transcript):
            raise RemoteProtocolError(f"'have' is {have}: the transcript holds "
                                      f"{len(self.table.transcript)} entries", E_BAD_PARAMS)
        try:
            check_public_key(key)
        except InvalidKey as e:
            raise RemoteProtocolError(f"the key is refused ({e})", E_BAD_PARAMS) from None
        if not verify(key, HELLO_TAG, c.nonce + self.identity.public_key, sig):
            raise RemoteProtocolError("the hello signature does not match the key", E_BAD_SIGNATURE)
        if c.seat is not None:
            raise RemoteProtocolError("this connection already said hello", E_WRONG_PHASE)
        if c.claim or c.watcher is not None:
            raise RemoteProtocolError("this connection already said hello", E_WRONG_PHASE)
        if watching:
            return self._watch(conn, name, key, nonce, have)
        for i, seat in enumerate(self.seats):
            if seat.key == key:
                old = seat.conn
                if old is not None and old in self.conns and old != conn \
                        and not self.conns[old].closed:
                    return self._claim(conn, req.msgid, i, nonce, have, name == seat.name)
                return self._seat(conn, i, nonce, have)
        started = self.table.phase != "lobby"
        if started or len(self.seats) >= self.players:
            raise RemoteProtocolError("the game is full", E_FULL)
        self.seats.append(Seat(name, key, conn, nonce))
        c.seat = len(self.seats) - 1
        log.info("seat %s: %s (%s)", c.seat, name, _fp(key))
        return {"seat": c.seat, "players": self.players, "length": 0, "resume": False,
                "proof": host_proof(self.identity, nonce, key)}

    def _watch(self, conn: int, name: str, key: bytes, nonce: bytes, have: int) -> Any:
        """Let ``conn`` watch (``net.session.watch``): no seat, the entries from ``have`` on."""
        watch.check_room(len(self.watchers()))
        c = self.conns[conn]
        if not self.admissions.take(c.address):
            self._shut(conn, E_BUSY, f"{watch.ADMIT_BURST} watchers came in from your address "
                       f"just now: watch again in {watch.ADMIT_EVERY:g} seconds")
            return _DEFERRED
        c.watcher, c.resume_from = name, have
        log.info("watcher %s (%s) is watching", name, _fp(key))
        return watch.welcome(self.players, len(self.table.transcript), self.table.phase != "lobby",
                             host_proof(self.identity, nonce, key))

    def watchers(self) -> list[str]:
        """The names of the watchers, in the order they came."""
        return [c.watcher for c in self.conns.values() if c.watcher is not None and not c.closed]

    def _seat(self, conn: int, i: int, nonce: bytes, have: int) -> dict[str, Any]:
        """Seat ``conn`` on seat ``i``, whose key its hello proved: the welcome."""
        seat, c = self.seats[i], self.conns[conn]
        seat.conn, c.seat, c.resume_from = conn, i, have
        started = self.table.phase != "lobby"
        if not started:  # its contribution is the nonce of its latest hello
            seat.nonce = nonce
        self.presence.seated(i)
        log.info("seat %s (%s) is back", i, seat.name)
        return {"seat": i, "players": self.players, "length": len(self.table.transcript),
                "resume": started, "proof": host_proof(self.identity, nonce, seat.key)}

    def _claim(self, conn: int, msgid: int, i: int, nonce: bytes, have: int,
               same_name: bool) -> object:
        """A hello that proves the key of seat ``i`` while another connection holds it: the
        host pings the holder and answers the hello later (``_DEFERRED``), refusing it if the
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
            return _DEFERRED
        self._claimed[seat.key] = now
        o = self.conns[old]
        if same_name and o.address and self.conns[conn].address:
            self._replace(old, i, "the same player joined again from another program "
                          "(the same key and name); this program stops here")
            return self._seat(conn, i, nonce, have)
        msg = o.codec.next_msgid()
        o.ping = msg
        self._send(old, Request(msg, "ping", ()))
        self._claims[old] = _Claim(conn, msgid, seat.key, nonce, have, now + limits.PING_WAIT)
        self.conns[conn].claim = True
        log.info("seat %s (%s): a second connection with its key; asking the first", i, seat.name)
        return _DEFERRED

    def _settle(self, old: int, alive: bool) -> None:
        """The end of a claim on the seat ``old`` holds: refused if ``old`` answered, else the
        new connection takes the seat and ``old`` is closed."""
        k = self._claims.pop(old)
        c = self.conns.get(k.conn)
        if c is None or c.closed:
            return
        c.claim = False
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
        self._warn(conn, f"ignoring a response (msgid {event.msgid})")

    def _peer_note(self, conn: int, event: Notification) -> None:
        """``status {away}`` or ``leave {}`` from a seated connection, for its own seat only
        (``net.session.presence``); never answered, a malformed one only logged."""
        seat = self.conns[conn].seat
        m = event.params[0] if len(event.params) == 1 and type(event.params[0]) is dict else None
        if seat is None or m is None:
            self._warn(conn, f"{event.method}: ignored (no seat, or not one map of fields)")
            return
        if event.method == "leave":
            log.info("seat %s (%s) leaves", seat, self.seats[seat].name)
            self.presence.leave(seat)
            self._close(conn, "it left")
        elif type(m.get("away")) is not bool:
            self._warn(conn, "status: ignored ('away' must be true or false)")
        elif not self.presence.status(seat, m["away"]):
            self._warn(conn, "status: ignored (more changes than the status budget allows)")

    def _ready(self, conn: int, req: Request) -> Any:
        seat = self._seat_of(conn, "say it is ready")
        self._lobby_changed = not self.seats[seat].ready  # a second ready tells nobody
        self.seats[seat].ready = True
        return None

    def _post(self, conn: int, req: Request) -> Any:
        seat = self._seat_of(conn, "post an entry")
        m = _param_map(req)
        entry = Entry.parse(m.get("body"), m.get("sig"))
        if entry.author != seat:
            raise RemoteProtocolError(f"you hold seat {seat}, not {entry.author}", E_NOT_YOUR_SEAT)
        if self.table.phase == "lobby":
            raise RemoteProtocolError("the game has not started", E_WRONG_PHASE)
        _check_equivocation(self.table, entry)
        undo = self.on_check(entry) if self.on_check is not None else None
        try:
            self.table.accept(entry)
        except BaseException:
            if undo is not None:
                undo()
            raise
        self._relay(entry)
        return {"seq": entry.seq}

    def _say(self, conn: int, req: Request) -> Any:
        """Table talk (``net.session.chat``): check the message, relay it to the other seats."""
        seat = self._seat_of(conn)
        if not 0 <= seat < len(self.seats):  # a watcher (seat -1) has no voice
            raise RemoteProtocolError("only a seated player may talk at the table",
                                      E_NOT_YOUR_SEAT)
        if self.finished:
            raise RemoteProtocolError("the game is over", E_WRONG_PHASE)
        s = self.seats[seat]
        said = self.chat.say(seat, s.key, s.nonce, _param_map(req))
        log.info("%s says: %s", s.name, said.text)
        self._broadcast("said", said.to_wire(), but=conn)  # the seats and the watchers
        return {"n": said.n}

    def _after(self, conn: int, method: str) -> None:
        if method == "hello":
            c = self.conns[conn]
            if c.watcher is None:  # seated: entries may be large (a watcher sends none)
                c.codec.receive_limit = c.codec.frame_limit
            for entry in self.table.transcript.entries[c.resume_from :]:
                self._notify(conn, "entry", entry.to_wire())
            self._broadcast_lobby()
            for said in self.chat.backlog({s.key: s.nonce for s in self.seats}):
                self._notify(conn, "said", said.to_wire())  # after the lobby: it names them
        elif method == "ready" and self._lobby_changed:
            self._broadcast_lobby()
            self._maybe_start()
        elif method == "again":
            self._rematch_news()

    def _again(self, conn: int, req: Request) -> Any:
        seat = self._seat_of(conn)
        if _param_map(req):  # the seat is the connection's: nobody asks for another
            raise RemoteProtocolError("again takes an empty map", E_BAD_PARAMS)
        self.rematch.ask(seat)
        return None

    def _rematch_news(self) -> None:
        """Tell every seat the rematch's answers; when all agreed, close every connection: the
        rematch is a new game (``net.session.rematch``)."""
        m = self.rematch.message()
        names = [s.name for s in self.seats]
        log.info("rematch: %s of %s agreed%s%s", len(m["agreed"]), len(names),
                 "".join(f"; {names[i]} declined" for i in m["declined"]),
                 "; it starts" if self.rematch.go else
                 f" (the host waits {REMATCH_WAIT:g} seconds)" if self.rematch.waiting else "")
        for conn, c in list(self.conns.items()):
            if c.seat is not None and not c.closed:
                self._notify(conn, "rematch", m)
            if self.rematch.go:  # strangers too: this session will read nothing more
                self._close(conn, "the rematch starts: join it again")

    def reserve(self, seats: list[tuple[str, bytes]]) -> None:
        """Keep the seats for these names and keys, in order (a rematch): no other key is
        seated, and a seat left in the lobby stays its key's."""
        self.seats = [Seat(name, key, None, b"") for name, key in seats]
        self.reserved = True
        self.rematch.lobby_since = self.clock()

    def _check_code(self, c: _Conn, m: dict[str, Any]) -> None:
        """The game code of a hello (``net.session.code``): ``E_LOCKED_OUT`` while its address
        is locked out, whatever the code (unless the hello proves a seated key: a player who
        comes back is never locked out), ``E_WRONG_CODE`` for a missing or wrong one, which
        counts against the address."""
        if self.code is None:
            return
        wait = self.guard.locked(c.address)
        if wait > 0 and not self._proves_seated_key(c, m):
            raise RemoteProtocolError(
                f"too many wrong game codes from your address: try again in {math.ceil(wait)} "
                "seconds", E_LOCKED_OUT)
        given = m.get("code")
        if type(given) is not str or not same_code(given, self.code):
            lock = self.guard.wrong(c.address)
            what = "a wrong" if given else "no"
            then = f"; your address is locked out for {math.ceil(lock)} seconds" if lock else ""
            raise RemoteProtocolError(
                f"{what} game code: ask the host for the line to join "
                f"(palazzo join HOST:PORT --code CODE){then}", E_WRONG_CODE)
        self.guard.right(c.address)

    def _proves_seated_key(self, c: _Conn, m: dict[str, Any]) -> bool:
        key, sig = m.get("key"), m.get("sig")
        return (type(key) is bytes and type(sig) is bytes and any(s.key == key for s in self.seats)
                and verify(key, HELLO_TAG, c.nonce + self.identity.public_key, sig))

    # -- what a connection may cost (``net.session.limits``) ---------------------------------

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

    def _within_budget(self, conn: int, c: _Conn) -> bool:
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
                    and now - c.since >= limits.HELLO_TIMEOUT:
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

    # -- the game -----------------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.table.phase != "lobby" or len(self.seats) < self.players:
            return
        if not all(s.ready for s in self.seats):
            return
        host = self.identity.public_key
        self._write({
            "kind": "start", "rules": self.game, "config": self.config.to_data(),
            "host": host,
            "seats": [{"name": s.name, "key": s.key, "nonce": s.nonce} for s in self.seats],
            "time": int(self.wall()),
            "timeout": math.ceil(self.turn_timeout or 0), "on_timeout": self.on_timeout,
            **({"hints": True} if self.allow_hints else {}),
        }, game_id=derive_game_id(host, [(s.key, s.nonce) for s in self.seats]))
        self.presence.begin([s.conn is not None for s in self.seats])
        log.info("the game starts: %s", ", ".join(s.name for s in self.seats))

    def _write(self, fields: dict[str, Any], game_id: bytes | None = None) -> None:
        t = self.table
        game = game_id or t.game_id
        header = {"game": game, "seq": len(t.transcript),
                  "prev": t.transcript.head if t.transcript.entries else genesis(game),
                  "author": HOST}
        entry = Entry.sign(self.identity, {**header, **fields})
        t.accept(entry)
        self._relay(entry)

    def _relay(self, entry: Entry) -> None:
        if self.on_entry is not None:
            self.on_entry(entry)
        self.chat.entry(entry)
        # first to its author (its post answered), then to the seat that writes next
        self._broadcast("entry", entry.to_wire(), first=(entry.author, self.table.writer()))
        self._track_due()
        if self.table.phase == "over" and not self.finished:
            self.finished = True
            log.info("the game is over: %s", self.table.result().get("text"))
            for conn, c in list(self.conns.items()):
                if not c.closed:
                    self._notify(conn, "bye", {"reason": "the game is over"})
            if self.rematch.begin([s.key for s in self.seats],
                                  [s.conn is not None for s in self.seats]):
                self._rematch_news()

    def _track_due(self) -> None:
        due = (self.table.writer(), len(self.table.transcript))
        if due != self._due:
            self._due, self._due_since = due, self.clock()

    def restore(self, entries: list[Entry]) -> None:
        """Go on with a game from its saved entries (a restarted host): each is checked again
        by the observer table; the start's seats are seated, away until their keys say hello;
        the turn clock starts now."""
        if self.table.transcript.entries:
            raise LocalProtocolError("only a fresh host session takes a saved game")
        for entry in entries:
            self.table.accept(entry)
        self.seats = [Seat(s.name, s.key, None, s.nonce, ready=True) for s in self.table.seats]
        self.presence.begin([False] * len(self.seats))
        self._track_due()
        self.finished = self.table.phase == "over"

    # -- output -------------------------------------------------------------------------------

    def _send(self, conn: int, event: Any) -> None:
        c = self.conns.get(conn)
        if c is not None and not c.closed:
            self._out.append(Send(conn, c.codec.send(event)))

    def _notify(self, conn: int, method: str, payload: dict[str, Any]) -> None:
        self._send(conn, Notification(method, (payload,)))

    def _respond(self, conn: int, msgid: int, result: Any, error: RpcError | None = None) -> None:
        self._send(conn, Response(msgid, error, result))

    def _close(self, conn: int, reason: str) -> None:
        c = self.conns.get(conn)
        if c is not None and not c.closed:
            c.closed = True
            self._out.append(Close(conn, reason))

    def lobby(self) -> dict[str, Any]:
        watching = self.watchers()
        return {
            "game": self.game, "players": self.players,
            "seats": [{"seat": i, "name": s.name, "fp": _fp(s.key), "key": s.key,
                       "ready": s.ready, "online": s.conn is not None}
                      for i, s in enumerate(self.seats)],
            **({"watchers": watching} if watching else {}),
        }

    def _broadcast_lobby(self) -> None:
        self._broadcast("lobby", self.lobby())

    def _broadcast(self, method: str, payload: dict[str, Any], but: int | None = None,
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


def _printable(text: Any) -> str:
    """Text from the host, as one printable line of at most 300 characters."""
    return printable_line(str(text)[:300])


def _fp(key: bytes) -> str:
    return fingerprint(key)


#: request -> the HostSession method that answers it
_METHODS: dict[str, str] = {"hello": "_hello", "ready": "_ready", "post": "_post",
                            "say": "_say", "again": "_again"}


# -- the peer -----------------------------------------------------------------------------------


@dataclass
class PeerEvent:
    """Something a peer's user may want to hear: ``kind`` is lobby, log, turn, over, failed,
    presence (``data`` the ``Presence`` read), note (``data`` a line: "Jo left", ...) or
    rematch (a line on the rematch after the end: ``net.session.rematch``)."""

    kind: str
    data: Any = field(default=None)


class PeerSession:
    """A seat's side: answers the challenge, follows the transcript, writes its entries.

    ``receive_data`` takes bytes from the host; ``data_to_send`` gives bytes for it. When
    ``decision_due()`` the caller (a bot, or the table screen) calls ``act(action)``.
    A subclass with ``WATCH`` set follows the game as a watcher (``net.session.watcher``).
    """

    #: a watcher's session: its hello says ``watch``, its table is an observer's
    WATCH = False

    def __init__(self, identity: Identity, name: str, code: str | None = None,
                 auto_ready: bool = True, clock: Callable[[], float] = time.monotonic,
                 journal: Journal | None = None, host_fingerprint: str | None = None) -> None:
        self.identity = identity
        #: the fingerprint the host was chosen by (a LAN advertisement, ``net.session.discovery``):
        #: a host whose key has another one is refused before anything is signed for it
        self.host_fingerprint = host_fingerprint
        #: what this seat contributed and signed; give the same journal (a file journal,
        #: ``Journal.for_identity``) to a program that restarts, so that it rejoins its games
        self.journal = journal if journal is not None else Journal()
        self._nonce = b""
        self.clock = clock
        self._turn_since = 0.0
        self.name = name
        self.code = code
        self.auto_ready = auto_ready
        self.codec = Codec()
        self.table: Table | None = None
        self.state = "connecting"
        self.seat: int | None = None
        self.lobby: dict[str, Any] = {}
        self.error: Exception | None = None
        self.events: list[PeerEvent] = []
        self._out = bytearray()
        self._calls: dict[int, str] = {}
        self._pending: int | None = None
        self._posted: Entry | None = None  # the entry just posted, to check ahead
        self._sync_to = 0
        self._logged = 0
        self.refusal = ""  # what the host said last when it closed a connection for room
        #: the last presence the host sent (``net.session.presence``; the host's word only)
        self.presence: Presence | None = None
        self.notes = NoteBook()  # the notes from the presences, for a table's log
        self._bad_presence = False  # a malformed presence was refused already
        #: table talk (``net.session.chat``): events ``said``, ``refused`` and ``note``
        self.chat = ChatPeer(identity, lambda kind, data: self.events.append(PeerEvent(kind, data)),
                             lambda: len(self.table.steps) if self.table is not None else 0)
        self.rematch = PeerRematch()  # after the end (``net.session.rematch``)
        #: the start this seat's rematch must carry (``None``: not a rematch)
        self.expect: Expected | None = None

    # -- the sans-IO surface ------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        if self.state == "failed" or (self.state == "over" and not self.rematch.waiting()):
            return
        try:
            for event in self.codec.receive_data(data):
                self._handle(event)
                if self.state == "failed":
                    return
        except RemoteProtocolError as e:
            self._fail(RemoteProtocolError(f"the host sent a malformed frame: {e}", e.code))
        except CheatDetected as e:
            self._fail(e)
        except Exception as e:  # a fault of this program: stop cleanly and say so
            log.exception("peer: internal error")
            self._fail(LocalProtocolError(f"internal error: {e!r}"))

    def data_to_send(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def reconnect(self) -> None:
        """Start over on a new connection, keeping the game followed so far."""
        if self.state in ("over", "failed"):
            return
        self.codec = Codec()
        self._calls.clear()
        self._out = bytearray()  # whatever was not sent went with the old connection
        self._pending = None
        self._posted = None
        self.state = "connecting"

    def connection_lost(self) -> None:
        if self.state == "over" and self.rematch.waiting():
            self._rematch_lines(self.rematch.stop("the host closed the connection"))
        if self.state not in ("over", "failed", "disconnected"):
            self.state = "disconnected"
            self.events.append(PeerEvent("disconnected"))

    def decision_due(self) -> bool:
        return (self.state == "playing" and self._pending is None and self.table is not None
                and self._synced() and self.table.decision_due())

    def takeover_due(self) -> bool:
        """Whether the seat's own bot should decide now: the host chose ``--on-timeout bot`` and
        the player has let a decision wait for the turn timeout. (The host forfeits the seat at
        twice the timeout; this peer's bot decides first, on the machine that holds the secrets.)
        """
        t = self.table
        return (self.decision_due() and t is not None and t.on_timeout == "bot" and t.timeout > 0
                and self.clock() - self._turn_since >= t.timeout)

    @property
    def turn_since(self) -> float:
        """When this seat's decision became due, on ``clock`` (its turn limit runs from it)."""
        return self._turn_since

    @property
    def view(self) -> Any:
        return None if self.table is None else self.table.view

    def act(self, action: Any, auto: bool = False) -> None:
        """Post this seat's decision; ``LocalProtocolError`` if it is not legal or not due.
        ``auto``: this seat's program played it after the turn limit (``takeover_due``)."""
        if not self.decision_due():
            raise LocalProtocolError("no decision is due from this seat now")
        assert self.table is not None
        self._post(self.table.decide(action, auto))

    def ready(self) -> None:
        self._call("ready", ())

    def set_away(self, away: bool) -> None:
        """Tell the host this seat's player is away (``True``) or here again."""
        if self.state in ("lobby", "playing"):
            self._out += self.codec.send(Notification("status", ({"away": away},)))

    def leave(self) -> None:
        """Tell the host this seat leaves on purpose (then close the connection)."""
        if self.state in ("lobby", "playing"):
            self._out += self.codec.send(Notification("leave", ({},)))

    def say(self, text: str) -> None:
        """Say ``text`` at the table (sent when the one before it is answered);
        ``LocalProtocolError`` for a text that cannot be said."""
        why = text_problem(text)
        if why is not None:
            raise LocalProtocolError(why)
        if self.state in ("over", "failed"):
            raise LocalProtocolError("the game is over")
        self.chat.queue.append(text)
        self._maybe_say()

    def _maybe_say(self) -> None:
        t = self.table
        if self.state not in ("lobby", "playing") or t is None or self.seat is None \
                or not self._synced():
            return
        said = self.chat.next_say(self.seat, len(t.transcript), t)
        if said is not None:
            self._call("say", ({"body": said.body, "sig": said.sig},))

    def lingers(self) -> bool:
        """Whether the connection stays after the end: this seat waits for a rematch (for
        ``REMATCH_WAIT + PEER_GRACE`` seconds at most, on its own clock)."""
        if self.state == "over" and self.rematch.waiting() \
                and self.clock() - self.rematch.since >= REMATCH_WAIT + PEER_GRACE:
            self._rematch_lines(self.rematch.stop(
                f"the host did not answer within {REMATCH_WAIT + PEER_GRACE:g} seconds"))
        return self.state == "over" and self.rematch.waiting()

    def again(self) -> None:
        """Ask for a rematch (after the end; once)."""
        if self.state != "over" or self.rematch.asked or self.rematch.off:
            raise LocalProtocolError("a rematch is asked once, after the end")
        self.rematch.asked = self.rematch.wanted = True
        self._call("again", ({},))

    def _after_end(self, event: Any) -> None:
        """After the end only the rematch is talked about; the rest is not looked at."""
        if not self.rematch.waiting():
            return
        if isinstance(event, Notification) and event.method == "rematch":
            payload = event.params[0] if event.params and type(event.params[0]) is dict else {}
            assert self.table is not None
            self._rematch_lines(self.rematch.update(payload, [s.name for s in self.table.seats]))
        elif isinstance(event, Response) and self._calls.pop(event.msgid, None) == "again" \
                and event.error is not None:
            self._rematch_lines(self.rematch.stop(
                f"the host refused it: {_printable(event.error.message)}"))
        elif isinstance(event, Request) and event.method == "ping" and not event.params:
            self._out += self.codec.send(Response(event.msgid, None, None))

    def _rematch_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.events.append(PeerEvent("rematch", line))

    # -- handling -------------------------------------------------------------------------------

    def _handle(self, event: Any) -> None:
        if self.state == "over":
            self._after_end(event)
        elif isinstance(event, Notification):
            payload = event.params[0] if event.params and type(event.params[0]) is dict else {}
            name = _PEER_NOTES.get(event.method)
            if name is None:
                raise RemoteProtocolError(f"unknown notification {event.method!r}", E_UNKNOWN_METHOD)
            getattr(self, name)(payload)
        elif isinstance(event, Response):
            method = self._calls.pop(event.msgid, None)
            if method is None:
                raise RemoteProtocolError(f"a response to no request ({event.msgid})", E_BAD_PARAMS)
            if method == "say":
                self._on_say_answer(event)
                return
            if event.error is not None:
                self._fail(RemoteProtocolError(
                    f"the host refused {method}: {event.error.message}", event.error.code))
                return
            if method == "hello":
                self._on_welcome(event.result)
        elif isinstance(event, Request) and event.method == "ping" and not event.params:
            self._out += self.codec.send(Response(event.msgid, None, None))  # still here
        else:
            raise RemoteProtocolError("the host sent a request", E_UNKNOWN_METHOD)

    def _on_challenge(self, m: dict[str, Any]) -> None:
        nonce = _typed(m, "nonce", bytes, size=NONCE_SIZE)
        host = _typed(m, "host", bytes, size=PUBLIC_KEY_SIZE)
        if m.get("version") != VERSION:
            raise RemoteProtocolError(
                f"the host speaks protocol version {m.get('version')!r}, this program {VERSION}",
                E_WRONG_PHASE)
        try:
            check_public_key(host)
        except InvalidKey as e:
            raise RemoteProtocolError(f"the host key is refused ({e})", E_BAD_PARAMS) from None
        if self.host_fingerprint is not None and fingerprint(host) != self.host_fingerprint:
            self._fail(RemoteProtocolError(
                f"host key check: the host here has the key {fingerprint(host)}, not the "
                f"{self.host_fingerprint} its advertisement on the LAN gave (one of them is not "
                "what it says)", E_BAD_SIGNATURE))
            return
        if self.table is None:
            self.table = Table(host, None) if self.WATCH else Table(host, self.identity,
                                                                    self.journal)
        elif self.table.host_key != host:
            raise RemoteProtocolError("a different host answered", E_BAD_SIGNATURE)
        self._nonce = os.urandom(NONCE_SIZE)
        if self.table.phase == "lobby" and not self.WATCH:
            self.journal.contribute(self._nonce)  # it may go into the game: journaled first
            self.chat.reset(self._nonce)
        self._call("hello", ({
            "name": self.name, "key": self.identity.public_key, "code": self.code,
            "sig": hello_signature(self.identity, nonce, host), "have": len(self.table.transcript),
            "nonce": self._nonce, **({"watch": True} if self.WATCH else {}),
        },))

    def _on_welcome(self, result: Any) -> None:
        if type(result) is not dict or type(result.get("seat")) is not int:
            raise RemoteProtocolError("a malformed hello answer", E_BAD_PARAMS)
        assert self.table is not None
        proof = result.get("proof")
        if type(proof) is not bytes or not verify(self.table.host_key, HOST_TAG,
                                                  self._nonce + self.identity.public_key, proof):
            raise RemoteProtocolError("host key check: the host did not prove its key (its answer "
                                      "to this peer's challenge is not signed by the key it "
                                      "announced)", E_BAD_SIGNATURE)
        self.seat = result["seat"]
        self._sync_to = result.get("length", 0) if type(result.get("length")) is int else 0
        if result.get("resume"):
            self.state = "playing"
        else:
            self.state = "lobby"
            if self.auto_ready:
                self.ready()
        self._maybe_write()

    def _on_say_answer(self, event: Response) -> None:
        assert self.table is not None
        if event.error is not None:
            self.chat.refused(_printable(event.error.message))
        else:
            me = self.name if not self.table.game_id else self.table.seats[self.table.me].name
            self.chat.accepted(self.table, me)
        self._maybe_say()

    def _on_said(self, m: dict[str, Any]) -> None:
        if self.table is None:  # before the challenge: nobody to hear from
            raise RemoteProtocolError("a message before the challenge", E_WRONG_PHASE)
        self.chat.heard(m, self.table, self.lobby)
        self._maybe_say()

    def _on_lobby(self, m: dict[str, Any]) -> None:
        self.lobby = m
        self.events.append(PeerEvent("lobby", m))

    def _on_entry(self, m: dict[str, Any]) -> None:
        assert self.table is not None
        try:
            entry = Entry.parse(m.get("body"), m.get("sig"))
        except RemoteProtocolError as e:  # the host should have refused it
            raise CheatDetected(HOST, len(self.table.transcript),
                                f"the host relayed a malformed entry: {e}") from None
        if len(self.table.transcript) > entry.seq:
            # already held (a rejoin may resend what arrived before the drop); a different
            # entry signed for the same place is an equivocation by its author, and one of
            # another author a second history shown by the host
            try:
                _check_equivocation(self.table, entry)
            except RemoteProtocolError as e:
                raise CheatDetected(HOST, entry.seq, f"the host relayed a bad entry: {e}") from None
            if self.table.transcript.entries[entry.seq].body != entry.body:
                raise CheatDetected(HOST, entry.seq, "the host relayed two different entries for "
                                    "one place in the transcript")
            return
        why = self.expect.refuses(entry) if self.expect is not None and entry.seq == 0 else None
        if why is not None:
            raise CheatDetected(HOST, 0, f"rematch check: {why}")
        try:
            self.table.accept(entry)
        except RemoteProtocolError as e:
            raise CheatDetected(HOST, entry.seq, f"the host relayed a bad entry: {e}") from None
        if self._pending is not None and entry.seq >= self._pending:
            self._pending = None
        if self.state == "lobby":
            self.state = "playing"
        t = self.table
        self.chat.entry(t, entry)
        for line in t.log[self._logged :]:
            self.events.append(PeerEvent("log", line))
        self._logged = len(t.log)
        if t.phase == "over":
            self.journal.finish(t.game_id)
            self.state = "over"
            self.rematch.since = self.clock()
            self.events.append(PeerEvent("over", t.result()))
            if self.rematch.auto:
                self.again()
            return
        self._maybe_write()
        self._maybe_say()

    def _on_error(self, m: dict[str, Any]) -> None:
        message = _printable(m.get("message"))
        if m.get("code") in RETRY:  # the host makes room or is busy: it closes, a retry may do
            self.refusal = f"the host says: {message}"
            return
        self._fail(RemoteProtocolError(f"the host says: {message}", m.get("code") or 1))

    def _on_bye(self, m: dict[str, Any]) -> None:
        if self.state != "over":
            self._fail(RemoteProtocolError(f"the host ended the session: {_printable(m.get('reason'))}"))

    def _on_presence(self, m: dict[str, Any]) -> None:
        t = self.table
        if t is None or not t.seats:
            return  # before the start entry: nothing to say it of
        try:
            p = read_presence(m, len(t.seats), self.clock(), self.presence)
        except ValueError as e:  # the host's word, and a bad one: refused, the game goes on
            # said once; a host that sends more of them costs no more than a debug line each
            log.log(logging.DEBUG if self._bad_presence else logging.WARNING,
                    "the host sent a malformed presence, ignored: %s", e)
            self._bad_presence = True
            return
        old, self.presence = self.presence, p
        for line in notes(old, p, [s.name for s in t.seats], t.me):
            self.notes.add(line)
            self.events.append(PeerEvent("note", line))
        self.events.append(PeerEvent("presence", p))
    def _on_early_rematch(self, m: dict[str, Any]) -> None:
        """A rematch is talked about only after the end: before it, the host's word is not
        followed (it changes nothing in the game under way)."""
        log.warning("ignoring a rematch message from the host before the end of the game")

    def _synced(self) -> bool:
        return self.table is not None and len(self.table.transcript) >= self._sync_to

    def _maybe_write(self) -> None:
        if self.state != "playing" or self._pending is not None or not self._synced():
            return
        assert self.table is not None
        entry = self.table.auto_entry()
        if entry is not None:
            self._post(entry)
        elif self.table.decision_due():
            self._turn_since = self.clock()
            self.events.append(PeerEvent("turn"))

    def _post(self, entry: Entry) -> None:
        self._pending = entry.seq
        self._posted = entry
        self._call("post", (entry.to_wire(),))

    def check_ahead(self) -> None:
        """Check the entry just posted on this seat's own table while the host checks it (call
        it once the post's bytes are on their way: ``Table.check_ahead``); its relay is then
        only applied."""
        entry, self._posted = self._posted, None
        if entry is not None and self.table is not None and self.state == "playing":
            self.table.check_ahead(entry)

    def _call(self, method: str, params: tuple[Any, ...]) -> None:
        msgid = self.codec.next_msgid()
        self._calls[msgid] = method
        self._out += self.codec.send(Request(msgid, method, params))

    def _fail(self, error: Exception) -> None:
        if self.state == "over":  # the game ended as it did: only the rematch is off
            self._rematch_lines(self.rematch.stop(str(error)))
            return
        if isinstance(error, CheatDetected) and self.table is not None and self.table.game_id:
            self.journal.finish(self.table.game_id)  # never to be followed again
        self.state = "failed"
        self.error = error
        self.events.append(PeerEvent("failed", error))


def _check_equivocation(table: Table, entry: Entry) -> None:
    """``CheatDetected`` naming the author when ``entry`` is signed by it for a place of the
    transcript that already holds a different entry of its; ``RemoteProtocolError`` when it is
    not validly signed; nothing when the place is free or holds this very entry."""
    held = table.transcript.entries
    if not 0 <= entry.seq < len(held) or held[entry.seq].body == entry.body:
        return
    author = entry.author
    key = table.author_key(author)
    if key is None or not entry.signed_by(key):
        raise RemoteProtocolError(f"entry {entry.seq}: bad signature for its author", E_BAD_SIGNATURE)
    if held[entry.seq].author == author:
        raise CheatDetected(author, entry.seq, "signed two different entries for one place in "
                            "the transcript")


#: notification -> the PeerSession method that handles it
_PEER_NOTES: dict[str, str] = {
    "challenge": "_on_challenge",
    "lobby": "_on_lobby",
    "entry": "_on_entry",
    "error": "_on_error",
    "bye": "_on_bye",
    "presence": "_on_presence",
    "said": "_on_said",
    "rematch": "_on_early_rematch",
}
