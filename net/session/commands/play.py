"""Headless host and join, as the command line runs them: set up, play, save, report.

``host_game`` and ``join_game`` return an exit status (``net.session.commands.hosting``: 0 the game ended
normally, or the host quit (SIGINT or SIGTERM: every peer is told "the host closed the game",
the record is saved); ``join_game``: 1 the game could not be played, 3 a cheat was found, ``EXIT_GAVE_UP`` it
gave up trying to join or rejoin: a host that went away without a goodbye is one line, "The host at HOST:PORT went away; the
record so far is saved in PATH" once the game had started) and talk to the user only through ``say`` (one line at a time;
a joiner's lines are made printable first, since names and reasons come from the host). The
host offers a rematch at the end (``net.session.features.rematch``); ``join_game(..., rematch=N)``
plays up to N games with the same players, and by default leaves after one, as it always did. The
hosting and joining themselves (the session, the seats and bots, the join line, the transcript
saved under ``$XDG_DATA_HOME/palazzo/games/`` and said at the end, also after a failure: it is
the evidence of a detected cheat) are ``net.session.commands.hosting``'s, which the table shares. Here a
seat is played by a bot: the host's own seat by ``--bot``, a joiner's by ``join --bot``. The
player's own seat keeps its journal under ``$XDG_DATA_HOME/palazzo/journal/``
(``net.session.records.journal``), so that a program restarted mid-game rejoins it and sends again
exactly what it had signed; the host's bots keep theirs too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import Any

from net.session.commands.hosting import (
    EXIT_FAILED,
    EXIT_OK,
    Hosting,
    HostSettings,
    LateBot,
    Say,
    end_audit,
    exit_status,
    host_gone_line,
    parse_address,
    result_line,
    save_refused,
    save_transcript,
    seat_session,
)
from net.session.features.liveness import GIVE_UP, gone_line
from net.session.features.rematch import Expected
from net.session.machines.conversation import printable_line
from net.session.machines.peer_session import PeerEvent, PeerSession, PeerState
from net.session.records.adopt import save_so_far, so_far_line
from net.session.records.disk import check_writable
from net.session.runners.peer import LEAVE_TRY, PeerGone, PeerRunner
from net.wire.errors import LocalProtocolError
from net.wire.identity import Identity


def host_game(s: HostSettings, say: Say) -> int:
    logged = 0
    hosting: Hosting | None = None
    told: object = None  # the session whose log was told so far (a rematch has its own)

    def tell() -> None:
        nonlocal logged, told
        if hosting is None:
            return
        if hosting.session is not told:
            told, logged = hosting.session, 0
        log = hosting.session.table.log
        for line in log[logged:]:
            say(line)
        logged = len(log)

    hosting = Hosting(s, say, tell)
    session, s = hosting.session, hosting.settings

    def listening(line: str) -> None:
        say(f"hosting {hosting.entry.rules.title} for {s.players} players; "
            f"key {session.identity.fingerprint}")
        say(f"give this line to your friends: {line}")

    handler = _SayHandler(say)
    logging.getLogger("palazzo.net").addHandler(handler)
    logging.getLogger("palazzo.net").setLevel(logging.INFO)
    async def serve() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # quitting tells every peer first
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, hosting.runner.stop)
        await hosting.serve(hosting.own_seat(), hosting.make_bot(s.bot), listening=listening)

    try:
        asyncio.run(serve())
    finally:
        logging.getLogger("palazzo.net").removeHandler(handler)
    tell()
    session = hosting.session  # the last game's, after rematches
    if session.closed and not session.finished:
        say(f"{session.closed}; every peer was told")
        save_transcript(session.table, say)
        return EXIT_OK
    say(result_line(session.table))
    save_transcript(session.table, say)
    return EXIT_OK


class _SayHandler(logging.Handler):
    def __init__(self, say: Say) -> None:
        super().__init__()
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        self.say(record.getMessage())


def _printable_lines(say: Say) -> Say:
    def printable(line: str) -> None:
        say(printable_line(line))

    return printable


def join_game(address: str, code: str | None, name: str, game_bot: str | None, say: Say,
              verbose: bool = False, identity_spec: str | None = None,
              host_fingerprint: str | None = None, talk: list[str] | None = None,
              rematch: int = 1, pace: float = 0.0, retries: int = 5,
              give_up: float = GIVE_UP,
              table_line: Callable[[dict[str, Any]], str] | None = None) -> int:
    """Join ``address`` and play up to ``rematch`` games with the same players
    (``net.session.features.rematch``: after each but the last, the seat asks for a rematch at once);
    with ``host_fingerprint`` (a game found on the LAN) only a host whose key has that
    fingerprint; ``talk``: lines said once seated. The exit status is the first game's that is
    not ``EXIT_OK``, else ``EXIT_OK``. ``pace``: the bot's least seconds a move
    (``PeerRunner``); ``retries``: the tries in a row to be taken in by a host that closes the
    connection; ``give_up``: the seconds to keep trying to reach a host that went away;
    ``table_line``: the table's settings in one line, from the host's lobby (said once, and
    again if they change: the table's own words, ``tui.screens.lobby.settings_line``)."""
    say = _printable_lines(say)
    host, port = parse_address(address)
    check_writable()  # the journal and the record go there: refused before the lobby
    identity = Identity.load_or_create(spec=identity_spec)
    say(f"joining {host}:{port} as {name} (key {identity.fingerprint})")
    expect: Expected | None = None
    for game in range(1, rematch + 1):
        session = seat_session(identity, name, code, host_fingerprint=host_fingerprint)
        session.expect = expect
        session.rematch.wanted = session.rematch.auto = game < rematch
        for text in (talk or []) if game == 1 else []:  # said once seated (``net.session.features.chat``)
            try:
                session.say(text)
            except LocalProtocolError as e:
                say(f"not said: {e}")
        status = _join_one(session, host, port, game_bot, say, verbose, pace, retries, give_up,
                           table_line)
        if status != EXIT_OK or not session.rematch.go:
            return status
        assert session.table is not None
        expect = Expected.of(session.table)
        say(f"rematch: game {game + 1} with the same players")
    return EXIT_OK


#: the tries a headless join makes after a first connection nobody answered
FIRST_TRIES = 3


def _own(session: PeerSession, line: str) -> bool:
    """Whether a line of the table's log tells a move of this seat's ("Green: plays ...")."""
    table = session.table
    if table is None or table.rules is None or not 0 <= table.me < len(table.seats):
        return False
    label = table.rules.seat_names[table.me]
    return line.startswith((f"{label}:", f"{label}'s "))


def _join_one(session: PeerSession, host: str, port: int, game_bot: str | None, say: Say,
              verbose: bool, pace: float = 0.0, retries: int = 5,
              give_up: float = GIVE_UP,
              table_line: Callable[[dict[str, Any]], str] | None = None) -> int:
    last_lobby = ["", ""]  # the seats, the settings
    told = [0]

    def on_event(e: PeerEvent) -> None:
        if e.kind == "log":
            told[0] += 1
            if verbose or told[0] <= 2 or _own(session, str(e.data)):  # the game and its
                say(e.data)  # seats; the seed; this seat's own moves
        elif e.kind == "lobby":
            seats = ", ".join(f"{x['name']} [{x['fp']}]" + ("" if x["online"] else " (away)")
                              + (" (not responding)" if x.get("silent") else "")
                              for x in e.data.get("seats", []))
            line = f"lobby {len(e.data.get('seats', []))}/{e.data.get('players')}: {seats}"
            if line != last_lobby[0]:
                say(line)
                last_lobby[0] = line
            settings = table_line(e.data) if table_line is not None else ""
            if settings and settings != last_lobby[1]:
                say(settings)
                last_lobby[1] = settings
        elif e.kind == "said":
            say(f"{e.data['name']}: {e.data['text']}" + ("" if e.data["live"] else
                                                         " (from the record)"))
        elif e.kind == "refused":
            say(f"not said: {e.data['text']}: {e.data['why']}")
        elif e.kind == "note":
            say(e.data)
        elif e.kind == "disconnected":
            say("connection lost; rejoining")
        elif e.kind == "host-gone":
            say(gone_line(e.data - session.clock()))
            path = save_so_far(session.table)  # a host that lost its own record takes it
            if path is not None:
                say(so_far_line(path))
        elif e.kind == "host-back":
            say(e.data)
        elif e.kind == "over" and session.table is not None:  # before any line on a rematch
            say(result_line(session.table))
        elif e.kind == "rematch":
            say(e.data)
        elif e.kind == "cheat":  # named with evidence this program checked; the game goes on
            say(f"{e.data} (evidence checked by this program)")
        elif e.kind == "evidence":
            say(f"evidence: {e.data}")

    bot = LateBot(session, game_bot) if game_bot else None
    # a host restarting as the join starts is waited for a few seconds (1 + 2 + 4)
    runner = PeerRunner(session, host, port, bot, on_event, pace=pace, retries=retries,
                        first_tries=FIRST_TRIES, give_up=give_up)

    async def play() -> None:
        loop = asyncio.get_running_loop()
        quits = (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM))
        def leave() -> None:
            again = runner.left
            runner.leave()
            if runner.session.leaving and not again:  # down: it reconnects to say so
                say(f"leaving: telling the host (at most {LEAVE_TRY:g} s; again to quit now)")

        for sig in quits:  # quitting (or a closed terminal) tells the host first
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, leave)
        await runner.run()

    try:
        asyncio.run(play())
    except PeerGone as e:
        if session.seat is not None:  # the host had taken it in, then went away
            say(host_gone_line(f"{host}:{port}", save_transcript(session.table, None)))
        else:
            say(f"error: {e}")
        return exit_status(session, gave_up=e.gave_up)
    save_refused(session.table, session.refused, say)
    if session.state is PeerState.OVER:
        assert session.table is not None
        save_transcript(session.table, say)
        return exit_status(session, record_ok=end_audit(session.table, say))
    if runner.left:
        say("you left the game; the host and the other players were told" if runner.told else
            "you left the game; the host could not be told (it did not answer)")
        save_transcript(session.table, say)
        return EXIT_FAILED
    say(f"error: {session.error}")
    save_transcript(session.table, say)
    return exit_status(session)
