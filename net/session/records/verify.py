"""Checking a saved game on its own: ``palazzo verify``.

The table talk a record carries (``net.session.features.chat``) is checked with the entries that carry
it, and a verified record says how many messages it holds.

A saved transcript (``net.wire.transcript``) holds every signed entry of a game, and its start entry
names the host's public key. That is enough to play the whole game again as an observer, from
scratch: an observer ``Table`` keyed by that host key accepts the entries one by one, checking
for each the sequence, the chain, the author's signature, whose turn it was, the seed
commitments, every fair-deck message and proof (keys, shuffles, shares, opens, the proof that a
card played face down may go face down), the cards each move names or shows, and the move's
legality, exactly as every peer checked it when it arrived. Nothing is left for the end: no seat
reveals a secret, and the record shows no card the rules did not show, to the verifier either.

``verify_bytes`` and ``verify_file`` return a ``Verdict``; they never raise for what a file
holds. Its ``kind`` is one of:

* ``verified``: every entry is genuine and the game reached its end (``ok``; a game cut short by
  a forfeit is "verified as far as it went: <how it ended>", and names no one);
* ``cheat``: an entry its author signed could not have come from an honest peer (``seat``
  names the author, ``-1`` the host);
* ``rejected``: the record is damaged or altered: an entry that does not parse, a bad
  signature, a broken chain (``seat`` is ``None``);
* ``cut-off``: the file ends in the middle of an entry, or holds the header and no entry (a
  write that stopped: a full disk, a crash, a copy cut short);
* ``incomplete``: every entry is genuine but the record stops before the game is over;
* ``not-a-record``: the file is not a palazzo transcript at all (empty, or no transcript header).

``palazzo verify`` exits with ``EXIT[kind]``: 0 verified, 3 a cheat or an altered record, 4 a
record cut off or stopping before the end, 5 a file that is not a transcript.

What it cannot tell: that this is the game you played. A whole game forged with keys of the
forger's own checks out; compare the host's and the seats' key fingerprints with the ones you
saw in the lobby.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from net.session.machines.entries import Phase
from net.session.machines.table import Table
from net.session.records.evidence import EVIDENCE_MAGIC, verify_evidence
from net.wire.errors import HOST, CheatDetected, RemoteProtocolError
from net.wire.identity import PUBLIC_KEY_SIZE, InvalidKey, check_public_key
from net.wire.transcript import MAGIC, Entry, record_unpacker

#: the exit status of ``palazzo verify`` for each kind of finding
EXIT = {"verified": 0, "cheat": 3, "rejected": 3, "cut-off": 4, "incomplete": 4,
        "not-a-record": 5}


@dataclass(frozen=True)
class Verdict:
    """What a saved transcript shows: ``text`` is one line for the user."""

    ok: bool
    text: str
    kind: str = "verified"  # verified, cheat, rejected, cut-off, incomplete or not-a-record
    seat: int | None = None  # the cheat's author (-1 the host); None when the file is damaged
    step: int | str | None = None  # the entry seq of the finding
    entries: int = 0  # the entries read and accepted
    game: str = ""  # the game's name ("medici", "condottiere"), once the start entry is read
    messages: int = 0  # the table talk the record carries (``net.session.features.chat``)

    @property
    def exit_status(self) -> int:
        return EXIT[self.kind]


def printable_line(text: str) -> str:
    """``text`` as one printable line, each character that is not printable by its escape: the
    names and reasons come from the file (or from the host)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _where(step: int | str) -> str:
    return f"entry {step}" if isinstance(step, int) else str(step)


class _Damaged(ValueError):
    """The file is not a well-formed transcript (the reason is the message; ``kind`` the
    verdict's kind: ``rejected``, ``cut-off`` or ``not-a-record``)."""

    def __init__(self, reason: str, kind: str = "rejected") -> None:
        super().__init__(reason)
        self.kind = kind


def _parse(data: bytes, partial: bool = False) -> list[Entry]:
    """The entries of a saved transcript, each well formed; ``_Damaged`` otherwise.

    Sequence, chain and signatures are left to the table, which names the entry that fails."""
    if not data:
        raise _Damaged("the file is empty", "not-a-record")
    if len(data) < len(MAGIC) and MAGIC.startswith(data):
        raise _Damaged("the file stops inside its header", "cut-off")
    if not data.startswith(MAGIC):
        raise _Damaged("not a palazzo transcript", "not-a-record")
    payload = data[len(MAGIC):]
    unpacker = record_unpacker(len(payload))
    unpacker.feed(payload)
    entries: list[Entry] = []
    end = 0  # where the last whole entry ends (``tell`` runs ahead into a cut-off one)
    try:
        for item in unpacker:
            end = unpacker.tell()
            if type(item) is not list or len(item) != 2:
                raise _Damaged(f"entry {len(entries)}: not a [body, signature] pair")
            try:
                entries.append(Entry.parse(item[0], item[1]))
            except RemoteProtocolError as e:
                raise _Damaged(f"entry {len(entries)}: {e}") from None
    except _Damaged:
        raise
    except Exception as e:  # msgpack's own errors: bad bytes, too deep, too long
        raise _Damaged(f"entry {len(entries)}: unreadable bytes ({e or type(e).__name__})") from None
    if end != len(payload) and not (partial and entries):
        raise _Damaged(f"the file stops in the middle of entry {len(entries)}", "cut-off")
    if not entries:
        raise _Damaged("the transcript holds no entries", "cut-off")
    return entries


def read_entries(data: bytes, partial: bool = False) -> list[Entry]:
    """The entries of a saved transcript, each well formed (nothing more is checked); a
    ``ValueError`` naming why not. ``partial``: of a file cut off, the whole entries before
    the cut."""
    return _parse(bytes(data), partial)


def verify_bytes(data: bytes) -> Verdict:
    """Check a saved transcript's bytes (see the module docstring); a file of evidence
    (``net.session.records.evidence``) is checked again, and names whom it shows cheating."""
    if bytes(data[:len(EVIDENCE_MAGIC)]) == EVIDENCE_MAGIC:
        finding, line = verify_evidence(bytes(data))
        if finding is None:
            return _rejected(line)
        return Verdict(False, printable_line(line), "cheat", finding.signer, finding.n)
    try:
        entries = _parse(bytes(data))
    except _Damaged as e:
        words = {"rejected": "rejected", "cut-off": "cut off", "not-a-record": "not a record"}
        return Verdict(False, printable_line(f"{words[e.kind]}: {e}"), e.kind)
    start = entries[0]
    host_key = start.fields.get("host")
    if start.kind != "start" or start.author != HOST:
        return _rejected("rejected: entry 0: the record does not begin with the host's start",
                         step=0)
    if type(host_key) is not bytes or len(host_key) != PUBLIC_KEY_SIZE:
        return _rejected("rejected: entry 0: the start names no host key", step=0)
    try:
        check_public_key(host_key)
    except InvalidKey as e:
        return _rejected(f"rejected: entry 0: the host key is refused ({e})", step=0)
    table = Table(host_key, None)
    for entry in entries:
        try:
            table.accept(entry)
        except CheatDetected as c:
            return _cheat(table, _pending_cheat(table) or c, len(table.transcript))
        except RemoteProtocolError as e:
            if (pending := _pending_cheat(table)) is not None:
                return _cheat(table, pending, len(table.transcript))
            reason = str(e)
            for prefix, then in ((f"entry {entry.seq}: ", ""), (f"entry {entry.seq} ", "it ")):
                if reason.startswith(prefix):
                    reason = then + reason[len(prefix):]
                    break
            return _rejected(f"rejected: entry {entry.seq}: {reason}", step=entry.seq,
                             entries=len(table.transcript), game=table.game)
        except Exception as e:  # signed by its author, yet beyond what the table can read
            if (pending := _pending_cheat(table)) is not None:
                return _cheat(table, pending, len(table.transcript))
            return _rejected(f"rejected: entry {entry.seq}: unreadable ({type(e).__name__}: {e})",
                             step=entry.seq, entries=len(table.transcript), game=table.game)
        if table.dealer is not None and not table.dealer.defer:
            table.dealer.defer, table.dealer.beside = True, False  # see _pending_cheat
    if (pending := _pending_cheat(table)) is not None:
        return _cheat(table, pending, len(table.transcript))
    n = len(table.transcript)
    if table.phase is not Phase.OVER:
        text = f"incomplete: the record stops at entry {n - 1} in phase {table.phase}"
        return Verdict(False, printable_line(text), "incomplete", None, n - 1, n, table.game)
    try:
        result = table.result()
    except Exception as e:  # a finished table always says how it ended; never a traceback here
        return _rejected(f"rejected: the end cannot be read ({type(e).__name__}: {e})",
                         entries=n, game=table.game)
    talk = len(table.said)
    said = f"; {talk} message{'s' if talk != 1 else ''} of table talk" if talk else ""
    if result.get("end") == "forfeit":
        text = str(result["verdict"]) + said
    else:
        title = table.rules.title if table.rules is not None else table.game
        names = ", ".join(s.name for s in table.seats)
        text = f"verified: {title}, {names}; {n} entries{said}; ended: {result['text']}"
    text += f"; {table.agreed()[1]}"  # agreed by all, or whose signature it lacks, and why
    return Verdict(True, printable_line(text), "verified", None, None, n, table.game, talk)


def _pending_cheat(table: Table) -> CheatDetected | None:
    """The first shuffle whose proof fails among those taken and not yet checked, if any.

    verify reads the shuffles as a seat does (``FairDealer.defer``), without the worker thread:
    it takes a pile once its points are checked and checks the proofs of a chain together
    (``net.deck.checks``) before the first card is dealt from it, so that a pile between two
    shuffles, the generators and the key are multiplied once for them all. Every proof is still
    checked in full, and a bad one is named at its entry (``CheatDetected.step``), before any
    fault found at a later entry."""
    if table.dealer is None:
        return None
    try:
        table.dealer.require_checked()
    except CheatDetected as c:
        return c
    return None


def _rejected(text: str, step: int | str | None = None, entries: int = 0,
              game: str = "") -> Verdict:
    return Verdict(False, printable_line(text), "rejected", None, step, entries, game)


def _cheat(table: Table, c: CheatDetected, entries: int) -> Verdict:
    if c.seat == HOST:
        who = "the host"
    elif 0 <= c.seat < len(table.seats):
        who = f"{table.seats[c.seat].name} (seat {c.seat})"
    else:
        who = f"seat {c.seat}"
    text = f"cheat: {who} at {_where(c.step)}: {c.reason}"
    if isinstance(c.step, int):  # a proof checked after its entry: the entries before it
        entries = min(entries, c.step)
    return Verdict(False, printable_line(text), "cheat", c.seat, c.step, entries, table.game)


def verify_file(path: str | os.PathLike[str]) -> Verdict:
    """Check the saved transcript at ``path``; an unreadable file is ``rejected``."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return _rejected(f"rejected: cannot read the file: {e.strerror or e}")
    return verify_bytes(data)
