"""The replicated game: one peer's copy of a networked game, built from the signed transcript.

Every peer (and the host, as an observer with seat -1) holds a ``Table``. It accepts entries
one at a time, in transcript order, and for each checks, before changing anything:

1. sequence and chain (``Transcript.check_next``), and that the entry is of this game;
2. the signature, by the key of the seat named as author (or the host's key for ``-1``);
3. that the entry's kind is allowed in the current phase (``TRANSITIONS``) and that its author
   is the one due to write now (``writer()``);
4. the content: commitments well formed, openings matching their commitments, and the action
   legal on this peer's view through the rules' checked door.

Failures of 1-2 are ``RemoteProtocolError`` (malformed, out of order, forged: the relay's or the
sender's fault); failures of 3-4 are ``CheatDetected`` naming the author, since the author signed
them. The host turns either into an error for the sender and relays nothing; a peer receiving
such an entry from the host stops (the host should never have relayed it).

Phases and their entries (the rows of ``TRANSITIONS``; ``docs/protocol.md`` draws the same):

============  ===========  =================================  ================================
phase         entry        written by                         next phase
============  ===========  =================================  ================================
lobby         start        the host                           seed-commit
seed-commit   seed-commit  each seat in turn, from seat 0     seed-open after the last seat
seed-open     seed-open    each seat in turn, from seat 0     play after the last seat
play          act          the seat due (decision, reveal,    end when the game is over
                           or a draw only its owner knows)
seed-*, play  forfeit      the host (a turn timed out)        end
end           end          each seat still in, from seat 0    over after the last seat
============  ===========  =================================  ================================

Chance steps need no entry while the dealer (``net.dealer``) can resolve them for this peer;
they are applied as soon as the step comes up. A peer applies each action to its own view: the
author of a face-down card applies the card itself (recovered from its sealed note), everyone
else the public form with the card ``UNKNOWN``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack

from engine.core import CHANCE, REVEAL, TERMINAL, IllegalActionError, InvalidActionError
from engine.registry import get_game
from net.commit import COMMIT_SIZE, SALT_SIZE, card_value, commit, new_salt, opens
from net.dealer import Dealer, seed_dealer
from net.errors import HOST, CheatDetected, LocalProtocolError, RemoteProtocolError
from net.identity import PUBLIC_KEY_SIZE, Identity
from net.policy import make_policy
from net.replay import REPLAYED, replay
from net.rpc import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_CHEAT,
    E_ILLEGAL,
    E_NOT_YOUR_TURN,
    E_WRONG_PHASE,
)
from net.transcript import Entry, Transcript

NAME_LIMIT = 32
OPENINGS_LIMIT = 1024


@dataclass(frozen=True)
class SeatInfo:
    name: str
    key: bytes


class Table:
    """One peer's copy of a networked game (see the module docstring)."""

    def __init__(self, host_key: bytes, identity: Identity | None = None) -> None:
        self.host_key = host_key
        self.identity = identity
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
        self.policy: Any = None
        self.dealer: Dealer | None = None
        self.seed = b""
        self.commitments: dict[tuple[int, str], bytes] = {}
        self.opened: set[tuple[int, str]] = set()
        self.revealed: dict[tuple[int, str], int] = {}  # the card of each opened commitment
        self.verdict: CheatDetected | None = None  # the end-of-game replay's finding
        self.secrets: dict[str, tuple[int, bytes]] = {}
        self.seed_commits: list[bytes] = []
        self.seed_values: list[bytes] = []
        self.my_seed: tuple[bytes, bytes] | None = None
        self.forfeited: set[int] = set()
        self.ended: list[int] = []
        self.timeout = 0
        self.on_timeout = "forfeit"
        self.log: list[str] = []
        #: every step applied to this peer's view, chance steps included, as
        #: (view before, action as this peer knows it, view after): a table screen tells them
        self.steps: list[tuple[Any, Any, Any]] = []

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
            cp = self.rules.current_player(self.view)
            if cp >= 0:
                return cp
            if cp == REVEAL:
                return self.rules.revealer(self.view)
            if cp == CHANCE:
                return self.policy.chance_writer(self.view)
            return None
        if phase == "end":
            left = self._end_order()
            return left[0] if left else None
        return None

    def _end_order(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.forfeited and s not in self.ended]

    def decision_due(self) -> bool:
        """Whether this peer's seat must choose an action now."""
        return (
            self.phase == "play"
            and self.me >= 0
            and self.rules.current_player(self.view) == self.me
        )

    # -- accepting entries --------------------------------------------------------------------

    def accept(self, entry: Entry) -> None:
        """Check ``entry`` and apply it, or raise without changing anything."""
        self.transcript.check_next(entry)
        seq, author, kind = entry.seq, entry.author, entry.kind
        if self.game_id and entry.fields["game"] != self.game_id:
            raise RemoteProtocolError(f"entry {seq} belongs to another game", E_BAD_PARAMS)
        key = self.host_key if author == HOST else self._seat_key(author, seq)
        if not entry.signed_by(key):
            raise RemoteProtocolError(f"entry {seq}: bad signature for its author", E_BAD_SIGNATURE)
        handler = TRANSITIONS.get((self.phase, kind))
        if handler is None:
            raise CheatDetected(author, seq, f"a {kind!r} entry is not allowed in phase {self.phase}",
                                E_WRONG_PHASE)
        due = HOST if kind == "forfeit" else self.writer()
        if author != due:
            who = "the host" if due == HOST else f"seat {due}"
            raise CheatDetected(author, seq, f"out of turn: {who} must write now", E_NOT_YOUR_TURN)
        apply = handler(self, entry)  # checks everything, returns the change to make
        self.transcript.append(entry)
        apply()
        self._advance()

    def _seat_key(self, author: int, seq: int) -> bytes:
        if not 0 <= author < len(self.seats):
            raise RemoteProtocolError(f"entry {seq}: no seat {author} in this game", E_BAD_PARAMS)
        return self.seats[author].key

    def _field(self, entry: Entry, name: str, t: type, size: int | None = None) -> Any:
        v = entry.fields.get(name)
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
        for s in self._field(e, "seats", list):
            name, key = s.get("name") if type(s) is dict else None, s.get("key") if type(s) is dict else None
            if type(name) is not str or len(name) > NAME_LIMIT or type(key) is not bytes \
                    or len(key) != PUBLIC_KEY_SIZE:
                raise CheatDetected(HOST, e.seq, "a seat is {name, key}", E_BAD_PARAMS)
            seats.append(SeatInfo(name, key))
        if len(seats) != config.players or len({s.key for s in seats}) != len(seats):
            raise CheatDetected(HOST, e.seq, "the seats do not match the players", E_BAD_PARAMS)
        if self._field(e, "host", bytes, PUBLIC_KEY_SIZE) != self.host_key:
            raise CheatDetected(HOST, e.seq, "the start names another host key", E_BAD_PARAMS)
        started = self._field(e, "time", int)
        timeout = e.fields.get("timeout", 0)
        on_timeout = e.fields.get("on_timeout", "forfeit")
        if type(timeout) is not int or timeout < 0 or on_timeout not in ("forfeit", "bot"):
            raise CheatDetected(HOST, e.seq, "bad turn timeout in start", E_BAD_PARAMS)

        def apply() -> None:
            self.game_id = e.fields["game"]
            self.game, self.rules, self.config = game.rules.name, game.rules, config
            self.seats, self.started = seats, started
            self.timeout, self.on_timeout = timeout, on_timeout
            keys = [s.key for s in seats]
            if self.identity is not None and self.identity.public_key in keys:
                self.me = keys.index(self.identity.public_key)
            # an observer sees as a seat that holds nothing: the seat number after the last
            self.view = self.rules.view(self.rules.new_game(config),
                                        self.me if self.me >= 0 else len(seats))
            self.policy = make_policy(self.game, config)
            self.phase = "seed-commit"
            self.log.append(f"{self.rules.title}: " + ", ".join(s.name for s in seats))

        return apply

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
                self.dealer = seed_dealer(self.game, self.seed, self.config)
                self.phase = "play"
                self.log.append("the seats agreed on a seed; the cards are dealt")

        return apply

    def _on_act(self, e: Entry) -> Any:
        try:
            action = self.rules.action_from_data(e.fields.get("action"))
        except (InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, f"malformed action: {err}", E_BAD_PARAMS) from None
        if getattr(action, "seat", e.author) != e.author:
            raise CheatDetected(e.author, e.seq, "an action for another seat", E_NOT_YOUR_TURN)
        policy, view = self.policy, self.view
        mine = dealt = action
        slot = policy.hidden_slot(action)
        c = None
        secret = None
        if slot is None:
            if policy.public(action) != action:
                raise CheatDetected(e.author, e.seq, "an action must travel in its public form",
                                    E_BAD_PARAMS)
            try:
                mine, dealt = policy.reader_actions(action, e.fields, e.author == self.me)
            except ValueError as err:
                raise CheatDetected(e.author, e.seq, str(err), E_BAD_PARAMS) from None
        else:
            c = self._field(e, "commit", bytes, COMMIT_SIZE)
            if policy.public(action) != action:
                raise CheatDetected(e.author, e.seq, "a face-down card must not be named", E_BAD_PARAMS)
            if e.author == self.me:
                note = self._unseal(e, slot)
                secret = (note["card"], note["salt"])
                mine = dealt = policy.with_card(action, note["card"])
        opening = policy.opening(view, action)
        if opening is not None:
            seat, oslot = opening
            salt = self._field(e, "salt", bytes, SALT_SIZE)
            known = self.commitments.get((seat, oslot))
            if known is None or (seat, oslot) in self.opened:
                raise CheatDetected(e.author, e.seq, f"nothing to open at {oslot}", E_CHEAT)
            if not opens(known, b"card", self.game_id, seat, oslot.encode(), card_value(action.card), salt):
                raise CheatDetected(e.author, e.seq,
                                    f"the card shown at {oslot} does not match its commitment", E_CHEAT)
        try:
            after = self.rules.apply(policy.prepare(view, mine, e.fields), mine)
        except (IllegalActionError, InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, str(err), E_ILLEGAL) from None
        text = self._text(view, mine)
        assert self.dealer is not None
        try:  # the last check: the dealer follows the action (and changes only if it fits)
            self.dealer.note(view, dealt)
        except (IllegalActionError, InvalidActionError, ValueError) as err:
            raise CheatDetected(e.author, e.seq, f"the dealer refuses it: {err}", E_ILLEGAL) from None

        def apply() -> None:
            if slot is not None:
                self.commitments[(e.author, slot)] = c  # type: ignore[assignment]
                if secret is not None:
                    self.secrets[slot] = secret
            if opening is not None:
                self.opened.add(opening)
                self.revealed[opening] = action.card
            policy.note(view, mine)
            self.view = after
            self.log.append(text)
            self.steps.append((view, mine, after))
            if self.rules.current_player(after) == TERMINAL:
                self._to_end()

        return apply

    def _on_forfeit(self, e: Entry) -> Any:
        seat = self._field(e, "seat", int)
        reason = self._field(e, "reason", str)
        if not 0 <= seat < self.players or seat in self.forfeited:
            raise CheatDetected(HOST, e.seq, f"no seat {seat} to forfeit", E_BAD_PARAMS)

        def apply() -> None:
            self.forfeited.add(seat)
            self.log.append(f"{self.seats[seat].name} forfeits: {reason}")
            self._to_end()

        return apply

    def _on_end(self, e: Entry) -> Any:
        blob = self._field(e, "openings", bytes)
        try:
            items = msgpack.unpackb(blob, raw=False, max_array_len=OPENINGS_LIMIT, ext_hook=_no_ext)
            openings = {}
            for s, c, salt in items:
                if type(s) is not str or type(c) is not int or type(salt) is not bytes:
                    raise ValueError("bad opening")
                openings[(e.author, s)] = (c, salt)
        except Exception:
            raise CheatDetected(e.author, e.seq, "openings are [[slot, card, salt], ...]",
                                E_BAD_PARAMS) from None
        due = {k for k in self.commitments if k[0] == e.author and k not in self.opened}
        if set(openings) != due:
            raise CheatDetected(e.author, e.seq, "the end must open every unopened commitment", E_CHEAT)
        for (seat, slot), (card, salt) in openings.items():
            if not -(1 << 15) <= card < (1 << 15) or not opens(
                self.commitments[(seat, slot)], b"card", self.game_id, seat, slot.encode(),
                card_value(card), salt,
            ):
                raise CheatDetected(e.author, e.seq, f"the card at {slot} does not match", E_CHEAT)

        def apply() -> None:
            self.opened.update(openings)
            self.revealed.update((k, card) for k, (card, _) in openings.items())
            self.ended.append(e.author)
            if not self._end_order():
                self.phase = "over"
                if self.game in REPLAYED and not self.forfeited:
                    self.verdict = replay(self)
                    if self.verdict is not None:
                        self.log.append(str(self.verdict))

        return apply

    def _to_end(self) -> None:
        self.phase = "end" if self._end_order() else "over"

    def _unseal(self, e: Entry, slot: str) -> dict[str, Any]:
        assert self.identity is not None
        sealed = self._field(e, "sealed", bytes)
        plain = self.identity.unseal(self._aad(slot), sealed)
        if plain is None:
            raise RemoteProtocolError(f"entry {e.seq}: this seat's own note does not open",
                                      E_BAD_SIGNATURE)
        return msgpack.unpackb(plain, raw=False)

    def _aad(self, slot: str) -> bytes:
        return self.game_id + b"/" + slot.encode()

    def _text(self, view: Any, action: Any) -> str:
        try:
            return self.rules.action_text(view, action, self.me if self.me >= 0 else None)
        except Exception:
            return repr(action)

    def _advance(self) -> None:
        """Apply the chance steps the dealer resolves for this peer, as far as they go."""
        while self.phase == "play" and self.rules.current_player(self.view) == CHANCE:
            assert self.dealer is not None
            action = self.dealer.chance(self.view, self.me)
            if action is None:
                return
            after = self.rules.apply(self.view, action)
            self.policy.note(self.view, action)
            before, self.view = self.view, after
            self.steps.append((before, action, after))
            if self.rules.current_player(after) == TERMINAL:
                self._to_end()

    # -- writing entries ----------------------------------------------------------------------

    def _header(self, kind: str) -> dict[str, Any]:
        return {"game": self.game_id, "seq": len(self.transcript), "prev": self.transcript.head,
                "author": self.me, "kind": kind}

    def _sign(self, fields: dict[str, Any]) -> Entry:
        assert self.identity is not None
        return Entry.sign(self.identity, fields)

    def decide(self, action: Any) -> Entry:
        """The entry for this seat's decision; ``LocalProtocolError`` if it is not legal now."""
        if not self.decision_due():
            raise LocalProtocolError("it is not this seat's turn to decide")
        try:
            self.rules.apply(self.view, action)
        except (IllegalActionError, InvalidActionError) as err:
            raise LocalProtocolError(str(err)) from None
        fields = self._header("act")
        slot = self.policy.hidden_slot(action)
        if slot is None:
            fields["action"] = self.rules.action_to_data(self.policy.public(action))
            fields.update(self.policy.shown_fields(self.view, action))
            return self._sign(fields)
        salt = new_salt()
        card = action.card
        fields["action"] = self.rules.action_to_data(self.policy.public(action))
        fields["commit"] = commit(b"card", self.game_id, self.me, slot.encode(), card_value(card), salt)
        fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
            self._aad(slot), msgpack.packb({"card": card, "salt": salt}, use_bin_type=True)
        )
        return self._sign(fields)

    def auto_entry(self) -> Entry | None:
        """The entry this seat must write now without a choice (seed, reveals, end), if any."""
        if self.writer() != self.me or self.me < 0 or self.decision_due():
            return None
        phase = self.phase
        if phase == "seed-commit":
            value, salt = new_salt(), new_salt()
            fields = self._header("seed-commit")
            fields["commit"] = commit(b"seed", self.game_id, self.me, b"seed", value, salt)
            fields["sealed"] = self.identity.seal(  # type: ignore[union-attr]
                self._aad("seed"), msgpack.packb({"value": value, "salt": salt}, use_bin_type=True)
            )
            return self._sign(fields)
        if phase == "seed-open":
            assert self.my_seed is not None
            fields = self._header("seed-open")
            fields["value"], fields["salt"] = self.my_seed
            return self._sign(fields)
        if phase == "play":
            cp = self.rules.current_player(self.view)
            if cp == REVEAL:
                action = self.rules.legal_actions(self.view)[0]
            else:
                action = self.policy.own_chance(self.view, self.me)
            fields = self._header("act")
            fields["action"] = self.rules.action_to_data(action)
            opening = self.policy.opening(self.view, action)
            if opening is not None:
                fields["salt"] = self.secrets[opening[1]][1]
            return self._sign(fields)
        if phase == "end":
            due = sorted(s for (seat, s) in self.commitments if seat == self.me
                         and (seat, s) not in self.opened)
            items = [[s, self.secrets[s][0], self.secrets[s][1]] for s in due]
            fields = self._header("end")
            fields["openings"] = msgpack.packb(items, use_bin_type=True)
            return self._sign(fields)
        return None

    # -- the end ------------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """How the game ended, as plain data (``scores``, ``winners``, ``end``, ``text``)."""
        if self.forfeited:
            names = ", ".join(self.seats[s].name for s in sorted(self.forfeited))
            return {"end": "forfeit", "forfeited": sorted(self.forfeited),
                    "text": f"{names} forfeited", "scores": [], "winners": []}
        o = self.rules.outcome(self.view)
        verdict = "verified" if self.verdict is None else str(self.verdict)
        return {**o.to_data(), "text": o.detail.get("text", o.end), "verdict": verdict}


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("extension types are not allowed")


TRANSITIONS: dict[tuple[str, str], Any] = {
    ("lobby", "start"): Table._on_start,
    ("seed-commit", "seed-commit"): Table._on_seed_commit,
    ("seed-open", "seed-open"): Table._on_seed_open,
    ("play", "act"): Table._on_act,
    ("seed-commit", "forfeit"): Table._on_forfeit,
    ("seed-open", "forfeit"): Table._on_forfeit,
    ("play", "forfeit"): Table._on_forfeit,
    ("end", "end"): Table._on_end,
}
