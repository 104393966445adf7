"""Headless host and join, as the command line runs them: set up, play, save, report.

``host_game`` and ``join_game`` return an exit status (0: the game ended normally; ``join_game``:
1 the game could not be played, 3 a cheat was found, ``EXIT_GAVE_UP`` it gave up trying to join
or rejoin) and talk to the user only through ``say`` (one line at a time; a joiner's lines are
made printable first, since names and reasons come from the host). The transcript is saved under
``$XDG_DATA_HOME/palazzo/games/`` and its path said at the end, also after a failure (it is the
evidence of a detected cheat); a saved game never replaces another. The player's own seat keeps
its journal under ``$XDG_DATA_HOME/palazzo/journal/`` (``net.session.journal``), so that a
program restarted mid-game rejoins it and sends again exactly what it had signed; the host's bots
keep theirs in memory (their keys live as long as the program).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from net.session.code import new_code
from net.session.host import HostRunner
from net.session.journal import Journal
from net.session.peer import PeerGone, run_peer
from net.session.sessions import HostSession, PeerEvent, PeerSession
from net.session.table import Table
from net.session.verify import printable_line, verify_bytes
from net.wire import transcript as files
from net.wire.errors import CheatDetected
from net.wire.identity import Identity

DEFAULT_PORT = 7342
#: ``join_game``'s exit status when it gave up trying to join or rejoin (``palazzo join --help``)
EXIT_GAVE_UP = 5
Say = Callable[[str], None]


@dataclass
class HostSettings:
    game: str
    players: int
    options: dict[str, Any]
    port: int = DEFAULT_PORT
    bind: str | None = None
    seat: bool = True
    bots: int = 0
    bot: str = "greedy"
    open: bool = False
    turn_timeout: float | None = None
    on_timeout: str = "forfeit"
    #: let every seat ask the coach for a hint (carried in the start entry: all peers see it)
    allow_hints: bool = False
    name: str = "host"
    #: resume an unfinished hosted game: ``None`` the one that matches if exactly one (see
    #: ``net.session.resume.choose``), a game id prefix that one; ``new`` never resumes
    resume: str | None = None
    new: bool = False


def lan_address() -> str:
    """This machine's address on its LAN (no packet is sent), or 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def save_transcript(table: Table | None, say: Say) -> None:
    """Save a game's transcript (if it started) and say where."""
    if table is None or not table.transcript.entries or not table.game_id:
        return
    path = files.save(table.transcript, files.file_name(table.game, table.started, table.game_id))
    say(f"transcript: {path}")


def end_audit(table: Table, say: Say) -> bool:
    """The audit at the end: every entry was checked as it arrived; the whole record is now read
    again from scratch as an observer would (``verify``), so that nothing a peer's own table took
    on trust goes unchecked. Says the verdict; ``False`` if the record does not check out."""
    again = verify_bytes(table.transcript.to_bytes())
    if again.ok:
        say(f"audit: {table.result()['verdict']} (every signature, proof and move checked as it "
            "arrived, and the whole record again from scratch)")
        return True
    say(f"audit: the record does not check out: {again.text}")
    return False


def result_line(table: Table) -> str:
    r = table.result()
    if r.get("end") == "forfeit":
        return f"game over: {r['text']}"
    names = [s.name for s in table.seats]
    scores = ", ".join(f"{names[i]} {x}" for i, x in enumerate(r["scores"]))
    winners = " and ".join(names[w] for w in r["winners"])
    return f"game over ({r['text']}): {scores}; winner: {winners}"


def make_host(s: HostSettings) -> tuple[HostSession, str | None]:
    """The host session for these settings, and its game code (``None`` with ``open``);
    ``ValueError`` for settings that cannot make a game."""
    from engine.registry import get_game

    entry = get_game(s.game)
    config = entry.rules.make_config(s.players, s.options)
    local = (1 if s.seat else 0) + s.bots
    if local > s.players:
        raise ValueError(f"{local} local seats for a game of {s.players}")
    entry.make_bot(s.bot, random.Random(0))  # an unknown bot name fails here, before the network
    identity = Identity.load_or_create()
    code = None if s.open else new_code()
    session = HostSession(identity, s.game, config, code=code, turn_timeout=s.turn_timeout,
                          on_timeout=s.on_timeout, allow_hints=s.allow_hints)
    return session, code


def hosted(s: HostSettings, say: Say) -> tuple[HostSession, str | None, list[bytes], HostSettings]:
    """The host session for ``s``: an unfinished game of this host resumed from its record
    (``net.session.resume``), or a new one that keeps its record; with its code, the seeds of
    the bots' keys and the settings in force (a resumed game's own, but for port and bind)."""
    from net.session import resume

    identity = Identity.load_or_create()
    record = None
    if not s.new:
        record = resume.choose(resume.unfinished(identity.public_key), s.game, s.players,
                               s.resume)
    if record is None and s.resume:
        raise ValueError(f"no unfinished game of this host to resume with {s.resume!r}")
    if record is not None:
        session = resume.resume_session(identity, record)
        r = record.settings
        say(f"resuming game {record.game_id.hex()} at entry {len(session.table.transcript)}")
        resume.keep_record(session, r, record=record)
        kept = {f.name: r[f.name] for f in dataclasses.fields(HostSettings)
                if f.name in r and f.name not in ("port", "bind", "resume", "new")}
        return session, r.get("code"), list(r.get("bot_seeds", [])), dataclasses.replace(s, **kept)
    session, code = make_host(s)
    seeds = [os.urandom(32) for _ in range(s.bots)]
    settings = {**dataclasses.asdict(s), "code": code, "bot_seeds": seeds}
    resume.keep_record(session, settings)
    return session, code, seeds, s


def join_line(s: HostSettings, port: int, code: str | None) -> str:
    """The line to give to friends."""
    address = s.bind if s.bind not in (None, "", "0.0.0.0", "::") else lan_address()
    return f"palazzo join {address}:{port}" + (f" --code {code}" if code else "")


def host_game(s: HostSettings, say: Say) -> int:
    from engine.registry import get_game

    session, code, bot_seeds, s = hosted(s, say)
    entry = get_game(s.game)
    identity = session.identity

    logged = 0

    def tell() -> None:
        nonlocal logged
        for line in session.table.log[logged:]:
            say(line)
        logged = len(session.table.log)

    async def main() -> None:
        runner = HostRunner(session, tell)
        started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(runner.run(s.bind, s.port, started))
        done, _ = await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
        line = join_line(s, started.result()[0][1], code)
        say(f"hosting {entry.rules.title} for {s.players} players; key {identity.fingerprint}")
        say(f"give this line to your friends: {line}")
        if s.seat:
            me = PeerSession(identity, s.name, code,
                             journal=Journal.for_identity(identity.public_key))
            runner.add_local(me, entry.make_bot(s.bot, random.Random()))
        for i, seed in enumerate(bot_seeds):
            key = Identity(seed)
            bot = PeerSession(key, f"bot-{i + 1} ({s.bot})", code,
                              journal=Journal.for_identity(key.public_key))
            runner.add_local(bot, entry.make_bot(s.bot, random.Random()))
        await task

    handler = _SayHandler(say)
    logging.getLogger("palazzo.net").addHandler(handler)
    logging.getLogger("palazzo.net").setLevel(logging.INFO)
    try:
        asyncio.run(main())
    except OSError as e:
        raise ValueError(f"cannot listen on port {s.port}: {e.strerror or e}") from None
    finally:
        logging.getLogger("palazzo.net").removeHandler(handler)
    tell()
    say(result_line(session.table))
    save_transcript(session.table, say)
    return 0


class _SayHandler(logging.Handler):
    def __init__(self, say: Say) -> None:
        super().__init__()
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        self.say(record.getMessage())


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a HOST:PORT address: {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def _printable_lines(say: Say) -> Say:
    def printable(line: str) -> None:
        say(printable_line(line))

    return printable


def join_game(address: str, code: str | None, name: str, game_bot: str | None, say: Say,
              verbose: bool = False) -> int:
    say = _printable_lines(say)
    host, port = parse_address(address)
    identity = Identity.load_or_create()
    session = PeerSession(identity, name, code,
                          journal=Journal.for_identity(identity.public_key))
    bots: dict[str, Any] = {}

    class SeatBot:
        """Builds the bot of the named kind once the game is known (from the start entry)."""

        def choose(self, view: Any, seat: int) -> Any:
            from engine.registry import get_game

            assert session.table is not None and game_bot is not None
            if "bot" not in bots:
                bots["bot"] = get_game(session.table.game).make_bot(game_bot, random.Random())
            return bots["bot"].choose(view, seat)

    last_lobby = [""]
    told = [0]

    def on_event(e: PeerEvent) -> None:
        if e.kind == "log":
            told[0] += 1
            if verbose or told[0] <= 2:  # the game and its seats; the seed
                say(e.data)
        elif e.kind == "lobby":
            seats = ", ".join(f"{x['name']} [{x['fp']}]" + ("" if x["online"] else " (away)")
                              for x in e.data.get("seats", []))
            line = f"lobby {len(e.data.get('seats', []))}/{e.data.get('players')}: {seats}"
            if line != last_lobby[0]:
                say(line)
                last_lobby[0] = line
        elif e.kind == "disconnected":
            say("connection lost; rejoining")
        elif e.kind == "host-gone":
            say("the host is gone; trying again ...")

    say(f"joining {host}:{port} as {name} (key {identity.fingerprint})")
    try:
        asyncio.run(run_peer(session, host, port, SeatBot() if game_bot else None, on_event))
    except PeerGone as e:
        say(f"error: {e}")
        save_transcript(session.table, say)
        return EXIT_GAVE_UP if e.gave_up else 1
    if session.state == "over":
        assert session.table is not None
        say(result_line(session.table))
        save_transcript(session.table, say)
        return 0 if end_audit(session.table, say) else 3
    err = session.error
    if isinstance(err, CheatDetected):
        say(f"error: {err}")
        save_transcript(session.table, say)
        return 3
    say(f"error: {err}")
    save_transcript(session.table, say)
    return 1
