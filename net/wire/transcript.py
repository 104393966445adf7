"""The signed, hash-chained transcript of a game, and its file.

Rules:

* An entry is a msgpack map (its ``body`` bytes, exactly as the author encoded them) and the
  author's Ed25519 signature of ``ENTRY_TAG || body``. The body always holds
  ``v`` (the protocol version: this program writes 3 and reads 1, 2 and 3), ``game`` (16-byte game id), ``seq`` (its position, from 0), ``prev`` (the hash of
  the transcript before it), ``author`` (a seat, or -1 for the host) and ``kind``; the other
  fields depend on the kind (``docs/protocol.md``).
* A body is canonical msgpack: decoded (no map repeating a key) and encoded again with this
  module's packer (``msgpack.packb(..., use_bin_type=True)``: every integer, string, byte
  string, array and map in its shortest form) it gives back the very same bytes. So one signed
  body reads as one entry to every reader. ``decode_body`` refuses anything else, naming the
  check; the host, the peers and ``palazzo verify`` all read bodies through it.
* The game id is made by every seat (``derive_game_id``): SHA-256 over ``GAME_ID_TAG``, the
  host's key, the number of seats (1 byte), then each seat's key and fresh 32-byte nonce in seat
  order, cut to 16 bytes.
* The transcript hash starts at ``genesis(game id)`` (SHA-256 of ``GENESIS_TAG || game id``) and
  after each entry becomes ``SHA-256(previous hash || len(body) as 4 bytes || body || signature)``.
  Naming it in ``prev`` pins every entry to its game and to everything before it: a relay can
  neither reorder nor drop nor alter an entry, nor carry one into another game, without the
  authors' signatures failing to chain.
* ``Transcript.append`` checks the sequence and the chain; whose key must have signed is the
  session's knowledge (``net.session.machines.table``), which checks signatures before appending.
* The saved file is ``MAGIC`` then one msgpack array ``[body, signature]`` per entry: the exact
  signed bytes, so every peer's file of one game is byte-identical. ``save`` never replaces a
  file: a name already taken by other bytes gets a ``-2``, ``-3``, ... before its suffix.
* Everything else this program writes in msgpack (a hosted game's record and settings, a seat's
  journal and its secrets) is written by ``pack`` and read back by ``unpack`` (one
  value) or ``record_unpacker`` (a saved record's arrays): strings as ``str``, map keys ``str``
  only, no extension type. Only the wire codec (``net.wire.rpc``) and ``decode_body`` add their
  own limits.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import msgpack

from net.wire.errors import E_BAD_PARAMS, E_OUT_OF_ORDER, HOST, RemoteProtocolError
from net.wire.folders import data_dir as data_dir  # where the records are kept
from net.wire.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, Identity, verify
from net.wire.rpc import MAX_ARRAY, MAX_MAP, Fields, as_value

ENTRY_TAG = b"palazzo/entry/v1\x00"
GENESIS_TAG = b"palazzo/genesis/v1\x00"
GAME_ID_TAG = b"palazzo/game-id/v1\x00"
NONCE_SIZE = 32
MAGIC = b"palazzo transcript v1\n"
VERSION = 3
#: the versions of the records this program reads (1: the fair deck on edwards25519; 2 and 3
#: differ on the wire only, not in what an entry holds)
VERSIONS = (1, 2, 3)
GAME_ID_SIZE = 16
HASH_SIZE = 32
_HEADER = {"v": int, "game": bytes, "seq": int, "prev": bytes, "author": int, "kind": str}


def _refuse_ext(code: int, data: bytes) -> object:
    raise ValueError("extension types are not allowed")


def genesis(game_id: bytes) -> bytes:
    """The transcript hash before a game's first entry."""
    return hashlib.sha256(GENESIS_TAG + game_id).digest()


def derive_game_id(host_key: bytes, seats: list[tuple[bytes, bytes]]) -> bytes:
    """The game id from the host's key and each seat's ``(key, nonce)`` in seat order."""
    if len(seats) > 255 or len(host_key) != PUBLIC_KEY_SIZE \
            or any(len(k) != PUBLIC_KEY_SIZE or len(n) != NONCE_SIZE for k, n in seats):
        raise ValueError("a game id is made of 32-byte keys and 32-byte nonces")
    h = hashlib.sha256(GAME_ID_TAG + host_key + bytes([len(seats)]))
    for key, nonce in seats:
        h.update(key + nonce)
    return h.digest()[:GAME_ID_SIZE]


def pack(value: object) -> bytes:
    """``value`` as this program writes msgpack: every value in its shortest form."""
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def unpack(data: bytes) -> object:
    """One msgpack value this program wrote (see the rules above); ``ValueError`` for bytes that
    are not one."""
    return msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_refuse_ext)


def record_unpacker(size: int) -> msgpack.Unpacker:
    """A reader of a saved record's arrays, ``size`` bytes of them, configured as ``unpack``:
    ``feed`` it, then iterate (a torn last array ends the iteration)."""
    return msgpack.Unpacker(raw=False, strict_map_key=True, ext_hook=_refuse_ext,
                            max_buffer_size=max(size, 1 << 16))


def _unique_keys(pairs: list[tuple[object, object]]) -> dict[object, object]:
    out: dict[object, object] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"canonical msgpack check: a map repeats the key {key!r}")
        out[key] = value
    return out


def decode_body(body: bytes) -> Fields:
    """The fields of an entry body, checked for shape and canonical form; ``ValueError`` (its
    message names the check) when it is not one."""
    fields = msgpack.unpackb(
        body,
        raw=False,
        strict_map_key=True,
        ext_hook=_refuse_ext,
        max_array_len=MAX_ARRAY,
        max_map_len=MAX_MAP,
        max_ext_len=0,
        object_pairs_hook=_unique_keys,
    )
    if type(fields) is not dict:
        raise ValueError("an entry body must be a map")
    fields = as_value(fields)
    assert type(fields) is dict
    if pack(fields) != body:
        raise ValueError("canonical msgpack check: the body is not in its shortest encoding "
                         "(a value written in a longer form than needed)")
    for name, t in _HEADER.items():
        if type(fields.get(name)) is not t:
            raise ValueError(f"entry field {name!r} must be {t.__name__}")
    v, game, prev = fields["v"], fields["game"], fields["prev"]
    seq, author = fields["seq"], fields["author"]
    assert type(v) is int and type(game) is bytes and type(prev) is bytes  # just checked
    assert type(seq) is int and type(author) is int
    if v not in VERSIONS:
        raise ValueError(f"entry version {v} (this program reads {VERSIONS})")
    if len(game) != GAME_ID_SIZE or len(prev) != HASH_SIZE:
        raise ValueError("entry game id or prev hash of the wrong size")
    if seq < 0 or not HOST <= author < 16:
        raise ValueError("entry seq or author out of range")
    return fields


@dataclass(frozen=True)
class Entry:
    """One signed entry: its exact bytes and its decoded fields."""

    body: bytes
    sig: bytes
    fields: Fields = field(compare=False, repr=False)

    @classmethod
    def parse(cls, body: object, sig: object) -> Entry:
        """An entry from the wire; ``RemoteProtocolError`` when it is not well formed."""
        if type(body) is not bytes or type(sig) is not bytes or len(sig) != SIGNATURE_SIZE:
            raise RemoteProtocolError("an entry is {body: bytes, sig: 64 bytes}", E_BAD_PARAMS)
        try:
            fields = decode_body(body)
        except Exception as e:
            raise RemoteProtocolError(f"malformed entry body: {e}", E_BAD_PARAMS) from None
        return cls(body, sig, fields)

    @classmethod
    def sign(cls, identity: Identity, fields: Mapping[str, object]) -> Entry:
        body = pack({"v": VERSION, **fields})
        return cls(body, identity.sign(ENTRY_TAG, body), decode_body(body))

    def signed_by(self, public_key: bytes) -> bool:
        return verify(public_key, ENTRY_TAG, self.body, self.sig)

    # the header fields' types are checked by ``decode_body``

    @property
    def version(self) -> int:
        return _header(self.fields, "v", int)

    @property
    def game_id(self) -> bytes:
        return _header(self.fields, "game", bytes)

    @property
    def seq(self) -> int:
        return _header(self.fields, "seq", int)

    @property
    def prev(self) -> bytes:
        return _header(self.fields, "prev", bytes)

    @property
    def author(self) -> int:
        return _header(self.fields, "author", int)

    @property
    def kind(self) -> str:
        return _header(self.fields, "kind", str)

    def to_wire(self) -> Fields:
        return {"body": self.body, "sig": self.sig}


_H = TypeVar("_H", int, str, bytes)


def _header(fields: Fields, name: str, t: type[_H]) -> _H:
    value = fields[name]
    if not isinstance(value, t):  # decode_body checked it: only an Entry made by hand lacks it
        raise ValueError(f"entry field {name!r} must be {t.__name__}")
    return value


def chain(prev: bytes, entry: Entry) -> bytes:
    return hashlib.sha256(prev + struct.pack(">I", len(entry.body)) + entry.body + entry.sig).digest()


class Transcript:
    """The entries of one game in order, and the running hash (``head``: empty until the first
    entry names the game; then the hash after the last entry)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.head = b""
        self.heads: list[bytes] = []  # the head after each entry: ``heads[n - 1]`` is H(n)

    def __len__(self) -> int:
        return len(self.entries)

    def check_next(self, entry: Entry) -> None:
        """``RemoteProtocolError`` unless ``entry`` is the next one (sequence and chain)."""
        n = len(self.entries)
        if entry.seq != n:
            what = "replayed" if entry.seq < n else "ahead of the transcript"
            raise RemoteProtocolError(
                f"entry {entry.seq} is {what} (the transcript holds {n})", E_OUT_OF_ORDER
            )
        if self.entries and entry.version != self.entries[0].version:
            raise RemoteProtocolError(
                f"entry {entry.seq} is of protocol version {entry.version}, its game of "
                f"version {self.entries[0].version}", E_BAD_PARAMS)
        head = self.head if self.entries else genesis(entry.game_id)
        if entry.prev != head:
            raise RemoteProtocolError(
                f"entry {entry.seq}: chain check: it names a transcript hash that is not this one",
                E_OUT_OF_ORDER
            )

    def append(self, entry: Entry) -> None:
        self.check_next(entry)
        self.head = chain(entry.prev, entry)
        self.entries.append(entry)
        self.heads.append(self.head)

    def head_at(self, n: int) -> bytes:
        """H(n), the hash of the first ``n`` entries (0 to ``len``); ``b""`` before the first."""
        if n == 0:
            return genesis(self.entries[0].game_id) if self.entries else b""
        return self.heads[n - 1]

    def to_bytes(self) -> bytes:
        return MAGIC + b"".join(pack([e.body, e.sig]) for e in self.entries)


def file_name(game: str, started: int, game_id: bytes) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(started))
    return f"{game}-{stamp}-{game_id.hex()[:8]}.palazzo"


def save(transcript: Transcript, name: str, folder: Path | None = None) -> Path:
    """Write the transcript atomically under ``folder`` (default: the user's games folder), and
    say where. It never replaces another record: when ``name`` holds other bytes, the next free
    of ``stem-2.palazzo``, ``stem-3.palazzo``, ... is used. The same game saved again stays one
    file: the same bytes, or a part of them, leave the file as it is; the same record further
    along (the file's bytes begin it) takes the file's place at once (nothing in it is lost)."""
    folder = folder or data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = transcript.to_bytes()
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    try:
        for n in range(1, 10_000):
            path = folder / (name if n == 1 else f"{stem}-{n}{dot}{suffix}")
            try:
                os.link(tmp, path)  # fails when the name is taken: nothing is ever replaced
                return path
            except FileExistsError:
                kept = path.read_bytes()
                if data.startswith(kept):  # the same record, as far or further along
                    if kept != data:
                        os.replace(tmp, path)
                    return path
                if kept.startswith(data):  # the file already holds this and more
                    return path
        raise OSError(f"no free name for {name} in {folder}")
    finally:
        tmp.unlink(missing_ok=True)
