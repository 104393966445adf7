"""Evidence of a conflict in table talk, checkable by anyone offline.

The rules (``docs/protocol.md``, section 8.2, "talk"; the talk itself is
``net.session.features.chat``):

* A seat signs one message per number ``n`` of its contribution (``ctx``, its nonce in the
  start). Two different ones for one ``n``, both signed by it, are evidence against it:
  ``{kind: "talk", seat, n, a, b}``, each of ``a`` and ``b`` either ``{say: {body, sig}}`` (a
  message as the host relays it) or ``{entry: {body, sig}}`` (an entry of the seat's whose
  ``said`` carries message ``n``).
* It names the seat, and never stops a game: readers that saw different live messages accept
  the same entries. A reader keeps it in a file of evidence (``net.session.records.evidence``)
  that ``palazzo verify`` checks again.

``check_talk`` returns ``(seat, n, reason)``, or raises ``ValueError`` naming the failed check.
"""

from __future__ import annotations

from net.session.features.chat import read_say, signed_by
from net.wire.errors import RemoteProtocolError
from net.wire.rpc import Fields, Value
from net.wire.transcript import Entry


def talk(seat: int, n: int, a: Fields, b: Fields) -> Fields:
    """The item for two forms of message ``n`` of ``seat``: each ``{"say": {body, sig}}`` or
    ``{"entry": {body, sig}}``."""
    return {"kind": "talk", "seat": seat, "n": n, "a": dict(a), "b": dict(b)}


def _form(stmt: Value, seat: int, n: int, start: Entry, key: bytes) -> tuple[int, str]:
    """``(after, text)`` of message ``n`` as ``stmt`` gives it, signed by ``key``."""
    (kind, wire), = stmt.items() if type(stmt) is dict and len(stmt) == 1 else (("", None),)
    if type(wire) is not dict:
        raise ValueError("evidence check: a form of a message is {say} or {entry}")
    body, sig = wire.get("body"), wire.get("sig")
    if kind == "say":
        try:
            said = read_say(body, sig)
        except RemoteProtocolError as e:
            raise ValueError(f"evidence check: {e}") from None
        seats = start.fields["seats"]  # checked by the evidence's reader: seat ``seat`` is one
        row = seats[seat] if type(seats) is list else None
        ctx = row.get("nonce") if type(row) is dict else None
        if said.seat != seat or said.n != n or said.ctx != ctx or not signed_by(said, key):
            raise ValueError(f"evidence check: not message {n} of seat {seat} in this game, "
                             "signed by it")
        return said.after, said.text
    if kind != "entry":
        raise ValueError("evidence check: a form of a message is {say} or {entry}")
    try:
        entry = Entry.parse(body, sig)
    except RemoteProtocolError as e:
        raise ValueError(f"evidence check: {e}") from None
    if entry.author != seat or entry.game_id != start.game_id or not entry.signed_by(key):
        raise ValueError(f"evidence check: not an entry of seat {seat} in this game, signed by it")
    records = entry.fields.get("said")
    for m in records if type(records) is list else []:
        after, text = (m.get("after"), m.get("text")) if type(m) is dict else (None, None)
        if type(m) is dict and m.get("n") == n and type(after) is int and type(text) is str:
            return after, text
    raise ValueError(f"evidence check: the entry does not carry message {n}")


def check_talk(start: Entry, item: Fields, seats: list[bytes]) -> tuple[int, int, str]:
    """``(seat, n, reason)`` of a talk item of the game ``start`` begins (``seats``: the keys it
    names, checked); ``ValueError`` naming the failed check when it shows nothing."""
    seat, n = item.get("seat"), item.get("n")
    if type(seat) is not int or type(n) is not int or not 0 <= seat < len(seats) or n < 1:
        raise ValueError("evidence check: no such seat or message number")
    a = _form(item.get("a"), seat, n, start, seats[seat])
    b = _form(item.get("b"), seat, n, start, seats[seat])
    if a == b:
        raise ValueError("evidence check: the two forms are one message")
    return seat, n, (f"table talk: seat {seat} signed two different messages numbered {n} "
                     f"({a[1]!r} and {b[1]!r})")
