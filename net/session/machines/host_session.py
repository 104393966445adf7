"""The host session: a sans-IO state machine for the lobby, the seats, the start and the
checked relay of every entry.

``net.session.machines.conversation`` gives the conversation it holds with its peers, step by
step; ``net.session.machines.host_door`` its connections and what they may cost. It takes bytes
and returns bytes (``Output``); it touches no socket, no clock it was not given, no file (its
record is kept through the ``on_entry`` and ``on_tick`` hooks, ``net.session.records.resume``).

The rule of its states: the game's phase is its observer table's (``Phase``, moved only by the
table's ``TRANSITIONS``, as each entry it writes or relays is accepted), each connection's state
is the door's (``ConnState``, moved only through ``CONN_TRANSITIONS``); this module changes
neither directly. What it adds is ``finished`` (the table reached ``over``: only the rematch is
talked about) and ``closed`` (the host quit: nothing more is read).

A hello with ``watch: true`` takes no seat: the connection watches (``net.session.features.watch``), gets
every broadcast a seat gets (``_broadcast``) and may ask nothing a seat alone may ask.

From the start the host also tells every seated connection who is here: ``presence``, and a
peer says ``status {away}`` and ``leave {}`` (notifications, for its own seat only); the seat due
that is gone for the grace period forfeits. ``net.session.features.presence`` holds those rules; here are
only the hooks (``_peer_note``, ``_send_presence``, ``_deadline``, ``PeerSession._on_presence``).

A host that cannot write its record says so to every seat and watcher: ``disk {text}``
(``cannot save: <reason>``, or ``""`` once it saves again; ``net.session.records.disk``); the
game goes on, and nobody is blamed.

A restarted host *gathers* its game from its seats: ``net.session.machines.host_gather``.

Its heartbeat (``_heartbeat``, ``net.session.features.liveness``) pings every connection over the
network each second and calls a seat it has not heard from "not responding" (``silent``). After
the end it waits a little (``end_pending``) for a seat that was away when the game ended, so that
its rejoin is sent the end; the final ``bye`` goes to seated connections and watchers only.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable

from engine.core import GameConfig
from net.session.features import limits, liveness, watch
from net.session.features.acks import AckBook, HostDeadlines, resumed_since
from net.session.features.chat import ChatHost
from net.session.features.code import CodeGuard
from net.session.features.limits import QuietLog, StrangerNews
from net.session.features.presence import DEFAULT_GRACE, HostPresence
from net.session.features.rematch import REMATCH_WAIT, HostRematch
from net.session.machines.conversation import (
    CLOSING,
    VERSION,
    Close,
    Output,
    check_equivocation,
    param_map,
)
from net.session.machines.entries import MAX_TIMEOUT, Phase
from net.session.machines.host_door import DEFERRED, Answer, Claim, Conn, ConnState, HostDoor, Seat
from net.session.machines.host_echo import HostAgreement
from net.session.machines.host_gather import GATHER_WAIT, HostGather
from net.session.machines.relay import HostRelay
from net.session.machines.table import Table
from net.wire.errors import (
    E_BAD_PARAMS,
    E_INTERNAL,
    E_NOT_YOUR_SEAT,
    E_UNKNOWN_METHOD,
    E_WRONG_PHASE,
    HOST,
    CheatDetected,
    LocalProtocolError,
    RemoteProtocolError,
)
from net.wire.identity import (
    Identity,
    fingerprint,
)
from net.wire.rpc import Codec, Event, Fields, Notification, Request, RpcError, Value
from net.wire.transcript import NONCE_SIZE, Entry, derive_game_id, genesis

log = logging.getLogger("palazzo.net")
#: seconds a host waits after the end for a seat that was away from it to be sent the end
END_WAIT = 20.0


class HostSession(HostGather, HostDoor, HostAgreement, HostRelay, HostDeadlines,
                  liveness.HostHeartbeat):
    """The host: lobby, seats, the start, and the checked relay of every entry."""

    def __init__(
        self,
        identity: Identity,
        game: str,
        config: GameConfig,
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
        #: who is here, and the grace period for a seat that went (``net.session.features.presence``)
        self.presence = HostPresence(clock, grace)
        self.hearing = liveness.Hearing(clock)  # the loop-lag rule of the heartbeat
        self.quiet_lobby: set[int] = set()  # seats not responding in the lobby
        self.acks = AckBook(clock)  # who acknowledged what (``net.session.features.acks``)
        self.table = Table(identity.public_key, None)
        self.chat = ChatHost(self.table, clock)  # table talk (``net.session.features.chat``)
        self.seats: list[Seat] = []
        self.conns: dict[int, Conn] = {}  # in the order they connected
        self.guard = CodeGuard(clock)
        self.quiet = QuietLog(clock)
        self.stranger_news = StrangerNews(clock)  # refused strangers: one line a minute
        self.admissions = watch.Admissions(clock)  # watch hellos per address
        self._lobby_changed = False
        self._claims: dict[int, Claim] = {}  # holder's connection -> the hello claiming its seat
        self._claimed: dict[bytes, float] = {}  # key -> when a claim on its seat last began
        self._out: list[Output] = []
        self._due: tuple[int | None, int] = (None, -1)
        self._due_since = clock()
        self.finished = False
        self.finished_at = 0.0
        #: the seats whose connection was sent the end (``end_pending``)
        self.ended_for: set[int] = set()
        self.closed = ""  # why the host closed the game before its end (``close_game``)
        self.rematch = HostRematch(clock)  # the answers after the end (``net.session.features.rematch``)
        self.reserved = False  # the seats are kept for given keys (``reserve``)
        #: called with every entry the session accepts, before it goes to any peer (the
        #: host's record: ``net.session.records.resume``)
        self.on_entry: Callable[[Entry], None] | None = None
        #: called with a seat's entry before the observer table checks it; what it returns
        #: (if not ``None``) is called if the table refuses the entry (the host's record
        #: writes it meanwhile, ``net.session.records.resume``; ``on_entry`` still comes before relay)
        self.on_check: Callable[[Entry], Callable[[], None] | None] | None = None
        #: called at every ``tick`` (the host's record writes what a failed write left)
        self.on_tick: Callable[[], None] | None = None
        #: ``cannot save: <reason>`` while the host's record cannot be written, else ``""``
        self.trouble = ""
        #: a restarted host gathers until then (``restore``); the seats that said hello since
        self._gather_until = -math.inf
        self._back: set[int] = set()
        self._owed: dict[int, int] = {}  # seat -> the length it said it holds, not given yet
        self._held: list[tuple[int, Request]] = []  # posts that wait for the gathering to end
        self._tails: dict[int, list[Entry]] = {}  # a seat's own entries at the end of a supply
        self._turns: list[tuple[int, int, Request]] = []  # hellos waiting for a code check
        self._init_agreement()  # the echo's (``net.session.machines.host_echo``)
        self._init_relay()  # the relay at once's (``net.session.machines.relay``)

    # -- the sans-IO surface ------------------------------------------------------------------

    def connect(self, conn: int, address: str = "") -> list[Output]:
        """A new connection from ``address`` (``net.session.features.code.address_key``; ``""`` for an
        in-process seat). It always gets in: at a limit, the oldest stranger makes room."""
        if self.closed:
            self.conns[conn] = Conn(Codec(), b"", address, self.clock(),
                                   state=ConnState.CLOSED)
            return [Close(conn, self.closed)]
        self._make_room(address)
        now = self.clock()
        c = Conn(Codec(), os.urandom(NONCE_SIZE), address, now, heard=now, beat=now)
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
        if data:
            self._heard(c)  # a sign of life (``net.session.features.liveness``)
        try:  # frames are parsed one by one: those after a close are never looked at
            for event in c.codec.iter_events(data):
                if c.closed or c.muted:
                    break
                # an acknowledgement is bounded by the entries instead (one per new head)
                if not (isinstance(event, Notification) and event.method == "ack"
                        and c.seat is not None) and not self._within_budget(conn, c):
                    break
                if self._gathering() and isinstance(event, Request) and event.method == "post":
                    self._held.append((conn, event))  # answered once the seats are back
                    continue
                self._handle(conn, event)
        except RemoteProtocolError as e:
            self._warn(conn, str(e))
            self._notify(conn, "error", {"code": e.code, "message": str(e)})
            self._close(conn, str(e))
        self._serve_turns()
        self._send_presence()
        return self.take_output()

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
            if self.table.phase is Phase.LOBBY and self.reserved:  # kept for its key
                self.seats[c.seat].conn, self.seats[c.seat].ready = None, False
            elif self.table.phase is Phase.LOBBY:  # before the start a seat is simply given up
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
        self._settle_pending()
        self._expire_strangers()
        self._serve_turns()
        if self.on_tick is not None:
            self.on_tick()
        self._release()
        news = self.stranger_news.summary()
        if news:
            log.warning("%s", news)
        if self.rematch.expire():
            self._rematch_news()
        why = self.rematch.unstarted(self.table.phase is Phase.LOBBY, [
            s.name for s in self.seats if s.conn is None or not s.ready])
        if why and not self.closed:
            return self.close_game(why)
        now = self.clock()
        for old, k in list(self._claims.items()):
            if now >= k.deadline:
                self._settle(old, alive=False)
        if self.finished:
            return self.take_output()
        self._heartbeat(now)
        self._track_due()
        deadline = self._deadline()
        if deadline is not None and now >= deadline[0] and not self._gathering() \
                and self.pending is None:
            self._write({"kind": "forfeit", "seat": deadline[2], "reason": deadline[1]})
        self._send_presence()
        return self.take_output()

    def _send_presence(self) -> None:
        """Tell every seated connection and every watcher who is here, when something changed
        (throttled)."""
        if self.finished or self.closed or not self.presence.started:
            return
        self.presence.watchers = self.watchers()
        deadline, start, acks = self._presence_now()  # ``net.session.features.acks``
        who = self._due[0] if self.table.phase is not Phase.OVER else None
        m = self.presence.take(who, deadline, start, self._due[1], acks)
        if m is not None:
            self._broadcast("presence", m)

    def disk_trouble(self, text: str) -> None:
        """The host's record cannot be written (``text``: ``cannot save: <reason>``), or can
        again (``""``): every seat and watcher is told; the game goes on."""
        self.trouble = text
        self._broadcast("disk", {"text": text})

    def end_pending(self) -> bool:
        """Whether the host still waits, after the end, for a seat that was not connected when
        the game ended (reconnecting, silent, or its hello still waiting on a claim) to come
        back and be sent the end, ``END_WAIT`` seconds at most; a seat that left is not
        waited for."""
        if not self.finished or self.clock() - self.finished_at >= END_WAIT:
            return False
        if self._claims:
            return True
        return any(i not in self.ended_for and self.presence.started
                   and self.presence.state(i) != "left" for i in range(len(self.seats)))

    def close_game(self, reason: str = "the host closed the game") -> list[Output]:
        """The host quits: every connection is told ``bye {reason}`` and closed; nothing more
        is read. The record kept so far stays as it is (a resumable game, ``net.session.records.resume``)."""
        self.closed = reason
        for conn, c in list(self.conns.items()):
            if not c.closed:
                self._notify(conn, "bye", {"reason": reason})
                self._close(conn, reason)
        return self.take_output()

    # -- handling -------------------------------------------------------------------------------

    def _handle(self, conn: int, event: Event) -> None:
        if isinstance(event, Request):
            name = _METHODS.get(event.method)
            try:
                if name is None:
                    raise RemoteProtocolError(f"unknown method {event.method!r}", E_UNKNOWN_METHOD)
                method: Callable[[int, Request], Answer] = getattr(self, name)
                result = method(conn, event)
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
            if result is DEFERRED:  # answered when the seat's holder has been asked
                return
            self._respond(conn, event.msgid, result)
            self._after(conn, event.method)
        elif isinstance(event, Notification) and event.method in ("status", "leave"):
            self._peer_note(conn, event)
        elif isinstance(event, Notification) and event.method in ("ack", "evidence"):
            self._agreement_note(conn, event)
        elif isinstance(event, Notification):
            msg = f"unknown notification {event.method!r} (peers send requests only)"
            self._warn(conn, msg)
            self._notify(conn, "error", {"code": E_UNKNOWN_METHOD, "message": msg})
        else:
            self._answer(conn, event)

    def _peer_note(self, conn: int, event: Notification) -> None:
        """``status {away}`` or ``leave {}`` from a seated connection, for its own seat only
        (``net.session.features.presence``); never answered, a malformed one only logged."""
        seat = self.conns[conn].seat
        m = event.params[0] if len(event.params) == 1 and type(event.params[0]) is dict else None
        if seat is None or m is None:
            self._warn(conn, f"{event.method}: ignored (no seat, or not one map of fields)")
            return
        if event.method == "leave":
            log.info("seat %s (%s) leaves", seat, self.seats[seat].name)
            self.presence.leave(seat)
            self._close(conn, "it left")
        elif type(away := m.get("away")) is not bool:
            self._warn(conn, "status: ignored ('away' must be true or false)")
        elif not self.presence.status(seat, away):
            self._warn(conn, "status: ignored (more changes than the status budget allows)")

    def _ready(self, conn: int, req: Request) -> Answer:
        seat = self._seat_of(conn, "say it is ready")
        self._lobby_changed = not self.seats[seat].ready  # a second ready tells nobody
        self.seats[seat].ready = True
        return None

    def _post(self, conn: int, req: Request) -> Answer:
        seat = self._seat_of(conn, "post an entry")
        m = param_map(req)
        entry = Entry.parse(m.get("body"), m.get("sig"))
        if entry.author != seat:
            raise RemoteProtocolError(f"you hold seat {seat}, not {entry.author}", E_NOT_YOUR_SEAT)
        if self.table.phase is Phase.LOBBY:
            raise RemoteProtocolError("the game has not started", E_WRONG_PHASE)
        if self._wait_post(conn, req):  # after the entry pending now (``net.session.machines.relay``)
            return DEFERRED
        check_equivocation(self.table, entry)
        held = self.table.transcript.entries
        if entry.seq < len(held) and held[entry.seq].body == entry.body:
            return {"seq": entry.seq}  # already in (another seat gave it back): nothing new
        if self.relay_at_once:
            try:
                self.table.check_frame(entry)
            except CheatDetected as e:
                self._name_refused(conn, entry, e)
                raise
            self._relay_pending(conn, req, entry)
            return DEFERRED
        undo = self.on_check(entry) if self.on_check is not None else None
        try:
            self.table.accept(entry)
        except CheatDetected as e:
            if undo is not None:
                undo()
            self._name_refused(conn, entry, e)
            raise
        except BaseException:
            if undo is not None:
                undo()
            raise
        self._relay(entry)
        return {"seq": entry.seq}

    def _say(self, conn: int, req: Request) -> Answer:
        """Table talk (``net.session.features.chat``): check the message, relay it to the other seats."""
        seat = self._seat_of(conn)
        if not 0 <= seat < len(self.seats):  # a watcher (seat -1) has no voice
            raise RemoteProtocolError("only a seated player may talk at the table",
                                      E_NOT_YOUR_SEAT)
        if self.finished:
            raise RemoteProtocolError("the game is over", E_WRONG_PHASE)
        s = self.seats[seat]
        said = self.chat.say(seat, s.key, s.nonce, param_map(req))
        log.info("%s says: %s", s.name, said.text)
        self._broadcast("said", said.to_wire(), but=conn)  # the seats and the watchers
        return {"n": said.n}

    def _after(self, conn: int, method: str) -> None:
        if method == "hello":
            c = self.conns[conn]
            if c.seat is not None and c.resume_from > len(self.table.transcript):
                self._owed[c.seat] = c.resume_from  # back once it gave back what it holds
            elif c.seat is not None:
                self._back.add(c.seat)
            if self.trouble:
                self._notify(conn, "disk", {"text": self.trouble})
            if c.watcher is None:  # seated: entries may be large (a watcher sends none)
                c.codec.receive_limit = c.codec.frame_limit
            for entry in self.table.transcript.entries[c.resume_from :]:
                self._notify(conn, "entry", self._wire(entry))
            self._pending_to(conn)
            self._resend_acks(conn)
            self._broadcast_lobby()
            for said in self.chat.backlog({s.key: s.nonce for s in self.seats}):
                self._notify(conn, "said", said.to_wire())  # after the lobby: it names them
        elif method == "ready" and self._lobby_changed:
            self._broadcast_lobby()
            self._maybe_start()
        elif method == "again":
            self._rematch_news()
        self._release()

    def _again(self, conn: int, req: Request) -> Answer:
        seat = self._seat_of(conn)
        if param_map(req):  # the seat is the connection's: nobody asks for another
            raise RemoteProtocolError("again takes an empty map", E_BAD_PARAMS)
        self.rematch.ask(seat)
        return None

    def _rematch_news(self) -> None:
        """Tell every seat and every watcher the rematch's answers; when all agreed, close
        every connection: the rematch is a new game (``net.session.features.rematch``), which a
        watcher may follow."""
        m = self.rematch.message()
        names = [s.name for s in self.seats]
        log.info("rematch: %s of %s agreed%s%s", len(self.rematch.agreed), len(names),
                 "".join(f"; {names[i]} declined" for i in sorted(self.rematch.declined)),
                 "; it starts" if self.rematch.go else
                 f" (the host waits {REMATCH_WAIT:g} seconds)" if self.rematch.waiting else "")
        for conn, c in list(self.conns.items()):
            if (c.seat is not None or c.watcher is not None) and not c.closed:
                self._notify(conn, "rematch", m)
            if self.rematch.go:  # strangers too: this session will read nothing more
                self._close(conn, "the rematch starts: join it again")

    def reserve(self, seats: list[tuple[str, bytes]]) -> None:
        """Keep the seats for these names and keys, in order (a rematch): no other key is
        seated, and a seat left in the lobby stays its key's."""
        self.seats = [Seat(name, key, None, b"") for name, key in seats]
        self.reserved = True
        self.rematch.lobby_since = self.clock()

    # -- the game -----------------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.table.phase is not Phase.LOBBY or len(self.seats) < self.players:
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

    def _write(self, fields: Fields, game_id: bytes | None = None) -> None:
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
        self.acks.head(entry.seq + 1)
        self.acks.ack(entry.author, entry.seq + 1)  # its entry signs the head after it
        self._send_entry(entry)  # or its confirmation (``net.session.machines.relay``)
        self._track_due()
        if self.table.phase is Phase.OVER and not self.finished:
            self.finished = True
            self.finished_at = self.clock()
            log.info("the game is over: %s", self.table.result().get("text"))
            for conn, c in list(self.conns.items()):  # a hello not yet answered gets the end
                if not c.closed and (c.seat is not None or c.watcher is not None):
                    self._notify(conn, "bye", {"reason": "the game is over"})
                    if c.seat is not None and self.presence.state(c.seat) != "silent":
                        self.ended_for.add(c.seat)  # a silent seat may never read it
            if self.rematch.begin([s.key for s in self.seats],
                                  [s.conn is not None for s in self.seats]):
                self._rematch_news()

    def _track_due(self) -> None:
        due = (self.table.writer(), len(self.table.transcript))
        if due != self._due:
            self._due, self._due_since = due, self.clock()

    def restore(self, entries: list[Entry], written: float | None = None) -> None:
        """Go on with a game from its saved entries (a restarted host): each is checked again
        by the observer table; the start's seats are seated, away until their keys say hello;
        the turn clock runs from ``written`` (the wall-clock time its last entry was saved:
        ``net.session.features.acks.resumed_since``), or from now."""
        if self.table.transcript.entries:
            raise LocalProtocolError("only a fresh host session takes a saved game")
        self.acks.restored()
        for entry in entries:
            self.table.accept(entry)
            self.acks.ack(entry.author, entry.seq + 1)
        self.seats = [Seat(s.name, s.key, None, s.nonce, ready=True) for s in self.table.seats]
        self.presence.begin([False] * len(self.seats))
        self._track_due()
        if written is not None:  # one clock across restarts
            self._due_since = resumed_since(self.clock(), self.wall(), written, self._limit())
        self.acks.restored_at = len(entries)
        self.finished = self.table.phase is Phase.OVER
        self._gather_until = self.clock() + GATHER_WAIT

    # -- what everyone hears ----------------------------------------------------------

    def lobby(self) -> Fields:
        watching: list[Value] = list(self.watchers())
        return {
            "game": self.game, "players": self.players,
            "seats": [{"seat": i, "name": s.name, "fp": fingerprint(s.key), "key": s.key,
                       "ready": s.ready, "online": s.conn is not None,
                       **({"silent": True} if s.conn in self.quiet_lobby else {})}
                      for i, s in enumerate(self.seats)],
            **({"watchers": watching} if watching else {}),
            "table": self.table_settings(),
        }

    def table_settings(self) -> Fields:
        """The settings the table is played with, as the lobby shows them before the start
        (the start entry then binds them): the turn limit and grace in whole seconds (0:
        none), what follows a turn let pass, whether hints are allowed, and the options."""
        grace = self.presence.grace
        return {"timeout": math.ceil(self.turn_timeout or 0), "on_timeout": self.on_timeout,
                "grace": math.ceil(grace) if grace is not None else 0,
                "hints": bool(self.allow_hints), "config": self.config.to_data()}

    def _broadcast_lobby(self) -> None:
        self._broadcast("lobby", self.lobby())


#: request -> the HostSession method that answers it
_METHODS: dict[str, str] = {"hello": "_hello", "ready": "_ready", "post": "_post",
                            "say": "_say", "again": "_again", "supply": "_supply"}
