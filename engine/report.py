"""Figures about how bot games were played, summed over many games and told per bot.

Each game's module ``engine.<game>.report`` turns one finished game into plain data
(``figures(history, outcome)``: ``moves`` per seat, the ``ender`` and whether it lost,
``seats`` with per-seat counts named by its ``FIELDS``); its ``SHARES`` name the ratios worth
printing. ``Tally`` gathers those per bot name (a seat's counts go to the bot that sat there)
and ``Tally.lines()`` prints them: game length in turns and in moves per seat (medians and
ranges), the end reasons, the share of the games a seat chose to end that it won, the share
of games ended by a seat that lost them, per bot, and each share.
``wilson`` gives a win rate's 95% interval, for the scripts that measure bots.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core import Outcome


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% score interval for a proportion ``wins / n`` (``(0, 1)`` for no games)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class GameReport(Protocol):
    """What a game's ``engine.<game>.report`` module gives (``GameEntry.report``)."""

    SHARES: tuple[tuple[str, str, str], ...]

    def figures(self, history: Sequence[Any], outcome: Outcome) -> dict[str, Any]: ...


def no_figures(outcome: Outcome) -> dict[str, Any]:
    """The figures of a game that declares no report: its length in turns and its end only."""
    return {"moves": [], "ender": -1, "ender_lost": False, "seats": [{} for _ in outcome.scores]}


@dataclass
class Tally:
    report: GameReport | None
    games: int = 0
    turns: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)
    ended: Counter[str] = field(default_factory=Counter)
    ended_lost: Counter[str] = field(default_factory=Counter)
    counts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, bots: list[str], turns: int, end: str, figures: dict[str, Any]) -> None:
        self.games += 1
        self.turns.append(turns)
        self.moves.extend(figures["moves"])
        self.ends[end] += 1
        ender = figures["ender"]
        if ender >= 0:
            self.ended[bots[ender]] += 1
            self.ended_lost[bots[ender]] += figures["ender_lost"]
        for bot, seat in zip(bots, figures["seats"], strict=True):
            self.counts[bot].update(seat)

    def lines(self) -> list[str]:
        if not self.games:
            return []
        moves = (
            f", median {statistics.median(self.moves)} moves a seat ({min(self.moves)}-{max(self.moves)})"
            if self.moves
            else ""
        )
        out = [
            f"length: median {statistics.median(self.turns)} turns ({min(self.turns)}-{max(self.turns)}){moves}",
            "ends: " + ", ".join(f"{end} {k}" for end, k in self.ends.most_common()),
        ]
        chosen = sum(self.ended.values())
        if chosen:
            won = chosen - sum(self.ended_lost.values())
            out.append(f"whoever ended the game won {won}/{chosen} ({won / chosen:.0%}) of the games "
                       "a seat chose to end")
        for bot in sorted(self.counts):
            c = self.counts[bot]
            parts = []
            if self.ended[bot]:
                parts.append(
                    f"ended {self.ended[bot]} games and lost {self.ended_lost[bot]} of them "
                    f"({self.ended_lost[bot] / self.ended[bot]:.0%})"
                )
            for name, num, den in self.report.SHARES if self.report is not None else ():
                share = f" ({c[num] / c[den]:.0%})" if c[den] else ""
                parts.append(f"{name} {c[num]}/{c[den]}{share}")
            out.append(f"{bot}: " + "; ".join(parts))
        return out
