"""Evidence against the host from how it settled an entry it relayed at once.

The rules (``docs/protocol.md``, section 8.2, "confirmed" and "withdrawn"):

* Since version 3 the host relays a seat's post at once, pending, and settles it later: it
  confirms it (``confirm {n, ack}``, its acknowledgement of the head with the entry last) or
  withdraws it (``withdraw {entry, reason, sig}``, signed under ``WITHDRAW_TAG``). An honest host
  confirms only what its table takes, and withdraws only what its table refuses.
* So an item that carries the signed record of the ``n`` entries before the entry (``record``,
  a list of ``[body, sig]``, the start first), the entry, and the host's signed settlement, names
  the host when the settlement contradicts the entry's check at its place:

  - **confirmed** (``{kind: "confirmed", record, entry {body, sig}, ack}``): ``ack`` is the
    host's acknowledgement of the ``n + 1`` entries with the entry last, and the record with the
    entry fails at the entry (``net.session.records.verify`` stops there);
  - **withdrawn** (``{kind: "withdrawn", record, entry {body, sig}, sig}``): ``sig`` is the
    host's signed withdrawal of the entry, and the record with the entry holds through it.

* The record before the entry must itself hold (every signature, chain and proof in it is
  checked again), so nobody is named for a history that was never signed.

``check_settled`` returns ``(n, reason)``, or raises ``ValueError`` naming the check that fails.
"""

from __future__ import annotations

from net.session.machines.agreement import ack_valid
from net.session.machines.relay import withdraw_valid
from net.wire.errors import RemoteProtocolError
from net.wire.rpc import Fields
from net.wire.transcript import Entry, Transcript, chain

#: the kinds of evidence this module checks
KINDS = ("confirmed", "withdrawn")


def settled(kind: str, record: list[Entry], entry: Entry, proof: bytes) -> Fields:
    """The item for ``entry``, relayed after ``record``, that the host settled against its check:
    ``proof`` is its acknowledgement (``confirmed``) or its signed withdrawal (``withdrawn``)."""
    item: Fields = {"kind": kind, "record": [[e.body, e.sig] for e in record],
                            "entry": {"body": entry.body, "sig": entry.sig}}
    item["ack" if kind == "confirmed" else "sig"] = proof
    return item


def clean_settled(item: Fields) -> Fields:
    """A checked item with nothing but its kind's fields (the asserts hold what
    ``check_settled`` found of it)."""
    kind, rows, wire = item["kind"], item["record"], item["entry"]
    proof = item["ack"] if kind == "confirmed" else item["sig"]
    assert type(kind) is str and type(rows) is list and type(wire) is dict \
        and type(proof) is bytes
    record = []
    for pair in rows:
        assert type(pair) is list
        b, s = pair
        record.append(Entry.parse(b, s))
    entry = Entry.parse(wire["body"], wire["sig"])
    return settled(kind, record, entry, proof)


def _entries(start: Entry, item: Fields) -> tuple[list[Entry], Entry]:
    record, wire = item.get("record"), item.get("entry")
    if type(record) is not list or not record or type(wire) is not dict:
        raise ValueError("evidence check: a settled item is {record, entry, ack or sig}")
    try:
        entries = [Entry.parse(*pair) for pair in record
                   if type(pair) is list and len(pair) == 2]
        entry = Entry.parse(wire.get("body"), wire.get("sig"))
    except (RemoteProtocolError, TypeError) as e:
        raise ValueError(f"evidence check: not an entry ({e})") from None
    if len(entries) != len(record) or entries[0].body != start.body or entries[0].sig != start.sig:
        raise ValueError("evidence check: the record does not begin with this game's start")
    if entry.seq != len(entries):
        raise ValueError(f"evidence check: the entry is entry {entry.seq}, not the one after "
                         f"the {len(entries)} entries of the record")
    return entries, entry


def check_settled(start: Entry, item: Fields, host: bytes) -> tuple[int, str]:
    """``(n, reason)`` of a confirmed or withdrawn item of the game ``start`` begins (``host``
    the key it names); ``ValueError`` naming the failed check when it shows nothing."""
    from net.session.records.verify import verify_bytes  # (verify reads evidence files)

    kind = item.get("kind")
    if kind not in KINDS:
        raise ValueError(f"evidence check: not a settled item ({kind!r})")
    entries, entry = _entries(start, item)
    n, game = entry.seq, start.game_id
    if kind == "confirmed":
        if not ack_valid(host, game, n + 1, chain(entry.prev, entry), item.get("ack")):
            raise ValueError(f"evidence check: no acknowledgement by the host of entry {n}")
    elif not withdraw_valid(host, game, entry, item.get("sig")):
        raise ValueError(f"evidence check: no withdrawal of entry {n} signed by the host")
    before = Transcript()
    before.entries.extend(entries)
    prior = verify_bytes(before.to_bytes())
    if prior.entries != n or prior.kind in ("cheat", "rejected", "cut-off", "not-a-record"):
        raise ValueError(f"evidence check: the record before entry {n} does not hold "
                         f"({prior.text})")
    before.entries.append(entry)
    verdict = verify_bytes(before.to_bytes())
    fails = verdict.entries == n and verdict.kind in ("cheat", "rejected")
    who = "the host" if entry.author < 0 else f"seat {entry.author}"
    if kind == "confirmed":
        if not fails:
            raise ValueError(f"evidence check: entry {n} holds at its place")
        return n, (f"settlement check: the host confirmed entry {n} of {who}, which fails at "
                   f"its place ({verdict.text})")
    if fails:
        raise ValueError(f"evidence check: entry {n} fails at its place ({verdict.text})")
    return n, (f"settlement check: the host withdrew entry {n} of {who}, which holds at its "
               "place")
