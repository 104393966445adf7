"""A restarted host gathers its game from its seats before anyone writes again.

``HostGather`` is the part of ``HostSession`` (``net.session.machines.host_session``) that a host
restarted from its record (``net.session.records.resume``) runs. Sans-IO as the session.

Rules:

* A restarted host (``HostSession.restore``) *gathers* for ``GATHER_WAIT`` seconds, or until every seat has
said hello again: it writes no forfeit and holds every post unanswered meanwhile. A seat whose
``have`` is longer than the host's transcript (the host's record was damaged) is seated and
gives the rest back with ``supply {entries}``: each entry is checked by the observer table as
any other, in order, and relayed. A forged, reordered or foreign entry is refused and stops
the supply; a seat that gives less only gives less. A seat's own entries at the end of what it
gives back wait as its posts do (a rewritten move of its own, given back rather than posted,
gains nothing either). Since posts wait while the host gathers,
the longest valid record the seats hold is in before anyone writes again; an entry that then
differs from one held for its place, signed by the same author, is that author's equivocation
(``check_equivocation``), named with both signatures.
* A host whose record lost its start (``lost_game``: the id of the game it was serving) opens
  its lobby and lets a hello with a longer ``have`` in as a *supplier*: its ``supply`` must
  begin with that game's start, signed by this host and naming the supplier's key; the host
  then goes on with that game as from its record (``_adopt``), and no other start is taken.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from net.session.machines.conversation import SUPPLY_CHUNK, check_equivocation, param_map
from net.session.machines.entries import Phase
from net.session.machines.host_door import Answer, Conn, Seat
from net.session.machines.table import Table
from net.wire.errors import E_BAD_PARAMS, E_WRONG_PHASE, CheatDetected, RemoteProtocolError
from net.wire.rpc import Event, Fields, Request, Value
from net.wire.transcript import Entry

log = logging.getLogger("palazzo.net")

#: seconds a restarted host waits for its seats to say hello again before anyone writes
GATHER_WAIT = 15.0


class HostGather:
    """What a restarted host does until its seats are back (see the module docstring). The
    attributes below are the session's, set by its ``__init__``."""

    clock: Callable[[], float]
    table: Table
    seats: list[Seat]
    conns: dict[int, Conn]
    _gather_until: float
    _back: set[int]
    _owed: dict[int, int]
    _held: list[tuple[int, Request]]
    #: a seat's own entries at the end of what it gave back: taken once the gathering is over
    _tails: dict[int, list[Entry]]
    #: the game a host whose record lost its start was serving (``None``: not such a host)
    lost_game: bytes | None = None

    if TYPE_CHECKING:  # the session's (``HostSession``, ``HostDoor``)
        def _handle(self, conn: int, event: Event) -> None:
            ...

        def _send_presence(self) -> None:
            ...

        def _seat_of(self, conn: int, method: str = "do that") -> int:
            ...

        def _relay(self, entry: Entry) -> None:
            ...

        def restore(self, entries: list[Entry]) -> None:
            ...

        def _settle_pending(self, wait: bool = False) -> None:
            ...

        def _seat(self, conn: int, i: int, nonce: bytes, have: int) -> Fields:
            ...

    def _gathering(self) -> bool:
        return self.clock() < self._gather_until and len(self._back) < len(self.seats)

    def _release(self) -> None:
        """The gathering is over: take each seat's own entries at the end of what it gave
        back, then answer the posts held meanwhile, in the order they came."""
        if (not self._held and not self._tails) or self._gathering():
            return
        tails, self._tails = self._tails, {}
        for conn, entries in tails.items():
            try:
                self._take_supply(entries)
            except (RemoteProtocolError, CheatDetected) as e:
                log.warning("connection %s: its own last entries given back are refused: %s",
                            conn, e)
        held, self._held = self._held, []
        for conn, req in held:
            c = self.conns.get(conn)
            if c is not None and not c.closed:
                self._handle(conn, req)
        self._send_presence()

    def _supply(self, conn: int, req: Request) -> Answer:
        """A seat gives back entries the host lacks (its record was damaged): each is checked
        by the observer table, in order, and relayed; the first that is not the next valid
        entry stops the supply (see the module docstring)."""
        self._settle_pending(wait=True)  # the entry pending now first (``net.session.machines.relay``)
        items = param_map(req).get("entries")
        if type(items) is not list or len(items) > SUPPLY_CHUNK:
            raise RemoteProtocolError(f"'entries' is a list of at most {SUPPLY_CHUNK} entries",
                                      E_BAD_PARAMS)
        if self.conns[conn].supplier is not None and self.conns[conn].seat is None:
            items = self._adopt(conn, items)
        self._seat_of(conn, "supply entries")
        if self.table.phase is Phase.LOBBY:
            raise RemoteProtocolError("the game has not started", E_WRONG_PHASE)
        seat = self.conns[conn].seat
        entries = self._tails.pop(conn, [])
        for item in items:
            if type(item) is not dict:
                raise RemoteProtocolError("an entry is a map", E_BAD_PARAMS)
            entries.append(Entry.parse(item.get("body"), item.get("sig")))
        cut = len(entries)  # its own entries at the end wait as its posts do
        while cut and entries[cut - 1].author == seat:
            cut -= 1
        if cut < len(entries):
            self._tails[conn] = entries[cut:]
        before = len(self.table.transcript)
        try:
            self._take_supply(entries[:cut])
        finally:
            if seat is not None and seat in self._owed:  # it gave what it gives: back
                if len(self.table.transcript) + len(entries) - cut >= self._owed[seat] or \
                        len(self.table.transcript) == before:
                    del self._owed[seat]
                    self._back.add(seat)
        if len(self.table.transcript) > before:
            log.info("seat %s gave back entries %s to %s", self.conns[conn].seat, before,
                     len(self.table.transcript) - 1)
        return {"length": len(self.table.transcript)}

    def _adopt(self, conn: int, items: list[Value]) -> list[Value]:
        """A supplier's first entries: the start of ``lost_game``, signed by this host and
        naming the supplier's key; the host goes on with that game, the supplier seated. The
        entries after the start are returned, to be taken as any supply."""
        c = self.conns[conn]
        assert c.supplier is not None
        key, nonce, have = c.supplier
        start: Entry | None = None
        keys: list[Value] = [s.key for s in self.seats]  # another seat gave the start back
        if self.lost_game is not None:
            first = items[0] if items else None
            start = Entry.parse(first.get("body"), first.get("sig")) \
                if type(first) is dict else None
            if start is None or start.kind != "start" or start.seq != 0 or \
                    start.fields.get("game") != self.lost_game:
                raise RemoteProtocolError("this host waits for the start of the game it lost",
                                          E_BAD_PARAMS)
            seats = start.fields.get("seats")
            keys = [s.get("key") for s in seats if type(s) is dict] if type(seats) is list else []
        if key not in keys:
            raise RemoteProtocolError("the start given back does not name this key",
                                      E_BAD_PARAMS)
        if start is not None:
            self.restore([start])  # checked by the observer table: this host's signature
            self.lost_game = None
            self._relay(start)  # into the record; the supplier holds it already
            log.info("the start of the game this host lost is given back")
            items = items[1:]
        c.supplier = None
        i = keys.index(key)
        self._seat(conn, i, nonce, have)
        if have > len(self.table.transcript):
            self._owed[i] = have
        else:
            self._back.add(i)
        return items

    def _take_supply(self, entries: list[Entry]) -> None:
        for entry in entries:
            held = len(self.table.transcript)
            if entry.seq < held:
                check_equivocation(self.table, entry)  # the same author's two: named
                if self.table.transcript.entries[entry.seq].body != entry.body:
                    raise RemoteProtocolError(
                        f"entry {entry.seq} is not the one the host holds", E_BAD_PARAMS)
                continue
            if entry.seq > held:
                raise RemoteProtocolError(f"entry {entry.seq} comes after a gap (the host holds "
                                          f"{held})", E_BAD_PARAMS)
            self.table.accept(entry)
            self._relay(entry)

