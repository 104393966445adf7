"""The games palazzo knows, their bots, and how to build bots by name.

Each game's package has an ``entry`` module with ``ENTRY``, a ``GameEntry``: its rules object
(the whole contract, ``engine.core.GameRules``), its bots by kind and its difficulty levels.
``_MODULES`` names them; its keys are the games' names, which every other layer's per-game table
(``tui.setup.ADAPTERS``, ``net.session.machines.entries.DEALERS``) uses as its keys too.

A bot name is a bot kind of the game (``random``, ``greedy``, ...) or a difficulty level
(``easy``, ``normal``, ``hard``) that maps to a kind and its settings.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, overload

from engine.core import A, Bot, C, GameAction, GameConfig, GameRules, GameState, S
from engine.report import GameReport

if TYPE_CHECKING:
    from engine import condottiere, medici

#: bot settings by name (``think``, ``rollout``, ...), as the command line and levels give them
Settings = dict[str, object]
#: builds a bot from its generator and its settings
BotFactory = Callable[[random.Random, Settings], Bot[S, A]]


@dataclass(frozen=True)
class GameEntry(Generic[S, A, C]):
    """A game in the registry: its rules, its bots by kind and its levels."""

    rules: GameRules[S, A, C]
    bots: dict[str, BotFactory[S, A]]
    levels: dict[str, tuple[str, Settings]] = field(default_factory=dict)
    default_bot: str = "greedy"
    #: the game's ``engine.<game>.report`` module (``engine.report`` reads it)
    report: GameReport | None = None

    def bot_names(self) -> list[str]:
        return list(self.bots) + [lv for lv in self.levels if lv not in self.bots]

    def level_names(self) -> list[str]:
        """What the interface offers: the levels, weakest first (``bot_names`` lists every
        name a command line takes, the bot kinds such as ``ismcts`` too)."""
        return list(self.levels) or self.bot_names()

    def check_bot(self, name: str) -> None:
        """``ValueError`` naming the choices unless ``name`` is one of ``bot_names()``."""
        if name not in self.bots and name not in self.levels:
            raise ValueError(
                f"unknown bot {name!r} for {self.rules.name} (choose from {', '.join(self.bot_names())})"
            )

    def make_bot(self, name: str, rng: random.Random, **settings: object) -> Bot[S, A]:
        self.check_bot(name)
        if name in self.levels:
            kind, preset = self.levels[name]
            return self.bots[kind](rng, {**preset, **settings})
        return self.bots[name](rng, settings)


_MODULES = {"medici": "engine.medici.entry", "condottiere": "engine.condottiere.entry"}


def game_names() -> list[str]:
    names = []
    for name, module in _MODULES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


#: an entry of some game, named at run time: its types are known only to the game's own code,
#: and the caller sees them through the contract (``engine.core.SomeRules``)
SomeEntry = GameEntry[GameState, GameAction, GameConfig]
#: the old name
AnyEntry = SomeEntry
if TYPE_CHECKING:
    #: the entries of the games palazzo ships, with their types
    MediciEntry = GameEntry[medici.State, medici.Action, medici.MediciConfig]
    CondottiereEntry = GameEntry[
        condottiere.State, condottiere.Action, condottiere.CondottiereConfig
    ]


@overload
def get_game(name: Literal["medici"]) -> MediciEntry: ...
@overload
def get_game(name: Literal["condottiere"]) -> CondottiereEntry: ...
@overload
def get_game(name: str) -> SomeEntry: ...


def get_game(name: str) -> SomeEntry | MediciEntry | CondottiereEntry:
    """The entry of the game called ``name``, typed by its game when the name is written out
    (``get_game("condottiere").rules.new_game()`` is a Condottiere ``State``); ``ValueError``
    naming the choices for an unknown name."""
    if name not in _MODULES:
        raise ValueError(f"unknown game {name!r} (choose from {', '.join(game_names())})")
    try:
        module = importlib.import_module(_MODULES[name])
    except ModuleNotFoundError:
        raise ValueError(f"the game {name!r} is not available yet") from None
    entry: object = module.ENTRY
    if not isinstance(entry, GameEntry):
        raise TypeError(f"{_MODULES[name]}.ENTRY is not a GameEntry")
    return entry


def parse_options(pairs: list[str]) -> dict[str, bool | int]:
    """``["hidden_cards", "playing_for_points=30"]`` -> ``{"hidden_cards": True, ...: 30}``."""
    out: dict[str, bool | int] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not name:
            raise ValueError(f"empty option in {pair!r}")
        if not eq:
            out[name] = True
        elif value.isdigit():
            out[name] = int(value)
        else:
            raise ValueError(f"option {name} takes a whole number, not {value!r}")
    return out
