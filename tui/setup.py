"""A local game's settings (``GameSetup``) and the table that plays it.

``GameSetup`` is what the start screen returns and what ``palazzo play`` builds from its
arguments: the game, the number of players, the seat you take, a bot name for every other seat,
the rules options, your name, the seed and the bots' pace. ``make_client`` turns it into a
``LocalClient``; ``table_for`` names the screen class that draws the game. Each game's screen
and words live in their own subpackage (``tui.medici``, ``tui.condottiere``), imported only
when that game is played.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, replace
from typing import Any

from engine.registry import get_game
from tui.client import LocalClient

#: per game: the module with ``TABLE`` (the screen class), ``narrate``, ``marks`` and ``quiet``
ADAPTERS = {"medici": "tui.medici.adapter", "condottiere": "tui.condottiere.adapter"}


def player_levels(game: str) -> list[str]:
    """The levels offered to players on the forms (easy, normal, hard, expert); the bot kinds behind them (greedy, ismcts, ...) stay names for the command line."""
    return get_game(game).level_names()


def default_bot(game: str) -> str:
    entry = get_game(game)
    names = entry.bot_names()
    return "normal" if "normal" in names else entry.default_bot


@dataclass(frozen=True)
class GameSetup:
    game: str = "medici"
    players: int = 4
    seat: int = 0
    #: one bot name per seat; the entry at ``seat`` is ignored. Empty: the default bot.
    bots: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    name: str = ""
    seed: int | None = None
    pace: float = 0.8
    #: the bots' canned remarks in the log (``tui.chat.Remarks``; not kept in a saved game)
    remarks: bool = False
    #: ask before a move that cannot be taken back (``tui.table``; not kept in a saved game)
    confirm: bool = True

    def seat_bots(self) -> dict[int, str]:
        bots = list(self.bots) or [default_bot(self.game)]
        if len(bots) == 1:
            bots = bots * self.players
        if len(bots) != self.players:
            raise ValueError(f"name 1 bot or {self.players} bots, not {len(bots)}")
        return {s: b for s, b in enumerate(bots) if s != self.seat}

    def again(self) -> GameSetup:
        """The same table with a fresh shuffle."""
        return replace(self, seed=None)


def adapter(game: str) -> Any:
    if game not in ADAPTERS:
        raise ValueError(f"no table for the game {game!r}")
    return importlib.import_module(ADAPTERS[game])


def seat_labels(setup: GameSetup, seat_names: tuple[str, ...]) -> tuple[str, ...]:
    """How each seat is called on the table and in the log: ``Orsini (you)``, ``Colonna``."""
    me = setup.name.strip() or "you"
    return tuple(
        f"{n} ({me})" if i == setup.seat else n for i, n in enumerate(seat_names[: setup.players])
    )


def make_client(setup: GameSetup) -> LocalClient:
    entry = get_game(setup.game)
    rules = entry.rules
    config = rules.make_config(setup.players, dict(setup.options))
    if not 0 <= setup.seat < setup.players:
        raise ValueError(f"seat {setup.seat + 1} is not at a table of {setup.players}")
    bots = setup.seat_bots()
    for name in set(bots.values()):
        entry.check_bot(name)
    seed = setup.seed if setup.seed is not None else random.randrange(1 << 32)
    game = adapter(setup.game)
    return LocalClient(
        entry,
        config,
        seed,
        setup.seat,
        bots,
        seat_labels(setup, tuple(rules.seat_names)),
        pace=setup.pace,
        narrator=game.narrate,
        quiet=game.quiet,
        marker=getattr(game, "marks", None),
        remarks=setup.remarks,
    )


def table_for(setup: GameSetup) -> Any:
    """A table screen playing ``setup``, with its client."""
    game = adapter(setup.game)
    return game.TABLE(make_client(setup), setup)
