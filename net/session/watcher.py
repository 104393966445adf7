"""The watcher's side: following a networked game without a seat (``palazzo watch HOST:PORT``).

A ``WatchSession`` is a ``PeerSession`` in watch mode (``WATCH``): its hello says ``watch``
(``net.session.watch`` gives the host's rules), its table is an observer's (``Table(host,
None)``, seat -1: it sees as a seat that holds nothing, only what the rules show everyone), and
it never writes: no ``ready``, no entry, no word at the table, no decision is ever due.
Everything else is a seat's: the host must prove its key (the ``proof`` over this watcher's
nonce), every entry is checked by the observer table as it arrives (a bad one names the host
and stops the watch), a dropped connection is taken up again by ``PeerRunner`` with ``have``
(the host sends only what is missing), and at the end the record is read again from scratch
and saved: the very bytes every seat saves. The host answering a watch hello with a seat (a host that does not know watchers)
is refused: a watcher never plays.

``watch_game`` is the headless command: it prints the lobby as it changes, every line of the
public log (a line that starts with a seat names its player: "Blue (Jo): ..."), the table talk
("Jo: Deal?") and the notes on who is here ("Jo lost the connection"), then the result, the
audit and where the record was saved. Its exit status is a joiner's
(``net.session.hosting.exit_status``).

A watcher that wants to (``rematch.wanted``; the watcher at the table does) keeps its connection
after the end and follows a rematch every seat agreed to (``net.session.rematch``): it watches
the new game on a new connection, its start checked as a seat's is (``Expected``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from net.session.hosting import (
    Say,
    end_audit,
    exit_status,
    parse_address,
    result_line,
    save_transcript,
)
from net.session.peer import PeerGone, run_peer
from net.session.sessions import PeerEvent, PeerSession
from net.session.verify import printable_line
from net.wire.errors import LocalProtocolError, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.rpc import E_BAD_PARAMS


class WatchSession(PeerSession):
    """A watcher: follows the transcript on an observer table, writes nothing."""

    WATCH = True

    def __init__(self, identity: Identity, name: str, code: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(identity, name, code, auto_ready=False, clock=clock)
        self.rematch.watching = True  # a rematch every seat agreed to may be followed

    def decision_due(self) -> bool:
        return False

    def act(self, action: Any, auto: bool = False) -> None:
        raise LocalProtocolError("a watcher makes no move")

    def ready(self) -> None:
        raise LocalProtocolError("a watcher takes no seat")

    def say(self, text: str) -> None:
        raise LocalProtocolError("a watcher does not talk at the table")

    def _on_welcome(self, result: Any) -> None:
        if type(result) is dict and result.get("seat") != -1:
            raise RemoteProtocolError(
                f"the host answered this watcher with seat {result.get('seat')!r}: it does not "
                "take watchers (a watcher never plays)", E_BAD_PARAMS)
        super()._on_welcome(result)

    def _maybe_write(self) -> None:
        return  # a watcher writes nothing


def lobby_line(lobby: dict[str, Any]) -> str:
    """The lobby in one line: the seats, and the watchers if any (whatever the host sent)."""
    given = lobby.get("seats")
    seats = [x for x in given if type(x) is dict] if type(given) is list else []
    line = f"lobby {len(seats)}/{lobby.get('players')}: " + (", ".join(
        f"{x.get('name')} [{x.get('fp')}]" + ("" if x.get("online") else " (away)")
        for x in seats) or "no seat taken yet")
    watchers = lobby.get("watchers")
    if type(watchers) is list and watchers:  # the host's word: at most 8 names of 32
        line += "; watching: " + ", ".join(str(w)[:32] for w in watchers[:8])
    return line


def named(line: str, table: Any) -> str:
    """A line of the public log with the player of the seat it starts with named:
    "Blue: ..." is "Blue (Jo): ..."."""
    if table is None or table.rules is None:
        return line
    pairs = sorted(zip(table.rules.seat_names, (s.name for s in table.seats), strict=False),
                   key=lambda p: -len(p[0]))
    for seat, player in pairs:
        if line.startswith(seat) and line[len(seat):len(seat) + 1] in (":", " ", "'"):
            return f"{seat} ({player}){line[len(seat):]}"
    return line


def watch_game(address: str, code: str | None, name: str, say: Say,
               identity_spec: str | None = None) -> int:
    """Follow the game at ``address`` to its end, printing the public log; the exit status."""
    def show(line: str) -> None:
        say(printable_line(line))  # names and reasons come from the host

    host, port = parse_address(address)
    identity = Identity.load_or_create(spec=identity_spec)
    session = WatchSession(identity, name, code)
    last_lobby = [""]

    def on_event(e: PeerEvent) -> None:
        if e.kind == "log":  # the moves, the player named
            show(named(str(e.data), session.table))
        elif e.kind == "note":  # the table's notes ("Jo left", ...)
            show(str(e.data))
        elif e.kind == "said" and type(e.data) is dict:  # table talk, as a join prints it
            show(f"{e.data.get('name')}: {e.data.get('text')}"
                 + ("" if e.data.get("live", True) else " (from the record)"))
        elif e.kind == "lobby" and type(e.data) is dict:
            line = lobby_line(e.data)
            if line != last_lobby[0]:
                show(line)
                last_lobby[0] = line
        elif e.kind == "disconnected":
            show("connection lost; watching again")
        elif e.kind == "host-gone":
            show("the host is gone; trying again ...")

    show(f"watching {host}:{port} as {name} (key {identity.fingerprint})")
    try:
        asyncio.run(run_peer(session, host, port, None, on_event))
    except PeerGone as e:
        show(f"error: {e}")
        save_transcript(session.table, show)
        return exit_status(session, gave_up=e.gave_up)
    if session.state == "over":
        assert session.table is not None
        show(result_line(session.table))
        save_transcript(session.table, show)
        return exit_status(session, record_ok=end_audit(session.table, show))
    show(f"error: {session.error}")
    save_transcript(session.table, show)
    return exit_status(session)
