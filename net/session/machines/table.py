"""The replicated game: one peer's copy of a networked game, built from the signed transcript.

Every peer (and the host, as an observer with seat -1) holds a ``Table``. It accepts entries
one at a time, in transcript order, and for each checks, before changing anything:

1. sequence and chain (``Transcript.check_next``), and that the entry is of this game;
2. the signature, by the key of the seat named as author (or the host's key for ``-1``), which
   must be a valid Ed25519 key (``net.wire.identity.check_public_key``);
2b. for a seat's own table (one given its ``Journal``): an entry of another author must not stand
   where the journal holds one of its own written after another history (a fork shown by the
   host: it names the host); a journal lacking or damaged is a fault (``own_seat``), not a cheat;
3. that the entry's kind is allowed in the current phase (``TRANSITIONS``) and that its author
   is the one due to write now (``writer()``);
4. the content: the seed commitments and their openings; every deck message (keys, shuffles,
   shares and opens, with their proofs, through ``net.games.dealer``); the cards an action names or
   shows; and the action legal on this peer's view through the rules' checked door. Everything
   is checked on a copy of the dealer (``FairDealer.fork``), kept only when the entry passes.

Failures of 1-2 are ``RemoteProtocolError`` (malformed, out of order, forged: the relay's or the
sender's fault); failures of 3-4 are ``CheatDetected`` naming the author, who signed them. The
host refuses an entry failing 1-3 (``check_frame``) before it relays anything, and withdraws one
failing 4, which it relays pending and checks beside the relay (``net.session.machines.relay``).
A table holds only entries it checked, each when it arrived; no check waits for the end: no seat
reveals its deck secret or shuffle seeds, and what a move claims about a card nobody else can see
is checked by a proof or when the rules show it (``net.games.dealer``). A table at the end has
verified the game (``result()["verdict"]``): "verified", or "verified as far as it went: ...".

The rule of the phases: ``TRANSITIONS``, just below, is the one place that says which entry a
phase takes and which phase follows. A row ``(phase, kind): Next(then, when)`` lets an entry of
``kind`` in ``phase`` (any other kind is refused, ``E_WRONG_PHASE``, naming its author); once the
entry is applied the table moves to ``then`` if ``when`` holds, and stays otherwise. A row with
kind ``None`` leaves its phase with no entry at all (a chance step ended the game; nobody is left
to sign its end): it is looked at after every entry and after the chance steps. The checks of
each kind (``_on_<kind>``, ``CHECKS``) change the game and never the phase; ``_follow`` alone
moves it. ``docs/protocol.md`` (section 8) draws the same table, and a test holds the two equal.

Every reader checks an entry's fields the same way before anything else of it
(``net.session.machines.entries``): a field the kind does not have, a missing one or one of
another type is refused, naming the field and the author, so the host's observer table, every
peer's table and ``palazzo verify`` accept exactly the same entries. Only records of protocol
version 1 carry ``sealed`` notes (checked there as bytes); no later entry carries a secret. A
seat's own table checks its journal, keeps its secrets there and signs through it (``own_seat``).

Chance steps need no entry: the fair dealer resolves them for this peer from the deck entries
as soon as their shares are in (a lot, from the joint seed, at once). A peer applies each
action to its own view: the author of a face-down card applies the card itself (it knows the
card behind the handle), everyone else the public form with the card ``UNKNOWN``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

from engine.core import CHANCE, REVEAL, TERMINAL, GameRules, IllegalActionError, InvalidActionError
from net.deck import group
from net.games.dealer import FairDealer, MoveError
from net.games.types import A, C, S
from net.session.features.chat import check_record, conflicts
from net.session.features.timeout import check_auto, timed_out_text
from net.session.machines.agreement import record_agreement
from net.session.machines.commit import COMMIT_SIZE, SALT_SIZE, opens
from net.session.machines.entries import (
    DEALERS,
    REASON_LIMIT,
    Phase,
    SeatInfo,
    Start,
    check_fields,
    field,
    read_start,
)
from net.session.machines.own_seat import OwnSeat
from net.session.records.journal import Journal
from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_CHEAT,
    E_ILLEGAL,
    E_NOT_YOUR_TURN,
    E_WRONG_PHASE,
    HOST,
    CheatDetected,
    RemoteProtocolError,
)
from net.wire.identity import Identity, InvalidKey, check_public_key
from net.wire.rpc import Fields
from net.wire.transcript import Entry, Transcript

#: what a check returns: the change that applies the entry it passed
Change = Callable[[], None]


class When(Enum):
    """When a row of ``TRANSITIONS`` moves on (the words ``docs/protocol.md`` uses)."""

    ALWAYS = ""
    LAST_SEAT = "after the last seat"  # every seat due in the phase has written its entry
    GAME_OVER = "when the game is over"  # the rules say so (after a move or a chance step)


@dataclass(frozen=True)
class Next:
    """The phase that follows, and when."""

    then: Phase
    when: When = When.ALWAYS


#: (phase, entry kind) -> the phase that follows; kind ``None``: left with no entry (see the
#: module docstring's rule of the phases). An entry of a kind its phase has no row for is refused.
TRANSITIONS: dict[tuple[Phase, str | None], Next] = {
    (Phase.LOBBY, "start"): Next(Phase.SEED_COMMIT),
    (Phase.SEED_COMMIT, "seed-commit"): Next(Phase.SEED_OPEN, When.LAST_SEAT),
    (Phase.SEED_OPEN, "seed-open"): Next(Phase.PLAY, When.LAST_SEAT),
    (Phase.PLAY, "deck"): Next(Phase.PLAY),
    (Phase.PLAY, "act"): Next(Phase.END, When.GAME_OVER),
    (Phase.SEED_COMMIT, "forfeit"): Next(Phase.OVER),
    (Phase.SEED_OPEN, "forfeit"): Next(Phase.OVER),
    (Phase.PLAY, "forfeit"): Next(Phase.END),
    (Phase.END, "end"): Next(Phase.OVER, When.LAST_SEAT),
    (Phase.END, "forfeit"): Next(Phase.OVER, When.LAST_SEAT),
    (Phase.PLAY, None): Next(Phase.END, When.GAME_OVER),  # a chance step ended the game
    (Phase.END, None): Next(Phase.OVER, When.LAST_SEAT),  # nobody is left to sign the end
}


class Table(OwnSeat[S, A, C]):
    """One peer's copy of a networked game (see the module docstring). ``S``, ``A`` and ``C``
    are the game's state, action and configuration types (``net.games.types``): a bare
    ``Table`` sees its game through the contract, as the start entry names it."""

    def __init__(self, host_key: bytes, identity: Identity | None = None,
                 journal: Journal | None = None) -> None:
        self.host_key = host_key
        self.identity = identity
        self.journal = journal if identity is not None else None
        self.phase = Phase.LOBBY
        self.transcript = Transcript()
        self.me = HOST
        self.game_id = b""
        self.game = ""
        self.started = 0
        #: the game's rules and configuration, and this peer's view of it, from the start entry on
        self.rules: GameRules[S, A, C] | None = None
        self.config: C | None = None
        self.seats: list[SeatInfo] = []
        self.view: S | None = None
        self.dealer: FairDealer[S, A, C] | None = None
        self.seed = b""
        self.seed_commits: list[bytes] = []
        self.seed_values: list[bytes] = []
        self.my_seed: tuple[bytes, bytes] | None = None
        self.faults: list[str] = []
        self.kept: dict[str, dict[str, Any]] = {}
        self.forfeited: set[int] = set()
        self.forfeits: list[tuple[int, str]] = []  # (seat, the host's reason), in order
        self.ended: list[int] = []
        self.timeout = 0
        self.on_timeout = "forfeit"
        #: whether the host allows the coach (``tui.screens.hint``): the start's ``hints``
        self.hints = False
        self.log: list[str] = []
        #: this seat's own entry checked ahead: its place, the entry, the change to make
        self._ahead: tuple[int, Entry, Change] | None = None
        #: table talk (``net.session.features.chat``): the messages the record carries, in order, as
        #: (seat, n, after, text, seq of the entry), each seat's last (n, after) among them, the
        #: live messages this reader saw (seat -> n -> (after, text)) to check the record
        #: against, and this seat's own messages the host accepted, for its next entry
        self.said: list[tuple[int, int, int, str, int]] = []
        self.said_last: dict[int, tuple[int, int]] = {}
        self.live: dict[int, dict[int, tuple[int, str]]] = {}
        self.said_out: list[Fields] = []
        #: conflicts in talk (a record that differs from a live message this reader saw), as
        #: (seat, n, live (after, text), recorded (after, text), seq): noted, never refused
        self.talk_conflicts: list[tuple[int, int, tuple[int, str], tuple[int, str], int]] = []
        #: every step applied to this peer's view, chance steps included, as
        #: (view before, action as this peer knows it, view after): a table screen tells them
        self.steps: list[tuple[S, A, S]] = []
        #: the indices in ``steps`` of the moves a seat's program played after the turn limit
        #: (``auto``, ``net.session.features.timeout``)
        self.timed_out: set[int] = set()

    # -- whose move ---------------------------------------------------------------------------

    def game_now(self) -> tuple[GameRules[S, A, C], S]:
        """The rules and this peer's view, once the start entry is in (``AssertionError`` before:
        no game to look at)."""
        assert self.rules is not None and self.view is not None, "no game has started"
        return self.rules, self.view

    @property
    def players(self) -> int:
        return len(self.seats)

    def writer(self) -> int | None:
        """The author due to write the next entry (``HOST`` for the host), or ``None``."""
        phase = self.phase
        if phase is Phase.LOBBY:
            return HOST
        if phase is Phase.SEED_COMMIT:
            return len(self.seed_commits)
        if phase is Phase.SEED_OPEN:
            return len(self.seed_values)
        if phase is Phase.PLAY:
            assert self.dealer is not None
            due = self.dealer.due()
            if due is not None:
                return due
            rules, view = self.game_now()
            cp = rules.current_player(view)
            if cp >= 0:
                return cp
            if cp == REVEAL:
                return rules.revealer(view)
            return None
        if phase is Phase.END:
            left = self._end_order()
            return left[0] if left else None
        return None

    def _end_order(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.forfeited and s not in self.ended]

    def decision_due(self) -> bool:
        """Whether this peer's seat must choose an action now (not when it chose already: its
        journal holds the entry, which goes out again as it is)."""
        return (
            self.phase is Phase.PLAY
            and self.me != HOST
            and self.dealer is not None
            and self.dealer.due() is None
            and self.game_now()[0].current_player(self.game_now()[1]) == self.me
            and self._journaled(len(self.transcript)) is None
        )

    # -- accepting entries --------------------------------------------------------------------

    def accept(self, entry: Entry) -> None:
        """Check ``entry`` and apply it, or raise without changing anything. This seat's own
        entry checked ahead (``check_ahead``) at this very place, these very bytes, is only
        applied: the table has not changed since it was checked."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[0] == len(self.transcript) and ahead[1] == entry:
            apply = ahead[2]
        else:
            apply = self._check(entry)
        talk = self._check_said(entry)
        self.transcript.append(entry)
        apply()
        self._adopt(entry)
        for n, after, text in talk:
            self.said.append((entry.author, n, after, text, entry.seq))
            self.said_last[entry.author] = (n, after)
        # here, never ahead: the live messages change meanwhile; a conflict refuses nothing
        for n, live, recorded in conflicts(talk, self.live.get(entry.author, {})):
            self.talk_conflicts.append((entry.author, n, live, recorded, entry.seq))
        self._follow(entry.kind)
        self._advance()
        self._follow(None)
        if self.dealer is not None:  # a false share the worker found, named at its entry
            self.dealer.raise_found()
        if self.dealer is not None and self.phase in (Phase.END, Phase.OVER):
            # a shuffle no card was dealt from since: its proof holds before the end is signed
            self.dealer.require_checked()

    def check_ahead(self, entry: Entry) -> None:
        """Check this seat's own ``entry``, just posted for the next place, while the host
        checks it, changing nothing: when the host relays it, ``accept`` only applies it. Any
        other entry for that place is checked as ever (and this check is dropped); an entry
        that fails here is left to ``accept``, which checks it again and refuses it."""
        self._ahead = None
        if self.me == HOST or entry.author != self.me or entry.seq != len(self.transcript):
            return
        try:
            self._ahead = (entry.seq, entry, self._check(entry))
        except Exception:  # ``accept`` checks it again and says what is wrong
            self._ahead = None

    def _check(self, entry: Entry) -> Change:
        """Every check of ``accept`` (the module docstring's 1-4); the change to make."""
        self.check_frame(entry)
        return self.check_content(entry)

    def check_content(self, entry: Entry) -> Change:
        """Check 4, on an entry past ``check_frame``: the change to make. It changes nothing of
        this table, so a worker thread may run it while the table waits for it."""
        return CHECKS[entry.kind](self, entry)  # checks everything, returns the change to make

    def check_frame(self, entry: Entry) -> None:
        """The cheap checks 1-3 and the entry's fields: all but its content (``_check``)."""
        self.transcript.check_next(entry)
        seq, author, kind = entry.seq, entry.author, entry.kind
        if self.game_id and entry.fields["game"] != self.game_id:
            raise RemoteProtocolError(f"entry {seq} belongs to another game", E_BAD_PARAMS)
        key = self.author_key(author)
        if key is None:
            raise RemoteProtocolError(f"entry {seq}: no seat {author} in this game", E_BAD_PARAMS)
        try:
            check_public_key(key)
        except InvalidKey as err:
            raise RemoteProtocolError(f"entry {seq}: its author's key is refused ({err})",
                                      E_BAD_PARAMS) from None
        if not entry.signed_by(key):
            raise RemoteProtocolError(f"entry {seq}: signature check: bad signature for its author", E_BAD_SIGNATURE)
        self._check_own(entry)
        if kind not in CHECKS or (self.phase, kind) not in TRANSITIONS:
            raise CheatDetected(author, seq, f"a {kind!r} entry is not allowed in phase {self.phase}",
                                E_WRONG_PHASE)
        due = HOST if kind == "forfeit" else self.writer()
        if author != due:
            who = "the host" if due == HOST else f"seat {due}"
            raise CheatDetected(author, seq, f"out of turn: {who} must write now", E_NOT_YOUR_TURN)
        check_fields(entry, self.dealer)
        self._check_said(entry)  # the talk it records: cheap, so before a relay at once too

    def _check_said(self, entry: Entry) -> list[tuple[int, int, str]]:
        """The messages ``entry`` records (``net.session.features.chat.check_record``)."""
        if "said" not in entry.fields:
            return []
        last_n, last_after = self.said_last.get(entry.author, (0, 0))
        return check_record(entry.fields["said"], entry.author, entry.seq, last_n, last_after)

    def author_key(self, author: int) -> bytes | None:
        """The key that signs ``author``'s entries (the host's for ``HOST``), or ``None``."""
        if author == HOST:
            return self.host_key
        return self.seats[author].key if 0 <= author < len(self.seats) else None

    def _on_start(self, e: Entry) -> Change:
        # the start names the game: a table made for a known game (``Table[X, ...]``) is its
        # holder's word that the start names that one
        start = cast("Start[S, A, C]", read_start(e, self.host_key))
        game, config, seats, game_id = start.game, start.config, start.seats, start.game_id
        mine = self._own_contribution(e, seats)
        started, timeout, on_timeout = start.time, start.timeout, start.on_timeout

        def apply() -> None:
            self.game_id = game_id
            if mine is not None:
                assert self.journal is not None
                self.journal.bind(mine, game_id, self.transcript.head)
            self.game, self.rules, self.config = game.rules.name, game.rules, config
            self.seats, self.started = seats, started
            self.timeout, self.on_timeout = timeout, on_timeout
            self.hints = e.fields.get("hints") is True
            keys = [s.key for s in seats]
            if self.identity is not None and self.identity.public_key in keys:
                self.me = keys.index(self.identity.public_key)
            # an observer sees as a seat that holds nothing: the seat number after the last
            self.view = game.rules.view(game.rules.new_game(config),
                                        self.me if self.me != HOST else len(seats))
            self.log.append(f"{game.rules.title}: " + ", ".join(s.name for s in seats))

        return apply

    def _on_seed_commit(self, e: Entry) -> Change:
        c = field(e, "commit", bytes, COMMIT_SIZE)
        mine = self._own_secret("seed") if e.author == self.me else None

        def apply() -> None:
            self.seed_commits.append(c)
            value, salt = (mine.get("value"), mine.get("salt")) if mine is not None else (None, None)
            if type(value) is bytes and type(salt) is bytes:
                self.my_seed = (value, salt)

        return apply

    def _on_seed_open(self, e: Entry) -> Change:
        value = field(e, "value", bytes, 32)
        salt = field(e, "salt", bytes, SALT_SIZE)
        if not opens(self.seed_commits[e.author], b"seed", self.game_id, e.author, b"seed", value, salt):
            raise CheatDetected(e.author, e.seq, "its seed does not match its commitment", E_CHEAT)

        def apply() -> None:
            self.seed_values.append(value)
            if len(self.seed_values) == self.players:
                self.seed = hashlib.sha256(b"palazzo/seed/v1" + b"".join(self.seed_values)).digest()
                secret = group.random_scalar() if self.me != HOST else None
                self.dealer = DEALERS[self.game](self.game_id, self.config, self.seed, self.me, secret,
                                                 self.transcript.entries[0].version)
                # a seat checks shuffle proofs beside the game; the host and verify, at once
                self.dealer.defer = self.identity is not None
                self.log.append("the seats agreed on a seed; the fair deck is being shuffled")

        return apply

    def _on_deck(self, e: Entry) -> Change:
        assert self.dealer is not None
        fork = self.dealer.fork()
        if e.author == self.me and fork.keys is None:  # this seat's own key entry
            private = self._own_secret("deck")  # a restarted program has lost it
            if private is None or not fork.restore_secret(private):
                raise self._lost("this seat's fair-deck key secret")
        try:
            fork.read_deck_entry(e.author, e.fields.get("msgs"), self.transcript.head, e.seq)
        except CheatDetected as err:
            if err.seat != e.author:  # an earlier message taken unchecked, named at its entry
                raise
            raise CheatDetected(e.author, e.seq, f"{err.step}: {err.reason}", E_CHEAT) from None
        except (ValueError, TypeError) as err:
            raise CheatDetected(e.author, e.seq, f"deck message check: {err}", E_BAD_PARAMS) from None

        def apply() -> None:
            self.dealer = fork
            fork.check_beside()

        return apply

    def _on_act(self, e: Entry) -> Change:
        rules, view = self.game_now()
        try:
            action = rules.action_from_data(e.fields.get("action"))
        except (InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, f"action check: {err}", E_BAD_PARAMS) from None
        if getattr(action, "seat", e.author) != e.author:
            raise CheatDetected(e.author, e.seq, "seat check: an action for another seat", E_NOT_YOUR_TURN)
        bad_auto = check_auto(e.fields)
        if bad_auto is not None:
            raise CheatDetected(e.author, e.seq, bad_auto, E_BAD_PARAMS)
        auto = e.fields.get("auto") is True
        assert self.dealer is not None
        if self.dealer.due() is not None:
            raise CheatDetected(e.author, e.seq, "phase check: the fair deck waits for a deck entry",
                                E_WRONG_PHASE)
        # the shares this seat took unchecked (of cards in other hands) hold before a move
        # may show one: a bad one is named at its own entry
        self.dealer.require_checked()
        fork = self.dealer.fork()
        try:
            mine, check = fork.read_act(view, action, e.fields, e.author, self.transcript.head)
        except CheatDetected as err:
            if err.seat != e.author:  # as in _on_deck
                raise
            raise CheatDetected(e.author, e.seq, f"{err.step}: {err.reason}", E_CHEAT) from None
        except MoveError as err:
            try:  # an illegal move is named as such, whatever its cards
                rules.apply(view, action)
            except (IllegalActionError, InvalidActionError, ValueError) as illegal:
                raise CheatDetected(e.author, e.seq, str(illegal), E_ILLEGAL) from None
            raise CheatDetected(e.author, e.seq, str(err), E_CHEAT) from None
        except (ValueError, TypeError) as err:
            raise CheatDetected(e.author, e.seq, f"card check: {err}", E_BAD_PARAMS) from None
        try:
            after = rules.apply(check, mine)
        except (IllegalActionError, InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, str(err), E_ILLEGAL) from None
        fork.settle(after)
        text = self._text(view, mine)
        if auto:
            seat_names = tuple(rules.seat_names)
            labels = seat_names[e.author:e.author + 1] + (self.seats[e.author].name,)
            text = timed_out_text(text, labels, self.seats[e.author].name)

        def apply() -> None:
            self.dealer = fork
            self.view = after
            self.log.append(text)
            if auto:
                self.timed_out.add(len(self.steps))
            self.steps.append((view, mine, after))

        return apply

    def _on_forfeit(self, e: Entry) -> Change:
        seat = field(e, "seat", int)
        reason = field(e, "reason", str)
        if not 1 <= len(reason) <= REASON_LIMIT or not reason.isprintable():
            raise CheatDetected(HOST, e.seq, f"a forfeit's reason is 1 to {REASON_LIMIT} printable "
                                "characters", E_BAD_PARAMS)
        if not 0 <= seat < self.players or seat in self.forfeited:
            raise CheatDetected(HOST, e.seq, f"no seat {seat} to forfeit", E_BAD_PARAMS)
        if seat in self.ended:  # the game waits for the writer and for acknowledgements
            raise CheatDetected(HOST, e.seq, f"seat {seat} signed its end already",
                                E_NOT_YOUR_TURN)

        in_end = self.phase is Phase.END

        def apply() -> None:
            self.forfeited.add(seat)
            self.forfeits.append((seat, reason))
            if self.dealer is None:  # in the seed phases: no deck, nothing to end
                self.log.append(f"{self.seats[seat].name} forfeits: {reason}")
                return
            if in_end:  # the game is over and stands: the seat only did not sign its end
                self.log.append(f"{self.seats[seat].name} did not sign the end of the game: {reason}")
            else:
                self.log.append(f"{self.seats[seat].name} forfeits: {reason}")

        return apply

    def _on_end(self, e: Entry) -> Change:
        """A seat's ``end``: its signature on the whole record (its ``prev`` is the hash of every
        entry before it), nothing more; every entry was checked when it arrived."""

        def apply() -> None:
            self.ended.append(e.author)

        return apply

    def _follow(self, kind: str | None) -> None:
        """Move to the phase ``TRANSITIONS`` says follows an entry of ``kind`` (``None``: no
        entry), then leave every phase that is left with no entry, as far as that goes."""
        row = TRANSITIONS.get((self.phase, kind))
        if row is not None and self._holds(row.when):
            self.phase = row.then
        while (row := TRANSITIONS.get((self.phase, None))) is not None and self._holds(row.when):
            self.phase = row.then

    def _holds(self, when: When) -> bool:
        if when is When.LAST_SEAT:
            if self.phase is Phase.SEED_COMMIT:
                return len(self.seed_commits) == self.players
            if self.phase is Phase.SEED_OPEN:
                return len(self.seed_values) == self.players
            return not self._end_order()
        if when is When.GAME_OVER:
            rules, view = self.game_now()
            return rules.current_player(view) == TERMINAL
        return True

    def _text(self, view: S, action: A) -> str:
        try:
            # the host and an observer (-1, no seat) hear the public form, as every seat but
            # the author does
            return self.game_now()[0].action_text(view, action, self.me)
        except Exception:
            return repr(action)

    def _advance(self) -> None:
        """Apply the chance steps the dealer resolves for this peer, as far as they go."""
        while self.phase is Phase.PLAY:
            rules, before = self.game_now()
            if rules.current_player(before) != CHANCE:
                return
            assert self.dealer is not None
            action = self.dealer.chance(before)
            if action is None:
                return
            after = rules.apply(before, action)
            self.dealer.settle(after)
            self.view = after
            self.steps.append((before, action, after))

    # -- the end ------------------------------------------------------------------------------

    def agreed(self) -> tuple[bool, str]:
        """Whether the record is agreed by every seat, and the words for it (``agreement``)."""
        return record_agreement([s.name for s in self.seats], self.ended, self.forfeits)

    def result(self) -> dict[str, Any]:
        """How the game ended (``scores``, ``winners``, ``end``, ``text``); ``verdict``: "verified"
        once over, "verified as far as it went: <how>" after a forfeit; ``agreed()``'s words."""
        over = self.phase is Phase.OVER
        agreed = self.agreed()[1] if over else "not over yet"
        rules, view = self.game_now()
        if self.forfeited and rules.current_player(view) != TERMINAL:
            text = "; ".join(f"{self.seats[s].name} forfeited ({why})" for s, why in self.forfeits)
            verdict = f"verified as far as it went: {text}" if over else "not over yet"
            return {"end": "forfeit", "forfeited": sorted(self.forfeited), "text": text,
                    "scores": [], "winners": [], "verdict": verdict, "agreed": agreed}
        o = rules.outcome(view)
        return {**o.to_data(), "text": o.detail.get("text", o.end),
                "verdict": "verified" if over else "not over yet", "agreed": agreed}


#: entry kind -> the method that checks such an entry and returns its change (``TRANSITIONS``)
CHECKS: dict[str, Callable[[Table[Any, Any, Any], Entry], Change]] = {
    "start": Table._on_start,
    "seed-commit": Table._on_seed_commit,
    "seed-open": Table._on_seed_open,
    "deck": Table._on_deck,
    "act": Table._on_act,
    "forfeit": Table._on_forfeit,
    "end": Table._on_end,
}
