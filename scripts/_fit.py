"""What both games' judgement fits share: a softmax over the seats' weighted figures, fitted to
who won by gradient ascent on the log-likelihood (``fit``), and its test figure (``log_loss``).

A row is one position: each seat's figures (a list of floats per seat) and the winners' seats.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

Row = tuple[list[list[float]], list[int]]


def log_loss(score: list[float], winners: list[int]) -> float:
    """The mean negative log-probability the softmax of ``score`` gives the winners."""
    top = max(score)
    z = sum(math.exp(x - top) for x in score)
    return -sum(score[q] - top - math.log(z) for q in winners) / len(winners)


def weighted(w: tuple[float, ...], f: list[float]) -> float:
    """The figures ``f`` weighted by ``w`` (the shorter of the two sets the length)."""
    return sum(a * b for a, b in zip(w, f, strict=False))


def fit(rows: list[Row], k: int, steps: int, rate: float) -> tuple[float, ...]:
    """``k`` weights fitted to ``rows`` by ``steps`` of gradient ascent at ``rate``."""
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        for f, winners in rows:
            score = [weighted(tuple(w), x) for x in f]
            top = max(score)
            e = [math.exp(x - top) for x in score]
            z = sum(e)
            for i in range(k):
                expected = sum(e[q] / z * f[q][i] for q in range(len(f)))
                observed = sum(f[q][i] for q in winners) / len(winners)
                grad[i] += observed - expected
        w = [w[i] + rate * grad[i] / len(rows) for i in range(k)]
    return tuple(w)


def play(game: str, level: str, games: int, seed: int, options: dict[str, object],
         sample: Callable[[Any], list[list[float]] | None]) -> list[list[Row]]:
    """``games`` 4-player games of ``level`` bots; per game, a row for each state ``sample``
    gives figures for (it is shown every state before a decision), with the game's winners."""
    from engine.core import TERMINAL, LocalGame
    from engine.registry import get_game

    entry = get_game(game)
    rules = entry.rules
    out = []
    for g in range(games):
        local = LocalGame(rules, rules.make_config(4, options), seed + g)
        bots = [entry.make_bot(level, random.Random(10 * g + i)) for i in range(4)]
        seen = []
        while True:
            local.advance()
            s = local.state
            who = rules.current_player(s)
            if who == TERMINAL:
                break
            f = sample(s)
            if f is not None:
                seen.append(f)
            if who < 0:
                break
            local.step(bots[who].choose(rules.view(s, who), who), checked=False)
        winners = list(rules.outcome(local.state).winners)
        out.append([(f, winners) for f in seen])
    return out
