"""Headless bot games: the engine side of ``palazzo sim``.

Each game of a run gets its own seed derived from the run's seed and the game's number, so any
single game can be replayed alone (``--seed`` of the run plus its number give the same game).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.core import A, C, LocalGame, Outcome, S
from engine.registry import GameEntry
from engine.report import no_figures


def game_seed(run_seed: int, index: int) -> int:
    return random.Random(f"palazzo/{run_seed}/{index}").getrandbits(48)


def bot_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"palazzo/{seed}/bot/{seat}")


@dataclass
class SimResult:
    index: int
    seed: int
    bots: list[str]
    outcome: Outcome
    figures: dict[str, Any]

    def to_json(self, players: int) -> dict[str, Any]:
        o = self.outcome
        return {
            "game": self.index,
            "seed": self.seed,
            "players": players,
            "bots": self.bots,
            "winners": list(o.winners),
            "scores": list(o.scores),
            "turns": o.turns,
            "end": o.end,
            "moves": self.figures["moves"],
            "ender": self.figures["ender"],
            "figures": self.figures["seats"],
        }


def seat_bots(entry: GameEntry[S, A, C], names: list[str], players: int) -> list[str]:
    if not names:
        return [entry.default_bot] * players
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players (give 1 or {players})")
    return names


def play_one(
    entry: GameEntry[S, A, C], config: C, seed: int, bots: list[str], **settings: object
) -> tuple[Outcome, dict[str, Any]]:
    """One game's outcome and its figures (``engine.<game>.report``)."""
    game = LocalGame(entry.rules, config, seed)
    players = [entry.make_bot(name, bot_rng(seed, i), **settings) for i, name in enumerate(bots)]
    outcome = game.play_out(players, checked=False)
    if entry.report is None:
        return outcome, no_figures(outcome)
    return outcome, entry.report.figures(game.history, outcome)


def run(
    entry: GameEntry[S, A, C], config: C, games: int, seed: int, bots: list[str], **settings: object
) -> Iterator[SimResult]:
    for i in range(games):
        s = game_seed(seed, i)
        yield SimResult(i, s, bots, *play_one(entry, config, s, bots, **settings))
