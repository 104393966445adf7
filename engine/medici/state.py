"""Values of Court of the Medici: the configuration, actions and the state, with plain data.

A state is immutable by convention: rules code copies it (``State.copy``) and changes only the
copy before returning it. Fields, all tuples and ints:

``phase``      deal | hide | top | flip | first | play | reveal | resolve | draw | over
``turn``       the seat acting (drawing, placing or playing) in the phase
``hands``      per seat, a sorted tuple of cards (``UNKNOWN`` where masked)
``pools``      per seat, the unordered top part of the deck (sorted; masked for others)
``bottoms``    per seat, cards put under the deck by *plan for the future*, in order
``alliances``  per holder, three slots: ``(placer, hidden, top, up)`` or ``None``; ``top`` is
               ``NO_CARD`` until placed, ``up`` 1 once it is turned face up; a struck slot is
               ``None``
``middle``     stacks ``(sid, total, ((card, value), ...))`` bottom card first, by sid
``eliminated`` sorted tuple of cards out of the game
``limits``     per seat, the empty-deck value limit or ``NO_LIMIT``
``shown``      per seat, the last card of the deck while it is in hand, else ``NO_CARD``
``pending``    a strike in progress: ``(slot, card, value, revealed)`` or ``None``
``turns``      completed turns of play;  ``end`` why the game ended ("" while it runs)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.core import (
    NO_CARD,
    UNKNOWN,
    InvalidActionError,
    InvalidStateError,
    Option,
    ValueState,
    action_fields,
    plain_list,
    plain_map,
)
from engine.medici.cards import CARDS

NO_LIMIT = -1
#: an action's ``before``, ``slot``, ``stack`` or ``elim`` when it has none (``elim``: the strike fizzles)
NONE = -1

PHASES = ("deal", "hide", "top", "flip", "first", "play", "reveal", "resolve", "draw", "over")
KINDS = (
    "draw",
    "first",
    "hide",
    "top",
    "flip",
    "court",
    "build",
    "conspire",
    "strike",
    "plan",
    "reveal",
    "resolve",
    "stuck",
)
#: the rules options (variants): the command line, the forms and the conformance games read them
VARIANTS = (
    Option("end_when_all_struck", "Play on until no house has a shadow alliance left",
           short="play until all are struck"),
)
OPTIONS = tuple(o.name for o in VARIANTS)


@dataclass(frozen=True)
class MediciConfig:
    """A game's configuration. ``end_when_all_struck``: the game ends only when no player has a
    shadow alliance left (the default ends it when some player has none left). ``ages``: the
    players' ages by seat, if they entered them; then a tie for the first player goes to the
    youngest tied player (a lot only among equally young ones), else a lot decides."""

    players: int = 4
    end_when_all_struck: bool = False
    ages: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError(f"Court of the Medici is for 3 or 4 players, not {self.players}")
        if not isinstance(self.ages, tuple):
            object.__setattr__(self, "ages", tuple(self.ages))
        if self.ages and (
            len(self.ages) != self.players
            or any(type(x) is not int or not 0 <= x <= 200 for x in self.ages)
        ):
            raise ValueError(f"ages must give one age (0..200) per player, not {self.ages!r}")

    def to_data(self) -> dict[str, Any]:
        """``players``, ``end_when_all_struck`` always (the wire form of every game so far,
        ``docs/protocol.md``), an option declared after it only when it is on, and ``ages``
        when given. So a variant added later leaves every other game's bytes as they were, and
        a peer that does not know it refuses a game that plays it."""
        d: dict[str, object] = {"players": self.players}
        for name in OPTIONS:
            value: object = getattr(self, name)
            if value or name == "end_when_all_struck":
                d[name] = value
        if self.ages:
            d["ages"] = list(self.ages)
        return d

    @classmethod
    def from_data(cls, data: object) -> MediciConfig:
        d = plain_map(data)
        if d is None or set(d) - {"players", "ages", *OPTIONS}:
            raise InvalidStateError(f"not a Medici configuration: {data!r}")
        players = d.get("players", 4)
        raw_ages = d.get("ages", [])
        ages = plain_list(raw_ages) if isinstance(raw_ages, list) else None
        flags: dict[str, bool] = {}
        for name in OPTIONS:
            flag = d.get(name, False)
            if type(flag) is not bool:
                raise InvalidStateError(f"not a Medici configuration: {data!r}")
            flags[name] = flag
        if type(players) is not int or ages is None:
            raise InvalidStateError(f"not a Medici configuration: {data!r}")
        try:
            return cls(players, ages=tuple(ages), **flags)  # type: ignore[arg-type]
        except ValueError as e:
            raise InvalidStateError(str(e)) from None


_new = tuple.__new__


class _ActionFields(NamedTuple):
    """The fields of an ``Action``, in the order of its tuple (see ``Action``)."""

    kind: str
    seat: int
    card: int = NO_CARD
    value: int = 0
    before: int = NONE
    slot: int = NONE
    stack: int = NONE
    elim: int = NONE
    extra: int = 0


class Action(_ActionFields):
    """One step of the game, built from keywords beyond its ``kind`` and ``seat`` (so a field
    added or moved never changes what a call means). Unused fields keep their defaults (``NONE`` for ``before``,
    ``slot``, ``stack``, ``elim``).

    ==========  ===========================================================================
    kind        fields used
    ==========  ===========================================================================
    draw        seat draws ``card`` (chance)
    first       ``seat`` goes first (chance, breaks a tie)
    hide        seat places ``card`` face down before holder ``before`` (a seat)
    top         seat places ``card`` on its own alliance slot ``slot`` (0..2), still hidden
    flip        holder ``seat`` turns up the ``card`` on its slot ``slot`` (a reveal step)
    court       seat sends ``card`` (as ``value``) to court
    build       seat puts ``card`` (as ``value``) on stack ``stack`` (a stack id)
    conspire    as build, and eliminates stack ``elim``
    strike      seat plays ``card`` (as ``value``) on its alliance slot ``slot``
    plan        seat puts ``card`` under its deck
    reveal      ``seat`` (the placer) shows the hidden ``card`` of the striker's slot ``slot``
    resolve     the striker declares Jester values (``value`` for the face-up card, ``extra``
                for the hidden one, 0 when not a Jester) and eliminates ``elim`` (``NONE``: fizzle)
    stuck       ``seat`` holds no card it may play at the start of its turn: the game ends
    ==========  ===========================================================================

    The wire and saved form (``to_data``, ``from_data``) is that of the games so far: the keys
    ``kind``, ``seat``, ``card``, ``value``, ``target``, ``elim``, ``extra`` in that order, each
    left out at its default. ``target`` carries the kind's one field of ``before``, ``slot``,
    ``stack`` (``target_field``). A ``target`` on a kind that has none is refused when read, as
    is a field of another kind set on an action when it is written.
    """

    __slots__ = ()

    def __new__(
        cls, kind: str, seat: int, *, card: int = NO_CARD, value: int = 0, before: int = NONE,
        slot: int = NONE, stack: int = NONE, elim: int = NONE, extra: int = 0,
    ) -> Action:
        return _new(cls, (kind, seat, card, value, before, slot, stack, elim, extra))

    def __getnewargs_ex__(self) -> tuple[tuple[str, int], dict[str, int]]:
        return (self.kind, self.seat), dict(zip(self._fields[2:], self[2:], strict=True))

    def to_data(self) -> dict[str, Any]:
        d: dict[str, object] = {"kind": self.kind, "seat": self.seat}
        if self.card != NO_CARD:
            d["card"] = self.card
        if self.value != 0:
            d["value"] = self.value
        name = _TARGET_OF.get(self.kind)
        targets = {"before": self.before, "slot": self.slot, "stack": self.stack}
        for other, value in targets.items():
            if other != name and value != NONE:
                raise InvalidActionError(f"a {self.kind} has no {other}: {self!r}")
        if name is not None and targets[name] != NONE:
            d["target"] = targets[name]
        if self.elim != NONE:
            d["elim"] = self.elim
        if self.extra != 0:
            d["extra"] = self.extra
        return d

    @classmethod
    def from_data(cls, data: object) -> Action:
        """The action in plain data; ``InvalidActionError`` naming the field when a field is
        unknown, missing, not an int, or outside the range any action may hold (``FIELD_RANGES``),
        or when ``target`` is given to a kind that has none (``target_field``)."""
        kind, d = action_fields(data, _FIELDS, KINDS)
        values: dict[str, int] = {}
        for name, default in (("seat", None), *_DEFAULTS):
            v = d.get(name, default)
            lo, hi = FIELD_RANGES[name]
            if type(v) is not int or not lo <= v <= hi:
                raise InvalidActionError(
                    f"action field {name} must be an int from {lo} to {hi}, not {v!r}")
            values[name] = v
        target = values.pop("target")
        if target != NONE:
            field = _TARGET_OF.get(kind)
            if field is None:
                raise InvalidActionError(f"action field target is not used by a {kind}: {data!r}")
            values[field] = target
        return cls(kind, **values)


def target_field(kind: str) -> str | None:
    """The field of an action of ``kind`` that the wire's ``target`` carries (``None``: such an
    action has none): ``before`` for hide, ``slot`` for top, flip, strike and reveal, ``stack``
    for build and conspire."""
    return _TARGET_OF.get(kind)


def place_of(a: Action) -> int:
    """The seat, alliance slot or stack ``a`` names, whichever its kind has (``NONE``: none)."""
    name = _TARGET_OF.get(a.kind)
    if name is None:
        return NONE
    place: int = getattr(a, name)
    return place


_TARGET_OF = {"hide": "before", "top": "slot", "flip": "slot", "strike": "slot", "reveal": "slot",
              "build": "stack", "conspire": "stack"}
_TARGET_FIELDS = ("before", "slot", "stack")


#: the largest stack number a game can reach: every card enters the middle at most once as
#: itself and once more for each Lady-in-Waiting that splits its stack, far below this
MAX_STACK = 999
_DEFAULTS = (("card", NO_CARD), ("value", 0), ("target", NONE), ("elim", NONE), ("extra", 0))
_FIELDS = {"kind", "seat"} | {n for n, _ in _DEFAULTS}
#: each field's range: a seat; a card (or NO_CARD, UNKNOWN); a value as played (a Duke's 15 at
#: most); a target holder, slot or stack; a stack to eliminate (``NONE``: none); a Jester's value
FIELD_RANGES = {"seat": (0, 3), "card": (NO_CARD, CARDS - 1), "value": (0, 15),
                "target": (NONE, MAX_STACK), "elim": (NONE, MAX_STACK), "extra": (0, 10)}


def mk(kind: str, seat: int, *, card: int = NO_CARD, value: int = 0, before: int = NONE,
       slot: int = NONE, stack: int = NONE, elim: int = NONE, extra: int = 0) -> Action:
    """The fast constructor used by the rules' inner loops."""
    return _new(Action, (kind, seat, card, value, before, slot, stack, elim, extra))


Alliance = tuple[int, int, int, int]  # (placer, hidden, top, up)
Stack = tuple[int, int, tuple[tuple[int, int], ...]]  # (sid, total, cards)

_SLOTS = (
    "config", "phase", "turn", "hands", "pools", "bottoms", "alliances", "middle", "next_sid",
    "eliminated", "limits", "shown", "pending", "turns", "end",
)


class State(ValueState):
    """A position of Court of the Medici (see the module docstring for the fields)."""

    __slots__ = _SLOTS
    config: MediciConfig
    phase: str
    turn: int
    hands: tuple[tuple[int, ...], ...]
    pools: tuple[tuple[int, ...], ...]
    bottoms: tuple[tuple[int, ...], ...]
    alliances: tuple[tuple[Alliance | None, ...], ...]
    middle: tuple[Stack, ...]
    next_sid: int
    eliminated: tuple[int, ...]
    limits: tuple[int, ...]
    shown: tuple[int, ...]
    pending: tuple[int, int, int, int] | None
    turns: int
    end: str

    def copy(self) -> State:
        new = object.__new__(State)
        new.config = self.config
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands
        new.pools = self.pools
        new.bottoms = self.bottoms
        new.alliances = self.alliances
        new.middle = self.middle
        new.next_sid = self.next_sid
        new.eliminated = self.eliminated
        new.limits = self.limits
        new.shown = self.shown
        new.pending = self.pending
        new.turns = self.turns
        new.end = self.end
        return new

    def stack(self, sid: int) -> Stack | None:
        for s in self.middle:
            if s[0] == sid:
                return s
        return None

    # -- plain data -------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        d: dict[str, object] = {
            "config": self.config.to_data(),
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "pools": [list(p) for p in self.pools],
            "bottoms": [list(b) for b in self.bottoms],
            "alliances": [[None if a is None else list(a) for a in row] for row in self.alliances],
            "middle": [[sid, total, [list(c) for c in cards]] for sid, total, cards in self.middle],
            "next_sid": self.next_sid,
            "eliminated": list(self.eliminated),
            "limits": list(self.limits),
            "shown": list(self.shown),
            "pending": None if self.pending is None else list(self.pending),
            "turns": self.turns,
            "end": self.end,
        }
        return d

    @classmethod
    def from_data(cls, data: object) -> State:
        try:
            return _from_data(data)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError) as e:
            raise InvalidStateError(f"not a Medici state: {e}") from None


def _ints(xs: object) -> tuple[int, ...]:
    items = plain_list(xs) if isinstance(xs, list) else None
    ints = [x for x in items or () if type(x) is int]
    if items is None or len(ints) != len(items):
        raise InvalidStateError(f"expected a list of ints, not {xs!r}")
    return tuple(ints)


def _list(xs: object, what: str) -> list[object]:
    items = plain_list(xs) if isinstance(xs, list) else None
    if items is None:
        raise InvalidStateError(f"{what} must be a list, not {xs!r}")
    return items


def _int(x: object, what: str) -> int:
    if type(x) is not int:
        raise InvalidStateError(f"{what} must be an int")
    return x


def _from_data(data: object) -> State:
    d = plain_map(data)
    if d is None or set(d) != set(_SLOTS):
        raise InvalidStateError("a Medici state needs exactly the fields " + ", ".join(_SLOTS))
    s = object.__new__(State)
    config = MediciConfig.from_data(d["config"])
    n = config.players
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise InvalidStateError(f"unknown phase {phase!r}")
    seats = {name: _list(d[name], name) for name in
             ("hands", "pools", "bottoms", "alliances", "limits", "shown")}
    if any(len(x) != n for x in seats.values()):
        raise InvalidStateError(f"per-seat fields must list {n} seats")
    alliances = []
    for row in seats["alliances"]:
        slots = plain_list(row) if isinstance(row, list) else None
        if slots is None or len(slots) != 3:
            raise InvalidStateError("each holder has three alliance slots")
        a0, a1, a2 = (None if a is None else _alliance(a) for a in slots)
        alliances.append((a0, a1, a2))
    middle = []
    for entry in _list(d["middle"], "middle"):
        parts = _list(entry, "a stack")
        if len(parts) != 3:
            raise InvalidStateError(f"bad stack {entry!r}")
        sid, total, cards = parts
        pairs = tuple(_pair(c) for c in _list(cards, "a stack's cards"))
        if type(sid) is not int or total != sum(v for _, v in pairs) or not pairs:
            raise InvalidStateError(f"bad stack {entry!r}")
        middle.append((sid, sum(v for _, v in pairs), pairs))
    pending = None if d["pending"] is None else _ints(d["pending"])
    if pending is not None and len(pending) != 4:
        raise InvalidStateError("pending strike needs four fields")
    end = d["end"]
    if type(end) is not str:
        raise InvalidStateError("end must be a string")
    s.config = config
    s.phase = phase
    s.turn = _int(d["turn"], "turn")
    s.hands = tuple(_ints(h) for h in seats["hands"])
    s.pools = tuple(_ints(p) for p in seats["pools"])
    s.bottoms = tuple(_ints(b) for b in seats["bottoms"])
    s.alliances = tuple(alliances)
    s.middle = tuple(middle)
    s.next_sid = _int(d["next_sid"], "next_sid")
    s.eliminated = _ints(d["eliminated"])
    s.limits = _ints(seats["limits"])
    s.shown = _ints(seats["shown"])
    s.pending = None if pending is None else (pending[0], pending[1], pending[2], pending[3])
    s.turns = _int(d["turns"], "turns")
    s.end = end
    _check_ranges(s, n)
    return s


_CARDS = 4 * 13  # card ids run 0 .. 51


def _within(name: str, xs: tuple[int, ...], lo: int, hi: int) -> None:
    if xs and (min(xs) < lo or max(xs) > hi):
        raise InvalidStateError(f"{name} holds a value outside {lo}..{hi}: {list(xs)!r}")


def _check_ranges(v: State, n: int) -> None:
    """Every number of a state in its range (cards may be UNKNOWN where a view masks them)."""
    for name, rows in (("hands", v.hands), ("pools", v.pools), ("bottoms", v.bottoms)):
        for xs in rows:
            _within(name, xs, UNKNOWN, _CARDS - 1)
    _within("eliminated", v.eliminated, 0, _CARDS - 1)
    _within("limits", v.limits, NO_LIMIT, 15)
    _within("shown", v.shown, NO_CARD, _CARDS - 1)
    for row in v.alliances:
        for a in row:
            if a is not None and not (
                0 <= a[0] < n and UNKNOWN <= a[1] < _CARDS and NO_CARD <= a[2] < _CARDS and a[3] in (0, 1)
            ):
                raise InvalidStateError(f"bad shadow alliance {list(a)!r}")
    sids = [st[0] for st in v.middle]
    for _, _, cards in v.middle:
        for c, value in cards:
            if not (0 <= c < _CARDS and 0 <= value <= 15):
                raise InvalidStateError(f"bad card in the middle: {[c, value]!r}")
    if sids != sorted(set(sids)) or (sids and (sids[0] < 0 or sids[-1] >= v.next_sid)):
        raise InvalidStateError(f"stack ids must rise and stay below next_sid: {sids!r}")
    if not 0 <= v.turn < n or v.turns < 0 or v.next_sid < 0:
        raise InvalidStateError("turn, turns or next_sid out of range")
    p = v.pending
    if p is not None and not (
        0 <= p[0] < 3 and 0 <= p[1] < _CARDS and 0 <= p[2] <= 15 and NO_CARD <= p[3] < _CARDS
    ):
        raise InvalidStateError(f"bad strike under way {list(p)!r}")


def _alliance(a: object) -> Alliance:
    t = _ints(a)
    if len(t) != 4:
        raise InvalidStateError(f"an alliance is [placer, hidden, top, up], not {a!r}")
    return (t[0], t[1], t[2], t[3])


def _pair(c: object) -> tuple[int, int]:
    t = _ints(c)
    if len(t) != 2:
        raise InvalidStateError(f"a stack card is [card, value], not {c!r}")
    return (t[0], t[1])


__all__ = ["Action", "MediciConfig", "State", "mk", "NO_CARD", "NO_LIMIT", "UNKNOWN"]
