"""Table talk: messages signed by their authors, relayed live by the host, carried in the record.

Rules (``docs/protocol.md`` section "Table talk" gives the bytes):

* A seat says a message with the request ``say {body, sig}``. ``body`` is the canonical msgpack
  map ``{ctx, seat, n, after, text}``: ``ctx`` the seat's own contribution nonce (the one of its
  hello, named by the start; so a message belongs to one game, lobby messages included), ``seat``
  its seat, ``n`` from 1 per seat and ``ctx``, greater than every ``n`` the seat signed before
  (a refused message keeps its number: the next one takes a new one, so a seat never signs two
  messages for one ``n``, and a host that keeps a refused message cannot show it beside another
  of the same number), ``after`` the length of the transcript
  when it was said, ``text`` 1 to ``TEXT_LIMIT`` printable characters, not all spaces. ``sig``
  is the seat's Ed25519 signature over ``SAY_TAG + body``.
* The host (``ChatHost``) checks, in this order: a seated connection (a stranger is told to say
  hello first, a watcher ``E_NOT_YOUR_SEAT``), the body's shape, the seat and ``ctx`` its own,
  the signature, ``n`` above the seat's last accepted one, ``after`` not past the host's transcript nor before the
  seat's previous message, the text, and the rate: at most ``BURST`` messages in
  ``BURST_SECONDS`` seconds and ``PER_MINUTE`` in 60 seconds per seat (a refusal, ``E_BUSY``,
  "slow down: ..."; refused messages do not count). Each refusal is an error answer to that
  request only: the game goes on. An accepted message is relayed as
  the notification ``said {seat, body, sig}`` to every other seated peer, and, to a peer that
  says hello, every message not yet recorded (so a peer back from a drop, or a program
  restarted, hears what it missed and learns its own next ``n``).
* The record: a seat's next entry of its own (``seed-commit``, ``seed-open``, ``deck``, ``act``,
  ``end``) carries ``said: [{n, after, text}, ...]``, the messages the host accepted from it
  since its previous entry, in order (never an empty list: an entry without messages has no
  ``said`` field, so a game without talk keeps its bytes). Every reader checks them
  (``check_record``): ``n`` rising from the seat's last recorded one, ``after`` not past
  the entry's ``seq`` and never going back, the text rules (an entry that breaks one is refused,
  naming its author). Against the live messages it saw (``Table.live``, ``conflicts``): a record
  that differs from a live message of the same ``n`` is a **conflict in talk**. It never refuses
  the entry (readers that saw different live messages must accept the same entries) and never
  stops a game: the reader notes it, with both signed forms as evidence against their one
  author (an honest seat never signs two messages for one ``n``).
* A peer (``ChatPeer``) checks every live message before it shows one: the author's key (from
  the start, or the lobby before it), the signature, the seat's ``ctx`` once the start names it,
  and the order: one seen already is not shown again, one older than the latest seen and not
  seen (reordered by the host) is not shown and noted, a gap (messages refused, withheld or
  missed) is noted, and two signed messages of one ``n`` are a conflict in talk, noted with both
  as evidence (the game goes on). A seat keeps the last ``n`` it signed in its journal before it
  sends the message, so a program that restarts never signs that number again. A message recorded that this peer never saw live is shown when its entry arrives,
  marked as such.

What the record proves: every message in it was said by its author, at its place; nobody can
deny or forge one. What it cannot: that the host relayed a message at once, or to everyone
(the host may delay or withhold a live message; the record shows it at its author's next entry),
and a message said after its author's last entry of the game is in no record.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from typing_extensions import Required

from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_BUSY,
    E_NOT_YOUR_SEAT,
    E_OUT_OF_ORDER,
    CheatDetected,
    RemoteProtocolError,
)
from net.wire.identity import SIGNATURE_SIZE, Identity, verify
from net.wire.rpc import Fields, Value
from net.wire.transcript import NONCE_SIZE, pack, unpack

if TYPE_CHECKING:
    # the table imports this module: its type only, for the annotations
    from net.session.machines.table import Table
    from net.session.records.journal import Journal
    from net.wire.transcript import Entry

SAY_TAG = b"palazzo/say/v1\x00"
TEXT_LIMIT = 200
BODY_LIMIT = 1024  # bytes of a say body: 200 characters of 4 bytes and the rest
BURST, BURST_SECONDS = 5, 10.0
PER_MINUTE = 30
SLOW_DOWN = (f"slow down: at most {BURST} messages in {BURST_SECONDS:g} seconds and "
             f"{PER_MINUTE} a minute")
RECORD_FIELDS = ("n", "after", "text")
BODY_FIELDS = {"ctx": bytes, "seat": int, "n": int, "after": int, "text": str}
_F = TypeVar("_F", bytes, int, str)


def text_problem(text: object) -> str | None:
    """Why ``text`` cannot be said (``None`` when it can)."""
    if type(text) is not str:
        return "a message's text is a string"
    if not 1 <= len(text) <= TEXT_LIMIT:
        return f"a message is 1 to {TEXT_LIMIT} characters"
    if not text.isprintable() or not text.strip():
        return "a message is printable characters, not only spaces"
    return None


class TalkConflict(TypedDict, total=False):
    """A conflict in talk a reader noted: the author's seat and message number, the form it saw
    live (``body``, ``sig``; absent when it was not kept), and the other form: live too
    (``body2``, ``sig2``) or in the entry at ``entry``."""

    seat: Required[int]
    n: Required[int]
    entry: int
    body: bytes
    sig: bytes
    body2: bytes
    sig2: bytes


@dataclass(frozen=True)
class Said:
    """One message, as its author signed it."""

    seat: int
    ctx: bytes
    n: int
    after: int
    text: str
    body: bytes
    sig: bytes

    def record(self) -> Fields:
        """The message as its author's next entry carries it."""
        return {"n": self.n, "after": self.after, "text": self.text}

    def to_wire(self) -> Fields:
        return {"seat": self.seat, "body": self.body, "sig": self.sig}


def make_say(identity: Identity, ctx: bytes, seat: int, n: int, after: int, text: str) -> Said:
    body = pack({"ctx": ctx, "seat": seat, "n": n, "after": after, "text": text})
    return Said(seat, ctx, n, after, text, body, identity.sign(SAY_TAG, body))


def read_say(body: object, sig: object) -> Said:
    """A say body's fields, checked for shape (not the signature: ``signed_by``);
    ``RemoteProtocolError`` naming the check."""
    if type(body) is not bytes or type(sig) is not bytes or len(sig) != SIGNATURE_SIZE:
        raise RemoteProtocolError("a message is {body: bytes, sig: 64 bytes}", E_BAD_PARAMS)
    if len(body) > BODY_LIMIT:
        raise RemoteProtocolError(f"a message body is at most {BODY_LIMIT} bytes", E_BAD_PARAMS)
    try:
        m = unpack(body)
        canonical = pack(m) == body
    except Exception:
        raise RemoteProtocolError("a message body is not msgpack", E_BAD_PARAMS) from None
    if type(m) is not dict or set(m) != set(BODY_FIELDS):
        raise RemoteProtocolError("a message body is {ctx, seat, n, after, text}", E_BAD_PARAMS)
    if not canonical:
        raise RemoteProtocolError("a message body is not in its shortest encoding", E_BAD_PARAMS)
    fields: dict[str, object] = m
    ctx, seat = _body_field(fields, "ctx", bytes), _body_field(fields, "seat", int)
    n, after = _body_field(fields, "n", int), _body_field(fields, "after", int)
    text = _body_field(fields, "text", str)  # in the order of ``BODY_FIELDS``
    if len(ctx) != NONCE_SIZE or n < 1 or after < 0 or seat < 0:
        raise RemoteProtocolError("a message's ctx is 32 bytes, n from 1, after from 0",
                                  E_BAD_PARAMS)
    why = text_problem(text)
    if why is not None:
        raise RemoteProtocolError(why, E_BAD_PARAMS)
    return Said(seat, ctx, n, after, text, body, sig)


def _body_field(m: dict[str, object], name: str, t: type[_F]) -> _F:
    """Field ``name`` of a say body, of exactly type ``t`` (``BODY_FIELDS``)."""
    v = m[name]
    if type(v) is not t or not isinstance(v, t):
        raise RemoteProtocolError(f"a message's {name!r} must be {t.__name__}", E_BAD_PARAMS)
    return v


def signed_by(said: Said, key: bytes) -> bool:
    return verify(key, SAY_TAG, said.body, said.sig)


def check_record(said: Value, author: int, seq: int, last_n: int,
                 last_after: int) -> list[tuple[int, int, str]]:
    """The ``said`` field of entry ``seq`` by seat ``author``, checked (module rules), as
    (n, after, text); ``CheatDetected`` naming the author. ``last_n``, ``last_after``: its last
    recorded message. What the reader saw live is not looked at here (``conflicts``)."""
    def bad(why: str) -> CheatDetected:
        return CheatDetected(author, seq, f"table talk: {why}", E_BAD_PARAMS)

    if type(said) is not list or not said:
        raise bad("field 'said' is a non-empty list")
    out = []
    for m in said:
        if type(m) is not dict or set(m) != set(RECORD_FIELDS):
            raise bad("a recorded message is {n, after, text}")
        n, after, text = m["n"], m["after"], m["text"]
        if type(n) is not int or n <= last_n:
            raise bad(f"message {n!r} out of order: it comes after message {last_n}")
        if type(after) is not int or not last_after <= after <= seq:
            raise bad(f"message {n}: 'after' is {after!r}, not from {last_after} to {seq}")
        why = text_problem(text)
        if why is not None:
            raise bad(f"message {n}: {why}")
        assert type(text) is str  # ``text_problem`` passed it
        out.append((n, after, text))
        last_n, last_after = n, after
    return out


def conflicts(recorded: list[tuple[int, int, str]], live: dict[int, tuple[int, str]]
              ) -> list[tuple[int, tuple[int, str], tuple[int, str]]]:
    """The recorded messages that differ from the live message of the same ``n`` this reader
    saw, as (n, live (after, text), recorded (after, text)): conflicts in talk, never a refusal
    (module rules)."""
    out = []
    for n, after, text in recorded:
        seen = live.get(n)
        if seen is not None and seen != (after, text):
            out.append((n, seen, (after, text)))
    return out


def conflict_note(name: str, n: int, first: str, second: str, where: str) -> str:
    """The line a reader shows for a conflict in talk: both forms carry the author's signature
    (kept as evidence), and the game goes on."""
    return (f"table talk: {name} signed two messages {n}, {first!r} and {second!r} ({where}); "
            "both signatures are kept as evidence, and the game goes on")


class Window:
    """At most ``BURST`` events in ``BURST_SECONDS`` and ``PER_MINUTE`` in 60 seconds, exactly
    (a token bucket would let twice the burst through in its window)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.times: deque[float] = deque()

    def allows(self) -> bool:
        now = self.clock()
        while self.times and now - self.times[0] >= 60.0:
            self.times.popleft()
        recent = sum(1 for t in self.times if now - t < BURST_SECONDS)
        return recent < BURST and len(self.times) < PER_MINUTE

    def count(self) -> None:
        self.times.append(self.clock())


@dataclass
class _SeatTalk:
    ctx: bytes
    last_n: int = 0
    last_after: int = 0
    unrecorded: dict[int, Said] | None = None
    window: Window | None = None


class ChatHost:
    """The host's side: checks each ``say`` and keeps the messages not yet recorded.

    ``table`` is the host's observer table; it also learns every relayed message
    (``Table.live``) to check the record against."""

    def __init__(self, table: Table, clock: Callable[[], float]) -> None:
        self.table = table
        self.clock = clock
        self._talk: dict[bytes, _SeatTalk] = {}  # by the seat's key

    def _state(self, key: bytes, ctx: bytes) -> _SeatTalk:
        s = self._talk.get(key)
        if s is None or s.ctx != ctx:  # a new contribution (a new hello in the lobby)
            last_n, last_after = 0, 0
            t = self.table
            if t.game_id and key in [x.key for x in t.seats]:
                seat = [x.key for x in t.seats].index(key)
                last_n, last_after = t.said_last.get(seat, (0, 0))
            s = _SeatTalk(ctx, last_n, last_after, {}, Window(self.clock))
            self._talk[key] = s
        return s

    def say(self, seat: int | None, key: bytes, ctx: bytes, params: Value) -> Said:
        """Check one ``say`` from the connection holding ``seat`` (``key``, contribution
        ``ctx``); the message to relay, or ``RemoteProtocolError`` naming the check."""
        if seat is None or seat < 0:
            raise RemoteProtocolError("only a seated player may talk at the table",
                                      E_NOT_YOUR_SEAT)
        if type(params) is not dict:
            raise RemoteProtocolError("say takes one map {body, sig}", E_BAD_PARAMS)
        said = read_say(params.get("body"), params.get("sig"))
        if said.seat != seat:
            raise RemoteProtocolError(f"you hold seat {seat}, not {said.seat}", E_NOT_YOUR_SEAT)
        if said.ctx != ctx:
            raise RemoteProtocolError("a message's ctx is the nonce that seated you",
                                      E_BAD_PARAMS)
        if not signed_by(said, key):
            raise RemoteProtocolError("signature check: the message is not signed by your key", E_BAD_SIGNATURE)
        s = self._state(key, ctx)
        if said.n <= s.last_n:
            raise RemoteProtocolError(f"message {said.n} out of order: it must come after "
                                      f"message {s.last_n}", E_OUT_OF_ORDER)
        length = len(self.table.transcript)
        if not s.last_after <= said.after <= length:
            raise RemoteProtocolError(f"'after' is {said.after}: not from {s.last_after} to "
                                      f"{length}", E_BAD_PARAMS)
        assert s.window is not None and s.unrecorded is not None
        if not s.window.allows():
            raise RemoteProtocolError(SLOW_DOWN, E_BUSY)
        s.window.count()
        s.last_n, s.last_after = said.n, said.after
        s.unrecorded[said.n] = said
        if self.table.game_id:
            self.table.live.setdefault(seat, {})[said.n] = (said.after, said.text)
        return said

    def entry(self, entry: Entry) -> None:
        """Every entry the host relays: the start makes the lobby's messages the game's; an
        entry's ``said`` makes them recorded."""
        if entry.kind == "start":
            self.started()
        said = entry.fields.get("said")
        if said and 0 <= entry.author < len(self.table.seats):
            last = self.table.said_last.get(entry.author, (0, 0))[0]
            self.recorded(self.table.seats[entry.author].key, last)

    def recorded(self, key: bytes, n: int) -> None:
        """Seat ``key``'s messages up to ``n`` are in the record now."""
        s = self._talk.get(key)
        if s is not None and s.unrecorded is not None:
            for k in [k for k in s.unrecorded if k <= n]:
                del s.unrecorded[k]

    def started(self) -> None:
        """The start is written: the messages said in the lobby, with the contributions the
        start names, are the game's (the table checks the record against them)."""
        t = self.table
        for seat, info in enumerate(t.seats):
            s = self._talk.get(info.key)
            if s is None or s.ctx != info.nonce or s.unrecorded is None:
                continue
            for said in s.unrecorded.values():
                t.live.setdefault(seat, {})[said.n] = (said.after, said.text)

    def backlog(self, ctxs: dict[bytes, bytes]) -> list[Said]:
        """Every message not yet recorded of the seats ``ctxs`` (key -> their contribution now),
        in the order they were said."""
        out: list[Said] = []
        for key, ctx in ctxs.items():
            s = self._talk.get(key)
            if s is not None and s.ctx == ctx and s.unrecorded:
                out.extend(s.unrecorded.values())
        return sorted(out, key=lambda m: (m.after, m.seat, m.n))


class ChatPeer:
    """A seat's side: its own messages (one in flight at a time) and the checks of those it
    hears (module rules). ``emit`` gets ``("said", data)``, ``("refused", {text, why})`` and
    ``("note", text)``; ``lines`` keeps each of them as ``(kind, data, step)``, ``step`` the
    number of steps the table had applied when it came (so a table screen shows it in its
    place among the moves)."""

    def __init__(self, identity: Identity, emit: Callable[[str, Any], None],
                 steps: Callable[[], int] = lambda: 0, journal: Journal | None = None) -> None:
        self.identity = identity
        #: keeps the last ``n`` this seat signed per contribution (``None``: in memory only)
        self.journal = journal
        self._emit = emit
        self._steps = steps
        self.lines: list[tuple[str, Any, int]] = []
        self.ctx = b""
        self.n = 0  # this seat's last message the host accepted
        self.used = 0  # the last ``n`` this seat signed, accepted or not: never signed again
        self.queue: deque[str] = deque()
        self.flight: Said | None = None
        #: (key, ctx) -> n -> (after, text): every message this peer has seen
        self.seen: dict[tuple[bytes, bytes], dict[int, tuple[int, str]]] = {}
        #: (key, ctx, n) -> the signed message seen live, kept as evidence of a conflict
        self.signed: dict[tuple[bytes, bytes, int], Said] = {}
        #: conflicts in talk noted so far: each the author's seat and both signed forms
        self.evidence: list[TalkConflict] = []
        self._conflicts_seen = 0

    def emit(self, kind: str, data: Any) -> None:
        self.lines.append((kind, data, self._steps()))
        self._emit(kind, data)

    def reset(self, ctx: bytes) -> None:
        """A new contribution (a hello in the lobby): messages count from 1 again."""
        if ctx != self.ctx:
            self.ctx, self.n, self.used, self.flight = ctx, 0, 0, None

    def _base(self, table: Table) -> int:
        """This seat's last message: the host accepted it, or the record carries it."""
        n = self.n
        if table.game_id and 0 <= table.me < len(table.seats) \
                and table.seats[table.me].nonce == self.ctx:
            n = max(n, table.said_last.get(table.me, (0, 0))[0])
        return n

    def next_say(self, seat: int, after: int, table: Table) -> Said | None:
        """The message to send now, if one waits and none is in flight."""
        if self.flight is not None or not self.queue or not self.ctx:
            return None
        used = max(self.used, self.journal.talk_used(self.ctx) if self.journal else 0)
        n = max(self._base(table), used) + 1
        if self.journal is not None:
            self.journal.use_talk(self.ctx, n)  # before it is signed: never signed twice
        self.used = n
        self.flight = make_say(self.identity, self.ctx, seat, n, after, self.queue.popleft())
        return self.flight

    def entry(self, table: Table, entry: Entry) -> None:
        """An entry this peer accepted: the start names this seat's contribution (its messages
        count in it) and makes the lobby's messages the game's; recorded messages not seen
        live are shown now."""
        if entry.kind == "start":
            if 0 <= table.me < len(table.seats):
                self.reset(table.seats[table.me].nonce)
            self.started(table)
        if "said" in entry.fields:
            self.recorded(table, [m for m in table.said if m[4] == entry.seq])
        for seat, n, live, recorded, seq in table.talk_conflicts[self._conflicts_seen:]:
            info = table.seats[seat]
            said = self.signed.get((info.key, info.nonce, n))
            conflict: TalkConflict = {"seat": seat, "n": n, "entry": seq}
            if said:
                conflict["body"], conflict["sig"] = said.body, said.sig
            self.evidence.append(conflict)
            self.emit("note", conflict_note(info.name, n, live[1], recorded[1],
                                            f"live, and in entry {seq}"))
        self._conflicts_seen = len(table.talk_conflicts)

    def accepted(self, table: Table, name: str) -> None:
        said = self.flight
        if said is None:
            return
        self.flight = None
        self.n = said.n
        self._remember(self.identity.public_key, said)
        table.said_out.append(said.record())
        if table.game_id:
            table.live.setdefault(said.seat, {})[said.n] = (said.after, said.text)
        self.emit("said", _shown(said, name, live=True, mine=True))

    def refused(self, why: str) -> None:
        said, self.flight = self.flight, None
        self.emit("refused", {"text": said.text if said else "", "why": why})

    def _remember(self, key: bytes, said: Said) -> None:
        self.seen.setdefault((key, said.ctx), {})[said.n] = (said.after, said.text)

    def heard(self, m: Fields, table: Table, lobby: Fields) -> None:
        """A ``said`` notification from the host: checked, then shown or noted."""
        seat = m.get("seat")
        if type(seat) is not int:
            self.emit("note", "the host relayed a message with no seat: not shown")
            return
        key, name, ctx = _author(table, lobby, seat)
        if key is None:
            self.emit("note", f"the host relayed a message of seat {seat}, which is nobody: "
                      "not shown")
            return
        try:
            said = read_say(m.get("body"), m.get("sig"))
        except RemoteProtocolError as e:
            self.emit("note", f"the host relayed a malformed message of {name}: {e}")
            return
        if said.seat != seat or not signed_by(said, key):
            self.emit("note", f"the host relayed a message {name} did not sign: not shown")
            return
        if ctx is not None and said.ctx != ctx:
            self.emit("note", f"the host relayed a message of {name} from another game: "
                      "not shown")
            return
        if key == self.identity.public_key:
            self._own(said, table, name)
            return
        seen = self.seen.setdefault((key, said.ctx), {})
        held = seen.get(said.n)
        if held is not None:
            first = self.signed.get((key, said.ctx, said.n))
            if held != (said.after, said.text) and first is not None:  # both signed by the author
                self.evidence.append({"seat": seat, "n": said.n, "body": first.body,
                                      "sig": first.sig, "body2": said.body, "sig2": said.sig})
                self.emit("note", conflict_note(name, said.n, held[1], said.text, "both live"))
            return  # seen already (a replay, or the backlog after a reconnect)
        top = max(seen, default=0)
        if said.n < top:
            self.emit("note", f"the host relayed {name}'s message {said.n} after message {top}: "
                      "out of order, not shown")
            return
        if said.n > top + 1:
            gap = f"{top + 1}" if said.n == top + 2 else f"{top + 1} to {said.n - 1}"
            self.emit("note", f"{name}'s messages {gap} did not reach this table (refused by "
                      "the host, withheld or missed)")
        seen[said.n] = (said.after, said.text)
        self.signed[(key, said.ctx, said.n)] = said
        if table.game_id and ctx is not None:
            table.live.setdefault(seat, {})[said.n] = (said.after, said.text)
        self.emit("said", _shown(said, name, live=True))

    def _own(self, said: Said, table: Table, name: str) -> None:
        """One of this seat's own messages from the host's backlog: a program restarted learns
        what it said and carries it in its next entry."""
        seen = self.seen.setdefault((self.identity.public_key, said.ctx), {})
        if said.n in seen or said.ctx != self.ctx or said.n <= self._base(table) \
                or self.flight:
            return
        seen[said.n] = (said.after, said.text)
        self.n = said.n
        self.used = max(self.used, said.n)
        table.said_out.append(said.record())
        if table.game_id:
            table.live.setdefault(said.seat, {})[said.n] = (said.after, said.text)
        self.emit("said", _shown(said, name, live=True, mine=True))

    def started(self, table: Table) -> None:
        """The start arrived: the lobby messages of the contributions it names are the game's."""
        for seat, info in enumerate(table.seats):
            for n, v in self.seen.get((info.key, info.nonce), {}).items():
                table.live.setdefault(seat, {})[n] = v

    def recorded(self, table: Table, entries: list[tuple[int, int, int, str, int]]) -> None:
        """Messages the record carries that this peer did not see live: shown now."""
        for seat, n, after, text, _seq in entries:
            info = table.seats[seat]
            seen = self.seen.setdefault((info.key, info.nonce), {})
            if n in seen:
                continue
            seen[n] = (after, text)
            self.emit("said", {"seat": seat, "name": info.name, "n": n, "after": after,
                               "text": text, "live": False, "mine": info.key ==
                               self.identity.public_key})


def _author(table: Table, lobby: Fields,
            seat: int) -> tuple[bytes | None, str, bytes | None]:
    """The key, name and contribution of ``seat``: from the start, or from the host's lobby
    before it (no contribution known then)."""
    if table is not None and table.game_id:
        if 0 <= seat < len(table.seats):
            s = table.seats[seat]
            return s.key, s.name, s.nonce
        return None, "", None
    seats = lobby.get("seats")
    for row in seats if type(seats) is list else []:
        key, name = (row.get("key"), row.get("name")) if type(row) is dict else (None, None)
        if type(row) is dict and row.get("seat") == seat and type(key) is bytes \
                and type(name) is str:
            name = "".join(c if c.isprintable() else "?" for c in name[:32])
            return key, name, None  # the host's word, as one printable line
    return None, "", None


def _shown(said: Said, name: str, live: bool, mine: bool = False) -> Fields:
    return {"seat": said.seat, "name": name, "n": said.n, "after": said.after,
            "text": said.text, "live": live, "mine": mine}
