"""A seat's journal: what its identity contributed to games and signed in them, kept locally.

A seat writes each entry it signs here before it sends it, so that after a reconnect, or after its
program restarts, it sends the very same bytes again and never signs two different entries for
one place of a transcript (a host that swallowed a post could otherwise hold two versions and
have the seat named as an equivocator). The journal also tells the seat's table which entries in
its name are its own (an entry signed by its key that is not here was not written for this game)
and which ``start`` entries are its own live games: the nonces it contributed in a ``hello``,
the game each went into, and the games it has finished.

Rules:

* ``contribute(nonce)`` before the ``hello`` that carries the nonce; ``bind(nonce, game, head)``
  when a ``start`` carrying it is accepted (``head``: the transcript hash after that start): a
  nonce goes into one game only, under one start. ``live(nonce, game, head)`` says whether a
  ``start`` of ``game`` naming this seat's ``nonce`` may be followed: the nonce is one this
  identity contributed, not bound to another game nor to another start, and the game is not
  finished.
* ``write(game, entry)`` before the entry is sent; a second, different entry for one place is a
  ``LocalProtocolError`` (it is never written). ``entry(game, seq)`` reads it back.
* ``finish(game)`` once the seat is done with a game: its end reached, or the seat stopped on a
  detected cheat. A finished game's ``start`` is never followed again.

``Journal()`` keeps all this in memory (a bot whose key dies with the program, tests);
``Journal.for_identity(key)`` keeps it in files, under
``$XDG_DATA_HOME/palazzo/journal/<public key, 64 hex digits>/`` (default
``~/.local/share/palazzo/journal/...``):

=============================  ==================================================================
file                           content
=============================  ==================================================================
``nonces/<nonce, 64 hex>``     empty: contributed in a hello, in no game yet; or the 16-byte id of
                               the game it went into and the 32-byte transcript hash after that
                               game's start (48 bytes)
``<game id, 32 hex>/<seq>``    the msgpack array ``[body, sig]`` of the entry this seat signed at
                               ``seq`` (decimal), exactly as sent
``<game id, 32 hex>/finished`` empty: the seat has finished this game
=============================  ==================================================================

Every file is written atomically: to a temporary name in its folder, flushed and fsync'd, renamed
into place, and the folder fsync'd. An entry file is never replaced. A write that fails (a full or
read-only disk) never stops the seat: what it held is kept in memory (the journal answers from
memory as before), ``trouble`` says ``cannot save: <reason>`` (``net.session.records.disk``), and
every file not yet written is written at the next write that succeeds.
"""

from __future__ import annotations

import os
from pathlib import Path

from net.session.records.disk import Trouble
from net.wire.errors import LocalProtocolError
from net.wire.transcript import GAME_ID_SIZE, HASH_SIZE, NONCE_SIZE, Entry, pack, unpack

_FREE = b""  # a nonce contributed and not yet in a game
_BOUND = GAME_ID_SIZE + HASH_SIZE


def journal_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "journal"


class Journal:
    """One identity's record of its contributions and entries (see the module docstring)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self._nonces: dict[bytes, bytes] = {}
        self._entries: dict[bytes, dict[int, Entry]] = {}
        self._finished: set[bytes] = set()
        self._loaded: set[bytes] = set()
        self.trouble = Trouble()
        self._unsaved: dict[Path, bytes] = {}  # files a failed write left to write, in order
        if folder is not None:
            self._load_nonces()

    @classmethod
    def for_identity(cls, public_key: bytes, base: Path | None = None) -> Journal:
        """The file journal of the identity with ``public_key`` (under ``base``, default
        ``journal_dir()``)."""
        return cls((base or journal_dir()) / public_key.hex())

    # -- contributions ------------------------------------------------------------------------

    def contribute(self, nonce: bytes) -> None:
        if len(nonce) != NONCE_SIZE:
            raise LocalProtocolError(f"a contribution is {NONCE_SIZE} bytes")
        if nonce in self._nonces:
            return
        self._nonces[nonce] = _FREE
        self._store(Path("nonces") / nonce.hex(), _FREE)

    def live(self, nonce: bytes, game: bytes, head: bytes) -> str | None:
        """``None`` if a start of ``game`` naming this seat's ``nonce``, with the transcript
        hash ``head`` after it, may be followed; else why not (in plain words)."""
        bound = self._nonces.get(nonce)
        if bound is None:
            return "it does not carry a nonce this seat contributed"
        if bound != _FREE and bound[:GAME_ID_SIZE] != game:
            return "it carries this seat's nonce of another game"
        if self.finished(game):
            return "it is the start of a game this seat has finished"
        if bound != _FREE and bound[GAME_ID_SIZE:] != head:
            return "it is another start than the one of this game this seat joined"
        return None

    def bind(self, nonce: bytes, game: bytes, head: bytes) -> None:
        why = self.live(nonce, game, head)
        if why is not None:
            raise LocalProtocolError(f"the nonce cannot go into this game: {why}")
        if self._nonces[nonce] == _FREE:
            self._nonces[nonce] = game + head
            self._store(Path("nonces") / nonce.hex(), game + head)

    # -- entries ------------------------------------------------------------------------------

    def entry(self, game: bytes, seq: int) -> Entry | None:
        """The entry this seat signed at ``seq`` in ``game``, if any."""
        return self._game(game).get(seq)

    def entries(self, game: bytes) -> dict[int, Entry]:
        """Every entry this seat signed in ``game``, by seq."""
        return dict(self._game(game))

    def write(self, game: bytes, entry: Entry) -> None:
        """Keep ``entry`` (before it is sent); ``LocalProtocolError`` if another is held there."""
        held = self._game(game).get(entry.seq)
        if held is not None:
            if held.body != entry.body:
                raise LocalProtocolError(
                    f"this seat already signed another entry for place {entry.seq} of this game")
            return
        self._store(Path(game.hex()) / str(entry.seq),
                    pack([entry.body, entry.sig]))
        self._entries[game][entry.seq] = entry

    # -- finished games -----------------------------------------------------------------------

    def finish(self, game: bytes) -> None:
        if game in self._finished:
            return
        self._store(Path(game.hex()) / "finished", b"")
        self._finished.add(game)

    def finished(self, game: bytes) -> bool:
        self._game(game)
        return game in self._finished

    # -- files ----------------------------------------------------------------------------------

    def _game(self, game: bytes) -> dict[int, Entry]:
        if game not in self._loaded:
            self._loaded.add(game)
            self._entries.setdefault(game, {})
            if self.folder is not None:
                self._load_game(game)
        return self._entries[game]

    def _load_nonces(self) -> None:
        assert self.folder is not None
        folder = self.folder / "nonces"
        if not folder.is_dir():
            return
        for path in folder.iterdir():
            try:
                nonce = bytes.fromhex(path.name)
            except ValueError:
                continue  # a temporary file, or something that is not ours
            data = path.read_bytes()
            if len(nonce) == NONCE_SIZE and len(data) in (0, _BOUND):
                self._nonces[nonce] = data

    def _load_game(self, game: bytes) -> None:
        assert self.folder is not None
        folder = self.folder / game.hex()
        if not folder.is_dir():
            return
        for path in folder.iterdir():
            if path.name == "finished":
                self._finished.add(game)
            elif path.name.isdigit():
                item = unpack(path.read_bytes())
                body, sig = item if isinstance(item, list) and len(item) == 2 else (None, None)
                entry = Entry.parse(body, sig)
                if entry.seq == int(path.name) and entry.game_id == game:
                    self._entries[game][entry.seq] = entry

    def _store(self, name: Path, data: bytes) -> None:
        """Write one file atomically, after those a failed write left (a memory journal writes
        nothing); a failure is kept in ``trouble``, the file in memory."""
        if self.folder is None:
            return
        self._unsaved[name] = data
        try:
            for waiting, content in list(self._unsaved.items()):
                self._write(waiting, content)
                del self._unsaved[waiting]
        except OSError as e:
            self.trouble.failed("this seat's journal", e)
            return
        self.trouble.cleared()

    def _write(self, name: Path, data: bytes) -> None:
        assert self.folder is not None
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
