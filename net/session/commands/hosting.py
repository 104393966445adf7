"""Hosting and joining a networked game: what ``palazzo host``/``join`` headless
(``net.session.commands.play``) and the table (``tui.netgame``) share, written once.

* ``HostSettings`` are what ``palazzo host`` takes as flags and the host form as fields.
* ``Hosting(settings, say, on_change)`` makes the host session: an unfinished game of this host
  resumed from its record (``net.session.records.resume``; ``say`` tells which), or a new one that keeps
  its record. ``serve(seat, ...)`` listens (a port it cannot listen on is a ``ValueError`` naming
  the port), gives the line to give to friends, seats this machine's own player (``None``: it
  only relays) and its computer seats, and runs until the game is over. With
  ``settings.advertise`` it advertises the game on the LAN meanwhile (``net.session.commands.discovery``:
  the seats taken kept up to date, withdrawn at the end; a failure is one log line). Each
  computer seat has its own key, whose seed is in the record, so that a resumed game gets its
  bots back. It offers a rematch at the end (``net.session.features.rematch``; its bots, and its own seat
  played by a bot, agree at once): when every seat agrees, the old game's record is saved and
  the next game runs in a fresh session, its own record kept, with fresh sessions for this
  machine's seats (``on_rematch`` hears of the host's own).
* ``seat_session`` is every seat this program plays (the host's own, its bots, a joiner): a
  ``PeerSession`` that keeps its journal (``net.session.records.journal``).
* ``LateBot`` is a bot of a named kind built once the game is known: a joiner learns which game
  it plays only from the host's start entry.
* ``check_bot`` refuses an unknown bot name before anything touches the network.
* ``exit_status`` is how a seat's game ended, as both commands return it: ``EXIT_OK`` (0) the
  game was played to its end and its record checks out, ``EXIT_FAILED`` (1) it could not be
  played, ``EXIT_CHEAT`` (3) a cheat was detected (or the record does not check out at the end),
  ``EXIT_IN_USE`` (4) this player's key holds a seat whose program is still there (a second
  program of one player is refused: ``--identity`` gives it a player of its own),
  ``EXIT_GAVE_UP`` (5) it gave up trying to join or rejoin.
* ``save_transcript`` saves a game's signed record under ``$XDG_DATA_HOME/palazzo/games/`` (a
  saved game never replaces another) and says where; ``end_audit`` reads the whole record again
  as an observer would; ``result_line`` is the game's end in one line.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import random
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import GameAction, GameState
from engine.registry import game_names, get_game
from net.session.features import rematch
from net.session.features.code import new_code
from net.session.features.presence import DEFAULT_GRACE
from net.session.machines.entries import Phase
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession, PeerState
from net.session.machines.table import Table
from net.session.records import adopt, resume
from net.session.records.disk import check_writable, reason
from net.session.records.evidence import save_refused_entry
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.session.runners.host import HostRunner
from net.session.runners.link import SomeBot
from net.wire import transcript as files
from net.wire.errors import E_KEY_IN_USE, CheatDetected, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import Entry

if TYPE_CHECKING:  # zeroconf is imported only by a host that advertises
    from net.session.commands.discovery import Advertiser

log = logging.getLogger("palazzo.net")
DEFAULT_PORT = 7342
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CHEAT = 3
#: a second live program with a seated key, refused (``net.session.features.limits``, a held seat)
EXIT_IN_USE = 4
#: ``palazzo join``'s exit status when it gave up trying to join or rejoin (``palazzo join --help``)
EXIT_GAVE_UP = 5
#: the game ended, but its record is one side's: some seat did not sign its end (a forfeit,
#: or a host that showed seats different histories; ``Table.agreed``)
EXIT_ONE_SIDE = 6
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
    #: ``net.session.records.resume.choose``), a game id prefix that one; ``new`` never resumes
    resume: str | None = None
    new: bool = False
    #: a player's saved record of this host's game, to resume it from when the host's own
    #: record is lost or damaged (``net.session.records.adopt``)
    resume_from: str | None = None
    #: the host's identity (``net.wire.identity.identity_path``): ``None`` the account's key
    identity: str | None = None
    #: advertise the game on the LAN (``net.session.commands.discovery``); ``palazzo host`` and the host
    #: form do unless told not to
    advertise: bool = False
    #: seconds the others wait for the seat due once it dropped out, then it forfeits
    #: (``net.session.features.presence``)
    grace: float = DEFAULT_GRACE


def check_bot(name: str, game: str | None = None) -> None:
    """``ValueError`` unless ``name`` is a bot of ``game`` (with no game: of any game)."""
    if game is not None:
        get_game(game).check_bot(name)
    elif not any(name in get_game(g).bot_names() for g in game_names()):
        raise ValueError(f"unknown bot {name!r} (sim --bots lists the names)")


def seat_session(identity: Identity, name: str, code: str | None,
                 auto_ready: bool = True, host_fingerprint: str | None = None) -> PeerSession:
    """A seat this program plays, keeping its journal; with ``host_fingerprint`` (a host
    found on the LAN) it refuses a host whose key has another fingerprint."""
    return PeerSession(identity, name, code, auto_ready=auto_ready,
                       journal=Journal.for_identity(identity.public_key),
                       host_fingerprint=host_fingerprint)


class LateBot:
    """The bot ``name`` (the game's default bot with none) for ``session``'s seat, made the
    first time it must decide, when the game is known."""

    def __init__(self, session: PeerSession, name: str | None = None) -> None:
        self.session = session
        self.name = name
        self.bot: SomeBot | None = None

    def choose(self, view: GameState, seat: int) -> GameAction:
        if self.bot is None:
            assert self.session.table is not None
            entry = get_game(self.session.table.game)
            self.bot = entry.make_bot(self.name or entry.default_bot, random.Random())
        return self.bot.choose(view, seat)


class SeatState(Protocol):
    """What ``exit_status`` reads of a seat's session (or of a relay's view of the host's)."""

    @property
    def state(self) -> str: ...

    @property
    def error(self) -> Exception | None: ...

    @property
    def table(self) -> Table | None: ...


def exit_status(session: SeatState, gave_up: bool = False, record_ok: bool = True) -> int:
    """How the game of ``session`` ended, as an exit status (see the module's rules);
    ``record_ok`` is the audit at the end."""
    if session.state is PeerState.OVER and session.table is not None:
        if not record_ok:
            return EXIT_CHEAT
        return EXIT_OK if session.table.agreed()[0] else EXIT_ONE_SIDE
    if isinstance(session.error, CheatDetected):
        return EXIT_CHEAT
    if isinstance(session.error, RemoteProtocolError) and session.error.code == E_KEY_IN_USE:
        return EXIT_IN_USE
    return EXIT_GAVE_UP if gave_up else EXIT_FAILED


def lan_address() -> str:
    """This machine's address on its LAN (no packet is sent), or 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a HOST:PORT address: {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def join_line(s: HostSettings, port: int, code: str | None) -> str:
    """The line to give to friends."""
    address = s.bind if s.bind not in (None, "", "0.0.0.0", "::") else lan_address()
    return f"palazzo join {address}:{port}" + (f" --code {code}" if code else "")


def save_transcript(table: Table | None, say: Say | None) -> Path | None:
    """Save a game's transcript (if it started) and say where (``say`` ``None``: only give
    the path)."""
    if table is None or not table.transcript.entries or not table.game_id:
        return None
    try:
        path: Path = files.save(table.transcript,
                                files.file_name(table.game, table.started, table.game_id))
    except OSError as e:
        if say is not None:
            say(f"cannot save the record: {reason(e)} (in {files.data_dir()})")
        return None
    if say is not None:
        say(f"transcript: {path}")
    return path


def save_refused(table: Table | None, refused: list[Entry], say: Say) -> None:
    """Keep each entry shown refused (that this table refused too) as evidence: the record up
    to it, then the entry, a file ``palazzo verify`` names its author from (the session kept
    it when it found it: the same bytes stay one file)."""
    for entry in refused:
        try:
            where = save_refused_entry(table, entry)
        except OSError as e:
            say(f"cannot save the evidence: {reason(e)} (in {files.data_dir()})")
            continue
        if where is not None:
            say(f"evidence: {where}")


def host_gone_line(address: str, path: Path | None) -> str:
    """What a joiner whose host went away without a goodbye says, in one line."""
    saved = f"; the record so far is saved in {path}" if path is not None else ""
    return f"The host at {address} went away{saved}"


def end_audit(table: Table, say: Say) -> bool:
    """The audit at the end: every entry was checked as it arrived; the whole record is now read
    again from scratch as an observer would (``verify``), so that nothing a peer's own table took
    on trust goes unchecked. Says the verdict; ``False`` if the record does not check out."""
    again = verify_bytes(table.transcript.to_bytes())
    if again.ok:
        say(f"audit: {table.result()['verdict']} (every signature, proof and move checked as it "
            "arrived, and the whole record again from scratch)")
        say(f"record: {table.agreed()[1]}")
        return True
    say(f"audit: the record does not check out: {again.text}")
    return False


def standing(rules: Any, view: Any, players: int,
             forfeited: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A game a forfeit cut short: every seat's score as it stood (the rules' count of what is on
    the table, which every seat sees alike) and the best of those that did not forfeit; ``None``
    before anything is scored (a forfeit in the seed phases)."""
    try:
        scores = tuple(int(x) for x in rules.scores(view))
    except Exception:  # no deal yet: nothing scored
        return None
    if len(scores) != players:
        return None
    rest = [s for s in range(players) if s not in forfeited]
    best = max((scores[s] for s in rest), default=0)
    return scores, tuple(s for s in rest if scores[s] == best)


def result_line(table: Table) -> str:
    """How the game ended, in one line: every seat's score and the winner; after a forfeit, why
    it stopped, the scores as the game stood then (what every seat sees on the table), and the
    best of those that did not forfeit, as the end screen tells it."""
    r = table.result()
    names = [s.name for s in table.seats]
    if r.get("end") == "forfeit":
        line = f"game over: {r['text']}"
        forfeited = [int(s) for s in r.get("forfeited", ())]
        found = standing(table.rules, table.view, len(names), forfeited)
        if found is None:
            return line
        stood, ahead = found
        scores = ", ".join(f"{names[i]} {x}" + (" (forfeited)" if i in forfeited else "")
                           for i, x in enumerate(stood))
        line += f"; the scores as it stood: {scores}"
        if ahead:
            line += "; ahead: " + " and ".join(names[i] for i in ahead)
        return line
    scores = ", ".join(f"{names[i]} {x}" for i, x in enumerate(r["scores"]))
    winners = " and ".join(names[w] for w in r["winners"])
    return f"game over ({r['text']}): {scores}; winner: {winners}"


def make_host(s: HostSettings) -> tuple[HostSession, str | None]:
    """A new host session for these settings, and its game code (``None`` with ``open``);
    ``ValueError`` for settings that cannot make a game."""
    entry = get_game(s.game)
    config = entry.rules.make_config(s.players, s.options)
    local = (1 if s.seat else 0) + s.bots
    if local > s.players:
        raise ValueError(f"{local} local seats for a game of {s.players}")
    check_bot(s.bot, s.game)  # an unknown bot name fails here, before the network
    identity = Identity.load_or_create(spec=s.identity)
    code = None if s.open else new_code()
    session = HostSession(identity, s.game, config, code=code, turn_timeout=s.turn_timeout,
                          on_timeout=s.on_timeout, allow_hints=s.allow_hints, grace=s.grace)
    return session, code


def pending(s: HostSettings) -> resume.HostRecord | None:
    """The unfinished game of this host that ``s`` would resume (``ValueError`` when the choice
    is not clear): what the host form asks about before it hosts."""
    identity = Identity.load_or_create(spec=s.identity)
    return resume.choose(resume.unfinished(identity.public_key), s.game, s.players, s.resume)


def pending_text(record: resume.HostRecord) -> str:
    """What the host form says of an unfinished game before it asks what to do."""
    r = record.settings
    try:
        title = get_game(str(record.game)).rules.title
    except (KeyError, ValueError):
        title = str(record.game)
    lost = record.lost_game
    what = (f"an unfinished game of {title} for {record.players} whose record lost its start "
            f"(game {lost.hex()[:8]}: its players give it back)" if lost is not None else
            f"an open lobby of {title} for {record.players}" if record.lobby else
            f"an unfinished game of {title} for {record.players} "
            f"(game {record.game_id.hex()[:8]}, {len(record.entries())} entries)")
    limit = r.get("turn_timeout")
    details = [f"turn limit {limit:g} s" if limit else "no turn limit"]
    if r.get("code"):
        details.append(f"code {r['code']}")
    text = f"This host has {what}: {', '.join(details)}."
    if record.damage:
        text += f" Its record is damaged: {'; '.join(record.damage)}."
        if (not record.lobby or lost is not None) and not record.served():
            text += (" A player's record of the game can take its place (the file a join "
                     "saves when its host is gone, checked fully first).")
    if record.served():
        return text + " Another program serves it now: host a new game, or go back."
    return text + (" Resume it (its own settings, the same code), or host a new game with "
                   "the settings on the form?")


def hosted(s: HostSettings, say: Say) -> tuple[HostSession, str | None, list[bytes], HostSettings]:
    """The host session for ``s`` (``_hosted``), with its code, the seeds of the bots' keys and
    the settings in force."""
    session, code, seeds, kept, _ = _hosted(s, say)
    return session, code, seeds, kept


def _hosted(s: HostSettings, say: Say) -> tuple[HostSession, str | None, list[bytes],
                                                 HostSettings, resume.HostRecord]:
    """The host session for ``s``: an unfinished game (or lobby) of this host resumed from its
    record (``net.session.records.resume``), said in one line with how to host a new one
    instead; or, with ``new`` or none to resume, a new one whose record is made at once (a host
    killed in its lobby comes back with its code). The data folder is checked first
    (``net.session.records.disk``), and the record is locked: one game, one program."""
    check_writable()
    identity = Identity.load_or_create(spec=s.identity)
    unknown: list[resume.HostRecord] = []
    records = resume.unfinished(identity.public_key, unknown=unknown)
    for r in unknown:
        say(f"a damaged host record was left as it is, {r.folder}: {'; '.join(r.damage)}")
    record = None
    if s.resume_from:
        own = {"grace": s.grace, "name": s.name, "seat": s.seat}
        record, line = adopt.adopt(identity, s.resume_from, own)
        say(line)
    elif not s.new:
        record = resume.choose(records, s.game, s.players, s.resume)
    if record is None and s.resume:
        raise ValueError(f"no unfinished game of this host to resume with {s.resume!r}")
    if record is not None:
        record.lock()
        return (*_resumed(s, record, identity, say), record)
    for old in records:  # --new: a game left unfinished is resumed only when named again
        if old.game == s.game and old.players == s.players and not old.served():
            old.set_aside()
    session, code = make_host(s)
    seeds = [os.urandom(32) for _ in range(s.bots)]
    return session, code, seeds, s, _new_record(s, session, code, seeds)


def _new_record(s: HostSettings, session: HostSession, code: str | None,
                seeds: list[bytes]) -> resume.HostRecord:
    """The record of a new game's lobby, made and locked now, kept from then on."""
    first = {"host": session.identity.public_key, "game": session.game,  # a settings file
             "players": session.players, "code": code, "grace": s.grace,  # cut short keeps
             "bot_seeds": seeds}  # these (``net.session.records.resume``)
    settings = {**first, **dataclasses.asdict(s), **first}
    try:
        record = resume.HostRecord.create(os.urandom(16), settings)
    except OSError as e:
        raise ValueError(f"cannot write the host's record in {resume.hosting_dir()}: "
                         f"{reason(e)}") from None
    record.lock()
    record.fresh = True
    resume.keep_record(session, settings, record=record)
    return record


FRESH = "to host a new game instead, add --new"


def _resumed(s: HostSettings, record: resume.HostRecord, identity: Identity,
             say: Say) -> tuple[HostSession, str | None, list[bytes], HostSettings]:
    """The session of ``record``'s lobby or game, said in one line (and its damage in another)."""
    r = record.settings
    kept = {f.name: r[f.name] for f in dataclasses.fields(HostSettings)
            if f.name in r and f.name not in ("port", "bind", "resume", "new", "identity",
                                               "advertise", "resume_from")}
    settings = dataclasses.replace(s, **kept)
    seeds = list(r.get("bot_seeds", []))
    if record.lobby:
        if "code" not in r:
            raise ValueError(f"the host's record {record.folder} is damaged "
                             f"({'; '.join(record.damage)}) and holds no game: {FRESH}")
        entry = get_game(settings.game)
        config = entry.rules.make_config(settings.players, settings.options)
        session = HostSession(identity, settings.game, config, code=r["code"],
                              turn_timeout=settings.turn_timeout,
                              on_timeout=settings.on_timeout, allow_hints=settings.allow_hints,
                              grace=settings.grace)
        lost = record.lost_game
        if lost is not None:  # the game started, and its record lost its start
            session.lost_game = lost
            record.cut(0)
            say(f"the host's record of game {lost.hex()[:8]} is damaged: "
                f"{'; '.join(record.damage) or 'its entries are lost'}. Nothing of it was kept: "
                f"the first player of that game to rejoin gives it back, each entry checked; "
                f"{FRESH}")
        else:
            say(f"back in the lobby this host opened before it stopped (the same code: the same "
                f"join line lets the players in); {FRESH}")
            if record.damage:
                costs = record.settings_lost()
                if "bot_seeds" not in r:  # nothing was played yet: new keys cost nothing
                    seeds = [os.urandom(32) for _ in range(settings.bots)]
                    costs = [c for c in costs if c != resume.COSTS["bot_seeds"]]
                    costs.append("the keys of the host's computer seats (new ones are made: "
                                 "no game was played yet)")
                say(f"the host's record of its lobby is damaged: {'; '.join(record.damage)}"
                    + (f". Lost: {'; '.join(costs)}" if costs else ""))
        resume.keep_record(session, r, record=record)
        return session, r["code"], seeds, settings
    session = resume.resume_session(identity, record,
                                    **({} if "grace" in r else {"grace": settings.grace}))
    n = len(session.table.transcript)
    resume.keep_record(session, r, record=record)
    say(f"resuming game {record.game_id.hex()} at entry {n} (this host's unfinished game of "
        f"{record.game} for {record.players}); {FRESH}")
    if record.damage:
        costs = record.settings_lost()
        say(f"the host's record of game {record.game_id.hex()[:8]} is damaged: "
            f"{'; '.join(record.damage)}. Kept entries 0 to {n - 1}, each checked again; the "
            "players give back what they hold when they rejoin"
            + (f". Lost: {'; '.join(costs)}" if costs else ""))
    return session, session.code, seeds, settings


class Hosting:
    """One hosted game: the host session (``hosted``), its ``HostRunner`` (``on_change`` is
    called after every burst of traffic), and the seats this machine plays."""

    def __init__(self, settings: HostSettings, say: Say,
                 on_change: Callable[[], None] | None = None) -> None:
        self.session, self.code, self.bot_seeds, self.settings, self.record = _hosted(settings,
                                                                                  say)
        self.say = say
        self.entry = get_game(self.settings.game)
        self.runner = HostRunner(self.session, on_change)
        self.runner.rematch = self._rematch
        self.games = 1
        #: called with the host's own seat of each rematch (``None``: it takes none)
        self.on_rematch: Callable[[PeerSession | None], None] | None = None
        self._own: tuple[PeerSession | None, Any, Any] = (None, None, None)

    @property
    def title(self) -> str:
        return f"{self.entry.rules.title} for {self.settings.players}"

    def own_seat(self, auto_ready: bool = True) -> PeerSession | None:
        """The host's own seat (``None`` for a host that only relays)."""
        if not self.settings.seat:
            return None
        return seat_session(self.session.identity, self.settings.name, self.code, auto_ready)

    def make_bot(self, name: str | None = None) -> Any:
        """A bot of this game: ``name``, or the game's default."""
        return self.entry.make_bot(name or self.entry.default_bot, random.Random())

    async def serve(self, seat: PeerSession | None, bot: Any = None, fallback: Any = None,
                    listening: Callable[[str], None] | None = None) -> None:
        """Listen, tell ``listening`` the line to give to friends, seat ``seat`` (played by
        ``bot``, or by hand with ``fallback`` for a turn let pass) and the computer seats, and
        run until the game is over."""
        s = self.settings
        started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(self.runner.run(s.bind, s.port, started))
        await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            try:
                task.result()
            except OSError as e:
                if self.record.fresh and self.session.table.phase is Phase.LOBBY:
                    self.record.finish()  # a lobby that never opened: nothing to resume
                self.record.unlock()
                raise ValueError(f"cannot listen on port {s.port}: {e.strerror or e}") from None
        port = started.result()[0][1]
        if listening is not None:
            listening(join_line(s, port, self.code))
        advert = self._advertise(port) if s.advertise else None
        self._own = (seat, bot, fallback)
        self._seat_here(seat)
        self.runner.pump()
        try:
            await task
        finally:
            if advert is not None:
                await advert.close()
            if self.session.closed and self.session.table.phase is Phase.LOBBY:
                self.record.finish()  # a lobby closed on purpose: nothing to resume
            self.record.unlock()

    def _seat_here(self, seat: PeerSession | None) -> None:
        """Seat this machine's own player and its computer seats, and offer a rematch."""
        s, (_, bot, fallback) = self.settings, self._own
        automatic = []
        if seat is not None:
            seat.rematch.wanted, seat.rematch.auto = True, bot is not None
            if bot is not None:
                automatic.append(seat.identity.public_key)
            self.runner.add(seat, bot, fallback=fallback)
        for i, seed in enumerate(self.bot_seeds):
            key = Identity(seed)  # kept in the host's record: a resumed game has its bots back
            peer = seat_session(key, f"bot-{i + 1} ({s.bot})", self.code)
            peer.rematch.auto = True
            automatic.append(key.public_key)
            self.runner.add(peer, self.make_bot(s.bot))
        self.session.rematch.offer(automatic)

    def _advertise(self, port: int) -> Advertiser | None:
        """Advertise this game on the LAN, the seats taken kept up to date after every burst
        of traffic (``net.session.commands.discovery``); a failure is one log line, the game goes on."""
        try:
            from net.session.commands import discovery

            s, session = self.settings, self.session
            offer = discovery.Offer(
                s.game, s.players, len(session.seats), s.name, session.identity.fingerprint,
                self.code is not None, port, discovery.own_addresses(s.bind))
            advert = discovery.Advertiser(offer)
            advert.start()
        except Exception as e:
            log.warning("the game is not advertised on the LAN: %s", e)
            return None
        told = self.runner.on_change

        def changed() -> None:
            advert.seated(len(self.session.seats))  # the session of a rematch too
            if told is not None:
                told()

        self.runner.on_change = changed
        return advert

    def _rematch(self, old: HostSession) -> None:
        """Every seat agreed: save the old game's record, start the next on the same port."""
        self.say(result_line(old.table))
        save_transcript(old.table, self.say)
        self.games += 1
        self.say(f"every seat agreed to a rematch: game {self.games} starts")
        self.session = rematch.next_host(old)
        self.record.unlock()
        self.record = _new_record(self.settings, self.session, self.code, self.bot_seeds)
        self.runner.host = self.session
        own, _, _ = self._own
        if own is not None:
            own = seat_session(own.identity, own.name, self.code)
            own.expect = rematch.Expected.of(old.table)
            self._own = (own, *self._own[1:])
        self._seat_here(own)
        if self.on_rematch is not None:
            self.on_rematch(own)
