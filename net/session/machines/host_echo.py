"""The echo of every head on the wire, the host's side of ``net.session.machines.agreement``
(a seat's side is ``net.session.machines.echo``).

The host (``HostAgreement``, a mixin of ``HostSession``):

* signs the head after every entry it relays or resends: ``entry {body, sig, ack}``;
* takes ``ack {n, head, sig}`` from a seat (a notification; never answered): a length it holds,
  the seat's signature, and its own head for that length, or it is dropped and logged (an
  honest host shows one history). It relays it to every other seat and every watcher as
  ``ack {seat, n, head, sig, host}``, ``host`` its own signature of that head;
* takes ``evidence`` (a two-heads item) from a seat or watcher: checks it and relays it to every
  other one; a seat's post it refuses for a cheat of its author (``CheatDetected`` naming the
  author) it shows every other seat and watcher as ``evidence {kind: "refused", entry}``, once
  per author and place.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.session.machines.agreement import ack_valid, sign_ack
from net.session.records.evidence import check_evidence, clean
from net.wire.errors import CheatDetected
from net.wire.identity import Identity
from net.wire.rpc import Fields, Notification
from net.wire.transcript import Entry, chain

if TYPE_CHECKING:  # the session's parts
    from net.session.features.acks import AckBook
    from net.session.machines.host_door import Conn, Seat
    from net.session.machines.table import Table

log = logging.getLogger("palazzo.net")


class HostAgreement:
    """The host's side (see the module docstring); a mixin of ``HostSession``."""

    identity: Identity
    table: Table
    conns: dict[int, Conn]
    seats: list[Seat]
    acks: AckBook

    def _broadcast(self, method: str, payload: Fields, but: int | None = None,
                   first: tuple[int | None, ...] = ()) -> None:
        raise NotImplementedError  # the door's

    def _warn(self, conn: int, msg: str) -> None:
        raise NotImplementedError  # the door's

    #: (n, head) -> the host's signature of it (each head signed once)
    _head_sigs: dict[tuple[int, bytes], bytes]
    #: seat -> the longest head it acknowledged (one look per head)
    _last_ack: dict[int, int]
    #: seat -> its latest acknowledgement as relayed (sent again to a connection back)
    _latest_acks: dict[int, Fields]
    #: (author, seq) of the refused posts shown to every other seat and watcher
    _named: set[tuple[int, int]]

    def _init_agreement(self) -> None:
        self._head_sigs = {}
        self._last_ack = {}
        self._latest_acks = {}
        self._named = set()

    def _sign_head(self, game: bytes, n: int, head: bytes) -> bytes:
        """The host's acknowledgement of ``head`` as the first ``n`` entries (signed once)."""
        sigs = self._head_sigs
        if (n, head) not in sigs:
            sigs[(n, head)] = sign_ack(self.identity, game, n, head)
        return sigs[(n, head)]

    def _head_sig(self, n: int) -> bytes:
        """The host's acknowledgement of the first ``n`` entries of its transcript."""
        t = self.table
        return self._sign_head(t.game_id, n, t.transcript.head_at(n))

    def _wire(self, entry: Entry) -> Fields:
        """``entry`` as the host relays it: with its signature of the head after it."""
        head = chain(entry.prev, entry)
        return {**entry.to_wire(), "ack": self._sign_head(entry.game_id, entry.seq + 1, head)}

    def _agreement_note(self, conn: int, event: Notification) -> None:
        c = self.conns[conn]
        m = event.params[0] if len(event.params) == 1 and type(event.params[0]) is dict else None
        t = self.table
        if m is None or (c.seat is None and c.watcher is None) or not t.game_id:
            self._warn(conn, f"{event.method}: ignored (no game, no seat, or not one map)")
            return
        if event.method == "evidence":
            try:
                finding = check_evidence(t.transcript.entries[0], m)
            except ValueError as e:
                self._warn(conn, f"evidence: ignored ({e})")
                return
            log.warning("evidence relayed: %s", finding.reason)
            self._broadcast("evidence", clean(m), but=conn)
            return
        seat, n, head = c.seat, m.get("n"), m.get("head")
        last = self._last_ack
        if seat is None or type(n) is not int or not last.get(seat, 0) < n <= len(t.transcript):
            self._warn(conn, "ack: ignored (a watcher's, of no length the host holds, or of no "
                       "new head: one acknowledgement per head)")
            return
        last[seat] = n  # one look per head, whatever it holds
        sig = m.get("sig")
        if not ack_valid(self.seats[seat].key, t.game_id, n, head, sig):
            self._warn(conn, "ack: ignored (its signature does not check)")
        elif head != t.transcript.head_at(n):
            self._warn(conn, f"ack: ignored (seat {seat} acknowledged another history of {n} "
                       "entries than the host's)")
        else:
            note: Fields = {"seat": seat, "n": n, "head": head, "sig": sig,
                    "host": self._head_sig(n)}
            self._latest_acks[seat] = note
            self.acks.ack(seat, n)  # what it owes (``net.session.features.acks``)
            self._broadcast("ack", note, but=conn)

    def _resend_acks(self, conn: int) -> None:
        """To a connection just seated or watching: each other seat's latest acknowledgement
        (those relayed while it was away are lost with its old connection)."""
        latest = self._latest_acks
        seat = self.conns[conn].seat
        for s, note in latest.items():
            if s != seat:
                self._notify(conn, "ack", note)

    def _notify(self, conn: int, method: str, payload: Fields) -> None:
        raise NotImplementedError  # the door's

    def _name_refused(self, conn: int, entry: Entry, cheat: CheatDetected) -> None:
        """Show every other seat and watcher a post refused for its author's cheat."""
        named = self._named
        if cheat.seat != entry.author or (entry.author, entry.seq) in named:
            return
        named.add((entry.author, entry.seq))
        self._broadcast("evidence", {"kind": "refused", "entry": entry.to_wire()}, but=conn)
