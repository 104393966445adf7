"""Values of Condottiere: the configuration (the five variants as data), actions and the state.

A state is immutable by convention: rules code copies it (``State.copy``) and changes only the
copy before returning it. Fields, all ints, strs and tuples:

``viewer``    ``REFEREE`` (-1) for the full state, else the seat whose view this is
``phase``     start | deal | place | play | reveal | showdown | take | discard | keep | over
``turn``      the seat that acts (or is dealt to) in the phase
``holder``    the Condottiere token's holder;  ``placer``: who placed it for this battle
``battle``    the region fought over (-1: none, or the final battle)
``defender``  Capturing Regions: the owner of the attacked region (-1: none)
``free``      1 while the defender has played no card (and so passes without leaving)
``favor``     the Favor of the Pope's region (-1: off the board)
``owner``     per region, the seat that controls it (-1: nobody)
``hands``     per seat, a sorted tuple of cards (``UNKNOWN`` where masked); sizes are public
``lines``     per seat, the battle line in play order: ``(card, up)`` pairs; ``up`` is 0 for a
              face-down card (Hidden Cards), whose card is ``UNKNOWN`` to other seats
``passed``    per seat, 1 once the seat is out of the battle (or not in a final battle)
``pile``      the draw pile as counts (``cards.SLOTS``); its order is chance, so none is kept
``discards``  the discards as counts (public)
``owed``      per seat, cards still to be dealt or drawn now
``queue``     seats still to decide in phase take or discard, the first one acting
``then``      what follows the deal under way: place | battle | take | final
``pending``   phase reveal: which of ``turn``'s face-down cards to turn up (0: the first)
``fighters``  the seats of a final battle (empty: not a final battle)
``final``     0; 1 for a game's final battle; 2 for a match's final battle
``battles``   battles concluded in this game;  ``turns``: plays and passes in the whole match
``games``     games finished in this match (Playing For Points)
``points``    match points per seat (Playing For Points)
``winners``   the winners once over;  ``end``: why it ended ("" while it runs);  ``won_by``:
              how the last game was won (for the adjacency bonus)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, NamedTuple, cast

from engine.condottiere.cards import BISHOP, KINDS, NREGIONS, SCARECROW, SLOTS
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

#: a state's ``viewer`` when it is the full state, no seat's view (a viewer, never a card)
REFEREE: Final[int] = -1
#: an action's ``region``, ``taken``, ``position``, ``draws`` or ``flip`` when it has none
NONE = -1
#: a Bishop's ``region`` (and a state's ``favor``) when the Favor of the Pope is off the board
OFF_BOARD = NONE
PHASES = (
    "start", "deal", "place", "play", "reveal", "showdown", "take", "discard", "keep", "over",
)
ACTION_KINDS = (
    "start", "draw", "place", "pass", "play", "reveal", "take", "hold", "discard", "keep",
)
DEFAULT_TARGET = 20
#: the five variants: the command line, the forms and the conformance games read them
VARIANTS = (
    Option("draw_after_battle", "Draw after battle (no rounds; up to 3 cards after each battle)"),
    Option("playing_for_points", "Playing for points: a match to a target score",
           values=(20, 30, 40), value_words="to {} points", field="target_score"),
    Option("bigger_kingdoms", "Bigger kingdoms (more adjacent regions to win)"),
    Option("capturing_regions", "Capturing regions (battles for held regions)"),
    Option("hidden_cards", "Hidden cards (some cards are played face down)"),
)
OPTIONS = tuple(o.name for o in VARIANTS)
MAX_TARGET = 1000


@dataclass(frozen=True)
class CondottiereConfig:
    """A game's configuration: the player count and the five optional variants, which combine
    freely. ``playing_for_points`` makes the game a match to ``target_score`` points."""

    players: int = 4
    draw_after_battle: bool = False
    playing_for_points: bool = False
    target_score: int = DEFAULT_TARGET
    bigger_kingdoms: bool = False
    capturing_regions: bool = False
    hidden_cards: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise ValueError(f"Condottiere is for 2 to 6 players, not {self.players}")
        for name in OPTIONS:
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"option {name} is on or off, not {getattr(self, name)!r}")
        if type(self.target_score) is not int or not 1 <= self.target_score <= MAX_TARGET:
            raise ValueError(
                f"the target score must be a whole number from 1 to {MAX_TARGET}, "
                f"not {self.target_score!r}"
            )

    def warnings(self) -> list[str]:
        """Advice about this combination of variants (it is still allowed)."""
        if self.playing_for_points and self.capturing_regions:
            return [
                "Playing For Points with Capturing Regions: the rulebook advises against "
                "combining these two variants (allowed here)"
            ]
        return []

    def to_data(self) -> dict[str, Any]:
        """The fields in the order declared: the first seven always (the wire form of every
        game so far, ``docs/protocol.md``), a field declared after them only when it is not at
        its default. So a variant added later leaves every other game's bytes as they were,
        and a peer that does not know it refuses a game that plays it."""
        out: dict[str, object] = {}
        for f in fields(self):
            value: object = getattr(self, f.name)
            if f.name in _ALWAYS_WRITTEN or value != f.default:
                out[f.name] = value
        return out

    @classmethod
    def from_data(cls, data: object) -> CondottiereConfig:
        known = {f.name for f in fields(cls)}
        d = plain_map(data)
        if d is None or set(d) - known:
            raise InvalidStateError(f"not a Condottiere configuration: {data!r}")
        try:
            return cls(**d)  # type: ignore[arg-type]  # __post_init__ checks every type
        except (TypeError, ValueError) as e:
            raise InvalidStateError(str(e)) from None


_ALWAYS_WRITTEN = frozenset((
    "players", "draw_after_battle", "playing_for_points", "target_score", "bigger_kingdoms",
    "capturing_regions", "hidden_cards",
))


_new = tuple.__new__


class _ActionFields(NamedTuple):
    """The fields of an ``Action``, in the order of its tuple (see ``Action``)."""

    kind: str
    seat: int
    card: int = NO_CARD
    region: int = NONE
    taken: int = NONE
    position: int = NONE
    draws: int = NONE
    flip: int = NONE
    cards: tuple[int, ...] = ()


class Action(_ActionFields):
    """One step of the game, built from keywords beyond its ``kind`` and ``seat`` (so a field
    added or moved never changes what a call means). Unused fields keep their defaults: ``NO_CARD`` for ``card``, ``NONE``
    for the others, ``()`` for ``cards``. Each field has one meaning:

    ``card``      the card drawn, played or revealed
    ``region``    a region: the one the token is placed on (place), the Favor's new one (Bishop,
                  ``OFF_BOARD``: off the board)
    ``taken``     Scarecrow: the mercenary taken back into the hand (``NONE``: none)
    ``position``  reveal: the position in the seat's line of the card turned up (0: the first)
    ``draws``     take: how many cards the seat will draw (Draw After Battle)
    ``flip``      play: which of the seat's face-down cards to turn up after the play, counting
                  from the first (0); ``NONE`` if none. Play effects never move face-down cards,
                  so the count is stable
    ``cards``     discard and keep: the cards

    =========  =============================================================================
    kind       fields used
    =========  =============================================================================
    start      ``seat`` starts the game and holds the token (chance)
    draw       ``seat`` draws ``card`` (chance; ``UNKNOWN`` in other seats' views)
    place      ``seat`` places the Condottiere token on ``region``
    pass       ``seat`` passes
    play       ``seat`` plays ``card`` (``UNKNOWN``: face down, as others see it), then
               ``flip``. Bishop: ``region``. Scarecrow: ``taken``
    reveal     ``seat`` turns up ``card`` at ``position`` of its line (a reveal step)
    take       ``seat`` will draw ``draws`` cards (Draw After Battle)
    hold       ``seat`` keeps its hand (step 4)
    discard    ``seat`` discards its whole hand, ``cards``, shown to all (step 4)
    keep       ``seat`` keeps ``cards`` (at most two) at the end of a round
    =========  =============================================================================

    The wire and saved form (``to_data``, ``from_data``) is that of the games so far: the keys
    ``kind``, ``seat``, ``card``, ``target``, ``flip``, ``cards``, each left out at its default.
    ``target`` carries the kind's one field of ``region``, ``taken``, ``position``, ``draws``
    (``target_field``): ``region`` for place and a Bishop's play, ``taken`` for a Scarecrow's
    play, ``position`` for reveal, ``draws`` for take. A ``target`` on any other action (or any
    other card's play) is refused, as is a kind's field set on an action of another kind when
    it is written.
    """

    __slots__ = ()

    def __new__(
        cls, kind: str, seat: int, *, card: int = NO_CARD, region: int = NONE,
        taken: int = NONE, position: int = NONE, draws: int = NONE, flip: int = NONE,
        cards: tuple[int, ...] = (),
    ) -> Action:
        return _new(cls, (kind, seat, card, region, taken, position, draws, flip, cards))

    def __getnewargs_ex__(self) -> tuple[tuple[str, int], dict[str, object]]:
        return (self.kind, self.seat), dict(zip(self._fields[2:], self[2:], strict=True))

    def to_data(self) -> dict[str, Any]:
        d: dict[str, object] = {"kind": self.kind, "seat": self.seat}
        if self.card != NO_CARD:
            d["card"] = self.card
        name = target_field(self.kind, self.card)
        targets = {"region": self.region, "taken": self.taken, "position": self.position,
                   "draws": self.draws}
        for other, value in targets.items():
            if other != name and value != NONE:
                raise InvalidActionError(f"a {self.kind} has no {other}: {self!r}")
        if name is not None and targets[name] != NONE:
            d["target"] = targets[name]
        if self.flip != NONE:
            d["flip"] = self.flip
        if self.cards:
            d["cards"] = list(self.cards)
        return d

    @classmethod
    def from_data(cls, data: object) -> Action:
        kind, d = action_fields(data, _FIELDS, ACTION_KINDS)
        values: dict[str, int] = {}
        for name, default, lo, hi in _INT_FIELDS:
            v = d.get(name, default)
            if type(v) is not int or not lo <= v <= hi:
                raise InvalidActionError(f"action field {name} out of range in {data!r}")
            values[name] = v
        target = values.pop("target")
        if target != NONE:
            field = target_field(kind, values["card"])
            if field is None:
                raise InvalidActionError(f"action field target is not used by this {kind} in {data!r}")
            values[field] = target
        items = plain_list(d.get("cards", []))
        cards = [c for c in items or () if type(c) is int and UNKNOWN <= c < KINDS]
        if items is None or len(items) > 120 or len(cards) != len(items):
            raise InvalidActionError(f"action field cards must list cards in {data!r}")
        return cls(kind, cards=tuple(sorted(cards)), **values)


def target_field(kind: str, card: int) -> str | None:
    """The field of an action of ``kind`` playing ``card`` that the wire's ``target`` carries
    (``None``: such an action has none)."""
    if kind == "play":
        return "region" if card == BISHOP else "taken" if card == SCARECROW else None
    return _TARGET_OF.get(kind)


_TARGET_OF = {"place": "region", "reveal": "position", "take": "draws"}
_TARGET_FIELDS = ("region", "taken", "position", "draws")
_INT_FIELDS = (
    ("seat", None, 0, 5),
    ("card", NO_CARD, NO_CARD, KINDS - 1),
    ("target", NONE, NONE, 64),
    ("flip", NONE, NONE, 200),
)
_FIELDS = {"kind", "cards"} | {n for n, *_ in _INT_FIELDS}
_object_new = object.__new__


def mk(kind: str, seat: int, *, card: int = NO_CARD, region: int = NONE, taken: int = NONE,
       position: int = NONE, draws: int = NONE, flip: int = NONE,
       cards: tuple[int, ...] = ()) -> Action:
    """The fast constructor used by the rules' inner loops."""
    return _new(Action, (kind, seat, card, region, taken, position, draws, flip, cards))


Line = tuple[tuple[int, int], ...]

_SLOTS = (
    "config", "viewer", "phase", "turn", "holder", "placer", "battle", "defender", "free",
    "favor", "owner", "hands", "lines", "passed", "pile", "discards", "owed", "queue", "then",
    "pending", "fighters", "final", "battles", "turns", "games", "points", "winners", "end",
    "won_by",
)
_TUPLES = ("owner", "passed", "pile", "discards", "owed", "queue", "fighters", "points", "winners")
_INTS = (
    "viewer", "turn", "holder", "placer", "battle", "defender", "free", "favor", "pending",
    "final", "battles", "turns", "games",
)


class State(ValueState):
    """A position of Condottiere (see the module docstring for the fields)."""

    # ``copy`` below names every field: keep it in step with ``_SLOTS``

    __slots__ = _SLOTS
    config: CondottiereConfig
    viewer: int
    phase: str
    turn: int
    holder: int
    placer: int
    battle: int
    defender: int
    free: int
    favor: int
    owner: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    lines: tuple[Line, ...]
    passed: tuple[int, ...]
    pile: tuple[int, ...]
    discards: tuple[int, ...]
    owed: tuple[int, ...]
    queue: tuple[int, ...]
    then: str
    pending: int
    fighters: tuple[int, ...]
    final: int
    battles: int
    turns: int
    games: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    end: str
    won_by: str

    def copy(self) -> State:
        """A shallow copy (every field is immutable), written out field by field for speed."""
        new = _object_new(State)
        new.config = self.config
        new.viewer = self.viewer
        new.phase = self.phase
        new.turn = self.turn
        new.holder = self.holder
        new.placer = self.placer
        new.battle = self.battle
        new.defender = self.defender
        new.free = self.free
        new.favor = self.favor
        new.owner = self.owner
        new.hands = self.hands
        new.lines = self.lines
        new.passed = self.passed
        new.pile = self.pile
        new.discards = self.discards
        new.owed = self.owed
        new.queue = self.queue
        new.then = self.then
        new.pending = self.pending
        new.fighters = self.fighters
        new.final = self.final
        new.battles = self.battles
        new.turns = self.turns
        new.games = self.games
        new.points = self.points
        new.winners = self.winners
        new.end = self.end
        new.won_by = self.won_by
        return new

    def regions_of(self, seat: int) -> int:
        """The bit mask of the regions ``seat`` controls."""
        m = 0
        for r, o in enumerate(self.owner):
            if o == seat:
                m |= 1 << r
        return m

    def region_counts(self) -> tuple[int, ...]:
        out = [0] * self.players
        for o in self.owner:
            if o >= 0:
                out[o] += 1
        return tuple(out)

    # -- plain data -------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        d: dict[str, object] = {}
        for name in _SLOTS:
            if name == "config":
                d[name] = self.config.to_data()
            elif name == "hands":
                d[name] = [list(h) for h in self.hands]
            elif name == "lines":
                d[name] = [[list(e) for e in line] for line in self.lines]
            else:
                v: object = getattr(self, name)
                d[name] = list(cast("tuple[int, ...]", v)) if name in _TUPLES else v
        return d

    @classmethod
    def from_data(cls, data: object) -> State:
        try:
            return _from_data(data)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise InvalidStateError(f"not a Condottiere state: {e}") from None


def _ints(xs: object, lo: int = -1, hi: int = 10_000) -> tuple[int, ...]:
    items = plain_list(xs) if isinstance(xs, list) else None
    ints = [x for x in items or () if type(x) is int and lo <= x <= hi]
    if items is None or len(ints) != len(items):
        raise InvalidStateError(f"expected a list of ints from {lo} to {hi}, not {xs!r}")
    return tuple(ints)


def _seats(x: object, n: int) -> list[object]:
    items = plain_list(x) if isinstance(x, list) else None
    if items is None or len(items) != n:
        raise InvalidStateError(f"per-seat fields must list {n} seats")
    return items


def _from_data(data: object) -> State:
    d = plain_map(data)
    if d is None or set(d) != set(_SLOTS):
        raise InvalidStateError("a Condottiere state needs exactly the fields " + ", ".join(_SLOTS))
    config = CondottiereConfig.from_data(d["config"])
    n = config.players
    if d["phase"] not in PHASES or d["then"] not in ("place", "battle", "take", "final"):
        raise InvalidStateError(f"unknown phase {d['phase']!r} or sequel {d['then']!r}")
    for name in _INTS:
        if type(d[name]) is not int:
            raise InvalidStateError(f"{name} must be an int, not {d[name]!r}")
    for name in ("end", "won_by"):
        if type(d[name]) is not str:
            raise InvalidStateError(f"{name} must be a string")
    hands = _seats(d["hands"], n)
    lines = _seats(d["lines"], n)
    for name in ("passed", "owed", "points"):
        _seats(d[name], n)
    values: dict[str, object] = dict(d)
    values["config"] = config
    values["hands"] = tuple(tuple(sorted(_ints(h, UNKNOWN, KINDS - 1))) for h in hands)
    parsed_lines = []
    for line in lines:
        entries_data = plain_list(line) if isinstance(line, list) else None
        if entries_data is None:
            raise InvalidStateError(f"a battle line is a list, not {line!r}")
        entries = []
        for e in entries_data:
            pair = _ints(e, UNKNOWN, KINDS - 1)
            if len(pair) != 2 or pair[1] not in (0, 1):
                raise InvalidStateError(f"a line entry is [card, up], not {e!r}")
            entries.append(pair)
        parsed_lines.append(tuple(entries))
    values["lines"] = tuple(parsed_lines)
    owner = values["owner"] = _ints(d["owner"], -1, n - 1)
    if len(owner) != NREGIONS:
        raise InvalidStateError(f"owner must list {NREGIONS} regions")
    for name in ("pile", "discards"):
        counts = values[name] = _ints(d[name], 0, 200)
        if len(counts) != SLOTS:
            raise InvalidStateError(f"{name} must count {SLOTS} kinds of card")
    seat_lists = {name: _ints(d[name], 0) for name in
                  ("passed", "owed", "queue", "fighters", "points", "winners")}
    values.update(seat_lists)
    ranges = {
        "viewer": (REFEREE, n - 1), "turn": (0, n - 1), "holder": (0, n - 1), "placer": (0, n - 1),
        "battle": (-1, NREGIONS - 1), "favor": (-1, NREGIONS - 1), "defender": (-1, n - 1),
        "free": (0, 1), "pending": (-1, 200), "final": (0, 2),
    }
    for name, (lo, hi) in ranges.items():
        v = values[name]
        if type(v) is not int or not lo <= v <= hi:
            raise InvalidStateError(f"{name} must be from {lo} to {hi}, not {v}")
    for name in ("queue", "fighters", "winners"):
        if any(q >= n for q in seat_lists[name]):
            raise InvalidStateError(f"{name} names a seat beyond {n} players")
    if any(p not in (0, 1) for p in seat_lists["passed"]):
        raise InvalidStateError("passed holds 0 or 1 per seat")
    s = object.__new__(State)
    for name, v in values.items():
        object.__setattr__(s, name, v)
    return s


__all__ = ["Action", "CondottiereConfig", "State", "mk", "NO_CARD", "REFEREE", "UNKNOWN"]

assert State.copy.__code__.co_names.count("config") and all(
    name in State.copy.__code__.co_names for name in _SLOTS
), "State.copy must copy every field"
