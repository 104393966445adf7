"""A seat's own side of its table: its journal, its sealed notes, and the entries it signs.

The ``start`` names every seat's key and fresh nonce; the game id must be ``derive_game_id`` of
them (every reader checks), and a seat's own table follows only a start that carries a nonce its
journal holds as a live contribution (``Journal.live``): a start replayed from an earlier game,
of a game this seat has finished, or a second, different start of a game it joined is refused,
naming the host. A seat signs through its journal (``_sign``): the entry is kept before it is
sent, and ``held`` gives it back, the same bytes, for the next place after a reconnect or a
restart; it is never signed anew. A sealed note is opened only in an entry the journal vouches
for, so it restores a secret only into the game that wrote it.

Rule 2b of ``net.session.machines.table``: for a seat's own table (one given its ``Journal``),
an entry in its own name must be the one its journal holds for that place of this game, and an
entry of another author must not stand where the journal holds one of its own written after
another history (the host showed this seat a fork); either is the host's doing, and names it.

``OwnSeat`` is the part of ``Table`` that does this; an observer's table (no identity, no
journal) never writes and never opens a note.
"""

from __future__ import annotations

from typing import Generic

from engine.core import REVEAL, GameRules, IllegalActionError, InvalidActionError
from net.games.dealer import FairDealer
from net.games.types import A, C, S
from net.session.machines.commit import commit, new_salt
from net.session.machines.entries import Phase, SeatInfo, field
from net.session.records.journal import Journal
from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_CHEAT,
    HOST,
    CheatDetected,
    LocalProtocolError,
    RemoteProtocolError,
)
from net.wire.identity import Identity
from net.wire.rpc import Fields, Value, is_value
from net.wire.transcript import Entry, Transcript, chain, pack, unpack


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
            if held is None or held.body != entry.body:
                raise CheatDetected(HOST, entry.seq, "journal check: an entry in this seat's name "
                                    "that it did not write for this game (replayed from another)",
                                    E_CHEAT)
        elif held is not None and held.fields["prev"] != entry.fields["prev"]:
            raise CheatDetected(HOST, entry.seq, self._fork_reason(entry.seq), E_CHEAT)

    @staticmethod
    def _fork_reason(seq: int) -> str:
        return (f"journal check: the host showed this seat another history: it wrote entry {seq} "
                "after a transcript that is not this one")

    def _journaled(self, seq: int) -> Entry | None:
        if self.journal is None or self.me == HOST or not self.game_id:
            return None
        return self.journal.entry(self.game_id, seq)

    def held(self) -> Entry | None:
        """The entry this seat already signed for the next place, to send again as it is
        (``None`` when it has signed none there). ``CheatDetected`` naming the host when it was
        signed after another history than this transcript (the host showed this seat a fork)."""
        seq = len(self.transcript)
        held = self._journaled(seq)
        if held is not None and held.fields["prev"] != self.transcript.head:
            raise CheatDetected(HOST, seq, self._fork_reason(seq), E_CHEAT)
        return held

    def _own_contribution(self, e: Entry, seats: list[SeatInfo]) -> bytes | None:
        """This seat's nonce in the start, checked against its journal (a seat's own table
        only): the start must seat this peer with a live contribution of its own."""
        if self.journal is None or self.identity is None:
            return None
        mine = [s.nonce for s in seats if s.key == self.identity.public_key]
        if not mine:
            raise CheatDetected(HOST, e.seq, "contribution check: the start does not seat this peer",
                                E_CHEAT)
        why = self.journal.live(mine[0], e.game_id, chain(e.prev, e))
        if why is not None:
            raise CheatDetected(HOST, e.seq, "contribution check: the start lacks this seat's fresh "
                                f"contribution: {why} (a replayed or forged start)", E_CHEAT)
        return mine[0]

    def _unseal(self, e: Entry, slot: str) -> Fields:
        """This seat's own note in ``e``: an entry of this game (the associated data names it),
        which a seat's own table has matched with its journal (``_check_own``)."""
        assert self.identity is not None
        if self.journal is not None and self.journal.finished(self.game_id):
            raise CheatDetected(HOST, e.seq, "journal check: this seat has finished this game; "
                                "its notes stay sealed", E_CHEAT)
        sealed = field(e, "sealed", bytes)
        plain = self.identity.unseal(self._aad(slot), sealed)
        if plain is None:
            raise RemoteProtocolError(f"entry {e.seq}: this seat's own note does not open",
                                      E_BAD_SIGNATURE)
        note = unpack(plain)
        if not is_value(note) or type(note) is not dict:
            raise RemoteProtocolError(f"entry {e.seq}: this seat's own note is not a map",
                                      E_BAD_PARAMS)
        return note

    def _aad(self, slot: str) -> bytes:
        return self.game_id + b"/" + slot.encode()

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
            fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
                self._aad("seed"), pack({"value": value, "salt": salt})
            )
            return self._sign(fields)
        if phase is Phase.SEED_OPEN:
            assert self.my_seed is not None
            fields = self._header("seed-open")
            fields["value"], fields["salt"] = self.my_seed
            return self._sign(fields)
        assert self.dealer is not None
        if phase is Phase.PLAY:
            if self.dealer.due() == self.me:
                fields = self._header("deck")
                public, private = self.dealer.make_deck_entry(self.transcript.head)
                fields.update(public)
                fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
                    self._aad("deck"), pack(private))
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
