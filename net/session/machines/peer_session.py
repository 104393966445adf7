"""A seat's session: a sans-IO state machine that answers the host's challenge, follows the
transcript on its own table and writes the seat's entries.

``net.session.machines.conversation`` gives the conversation step by step. It takes bytes from
the host (``receive_data``) and gives bytes for it (``data_to_send``); it touches no socket and
no clock it was not given (``net.session.runners.peer`` drives it over asyncio,
``net.session.runners.link`` in process). What it keeps is its journal's
(``net.session.records.journal``), given to it. A watcher's session is one of these in watch mode
(``net.session.machines.watch_session``).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any

from engine.core import GameAction, GameState
from net.session.features.chat import ChatPeer, text_problem
from net.session.features.presence import NoteBook, Presence, notes, read_presence
from net.session.features.rematch import PEER_GRACE, REMATCH_WAIT, Expected, PeerRematch
from net.session.machines.agreement import Agreement
from net.session.machines.conversation import (
    HOST_TAG,
    RETRY,
    SUPPLY_CHUNK,
    VERSION,
    hello_signature,
    printable,
    typed,
)
from net.session.machines.echo import PeerAgreement
from net.session.machines.entries import Phase
from net.session.machines.peer_states import PEER_NOTES
from net.session.machines.peer_states import PEER_TRANSITIONS as PEER_TRANSITIONS
from net.session.machines.peer_states import PeerEvent as PeerEvent
from net.session.machines.peer_states import PeerState as PeerState
from net.session.machines.peer_states import Step as Step
from net.session.machines.relay import PeerRelay
from net.session.machines.table import Table
from net.session.records.journal import Journal
from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_UNKNOWN_METHOD,
    E_WRONG_PHASE,
    HOST,
    CheatDetected,
    Fault,
    LocalProtocolError,
    RemoteProtocolError,
)
from net.wire.identity import (
    PUBLIC_KEY_SIZE,
    Identity,
    InvalidKey,
    check_public_key,
    fingerprint,
    verify,
)
from net.wire.rpc import Codec, Event, Fields, Notification, Request, Response, Value
from net.wire.transcript import NONCE_SIZE, Entry

log = logging.getLogger("palazzo.net")


class PeerSession(PeerAgreement, PeerRelay):
    """A seat's side: answers the challenge, follows the transcript, writes its entries.

    ``receive_data`` takes bytes from the host; ``data_to_send`` gives bytes for it. When
    ``decision_due()`` the caller (a bot, or the table screen) calls ``act(action)``.
    A subclass with ``WATCH`` set follows the game as a watcher (``net.session.machines.watch_session``).
    """

    #: a watcher's session: its hello says ``watch``, its table is an observer's
    WATCH = False

    def __init__(self, identity: Identity, name: str, code: str | None = None,
                 auto_ready: bool = True, clock: Callable[[], float] = time.monotonic,
                 journal: Journal | None = None, host_fingerprint: str | None = None) -> None:
        self.identity = identity
        #: the fingerprint the host was chosen by (a LAN advertisement, ``net.session.commands.discovery``):
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
        self.state = PeerState.CONNECTING
        self.seat: int | None = None
        self.lobby: dict[str, Any] = {}
        self.error: Exception | None = None
        self.events: list[PeerEvent] = []
        self._out = bytearray()
        self._calls: dict[int, str] = {}
        self._pending: int | None = None
        self._posted: Entry | None = None  # the entry just posted, to check ahead
        #: a runner that sends what this seat received is acknowledged before the seat's own
        #: work (its deck entries, its decisions): writing waits for ``write_due``
        self.acks_first = False
        self._write_wanted = False
        #: who acknowledged which heads (``net.session.machines.agreement``), and this seat's
        #: entry that waits for them before it is posted
        self.agreement = Agreement()
        self._gated: Entry | None = None
        self._init_agreement()
        self._init_relay()
        self._sync_to = 0
        self._bye = ""  # a bye the host sent before it answered this connection's hello
        #: when the latest entry reached this seat live (not in a rejoin's backlog), or None
        self._live_at: float | None = None
        self._logged = 0
        self.refusal = ""  # what the host said last when it closed a connection for room
        #: the last presence the host sent (``net.session.features.presence``; the host's word only)
        self.presence: Presence | None = None
        self.notes = NoteBook()  # the notes from the presences, for a table's log
        #: when this seat's program gives up on a host that does not answer (on ``clock``),
        #: ``None`` while the host answers (set by the runner: ``net.session.features.liveness``)
        self.host_gone: float | None = None
        self._bad_presence = False  # a malformed presence was refused already
        #: ``cannot save: <reason>`` while the host or this seat cannot write its record
        self.host_trouble = ""
        self.own_trouble = ""
        #: table talk (``net.session.features.chat``): events ``said``, ``refused`` and ``note``
        self.chat = ChatPeer(identity, lambda kind, data: self.events.append(PeerEvent(kind, data)),
                             lambda: len(self.table.steps) if self.table is not None else 0,
                             self.journal)
        self.rematch = PeerRematch()  # after the end (``net.session.features.rematch``)
        #: the start this seat's rematch must carry (``None``: not a rematch)
        self.expect: Expected | None = None
        #: the player left while the host had no connection of this seat's: ``leave`` is said
        #: as soon as the host answers a hello again (``net.session.runners.peer``)
        self.leaving = False

    # -- the sans-IO surface ------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        if self.failed or (self.state is PeerState.OVER and not self.rematch.waiting()):
            return
        try:
            for event in self.codec.receive_data(data):
                self._handle(event)
                if self.failed:
                    return
        except (Fault, CheatDetected) as e:  # a fault names nobody; a cheat, with its evidence
            self._fail(e)
        except RemoteProtocolError as e:
            self._fail(RemoteProtocolError(f"the host sent a malformed frame: {e}", e.code))
        except Exception as e:  # a fault of this program: stop cleanly and say so
            log.exception("peer: internal error")
            self._fail(LocalProtocolError(f"internal error: {e!r}"))

    @property
    def failed(self) -> bool:
        """Whether this session stopped for good (``error`` says why)."""
        return self.state is PeerState.FAILED

    def data_to_send(self) -> bytes:
        trouble = self.journal.trouble
        if trouble.changed:  # this seat's own disk: said on its screen, the game goes on
            trouble.changed = False
            self.own_trouble = trouble.text
            self.events.append(PeerEvent("note", trouble.text or "saving again"))
        if self._gated is not None and not self.failed:
            self._withheld()  # a host that withholds acknowledgements: a fault, after a while
        out, self._out = bytes(self._out), bytearray()
        return out

    def reconnect(self) -> None:
        """Start over on a new connection, keeping the game followed so far."""
        if Step.RECONNECTED not in PEER_TRANSITIONS[self.state]:
            return
        self.codec = Codec()
        self._bye = ""
        self._calls.clear()
        self._out = bytearray()  # whatever was not sent went with the old connection
        self._pending = None
        self._posted = None
        self._gated = None  # it goes out again from the journal (``held``)
        self._pending_in = None  # the host sends what is still pending again
        self.agreement.sent = 0  # acknowledged again once back: the host may have restarted
        self._go(Step.RECONNECTED)

    def connection_lost(self) -> None:
        if self.state is PeerState.CONNECTING and self._bye:  # the host quit meanwhile
            self._fail(RemoteProtocolError(f"the host ended the session: {self._bye}"))
            return
        if self.state is PeerState.OVER and self.rematch.waiting():
            self._rematch_lines(self.rematch.stop("the host closed the connection"))
        if Step.LOST in PEER_TRANSITIONS[self.state]:
            self._go(Step.LOST)
            self.events.append(PeerEvent("disconnected"))

    def decision_due(self) -> bool:
        return (self.state is PeerState.PLAYING and self._pending is None and self.table is not None
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
    def view(self) -> GameState | None:
        return None if self.table is None else self.table.view

    def act(self, action: GameAction, auto: bool = False) -> None:
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
        if self.state in (PeerState.LOBBY, PeerState.PLAYING):
            self._out += self.codec.send(Notification("status", ({"away": away},)))

    def leave(self) -> None:
        """Tell the host this seat leaves on purpose (then close the connection). A seat whose
        connection is down (or not yet answered) says it as soon as the host takes it in again
        (``leaving`` until then)."""
        if self.state in (PeerState.LOBBY, PeerState.PLAYING):
            self._out += self.codec.send(Notification("leave", ({},)))
            self.leaving = False
        elif self.seat is not None and self.state in (PeerState.CONNECTING,
                                                      PeerState.DISCONNECTED):
            self.leaving = True

    def say(self, text: str) -> None:
        """Say ``text`` at the table (sent when the one before it is answered);
        ``LocalProtocolError`` for a text that cannot be said."""
        why = text_problem(text)
        if why is not None:
            raise LocalProtocolError(why)
        if self.state in (PeerState.OVER, PeerState.FAILED):
            raise LocalProtocolError("the game is over")
        self.chat.queue.append(text)
        self._maybe_say()

    def _maybe_say(self) -> None:
        t = self.table
        if self.state not in (PeerState.LOBBY, PeerState.PLAYING) or t is None or self.seat is None \
                or not self._synced():
            return
        said = self.chat.next_say(self.seat, len(t.transcript), t)
        if said is not None:
            self._call("say", ({"body": said.body, "sig": said.sig},))

    def lingers(self) -> bool:
        """Whether the connection stays after the end: this seat waits for a rematch (for
        ``REMATCH_WAIT + PEER_GRACE`` seconds at most, on its own clock)."""
        if self.state is PeerState.OVER and self.rematch.waiting() \
                and self.clock() - self.rematch.since >= REMATCH_WAIT + PEER_GRACE:
            self._rematch_lines(self.rematch.stop(
                f"the host did not answer within {REMATCH_WAIT + PEER_GRACE:g} seconds"))
        return self.state is PeerState.OVER and self.rematch.waiting()

    def again(self) -> None:
        """Ask for a rematch (after the end; once)."""
        if self.state is not PeerState.OVER or self.rematch.asked or self.rematch.off:
            raise LocalProtocolError("a rematch is asked once, after the end")
        self.rematch.asked = self.rematch.wanted = True
        self._call("again", ({},))

    def _after_end(self, event: Event) -> None:
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
                f"the host refused it: {printable(event.error.message)}"))
        elif isinstance(event, Request) and event.method == "ping" and not event.params:
            self._out += self.codec.send(Response(event.msgid, None, None))

    def _rematch_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.events.append(PeerEvent("rematch", line))

    # -- handling -------------------------------------------------------------------------------

    def _handle(self, event: Event) -> None:
        if self.state is PeerState.OVER:
            self._after_end(event)
        elif isinstance(event, Notification):
            payload = event.params[0] if event.params and type(event.params[0]) is dict else {}
            name = PEER_NOTES.get(event.method)
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
            if method == "supply":  # a refusal stops the giving back, not the game
                if event.error is not None:
                    note = f"the host took only part of this seat's record: {printable(event.error.message)}"
                    self.events.append(PeerEvent("note", note))
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

    def _on_challenge(self, m: Fields) -> None:
        nonce = typed(m, "nonce", bytes, size=NONCE_SIZE)
        host = typed(m, "host", bytes, size=PUBLIC_KEY_SIZE)
        if m.get("version") != VERSION:
            raise RemoteProtocolError(
                f"the host speaks protocol version {printable(m.get('version'))}, this program "
                f"version {VERSION}: both must run the same version (update the older one)",
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
        if self.table.phase is Phase.LOBBY and not self.WATCH:
            self.journal.contribute(self._nonce)  # it may go into the game: journaled first
            self.chat.reset(self._nonce)
        self._call("hello", ({
            "name": self.name, "key": self.identity.public_key, "code": self.code,
            "sig": hello_signature(self.identity, nonce, host), "have": len(self.table.transcript),
            "nonce": self._nonce, "version": VERSION, **({"watch": True} if self.WATCH else {}),
        },))

    def _on_welcome(self, result: Value) -> None:
        if type(result) is not dict or type(seat := result.get("seat")) is not int:
            raise RemoteProtocolError("hello check: a malformed hello answer", E_BAD_PARAMS)
        assert self.table is not None
        proof = result.get("proof")
        if type(proof) is not bytes or not verify(self.table.host_key, HOST_TAG,
                                                  self._nonce + self.identity.public_key, proof):
            raise RemoteProtocolError("host key check: the host did not prove its key (its answer "
                                      "to this peer's challenge is not signed by the key it "
                                      "announced)", E_BAD_SIGNATURE)
        self.seat = seat
        if result.get("resume") and self.table.game_id and self.table.me >= 0:
            self.seat = self.table.me  # its own start says which (a host may have lost it)
        self._sync_to = length if type(length := result.get("length")) is int else 0
        held = self.table.transcript.entries
        if result.get("resume") and 0 <= self._sync_to < len(held):  # the host lost some
            self.events.append(PeerEvent("note", f"the host holds {self._sync_to} of this "
                                         f"seat's {len(held)} entries: giving it the rest"))
            for i in range(self._sync_to, len(held), SUPPLY_CHUNK):
                self._call("supply", ({"entries": [e.to_wire() for e in held[i:i + SUPPLY_CHUNK]]},))
        if result.get("resume"):
            self._go(Step.RESUMED)
            self._acknowledge()  # when it already holds every entry, nothing else would
        else:
            self._go(Step.SEATED)
            if self.auto_ready and not self.leaving:
                self.ready()
        if self.leaving:  # back only to say it leaves
            self.leave()
            return
        self._maybe_write()

    def _on_say_answer(self, event: Response) -> None:
        assert self.table is not None
        if event.error is not None:
            self.chat.refused(printable(event.error.message))
        else:
            me = self.name if not self.table.game_id else self.table.seats[self.table.me].name
            self.chat.accepted(self.table, me)
        self._maybe_say()

    def _on_said(self, m: Fields) -> None:
        if self.table is None:  # before the challenge: nobody to hear from
            raise RemoteProtocolError("a message before the challenge", E_WRONG_PHASE)
        self.chat.heard(m, self.table, self.lobby)
        self._keep_talk()
        self._maybe_say()

    def _on_lobby(self, m: Fields) -> None:
        self.lobby = m
        self.events.append(PeerEvent("lobby", m))

    def _on_entry(self, m: Fields) -> None:
        assert self.table is not None
        try:
            entry = Entry.parse(m.get("body"), m.get("sig"))
        except RemoteProtocolError as e:  # the host should have refused it
            n = len(self.table.transcript)
            raise self._bad_relay(n, m.get("body"), m.get("sig"), m.get("ack"),
                                  f"the host relayed a malformed entry {n}: {e}") from None
        if len(self.table.transcript) > entry.seq:  # already held: the same, or two histories
            self._entry_again(entry, m.get("ack"))
            return
        why = self.expect.refuses(entry) if self.expect is not None and entry.seq == 0 else None
        if why is not None:  # nothing signed promised the rematch: nobody is named
            raise Fault(f"rematch check: {why}: it is not the rematch this seat agreed to, and "
                        "this seat does not follow it", E_BAD_PARAMS)
        self._no_gap(entry)
        if "ack" not in m and entry.author != HOST:  # pending: applied once confirmed (``relay``)
            self._on_pending(entry)
            return
        self._take_entry(entry, m.get("ack"))

    def _take_entry(self, entry: Entry, ack: Value) -> None:
        assert self.table is not None
        try:
            self.table.accept(entry)
        except RemoteProtocolError as e:
            raise self._bad_relay(entry.seq, entry.body, entry.sig, ack,
                                  f"the host relayed a bad entry: {e}") from None
        except CheatDetected as c:  # signed by the one it names: kept as evidence
            if c.seat == entry.author and c.step == entry.seq:  # not an earlier entry's
                self._keep_refused(entry)
            raise
        self._agree_entry(entry, ack)
        if self._pending is not None and entry.seq >= self._pending:
            self._pending = None
        self._live_at = self.clock() if entry.seq >= self._sync_to else None
        self._go(Step.STARTED)  # the first entry: the game is under way
        t = self.table
        self.chat.entry(t, entry)
        self._keep_talk()
        for line in t.log[self._logged :]:
            self.events.append(PeerEvent("log", line))
        self._logged = len(t.log)
        if t.phase is Phase.OVER:
            self.record_final()
            self._go(Step.ENDED)
            self.rematch.since = self.clock()
            self.events.append(PeerEvent("over", t.result()))
            if self.rematch.auto:
                self.again()
            return
        self._maybe_write()
        self._maybe_say()

    def _on_error(self, m: Fields) -> None:
        message = printable(m.get("message"))
        if m.get("code") in RETRY:  # the host makes room or is busy: it closes, a retry may do
            self.refusal = f"the host says: {message}"
            return
        self._fail(RemoteProtocolError(f"the host says: {message}",
                                       code if type(code := m.get("code")) is int and code else 1))

    def _on_disk(self, m: Fields) -> None:
        """The host cannot write its record (``cannot save: <reason>``), or can again (``""``)."""
        text = printable(m.get("text")) if type(m.get("text")) is str else ""
        if text != self.host_trouble:
            self.host_trouble = text
            self.events.append(PeerEvent("note", f"the host {text}" if text
                                         else "the host saves its record again"))

    def _on_bye(self, m: Fields) -> None:
        if self.state is PeerState.CONNECTING:  # its hello not answered yet: an answer that
            self._bye = printable(m.get("reason"))  # follows wins (a reconnect at the end)
            return
        if self.state is not PeerState.OVER:
            self._fail(RemoteProtocolError(f"the host ended the session: {printable(m.get('reason'))}"))

    def _on_presence(self, m: Fields) -> None:
        t = self.table
        if t is None or not t.seats:
            return  # before the start entry: nothing to say it of
        try:
            p = read_presence(m, len(t.seats), self.clock(), self.presence,
                              len(t.transcript), self._live_at)
        except ValueError as e:  # the host's word, and a bad one: refused, the game goes on
            # said once; a host that sends more of them costs no more than a debug line each
            log.log(logging.DEBUG if self._bad_presence else logging.WARNING,
                    "the host sent a malformed presence, ignored: %s", e)
            self._bad_presence = True
            return
        old, self.presence = self.presence, p
        if p.hosts_clock and p.due == t.me and self.decision_due():
            self._turn_since = p.due_since  # one clock: the host's (``features.presence``)
        for line in notes(old, p, [s.name for s in t.seats], t.me):
            self.notes.add(line)
            self.events.append(PeerEvent("note", line))
        self.events.append(PeerEvent("presence", p))
    def _on_early_rematch(self, m: Fields) -> None:
        """A rematch is talked about only after the end: before it, the host's word is not
        followed (it changes nothing in the game under way)."""
        log.warning("ignoring a rematch message from the host before the end of the game")

    def _synced(self) -> bool:
        return self.table is not None and len(self.table.transcript) >= self._sync_to

    def write_due(self) -> None:
        """Write the seat's entry that is due, held back by ``acks_first`` until the runner had
        sent the acknowledgements of what it received (the others' disclosures wait on them)."""
        if self._write_wanted:
            self._write_wanted = False
            self._write()

    def _maybe_write(self) -> None:
        if self.acks_first:
            self._write_wanted = True
            return
        self._write()

    def _write(self) -> None:
        if self.state is not PeerState.PLAYING or self._pending is not None or not self._synced():
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
        if not self._hold(entry):  # what discloses waits for every other seat's acknowledgement
            self._send_post(entry)

    def _send_post(self, entry: Entry) -> None:
        self._posted = entry
        self._call("post", (entry.to_wire(),))

    def _event(self, kind: str, data: object) -> None:
        self.events.append(PeerEvent(kind, data))

    def check_ahead(self) -> None:
        """Check the entry just posted on this seat's own table while the host checks it (call
        it once the post's bytes are on their way: ``Table.check_ahead``); its relay is then
        only applied."""
        entry, self._posted = self._posted, None
        if entry is not None and self.table is not None and self.state is PeerState.PLAYING:
            self.table.check_ahead(entry)

    def _call(self, method: str, params: tuple[Value, ...]) -> None:
        msgid = self.codec.next_msgid()
        self._calls[msgid] = method
        self._out += self.codec.send(Request(msgid, method, params))

    def _go(self, step: Step) -> None:
        """Take ``step``: the state ``PEER_TRANSITIONS`` says follows (the same one if none)."""
        self.state = PEER_TRANSITIONS[self.state].get(step, self.state)

    def record_final(self) -> None:
        """The record is final (the end, or a detected cheat): finished, the secrets erased."""
        if self.table is not None and self.table.game_id:
            self.journal.finish(self.table.game_id)  # never to be followed again
            self.table.erase_game_secrets()  # forward secrecy (``Table.erase_game_secrets``)

    def _fail(self, error: Exception) -> None:
        if self.failed:  # the first reason stands (a cheat named with its evidence, say)
            return
        if self.state is PeerState.OVER:  # the game ended as it did: only the rematch is off
            self._rematch_lines(self.rematch.stop(str(error)))
            return
        if isinstance(error, CheatDetected) or (isinstance(error, Fault) and error.final):
            self.record_final()
        self._go(Step.FAILED)
        self.error = error
        self.events.append(PeerEvent("failed", error))
