"""A seat's own side of its table: its journal, its secrets, and the entries it signs.

The ``start`` names every seat's key and fresh nonce; the game id must be ``derive_game_id`` of
them (every reader checks), and a seat's own table follows only a start that carries a nonce its
journal holds as a live contribution (``Journal.live``): a start replayed from an earlier game,
of a game this seat has finished, or a second, different start of a game it joined is refused
as a fault that names nobody: only this seat's journal shows it, which nobody else can check. A seat signs through its journal (``_sign``): the entry is kept before it is
sent, and ``held`` gives it back, the same bytes, for the next place after a reconnect or a
restart; it is never signed anew.

**Secrets.** A seat's secrets of a game (its seed contribution and salt, its fair-deck key
secret) are in no entry: the journal keeps them (``Journal.keep_secret``) before the entry that
needs them is signed, and a restarted program takes them back from it when it reads its own
``seed-commit`` and key entries again. ``erase_game_secrets`` forgets them once the game is over
(forward secrecy: afterwards nothing on any machine, the identity key included, opens a card the
rules never showed).

**Faults.** What only this machine's journal could say, and cannot, is a fault, never a cheat
(``Fault``, ``faults``): a start whose nonce the journal does not hold (another machine or
account, a journal lost or damaged), an entry in this seat's name it does not hold (taken from
the record into the journal), a damaged file. The seat takes its place back and goes on as far
as the game can go without its local secrets; when a secret it needs is not here (a seed to
open, a deck key to use), it stops with a ``Fault`` that says so and names nobody. An entry in
its name that differs from the one its journal holds was signed by another program with this
key: a fault too (the host cannot sign for the seat), and this program stops.

Rule 2b of ``net.session.machines.table``: for a seat's own table (one given its ``Journal``),
an entry of another author must not stand where the journal holds one of its own written after
another history (the host showed this seat a fork, or lost part of its record): a fault, since
the journal keeps only this seat's entries, not what the host signed of the other history; the
seat stops, never signing a second entry for that place. (A fork met in one run of the program
is named by the host's two heads: ``net.session.machines.echo``.)

``OwnSeat`` is the part of ``Table`` that does this; an observer's table (no identity, no
journal) never writes and never opens a note.
"""

from __future__ import annotations

from typing import Generic

from engine.core import REVEAL, GameRules, IllegalActionError, InvalidActionError
from net.games.dealer import FairDealer
from net.games.types import A, C, S
from net.session.machines.commit import commit, new_salt
from net.session.machines.entries import Phase, SeatInfo
from net.session.records.journal import Journal
from net.wire.errors import (
    E_BAD_PARAMS,
    E_OUT_OF_ORDER,
    HOST,
    Fault,
    LocalProtocolError,
)
from net.wire.identity import Identity
from net.wire.rpc import Fields, Value
from net.wire.transcript import Entry, Transcript, chain


class OwnSeat(Generic[S, A, C]):
    """A seat's own side of a ``Table`` (see the module docstring), over the game's state,
    action and configuration types as the table's."""

    identity: Identity | None
    journal: Journal | None
    phase: Phase
    transcript: Transcript
    me: int
    game_id: bytes
    rules: GameRules[S, A, C] | None
    view: S | None
    dealer: FairDealer[S, A, C] | None
    my_seed: tuple[bytes, bytes] | None
    said_last: dict[int, tuple[int, int]]
    said_out: list[Fields]
    #: faults noted (lines naming nobody), and this seat's secrets kept in this process
    faults: list[str]
    log: list[str]
    kept: dict[str, Fields]

    def writer(self) -> int | None:
        raise NotImplementedError  # the table's

    def game_now(self) -> tuple[GameRules[S, A, C], S]:
        raise NotImplementedError  # the table's

    def decision_due(self) -> bool:
        raise NotImplementedError  # the table's

    # -- what the journal holds ---------------------------------------------------------------

    def _check_own(self, entry: Entry) -> None:
        """Rule 2b of the module docstring (a seat's own table only)."""
        held = self._journaled(entry.seq)
        if entry.author == self.me and self.journal is not None and self.me != HOST:
            if held is not None and held.body != entry.body:
                raise Fault(f"journal check: entry {entry.seq} in this seat's name is not the one "
                            "this program signed there: another program with this identity "
                            "signed it (one key, two machines or accounts?); this one stops so as "
                            "never to sign a second entry for one place")
        elif held is not None and held.fields["prev"] != entry.fields["prev"]:
            raise Fault(self._fork_reason(entry.seq), E_OUT_OF_ORDER, final=True)

    def _adopt(self, entry: Entry) -> None:
        """An entry in this seat's name that its journal lacks (signed on another machine, or its
        file lost or damaged): taken from the record into the journal, so that nothing else is
        ever signed for that place; a fault noted."""
        if entry.author != self.me or self.journal is None or self.me == HOST or not self.game_id:
            return
        if self.journal.entry(self.game_id, entry.seq) is None:
            self.journal.write(self.game_id, entry)
            self._fault(f"entry {entry.seq}, signed by this seat, was not in this machine's "
                        "journal (played from another machine or account, or the journal was "
                        "lost or damaged): taken from the record")

    def _fault(self, line: str) -> None:
        """A fault noted: in ``faults``, and in the log as "fault (nobody is named): ..."."""
        if line not in self.faults:
            self.faults.append(line)
            self.log.append(f"fault (nobody is named): {line}")

    @staticmethod
    def _fork_reason(seq: int) -> str:
        return (f"journal check: this seat wrote entry {seq} after another history than the one "
                "the host shows now (the host showed seats different histories, or lost part of "
                "its record); what the host signed of the other history is not kept here, so "
                "nobody is named. This seat stops, so as never to sign a second entry for one "
                "place; its record is saved")

    def _journaled(self, seq: int) -> Entry | None:
        if self.journal is None or self.me == HOST or not self.game_id:
            return None
        return self.journal.entry(self.game_id, seq)

    def held(self) -> Entry | None:
        """The entry this seat already signed for the next place, to send again as it is
        (``None`` when it has signed none there). A ``Fault`` when it was signed after another
        history than this transcript (a fork, or a host that lost part of its record)."""
        seq = len(self.transcript)
        held = self._journaled(seq)
        if held is not None and held.fields["prev"] != self.transcript.head:
            raise Fault(self._fork_reason(seq), E_OUT_OF_ORDER, final=True)
        return held

    def _own_contribution(self, e: Entry, seats: list[SeatInfo]) -> bytes | None:
        """This seat's nonce in the start, checked against its journal (a seat's own table
        only): the start must seat this peer with a live contribution of its own."""
        if self.journal is None or self.identity is None:
            return None
        mine = [s.nonce for s in seats if s.key == self.identity.public_key]
        if not mine:
            raise Fault("contribution check: the start does not seat this player: it is not a "
                        "game this seat joined, and this seat does not follow it", E_BAD_PARAMS)
        if self.journal.lost(mine[0]) and not self.journal.finished(e.game_id):
            self._fault("this machine's journal does not hold this seat's contribution to this "
                        "game (it was joined from another machine or account, or the journal was "
                        "lost or damaged): the seat is taken back as far as the game can go on "
                        "without its secrets")
            return mine[0]
        why = self.journal.live(mine[0], e.game_id, chain(e.prev, e))
        if why is not None:  # only this journal says so: nothing anyone else can check
            raise Fault("contribution check: the start lacks this seat's fresh contribution: "
                        f"{why} (a replayed or made-up start); it is not a game this seat joined "
                        "now, and this seat does not follow it", E_BAD_PARAMS)
        return mine[0]

    # -- secrets --------------------------------------------------------------------------------

    def _keep(self, slot: str, value: Fields) -> None:
        """Keep this seat's secret before the entry that needs it is signed."""
        self.kept[slot] = value
        if self.journal is not None:
            self.journal.keep_secret(self.game_id, slot, value)

    def _own_secret(self, slot: str) -> Fields | None:
        """This seat's secret of ``slot`` (this process's, or its journal's), or ``None``."""
        if self.journal is not None and self.journal.finished(self.game_id):
            return None  # a finished game's secrets are erased, and never taken back
        if slot in self.kept:
            return self.kept[slot]
        return self.journal.secret(self.game_id, slot) if self.journal is not None else None

    @staticmethod
    def _lost(what: str) -> Fault:
        return Fault(f"this seat cannot go on: {what} is not in this machine's journal (it was "
                     "played from another machine or account, or the journal was lost or "
                     "damaged). Come back from the machine that played it; the host forfeits "
                     "the seat if it does not come back in time")

    def erase_game_secrets(self) -> None:
        """Forget this seat's secrets of its game, in this process and in its journal (forward
        secrecy). Called once the game's record is final (the table reached its end, where the
        record is saved; or the seat stopped on a detected cheat)."""
        self.kept.clear()
        self.my_seed = None
        if self.dealer is not None:
            self.dealer.forget_secret()
        if self.journal is not None and self.game_id and self.me != HOST:
            self.journal.erase_secrets(self.game_id)

    # -- writing entries ----------------------------------------------------------------------

    def _header(self, kind: str) -> Fields:
        return {"game": self.game_id, "seq": len(self.transcript), "prev": self.transcript.head,
                "author": self.me, "kind": kind}

    def _sign(self, fields: Fields) -> Entry:
        """Sign an entry of this seat's and keep it in the journal before anyone sees it."""
        assert self.identity is not None
        last = self.said_last.get(self.me, (0, 0))[0]
        said: list[Value] = [m for m in self.said_out if _int(m["n"]) > last]
        self.said_out = []
        if said:  # never an empty list: an entry without talk keeps its bytes
            fields["said"] = said
        entry = Entry.sign(self.identity, fields)
        if self.journal is not None:
            self.journal.write(self.game_id, entry)
        return entry

    def decide(self, action: A, auto: bool = False) -> Entry:
        """The entry for this seat's decision; ``LocalProtocolError`` if it is not legal now.
        ``auto``: the seat's program chose it after the turn limit (``net.session.features.timeout``)."""
        if not self.decision_due():
            raise LocalProtocolError("it is not this seat's turn to decide")
        rules, view = self.game_now()
        try:
            rules.apply(view, action)
        except (IllegalActionError, InvalidActionError) as err:
            raise LocalProtocolError(str(err)) from None
        return self._act_entry(action, auto)

    def _act_entry(self, action: A, auto: bool = False) -> Entry:
        assert self.dealer is not None
        rules, view = self.game_now()
        fields = self._header("act")
        fields["action"] = rules.action_to_data(self.dealer.public(view, action))
        fields.update(self.dealer.act_fields(view, action, self.transcript.head))
        if auto:
            fields["auto"] = True
        return self._sign(fields)

    def auto_entry(self) -> Entry | None:
        """The entry this seat must write now without a choice (seed, deck, end)."""
        if self.me == HOST:
            return None
        held = self.held()
        if held is not None:  # signed before a reconnect or a restart: the same bytes again
            return held
        if self.writer() != self.me or self.decision_due():
            return None
        phase = self.phase
        if phase is Phase.SEED_COMMIT:
            value, salt = new_salt(), new_salt()
            fields = self._header("seed-commit")
            fields["commit"] = commit(b"seed", self.game_id, self.me, b"seed", value, salt)
            self._keep("seed", {"value": value, "salt": salt})
            return self._sign(fields)
        if phase is Phase.SEED_OPEN:
            if self.my_seed is None:
                raise self._lost("this seat's seed contribution, which it must open now,")
            fields = self._header("seed-open")
            fields["value"], fields["salt"] = self.my_seed
            return self._sign(fields)
        assert self.dealer is not None
        if phase is Phase.PLAY:
            if self.dealer.due() == self.me:
                fields = self._header("deck")
                public, private = self.dealer.make_deck_entry(self.transcript.head)
                fields.update(public)
                if private:
                    self._keep("deck", private)
                return self._sign(fields)
            rules, view = self.game_now()
            if rules.current_player(view) == REVEAL:
                return self._act_entry(rules.legal_actions(view)[0])
            return None
        if phase is Phase.END:
            return self._sign(self._header("end"))
        return None


def _int(value: Value) -> int:
    # a record this seat made itself (``Said.record``): its ``n`` is an int
    assert type(value) is int
    return value
