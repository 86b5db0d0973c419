"""Excel's probability distributions beyond the normal one: binomial, Poisson,
exponential, gamma and chi-squared, beta, Student's t, F, log-normal, Weibull,
hypergeometric and negative binomial, with their inverses and the confidence intervals.

The continuous ones rest on the regularized incomplete gamma and beta functions
(series and continued fractions, as in *Numerical Recipes*, §6.2 and §6.4); inverses
are found by bisection of the distribution, to full double precision.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .base import DIV0, NUM, elementwise, numeric
from ..values import XlErr

__all__ = ["ELEMENTWISE", "gamma_p", "beta_i"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}


def _fn(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return lambda fn: elementwise(ELEMENTWISE, *names)(numeric(fn))


def gamma_p(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if x <= 0:
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return min(1.0, total * math.exp(log_front))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)  # the continued fraction for Q
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return max(0.0, 1 - math.exp(log_front) * h)


def _beta_fraction(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (1e-300 if abs(d) < 1e-300 else d)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        for an in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + an * d
            d = 1 / (1e-300 if abs(d) < 1e-300 else d)
            c = 1 + an / c
            c = 1e-300 if abs(c) < 1e-300 else c
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def beta_i(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _invert(cdf: Callable[[float], float], p: float, low: float, high: float) -> float:
    """The x with cdf(x) = p, by bisection (``high`` grown until it brackets p)."""
    while cdf(high) < p and high < 1e300:
        low, high = high, high * 2 if high > 0 else 1.0
    for _ in range(300):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if cdf(middle) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# -- discrete --------------------------------------------------------------------------------
def _binom_pmf(k: int, n: int, p: float) -> float:
    return math.comb(n, k) * p ** k * (1 - p) ** (n - k)


@_fn("BINOM.DIST", "BINOMDIST")
def _binom(k: float, n: float, p: float, cumulative: float) -> Any:
    k_, n_ = int(k), int(n)
    if not 0 <= k_ <= n_ or not 0 <= p <= 1:
        return XlErr(NUM)
    if cumulative:
        return math.fsum(_binom_pmf(i, n_, p) for i in range(k_ + 1))
    return _binom_pmf(k_, n_, p)


@_fn("BINOM.INV", "CRITBINOM")
def _binom_inv(n: float, p: float, alpha: float) -> Any:
    n_ = int(n)
    if n_ < 0 or not 0 <= p <= 1 or not 0 < alpha < 1:
        return XlErr(NUM)
    total = 0.0
    for k in range(n_ + 1):
        total += _binom_pmf(k, n_, p)
        if total >= alpha - 1e-15:
            return float(k)
    return float(n_)


@_fn("POISSON.DIST", "POISSON")
def _poisson(x: float, mean: float, cumulative: float) -> Any:
    k = int(x)
    if k < 0 or mean < 0:
        return XlErr(NUM)
    pmf = lambda i: math.exp(-mean + i * math.log(mean) - math.lgamma(i + 1)) if mean else float(i == 0)
    return math.fsum(pmf(i) for i in range(k + 1)) if cumulative else pmf(k)


@_fn("NEGBINOM.DIST")
def _negbinom(f: float, s: float, p: float, cumulative: float) -> Any:
    failures, successes = int(f), int(s)
    if failures < 0 or successes < 1 or not 0 < p < 1:
        return XlErr(NUM)
    pmf = lambda k: math.comb(k + successes - 1, successes - 1) * p ** successes * (1 - p) ** k
    return math.fsum(pmf(k) for k in range(failures + 1)) if cumulative else pmf(failures)


@_fn("NEGBINOMDIST")
def _negbinomdist(f: float, s: float, p: float) -> Any:
    return _negbinom(f, s, p, 0.0)


@_fn("HYPGEOM.DIST")
def _hypgeom(k: float, n: float, big_k: float, big_n: float, cumulative: float) -> Any:
    k_, n_, kk, nn = int(k), int(n), int(big_k), int(big_n)
    if k_ < 0 or n_ <= 0 or kk <= 0 or nn <= 0 or n_ > nn or kk > nn or k_ > min(n_, kk) \
            or k_ < max(0, n_ - nn + kk):
        return XlErr(NUM)
    pmf = lambda i: math.comb(kk, i) * math.comb(nn - kk, n_ - i) / math.comb(nn, n_)
    return math.fsum(pmf(i) for i in range(max(0, n_ - nn + kk), k_ + 1)) if cumulative else pmf(k_)


@_fn("HYPGEOMDIST")
def _hypgeomdist(k: float, n: float, big_k: float, big_n: float) -> Any:
    return _hypgeom(k, n, big_k, big_n, 0.0)


# -- continuous ------------------------------------------------------------------------------
@_fn("EXPON.DIST", "EXPONDIST")
def _expon(x: float, rate: float, cumulative: float) -> Any:
    if x < 0 or rate <= 0:
        return XlErr(NUM)
    return 1 - math.exp(-rate * x) if cumulative else rate * math.exp(-rate * x)


def _gamma_pdf(x: float, a: float, scale: float) -> float:
    if x == 0:
        return 1 / scale if a == 1 else 0.0
    return math.exp((a - 1) * math.log(x) - x / scale - math.lgamma(a) - a * math.log(scale))


@_fn("GAMMA.DIST", "GAMMADIST")
def _gamma_dist(x: float, a: float, scale: float, cumulative: float) -> Any:
    if x < 0 or a <= 0 or scale <= 0:
        return XlErr(NUM)
    return gamma_p(a, x / scale) if cumulative else _gamma_pdf(x, a, scale)


@_fn("GAMMA.INV", "GAMMAINV")
def _gamma_inv(p: float, a: float, scale: float) -> Any:
    if not 0 <= p < 1 or a <= 0 or scale <= 0:
        return XlErr(NUM)
    return _invert(lambda x: gamma_p(a, x / scale), p, 0.0, a * scale + 1)


@_fn("GAMMA")
def _gamma(x: float) -> Any:
    if x <= 0 and x == int(x):
        return XlErr(NUM)
    return math.gamma(x)


@_fn("GAMMALN", "GAMMALN.PRECISE")
def _gammaln(x: float) -> Any:
    return XlErr(NUM) if x <= 0 else math.lgamma(x)


@_fn("CHISQ.DIST")
def _chisq_dist(x: float, df: float, cumulative: float) -> Any:
    k = int(df)
    if x < 0 or not 1 <= k <= 10 ** 10:
        return XlErr(NUM)
    return gamma_p(k / 2, x / 2) if cumulative else _gamma_pdf(x, k / 2, 2.0)


@_fn("CHISQ.DIST.RT", "CHIDIST")
def _chisq_rt(x: float, df: float) -> Any:
    k = int(df)
    if x < 0 or not 1 <= k <= 10 ** 10:
        return XlErr(NUM)
    return 1 - gamma_p(k / 2, x / 2)


@_fn("CHISQ.INV")
def _chisq_inv(p: float, df: float) -> Any:
    k = int(df)
    if not 0 <= p < 1 or not 1 <= k <= 10 ** 10:
        return XlErr(NUM)
    return _invert(lambda x: gamma_p(k / 2, x / 2), p, 0.0, k + 1.0)


@_fn("CHISQ.INV.RT", "CHIINV")
def _chisq_inv_rt(p: float, df: float) -> Any:
    k = int(df)
    if not 0 < p <= 1 or not 1 <= k <= 10 ** 10:
        return XlErr(NUM)
    return _invert(lambda x: gamma_p(k / 2, x / 2), 1 - p, 0.0, k + 1.0)


def _beta_bounds(x: float, low: float, high: float) -> float | None:
    return None if high <= low or not low <= x <= high else (x - low) / (high - low)


@_fn("BETA.DIST")
def _beta_dist(x: float, a: float, b: float, cumulative: float, low: float = 0.0,
               high: float = 1.0) -> Any:
    z = _beta_bounds(x, low, high)
    if z is None or a <= 0 or b <= 0:
        return XlErr(NUM)
    if cumulative:
        return beta_i(a, b, z)
    if z in (0.0, 1.0):
        return XlErr(NUM)
    log_pdf = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + (a - 1) * math.log(z)
               + (b - 1) * math.log(1 - z))
    return math.exp(log_pdf) / (high - low)


@_fn("BETADIST")
def _betadist(x: float, a: float, b: float, low: float = 0.0, high: float = 1.0) -> Any:
    return _beta_dist(x, a, b, 1.0, low, high)


@_fn("BETA.INV", "BETAINV")
def _beta_inv(p: float, a: float, b: float, low: float = 0.0, high: float = 1.0) -> Any:
    if not 0 < p < 1 or a <= 0 or b <= 0 or high <= low:
        return XlErr(NUM)
    return low + (high - low) * _invert(lambda z: beta_i(a, b, z), p, 0.0, 1.0)


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * beta_i(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


@_fn("T.DIST")
def _t_dist(t: float, df: float, cumulative: float) -> Any:
    n = int(df)
    if n < 1:
        return XlErr(DIV0 if n == 0 else NUM)
    if cumulative:
        return _t_cdf(t, n)
    return math.exp(math.lgamma((n + 1) / 2) - math.lgamma(n / 2)) / math.sqrt(n * math.pi) \
        * (1 + t * t / n) ** (-(n + 1) / 2)


@_fn("T.DIST.RT")
def _t_rt(t: float, df: float) -> Any:
    n = int(df)
    return XlErr(NUM) if n < 1 else 1 - _t_cdf(t, n)


@_fn("T.DIST.2T")
def _t_2t(t: float, df: float) -> Any:
    n = int(df)
    return XlErr(NUM) if n < 1 or t < 0 else 2 * (1 - _t_cdf(t, n))


@_fn("TDIST")
def _tdist(t: float, df: float, tails: float) -> Any:
    n, sides = int(df), int(tails)
    if n < 1 or t < 0 or sides not in (1, 2):
        return XlErr(NUM)
    return sides * (1 - _t_cdf(t, n))


@_fn("T.INV")
def _t_inv(p: float, df: float) -> Any:
    n = int(df)
    if not 0 < p < 1 or n < 1:
        return XlErr(NUM)
    if p < 0.5:
        return -_invert(lambda t: _t_cdf(t, n), 1 - p, 0.0, 10.0)
    return _invert(lambda t: _t_cdf(t, n), p, 0.0, 10.0)


@_fn("T.INV.2T", "TINV")
def _t_inv_2t(p: float, df: float) -> Any:
    n = int(df)
    if not 0 < p <= 1 or n < 1:
        return XlErr(NUM)
    return _invert(lambda t: _t_cdf(t, n), 1 - p / 2, 0.0, 10.0)


def _f_cdf(x: float, d1: float, d2: float) -> float:
    return beta_i(d1 / 2, d2 / 2, d1 * x / (d1 * x + d2)) if x > 0 else 0.0


@_fn("F.DIST")
def _f_dist(x: float, df1: float, df2: float, cumulative: float) -> Any:
    d1, d2 = int(df1), int(df2)
    if x < 0 or d1 < 1 or d2 < 1:
        return XlErr(NUM)
    if cumulative:
        return _f_cdf(x, d1, d2)
    if x == 0:
        return 0.0 if d1 > 2 else XlErr(NUM)
    log_pdf = (0.5 * (d1 * math.log(d1 * x) + d2 * math.log(d2) - (d1 + d2) * math.log(d1 * x + d2))
               - math.log(x) - (math.lgamma(d1 / 2) + math.lgamma(d2 / 2) - math.lgamma((d1 + d2) / 2)))
    return math.exp(log_pdf)


@_fn("F.DIST.RT", "FDIST")
def _f_rt(x: float, df1: float, df2: float) -> Any:
    d1, d2 = int(df1), int(df2)
    return XlErr(NUM) if x < 0 or d1 < 1 or d2 < 1 else 1 - _f_cdf(x, d1, d2)


@_fn("F.INV")
def _f_inv(p: float, df1: float, df2: float) -> Any:
    d1, d2 = int(df1), int(df2)
    if not 0 <= p < 1 or d1 < 1 or d2 < 1:
        return XlErr(NUM)
    return _invert(lambda x: _f_cdf(x, d1, d2), p, 0.0, 10.0)


@_fn("F.INV.RT", "FINV")
def _f_inv_rt(p: float, df1: float, df2: float) -> Any:
    d1, d2 = int(df1), int(df2)
    if not 0 < p <= 1 or d1 < 1 or d2 < 1:
        return XlErr(NUM)
    return _invert(lambda x: _f_cdf(x, d1, d2), 1 - p, 0.0, 10.0)


@_fn("LOGNORM.DIST")
def _lognorm(x: float, mean: float, sd: float, cumulative: float) -> Any:
    if x <= 0 or sd <= 0:
        return XlErr(NUM)
    z = (math.log(x) - mean) / sd
    if cumulative:
        return 0.5 * math.erfc(-z / math.sqrt(2))
    return math.exp(-z * z / 2) / (x * sd * math.sqrt(2 * math.pi))


@_fn("LOGNORMDIST")
def _lognormdist(x: float, mean: float, sd: float) -> Any:
    return _lognorm(x, mean, sd, 1.0)


@_fn("LOGNORM.INV", "LOGINV")
def _lognorm_inv(p: float, mean: float, sd: float) -> Any:
    if not 0 < p < 1 or sd <= 0:
        return XlErr(NUM)
    from statistics import NormalDist
    return math.exp(mean + sd * NormalDist().inv_cdf(p))


@_fn("WEIBULL.DIST", "WEIBULL")
def _weibull(x: float, shape: float, scale: float, cumulative: float) -> Any:
    if x < 0 or shape <= 0 or scale <= 0:
        return XlErr(NUM)
    if cumulative:
        return 1 - math.exp(-((x / scale) ** shape))
    return shape / scale ** shape * x ** (shape - 1) * math.exp(-((x / scale) ** shape))


@_fn("CONFIDENCE.NORM", "CONFIDENCE")
def _confidence(alpha: float, sd: float, size: float) -> Any:
    n = int(size)
    if not 0 < alpha < 1 or sd <= 0 or n < 1:
        return XlErr(NUM)
    from statistics import NormalDist
    return NormalDist().inv_cdf(1 - alpha / 2) * sd / math.sqrt(n)


@_fn("CONFIDENCE.T")
def _confidence_t(alpha: float, sd: float, size: float) -> Any:
    n = int(size)
    if not 0 < alpha < 1 or sd <= 0 or n < 1:
        return XlErr(NUM)
    if n == 1:
        return XlErr(DIV0)
    return _t_inv_2t(alpha, float(n - 1)) * sd / math.sqrt(n)


@_fn("FISHER")
def _fisher(x: float) -> Any:
    return XlErr(NUM) if not -1 < x < 1 else 0.5 * math.log((1 + x) / (1 - x))


@_fn("FISHERINV")
def _fisherinv(y: float) -> float:
    return math.tanh(y)


@_fn("PHI")
def _phi(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


@_fn("GAUSS")
def _gauss(z: float) -> float:
    return 0.5 * math.erf(z / math.sqrt(2))
