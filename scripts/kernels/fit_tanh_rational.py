#!/usr/bin/env python3
"""Fits the rational approximation of FloatMath.tanh (Sources/Microkernels/Portable/FloatMath.swift).

tanh(x) ~ x * P(x^2) / Q(x^2) on [0, 9], P and Q of degree 4 in x^2 with Q(0) = 1, fitted to the
absolute error by iteratively reweighted linearized least squares (Lawson's weights) on
Chebyshev-distributed points. Prints the coefficients as float32 values, highest degree last,
and the fit's maximum error in double precision. Needs numpy only.

    python3 scripts/kernels/fit_tanh_rational.py
"""
import numpy as np

LIMIT = 9.0  # float tanh rounds to +-1 beyond about 9.01
DEGREE_P, DEGREE_Q = 4, 4


def fit(points=20000, iterations=60):
    k = np.arange(points)
    x = np.concatenate([(LIMIT / 2) * (1 - np.cos(np.pi * (k + 0.5) / points)), [LIMIT]])
    t, u = np.tanh(x), x * x
    weights = np.ones_like(x)
    best = None
    for _ in range(iterations):
        # x*P(u) - t*(Q(u) - 1) = t: linear in the unknown coefficients.
        columns = [x * u**j for j in range(DEGREE_P + 1)] + [-t * u**j for j in range(1, DEGREE_Q + 1)]
        a = np.stack(columns, axis=1)
        solution, *_ = np.linalg.lstsq(a * weights[:, None], t * weights, rcond=None)
        p, q = solution[: DEGREE_P + 1], np.concatenate([[1.0], solution[DEGREE_P + 1 :]])
        qv = np.polyval(q[::-1], u)
        error = x * np.polyval(p[::-1], u) / qv - t
        worst = np.max(np.abs(error))
        if best is None or worst < best[0]:
            best = (worst, p, q)
        weights = np.maximum(weights * np.sqrt(np.abs(error)), 1e-300)
        weights = weights / np.max(weights) / np.abs(qv)
    return best


if __name__ == "__main__":
    worst, p, q = fit()
    print(f"maximum error in double precision: {worst:.3g}")
    print("P:", ", ".join(f"{np.float32(c):.9e}" for c in p))
    print("Q:", ", ".join(f"{np.float32(c):.9e}" for c in q))
