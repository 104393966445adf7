"""The game contract that every game in palazzo implements, and the local driver.

Theory of operation
-------------------
A game is a state machine over three kinds of step:

* a **decision** by a seat (``current_player(state)`` is a seat number, 0-based);
* a **chance** step (``CHANCE``): a card drawn from a shuffled deck, a tie broken by lot.
  ``chance_outcomes(state)`` lists the outcomes with their probabilities;
* a **reveal** step (``REVEAL``): the one seat that knows a face-down card shows it.
  ``revealer(state)`` names that seat.

``TERMINAL`` means the game is over; ``outcome(state)`` then gives scores and winners.

Every step is an action in the history, so applying an action never touches a random
generator. A local game (``LocalGame``) resolves chance from a seeded ``random.Random`` and
reveals from its full knowledge; a networked session resolves both from the protocol. The same
rules code runs in both.

States are immutable values. ``view(state, seat)`` is the one place that hides cards: it returns
a state of the same type in which every card the seat may not know is ``UNKNOWN``. Rules code
works on such masked states too (a draw of an ``UNKNOWN`` card, a play of a card from a hand
that holds ``UNKNOWN`` cards), which is what lets a peer follow a game whose hidden cards it
never sees, and lets a search bot fill the unknowns with guesses.

Input from people and peers goes through the checked door ``apply`` (``InvalidActionError`` for
malformed input, ``IllegalActionError`` for a well-formed action that is not legal now); search
may use ``apply_unchecked`` on actions it took from ``legal_actions``.

The whole contract is one type, ``GameRules[S, A, C]`` over a game's state, action and
configuration types: the state machine above, plus who may play, the rules options as data
(``Option``), configurations from ``--option`` values, scores, words and plain data. Each game's
rules object implements all of it (``RulesBase`` gives the common parts), and its registry entry
(``engine.registry.GameEntry``) is typed by it, so the type checker holds every game to it.
``docs/extending.md`` says how to add a game or a variant.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final, Generic, Protocol, TypeVar


class Turn(IntEnum):
    """Who acts at a step that no seat decides: ``current_player`` gives a seat (0 up) or one of
    these. They are ints (``who < 0`` holds for each) and read as their numbers, so a record that
    writes one writes the number it always did; they are never cards (``UNKNOWN``, ``NO_CARD``)
    nor viewers, whatever their numbers."""

    CHANCE = -1
    REVEAL = -2
    TERMINAL = -3

    def __str__(self) -> str:
        return int.__repr__(self)

    def __format__(self, spec: str) -> str:
        return int.__format__(self, spec)


CHANCE: Final = Turn.CHANCE
REVEAL: Final = Turn.REVEAL
TERMINAL: Final = Turn.TERMINAL

#: A card this state's holder may not know (in a hand, a line, an action). A card, never a seat.
UNKNOWN: Final[int] = -1
#: No card at all: an action's ``card`` when the action moves none. Both games use it.
NO_CARD: Final[int] = -2


class InvalidActionError(ValueError):
    """An action that is malformed: wrong kind, wrong fields, out-of-range values."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now."""


class InvalidStateError(ValueError):
    """Plain data that does not describe a state of the game."""


def action_kind(data: object, fields: Collection[str], kinds: Collection[str]) -> str:
    """Check that plain data is a map of known action fields with a known ``kind``; return it.

    Each game's ``Action.from_data`` starts here, then checks its own fields' values.
    """
    d = plain_map(data) if isinstance(data, dict) else None
    if d is None:
        if isinstance(data, dict):
            unknown = [k for k in data if type(k) is not str]  # the keys that are no names
            raise InvalidActionError(f"unknown action fields {unknown!r} in {data!r}")
        raise InvalidActionError(f"an action must be a map, not {data!r}")
    unknown_names = set(d) - set(fields)
    if unknown_names:
        raise InvalidActionError(f"unknown action fields {sorted(unknown_names)} in {data!r}")
    kind = d.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise InvalidActionError(f"unknown action kind {kind!r} in {data!r}")
    return kind


def plain_map(data: object) -> dict[str, object] | None:
    """``data`` as a map of names to values when it is one (plain data's maps have string
    keys), else ``None``: what a ``from_data`` reads, with every value still to check."""
    if not isinstance(data, dict):
        return None
    out: dict[str, object] = {}
    for key, value in data.items():  # the one place the untyped map is read
        if type(key) is not str:
            return None
        out[key] = value
    return out


def plain_list(data: object) -> list[object] | None:
    """``data`` as a list when it is one (a list or a tuple), else ``None``."""
    if not isinstance(data, (list, tuple)):
        return None
    out: list[object] = list(data)
    return out


def action_fields(
    data: object, fields: Collection[str], kinds: Collection[str]
) -> tuple[str, dict[str, object]]:
    """``action_kind`` that also gives the action's fields, to check one by one."""
    kind = action_kind(data, fields, kinds)
    d = plain_map(data)
    if d is None:
        raise InvalidActionError(f"an action's fields are named by strings: {data!r}")
    return kind, d


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    end: str
    turns: int
    detail: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "end": self.end,
            "turns": self.turns,
        }


#: a game's state, action and configuration types (each game's own classes)
S = TypeVar("S", bound="GameState")
A = TypeVar("A", bound="GameAction")
C = TypeVar("C", bound="GameConfig")
T_co = TypeVar("T_co", covariant=True)
S_contra = TypeVar("S_contra", bound="GameState", contravariant=True)
A_co = TypeVar("A_co", bound="GameAction", covariant=True)


class PlainData(Protocol):
    """A value that turns itself into plain data (maps, lists, ints, strs, bools)."""

    def to_data(self) -> dict[str, Any]: ...


class FromData(Protocol[T_co]):
    """A class that builds its values back from plain data (its ``from_data`` class method),
    raising ``InvalidActionError`` or ``InvalidStateError`` for data that describes none."""

    def from_data(self, data: object, /) -> T_co: ...


class GameConfig(PlainData, Protocol):
    """A game's configuration: a frozen value with the player count and the variants chosen."""

    @property
    def players(self) -> int: ...


class GameState(PlainData, Protocol):
    """A game's state: an immutable value (``ValueState`` gives equality and hashing)."""

    def __hash__(self) -> int: ...


class GameAction(PlainData, Protocol):
    """An action: an immutable value with the seat that takes it (``seat``)."""

    @property
    def seat(self) -> int: ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True)
class Option:
    """One rules option (a variant) of a game, as data: what the command line's ``--option``
    calls it (``name``), the words shown to players (``words``), and what it takes. An option
    with no ``values`` is on or off (``--option NAME``); one with ``values`` takes a whole number
    (``--option NAME=N``) and the forms offer those numbers, each in ``value_words``
    (``"to {} points"``), beside "off". ``default`` is its value when not given: off.

    >>> Option("target", "A match to a target", values=(20, 30)).choices()
    [('off', 0), ('20', 20), ('30', 30)]
    """

    name: str
    words: str
    values: tuple[int, ...] = ()
    value_words: str = "{}"
    default: bool | int = False
    #: a few words for a header (``""``: the name's words)
    short: str = ""
    #: the configuration's field that holds a numeric option's value (``""``: ``name``)
    field: str = ""

    def short_words(self, value: object) -> str:
        """The option in a few words with its value (``playing for points, to 30 points``).

        >>> Option("target", "A match", values=(20,), value_words="to {} points").short_words(20)
        'target, to 20 points'
        """
        text = self.short or self.name.replace("_", " ")
        return f"{text}, {self.value_words.format(value)}" if self.values else text

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not self.words:
            raise ValueError(f"an option needs a name and words, not {self.name!r}, {self.words!r}")

    def choices(self) -> list[tuple[str, int]]:
        """A numeric option's choices on a form: off, then each value in words."""
        return [("off", 0)] + [(self.value_words.format(n), n) for n in self.values]


def options_on(variants: Sequence[Option], config: object) -> frozenset[str]:
    """The names of the options of ``variants`` that ``config`` plays (a numeric one is on
    when its value is not 0).

    >>> from types import SimpleNamespace
    >>> sorted(options_on((Option("a", "A"), Option("b", "B")), SimpleNamespace(a=True, b=False)))
    ['a']
    """
    return frozenset(o.name for o in variants if getattr(config, o.name, o.default))


class GameRules(Protocol[S, A, C]):
    """The whole contract of a game: everything the driver, the search, the network and the
    table use of it. ``S``, ``A`` and ``C`` are the game's state, action and configuration types.

    Beside the state machine (see the module docstring) a game says who may play it
    (``min_players`` to ``max_players``, its seats' names), its rules options as data
    (``variants``; ``options`` are their names), how a configuration is made from a player count
    and ``--option`` values (``make_config``, ``ValueError`` naming the option if bad) and what
    a player should be told about one (``config_warnings``), each seat's score now (``scores``)
    and its actions in words (``action_text``, as the seat ``viewer`` may hear them; ``None``:
    as the referee). ``RulesBase`` gives the parts that every game does the same way.
    """

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def seat_names(self) -> Sequence[str]: ...
    @property
    def variants(self) -> tuple[Option, ...]: ...
    @property
    def options(self) -> tuple[str, ...]: ...
    @property
    def State(self) -> FromData[S]: ...
    @property
    def Action(self) -> FromData[A]: ...
    @property
    def Config(self) -> FromData[C]: ...

    def make_config(self, players: int, options: Mapping[str, object]) -> C: ...
    def config_warnings(self, config: C) -> list[str]: ...
    def new_game(self, config: C | None = None) -> S: ...
    def current_player(self, state: S) -> int: ...
    def legal_actions(self, state: S) -> list[A]: ...
    def chance_outcomes(self, state: S) -> list[tuple[A, float]]: ...
    def revealer(self, state: S) -> int: ...
    def apply(self, state: S, action: object) -> S: ...
    def apply_unchecked(self, state: S, action: A) -> S: ...
    def is_over(self, state: S) -> bool: ...
    def outcome(self, state: S) -> Outcome: ...
    def scores(self, state: S) -> tuple[int, ...]: ...
    def view(self, state: S, seat: int) -> S: ...
    def public_action(self, state: S, action: A, seat: int) -> A: ...
    def setup_choices(self, view: S, seat: int, queued: Sequence[A] = ()) -> list[A]: ...
    def setup_placed(self, view: S) -> tuple[int, ...]: ...
    def setup_owed(self, view: S) -> int: ...
    def action_text(self, state: S, action: A, viewer: int | None = None) -> str: ...
    def state_to_data(self, state: S) -> dict[str, Any]: ...
    def state_from_data(self, data: object) -> S: ...
    def action_to_data(self, action: A) -> dict[str, Any]: ...
    def action_from_data(self, data: object) -> A: ...


#: the contract's old name
Rules = GameRules
#: a game seen through the contract alone, its own types known only to its own code: what a
#: layer holds that takes the game by a name read at run time (a record, a start entry, a form)
SomeRules = GameRules[GameState, GameAction, GameConfig]


class ValueState:
    """Equality, hashing and a repr that rebuilds the value, for a game's ``State`` class: its
    ``__slots__`` are its fields, and it has ``to_data`` and a ``config`` with ``players``."""

    __slots__: tuple[str, ...] = ()

    def key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"State.from_data({self.to_data()!r})"  # type: ignore[attr-defined]

    @property
    def players(self) -> int:
        return self.config.players  # type: ignore[attr-defined, no-any-return]


class RulesBase(Generic[S, A, C]):
    """What every game's rules object does the same way: its ``State``, ``Action`` and
    ``Config`` classes carry their own plain-data conversions, its options' names come from
    its ``variants``, and the game is over at a ``TERMINAL`` step."""

    State: FromData[S]
    Action: FromData[A]
    Config: FromData[C]
    variants: tuple[Option, ...] = ()
    #: every game defines it (a plain function of the state)
    current_player: Callable[[S], int]

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.variants)

    def is_over(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def config_warnings(self, config: C) -> list[str]:
        """What a player should know before playing ``config`` (none, unless a game says)."""
        return []

    # a set-up whose choices every seat makes at once, ahead of its turn (none, unless a game
    # has one: Court of the Medici's hiding and crowning, ``engine.medici.setup``)

    def setup_choices(self, view: S, seat: int, queued: Sequence[A] = ()) -> list[A]:
        """The choices ``seat`` may make now, ahead of its turn, after its ``queued`` ones."""
        return []

    def setup_placed(self, view: S) -> tuple[int, ...]:
        """How many placements each seat has made in that set-up (``()`` outside one)."""
        return ()

    def setup_owed(self, view: S) -> int:
        """How many placements each seat makes in that set-up."""
        return 0

    def state_to_data(self, state: S) -> dict[str, Any]:
        return state.to_data()

    def state_from_data(self, data: object) -> S:
        return self.State.from_data(data)

    def action_to_data(self, action: A) -> dict[str, Any]:
        return action.to_data()

    def action_from_data(self, data: object) -> A:
        return self.Action.from_data(data)


class Bot(Protocol[S_contra, A_co]):
    """A computer player. It is given only its seat's view of the game, and decides with its
    own generator ``rng`` (a saved game keeps its state)."""

    @property
    def name(self) -> str: ...
    @property
    def rng(self) -> random.Random: ...

    def choose(self, view: S_contra, seat: int) -> A_co: ...


def sample_chance(outcomes: Sequence[tuple[A, float]], rng: random.Random) -> A:
    """Pick a chance outcome by its probability."""
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]


@dataclass
class Step(Generic[S, A]):
    """One entry of a local game's history: who acted, what, and the state it acted on."""

    actor: int
    action: A
    before: S


class LocalGame(Generic[S, A, C]):
    """A game played in one process: the rules, a state, a seeded generator for chance.

    The same seed and the same decisions replay the same game exactly.
    """

    def __init__(self, rules: GameRules[S, A, C], config: C, seed: int) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: S = rules.new_game(config)
        self.history: list[Step[S, A]] = []

    def step(self, action: A, checked: bool = True) -> None:
        """Apply one action (through the checked door unless told otherwise) and record it."""
        before = self.state
        actor = self.rules.current_player(before)
        if checked:
            self.state = self.rules.apply(before, action)
        else:
            self.state = self.rules.apply_unchecked(before, action)
        self.history.append(Step(actor, action, before))

    def text(self, step: Step[S, A], viewer: int | None = None) -> str:
        """A history entry in words, as the seat ``viewer`` may hear it."""
        return self.rules.action_text(step.before, step.action, viewer)

    def _automatic_action(self) -> A | None:
        rules, state = self.rules, self.state
        who = rules.current_player(state)
        if who == CHANCE:
            return sample_chance(rules.chance_outcomes(state), self.rng)
        if who == REVEAL:
            return rules.legal_actions(state)[0]
        return None

    def advance(self) -> list[Step[S, A]]:
        """Resolve chance and reveal steps until a seat must decide or the game is over."""
        done: list[Step[S, A]] = []
        while True:
            action = self._automatic_action()
            if action is None:
                return done
            self.step(action, checked=False)
            done.append(self.history[-1])

    def play_out(
        self,
        bots: Sequence[Bot[S, A]],
        checked: bool = True,
        limit: int = 100_000,
        on_move: Callable[[Step[S, A]], object] | None = None,
    ) -> Outcome:
        """Play to the end with one bot per seat, each deciding from its own view.

        ``checked=False`` trusts the bots' actions (they come from the legal actions of the
        seat's view, which the conformance tests show equal the state's): for fast simulation.
        ``on_move`` hears each seat's move once it is applied (``palazzo watch`` prints it).
        """
        rules = self.rules
        for _ in range(limit):
            self.advance()
            who = rules.current_player(self.state)
            if who == TERMINAL:
                return rules.outcome(self.state)
            view = rules.view(self.state, who)
            self.step(bots[who].choose(view, who), checked)
            if on_move is not None:
                on_move(self.history[-1])
        raise RuntimeError(f"game did not end within {limit} steps")
