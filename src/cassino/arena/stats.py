"""The statistics of an arena: Wilson intervals for win rates, normal intervals for means, and a
Bradley-Terry fit of ratings on the Elo scale with intervals from the Fisher information.

Pure Python on purpose: the tables are a handful of players, and the engine's no-dependency promise
holds for everything but the optional plot, progress bar and Ray.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""

ELO = 400 / math.log(10)
"""Elo points per unit of log-odds of winning."""

ANCHOR = 1500.0
"""The mean rating."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: sensible near 0 and 1 and for few trials, where
    the plain normal interval leaves [0, 1] or collapses to a point."""
    if trials <= 0:
        return 0.0, 1.0
    if successes > trials / 2:  # mirror, so that k and n - k give exactly mirrored intervals
        lo, hi = wilson(trials - successes, trials, z)
        return 1.0 - hi, 1.0 - lo
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (0.0 if successes <= 0 else max(0.0, centre - half)), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float | None]:
    """The mean and the half-width of its normal 95% interval (None with fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(var / n)


@dataclass(frozen=True, slots=True)
class Ratings:
    """Bradley-Terry ratings on the Elo scale (mean ``ANCHOR``) with their standard errors."""

    ratings: tuple[float, ...]
    se: tuple[float, ...]
    virtual_draws: bool
    """True when one draw per pairing was added so that the fit exists (someone won or lost every game)."""
    unmet_draws: bool = False
    """True when the players were not all linked by games played (a tournament's first round: a-b
    and c-d), so one draw was added between each pair that never met, to put them on one scale."""

    def interval(self, i: int, z: float = Z95) -> tuple[float, float]:
        """The normal 95% interval of rating ``i``."""
        return self.ratings[i] - z * self.se[i], self.ratings[i] + z * self.se[i]


def _softplus(x: float) -> float:
    """``log(1 + e^x)`` without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _sigmoid(x: float) -> float:
    """``1 / (1 + e^-x)`` without overflow."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _strongly_connected(wins: Sequence[Sequence[float]]) -> bool:
    """Whether every player beat, directly or through others, every other: the condition under
    which the maximum-likelihood ratings are finite."""
    n = len(wins)

    def reach(forward: bool) -> int:
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in range(n):
                w = wins[i][j] if forward else wins[j][i]
                if w > 0 and j not in seen:
                    seen.add(j)
                    stack.append(j)
        return len(seen)

    return n <= 1 or (reach(True) == n and reach(False) == n)


def _linked(games: Sequence[Sequence[float]]) -> bool:
    """Whether every player is linked to every other by games played, directly or through others."""
    n = len(games)
    seen = {0}
    stack = [0]
    while stack:
        i = stack.pop()
        for j in range(n):
            if games[i][j] and j not in seen:
                seen.add(j)
                stack.append(j)
    return n <= 1 or len(seen) == n


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small and well posed)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def bradley_terry(wins: Sequence[Sequence[float]]) -> Ratings:
    """Maximum-likelihood Bradley-Terry ratings from ``wins[i][j]``, what i scored against j (a win 1,
    a draw 1/2 to each), on the Elo scale with mean 1500.

    Newton's method on the log-likelihood in log-strengths; the information matrix is a weighted
    graph Laplacian L, and with the mean fixed the covariance of the strengths is its pseudo-inverse
    ``(L + J/n)^-1 - J/n`` (J all ones), whose diagonal gives each rating's standard error relative
    to the mean. Players not all linked by games played (two separate groups) get one virtual draw
    between each pair that never met (``unmet_draws``), which puts them on one scale.
    """
    n = len(wins)
    w = [[float(x) for x in row] for row in wins]
    met = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    unmet = not _linked(met)
    if unmet:
        for i in range(n):
            for j in range(n):
                if i != j and not met[i][j]:
                    w[i][j] = 0.5
    virtual = not _strongly_connected(w)
    if virtual:
        for i in range(n):
            for j in range(n):
                if i != j and w[i][j] + w[j][i] > 0:
                    w[i][j] += 0.5
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    scored = [math.fsum(row) for row in w]
    beta = [0.0] * n

    def loglik(b: Sequence[float]) -> float:
        return math.fsum(-w[i][j] * _softplus(b[j] - b[i]) for i in range(n) for j in range(n) if i != j and w[i][j])

    def information(b: Sequence[float]) -> list[list[float]]:
        info = [[1.0 / n] * n for _ in range(n)]  # L + J/n
        for i in range(n):
            for j in range(n):
                if i != j and games[i][j]:
                    p = _sigmoid(b[i] - b[j])
                    v = games[i][j] * p * (1 - p)
                    info[i][j] -= v
                    info[i][i] += v
        return info

    for _ in range(200):
        grad = [
            scored[i] - math.fsum(games[i][j] * _sigmoid(beta[i] - beta[j]) for j in range(n) if j != i)
            for i in range(n)
        ]
        step = _solve(information(beta), grad)
        before = loglik(beta)
        scale = 1.0
        while True:
            trial = [b + scale * s for b, s in zip(beta, step, strict=True)]
            if loglik(trial) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        beta = trial
        if max((abs(s) * scale for s in step), default=0.0) < 1e-13:
            break
    centre = math.fsum(beta) / n if n else 0.0
    beta = [b - centre for b in beta]
    info = information(beta)
    se = []
    for i in range(n):
        unit = [1.0 if k == i else 0.0 for k in range(n)]
        var = _solve(info, unit)[i] - 1.0 / n
        se.append(ELO * math.sqrt(max(var, 0.0)))
    return Ratings(tuple(ANCHOR + ELO * b for b in beta), tuple(se), virtual, unmet)


def pair_scores(winner: int, scores: Sequence[int], loser: int = -1) -> list[tuple[int, int, float]]:
    """What each pair of sides scored against each other in one game, as (a, b, a's score): the
    winner beats every other side, a side that forfeited (``loser``) loses to every other, the
    others are ranked by their final points (equal points are a draw), and a game left undecided is
    a draw between all."""
    out = []
    for a in range(len(scores)):
        for b in range(a + 1, len(scores)):
            if loser in (a, b) and winner not in (a, b):
                s = 0.0 if loser == a else 1.0
            elif winner < 0:
                s = 0.5
            elif winner == a:
                s = 1.0
            elif winner == b:
                s = 0.0
            else:
                s = 1.0 if scores[a] > scores[b] else 0.0 if scores[a] < scores[b] else 0.5
            out.append((a, b, s))
    return out
