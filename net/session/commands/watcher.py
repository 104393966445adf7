"""The watcher's side: following a networked game without a seat (``palazzo watch HOST:PORT``).

A ``WatchSession`` (``net.session.machines.watch_session``) follows the game: it never writes, and at
the end the record is read again from scratch and saved: the very bytes every seat saves.

``watch_game`` is the headless command: it prints the lobby as it changes, every line of the
public log (a line that starts with a seat names its player: "Blue (Jo): ..."), the table talk
("Jo: Deal?") and the notes on who is here ("Jo lost the connection"), then the result, the
audit and where the record was saved. Evidence it checked and named someone by (a refused entry,
two heads, a relayed entry, a conflict in talk) is kept as a seat keeps it, at once, and its
file named (``palazzo verify FILE`` checks it again). Its exit status is a joiner's
(``net.session.commands.hosting.exit_status``).

A watcher that wants to (``rematch.wanted``; the watcher at the table does) keeps its connection
after the end and follows a rematch every seat agreed to (``net.session.features.rematch``): it
watches the new game on a new connection, its start checked as a seat's is (``Expected``).
"""

from __future__ import annotations

import asyncio

from net.session.commands.hosting import (
    Say,
    end_audit,
    exit_status,
    parse_address,
    result_line,
    save_refused,
    save_transcript,
)
from net.session.features.liveness import gone_line
from net.session.machines.conversation import printable_line
from net.session.machines.peer_session import PeerEvent, PeerState
from net.session.machines.table import Table
from net.session.machines.watch_session import WatchSession
from net.session.runners.peer import PeerGone, run_peer
from net.wire.identity import Identity
from net.wire.rpc import Fields


def lobby_line(lobby: Fields) -> str:
    """The lobby in one line: the seats, and the watchers if any (whatever the host sent)."""
    given = lobby.get("seats")
    seats = [x for x in given if type(x) is dict] if type(given) is list else []
    line = f"lobby {len(seats)}/{lobby.get('players')!s}: " + (", ".join(
        f"{x.get('name')!s} [{x.get('fp')!s}]" + ("" if x.get("online") else " (away)")
        + (" (not responding)" if x.get("silent") else "")
        for x in seats) or "no seat taken yet")
    watchers = lobby.get("watchers")
    if type(watchers) is list and watchers:  # the host's word: at most 8 names of 32
        line += "; watching: " + ", ".join(str(w)[:32] for w in watchers[:8])
    return line


def named(line: str, table: Table | None) -> str:
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
            show(gone_line(e.data - session.clock()))
        elif e.kind == "host-back":
            show(str(e.data))
        elif e.kind == "cheat":  # named with evidence this program checked
            show(f"{e.data} (evidence checked by this program)")
        elif e.kind == "evidence":  # where it keeps it: ``palazzo verify FILE`` checks it again
            show(f"evidence: {e.data}")

    show(f"watching {host}:{port} as {name} (key {identity.fingerprint})")
    try:
        asyncio.run(run_peer(session, host, port, None, on_event))
    except PeerGone as e:
        show(f"error: {e}")
        save_transcript(session.table, show)
        return exit_status(session, gave_up=e.gave_up)
    save_refused(session.table, session.refused, show)
    if session.state is PeerState.OVER:
        assert session.table is not None
        show(result_line(session.table))
        save_transcript(session.table, show)
        return exit_status(session, record_ok=end_audit(session.table, show))
    show(f"error: {session.error}")
    save_transcript(session.table, show)
    return exit_status(session)
