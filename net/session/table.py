"""The replicated game: one peer's copy of a networked game, built from the signed transcript.

Every peer (and the host, as an observer with seat -1) holds a ``Table``. It accepts entries
one at a time, in transcript order, and for each checks, before changing anything:

1. sequence and chain (``Transcript.check_next``), and that the entry is of this game;
2. the signature, by the key of the seat named as author (or the host's key for ``-1``), which
   must be a valid Ed25519 key (``net.wire.identity.check_public_key``);
2b. for a seat's own table (one given its ``Journal``): an entry in its own name must be the one
   its journal holds for that place of this game, and an entry of another author must not stand
   where the journal holds one of its own written after another history (the host showed this
   seat a fork); either is the host's doing, and names it;
3. that the entry's kind is allowed in the current phase (``TRANSITIONS``) and that its author
   is the one due to write now (``writer()``);
4. the content: the seed commitments and their openings; every deck message (keys, shuffles,
   shares and opens, with their proofs, through ``net.games.dealer``); the cards an action names or
   shows; and the action legal on this peer's view through the rules' checked door. Everything
   is checked on a copy of the dealer (``FairDealer.fork``), kept only when the entry passes.

The ``start`` names every seat's key and fresh nonce; the game id must be ``derive_game_id`` of
them (every reader checks), and a seat's own table follows only a start that carries a nonce its
journal holds as a live contribution (``Journal.live``): a start replayed from an earlier game,
of a game this seat has finished, or a second, different start of a game it joined is refused,
naming the host. A seat signs through its journal (``_sign``): the entry is kept before it is
sent, and ``held`` gives it back, the same bytes, for the next place after a reconnect or a
restart; it is never signed anew. A sealed note is opened only in an entry the journal vouches
for, so it restores a secret only into the game that wrote it.

Failures of 1-2 are ``RemoteProtocolError`` (malformed, out of order, forged: the relay's or the
sender's fault); failures of 3-4 are ``CheatDetected`` naming the author, since the author signed
them. The host turns either into an error for the sender and relays nothing; a peer receiving
such an entry from the host stops (the host should never have relayed it). So a table holds only
entries it checked, each when it arrived, and no check waits for the end: no seat ever reveals
its deck secret or its shuffle seeds, and what a move claims about a card nobody else can see
is checked by a proof or when the rules show the card (``net.games.dealer``). A table that
reaches the end has verified the game (``result()["verdict"]``): "verified", or "verified as far
as it went: ..." when a forfeit cut the game short.

Phases and their entries (the rows of ``TRANSITIONS``; ``docs/protocol.md`` draws the same):

============  ===========  =================================  ================================
phase         entry        written by                         next phase
============  ===========  =================================  ================================
lobby         start        the host                           seed-commit
seed-commit   seed-commit  each seat in turn, from seat 0     seed-open after the last seat
seed-open     seed-open    each seat in turn, from seat 0     play after the last seat
play          deck         the seat the fair deck waits for   play
                           (keys, shuffles, shares: ``net.games.dealer``)
play          act          the seat due (a decision, or a     end when the game is over
                           reveal step)
seed-*        forfeit      the host (a turn timed out)        over (no deck yet: nothing to end)
play          forfeit      the host (a turn timed out)        end
end           end          each seat still in, from seat 0:   over after the last seat
                           its signed agreement with the
                           record (nothing of the deck)
end           forfeit      the host (a seat did not write     over after the last seat; the
                           its end in time)                   game stands, nobody is named
============  ===========  =================================  ================================

Every reader checks an entry's fields the same way before anything else of it (``FIELDS``): a
field the kind does not have, a missing one or one of another type is refused, naming the field
and the author. So the host's observer table, every peer's table and ``palazzo verify`` accept
exactly the same entries; the one check only the author can make is that its own ``sealed``
note opens (every reader checks that it is there, as bytes).

Chance steps need no entry: the fair dealer resolves them for this peer from the deck entries
as soon as their shares are in (a lot, from the joint seed, at once). A peer applies each
action to its own view: the author of a face-down card applies the card itself (it knows the
card behind the handle), everyone else the public form with the card ``UNKNOWN``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engine.core import CHANCE, REVEAL, TERMINAL, IllegalActionError, InvalidActionError
from engine.registry import get_game
from net.deck import group
from net.games.condottiere import CondottiereDealer
from net.games.dealer import FairDealer, MoveError
from net.games.medici import MediciDealer
from net.session.chat import check_record
from net.session.commit import COMMIT_SIZE, SALT_SIZE, commit, new_salt, opens
from net.session.journal import Journal
from net.session.timeout import check_auto, timed_out_text
from net.wire.errors import HOST, CheatDetected, LocalProtocolError, RemoteProtocolError
from net.wire.identity import PUBLIC_KEY_SIZE, Identity, InvalidKey, check_public_key
from net.wire.rpc import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_CHEAT,
    E_ILLEGAL,
    E_NOT_YOUR_TURN,
    E_WRONG_PHASE,
)
from net.wire.transcript import (
    NONCE_SIZE,
    Entry,
    Transcript,
    chain,
    derive_game_id,
    pack,
    unpack,
)

NAME_LIMIT = 32
MAX_TIME = 253_402_300_799  # the start time, in seconds since 1970: at most the end of 9999
REASON_LIMIT = 200  # characters of a forfeit's reason
MAX_TIMEOUT = 7 * 24 * 3600  # a turn timeout in seconds, at most a week
SEAL_OVERHEAD = 12 + 16  # nonce and tag of a sealed note (``Identity.seal``)
HEADER = ("v", "game", "seq", "prev", "author", "kind")
#: each kind's fields beyond the ``HEADER``: name -> (type, required). An ``act`` entry may also
#: carry its dealer's ``ACT_FIELDS`` (the cards it names or shows).
FIELDS: dict[str, dict[str, tuple[type, bool]]] = {
    "start": {"rules": (str, True), "config": (dict, True), "host": (bytes, True),
              "seats": (list, True), "time": (int, True), "timeout": (int, True),
              "on_timeout": (str, True), "hints": (bool, False)},
    "seed-commit": {"commit": (bytes, True), "sealed": (bytes, True), "said": (list, False)},
    "seed-open": {"value": (bytes, True), "salt": (bytes, True), "said": (list, False)},
    "deck": {"msgs": (list, True), "sealed": (bytes, True), "said": (list, False)},
    "act": {"action": (dict, True), "auto": (bool, False), "said": (list, False)},
    "forfeit": {"seat": (int, True), "reason": (str, True)},
    "end": {"said": (list, False)},
}
DEALERS: dict[str, type[FairDealer]] = {"medici": MediciDealer, "condottiere": CondottiereDealer}


@dataclass(frozen=True)
class SeatInfo:
    name: str
    key: bytes
    nonce: bytes = b""


class Table:
    """One peer's copy of a networked game (see the module docstring)."""

    def __init__(self, host_key: bytes, identity: Identity | None = None,
                 journal: Journal | None = None) -> None:
        self.host_key = host_key
        self.identity = identity
        self.journal = journal if identity is not None else None
        self.phase = "lobby"
        self.transcript = Transcript()
        self.me = HOST
        self.game_id = b""
        self.game = ""
        self.started = 0
        self.rules: Any = None
        self.config: Any = None
        self.seats: list[SeatInfo] = []
        self.view: Any = None
        self.dealer: FairDealer | None = None
        self.seed = b""
        self.seed_commits: list[bytes] = []
        self.seed_values: list[bytes] = []
        self.my_seed: tuple[bytes, bytes] | None = None
        self.forfeited: set[int] = set()
        self.forfeits: list[tuple[int, str]] = []  # (seat, the host's reason), in order
        self.ended: list[int] = []
        self.timeout = 0
        self.on_timeout = "forfeit"
        #: whether the host allows the coach (``tui.screens.hint``): the start's ``hints``
        self.hints = False
        self.log: list[str] = []
        #: this seat's own entry checked ahead: its place, the entry, the change to make
        self._ahead: tuple[int, Entry, Any] | None = None
        #: table talk (``net.session.chat``): the messages the record carries, in order, as
        #: (seat, n, after, text, seq of the entry), each seat's last (n, after) among them, the
        #: live messages this reader saw (seat -> n -> (after, text)) to check the record
        #: against, and this seat's own messages the host accepted, for its next entry
        self.said: list[tuple[int, int, int, str, int]] = []
        self.said_last: dict[int, tuple[int, int]] = {}
        self.live: dict[int, dict[int, tuple[int, str]]] = {}
        self.said_out: list[dict[str, Any]] = []
        #: every step applied to this peer's view, chance steps included, as
        #: (view before, action as this peer knows it, view after): a table screen tells them
        self.steps: list[tuple[Any, Any, Any]] = []
        #: the indices in ``steps`` of the moves a seat's program played after the turn limit
        #: (``auto``, ``net.session.timeout``)
        self.timed_out: set[int] = set()

    # -- whose move ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.seats)

    def writer(self) -> int | None:
        """The author due to write the next entry (``HOST`` for the host), or ``None``."""
        phase = self.phase
        if phase == "lobby":
            return HOST
        if phase == "seed-commit":
            return len(self.seed_commits)
        if phase == "seed-open":
            return len(self.seed_values)
        if phase == "play":
            assert self.dealer is not None
            due = self.dealer.due()
            if due is not None:
                return due
            cp: int = self.rules.current_player(self.view)
            if cp >= 0:
                return cp
            if cp == REVEAL:
                revealer: int = self.rules.revealer(self.view)
                return revealer
            return None
        if phase == "end":
            left = self._end_order()
            return left[0] if left else None
        return None

    def _end_order(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.forfeited and s not in self.ended]

    def decision_due(self) -> bool:
        """Whether this peer's seat must choose an action now (not when it chose already: its
        journal holds the entry, which goes out again as it is)."""
        return (
            self.phase == "play"
            and self.me != HOST
            and self.dealer is not None
            and self.dealer.due() is None
            and self.rules.current_player(self.view) == self.me
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
        talk = self._check_said(entry)  # here, never ahead: the live messages change meanwhile
        self.transcript.append(entry)
        apply()
        for n, after, text in talk:
            self.said.append((entry.author, n, after, text, entry.seq))
            self.said_last[entry.author] = (n, after)
        self._advance()

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

    def _check(self, entry: Entry) -> Any:
        """Every check of ``accept`` (the module docstring's 1-4); the change to make."""
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
            raise RemoteProtocolError(f"entry {seq}: bad signature for its author", E_BAD_SIGNATURE)
        self._check_own(entry)
        handler = TRANSITIONS.get((self.phase, kind))
        if handler is None:
            raise CheatDetected(author, seq, f"a {kind!r} entry is not allowed in phase {self.phase}",
                                E_WRONG_PHASE)
        due = HOST if kind == "forfeit" else self.writer()
        if author != due:
            who = "the host" if due == HOST else f"seat {due}"
            raise CheatDetected(author, seq, f"out of turn: {who} must write now", E_NOT_YOUR_TURN)
        self._check_fields(entry)
        return handler(self, entry)  # checks everything, returns the change to make

    def _check_said(self, entry: Entry) -> list[tuple[int, int, str]]:
        """The messages ``entry`` records (``net.session.chat.check_record``)."""
        if "said" not in entry.fields:
            return []
        last_n, last_after = self.said_last.get(entry.author, (0, 0))
        return check_record(entry.fields["said"], entry.author, entry.seq, last_n, last_after,
                            self.live.get(entry.author, {}))

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

    def author_key(self, author: int) -> bytes | None:
        """The key that signs ``author``'s entries (the host's for ``HOST``), or ``None``."""
        if author == HOST:
            return self.host_key
        return self.seats[author].key if 0 <= author < len(self.seats) else None

    def _check_fields(self, entry: Entry) -> None:
        """``CheatDetected`` naming the first field of ``entry`` its kind does not have, that
        is missing, or that is of another type (``FIELDS``)."""
        kind = entry.kind
        spec = dict(FIELDS[kind])
        if kind == "act" and self.dealer is not None:
            spec.update({name: (t, False) for name, t in self.dealer.ACT_FIELDS.items()})
        for name in entry.fields:
            if name not in spec and name not in HEADER:
                raise CheatDetected(entry.author, entry.seq,
                                    f"unknown field {name!r} in a {kind!r} entry", E_BAD_PARAMS)
        for name, (t, required) in spec.items():
            if name not in entry.fields:
                if required:
                    raise CheatDetected(entry.author, entry.seq,
                                        f"field {name!r} is missing from a {kind!r} entry",
                                        E_BAD_PARAMS)
            elif type(entry.fields[name]) is not t:
                raise CheatDetected(entry.author, entry.seq,
                                    f"field {name!r} of a {kind!r} entry must be {t.__name__}",
                                    E_BAD_PARAMS)
        if "sealed" in spec and len(entry.fields["sealed"]) < SEAL_OVERHEAD:
            raise CheatDetected(entry.author, entry.seq, "field 'sealed' is too short to be a "
                                "sealed note", E_BAD_PARAMS)

    def _field(self, entry: Entry, name: str, t: type[Any], size: int | None = None) -> Any:
        v: Any = entry.fields.get(name)
        if type(v) is not t or (size is not None and len(v) != size):
            extra = f" of {size} bytes" if size is not None else ""
            raise CheatDetected(entry.author, entry.seq, f"field {name!r} must be {t.__name__}{extra}",
                                E_BAD_PARAMS)
        return v

    def _on_start(self, e: Entry) -> Any:
        try:
            game = get_game(self._field(e, "rules", str))
            config = game.rules.Config.from_data(e.fields.get("config"))
        except (ValueError, TypeError) as err:
            raise CheatDetected(HOST, e.seq, f"bad game in start: {err}", E_BAD_PARAMS) from None
        seats = []
        for i, s in enumerate(self._field(e, "seats", list)):
            if type(s) is not dict or set(s) != {"name", "key", "nonce"}:
                raise CheatDetected(HOST, e.seq, "a seat is {name, key, nonce}", E_BAD_PARAMS)
            name, key, nonce = s["name"], s["key"], s["nonce"]
            if type(name) is not str or not 1 <= len(name) <= NAME_LIMIT or not name.isprintable() \
                    or type(key) is not bytes or len(key) != PUBLIC_KEY_SIZE \
                    or type(nonce) is not bytes or len(nonce) != NONCE_SIZE:
                raise CheatDetected(HOST, e.seq, f"a seat is {{name: 1 to {NAME_LIMIT} printable "
                                    "characters, key: 32 bytes, nonce: 32 bytes}", E_BAD_PARAMS)
            try:
                check_public_key(key)
            except InvalidKey as err:
                raise CheatDetected(HOST, e.seq, f"seat {i}'s key is refused ({err})",
                                    E_BAD_PARAMS) from None
            seats.append(SeatInfo(name, key, nonce))
        if len(seats) != config.players or len({s.key for s in seats}) != len(seats):
            raise CheatDetected(HOST, e.seq, "the seats do not match the players", E_BAD_PARAMS)
        if self._field(e, "host", bytes, PUBLIC_KEY_SIZE) != self.host_key:
            raise CheatDetected(HOST, e.seq, "the start names another host key", E_BAD_PARAMS)
        game_id = e.fields["game"]
        if game_id != derive_game_id(self.host_key, [(s.key, s.nonce) for s in seats]):
            raise CheatDetected(HOST, e.seq, "game id check: the game id is not the one the host "
                                "key and the seats' keys and nonces make", E_BAD_PARAMS)
        mine = self._own_contribution(e, seats)
        started = self._field(e, "time", int)
        if not 0 <= started <= MAX_TIME:
            raise CheatDetected(HOST, e.seq, "the start time is not a time", E_BAD_PARAMS)
        timeout, on_timeout = e.fields["timeout"], e.fields["on_timeout"]
        if not 0 <= timeout <= MAX_TIMEOUT or on_timeout not in ("forfeit", "bot"):
            raise CheatDetected(HOST, e.seq, "bad turn timeout in start", E_BAD_PARAMS)

        def apply() -> None:
            self.game_id = game_id
            if mine is not None:
                assert self.journal is not None
                self.journal.bind(mine, game_id, self.transcript.head)
            self.game, self.rules, self.config = game.rules.name, game.rules, config
            self.seats, self.started = seats, started
            self.timeout, self.on_timeout = timeout, on_timeout
            self.hints = e.fields.get("hints", False)
            keys = [s.key for s in seats]
            if self.identity is not None and self.identity.public_key in keys:
                self.me = keys.index(self.identity.public_key)
            # an observer sees as a seat that holds nothing: the seat number after the last
            self.view = self.rules.view(self.rules.new_game(config),
                                        self.me if self.me != HOST else len(seats))
            self.phase = "seed-commit"
            self.log.append(f"{self.rules.title}: " + ", ".join(s.name for s in seats))

        return apply

    def _own_contribution(self, e: Entry, seats: list[SeatInfo]) -> bytes | None:
        """This seat's nonce in the start, checked against its journal (a seat's own table
        only): the start must seat this peer with a live contribution of its own."""
        if self.journal is None or self.identity is None:
            return None
        mine = [s.nonce for s in seats if s.key == self.identity.public_key]
        if not mine:
            raise CheatDetected(HOST, e.seq, "contribution check: the start does not seat this peer",
                                E_CHEAT)
        why = self.journal.live(mine[0], e.fields["game"], chain(e.fields["prev"], e))
        if why is not None:
            raise CheatDetected(HOST, e.seq, "contribution check: the start lacks this seat's fresh "
                                f"contribution: {why} (a replayed or forged start)", E_CHEAT)
        return mine[0]

    def _on_seed_commit(self, e: Entry) -> Any:
        c = self._field(e, "commit", bytes, COMMIT_SIZE)
        mine = self._unseal(e, "seed") if e.author == self.me else None

        def apply() -> None:
            self.seed_commits.append(c)
            if mine is not None:
                self.my_seed = (mine["value"], mine["salt"])
            if len(self.seed_commits) == self.players:
                self.phase = "seed-open"

        return apply

    def _on_seed_open(self, e: Entry) -> Any:
        value = self._field(e, "value", bytes, 32)
        salt = self._field(e, "salt", bytes, SALT_SIZE)
        if not opens(self.seed_commits[e.author], b"seed", self.game_id, e.author, b"seed", value, salt):
            raise CheatDetected(e.author, e.seq, "its seed does not match its commitment", E_CHEAT)

        def apply() -> None:
            self.seed_values.append(value)
            if len(self.seed_values) == self.players:
                self.seed = hashlib.sha256(b"palazzo/seed/v1" + b"".join(self.seed_values)).digest()
                secret = group.random_scalar() if self.me != HOST else None
                self.dealer = DEALERS[self.game](self.game_id, self.config, self.seed, self.me, secret,
                                                 self.transcript.entries[0].fields["v"])
                self.phase = "play"
                self.log.append("the seats agreed on a seed; the fair deck is being shuffled")

        return apply

    def _on_deck(self, e: Entry) -> Any:
        assert self.dealer is not None
        fork = self.dealer.fork()
        private = self._unseal(e, "deck") if e.author == self.me else None
        if private is not None:  # this seat's own secret (a restarted peer has lost it)
            fork.restore_secret(private)
        try:
            fork.read_deck_entry(e.author, e.fields.get("msgs"), self.transcript.head)
        except CheatDetected as err:
            raise CheatDetected(e.author, e.seq, f"{err.step}: {err.reason}", E_CHEAT) from None
        except (ValueError, TypeError) as err:
            raise CheatDetected(e.author, e.seq, f"bad deck message: {err}", E_BAD_PARAMS) from None

        def apply() -> None:
            self.dealer = fork

        return apply

    def _on_act(self, e: Entry) -> Any:
        try:
            action = self.rules.action_from_data(e.fields.get("action"))
        except (InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, f"malformed action: {err}", E_BAD_PARAMS) from None
        if getattr(action, "seat", e.author) != e.author:
            raise CheatDetected(e.author, e.seq, "an action for another seat", E_NOT_YOUR_TURN)
        bad_auto = check_auto(e.fields)
        if bad_auto is not None:
            raise CheatDetected(e.author, e.seq, bad_auto, E_BAD_PARAMS)
        auto = e.fields.get("auto") is True
        assert self.dealer is not None
        if self.dealer.due() is not None:
            raise CheatDetected(e.author, e.seq, "the fair deck waits for a deck entry, not a move",
                                E_WRONG_PHASE)
        view = self.view
        fork = self.dealer.fork()
        try:
            mine, check = fork.read_act(view, action, e.fields, e.author, self.transcript.head)
        except CheatDetected as err:
            raise CheatDetected(e.author, e.seq, f"{err.step}: {err.reason}", E_CHEAT) from None
        except MoveError as err:
            try:  # an illegal move is named as such, whatever its cards
                self.rules.apply(view, action)
            except (IllegalActionError, InvalidActionError, ValueError) as illegal:
                raise CheatDetected(e.author, e.seq, str(illegal), E_ILLEGAL) from None
            raise CheatDetected(e.author, e.seq, str(err), E_CHEAT) from None
        except (ValueError, TypeError) as err:
            raise CheatDetected(e.author, e.seq, f"bad cards: {err}", E_BAD_PARAMS) from None
        try:
            after = self.rules.apply(check, mine)
        except (IllegalActionError, InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, str(err), E_ILLEGAL) from None
        fork.settle(after)
        text = self._text(view, mine)
        if auto:
            seat_names = tuple(self.rules.seat_names)
            labels = seat_names[e.author:e.author + 1] + (self.seats[e.author].name,)
            text = timed_out_text(text, labels, self.seats[e.author].name)

        def apply() -> None:
            self.dealer = fork
            self.view = after
            self.log.append(text)
            if auto:
                self.timed_out.add(len(self.steps))
            self.steps.append((view, mine, after))
            if self.rules.current_player(after) == TERMINAL:
                self._to_end()

        return apply

    def _on_forfeit(self, e: Entry) -> Any:
        seat = self._field(e, "seat", int)
        reason = self._field(e, "reason", str)
        if not 1 <= len(reason) <= REASON_LIMIT or not reason.isprintable():
            raise CheatDetected(HOST, e.seq, f"a forfeit's reason is 1 to {REASON_LIMIT} printable "
                                "characters", E_BAD_PARAMS)
        if not 0 <= seat < self.players or seat in self.forfeited:
            raise CheatDetected(HOST, e.seq, f"no seat {seat} to forfeit", E_BAD_PARAMS)
        if seat != self.writer():  # only the seat the game waits for can have run out of time
            raise CheatDetected(HOST, e.seq, f"seat {seat} is not the one due to write",
                                E_NOT_YOUR_TURN)

        in_end = self.phase == "end"

        def apply() -> None:
            self.forfeited.add(seat)
            self.forfeits.append((seat, reason))
            if self.dealer is None:  # in the seed phases: no deck, nothing to end
                self.log.append(f"{self.seats[seat].name} forfeits: {reason}")
                self.phase = "over"
                return
            if in_end:  # the game is over and stands: the seat only did not sign its end
                self.log.append(f"{self.seats[seat].name} did not sign the end of the game: {reason}")
            else:
                self.log.append(f"{self.seats[seat].name} forfeits: {reason}")
            self._to_end()

        return apply

    def _on_end(self, e: Entry) -> Any:
        """A seat's ``end``: its signature on the whole record (its ``prev`` is the hash of every
        entry before it), nothing more; every entry was checked when it arrived."""

        def apply() -> None:
            self.ended.append(e.author)
            if not self._end_order():
                self.phase = "over"

        return apply

    def _to_end(self) -> None:
        self.phase = "end" if self._end_order() else "over"

    def _unseal(self, e: Entry, slot: str) -> dict[str, Any]:
        """This seat's own note in ``e``: an entry of this game (the associated data names it),
        which a seat's own table has matched with its journal (``_check_own``)."""
        assert self.identity is not None
        if self.journal is not None and self.journal.finished(self.game_id):
            raise CheatDetected(HOST, e.seq, "journal check: this seat has finished this game; "
                                "its notes stay sealed", E_CHEAT)
        sealed = self._field(e, "sealed", bytes)
        plain = self.identity.unseal(self._aad(slot), sealed)
        if plain is None:
            raise RemoteProtocolError(f"entry {e.seq}: this seat's own note does not open",
                                      E_BAD_SIGNATURE)
        note = unpack(plain)
        if type(note) is not dict:
            raise RemoteProtocolError(f"entry {e.seq}: this seat's own note is not a map",
                                      E_BAD_PARAMS)
        return note

    def _aad(self, slot: str) -> bytes:
        return self.game_id + b"/" + slot.encode()

    def _text(self, view: Any, action: Any) -> str:
        try:
            # the host and an observer (-1, no seat) hear the public form, as every seat but
            # the author does
            said: str = self.rules.action_text(view, action, self.me)
            return said
        except Exception:
            return repr(action)

    def _advance(self) -> None:
        """Apply the chance steps the dealer resolves for this peer, as far as they go."""
        while self.phase == "play" and self.rules.current_player(self.view) == CHANCE:
            assert self.dealer is not None
            action = self.dealer.chance(self.view)
            if action is None:
                return
            after = self.rules.apply(self.view, action)
            self.dealer.settle(after)
            before, self.view = self.view, after
            self.steps.append((before, action, after))
            if self.rules.current_player(after) == TERMINAL:
                self._to_end()

    # -- writing entries ----------------------------------------------------------------------

    def _header(self, kind: str) -> dict[str, Any]:
        return {"game": self.game_id, "seq": len(self.transcript), "prev": self.transcript.head,
                "author": self.me, "kind": kind}

    def _sign(self, fields: dict[str, Any]) -> Entry:
        """Sign an entry of this seat's and keep it in the journal before anyone sees it."""
        assert self.identity is not None
        last = self.said_last.get(self.me, (0, 0))[0]
        said = [m for m in self.said_out if m["n"] > last]
        self.said_out = []
        if said:  # never an empty list: an entry without talk keeps its bytes
            fields["said"] = said
        entry = Entry.sign(self.identity, fields)
        if self.journal is not None:
            self.journal.write(self.game_id, entry)
        return entry

    def decide(self, action: Any, auto: bool = False) -> Entry:
        """The entry for this seat's decision; ``LocalProtocolError`` if it is not legal now.
        ``auto``: the seat's program chose it after the turn limit (``net.session.timeout``)."""
        if not self.decision_due():
            raise LocalProtocolError("it is not this seat's turn to decide")
        try:
            self.rules.apply(self.view, action)
        except (IllegalActionError, InvalidActionError) as err:
            raise LocalProtocolError(str(err)) from None
        return self._act_entry(action, auto)

    def _act_entry(self, action: Any, auto: bool = False) -> Entry:
        assert self.dealer is not None
        fields = self._header("act")
        fields["action"] = self.rules.action_to_data(self.dealer.public(self.view, action))
        fields.update(self.dealer.act_fields(self.view, action, self.transcript.head))
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
        if phase == "seed-commit":
            value, salt = new_salt(), new_salt()
            fields = self._header("seed-commit")
            fields["commit"] = commit(b"seed", self.game_id, self.me, b"seed", value, salt)
            fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
                self._aad("seed"), pack({"value": value, "salt": salt})
            )
            return self._sign(fields)
        if phase == "seed-open":
            assert self.my_seed is not None
            fields = self._header("seed-open")
            fields["value"], fields["salt"] = self.my_seed
            return self._sign(fields)
        assert self.dealer is not None
        if phase == "play":
            if self.dealer.due() == self.me:
                fields = self._header("deck")
                public, private = self.dealer.make_deck_entry(self.transcript.head)
                fields.update(public)
                fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
                    self._aad("deck"), pack(private))
                return self._sign(fields)
            if self.rules.current_player(self.view) == REVEAL:
                return self._act_entry(self.rules.legal_actions(self.view)[0])
            return None
        if phase == "end":
            return self._sign(self._header("end"))
        return None

    # -- the end ------------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """How the game ended, as plain data (``scores``, ``winners``, ``end``, ``text``), and
        ``verdict``: "verified" once over (every entry was checked as it arrived), "verified as
        far as it went: <how it ended>" when a forfeit cut the game short."""
        over = self.phase == "over"
        if self.forfeited and self.rules.current_player(self.view) != TERMINAL:
            text = "; ".join(f"{self.seats[s].name} forfeited ({why})" for s, why in self.forfeits)
            verdict = f"verified as far as it went: {text}" if over else "not over yet"
            return {"end": "forfeit", "forfeited": sorted(self.forfeited), "text": text,
                    "scores": [], "winners": [], "verdict": verdict}
        o = self.rules.outcome(self.view)
        return {**o.to_data(), "text": o.detail.get("text", o.end),
                "verdict": "verified" if over else "not over yet"}


TRANSITIONS: dict[tuple[str, str], Any] = {
    ("lobby", "start"): Table._on_start,
    ("seed-commit", "seed-commit"): Table._on_seed_commit,
    ("seed-open", "seed-open"): Table._on_seed_open,
    ("play", "act"): Table._on_act,
    ("play", "deck"): Table._on_deck,
    ("seed-commit", "forfeit"): Table._on_forfeit,
    ("seed-open", "forfeit"): Table._on_forfeit,
    ("play", "forfeit"): Table._on_forfeit,
    ("end", "forfeit"): Table._on_forfeit,
    ("end", "end"): Table._on_end,
}
