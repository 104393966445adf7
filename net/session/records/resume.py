"""The host's own record of the games it hosts, and a host that restarts resuming one.

A host keeps, for every game it opens, a folder ``$XDG_DATA_HOME/palazzo/hosting/<32 hex>/``
(default ``~/.local/share/...``; the name is the game id for a record made at the start, a
random id for one made when the lobby opens):

=============  ==================================================================================
file           content
=============  ==================================================================================
``settings``   a msgpack map: ``host`` (its public key), ``game``, ``players``, and whatever the
               caller needs to run the game again (``net.session.commands.hosting``: code,
               timeouts, port, bind, its own seat, the bots' kind and their 32-byte key seeds);
               written once, atomically, mode 0600 (the bots' keys are in it)
``entries``    ``transcript.MAGIC`` then one msgpack array ``[body, sig]`` per accepted entry, in
               order: appended and fsync'd before the entry goes to any peer
``game``       the 16-byte id of the game, written when its start is (a record that loses its
               start still knows which game to take back from a player)
``finished``   empty: the game reached its end, or its lobby was closed; it is never resumed
``aside``      empty: the host chose to host a new game instead (``--new``); resumed only when
               named (``--resume GAME-ID-PREFIX``)
``lock``       empty: the program serving the game holds an exclusive ``flock`` on it
=============  ==================================================================================

Rules:

* ``keep_record(session, settings, record=...)`` appends every entry the session relays, before
  it is sent: what a peer holds, the record holds. A seat's post is checked by the observer
  table before anything is written for it. Without ``record`` the folder is made when the start
  is written. A kill at any moment leaves a readable prefix.
* **A write that fails** (a full or read-only disk) never ends the game and names nobody: the
  entry stays in memory, goes to the peers, and is written, with every one after it, at the next
  write or tick that succeeds (``flush``); meanwhile ``trouble.text`` is ``cannot save: <reason>``
  (``net.session.records.disk``), which the host tells every seat.
* **One game, one program**: ``lock()`` takes the record's lock for this process, or raises
  ``ValueError`` naming the game when another program serves it.
* **Damage is reported, never hidden**: ``HostRecord`` reads a record whose settings cannot be
  read whole, keeping every field before the damage (the owner, game and seats, if lost, come
  from its start entry; ``settings_lost`` says what the rest cost: ``COSTS``), and ``entries``
  reads up to the first entry that is torn or unreadable; ``damage`` says in plain words what was
  lost and what was kept. The settings are written with the fields that matter most first (the
  host, the game, the code, the grace, the bots' keys), so a cut file keeps those. ``resume_session`` checks every kept entry again with the observer table and keeps
  the longest prefix that checks out (the rest, if any, is reported and cut off the file). A seat
  that holds more gives it back when it rejoins (``HostSession._supply``), each entry checked
  as any other.
* ``resume_session`` builds a ``HostSession`` from a record: the seats are those of the start,
  all away until they say hello with their keys, and the turn clock runs from when the last
  entry was saved (``written_at``, the entries file's time of change; one clock across
  restarts, ``net.session.features.acks.resumed_since``). Peers that
  come back are served what they lack from their ``have``.
* ``choose`` picks the record to resume: with a prefix, the one unfinished game of this host
  whose id starts with it; without, the one unfinished game of this game and number of players
  not set aside, if exactly one (``None`` if none; ``ValueError`` when the choice is not clear).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from pathlib import Path
from typing import Any

import msgpack

from engine.registry import get_game
from net.session.features.code import new_code
from net.session.features.presence import DEFAULT_GRACE
from net.session.machines.entries import Phase
from net.session.machines.host_session import HostSession
from net.session.records.disk import Trouble
from net.wire.errors import HOST, CheatDetected, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import MAGIC, Entry, data_dir, pack, record_unpacker, unpack

log = logging.getLogger("palazzo.net")

#: the records this process serves: their folder -> the descriptor holding the lock
_LOCKS: dict[Path, int] = {}


def hosting_dir() -> Path:
    return data_dir().parent / "hosting"


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: what a lost field of the settings costs (``settings_lost``); a field not named here comes
#: from the start entry or from the command line
COSTS = {
    "code": "the game code (a new one is made: the players of a game under way need none)",
    "bot_seeds": "the keys of the host's computer seats (they cannot come back)",
    "grace": f"the grace (the one given now is used: --grace, {DEFAULT_GRACE:g} s by default)",
}


def _whole_fields(path: Path) -> dict[str, Any]:
    """The fields of a settings map read up to where it is cut or garbled: every whole pair
    before the damage (nothing if the map's header itself is gone)."""
    out: dict[str, Any] = {}
    try:
        unpacker = record_unpacker(path.stat().st_size)
        unpacker.feed(path.read_bytes())
        for _ in range(unpacker.read_map_header()):
            key, value = unpacker.unpack(), unpacker.unpack()
            if type(key) is not str:
                break
            out[key] = value
    except Exception:  # the damage: what came before it is kept
        pass
    return out


class HostRecord:
    """One hosted game's folder (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._settings_damage: list[str] = []
        self._entries_damage: list[str] = []
        try:
            settings = unpack((folder / "settings").read_bytes())
            if type(settings) is not dict:
                raise ValueError("not a map")
        except FileNotFoundError:
            if not (folder / "entries").exists():
                raise
            settings = {}
            self._settings_damage.append("its settings file is missing")
        except Exception as e:  # torn or garbled: the entries may still say whose game it is
            if not (folder / "entries").exists():
                raise ValueError(f"{folder} is not a host record") from None
            settings = _whole_fields(folder / "settings")
            kept = ", ".join(settings) or "none"
            self._settings_damage.append(f"its settings cannot be read whole ({e}); kept the "
                                         f"fields before the damage: {kept}")
        self.settings: dict[str, Any] = settings
        self.trouble = Trouble()
        self._fd: int | None = None
        self._good = 0  # the size of the file after the last entry written whole
        self._pending: list[bytes] = []  # entries not yet on the disk (a write failed)
        self._finish = False  # the end reached, its mark not yet on the disk
        self._ends: list[int] = []  # where each entry read by ``entries`` ends in the file
        self._read: list[Entry] | None = None
        self.fresh = False  # made by this program (a new lobby), not resumed

    @classmethod
    def create(cls, name: bytes, settings: dict[str, Any], base: Path | None = None) -> HostRecord:
        """A new record in the folder ``name`` (16 bytes: the game id, or a random id for a
        lobby), with ``settings`` and no entry."""
        folder = (base or hosting_dir()) / name.hex()
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / ".settings.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pack(settings))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / "settings")
        with open(folder / "entries", "wb") as f:
            f.write(MAGIC)
            f.flush()
            os.fsync(f.fileno())
        _fsync_dir(folder)
        return cls(folder)

    # -- what it holds ----------------------------------------------------------------------

    def _start(self) -> Entry | None:
        if self._read is None:
            with contextlib.suppress(OSError):
                self.entries()
        read = self._read or []
        return read[0] if read and read[0].kind == "start" else None

    @property
    def game_id(self) -> bytes:
        start = self._start()
        return start.game_id if start is not None else bytes.fromhex(self.folder.name)

    @property
    def owner(self) -> bytes | None:
        """The host key whose game this is (from the settings, or else the start)."""
        key = self.settings.get("host")
        if type(key) is bytes:
            return key
        start = self._start()
        host = start.fields.get("host") if start is not None else None
        return host if type(host) is bytes else None

    @property
    def game(self) -> str | None:
        start = self._start()
        rules = start.fields.get("rules") if start else None
        return self.settings.get("game") or (rules if type(rules) is str else None)

    @property
    def players(self) -> int | None:
        start = self._start()
        seats = start.fields.get("seats") if start else None
        return self.settings.get("players") or (len(seats) if type(seats) is list else None)

    @property
    def lost_game(self) -> bytes | None:
        """The game whose start this record lost (its ``game`` file says one started), if so."""
        if not self.lobby:
            return None
        try:
            game = (self.folder / "game").read_bytes()
        except OSError:
            return None
        return game if len(game) == 16 else None

    def mark_game(self, game: bytes) -> None:
        """Note which game started in this record (a failure is only logged)."""
        try:
            (self.folder / "game").write_bytes(game)
        except OSError as e:
            log.warning("the host's record does not name its game: %s", e)

    @property
    def lobby(self) -> bool:
        """No game started in it yet: its lobby only."""
        return self._start() is None

    @property
    def damage(self) -> list[str]:
        """What is wrong with this record, in plain words (empty: nothing)."""
        self._start()  # the entries read, if they were not
        return self._settings_damage + self._entries_damage

    def settings_lost(self) -> list[str]:
        """What a damaged settings file cost, in plain words (``COSTS``; empty: nothing)."""
        if not self._settings_damage:
            return []
        return [cost for key, cost in COSTS.items() if key not in self.settings]

    @property
    def finished(self) -> bool:
        return (self.folder / "finished").exists()

    @property
    def aside(self) -> bool:
        return (self.folder / "aside").exists()

    def entries(self) -> list[Entry]:
        """The saved entries, up to the first torn or unreadable one (``damage`` then says
        where the file stops being read)."""
        data = (self.folder / "entries").read_bytes()
        self._entries_damage = []
        self._ends = []
        out: list[Entry] = []
        self._read = out
        if not data.startswith(MAGIC):
            if not MAGIC.startswith(data):
                self._entries_damage.append("its entries file does not begin as a host record")
            return out
        unpacker = record_unpacker(len(data))
        unpacker.feed(data[len(MAGIC):])
        try:
            for item in unpacker:
                if type(item) is not list or len(item) != 2:
                    self._entries_damage.append(f"entry {len(out)} is not [body, sig]")
                    break
                out.append(Entry.parse(item[0], item[1]))
                self._ends.append(unpacker.tell())
        except msgpack.OutOfData:
            pass
        except RemoteProtocolError as e:
            self._entries_damage.append(f"entry {len(out)} cannot be read ({e})")
        except (ValueError, msgpack.UnpackException):
            self._entries_damage.append(f"entry {len(out)} cannot be read (not msgpack)")
        rest = len(data) - len(MAGIC) - (self._ends[-1] if self._ends else 0)
        if rest and not self._entries_damage:
            self._entries_damage.append(f"its entries file stops in the middle of entry "
                                        f"{len(out)} ({rest} bytes)")
        return out

    # -- one program at a time ----------------------------------------------------------------

    def lock(self) -> None:
        """Hold this record's lock for as long as this process lives; ``ValueError`` when
        another program holds it."""
        if self.folder in _LOCKS:
            return
        fd = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            what = "the lobby" if self.lobby else f"game {self.game_id.hex()[:8]}"
            raise ValueError(
                f"{what} of {self.game} for {self.players} is being served by another palazzo "
                "host with this identity (one game, one program): stop that one first, or host "
                "another game with --new") from None
        _LOCKS[self.folder] = fd

    def unlock(self) -> None:
        """This process serves the record no more."""
        fd = _LOCKS.pop(self.folder, None)
        if fd is not None:
            os.close(fd)

    def served(self) -> bool:
        """Whether a program holds this record's lock now."""
        if self.folder in _LOCKS:
            return True
        try:
            fd = os.open(self.folder / "lock", os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # closing it lets the lock go
        return False

    def set_aside(self) -> None:
        """The host chose a new game over this one: it is resumed only when named."""
        with contextlib.suppress(OSError):
            (self.folder / "aside").touch()

    # -- writing ------------------------------------------------------------------------------

    def append(self, entry: Entry) -> None:
        """Write ``entry`` (after every entry still waiting): on the disk when this returns,
        unless the disk fails (``trouble`` then says why; it waits for the next ``flush``)."""
        self._pending.append(pack([entry.body, entry.sig]))
        self.flush()

    def flush(self) -> bool:
        """Write what waits (entries, the end's mark); whether everything is on the disk."""
        try:
            if self._pending:
                fd = self._descriptor()
                if os.fstat(fd).st_size != self._good:  # a write that failed half-way
                    os.ftruncate(fd, self._good)
                data = memoryview(b"".join(self._pending))
                while data:
                    data = data[os.write(fd, data):]
                os.fsync(fd)
                self._good = os.fstat(fd).st_size
                self._pending.clear()
            if self._finish:
                (self.folder / "finished").touch()
                _fsync_dir(self.folder)
                self._finish = False
                self.close()
        except OSError as e:
            self.trouble.failed(f"the host's record of game {self.folder.name[:8]}", e)
            return False
        self.trouble.cleared()
        return True

    @property
    def waiting(self) -> bool:
        """Something is not on the disk yet."""
        return bool(self._pending) or self._finish

    def _descriptor(self) -> int:
        if self._fd is None:
            self._fd = os.open(self.folder / "entries", os.O_WRONLY | os.O_APPEND)
            self._good = os.fstat(self._fd).st_size
        return self._fd

    def cut(self, count: int) -> None:
        """Cut the file after its first ``count`` entries (as ``entries`` read them)."""
        self.close()
        if count == 0:  # nothing stands: a fresh file, whatever was there
            with open(self.folder / "entries", "wb") as f:
                f.write(MAGIC)
                f.flush()
                os.fsync(f.fileno())
            return
        end = len(MAGIC) + self._ends[count - 1]
        with open(self.folder / "entries", "r+b") as f:
            if os.fstat(f.fileno()).st_size > end:
                f.truncate(end)
                f.flush()
                os.fsync(f.fileno())

    @property
    def written_at(self) -> float | None:
        """When an entry was last saved (wall-clock seconds: the entries file's time of
        change), the start of the turn under way for a restarted host; ``None`` if unknown."""
        try:
            return os.stat(self.folder / "entries").st_mtime
        except OSError:
            return None

    def finish(self) -> None:
        self._finish = True
        self.flush()

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def keep_record(session: HostSession, settings: dict[str, Any], base: Path | None = None,
                record: HostRecord | None = None) -> None:
    """Have ``session`` keep its record (from its start on, or in ``record``: a resumed game,
    or a lobby whose record was made when it opened)."""
    held: list[HostRecord] = [record] if record is not None else []

    def on_entry(entry: Entry) -> None:
        if not held:
            if entry.kind != "start":
                return
            held.append(HostRecord.create(entry.game_id, {
                **settings, "host": session.identity.public_key, "game": session.game,
                "players": session.players}, base))
        held[0].append(entry)
        if entry.kind == "start":
            held[0].mark_game(entry.game_id)
        if session.table.phase is Phase.OVER:
            held[0].finish()
        _tell(held[0])

    def on_tick() -> None:
        if held and held[0].waiting:
            held[0].flush()
            _tell(held[0])

    def _tell(r: HostRecord) -> None:
        if r.trouble.changed:
            r.trouble.changed = False
            session.disk_trouble(r.trouble.text)

    session.on_entry = on_entry
    session.on_tick = on_tick


def unfinished(host_key: bytes, base: Path | None = None,
               unknown: list[HostRecord] | None = None) -> list[HostRecord]:
    """This host's games that have not reached their end, oldest first (damaged ones too,
    when their entries say whose they are; those that say nothing go in ``unknown``)."""
    folder = base or hosting_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime):
        try:
            record = HostRecord(path)
            record.entries()
        except (OSError, ValueError, msgpack.UnpackException):
            continue
        if record.owner == host_key and not record.finished:
            found.append(record)
        elif record.owner is None and not record.finished and unknown is not None:
            unknown.append(record)
    return found


def choose(records: list[HostRecord], game: str, players: int,
           prefix: str | None = None) -> HostRecord | None:
    if prefix:
        hits = [r for r in records if r.folder.name.startswith(prefix.lower())
                or r.game_id.hex().startswith(prefix.lower())]
        if len(hits) != 1:
            what = "no" if not hits else f"{len(hits)}"
            raise ValueError(f"{what} unfinished games of this host start with {prefix!r}")
        return hits[0]
    hits = [r for r in records if r.game == game and r.players == players and not r.aside]
    if len(hits) > 1:
        ids = ", ".join(r.folder.name[:8] for r in hits)
        raise ValueError(f"{len(hits)} unfinished games of {game} for {players} ({ids}): "
                         "choose one with --resume GAME-ID, or start afresh with --new")
    return hits[0] if hits else None


def resume_session(identity: Identity, record: HostRecord, **kw: Any) -> HostSession:
    """A host session that goes on with ``record``'s game: every kept entry checked again, the
    longest prefix that checks out kept (``ValueError`` if not even its start does)."""
    if record.owner != identity.public_key:
        raise ValueError("this game was hosted with another key")
    entries = record.entries()
    if not entries or entries[0].kind != "start":
        raise ValueError("the record holds no start")
    start = entries[0].fields
    s = record.settings
    try:
        name = start["rules"]
        rules = get_game(name if type(name) is str else repr(name)).rules
        config = rules.Config.from_data(start["config"])
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"the record's start names no game: {e}") from None
    timeout = s.get("turn_timeout", start.get("timeout") or None)
    written = record.written_at  # before any cut: when the last entry was saved


    def restored(entries: list[Entry]) -> HostSession:
        given: dict[str, Any] = {
            "code": s["code"] if "code" in s else new_code(), "turn_timeout": timeout,
            "on_timeout": s.get("on_timeout", start.get("on_timeout", "forfeit")),
            "allow_hints": bool(s.get("allow_hints", start.get("hints", False))),
            "grace": s.get("grace", DEFAULT_GRACE), **kw}
        session = HostSession(identity, str(start["rules"]), config, **given)
        session.restore(entries, written)
        return session

    try:
        session = restored(entries)
    except (RemoteProtocolError, CheatDetected) as e:
        probe = HostSession(identity, str(start["rules"]), config)
        kept = 0
        for entry in entries:  # the longest prefix that checks out
            try:
                probe.table.accept(entry)
            except (RemoteProtocolError, CheatDetected):
                break
            kept += 1
        if kept == 0:
            raise ValueError(f"the record does not check out: {e}") from None
        last = len(entries) - 1
        if kept < last or entries[-1].author == HOST:  # more than a last post under way
            record._entries_damage.append(f"entry {kept} does not check out ({e})")
        log.warning("the record's entry %s does not check out: %s", kept, e)
        entries = entries[:kept]
        session = restored(entries)
    record.cut(len(entries))  # a torn or refused tail: what is appended follows these
    log.info("resuming game %s at entry %s", record.game_id.hex(), len(entries))
    return session
