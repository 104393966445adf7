"""The host's own record of the games it hosts, and a host that restarts resuming one.

A host keeps, for every game it has started, a folder
``$XDG_DATA_HOME/palazzo/hosting/<game id, 32 hex>/`` (default ``~/.local/share/...``):

=============  ==================================================================================
file           content
=============  ==================================================================================
``settings``   a msgpack map: ``host`` (its public key), ``game``, ``players``, and whatever the
               caller needs to run the game again (``net.session.hosting``: code, timeouts, port,
               bind, its own seat, the bots' kind and their 32-byte key seeds); written once,
               atomically, mode 0600 (the bots' keys are in it)
``entries``    ``transcript.MAGIC`` then one msgpack array ``[body, sig]`` per accepted entry, in
               order: appended and fsync'd before the entry goes to any peer
``finished``   empty: the game reached its end; it is never resumed
=============  ==================================================================================

Rules:

* ``keep_record(session, settings)`` makes the folder when the ``start`` is written and appends
  every entry the session relays, before it is sent: what a peer holds, the record holds. A kill
  at any moment leaves a readable prefix: ``HostRecord.entries`` reads whole arrays and stops at
  a torn last one.
* ``resume_session`` builds a ``HostSession`` from a record: each saved entry goes through the
  observer table's ``accept`` again (a record that does not check out is refused, naming the
  entry), the seats are those of the start, all away until they say hello with their keys, and
  the turn clock starts afresh (the seat due gets its whole time again). Peers that come back
  are served what they lack from their ``have``; to them nothing changed but the connection.
* ``choose`` picks the record to resume: with a prefix, the one unfinished game of this host
  whose id starts with it; without, the one unfinished game of this game and number of players,
  if exactly one (``None`` if none; ``ValueError`` when the choice is not clear).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import msgpack

from engine.registry import get_game
from net.session.presence import DEFAULT_GRACE
from net.session.sessions import HostSession
from net.wire.errors import CheatDetected, RemoteProtocolError
from net.wire.identity import Identity
from net.wire.transcript import MAGIC, Entry, data_dir, pack, record_unpacker, unpack

log = logging.getLogger("palazzo.net")


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
        self.settings: dict[str, Any] = unpack((folder / "settings").read_bytes())
        self._file: Any = None

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

    def append(self, entry: Entry) -> None:
        if self._file is None:
            self._file = open(self.folder / "entries", "ab")  # noqa: SIM115 (kept open)
        self._file.write(pack([entry.body, entry.sig]))
        self._file.flush()
        os.fsync(self._file.fileno())

    def finish(self) -> None:
        (self.folder / "finished").touch()
        _fsync_dir(self.folder)
        self.close()

    def close(self) -> None:
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
        try:
            for item in unpacker:
                if type(item) is not list or len(item) != 2:
                    raise ValueError(f"entry {len(out)} of the record is not [body, sig]")
                out.append(Entry.parse(item[0], item[1]))
        except msgpack.OutOfData:
            pass
        except RemoteProtocolError as e:
            raise ValueError(f"entry {len(out)} of the record: {e}") from None
        return out


def keep_record(session: HostSession, settings: dict[str, Any], base: Path | None = None,
                record: HostRecord | None = None) -> None:
    """Have ``session`` keep its record (from its start on, or in ``record`` when resumed)."""
    held: list[HostRecord] = [record] if record is not None else []

    def on_entry(entry: Entry) -> None:
        if not held:
            if entry.kind != "start":
                return
            held.append(HostRecord.create(entry.fields["game"], {
                **settings, "host": session.identity.public_key, "game": session.game,
                "players": session.players}, base))
        held[0].append(entry)
        if session.table.phase == "over":
            held[0].finish()

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
        rules = get_game(entries[0].fields["rules"]).rules
        config = rules.Config.from_data(entries[0].fields["config"])
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"the record's start names no game: {e}") from None
    session = HostSession(identity, s["game"], config, code=s.get("code"),
                          turn_timeout=s.get("turn_timeout"),
                          on_timeout=s.get("on_timeout", "forfeit"),
                          grace=s.get("grace", DEFAULT_GRACE), **kw)
    try:
        session.restore(entries)
    except (RemoteProtocolError, CheatDetected) as e:
        raise ValueError(f"the record does not check out: {e}") from None
    log.info("resuming game %s at entry %s", record.game_id.hex(), len(entries))
    return session
