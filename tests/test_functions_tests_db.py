"""Statistical tests, LOGEST/GROWTH, AGGREGATE, the database functions, array shaping and the
functions whose value cannot be known headlessly, against Microsoft's documented examples.

Each group names the support page (support.microsoft.com/office/<name>-function-…) whose
example table it types in; values are compared to the digits the page shows. Then
properties that hold for any input (hypothesis).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chessrating.recalc.values import XlErr
from test_functions import check, column, evaluate, value

NUM, VALUE, NA, DIV0 = XlErr("#NUM!"), XlErr("#VALUE!"), XlErr("#N/A"), XlErr("#DIV/0!")


# -- statistical tests ------------------------------------------------------------------------
# T.TEST function: Data 1 in A2:A10, Data 2 in B2:B10
T_DATA = {**column([3, 4, 5, 8, 9, 1, 2, 4, 5]), **column([6, 19, 3, 2, 14, 4, 5, 17, 1], "B")}
# CHISQ.TEST function: actual A2:B4 (men, women), expected A6:B8
CHI_DATA = {"A2": 58, "B2": 35, "A3": 11, "B3": 25, "A4": 10, "B4": 23,
            "A6": 45.35, "B6": 47.65, "A7": 17.56, "B7": 18.44, "A8": 16.09, "B8": 16.91}
# F.TEST function: Data1 A2:A6, Data2 B2:B6
F_DATA = {**column([6, 7, 9, 15, 21]), **column([20, 28, 31, 38, 40], "B")}
# Z.TEST function: data A2:A11
Z_DATA = column([3, 6, 7, 8, 6, 5, 4, 2, 1, 9])
# PROB function: x in A3:A6, probability in B3:B6
PROB_DATA = {**column([0, 1, 2, 3], "A", 3), **column([0.2, 0.3, 0.1, 0.4], "B", 3)}

TEST_CASES = [
    ("=T.TEST(A2:A10,B2:B10,2,1)", T_DATA, 0.196016, 6),
    ("=TTEST(A2:A10,B2:B10,2,1)", T_DATA, 0.196016, 6),
    ("=CHISQ.TEST(A2:B4,A6:B8)", CHI_DATA, 0.0003082, 7),
    ("=CHITEST(A2:B4,A6:B8)", CHI_DATA, 0.0003082, 7),
    ("=F.TEST(A2:A6,B2:B6)", F_DATA, 0.64831785, 8),
    ("=FTEST(A2:A6,B2:B6)", F_DATA, 0.64831785, 8),
    ("=Z.TEST(A2:A11,4)", Z_DATA, 0.090574, 6),
    ("=2*MIN(Z.TEST(A2:A11,4),1-Z.TEST(A2:A11,4))", Z_DATA, 0.181148, 6),
    ("=Z.TEST(A2:A11,6)", Z_DATA, 0.863043, 6),
    ("=2*MIN(Z.TEST(A2:A11,6),1-Z.TEST(A2:A11,6))", Z_DATA, 0.273913, 6),
    ("=ZTEST(A2:A11,4)", Z_DATA, 0.090574, 6),
    ("=PROB(A3:A6,B3:B6,2)", PROB_DATA, 0.1, 10),
    ("=PROB(A3:A6,B3:B6,1,3)", PROB_DATA, 0.8, 10),
    # BINOM.DIST.RANGE function
    ("=BINOM.DIST.RANGE(60,0.75,48)", {}, 0.084, 3),
    ("=BINOM.DIST.RANGE(60,0.75,45,50)", {}, 0.524, 3),
]


@pytest.mark.parametrize("formula, values, shown, digits", TEST_CASES)
def test_documented_statistical_tests(formula: str, values: dict[str, Any], shown: float,
                                      digits: int) -> None:
    check(value(formula, values), shown, digits)


@pytest.mark.parametrize("formula, expected", [
    ("=T.TEST(A2:A10,B2:B10,3,1)", NUM), ("=T.TEST(A2:A10,B2:B10,2,4)", NUM),
    ("=T.TEST(A2:A10,B2:B9,2,1)", NA), ('=T.TEST(A2:A10,B2:B10,"x",1)', VALUE),
    ("=F.TEST(A2,B2:B6)", DIV0), ("=Z.TEST(C2:C5,1)", NA),
    ("=CHISQ.TEST(A2:A4,A6:B8)", NA), ("=PROB(A2:A10,B2:B10,1)", NUM),
    ("=BINOM.DIST.RANGE(60,0.75,50,45)", NUM), ("=BINOM.DIST.RANGE(60,1.5,45)", NUM),
])
def test_statistical_tests_refuse_as_documented(formula: str, expected: XlErr) -> None:
    check(value(formula, T_DATA), expected)


samples = st.lists(st.floats(-1e3, 1e3, allow_nan=False).map(lambda x: round(x, 2)),
                   min_size=3, max_size=12)


@given(samples, samples, st.sampled_from([2, 3]))
@settings(max_examples=40, deadline=None)
def test_t_test_two_tails_double_one_and_ignore_order(a: list[float], b: list[float],
                                                     kind: int) -> None:
    assume(len(set(a)) > 1 and len(set(b)) > 1)
    values = {**column(a), **column(b, "B")}
    end_a, end_b = len(a) + 1, len(b) + 1
    book = evaluate({"D1": f"=T.TEST(A2:A{end_a},B2:B{end_b},1,{kind})",
                     "D2": f"=T.TEST(A2:A{end_a},B2:B{end_b},2,{kind})",
                     "D3": f"=T.TEST(B2:B{end_b},A2:A{end_a},2,{kind})"}, values)
    one, two, swapped = (book.value("S", r, 4) for r in (1, 2, 3))
    assert 0 <= one <= 0.5 + 1e-12
    assert math.isclose(two, 2 * one, rel_tol=1e-12)
    assert math.isclose(two, swapped, rel_tol=1e-9, abs_tol=1e-15)


@given(st.integers(0, 80), st.floats(0, 1), st.data())
@settings(max_examples=40, deadline=None)
def test_binomial_range_adds_the_point_probabilities(n: int, p: float, data: Any) -> None:
    low = data.draw(st.integers(0, n))
    high = data.draw(st.integers(low, n))
    found = value(f"=BINOM.DIST.RANGE({n},{p!r},{low},{high})")
    points = value(f"=SUMPRODUCT(BINOM.DIST(ROW(A{low + 1}:A{high + 1})-1,{n},{p!r},FALSE))")
    assert math.isclose(found, points, rel_tol=1e-9, abs_tol=1e-300)
    assert math.isclose(value(f"=BINOM.DIST.RANGE({n},{p!r},0,{n})"), 1.0, rel_tol=1e-9)
