"""The host relays a seat's entry at once and checks it beside the relay (protocol version 3).

The host's full check of an entry (its proofs above all: a shuffle's costs tens of
milliseconds) no longer stands between a post and the other seats. Rules:

* **Pending.** The host takes a seat's ``post`` through the cheap checks first (the entry
  parses, is its poster's, is the next in sequence and chain, bears its author's signature, is
  of a kind the phase takes from the seat due, with the fields of its kind:
  ``Table.check_frame``), and relays it at once as ``entry {body, sig}`` *without* ``ack``: a
  *pending* entry. It then checks the entry in full: a small entry (under ``INLINE_LIMIT``
  bytes: a move, decryption shares; about a millisecond) on the host's own loop as soon as the
  relay is out (``Pending.later``, run by ``settle``), a larger one (a shuffle and its proof:
  tens of milliseconds) in a worker thread (``check_pool``, one for the process; libsodium
  releases Python's lock), so that it never holds the host's loop. A thread's start and its
  hand-back cost about half a small entry's check, on the path of every move.
* **One at a time.** While an entry is pending the host changes nothing: a post that comes
  meanwhile waits (it is answered once the pending entry is settled, in the order posts came),
  and the host writes no forfeit; a restarted host's ``supply`` settles it first.
* **Confirmed.** An entry that passes is accepted by the host's table and confirmed:
  ``confirm {n, ack}``, ``ack`` the host's acknowledgement (``net.session.machines.agreement``) of
  the head after it, ``n`` its length. The post is answered then.
* **Withdrawn.** An entry that fails is withdrawn: ``withdraw {entry, reason, sig}`` to every
  seat (its author too) and watcher, ``sig`` the host's signature of ``WITHDRAW_TAG || game id (16) ||
  u32(seq) || SHA-256(body || sig of the entry)``; the post is refused as it was before (the
  author hears the error).
* **A reader** (``PeerRelay``) checks a pending entry at once on its own table (the same checks
  as every entry, in parallel with the host) and applies nothing: a pending entry is not in its
  transcript, so it neither writes on its head, nor acknowledges it, nor discloses on it. On
  ``confirm`` it checks the host's ``ack`` (a fault if it does not verify) and applies the entry;
  if its own check refused it, the host signed a head of a bad entry: the host is named, with
  that signature and the entry. On ``withdraw`` it checks the host's signature (a fault if it
  does not verify), then the entry again with every proof (a seat checks shuffle proofs beside
  the game: not here); if its table refuses it, the author is named and the game goes on, as for
  any refused entry; if its table accepts it, the host withdrew a good entry and is named, with
  its signed withdrawal. The author of a withdrawn entry (no judge of its own proofs) only drops
  it: the refusal of its post tells it why, as before version 3. A confirm or withdraw for no pending entry, or a second pending entry,
  is a fault that names nobody.

So a withdrawn entry makes no honest reader see two histories: nobody acknowledged its head or
wrote after it; and no honest host is named for a bad post, whose author signed it alone.
"""

from __future__ import annotations

import hashlib
import logging
import struct
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Union

from net.session.machines.agreement import ack_valid
from net.wire.errors import (
    E_INTERNAL,
    HOST,
    CheatDetected,
    Fault,
    ProtocolError,
    RemoteProtocolError,
)
from net.wire.identity import SIGNATURE_SIZE, Identity, verify
from net.wire.rpc import Fields, Request, RpcError, Value
from net.wire.transcript import Entry, chain

if TYPE_CHECKING:  # the table's types only (it is the caller's)
    from net.session.machines.conversation import Output
    from net.session.machines.host_door import Conn
    from net.session.machines.table import Change, Table

log = logging.getLogger("palazzo.net")

WITHDRAW_TAG = b"palazzo/withdraw/v1\x00"
#: the longest reason a withdrawal gives, in characters
REASON_LIMIT = 300

#: an entry's body at least this long is checked in the worker thread, a shorter one on the loop
INLINE_LIMIT = 1024

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def check_pool() -> ThreadPoolExecutor:
    """This process's one worker thread for the host's checks (made on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(1, thread_name_prefix="palazzo-relay")
        return _pool


_readers: ThreadPoolExecutor | None = None


def reader_pool() -> ThreadPoolExecutor:
    """This process's one worker thread for a reader's checks of pending entries, behind the
    game's priority (``net.deck.checks.BEHIND``): on a machine shared with the host, the host's
    check, which every seat waits on, goes first (made on first use)."""
    global _readers
    with _pool_lock:
        if _readers is None:
            from net.deck.checks import _behind
            _readers = ThreadPoolExecutor(1, thread_name_prefix="palazzo-reader",
                                          initializer=_behind)
        return _readers


#: what a reader's check of a pending entry gives: the change it makes, or the error its
#: content check raised
Checked = Union["Change", CheatDetected, RemoteProtocolError]


def _content(table: Table, entry: Entry) -> Checked:
    """The change ``entry`` makes, or the error its content check raised."""
    try:
        return table.check_content(entry)
    except (CheatDetected, RemoteProtocolError) as e:
        return e


def withdraw_message(game_id: bytes, entry: Entry) -> bytes:
    """The bytes a withdrawal signs (after ``WITHDRAW_TAG``)."""
    return game_id + struct.pack(">I", entry.seq) + hashlib.sha256(entry.body + entry.sig).digest()


def sign_withdraw(identity: Identity, game_id: bytes, entry: Entry) -> bytes:
    return identity.sign(WITHDRAW_TAG, withdraw_message(game_id, entry))


def withdraw_valid(key: bytes, game_id: bytes, entry: Entry, sig: object) -> bool:
    return type(sig) is bytes and len(sig) == SIGNATURE_SIZE and \
        verify(key, WITHDRAW_TAG, withdraw_message(game_id, entry), sig)


@dataclass
class Pending:
    """A seat's entry relayed and being checked: its post (to answer) and the check."""

    conn: int
    msgid: int
    entry: Entry
    check: Future[Callable[[], None]]
    #: the check still to run on the host's loop (a small entry), once its relay is out
    later: Callable[[], Callable[[], None]] | None = None

    def run_later(self) -> None:
        """Run the check left for the loop, if any, into ``check``."""
        run, self.later = self.later, None
        if run is None:
            return
        try:
            self.check.set_result(run())
        except Exception as e:  # the check's verdict or fault: ``settle`` reads it
            self.check.set_exception(e)


class HostRelay:
    """The host's side (see the module docstring); a mixin of ``HostSession``."""

    identity: Identity
    table: Table
    conns: dict[int, Conn]
    #: ``False``: every post is checked in full before it is relayed (version 2's way)
    relay_at_once: bool = True

    if TYPE_CHECKING:  # the session's and the door's
        def _broadcast(self, method: str, payload: Fields, but: int | None = None,
                       first: tuple[int | None, ...] = ()) -> None: ...

        def _respond(self, conn: int, msgid: int, result: Value,
                     error: RpcError | None = None) -> None: ...

        def _relay(self, entry: Entry) -> None: ...

        def _handle(self, conn: int, event: Request) -> None: ...

        def _warn(self, conn: int, msg: str) -> None: ...

        def _notify(self, conn: int, method: str, payload: Fields) -> None: ...

        def take_output(self) -> list[Output]: ...

        def _wire(self, entry: Entry) -> Fields: ...

    #: the entry relayed and not yet settled, if any
    pending: Pending | None
    #: the posts that came while an entry was pending (taken once it is settled)
    _waiting_posts: list[tuple[int, Request]]
    #: the pending entry being confirmed now (sent as ``confirm``, not ``entry``)
    _confirming: Entry | None

    def _init_relay(self) -> None:
        self.pending = None
        self._waiting_posts = []
        self._confirming = None

    def _wait_post(self, conn: int, req: Request) -> bool:
        """Keep a post that came while an entry is pending (answered once it is settled)."""
        if self.pending is None:
            return False
        self._waiting_posts.append((conn, req))
        return True

    def _relay_pending(self, conn: int, req: Request, entry: Entry) -> None:
        """Relay ``entry`` (past ``check_frame``) at once, pending, and check it beside."""
        table = self.table
        if len(entry.body) < INLINE_LIMIT:
            self.pending = Pending(conn, req.msgid, entry, Future(),
                                   later=lambda: table._check(entry))
        else:
            self.pending = Pending(conn, req.msgid, entry, check_pool().submit(table._check, entry))
        # first to its author (its post is answered once settled), then to the seat after it
        self._broadcast("entry", entry.to_wire(), first=(entry.author,))

    def settle(self, wait: bool = False) -> list[Output]:
        """Confirm or withdraw the pending entry once its check is done (``wait``: wait for
        it), then take the posts that waited; the output to send."""
        self._settle_pending(wait)
        return self.take_output()

    def _settle_pending(self, wait: bool = False) -> None:
        while (p := self.pending) is not None:
            p.run_later()
            if not (wait or p.check.done()):
                return
            self.pending = None
            try:
                change = p.check.result()
            except CheatDetected as e:
                self._withdraw(p, e)
            except Exception as e:  # a fault of the check: the entry cannot be confirmed
                log.exception("the check of entry %s failed", p.entry.seq)
                self._withdraw(p, RemoteProtocolError(f"the host could not check it: {e!r}",
                                                      E_INTERNAL))
            else:
                self._confirm(p, change)
            waiting, self._waiting_posts = self._waiting_posts, []
            for conn, req in waiting:
                c = self.conns.get(conn)
                if c is not None and not c.closed:
                    self._handle(conn, req)

    def _confirm(self, p: Pending, change: Callable[[], None]) -> None:
        t = self.table
        t._ahead = (p.entry.seq, p.entry, change)  # checked: ``accept`` only applies it
        try:
            t.accept(p.entry)
        except (CheatDetected, RemoteProtocolError) as e:  # a check left to ``accept``
            self._withdraw(p, e)
            return
        self._confirming = p.entry
        try:
            self._relay(p.entry)  # the record, the chat, the turn, the end: as any entry
        finally:
            self._confirming = None
        self._respond(p.conn, p.msgid, {"seq": p.entry.seq})

    def _send_entry(self, entry: Entry) -> None:
        """Send every seat and watcher ``entry`` with the host's ``ack`` (``entry``), or, if it
        was relayed pending, that ``ack`` alone (``confirm``); first to its author (its post
        is answered), then to the seat that writes next."""
        first = (entry.author, self.table.writer())
        wire = self._wire(entry)
        if self._confirming is entry:
            self._broadcast("confirm", {"n": entry.seq + 1, "ack": wire["ack"]}, first=first)
        else:
            self._broadcast("entry", wire, first=first)

    def _withdraw(self, p: Pending, error: Exception) -> None:
        entry = p.entry
        code = getattr(error, "code", E_INTERNAL)
        reason = str(error)[:REASON_LIMIT]
        log.warning("entry %s of seat %s withdrawn: %s", entry.seq, entry.author, reason)
        self._warn(p.conn, f"post: {reason}")
        self._broadcast("withdraw", {
            "entry": entry.to_wire(), "reason": reason,
            "sig": sign_withdraw(self.identity, self.table.game_id, entry)})
        self._respond(p.conn, p.msgid, None, RpcError(code, reason))

    def _pending_to(self, conn: int) -> None:
        """A connection just seated or watching gets the pending entry too."""
        p = self.pending
        if p is not None:
            self._notify(conn, "entry", p.entry.to_wire())


class PeerRelay:
    """A reader's side (see the module docstring); a mixin of ``PeerSession``."""

    table: Table | None
    evidence_folder: Path | None  # the agreement's: where evidence is kept
    #: the pending entry for this reader's next place and its check's result, if any (a
    #: future while the worker thread checks it; ``None`` for this seat's own entry)
    _pending_in: tuple[Entry, Checked | Future[Checked] | None] | None

    def _init_relay(self) -> None:
        self._pending_in = None

    if TYPE_CHECKING:  # the session's and the agreement's
        def _fail(self, error: Exception) -> None: ...

        def _table(self) -> Table: ...

        def _take_entry(self, entry: Entry, ack: Value) -> None: ...

        def _agreement_event(self, kind: str, data: object) -> None: ...

        def _bad_relay(self, n: int, body: Value, sig: Value, ack: Value,
                       why: str) -> ProtocolError: ...

        def _keep_refused(self, entry: Entry) -> None: ...

        def _acknowledge_settled(self, entry: Entry, head: bytes) -> None: ...

        @property
        def refused(self) -> list[Entry]: ...

    def _on_pending(self, entry: Entry) -> None:
        """A pending entry for the next place: its frame checked now, its content beside
        (``reader_pool``), applied on ``confirm``."""
        t = self._table()
        held = self._pending_in
        if held is not None and held[0] != entry:
            raise Fault(f"the host relayed entry {entry.seq} before it settled entry "
                        f"{held[0].seq}; join again")
        result: Checked | Future[Checked] | None = None
        try:
            if entry.author == t.me:  # its own: only its frame now; the rest as it is accepted
                assert t.identity is not None  # a seat's own table
                t.transcript.check_next(entry)
                if not entry.signed_by(t.identity.public_key):
                    raise RemoteProtocolError(f"entry {entry.seq}: bad signature for its author")
            else:
                t.check_frame(entry)
                result = reader_pool().submit(_content, t, entry)
        except CheatDetected as e:
            if e.seat != entry.author:  # the host's (a fork shown to this seat): at once
                raise
            result = e
        except RemoteProtocolError as e:  # malformed, out of order, forged: nobody signed it
            result = e  # as relayed yet: judged by the host's word on it
        self._pending_in = (entry, result)

    def _take_pending(self, n: Value) -> tuple[Entry, Checked | None]:
        held = self._pending_in
        if held is None or held[0].seq + 1 != n:
            raise Fault(f"the host settled entry {n - 1 if type(n) is int else n!r}, which it "
                        "did not relay to this seat (an entry withheld, or lost); join again")
        self._pending_in = None
        entry, checking = held
        if not isinstance(checking, Future):
            return entry, checking
        result = checking.result()
        if isinstance(result, CheatDetected) and result.seat != entry.author:
            raise result
        return entry, result

    def _on_confirm(self, m: Fields) -> None:
        t = self.table
        if t is None or not t.game_id:
            return
        n = m.get("n")
        if type(n) is int and n <= len(t.transcript):
            return  # a confirm of an entry this reader holds (its rejoin sent it confirmed)
        held = self._pending_in
        ack = m.get("ack")
        if held is not None and held[0].seq + 1 == n:
            entry = held[0]
            head = chain(entry.prev, entry)
            if not ack_valid(t.host_key, t.game_id, entry.seq + 1, head, ack):
                raise Fault(f"agreement check: the host's confirmation of entry {entry.seq} does "
                            "not check (a host that does not sign what it relays, or a damaged "
                            "connection); join again")
            self._acknowledge_settled(entry, head)
        entry, result = self._take_pending(n)
        if isinstance(result, RemoteProtocolError):  # evidence against the host, or a fault
            raise self._bad_relay(entry.seq, entry.body, entry.sig, ack,
                                  f"the host relayed a bad entry: {result}")
        if isinstance(result, Exception):
            cheat = CheatDetected(HOST, entry.seq, f"the host confirmed entry {entry.seq}, which "
                                  f"this table refuses: {result}")
            cheat.evidence = {"kind": "confirmed", "entry": entry.to_wire(),  # type: ignore[attr-defined]
                              "ack": ack}
            assert type(ack) is bytes  # checked with the pending entry (``ack_valid``)
            self._keep_settled("confirmed", entry, ack)
            raise cheat
        if result is not None:
            t._ahead = (entry.seq, entry, result)
        self._take_entry(entry, ack)

    def _on_withdraw(self, m: Fields) -> None:
        t = self.table
        if t is None or not t.game_id:
            return
        wire = m.get("entry")
        try:
            entry = Entry.parse(wire.get("body"), wire.get("sig")) if type(wire) is dict else None
        except RemoteProtocolError:
            entry = None
        if entry is None:
            raise Fault("the host withdrew an entry it does not show; join again")
        sig = m.get("sig")
        if type(sig) is not bytes or not withdraw_valid(t.host_key, t.game_id, entry, sig):
            raise Fault(f"the host's withdrawal of entry {entry.seq} does not check (a damaged "
                        "connection); join again")
        held, result = self._take_pending(entry.seq + 1)
        if held != entry:
            raise Fault(f"the host withdrew another entry {entry.seq} than it relayed; join again")
        if entry.author == t.me:  # its own: no judge of it; the post's refusal says the rest
            return
        if isinstance(result, Exception):
            refused: CheatDetected | None = result if isinstance(result, CheatDetected) else None
        else:
            refused = self._recheck(entry)  # every proof this time
        if refused is not None and refused.seat == entry.author:
            cheat = CheatDetected(refused.seat, refused.step, refused.reason, refused.code)
            cheat.evidence = {"kind": "refused", "entry": entry.to_wire()}  # type: ignore[attr-defined]
            self._keep_refused(entry)  # kept at once, in a file verify names the author from
            self._agreement_event("cheat", cheat)
            return
        if refused is not None or isinstance(result, Exception):  # unsigned, or not the author's
            log.info("the host withdrew entry %s, which this table refuses too", entry.seq)
            return
        cheat = CheatDetected(HOST, entry.seq, f"the host withdrew entry {entry.seq} of seat "
                              f"{entry.author}, which this table accepts (its reason: "
                              f"{str(m.get('reason'))[:REASON_LIMIT]!r})")
        cheat.evidence = {"kind": "withdrawn", "entry": entry.to_wire(),  # type: ignore[attr-defined]
                          "sig": sig}
        self._keep_settled("withdrawn", entry, sig)
        self._fail(cheat)

    def _keep_settled(self, kind: str, entry: Entry, proof: bytes) -> None:
        """Keep the host's settlement of ``entry`` that this table contradicts, with the record
        before it, in a file ``palazzo verify`` names the host from
        (``net.session.records.settled``)."""
        from net.session.records.evidence import save_evidence
        from net.session.records.settled import settled

        t = self._table()
        record = t.transcript.entries[:entry.seq]
        try:
            where = save_evidence(record[0], settled(kind, record, entry, proof),
                                  self.evidence_folder)
        except (OSError, ValueError) as e:  # not checkable here, or no disk: the verdict stands
            log.warning("the evidence could not be saved: %s", e)
            return
        self._agreement_event("evidence", str(where))

    def _recheck(self, entry: Entry) -> CheatDetected | None:
        """Check ``entry`` again with every proof (none left to a worker thread): the
        reason it is refused for (a fault of its frame: named as the host's), or ``None``."""
        t = self._table()
        dealer = t.dealer if t.dealer is not None and t.dealer.defer else None
        if dealer is not None:
            dealer.defer = False
        try:
            t._check(entry)
        except CheatDetected as c:
            return c
        except Exception as e:  # not the author's: nobody named for it
            return CheatDetected(HOST, entry.seq, str(e))
        finally:
            if dealer is not None:
                dealer.defer = True
        return None
