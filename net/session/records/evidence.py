"""Evidence: what names a cheat, checkable by anyone offline.

The rules (``docs/protocol.md``, section 8.2):

* A reader names somebody only with evidence signed by the one it names. There are two kinds:

  - **two heads** (``{kind: "two-heads", signer, n, a, b}``): two statements signed by one key
    (the host's, or a seat's) that give two different heads for the first ``n`` entries of one
    game. A statement is an acknowledgement ``{head, sig}`` (``net.session.machines.agreement``)
    or an entry ``{body, sig}`` of the signer's (which signs ``seq`` and ``seq + 1``). One
    history has one head per length, so the signer showed two histories.
  - **refused** (``{kind: "refused", entry: {body, sig}}``): an entry signed by its author that
    fails a named check against the signed record before it (its ``prev``). Every reader checks
    it again on its own table before it names the author; a file of it is the record up to the
    entry, then the entry (a saved transcript that ``palazzo verify`` names the author of).

* Everything else (a lost connection, a record cut short, a damaged journal, a host that
  sends what nobody signed) is a **fault**: it names nobody.
* Evidence goes to the host as the notification ``evidence``; the host checks it as every reader
  does, and relays it to every seat and watcher, who check it again before naming anyone. Each
  keeps it in a file of its own: two heads, relayed and talk items as ``EVIDENCE_MAGIC`` then
  one msgpack map ``{start: [body, sig], item: {...}}`` (the start names the keys), which
  ``palazzo verify`` checks again (``verify_evidence``).

  - **relayed** (``net.session.records.relayed``): an entry the host relayed with its
    acknowledgement of the head after it, and its acknowledgement of the head before it, where
    the entry fails a named check of its place (chain, format, sequence, game, author,
    signature). It names the host: an honest host relays only what its table took.
  - **talk** (``net.session.records.talk``): two different messages of table talk signed by one
    seat for one number. It names the seat, and stops no game.
  - **confirmed** and **withdrawn** (``net.session.records.settled``): the signed record before
    an entry relayed at once, the entry, and the host's settlement of it that contradicts the
    entry's check at its place. It names the host.

``check_evidence`` returns the finding of any kind or raises ``ValueError`` naming the check
that fails; ``clean`` gives the item with nothing but its kind's fields (what is passed on).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from net.session.machines.agreement import ack_valid, attested
from net.session.records.relayed import check_relayed, relayed
from net.session.records.settled import KINDS as SETTLED
from net.session.records.settled import check_settled, clean_settled
from net.session.records.talk import check_talk, talk
from net.wire.errors import HOST, RemoteProtocolError
from net.wire.identity import InvalidKey, check_public_key
from net.wire.rpc import Fields, Value

if TYPE_CHECKING:  # the caller's
    from net.session.machines.table import Table
from net.wire.transcript import Entry, Transcript, data_dir, file_name, pack, save, unpack

EVIDENCE_MAGIC = b"palazzo evidence v1\n"


@dataclass(frozen=True)
class Finding:
    """Who the evidence names, where, and why (one line)."""

    signer: int  # a seat, or ``HOST``
    n: int
    reason: str


def two_heads(signer: int, n: int, a: Mapping[str, Value], b: Mapping[str, Value]) -> Fields:
    return {"kind": "two-heads", "signer": signer, "n": n, "a": dict(a), "b": dict(b)}


def _keys(start: Entry) -> tuple[bytes, list[bytes]]:
    if start.kind != "start" or start.author != HOST or start.seq != 0:
        raise ValueError("evidence check: the record's first entry is not the host's start")
    host, seats = start.fields.get("host"), start.fields.get("seats")
    keys = [s.get("key") if type(s) is dict else None for s in seats] if type(seats) is list else []
    seat_keys = [k for k in keys if type(k) is bytes]
    if type(host) is not bytes or type(seats) is not list or len(seat_keys) != len(keys):
        raise ValueError("evidence check: the start names no keys")
    try:
        check_public_key(host)
    except InvalidKey as e:
        raise ValueError(f"evidence check: the host key is refused ({e})") from None
    if not start.signed_by(host):
        raise ValueError("evidence check: the start is not signed by the host key it names")
    return host, seat_keys


def _head(statement: Value, signer: int, n: int, game: bytes, key: bytes) -> bytes:
    """The head for ``n`` entries that ``statement`` is signed for by ``key``."""
    if type(statement) is not dict:
        raise ValueError("evidence check: a statement is a map")
    if "body" in statement:
        try:
            entry = Entry.parse(statement.get("body"), statement.get("sig"))
        except RemoteProtocolError as e:
            raise ValueError(f"evidence check: {e}") from None
        if entry.author != signer or entry.game_id != game or not entry.signed_by(key):
            raise ValueError("evidence check: an entry not signed by the one named, for this game")
        for m, attests in attested(entry):
            if m == n:
                return attests
        raise ValueError(f"evidence check: the entry does not give the head of {n} entries")
    head = statement.get("head")
    if type(head) is not bytes or not ack_valid(key, game, n, head, statement.get("sig")):
        raise ValueError("evidence check: an acknowledgement not signed by the one named")
    return head


def check_two_heads(start: Entry, item: Value) -> Finding:
    """The finding of a two-heads item of the game ``start`` begins; ``ValueError`` naming the
    failed check when it shows nothing."""
    if type(item) is not dict or item.get("kind") != "two-heads":
        raise ValueError("evidence check: not a two-heads item")
    signer, n = item.get("signer"), item.get("n")
    host, seats = _keys(start)
    if type(signer) is not int or type(n) is not int or not HOST <= signer < len(seats) or n < 0:
        raise ValueError("evidence check: no such signer or length")
    key = host if signer == HOST else seats[signer]
    game = start.game_id
    a = _head(item.get("a"), signer, n, game, key)
    b = _head(item.get("b"), signer, n, game, key)
    if a == b:
        raise ValueError("evidence check: the two statements give the same head")
    who = "the host" if signer == HOST else f"seat {signer}"
    return Finding(signer, n, f"two heads: {who} signed two different histories of the first "
                   f"{n} entries")


def check_evidence(start: Entry, item: Value) -> Finding:
    """The finding of an item of any kind (two heads, relayed, talk, settled) of the game ``start``
    begins; ``ValueError`` naming the failed check when it shows nothing."""
    if type(item) is not dict:
        raise ValueError("evidence check: no kind of evidence None")
    kind = item.get("kind")
    if kind == "two-heads":
        return check_two_heads(start, item)
    if kind == "relayed":
        host, seats = _keys(start)
        n, reason = check_relayed(start, item, host, seats)
        return Finding(HOST, n, reason)
    if kind == "talk":
        _, seats = _keys(start)
        seat, n, reason = check_talk(start, item, seats)
        return Finding(seat, n, reason)
    if kind in SETTLED:
        host, _ = _keys(start)
        n, reason = check_settled(start, item, host)
        return Finding(HOST, n, reason)
    raise ValueError(f"evidence check: no kind of evidence {kind!r}")


def clean(item: Fields) -> Fields:
    """A checked item with nothing but its kind's fields (what a reader passes on); the
    asserts hold what ``check_evidence`` found of it."""
    kind = item["kind"]
    if kind in SETTLED:
        return clean_settled(item)
    n = item["n"]
    assert type(n) is int
    if kind == "relayed":
        before, wire = item["before"], item["entry"]
        assert type(before) is dict and type(wire) is dict
        return relayed(n, before, wire["body"], wire["sig"], item["ack"])
    a, b = item["a"], item["b"]
    assert type(a) is dict and type(b) is dict
    who = item["signer"] if kind == "two-heads" else item["seat"]
    assert type(who) is int
    return two_heads(who, n, a, b) if kind == "two-heads" else talk(who, n, a, b)


def save_evidence(start: Entry, item: Fields, folder: Path | None = None) -> Path:
    """Keep a checked item in a file of its own (never replacing one); where."""
    folder = folder or data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    finding = check_evidence(start, item)
    data = EVIDENCE_MAGIC + pack({"start": [start.body, start.sig], "item": clean(item)})
    kind = item["kind"]
    assert type(kind) is str  # a kind ``check_evidence`` knows
    tag = "" if kind == "two-heads" else f"{kind}-"
    stem = f"evidence-{start.game_id.hex()[:8]}-{tag}{finding.signer}-{finding.n}"
    for k in range(1, 1000):
        path = folder / (f"{stem}.evidence" if k == 1 else f"{stem}-{k}.evidence")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if path.read_bytes() == data:
                return path
            continue
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        return path
    raise OSError(f"no free name for {stem} in {folder}")


def save_refused_entry(table: Table | None, entry: Entry, folder: Path | None = None) -> Path | None:
    """Keep an entry that ``table`` refused naming its author: the record up to it, then the
    entry (``<record name>-refused-<seq>.palazzo``, which ``palazzo verify`` names the author
    from); where (``None`` when the table holds no game, or less than the record before it)."""
    if table is None or entry.seq > len(table.transcript):
        return None
    if table.game_id:
        name = file_name(table.game, table.started, table.game_id)
    elif entry.seq == 0:  # a start refused: the game it names never began here
        name = f"start-{entry.game_id.hex()[:8]}.palazzo"
    else:
        return None
    record = Transcript()
    for e in table.transcript.entries[:entry.seq]:
        record.append(e)
    record.entries.append(entry)  # its sequence and chain need not hold: the table refused it
    return save(record, name.replace(".palazzo", f"-refused-{entry.seq}.palazzo"), folder)


def verify_evidence(data: bytes) -> tuple[Finding | None, str]:
    """Check an evidence file's bytes again: the finding and its line, or ``None`` and why not."""
    try:
        m = unpack(data[len(EVIDENCE_MAGIC):])
        if type(m) is not dict or type(m.get("start")) is not list or len(m["start"]) != 2:
            raise ValueError("evidence check: the file holds no start")
        start = Entry.parse(m["start"][0], m["start"][1])
        finding = check_evidence(start, m.get("item"))
    except (ValueError, RemoteProtocolError) as e:
        return None, f"rejected: {e}"
    seats = start.fields["seats"]  # a list of maps (``check_evidence`` read the keys in it)
    names = [str(s.get("name", "?")) if type(s) is dict else "?"
             for s in (seats if type(seats) is list else [])]
    who = "the host" if finding.signer == HOST else f"{names[finding.signer]} (seat {finding.signer})"
    return finding, f"cheat: {who}: {finding.reason} (evidence checked)"
