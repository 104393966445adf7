"""What both games' judgement fits share: a softmax over the seats' weighted figures, fitted to
who won by gradient ascent on the log-likelihood (``fit``), and its test figure (``log_loss``).

A row is one position: each seat's figures (a list of floats per seat) and the winners' seats.
"""

from __future__ import annotations

import math

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
