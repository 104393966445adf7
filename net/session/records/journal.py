"""A seat's journal: what its identity contributed to games and signed in them, and the game's
secrets while it lasts, kept locally.

A seat writes each entry it signs here before it sends it, so that after a reconnect, or after its
program restarts, it sends the very same bytes again and never signs two different entries for
one place of a transcript (a host that swallowed a post could otherwise hold two versions and
have the seat named as an equivocator). The journal also tells the seat's table which entries in
its name are its own and which ``start`` entries are its own live games: the nonces it
contributed in a ``hello``, the game each went into, and the games it has finished.

Rules:

* ``contribute(nonce)`` before the ``hello`` that carries the nonce; ``bind(nonce, game, head)``
  when a ``start`` carrying it is accepted (``head``: the transcript hash after that start): a
  nonce goes into one game only, under one start. ``live(nonce, game, head)`` says whether a
  ``start`` of ``game`` naming this seat's ``nonce`` may be followed: the nonce is one this
  identity contributed, not bound to another game nor to another start, and the game is not
  finished. ``lost(nonce)``: the journal cannot say (it never held the nonce, or its file is
  damaged): a fault of this machine, not anybody's cheat.
* ``write(game, entry)`` before the entry is sent; a second, different entry for one place is a
  ``LocalProtocolError`` (it is never written). ``entry(game, seq)`` reads it back.
* **Secrets** (``keep_secret``, ``secret``): a game's secrets (the seed contribution until it is
  opened, the fair deck's key secret) live only here, never in the record. Each is kept before
  the entry that needs it is signed, encrypted (ChaCha20-Poly1305, the associated data the game
  id and the slot) under a key of its own game kept apart, in ``keys/``; ``erase_secrets(game)``
  overwrites and removes that key and the secrets once the game is over, so nothing left on the
  machine opens them (forward secrecy: not even the identity key).
* ``use_talk(ctx, n)`` before a message of table talk numbered ``n`` under the contribution
  ``ctx`` is signed; ``talk_used(ctx)`` gives the last: a restarted program never signs a number
  twice (``net.session.features.chat``).
* ``finish(game)`` once the seat is done with a game: its end reached, or the seat stopped on a
  detected cheat. A finished game's ``start`` is never followed again.
* **Damage.** Every file ends with a 16-byte check, ``SHA256("palazzo/journal/v2" 00 || its name
  under the journal || 00 || content)[:16]``. A file that is cut, or has a bit flipped, fails it
  and is taken as missing; ``damaged`` lists it, so the table tells its player a fault, never a
  cheat.

``Journal()`` keeps all this in memory (a bot whose key dies with the program, tests);
``Journal.for_identity(key)`` keeps it in files, under
``$XDG_DATA_HOME/palazzo/journal/<public key, 64 hex digits>/`` (default
``~/.local/share/palazzo/journal/...``); the content of each file, before its check:

===============================  ================================================================
file                             content
===============================  ================================================================
``nonces/<nonce, 64 hex>``       empty: contributed in a hello, in no game yet; or the 16-byte id
                                 of the game it went into and the 32-byte transcript hash after
                                 that game's start (48 bytes)
``<game id, 32 hex>/<seq>``      the msgpack array ``[body, sig]`` of the entry this seat signed
                                 at ``seq`` (decimal), exactly as sent
``<game id, 32 hex>/finished``   empty: the seat has finished this game
``<game id, 32 hex>/secret-<s>`` a secret of slot ``s`` (``seed``, ``deck``): a 12-byte nonce
                                 and the ChaCha20-Poly1305 sealing of its msgpack map
``keys/<game id, 32 hex>``       the game's 32-byte secrets key (erased at the end)
``talk/<contribution, 64 hex>``  ``u32``: the last message number signed under it
===============================  ================================================================

Every file is written atomically: to a temporary name in its folder, flushed and fsync'd, renamed
into place, and the folder fsync'd (mode 0600). An entry file is never replaced. A write that
fails (a full or read-only disk) never stops the seat: what it held is kept in memory (the
journal answers from memory as before), ``trouble`` says ``cannot save: <reason>``
(``net.session.records.disk``), and every file not yet written is written at the next write that
succeeds.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from net.session.records.disk import Trouble
from net.wire.errors import LocalProtocolError
from net.wire.rpc import Fields, is_value
from net.wire.transcript import GAME_ID_SIZE, HASH_SIZE, NONCE_SIZE, Entry, pack, unpack

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305


def _aead(key: bytes) -> ChaCha20Poly1305:
    """ChaCha20-Poly1305 with ``key``, imported where a secret is sealed or opened: a process
    that keeps none (``palazzo verify``, a watcher) does not load the cipher."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    return ChaCha20Poly1305(key)


_FREE = b""  # a nonce contributed and not yet in a game
_BOUND = GAME_ID_SIZE + HASH_SIZE
CHECK_TAG = b"palazzo/journal/v2\x00"
CHECK_SIZE = 16
KEY_SIZE = 32
SLOTS = ("seed", "deck")


def journal_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "journal"


def file_check(name: str, content: bytes) -> bytes:
    """The 16 bytes that end the journal file ``name`` (its path under the journal, with
    ``/``) holding ``content``."""
    return hashlib.sha256(CHECK_TAG + name.encode() + b"\x00" + content).digest()[:CHECK_SIZE]


class Journal:
    """One identity's record of its contributions, entries and live secrets (see the module
    docstring)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self._nonces: dict[bytes, bytes] = {}
        self._entries: dict[bytes, dict[int, Entry]] = {}
        self._finished: set[bytes] = set()
        self._loaded: set[bytes] = set()
        self._secrets: dict[tuple[bytes, str], bytes] = {}  # a memory journal's, in the clear
        self._talk: dict[bytes, int] = {}
        #: the files found damaged (cut, or a bit flipped), by their names under the journal
        self.damaged: list[str] = []
        self.trouble = Trouble()
        self._unsaved: dict[str, bytes] = {}  # files a failed write left to write, in order
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
        self._store(f"nonces/{nonce.hex()}", _FREE)

    def lost(self, nonce: bytes) -> bool:
        """Whether this journal cannot say anything of ``nonce``: it never held it (another
        machine or account, a journal lost) or its file is damaged."""
        return nonce not in self._nonces

    def live(self, nonce: bytes, game: bytes, head: bytes) -> str | None:
        """``None`` if a start of ``game`` naming this seat's ``nonce``, with the transcript
        hash ``head`` after it, may be followed; else why not (in plain words)."""
        bound = self._nonces.get(nonce)
        if self.finished(game):
            return "it is the start of a game this seat has finished"
        if bound is None:
            return "it does not carry a nonce this seat contributed"
        if bound != _FREE and bound[:GAME_ID_SIZE] != game:
            return "it carries this seat's nonce of another game"
        if bound != _FREE and bound[GAME_ID_SIZE:] != head:
            return "it is another start than the one of this game this seat joined"
        return None

    def bind(self, nonce: bytes, game: bytes, head: bytes) -> None:
        """The nonce went into ``game`` (a nonce this journal had lost is taken as given)."""
        if self.lost(nonce):
            self._nonces[nonce] = _FREE
        why = self.live(nonce, game, head)
        if why is not None:
            raise LocalProtocolError(f"the nonce cannot go into this game: {why}")
        if self._nonces[nonce] == _FREE:
            self._nonces[nonce] = game + head
            self._store(f"nonces/{nonce.hex()}", game + head)

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
        self._store(f"{game.hex()}/{entry.seq}", pack([entry.body, entry.sig]))
        self._entries[game][entry.seq] = entry

    # -- secrets ------------------------------------------------------------------------------

    def keep_secret(self, game: bytes, slot: str, value: Fields) -> None:
        """Keep this seat's secret of ``slot`` for ``game`` (before the entry that needs it)."""
        plain = pack(value)
        if self.folder is None:
            self._secrets[(game, slot)] = plain
            return
        nonce = os.urandom(12)
        sealed = nonce + _aead(self._game_key(game)).encrypt(
            nonce, plain, game + b"/" + slot.encode())
        self._store(f"{game.hex()}/secret-{slot}", sealed)

    def secret(self, game: bytes, slot: str) -> Fields | None:
        """This seat's secret of ``slot`` for ``game``, or ``None`` (never kept here, erased,
        or damaged)."""
        if self.folder is None:
            plain = self._secrets.get((game, slot))
        else:
            sealed = self._read(f"{game.hex()}/secret-{slot}")
            key = self._read(f"keys/{game.hex()}")
            plain = None
            if sealed is not None and key is not None and len(key) == KEY_SIZE:
                try:
                    plain = _aead(key).decrypt(sealed[:12], sealed[12:],
                                                          game + b"/" + slot.encode())
                except Exception:
                    self.damaged.append(f"{game.hex()}/secret-{slot}")
        if plain is None:
            return None
        value = unpack(plain)  # what ``keep_secret`` packed: plain protocol data
        return value if is_value(value) and type(value) is dict else None

    def erase_secrets(self, game: bytes) -> None:
        """Forget every secret of ``game``: the key is overwritten and removed, then the
        sealed secrets (the end of the game; forward secrecy)."""
        for slot in SLOTS:
            self._secrets.pop((game, slot), None)
            self._unsaved.pop(f"{game.hex()}/secret-{slot}", None)
        self._unsaved.pop(f"keys/{game.hex()}", None)
        if self.folder is None:
            return
        key = self.folder / "keys" / game.hex()
        if key.exists():
            with open(key, "r+b") as f:
                f.write(bytes(KEY_SIZE + CHECK_SIZE))
                f.flush()
                os.fsync(f.fileno())
            key.unlink()
            _sync_dir(key.parent)
        for slot in SLOTS:
            path = self.folder / game.hex() / f"secret-{slot}"
            if path.exists():
                path.unlink()
                _sync_dir(path.parent)

    def _game_key(self, game: bytes) -> bytes:
        key = self._read(f"keys/{game.hex()}")
        if key is None or len(key) != KEY_SIZE:
            key = os.urandom(KEY_SIZE)
            self._store(f"keys/{game.hex()}", key)
        return key

    # -- table talk -----------------------------------------------------------------------------

    def talk_used(self, ctx: bytes) -> int:
        """The last message number this seat signed under the contribution ``ctx`` (0: none)."""
        if ctx not in self._talk and self.folder is not None:
            data = self._read(f"talk/{ctx.hex()}")
            self._talk[ctx] = int.from_bytes(data, "big") if data and len(data) == 4 else 0
        return self._talk.get(ctx, 0)

    def use_talk(self, ctx: bytes, n: int) -> None:
        """Message ``n`` is about to be signed under ``ctx``."""
        if n > self.talk_used(ctx):
            self._talk[ctx] = n
            self._store(f"talk/{ctx.hex()}", n.to_bytes(4, "big"))

    # -- finished games -----------------------------------------------------------------------

    def finish(self, game: bytes) -> None:
        if game in self._finished:
            return
        self._store(f"{game.hex()}/finished", b"")
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
            data = self._read(f"nonces/{path.name}")
            if len(nonce) == NONCE_SIZE and data is not None and len(data) in (0, _BOUND):
                self._nonces[nonce] = data

    def _load_game(self, game: bytes) -> None:
        assert self.folder is not None
        folder = self.folder / game.hex()
        if not folder.is_dir():
            return
        for path in folder.iterdir():
            if path.name == "finished":
                if self._read(f"{game.hex()}/finished") is not None:
                    self._finished.add(game)
            elif path.name.isdigit():
                data = self._read(f"{game.hex()}/{path.name}")
                try:
                    item = unpack(data) if data is not None else None
                    body, sig = item if isinstance(item, list) and len(item) == 2 else (None, None)
                    entry = Entry.parse(body, sig) if body is not None else None
                except Exception:  # checked, yet unreadable: damaged all the same
                    self.damaged.append(f"{game.hex()}/{path.name}")
                    entry = None
                if entry is not None and entry.seq == int(path.name) \
                        and entry.fields["game"] == game:
                    self._entries[game][entry.seq] = entry

    def _read(self, name: str) -> bytes | None:
        """The content of a file, or ``None`` when it is missing or damaged (listed)."""
        assert self.folder is not None
        if name in self._unsaved:  # a failed write left it in memory
            return self._unsaved[name]
        try:
            data = (self.folder / name).read_bytes()
        except OSError:
            return None
        content, check = data[:-CHECK_SIZE], data[-CHECK_SIZE:]
        if len(data) < CHECK_SIZE or file_check(name, content) != check:
            if name not in self.damaged:
                self.damaged.append(name)
            return None
        return content

    def _store(self, name: str, data: bytes) -> None:
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

    def _write(self, name: str, data: bytes) -> None:
        assert self.folder is not None
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data + file_check(name, data))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
