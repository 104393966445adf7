"""Evidence against the host from an entry it relayed, checkable by anyone offline.

The rules (``docs/protocol.md``, section 8.2, "relayed"):

* The host signs the head after every entry it relays (``entry {body, sig, ack}``), and it
  signed, with the entry before, the head of the ``n`` entries a reader holds (``H(n)``). An
  honest host relays only entries its own table took: of this game and version, at their place,
  chained to its ``H(n)``, signed by their author.
* So ``{kind: "relayed", n, before {head, sig}, entry {body, sig}, ack}`` names the host when
  ``before`` is the host's acknowledgement of ``(n, head)``, ``ack`` its acknowledgement of the
  head of ``n + 1`` entries with ``entry`` last, and the entry fails one of these checks, named
  in the finding: **chain** (the head ``ack`` signs is written on another ``H(n)`` than
  ``before``'s: two heads of one length), **format** (not an entry), **sequence** (another
  ``seq`` than ``n``), **game** (another game or protocol version than the start's),
  **author** (no seat of the start, nor the host), **signature** (its author's key does not
  verify it).
* An entry that fails a check and comes without such signatures of the host names nobody: the
  reader says it is a fault (``net.wire.errors.Fault``) and may join again (the host sends the
  entry again).

``check_relayed`` returns the finding, or raises ``ValueError`` naming the check that fails.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping

from net.session.machines.agreement import ack_valid
from net.wire.errors import HOST, RemoteProtocolError
from net.wire.rpc import Fields, Value
from net.wire.transcript import Entry, chain


def relayed(n: int, before: Mapping[str, Value], body: Value, sig: Value, ack: Value) -> Fields:
    """The item for an entry relayed at place ``n`` (``before``: the host's acknowledgement of
    the ``n`` entries this reader holds)."""
    return {"kind": "relayed", "n": n, "before": {"head": before["head"], "sig": before["sig"]},
            "entry": {"body": body, "sig": sig}, "ack": ack}


def _after(head: bytes, body: bytes, sig: bytes) -> bytes:
    """The head after ``body, sig`` written on ``head`` (the chain of protocol 7.4)."""
    return hashlib.sha256(head + struct.pack(">I", len(body)) + body + sig).digest()


def check_relayed(start: Entry, item: Fields, host: bytes, seats: list[bytes]) -> tuple[int, str]:
    """``(n, reason)`` of a relayed item of the game ``start`` begins (keys ``host``, ``seats``
    already checked against it); ``ValueError`` naming the failed check when it shows nothing."""
    game = start.game_id
    n, before, wire, ack = (item.get(k) for k in ("n", "before", "entry", "ack"))
    if type(n) is not int or n < 1 or type(before) is not dict or type(wire) is not dict \
            or type(ack) is not bytes:
        raise ValueError("evidence check: a relayed item is {n, before, entry, ack}")
    head, body, sig = before.get("head"), wire.get("body"), wire.get("sig")
    if not ack_valid(host, game, n, head, before.get("sig")):
        raise ValueError(f"evidence check: no acknowledgement of {n} entries by the host")
    if type(body) is not bytes or type(sig) is not bytes:
        raise ValueError("evidence check: an entry is {body, sig}")
    assert type(head) is bytes
    try:
        entry: Entry | None = Entry.parse(body, sig)
    except RemoteProtocolError:
        entry = None
    if entry is not None and entry.seq == n and entry.prev != head \
            and ack_valid(host, game, n + 1, chain(entry.prev, entry), ack):
        return n, (f"chain check: the host acknowledged entry {n} written on another history of "
                   f"the first {n} entries than the one it signed")
    if not ack_valid(host, game, n + 1, _after(head, body, sig), ack):
        raise ValueError(f"evidence check: the host's acknowledgement is not of this entry "
                         f"after its {n} entries")
    what = f"the host acknowledged, as entry {n}"
    if entry is None:
        return n, f"format check: {what}, bytes that are not an entry"
    if entry.seq != n:
        return n, f"sequence check: {what}, an entry that says it is entry {entry.seq}"
    if entry.prev != head:
        return n, (f"chain check: {what}, an entry that names another head before it than the "
                   "one the host signed")
    if entry.game_id != game or entry.version != start.version:
        return n, f"game check: {what}, an entry of another game or protocol version"
    if not HOST <= entry.author < len(seats):
        return n, f"author check: {what}, an entry of seat {entry.author}, who is nobody"
    key = host if entry.author == HOST else seats[entry.author]
    if not entry.signed_by(key):
        who = "the host" if entry.author == HOST else f"seat {entry.author}"
        return n, f"signature check: {what}, an entry that its author ({who}) did not sign"
    raise ValueError(f"evidence check: entry {n} passes every check of its place")
