"""The type variables of a networked game's state, action and configuration, with defaults.

A table, a seat's side of it and a client are generic over the game's types, and most of their
holders do not know the game: it is named by a start entry or a record read at run time. So each
variable defaults to the contract's protocol (``engine.core.GameState`` and the others): a bare
``Table`` sees its game through the contract, and a holder that knows the game writes
``Table[medici.State, medici.Action, MediciConfig]``.
"""

from __future__ import annotations

from typing_extensions import TypeVar

from engine.core import GameAction, GameConfig, GameState

S = TypeVar("S", bound=GameState, default=GameState)
A = TypeVar("A", bound=GameAction, default=GameAction)
C = TypeVar("C", bound=GameConfig, default=GameConfig)
