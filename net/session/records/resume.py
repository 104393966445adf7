"""The host's own record of the games it hosts, and a host that restarts resuming one.

A host keeps, for every game it has started, a folder
``$XDG_DATA_HOME/palazzo/hosting/<game id, 32 hex>/`` (default ``~/.local/share/...``):

=============  ==================================================================================
file           content
=============  ==================================================================================
``settings``   a msgpack map: ``host`` (its public key), ``game``, ``players``, and whatever the
               caller needs to run the game again (``net.session.commands.hosting``: code, timeouts, port,
               bind, its own seat, the bots' kind and their 32-byte key seeds); written once,
               atomically, mode 0600 (the bots' keys are in it)
``entries``    ``transcript.MAGIC`` then one msgpack array ``[body, sig]`` per accepted entry, in
               order: appended and fsync'd before the entry goes to any peer (a seat's entry
               may be written while the host checks it: then its last array may be one the
               host refused or never finished checking, which it never relayed)
``finished``   empty: the game reached its end; it is never resumed
=============  ==================================================================================

Rules:

* ``keep_record(session, settings)`` makes the folder when the ``start`` is written and appends
  every entry the session relays, before it is sent: what a peer holds, the record holds. A
  seat's post is written as soon as it arrives and its fsync runs on a thread while the
  observer table checks it (``HostSession.on_check``); the relay waits for the fsync, and an
  entry the table refuses is cut off the file again (``HostRecord.abort``). A kill at any moment
  leaves a readable prefix: ``HostRecord.entries`` reads whole arrays and stops at a torn last
  one.
* ``resume_session`` builds a ``HostSession`` from a record: each saved entry goes through the
  observer table's ``accept`` again (a record that does not check out is refused, naming the
  entry), the seats are those of the start, all away until they say hello with their keys, and
  the turn clock starts afresh (the seat due gets its whole time again). Peers that come back
  are served what they lack from their ``have``; to them nothing changed but the connection.
  Only the last entry may fail its check and be left out (it was being checked when the host
  stopped, so no peer got it: its author, if honest, sends it again); the file is then cut
  after the entries that stand, as it is after a torn last one, so that what the resumed host
  appends follows them.
* ``choose`` picks the record to resume: with a prefix, the one unfinished game of this host
  whose id starts with it; without, the one unfinished game of this game and number of players,
  if exactly one (``None`` if none; ``ValueError`` when the choice is not clear).
"""

from __future__ import annotations

import contextlib
import logging
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack

from engine.registry import get_game
from net.session.features.presence import DEFAULT_GRACE
from net.session.machines.entries import Phase
from net.session.machines.host_session import HostSession
from net.wire.errors import HOST, CheatDetected, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import MAGIC, Entry, data_dir, pack, record_unpacker, unpack

log = logging.getLogger("palazzo.net")


_SYNC: ThreadPoolExecutor | None = None  # the thread that fsyncs entries begun ahead


def _syncer() -> ThreadPoolExecutor:
    global _SYNC
    if _SYNC is None:
        _SYNC = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palazzo-record")
    return _SYNC


def hosting_dir() -> Path:
    return data_dir().parent / "hosting"


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class HostRecord:
    """One hosted game's folder (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        settings = unpack((folder / "settings").read_bytes())
        if not isinstance(settings, dict):
            raise ValueError(f"{folder / 'settings'} holds no settings")
        self.settings: dict[str, Any] = settings
        self._file: Any = None
        #: an entry written ahead of its check: its bytes, the file's size before it, and its
        #: fsync under way
        self._ahead: tuple[bytes, int, Future[None]] | None = None
        self._ends: list[int] = []  # where each entry read by ``entries`` ends in the file

    @property
    def game_id(self) -> bytes:
        return bytes.fromhex(self.folder.name)

    @classmethod
    def create(cls, game_id: bytes, settings: dict[str, Any], base: Path | None = None) -> HostRecord:
        folder = (base or hosting_dir()) / game_id.hex()
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

    def _open(self) -> Any:
        if self._file is None:
            self._file = open(self.folder / "entries", "ab")  # noqa: SIM115 (kept open)
        return self._file

    def begin(self, entry: Entry) -> None:
        """Write ``entry`` now and fsync it on a thread, while the host checks it: ``append``
        then waits for that fsync, ``abort`` cuts the entry off again."""
        self._settle()
        f = self._open()
        data = pack([entry.body, entry.sig])
        size = os.fstat(f.fileno()).st_size
        f.write(data)
        f.flush()
        self._ahead = (data, size, _syncer().submit(os.fsync, f.fileno()))

    def append(self, entry: Entry) -> None:
        """``entry`` is in the file and on the disk when this returns."""
        data = pack([entry.body, entry.sig])
        ahead = self._ahead
        if ahead is not None and ahead[0] == data:  # written ahead: its fsync must be done
            self._ahead = None
            ahead[2].result()
            return
        self._settle()
        f = self._open()
        f.write(data)
        f.flush()
        os.fsync(f.fileno())

    def abort(self) -> None:
        """The entry begun ahead was refused: cut it off the file (on the disk too)."""
        ahead, self._ahead = self._ahead, None
        if ahead is None:
            return
        with contextlib.suppress(OSError):  # an fsync that failed: cut off all the same
            ahead[2].result()
        f = self._open()
        f.truncate(ahead[1])
        f.flush()
        os.fsync(f.fileno())

    def _settle(self) -> None:
        if self._ahead is not None:  # begun and never appended nor aborted: not an entry
            self.abort()

    def cut(self, count: int) -> None:
        """Cut the file after its first ``count`` entries (as ``entries`` read them)."""
        self.close()
        end = len(MAGIC) + (self._ends[count - 1] if count else 0)
        with open(self.folder / "entries", "r+b") as f:
            if os.fstat(f.fileno()).st_size > end:
                f.truncate(end)
                f.flush()
                os.fsync(f.fileno())

    def finish(self) -> None:
        (self.folder / "finished").touch()
        _fsync_dir(self.folder)
        self.close()

    def close(self) -> None:
        self._settle()
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def finished(self) -> bool:
        return (self.folder / "finished").exists()

    def entries(self) -> list[Entry]:
        """The saved entries, up to a torn last one (``ValueError`` for a file that is not a
        record at all)."""
        data = (self.folder / "entries").read_bytes()
        if not data.startswith(MAGIC):
            raise ValueError(f"{self.folder / 'entries'} is not a host record")
        unpacker = record_unpacker(len(data))
        unpacker.feed(data[len(MAGIC):])
        out: list[Entry] = []
        self._ends = []
        try:
            for item in unpacker:
                if type(item) is not list or len(item) != 2:
                    raise ValueError(f"entry {len(out)} of the record is not [body, sig]")
                out.append(Entry.parse(item[0], item[1]))
                self._ends.append(unpacker.tell())
        except msgpack.OutOfData:
            pass
        except RemoteProtocolError as e:
            raise ValueError(f"entry {len(out)} of the record: {e}") from None
        return out


def keep_record(session: HostSession, settings: dict[str, Any], base: Path | None = None,
                record: HostRecord | None = None) -> None:
    """Have ``session`` keep its record (from its start on, or in ``record`` when resumed)."""
    held: list[HostRecord] = [record] if record is not None else []

    def on_check(entry: Entry) -> Any:
        if not held:  # nothing is kept before the start
            return None
        held[0].begin(entry)
        return held[0].abort

    def on_entry(entry: Entry) -> None:
        if not held:
            if entry.kind != "start":
                return
            held.append(HostRecord.create(entry.game_id, {
                **settings, "host": session.identity.public_key, "game": session.game,
                "players": session.players}, base))
        held[0].append(entry)
        if session.table.phase is Phase.OVER:
            held[0].finish()

    session.on_check = on_check
    session.on_entry = on_entry


def unfinished(host_key: bytes, base: Path | None = None) -> list[HostRecord]:
    """This host's games that have not reached their end, oldest first."""
    folder = base or hosting_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime):
        try:
            record = HostRecord(path)
        except (OSError, ValueError, msgpack.UnpackException):
            continue
        if record.settings.get("host") == host_key and not record.finished:
            found.append(record)
    return found


def choose(records: list[HostRecord], game: str, players: int,
           prefix: str | None = None) -> HostRecord | None:
    if prefix:
        hits = [r for r in records if r.folder.name.startswith(prefix.lower())]
        if len(hits) != 1:
            what = "no" if not hits else f"{len(hits)}"
            raise ValueError(f"{what} unfinished games of this host start with {prefix!r}")
        return hits[0]
    hits = [r for r in records
            if r.settings.get("game") == game and r.settings.get("players") == players]
    if len(hits) > 1:
        ids = ", ".join(r.folder.name[:8] for r in hits)
        raise ValueError(f"{len(hits)} unfinished games of {game} for {players} ({ids}): "
                         "choose one with --resume GAME-ID, or start afresh with --new")
    return hits[0] if hits else None


def resume_session(identity: Identity, record: HostRecord, **kw: Any) -> HostSession:
    """A host session that goes on with ``record``'s game (``ValueError`` if it cannot)."""
    s = record.settings
    if s.get("host") != identity.public_key:
        raise ValueError("this game was hosted with another key")
    entries = record.entries()
    if not entries or entries[0].kind != "start":
        raise ValueError("the record holds no start")
    try:
        name = entries[0].fields["rules"]
        rules = get_game(name if isinstance(name, str) else repr(name)).rules
        config = rules.Config.from_data(entries[0].fields["config"])
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"the record's start names no game: {e}") from None
    def restored(entries: list[Entry]) -> HostSession:
        session = HostSession(identity, s["game"], config, code=s.get("code"),
                              turn_timeout=s.get("turn_timeout"),
                              on_timeout=s.get("on_timeout", "forfeit"),
                              grace=s.get("grace", DEFAULT_GRACE), **kw)
        session.restore(entries)
        return session

    try:
        session = restored(entries)
    except (RemoteProtocolError, CheatDetected) as e:
        # only a seat's last entry may be one the host was checking when it stopped
        if len(entries) < 2 or entries[-1].author == HOST:
            raise ValueError(f"the record does not check out: {e}") from None
        try:
            session = restored(entries[:-1])
        except (RemoteProtocolError, CheatDetected):
            raise ValueError(f"the record does not check out: {e}") from None
        log.warning("the record's last entry (%s) was never relayed: %s", len(entries) - 1, e)
        entries = entries[:-1]
    record.cut(len(entries))  # a torn or refused last entry: what is appended follows these
    log.info("resuming game %s at entry %s", record.game_id.hex(), len(entries))
    return session
