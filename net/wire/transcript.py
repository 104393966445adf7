"""The signed, hash-chained transcript of a game, and its file.

Rules:

* An entry is a msgpack map (its ``body`` bytes, exactly as the author encoded them) and the
  author's Ed25519 signature of ``ENTRY_TAG || body``. The body always holds
  ``v`` (1), ``game`` (16-byte game id), ``seq`` (its position, from 0), ``prev`` (the hash of
  the transcript before it), ``author`` (a seat, or -1 for the host) and ``kind``; the other
  fields depend on the kind (``docs/protocol.md``).
* The transcript hash starts at ``GENESIS`` and after each entry becomes
  ``SHA-256(previous hash || len(body) as 4 bytes || body || signature)``. Naming it in ``prev``
  pins every entry to everything before it: a relay can neither reorder nor drop nor alter an
  entry without the authors' signatures failing to chain.
* ``Transcript.append`` checks the sequence and the chain; whose key must have signed is the
  session's knowledge (``net.session.table``), which checks signatures before appending.
* The saved file is ``MAGIC`` then one msgpack array ``[body, signature]`` per entry: the exact
  signed bytes, so every peer's file of one game is byte-identical.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from net.wire.errors import RemoteProtocolError
from net.wire.identity import SIGNATURE_SIZE, Identity, verify
from net.wire.rpc import E_BAD_PARAMS, E_OUT_OF_ORDER, MAX_ARRAY, MAX_MAP, check_value

ENTRY_TAG = b"palazzo/entry/v1\x00"
GENESIS = hashlib.sha256(b"palazzo/transcript/v1").digest()
MAGIC = b"palazzo transcript v1\n"
VERSION = 1
GAME_ID_SIZE = 16
HASH_SIZE = 32
_HEADER = {"v": int, "game": bytes, "seq": int, "prev": bytes, "author": int, "kind": str}


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("extension types are not allowed")


def decode_body(body: bytes) -> dict[str, Any]:
    """The fields of an entry body, checked for shape; ``ValueError`` when it is not one."""
    fields = msgpack.unpackb(
        body,
        raw=False,
        strict_map_key=True,
        ext_hook=_refuse_ext,
        max_array_len=MAX_ARRAY,
        max_map_len=MAX_MAP,
        max_ext_len=0,
    )
    if type(fields) is not dict:
        raise ValueError("an entry body must be a map")
    check_value(fields)
    for name, t in _HEADER.items():
        if type(fields.get(name)) is not t:
            raise ValueError(f"entry field {name!r} must be {t.__name__}")
    if fields["v"] != VERSION:
        raise ValueError(f"entry version {fields['v']} (this program speaks {VERSION})")
    if len(fields["game"]) != GAME_ID_SIZE or len(fields["prev"]) != HASH_SIZE:
        raise ValueError("entry game id or prev hash of the wrong size")
    if fields["seq"] < 0 or not -1 <= fields["author"] < 16:
        raise ValueError("entry seq or author out of range")
    return fields


@dataclass(frozen=True)
class Entry:
    """One signed entry: its exact bytes and its decoded fields."""

    body: bytes
    sig: bytes
    fields: dict[str, Any] = field(compare=False, repr=False)

    @classmethod
    def parse(cls, body: Any, sig: Any) -> Entry:
        """An entry from the wire; ``RemoteProtocolError`` when it is not well formed."""
        if type(body) is not bytes or type(sig) is not bytes or len(sig) != SIGNATURE_SIZE:
            raise RemoteProtocolError("an entry is {body: bytes, sig: 64 bytes}", E_BAD_PARAMS)
        try:
            fields = decode_body(body)
        except Exception as e:
            raise RemoteProtocolError(f"malformed entry body: {e}", E_BAD_PARAMS) from None
        return cls(body, sig, fields)

    @classmethod
    def sign(cls, identity: Identity, fields: dict[str, Any]) -> Entry:
        body = msgpack.packb({"v": VERSION, **fields}, use_bin_type=True)
        return cls(body, identity.sign(ENTRY_TAG, body), decode_body(body))

    def signed_by(self, public_key: bytes) -> bool:
        return verify(public_key, ENTRY_TAG, self.body, self.sig)

    @property
    def seq(self) -> int:
        return self.fields["seq"]

    @property
    def author(self) -> int:
        return self.fields["author"]

    @property
    def kind(self) -> str:
        return self.fields["kind"]

    def to_wire(self) -> dict[str, bytes]:
        return {"body": self.body, "sig": self.sig}


def chain(prev: bytes, entry: Entry) -> bytes:
    return hashlib.sha256(prev + struct.pack(">I", len(entry.body)) + entry.body + entry.sig).digest()


class Transcript:
    """The entries of one game in order, and the running hash."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.head = GENESIS

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
        if entry.fields["prev"] != self.head:
            raise RemoteProtocolError(
                f"entry {entry.seq} names a transcript hash that is not this one", E_OUT_OF_ORDER
            )

    def append(self, entry: Entry) -> None:
        self.check_next(entry)
        self.entries.append(entry)
        self.head = chain(self.head, entry)

    def to_bytes(self) -> bytes:
        pack = msgpack.Packer(use_bin_type=True).pack
        return MAGIC + b"".join(pack([e.body, e.sig]) for e in self.entries)

    @classmethod
    def from_bytes(cls, data: bytes) -> Transcript:
        """A saved transcript, its sequence and chain checked (signatures are the reader's)."""
        if not data.startswith(MAGIC):
            raise ValueError("not a palazzo transcript")
        t = cls()
        unpacker = msgpack.Unpacker(raw=False, ext_hook=_refuse_ext, max_buffer_size=len(data))
        unpacker.feed(data[len(MAGIC) :])
        for item in unpacker:
            if type(item) is not list or len(item) != 2:
                raise ValueError("a transcript holds [body, signature] pairs")
            try:
                t.append(Entry.parse(item[0], item[1]))
            except RemoteProtocolError as e:
                raise ValueError(str(e)) from None
        return t


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "games"


def file_name(game: str, started: int, game_id: bytes) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(started))
    return f"{game}-{stamp}-{game_id.hex()[:8]}.palazzo"


def save(transcript: Transcript, name: str, folder: Path | None = None) -> Path:
    """Write the transcript atomically under ``folder`` (default: the user's games folder)."""
    folder = folder or data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(transcript.to_bytes())
    os.replace(tmp, path)
    return path
