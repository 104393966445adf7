"""Agreement before disclosure: a signed echo broadcast of the transcript's heads.

The rules (``docs/protocol.md``, section 8.1; ``docs/security.md``, "Agreement before
disclosure"):

* An **acknowledgement** of the first ``n`` entries of a game is a signature, by a seat or by the
  host, of ``ACK_TAG || game id (16) || u32(n) || H(n)``: "I hold exactly these ``n`` entries".
  Every seat acknowledges each head it reaches (``ack {n, head, sig}`` to the host), but the head
  after an entry of its own, which its entry already signs. The host signs the head after every
  entry it relays (the ``ack`` field of ``entry``) and relays every seat's acknowledgement to every
  other seat and watcher with its own signature of the same head (``ack {seat, n, head, sig,
  host}``).
* An entry's author signs the head before it (``prev``) and, with its signature, fixes the head
  after it: a seat's entry at ``seq`` acknowledges ``seq`` and ``seq + 1``.
* **No seat discloses on a head that another seat still in the game has not acknowledged**
  (``discloses``: an ``act`` that opens cards, a ``deck`` entry holding decryption shares, an
  ``end``). A seat keeps such an entry (signed, in its journal) until every other seat not
  forfeited has acknowledged the head it is written on, and only then posts it. A history shown
  to one seat alone therefore never gets a card, a share or an end out of it: the others never
  acknowledge it.
* **Two heads.** One key that signs two different heads for one length (two acknowledgements,
  an acknowledgement and an entry, or two entries) has shown two histories: the pair is the
  evidence, and names the key's holder (``net.session.records.evidence``). An honest seat and an
  honest host sign one history only; a seat that acknowledged another head than a reader's, with
  the host's signature of that head beside it, names the host (it signed both).

``Agreement`` is one reader's count of who acknowledged what. It changes no game state and
nothing of it is in the record.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass, field

from net.wire.identity import SIGNATURE_SIZE, Identity, verify
from net.wire.rpc import Value
from net.wire.transcript import HASH_SIZE, Entry, chain

ACK_TAG = b"palazzo/ack/v1\x00"


def ack_message(game_id: bytes, n: int, head: bytes) -> bytes:
    """The bytes an acknowledgement of the first ``n`` entries signs (after ``ACK_TAG``)."""
    return game_id + struct.pack(">I", n) + head


def sign_ack(identity: Identity, game_id: bytes, n: int, head: bytes) -> bytes:
    return identity.sign(ACK_TAG, ack_message(game_id, n, head))


def ack_valid(key: bytes, game_id: bytes, n: int, head: object, sig: object) -> bool:
    return (type(sig) is bytes and len(sig) == SIGNATURE_SIZE and type(head) is bytes
            and len(head) == HASH_SIZE and _ack_verifies(key, game_id, n, head, sig))


@functools.lru_cache(maxsize=64)
def _ack_verifies(key: bytes, game_id: bytes, n: int, head: bytes, sig: bytes) -> bool:
    """One signature check of an acknowledgement, remembered a while: a reader checks the
    host's acknowledgement of an entry when the host confirms it and again when it takes it."""
    return verify(key, ACK_TAG, ack_message(game_id, n, head), sig)


def discloses(entry: Entry) -> bool:
    """Whether ``entry`` is an irreversible act: it opens cards (an ``act`` with ``open``), makes
    decryption shares (a ``deck`` entry with ``deck/shares``) or ends its author's game."""
    kind = entry.kind
    if kind == "end":
        return True
    if kind == "act":
        return "open" in entry.fields
    if kind == "deck":
        msgs = entry.fields.get("msgs")
        return type(msgs) is list and any(type(m) is dict and m.get("type") == "deck/shares"
                                          for m in msgs)
    return False


def record_agreement(names: list[str], ended: list[int],
                     forfeits: list[tuple[int, str]]) -> tuple[bool, str]:
    """Whether a record is agreed: every seat of the start (``names``) signed its ``end``, each
    over the same head of the game (the chain runs through every end); and the words for it,
    "agreed by all N seats" or "one side's record: seats X did not sign (why)"."""
    unsigned = [s for s in range(len(names)) if s not in ended]
    if not unsigned:
        return True, f"agreed by all {len(names)} seats"
    why = dict(forfeits)
    reasons = [f"{names[s]} forfeited: {why[s]}" if s in why else
               f"{names[s]}: the game ended before its end" for s in unsigned]
    return False, (f"one side's record: seats {', '.join(names[s] for s in unsigned)} did not "
                   f"sign ({'; '.join(reasons)})")


def attested(entry: Entry) -> list[tuple[int, bytes]]:
    """The heads an entry's author signs with it: ``(seq, prev)`` and ``(seq + 1, the head after
    it)``."""
    prev = entry.prev
    return [(entry.seq, prev), (entry.seq + 1, chain(prev, entry))]


@dataclass
class Agreement:
    """Who acknowledged which heads of this reader's transcript (see the module docstring)."""

    #: seat -> the longest prefix of this reader's transcript it has acknowledged
    acked: dict[int, int] = field(default_factory=dict)
    #: (signer, n) -> (head, statement) this reader holds: an acknowledgement ``{"head", "sig"}``
    #: or an entry ``{"body", "sig"}``, for the evidence of two heads
    held: dict[tuple[int, int], dict[str, bytes]] = field(default_factory=dict)
    #: acknowledgements of this reader's own heads whose signatures are not checked yet:
    #: (seat, n) -> (head, sig); checked when they are used (``PeerAgreement._check_acks``)
    unchecked: dict[tuple[int, int], tuple[bytes, Value]] = field(default_factory=dict)
    #: seat -> the lengths of its unchecked acknowledgements that may still count (longer than
    #: it is known to have acknowledged): what ``_check_acks`` looks through, pruned as it goes,
    #: so that a game's older acknowledgements (kept for evidence) cost nothing each time
    counting: dict[int, list[int]] = field(default_factory=dict)
    #: acknowledgements of heads this reader does not hold yet: (seat, n, head, sig, host sig)
    ahead: list[tuple[int, int, Value, Value, Value]] = field(default_factory=list)
    #: the longest prefix this seat has acknowledged itself (or signed an entry after)
    sent: int = 0

    def mark(self, seat: int, n: int) -> None:
        if n > self.acked.get(seat, 0):
            self.acked[seat] = n

    def keep_unchecked(self, seat: int, n: int, head: bytes, sig: Value) -> None:
        """An acknowledgement of this reader's own head ``n``, its signature checked when used."""
        self.unchecked[(seat, n)] = (head, sig)
        if n > self.acked.get(seat, 0):
            self.counting.setdefault(seat, []).append(n)

    def hold(self, signer: int, n: int, statement: dict[str, bytes]) -> None:
        self.held.setdefault((signer, n), statement)

    def entry(self, entry: Entry) -> None:
        """An entry accepted at ``entry.seq``: its author acknowledged both heads."""
        wire = {"body": entry.body, "sig": entry.sig}
        for n, _ in attested(entry):
            self.hold(entry.author, n, wire)
        if entry.author >= 0:
            self.mark(entry.author, entry.seq + 1)

    def missing(self, n: int, players: int, me: int, out: set[int]) -> list[int]:
        """The seats still in (not ``out``, not ``me``) that have not acknowledged ``n``."""
        return [s for s in range(players) if s != me and s not in out and self.acked.get(s, 0) < n]
