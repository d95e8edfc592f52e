"""Small linear algebra for the fit scripts of the hard bots' models (no numpy in the project)."""

from __future__ import annotations


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve matrix · x = vector by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    x = [0.0] * size
    for r in reversed(range(size)):
        x[r] = (rows[r][size] - sum(rows[r][c] * x[c] for c in range(r + 1, size))) / rows[r][r]
    return x
