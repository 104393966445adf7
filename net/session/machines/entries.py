"""The vocabulary of a networked game's transcript: its phases, the fields of each entry kind,
and their check.

``Phase`` names the phases a game goes through, in order; ``net.session.machines.table`` says
which entry each phase takes and which phase follows (its ``TRANSITIONS``). A phase is compared
as a ``Phase`` member everywhere (its value is the name ``docs/protocol.md`` uses, and what a
message prints).

Every reader checks an entry's fields the same way before anything else of it (``FIELDS``): a
field the kind does not have, a missing one or one of another type is refused, naming the field
and the author. So the host's observer table, every peer's table and ``palazzo verify`` accept
exactly the same entries; ``read_start`` checks what a start entry says.

The limits here are the protocol's (``docs/protocol.md`` gives each field): a seat's name, the
start time, a forfeit's reason, the turn timeout, a sealed note's overhead. ``DEALERS`` names
the fair dealer of each game (``net.games``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from engine.core import A, C, S
from engine.registry import GameEntry, get_game
from net.games.dealer import FairDealer
from net.wire.errors import E_BAD_PARAMS, HOST, CheatDetected
from net.wire.identity import PUBLIC_KEY_SIZE, InvalidKey, check_public_key
from net.wire.rpc import Value
from net.wire.transcript import NONCE_SIZE, Entry, derive_game_id


class Phase(str, Enum):
    """The phases of a networked game, in the order they come (``docs/protocol.md``, section 8)."""

    LOBBY = "lobby"
    SEED_COMMIT = "seed-commit"
    SEED_OPEN = "seed-open"
    PLAY = "play"
    END = "end"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


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
    "seed-commit": {"commit": (bytes, True), "said": (list, False)},
    "seed-open": {"value": (bytes, True), "salt": (bytes, True), "said": (list, False)},
    "deck": {"msgs": (list, True), "said": (list, False)},
    "act": {"action": (dict, True), "auto": (bool, False), "said": (list, False)},
    "forfeit": {"seat": (int, True), "reason": (str, True)},
    "end": {"said": (list, False)},
}
#: the kinds that carried their author's ``sealed`` note in protocol version 1 (read, never
#: written: version 2 keeps every secret in the seat's own journal)
SEALED_V1 = ("seed-commit", "deck")


class _Dealers(Mapping[str, "type[FairDealer[Any, Any, Any]]"]):
    """Each game's dealer class, its module imported when the class is first asked for (a
    record of one game loads no other)."""

    _WHERE = {"medici": ("net.games.medici", "MediciDealer"),
              "condottiere": ("net.games.condottiere", "CondottiereDealer")}

    def __getitem__(self, game: str) -> type[FairDealer[Any, Any, Any]]:
        module, name = self._WHERE[game]
        dealer: type[FairDealer[Any, Any, Any]] = getattr(importlib.import_module(module), name)
        return dealer

    def __iter__(self) -> Iterator[str]:
        return iter(self._WHERE)

    def __len__(self) -> int:
        return len(self._WHERE)


#: each game's dealer class; a table learns its game from the start entry and holds the dealer
#: as a ``SomeDealer``, seen through the contract
DEALERS: Mapping[str, type[FairDealer[Any, Any, Any]]] = _Dealers()


@dataclass(frozen=True)
class SeatInfo:
    name: str
    key: bytes
    nonce: bytes = b""


@dataclass(frozen=True)
class Start(Generic[S, A, C]):
    """What a start entry says, checked (``read_start``)."""

    game: GameEntry[S, A, C]
    config: C
    seats: list[SeatInfo]
    game_id: bytes
    time: int
    timeout: int
    on_timeout: str


def read_start(e: Entry, host_key: bytes) -> Start[Any, Any, Any]:
    """The start entry ``e`` of a game hosted under ``host_key``, checked: its game and
    configuration, its seats (names, keys that are valid Ed25519 keys, nonces; as many as the
    players, no key twice), the host key, the game id they make, the start time and the turn
    timeout. ``CheatDetected`` naming the host (who signs the start) for what is wrong."""
    try:
        game: GameEntry[Any, Any, Any] = get_game(field(e, "rules", str))
        config = game.rules.Config.from_data(e.fields.get("config"))
    except (ValueError, TypeError) as err:
        raise CheatDetected(HOST, e.seq, f"start check: the game: {err}", E_BAD_PARAMS) from None
    seats = []
    for i, s in enumerate(field_list(e, "seats")):
        if type(s) is not dict or set(s) != {"name", "key", "nonce"}:
            raise CheatDetected(HOST, e.seq, "start check: a seat is {name, key, nonce}", E_BAD_PARAMS)
        name, key, nonce = s["name"], s["key"], s["nonce"]
        if type(name) is not str or not 1 <= len(name) <= NAME_LIMIT or not name.isprintable() \
                or type(key) is not bytes or len(key) != PUBLIC_KEY_SIZE \
                or type(nonce) is not bytes or len(nonce) != NONCE_SIZE:
            raise CheatDetected(HOST, e.seq, f"start check: a seat is {{name: 1 to {NAME_LIMIT} "
                                "printable characters, key, nonce: 32 bytes}", E_BAD_PARAMS)
        try:
            check_public_key(key)
        except InvalidKey as err:
            raise CheatDetected(HOST, e.seq, f"key check: seat {i}'s key is refused ({err})",
                                E_BAD_PARAMS) from None
        seats.append(SeatInfo(name, key, nonce))
    if len(seats) != config.players or len({s.key for s in seats}) != len(seats):
        raise CheatDetected(HOST, e.seq, "start check: the seats do not match the players", E_BAD_PARAMS)
    if field(e, "host", bytes, PUBLIC_KEY_SIZE) != host_key:
        raise CheatDetected(HOST, e.seq, "host key check: the start names another host key", E_BAD_PARAMS)
    game_id = e.fields["game"]
    if game_id != derive_game_id(host_key, [(s.key, s.nonce) for s in seats]):
        raise CheatDetected(HOST, e.seq, "game id check: the game id is not the one the host "
                            "key and the seats' keys and nonces make", E_BAD_PARAMS)
    started = field(e, "time", int)
    if not 0 <= started <= MAX_TIME:
        raise CheatDetected(HOST, e.seq, "start check: the start time is not a time", E_BAD_PARAMS)
    timeout, on_timeout = field(e, "timeout", int), field(e, "on_timeout", str)
    if not 0 <= timeout <= MAX_TIMEOUT or on_timeout not in ("forfeit", "bot"):
        raise CheatDetected(HOST, e.seq, "start check: the turn timeout is out of range", E_BAD_PARAMS)
    return Start(game, config, seats, game_id, started, timeout, on_timeout)



def check_fields(entry: Entry, dealer: FairDealer[S, A, C] | None) -> None:
    """``CheatDetected`` naming the first field of ``entry`` its kind does not have, that
    is missing, or that is of another type (``FIELDS``)."""
    kind = entry.kind
    spec = dict(FIELDS[kind])
    if entry.fields.get("v") == 1 and kind in SEALED_V1:
        spec["sealed"] = (bytes, True)
    if kind == "act" and dealer is not None:
        spec.update({name: (t, False) for name, t in dealer.ACT_FIELDS.items()})
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
    if "sealed" in spec and len(field(entry, "sealed", bytes)) < SEAL_OVERHEAD:
        raise CheatDetected(entry.author, entry.seq, "field 'sealed' is too short to be a "
                            "sealed note", E_BAD_PARAMS)


_T = TypeVar("_T", bool, int, str, bytes)


def field(entry: Entry, name: str, t: type[_T], size: int | None = None) -> _T:
    """The field ``name`` of ``entry``, of type ``t`` (and ``size`` long); else
    ``CheatDetected`` naming the author."""
    v = entry.fields.get(name)
    if type(v) is not t or not isinstance(v, t) \
            or (size is not None and (not isinstance(v, bytes) or len(v) != size)):
        extra = f" of {size} bytes" if size is not None else ""
        raise CheatDetected(entry.author, entry.seq, f"field {name!r} must be {t.__name__}{extra}",
                            E_BAD_PARAMS)
    return v


def field_list(entry: Entry, name: str) -> list[Value]:
    """The list field ``name`` of ``entry``; else ``CheatDetected`` naming the author."""
    v = entry.fields.get(name)
    if type(v) is not list:
        raise CheatDetected(entry.author, entry.seq, f"field {name!r} must be list", E_BAD_PARAMS)
    return v
