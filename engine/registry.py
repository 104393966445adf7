"""The games palazzo knows, their bots, and how to build bots by name.

A bot name is a bot kind of the game (``random``, ``greedy``, ...) or a difficulty level
(``easy``, ``normal``, ``hard``) that maps to a kind and its settings.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BotFactory = Callable[[random.Random, dict[str, Any]], Any]


@dataclass(frozen=True)
class GameEntry:
    rules: Any
    bots: dict[str, BotFactory]
    levels: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    default_bot: str = "greedy"

    def bot_names(self) -> list[str]:
        return list(self.bots) + [lv for lv in self.levels if lv not in self.bots]

    def check_bot(self, name: str) -> None:
        """``ValueError`` naming the choices unless ``name`` is one of ``bot_names()``."""
        if name not in self.bots and name not in self.levels:
            raise ValueError(
                f"unknown bot {name!r} for {self.rules.name} (choose from {', '.join(self.bot_names())})"
            )

    def make_bot(self, name: str, rng: random.Random, **settings: Any) -> Any:
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


def get_game(name: str) -> GameEntry:
    if name not in _MODULES:
        raise ValueError(f"unknown game {name!r} (choose from {', '.join(game_names())})")
    try:
        module = importlib.import_module(_MODULES[name])
    except ModuleNotFoundError:
        raise ValueError(f"the game {name!r} is not available yet") from None
    entry = module.ENTRY
    if not isinstance(entry, GameEntry):
        raise TypeError(f"{_MODULES[name]}.ENTRY is not a GameEntry")
    return entry


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["hidden_cards", "playing_for_points=30"]`` -> ``{"hidden_cards": True, ...: 30}``."""
    out: dict[str, Any] = {}
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
