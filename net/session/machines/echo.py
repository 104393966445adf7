"""The echo of every head on the wire, a seat's (or a watcher's) side of
``net.session.machines.agreement``, and the evidence it passes on
(``net.session.records.evidence``). The host's side is ``net.session.machines.host_echo``.

A seat or watcher (``PeerAgreement``):

* checks the host's ``ack`` on every entry it takes (a fault if it does not verify: nobody
  signed what is missing); acknowledges each head it reaches once it holds the host's length,
  but a head after its own entry;
* counts the acknowledgements it is relayed; one of another head is evidence against the host
  (the ``host`` signature beside it) or against the seat (when the reader holds another
  statement of that seat for that length): it names them, sends the evidence to the host and
  keeps it; without such a signature it is a fault that names nobody;
* holds an entry that discloses (``discloses``) until every other seat still in has acknowledged
  the head it is written on;
* re-checks every piece of evidence it is relayed before it names anyone: a refused entry on its
  own table (the author named only if the table refuses it too, and the game goes on), a
  two-heads, relayed or talk item by its signatures;
* names the host for a relayed entry that fails its format, chain, game or signature only when
  the host signed it as relayed (``_bad_relay``, ``net.session.records.relayed``); otherwise
  that is a fault that names nobody;
* keeps at once, in a file ``palazzo verify`` checks again, every piece of evidence it names
  someone by: an entry its table refused naming its author, two heads, a relayed item, and the
  conflicts in talk the talk noted (``_keep_talk``: they stop no game);
* stops on a fault when an entry it holds back has waited ``ACK_WAIT`` seconds (and twice the
  turn limit) for acknowledgements of seats the host says are here (``_withheld``): the host
  may be withholding them, and nothing signed shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, wait
from pathlib import Path

from net.session.features.chat import ChatPeer
from net.session.features.presence import DEFAULT_GRACE, GONE, NoteBook, Presence
from net.session.machines.agreement import Agreement, ack_valid, attested, discloses, sign_ack
from net.session.machines.conversation import check_equivocation
from net.session.machines.entries import Phase
from net.session.machines.peer_states import PeerEvent
from net.session.machines.table import Table
from net.session.records.evidence import (
    check_evidence,
    clean,
    save_evidence,
    save_refused_entry,
    two_heads,
)
from net.session.records.relayed import relayed
from net.session.records.talk import talk
from net.wire.errors import (
    E_OUT_OF_ORDER,
    HOST,
    CheatDetected,
    Fault,
    ProtocolError,
    RemoteProtocolError,
)
from net.wire.rpc import Codec, Fields, Notification, Value
from net.wire.transcript import Entry

log = logging.getLogger("palazzo.net")

#: acknowledgements of heads a reader does not hold yet that it keeps, at most
AHEAD_LIMIT = 64
#: seconds a seat's entry waits for acknowledgements of seats the host says are here, at most,
#: before the seat stops on a fault (the host may be withholding them), and twice the turn limit
#: more in a game with one: longer than the host's default grace period and its turn limit, so
#: that an honest host forfeits a seat that does not acknowledge before this seat gives up
ACK_WAIT = DEFAULT_GRACE + 60.0


class PeerAgreement:
    """A seat's (or a watcher's) side (see the module docstring); a mixin of ``PeerSession``."""

    table: Table | None
    agreement: Agreement
    events: list[PeerEvent]
    _gated: Entry | None
    WATCH: bool

    codec: Codec
    _out: bytearray
    notes: NoteBook

    #: (kind, signer, n) of the evidence this reader has named someone by (each once)
    _evidence_seen: set[tuple[str, int, int]]
    #: where this reader keeps the evidence it checks (``None``: the user's games folder)
    evidence_folder: Path | None
    #: the entries shown refused that this table refused too (saved with the record)
    refused: list[Entry]
    #: the conflicts in talk (``chat.evidence``) looked at so far
    _talk_kept: int
    chat: ChatPeer
    #: since when (on ``clock``) the held entry has waited for seats the host says are here
    _gated_since: float
    _sync_to: int
    clock: Callable[[], float]
    presence: Presence | None

    def _init_agreement(self) -> None:
        self._evidence_seen = set()
        self.evidence_folder = None
        self.refused = []
        self._talk_kept = 0
        self._gated_since = 0.0

    def _send_note(self, method: str, payload: Fields) -> None:
        self._out += self.codec.send(Notification(method, (payload,)))

    def _table(self) -> Table:
        """The table: a reader has one from the host's challenge on, before any entry, head or
        evidence reaches it."""
        t = self.table
        assert t is not None
        return t

    def _send_post(self, entry: Entry) -> None:
        raise NotImplementedError  # the session's

    def _fail(self, error: Exception) -> None:
        raise NotImplementedError  # the session's

    def _synced(self) -> bool:
        raise NotImplementedError  # the session's

    def _event(self, kind: str, data: object) -> None:
        raise NotImplementedError  # the session's

    def _agreement_event(self, kind: str, data: object) -> None:
        """An event of the agreement: ``cheat`` (named with evidence this program checked),
        ``evidence`` (where it is kept) or ``note`` (a fault); each also goes to the table's
        log, as the presence notes do."""
        self._event(kind, data)
        if kind == "cheat":
            self.notes.add(f"{data} (evidence checked)")
        elif kind == "evidence":  # a screen says where, as the commands do
            self.notes.add(f"evidence kept in {data} (palazzo verify checks it again)")
        elif kind == "note":
            self.notes.add(str(data))

    # -- entries and heads --------------------------------------------------------------------

    def _agree_entry(self, entry: Entry, ack: Value) -> None:
        """After ``entry`` was accepted: the host's acknowledgement of the head after it."""
        t = self._table()
        n = entry.seq + 1
        head = t.transcript.head_at(n)
        if type(ack) is not bytes or not ack_valid(t.host_key, t.game_id, n, head, ack):
            raise Fault(f"agreement check: the host's acknowledgement of entry {entry.seq} does "
                        "not check (a host that does not sign what it relays, or a damaged "
                        "connection); join again")
        self.agreement.hold(HOST, n, {"head": head, "sig": ack})
        self.agreement.entry(entry)
        if entry.author == t.me:
            self.agreement.sent = max(self.agreement.sent, n)
        kept, self.agreement.ahead = self.agreement.ahead, []
        for a in kept:
            self._check_ack(*a)
        self._acknowledge()
        self._release()

    def _acknowledge(self) -> None:
        t = self.table
        if self.WATCH or t is None or t.identity is None or t.me < 0 or not t.game_id \
                or not self._synced() or t.phase is Phase.OVER:
            return
        n = len(t.transcript)
        if n <= self.agreement.sent:
            return
        self.agreement.sent = n
        head = t.transcript.head_at(n)
        self._send_note("ack", {"n": n, "head": head,
                                "sig": sign_ack(t.identity, t.game_id, n, head)})

    #: set by a runner: sends at once what waits to be sent (an acknowledgement that others'
    #: disclosures wait on, before this seat's own check of the entry is done)
    flush: Callable[[], object] | None = None

    def _acknowledge_settled(self, entry: Entry, head: bytes) -> None:
        """Acknowledge the head after ``entry``, which the host confirmed, at once: before
        this seat's own check of it is done (an acknowledgement says which entries this seat
        holds, not that they are good: a bad one is refused all the same, and its author or
        the host named), so that the seats whose disclosures wait on it wait less."""
        t = self._table()
        n = entry.seq + 1
        if self.WATCH or t.identity is None or t.me < 0 or entry.author == t.me \
                or entry.kind == "end" or n <= self.agreement.sent or n < self._sync_to:
            return
        self.agreement.sent = n
        self._send_note("ack", {"n": n, "head": head,
                                "sig": sign_ack(t.identity, t.game_id, n, head)})
        if self.flush is not None:
            self.flush()

    def _on_ack(self, m: Fields) -> None:
        t = self.table
        seat, n, head, sig, host = (m.get(k) for k in ("seat", "n", "head", "sig", "host"))
        if t is None or not t.game_id or type(seat) is not int or type(n) is not int \
                or not 0 <= seat < t.players or seat == t.me or n <= 0:
            log.debug("an acknowledgement that names no other seat or no length: ignored")
            return
        if n > len(t.transcript):
            if len(self.agreement.ahead) < AHEAD_LIMIT:
                self.agreement.ahead.append((seat, n, head, sig, host))
            return
        self._check_ack(seat, n, head, sig, host)
        self._release()

    def _check_ack(self, seat: int, n: int, head: Value, sig: Value, host: Value) -> None:
        t = self._table()
        key = t.seats[seat].key
        if type(head) is bytes and head == t.transcript.head_at(n):
            if (seat, n) not in self.agreement.held:  # its signature checked when it is used
                self.agreement.keep_unchecked(seat, n, head, sig)
            return
        items = []
        for signer, signed, k in ((seat, sig, key), (HOST, host, t.host_key)):
            mine = self._held(signer, n)
            if mine is not None and ack_valid(k, t.game_id, n, head, signed):
                items.append(two_heads(signer, n, mine, {"head": head, "sig": signed}))
        for item in items:  # a seat named first: naming the host stops this game
            self._name(item)
        if items:
            return
        self._agreement_event("note", f"{t.seats[seat].name} acknowledged another history of the first {n} "
                    "entries, without a signature that names anyone: this game cannot be agreed "
                    "(the host may be showing seats different histories)")

    def _held(self, signer: int, n: int) -> dict[str, bytes] | None:
        """What this reader holds that ``signer`` signed of the first ``n`` entries (an
        acknowledgement of a seat's checked now, if it was not yet)."""
        unchecked = self.agreement.unchecked.pop((signer, n), None)
        if unchecked is not None:
            self._take_ack(signer, n, *unchecked)
        return self.agreement.held.get((signer, n))

    def _take_ack(self, seat: int, n: int, head: bytes, sig: Value) -> None:
        t = self._table()
        if type(sig) is bytes and ack_valid(t.seats[seat].key, t.game_id, n, head, sig):
            self.agreement.mark(seat, n)
            self.agreement.hold(seat, n, {"head": head, "sig": sig})

    def _check_acks(self) -> None:
        """Check the signatures of the acknowledgements kept unchecked (of this reader's own
        heads): before they count for a disclosure. A reader that discloses nothing now never
        checks them (most acknowledgements), unless one is used as evidence."""
        a = self.agreement
        for seat, lengths in a.counting.items():
            # the latest first: it may do for the older ones (a bad one: the next is tried)
            for n in sorted(set(lengths), reverse=True):
                if a.acked.get(seat, 0) >= n:
                    break
                if (seat, n) in a.unchecked:
                    self._take_ack(seat, n, *a.unchecked.pop((seat, n)))
            lengths[:] = [n for n in lengths
                          if n > a.acked.get(seat, 0) and (seat, n) in a.unchecked]

    def _two_entries(self, entry: Entry, ack: Value) -> bool:
        """``entry`` came for a place this reader holds another entry at: if its author, or the
        host by its ``ack`` of the head after it, signed another head for one length than this
        reader holds of theirs, name them with the pair (whether it named anyone)."""
        t = self._table()
        key = t.author_key(entry.author)
        if key is None or not entry.signed_by(key) or entry.game_id != t.game_id:
            return False
        items = []
        for n, head in attested(entry):
            mine = self._held(entry.author, n)
            if mine is not None and n <= len(t.transcript) and head != t.transcript.head_at(n):
                items.append(two_heads(entry.author, n, mine,
                                       {"body": entry.body, "sig": entry.sig}))
                break
        n, head = attested(entry)[1]
        mine = self.agreement.held.get((HOST, n))
        if entry.author != HOST and mine is not None and n <= len(t.transcript) \
                and head != t.transcript.head_at(n) and ack_valid(t.host_key, t.game_id, n, head, ack):
            items.append(two_heads(HOST, n, mine, {"head": head, "sig": ack}))
        items = [i for i in items if i["signer"] != HOST] + [i for i in items if i["signer"] == HOST]
        for item in items:  # the host last: it stops
            self._name(item)
        return bool(items)

    def _entry_again(self, entry: Entry, ack: Value) -> None:
        """An entry for a place this reader holds (a rejoin may resend what arrived before the
        drop): the same bytes change nothing; a different entry signed for the same place is an
        equivocation by its author, and one of another author a second history shown by the
        host, named with the two heads when this reader holds them."""
        t = self._table()
        try:
            check_equivocation(t, entry)
        except RemoteProtocolError as e:
            raise self._bad_relay(entry.seq, entry.body, entry.sig, ack,
                                  f"the host relayed a bad entry: {e}") from None
        except CheatDetected:  # its author signed two entries: the pair is the evidence
            self._two_entries(entry, ack)
            raise
        if t.transcript.entries[entry.seq].body != entry.body and not self._two_entries(entry, ack):
            raise Fault(f"history check: the host relayed another entry {entry.seq} than the one "
                        "this reader holds there, and nothing it signed shows two histories (its "
                        "acknowledgement of it does not check); join again")

    def _bad_relay(self, n: int, body: Value, sig: Value, ack: Value, why: str) -> ProtocolError:
        """An entry relayed for place ``n`` that fails a check before its author can be named
        (its format, place, chain, game or signature): evidence against the host when the host
        signed it as relayed after the ``n`` entries this reader holds
        (``net.session.records.relayed``), the host named; else a fault that names nobody."""
        t = self._table()
        before = self.agreement.held.get((HOST, n))
        if n >= 1 and before is not None and "head" in before:
            item = relayed(n, before, body, sig, ack)
            try:
                check_evidence(t.transcript.entries[0], item)
            except ValueError:
                pass
            else:
                return self._name(item)
        return Fault(f"{why}: the host relayed it without its own acknowledgement of it, so "
                     "nothing signed shows who is at fault (it may have been damaged on the "
                     "way); join again, and the host sends it again", E_OUT_OF_ORDER)

    def _no_gap(self, entry: Entry) -> None:
        """An entry beyond this reader's length is a fault: nobody signed what is missing."""
        held = len(self._table().transcript)
        if entry.seq > held:
            raise Fault(f"sequence check: the host sent entry {entry.seq} while this seat holds "
                        f"{held} (the host may have lost part of its record, say to a disk "
                        "failure); this seat's record is saved, and it may join again once the "
                        "host has its record back", E_OUT_OF_ORDER)

    # -- holding what discloses ---------------------------------------------------------------

    def _hold(self, entry: Entry) -> bool:
        """Keep ``entry`` back if it discloses and some other seat still in has not acknowledged
        the head it is written on (``_release`` posts it)."""
        if self._gate(entry):
            self._gated = entry
            self._gated_since = self.clock()
            return True
        return False

    def _gate(self, entry: Entry) -> bool:
        """Whether ``entry`` must wait for acknowledgements before it is posted."""
        t = self._table()
        if not discloses(entry):
            return False
        self._check_acks()
        return bool(self.agreement.missing(entry.seq, t.players, t.me, t.forfeited))

    def _release(self) -> None:
        entry = self._gated
        if entry is None or self.table is None:
            return
        if entry.seq != len(self.table.transcript):  # the history moved on: it goes out again
            self._gated = None  # from the journal when its place comes (``held``)
            return
        if not self._gate(entry):
            self._gated = None
            self._send_post(entry)

    def _withheld(self) -> None:
        """The held entry has waited ``ACK_WAIT`` seconds for acknowledgements of seats that
        the host said were here all along: a fault that names nobody (the host may withhold
        them; nothing signed shows it). While the host says one of them is gone, its grace
        period runs instead (the host forfeits it, which ends the wait), and the count starts
        again when it is back."""
        missing = self.waiting_for()
        if not missing:
            return
        now, p = self.clock(), self.presence
        if p is not None and any(s < len(p.seats) and p.seats[s].state in GONE for s in missing):
            self._gated_since = now
            return
        t = self._table()
        wait = ACK_WAIT + (2 * t.timeout if t.timeout else 0)
        if now - self._gated_since < wait:
            return
        names = ", ".join(t.seats[s].name for s in missing)
        self._fail(Fault(f"agreement check: for {wait:g} seconds the host relayed no "
                         f"acknowledgement by {names} of the history this seat's next entry is "
                         "written on, though it says they are here; without them this seat "
                         "discloses nothing (the host may be withholding them). This seat's "
                         "record so far is saved; join again to wait once more"))

    def waiting_for(self) -> list[int]:
        """The seats whose acknowledgement this seat's held entry waits for."""
        t, entry = self.table, self._gated
        if entry is None or t is None:
            return []
        self._check_acks()
        return self.agreement.missing(entry.seq, t.players, t.me, t.forfeited)

    # -- evidence -----------------------------------------------------------------------------

    def _name(self, item: Fields, quiet: bool = False) -> CheatDetected:
        """Evidence this reader found or was relayed, checked (``ValueError`` if it shows
        nothing): name the signer, keep the evidence, pass it on; a host named stops this game,
        a seat named does not. ``quiet``: kept and passed on, not said again (a conflict in
        talk, which the talk said already)."""
        t = self._table()
        start = t.transcript.entries[0]
        finding = check_evidence(start, item)
        cheat = CheatDetected(finding.signer, finding.n, finding.reason)
        cheat.evidence = item  # type: ignore[attr-defined]
        seen, kind = self._evidence_seen, str(item["kind"])  # a kind ``check_evidence`` knows
        if (kind, finding.signer, finding.n) in seen:
            return cheat
        seen.add((kind, finding.signer, finding.n))
        self._send_note("evidence", clean(item))
        try:
            where = save_evidence(start, item, self.evidence_folder)
            self._agreement_event("evidence", str(where))
        except OSError as e:
            log.warning("the evidence could not be saved: %s", e)
        if finding.signer == HOST:
            self._fail(cheat)
        elif not quiet:
            self._agreement_event("cheat", cheat)
        return cheat

    def _on_evidence(self, m: Fields) -> None:
        t = self.table
        if t is None or not t.game_id:
            return
        if m.get("kind") == "refused":
            self._check_refused(m.get("entry"))
            return
        try:
            self._name(m)
        except ValueError as e:
            log.warning("evidence from the host that shows nothing, ignored: %s", e)

    def _check_refused(self, wire: Value) -> None:
        """A post the host refused: name its author only if this table refuses it too."""
        t = self._table()
        try:
            entry = Entry.parse(wire.get("body"), wire.get("sig")) if type(wire) is dict else None
        except RemoteProtocolError:
            entry = None
        if entry is None or entry.seq != len(t.transcript) or entry.author < 0:
            log.info("evidence of a refused entry that is not for this place: ignored")
            return
        pending = getattr(self, "_pending_in", None)
        if pending is not None and isinstance(pending[1], Future):
            wait([pending[1]])  # this table's check beside ends first: one check at a time
        dealer = t.dealer if t.dealer is not None and t.dealer.defer else None
        if dealer is not None:  # every proof of it checked now, as the host checked it
            dealer.defer = False
        try:
            t._check(entry)
        except CheatDetected as c:
            if c.seat == entry.author and c.step == entry.seq:  # this entry, not an earlier one
                cheat = CheatDetected(c.seat, c.step, c.reason, c.code)
                cheat.evidence = {"kind": "refused", "entry": entry.to_wire()}  # type: ignore[attr-defined]
                self._keep_refused(entry)
                self._agreement_event("cheat", cheat)
                return
        except Exception:  # not checkable here (out of order, a bad signature): nobody named
            pass
        finally:
            if dealer is not None:
                dealer.defer = True
        log.info("the host showed a refused entry that this table does not refuse: ignored")


    def _keep_refused(self, entry: Entry) -> None:
        """An entry its author signed that this table refused, naming its author: kept with the
        record up to it, a file ``palazzo verify`` names the author from."""
        if entry in self.refused:
            return
        self.refused.append(entry)
        try:
            where = save_refused_entry(self.table, entry, self.evidence_folder)
        except OSError as e:
            log.warning("the evidence could not be saved: %s", e)
            return
        if where is not None:
            self._agreement_event("evidence", str(where))

    def _keep_talk(self) -> None:
        """Each conflict in talk the talk noted (``chat.evidence``), once the start names the
        seats: a talk item, kept and passed on (``_name``, quietly: the talk said it already).
        It names the seat for its talk only and stops nothing."""
        t = self.table
        if t is None or not t.game_id:
            return
        found = self.chat.evidence
        while self._talk_kept < len(found):
            ev = found[self._talk_kept]
            self._talk_kept += 1
            if "body" not in ev:
                continue  # the live form was not kept: nothing to show
            first: Fields = {"say": {"body": ev["body"], "sig": ev["sig"]}}
            second: Fields
            if "body2" in ev:
                second = {"say": {"body": ev["body2"], "sig": ev["sig2"]}}
            elif 0 <= ev.get("entry", -1) < len(t.transcript):
                held = t.transcript.entries[ev["entry"]]
                second = {"entry": {"body": held.body, "sig": held.sig}}
            else:
                continue
            try:
                self._name(talk(ev["seat"], ev["n"], first, second), quiet=True)
            except ValueError as e:  # a lobby message of another contribution, say
                log.info("a conflict in talk that shows nothing checkable: %s", e)
