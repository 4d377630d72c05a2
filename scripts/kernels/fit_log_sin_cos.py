#!/usr/bin/env python3
"""Fits the polynomials of FloatMath.log, .sin and .cos (Sources/Microkernels/Portable/FloatMath.swift).

- log(1 + f) ~ f - f^2/2 + f^3 * L(f) on f in [sqrt(1/2) - 1, sqrt(2) - 1], L of degree 6, fitted
  to the relative error of log(1 + f);
- sin(r) ~ r + r^3 * S(r^2) on r in [-pi/4, pi/4], S of degree 2, fitted to the relative error;
- cos(r) ~ 1 - r^2/2 + r^4 * C(r^2) on the same interval, C of degree 2, fitted to the absolute
  error (cos r >= 0.7 there, so absolute and relative differ by less than 1.5x).

The leading terms are kept exact so the results are accurate relative to small f and r. Each fit
is iteratively reweighted least squares (Lawson's weights, which converge to the minimax
polynomial) on Chebyshev-distributed points; the coefficients are then rounded to float32 and
the printed maximum error is that of the rounded polynomial, evaluated in double precision.
Needs numpy only.

    python3 scripts/kernels/fit_log_sin_cos.py
"""
import numpy as np


def chebyshev(lo, hi, n=20000):
    k = np.arange(n)
    return (lo + hi) / 2 - (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)


def lawson(columns, target, scale, iterations=80):
    """Coefficients c minimizing max |(columns @ c - target) / scale|."""
    a = np.stack(columns, axis=1) / scale[:, None]
    b = target / scale
    w = np.ones_like(b)
    best = None
    for _ in range(iterations):
        c, *_ = np.linalg.lstsq(a * np.sqrt(w)[:, None], b * np.sqrt(w), rcond=None)
        e = a @ c - b
        worst = np.max(np.abs(e))
        if best is None or worst < best[0]:
            best = (worst, c)
        w = w * np.abs(e)
        w = np.maximum(w / w.sum(), 1e-300)
    return best[1]


def rounded(c):
    return np.array([float(np.float32(v)) for v in c])


def fit_log(degree=6):
    f = chebyshev(np.sqrt(0.5) - 1, np.sqrt(2.0) - 1)
    f = f[f != 0]
    y = np.log1p(f)
    c = rounded(lawson([f**3 * f**j for j in range(degree + 1)], y - f + f * f / 2, np.abs(y)))
    approx = f - f * f / 2 + f**3 * np.polyval(c[::-1], f)
    return c, np.max(np.abs(approx / y - 1))


def fit_sin(degree=2):
    r = chebyshev(0, np.pi / 4)
    y = np.sin(r)
    u = r * r
    c = rounded(lawson([r**3 * u**j for j in range(degree + 1)], y - r, y))
    approx = r + r**3 * np.polyval(c[::-1], u)
    return c, np.max(np.abs(approx / y - 1))


def fit_cos(degree=2):
    r = chebyshev(0, np.pi / 4)
    y = np.cos(r)
    u = r * r
    c = rounded(lawson([u * u * u**j for j in range(degree + 1)], y - 1 + u / 2, np.ones_like(r)))
    approx = 1 - u / 2 + u * u * np.polyval(c[::-1], u)
    return c, np.max(np.abs(approx - y))


if __name__ == "__main__":
    for name, (c, worst) in (("log L", fit_log()), ("sin S", fit_sin()), ("cos C", fit_cos())):
        print(f"{name}: maximum {'relative' if name != 'cos C' else 'absolute'} error {worst:.3g}")
        print("  lowest degree first:", ", ".join(f"{np.float32(v).item().hex()}" for v in c))
