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
from hypothesis import assume, given
from hypothesis import strategies as st

from xlrecalc.values import XlErr
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


positive = st.lists(st.floats(0.5, 1e3).map(lambda x: round(x, 2)), min_size=3, max_size=12)


@given(positive, samples)
def test_f_z_and_chi_square_tests_at_their_fixed_points(a: list[float], b: list[float]) -> None:
    assume(len(set(a)) > 1 and len(set(b)) > 1)
    values = {**column(a), **column(b, "B")}
    end_a, end_b = len(a) + 1, len(b) + 1
    book = evaluate({"D1": f"=F.TEST(A2:A{end_a},B2:B{end_b})",
                     "D2": f"=F.TEST(B2:B{end_b},A2:A{end_a})",
                     "D3": f"=Z.TEST(A2:A{end_a},AVERAGE(A2:A{end_a}))",
                     "D4": f"=CHISQ.TEST(A2:A{end_a},A2:A{end_a})",
                     "D5": f"=F.TEST(A2:A{end_a},A2:A{end_a})"}, values)
    forward, backward = book.value("S", 1, 4), book.value("S", 2, 4)
    assert 0 <= forward <= 1 and math.isclose(forward, backward, rel_tol=1e-9, abs_tol=1e-15)
    assert math.isclose(book.value("S", 3, 4), 0.5, abs_tol=1e-12)
    assert math.isclose(book.value("S", 4, 4), 1.0, abs_tol=1e-12)
    assert math.isclose(book.value("S", 5, 4), 1.0, abs_tol=1e-9)


@given(st.integers(0, 80), st.floats(0, 1), st.data())
def test_binomial_range_adds_the_point_probabilities(n: int, p: float, data: Any) -> None:
    low = data.draw(st.integers(0, n))
    high = data.draw(st.integers(low, n))
    found = value(f"=BINOM.DIST.RANGE({n},{p!r},{low},{high})")
    points = value(f"=SUMPRODUCT(BINOM.DIST(ROW(A{low + 1}:A{high + 1})-1,{n},{p!r},FALSE))")
    assert math.isclose(found, points, rel_tol=1e-9, abs_tol=1e-300)
    assert math.isclose(value(f"=BINOM.DIST.RANGE({n},{p!r},0,{n})"), 1.0, rel_tol=1e-9)


# -- LOGEST, GROWTH ---------------------------------------------------------------------------
# LOGEST function and GROWTH function: months 11-16 in A2:A7, units sold in B2:B7
UNITS = {**column([11, 12, 13, 14, 15, 16]),
         **column([33100, 47300, 69000, 102000, 150000, 220000], "B"), "A9": 17, "A10": 18}


def test_logest_with_statistics() -> None:
    book = evaluate({}, UNITS, {"D1:E5": "=LOGEST(B2:B7,A2:A7,TRUE,TRUE)"})
    shown = [[1.463275628, 495.3047702], [0.002633403, 0.035834282], [0.99980862, 0.011016315],
             [20896.8011, 4.0], [2.53601883, 0.000485437]]
    for i, row in enumerate(shown):
        for j, expected in enumerate(row):
            places = len(repr(expected).split(".")[1])
            check(book.value("S", 1 + i, 4 + j), expected, places)


def test_growth_fits_and_predicts() -> None:
    book = evaluate({}, UNITS, {"C2:C7": "=GROWTH(B2:B7,A2:A7)",
                                "B9:B10": "=GROWTH(B2:B7,A2:A7,A9:A10)"})
    fitted = [32618.20377, 47729.42261, 69841.30086, 102197.0734, 149542.4867, 218821.8762]
    for i, expected in enumerate(fitted):
        check(book.value("S", 2 + i, 3), expected, 10 - len(str(int(expected))))
    check(book.value("S", 9, 2), 320196.7184, 4)
    check(book.value("S", 10, 2), 468536.0542, 4)


def test_logest_without_constant_and_its_errors() -> None:
    book = evaluate({"D1": "=INDEX(LOGEST(B2:B7,A2:A7,FALSE),1,2)",
                     "D2": "=LOGEST(B2:B7*0,A2:A7)", "D3": '=GROWTH({1,"a"})'}, UNITS)
    check(book.value("S", 1, 4), 1.0)
    check(book.value("S", 2, 4), NUM)
    check(book.value("S", 3, 4), VALUE)


@given(st.floats(0.1, 100), st.floats(0.5, 2), st.integers(3, 10))
def test_logest_recovers_an_exact_exponential(b: float, m: float, n: int) -> None:
    assume(abs(m - 1) > 1e-3)
    values = column([b * m ** x for x in range(1, n + 1)])
    book = evaluate({}, values, {"C1:D1": f"=LOGEST(A2:A{n + 1})"})
    assert math.isclose(book.value("S", 1, 3), m, rel_tol=1e-9)
    assert math.isclose(book.value("S", 1, 4), b, rel_tol=1e-9)


# -- AGGREGATE --------------------------------------------------------------------------------
# AGGREGATE function: A1:A11 with two errors, B1:B11
AGG_DATA = {**column([DIV0, 72, 30, NUM, 31, 96, 32, 81, 33, 53, 34], "A", 1),
            **column([82, 65, 95, 63, 53, 71, 55, 83, 100, 91, 89], "B", 1)}


@pytest.mark.parametrize("formula, expected", [
    ("=AGGREGATE(4, 6, A1:A11)", 96.0), ("=AGGREGATE(14, 6, A1:A11, 3)", 72.0),
    ("=AGGREGATE(15, 6, A1:A11)", VALUE), ("=AGGREGATE(12, 6, A1:A11, B1:B11)", 68.0),
    ("=MAX(A1:A2)", DIV0),
])
def test_documented_aggregate(formula: str, expected: Any) -> None:
    check(value(formula, AGG_DATA), expected)


# Not in Microsoft's example, derived from its option table: the error is kept by
# options 0, 1, 4 and 5; a nested SUBTOTAL or AGGREGATE is skipped by options 0-3.
def test_aggregate_options() -> None:
    book = evaluate({"A4": "=SUBTOTAL(9,A1:A3)", "A5": "=AGGREGATE(9,0,A1:A3)",
                     "C1": "=AGGREGATE(9,0,A1:A5)", "C2": "=AGGREGATE(9,4,A1:A5)",
                     "C3": "=AGGREGATE(9,3,A1:A6)", "C4": "=AGGREGATE(9,5,A1:A6)",
                     "C5": "=AGGREGATE(2,7,A1:A6)", "C6": "=AGGREGATE(3,6,A1:A6)",
                     "C7": "=AGGREGATE(9,6,A1:A3*2)", "C8": "=AGGREGATE(14,6,A1:A3*2,1)",
                     "C9": "=AGGREGATE(20,6,A1:A3)", "C10": "=AGGREGATE(9,8,A1:A3)",
                     "C11": "=AGGREGATE(16,4,A1:A3,0.5)", "C12": "=AGGREGATE(19,6,A1:A6,2)"},
                    {"A1": 1, "A2": 2, "A3": 4, "A6": DIV0})
    expected = [7.0, 21.0, 7.0, DIV0, 5.0, 5.0, VALUE, 8.0, VALUE, VALUE, 2.0, 4.0]
    for row, want in enumerate(expected, start=1):
        check(book.value("S", row, 3), want)


@given(st.lists(st.one_of(st.integers(-100, 100), st.just("x"), st.just(None)),
                min_size=1, max_size=12), st.integers(1, 13))
def test_aggregate_equals_its_function_without_errors(cells: list[Any], number: int) -> None:
    names = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT",
             7: "STDEV.S", 8: "STDEV.P", 9: "SUM", 10: "VAR.S", 11: "VAR.P", 12: "MEDIAN",
             13: "MODE.SNGL"}
    values = {k: v for k, v in column(cells).items() if v is not None}
    end = len(cells) + 1
    book = evaluate({"C1": f"=AGGREGATE({number},4,A2:A{end})",
                     "C2": f"={names[number]}(A2:A{end})"}, values)
    found, direct = book.value("S", 1, 3), book.value("S", 2, 3)
    if isinstance(direct, XlErr):
        check(found, direct)
    else:
        assert math.isclose(found, direct, rel_tol=1e-12, abs_tol=1e-12)


# -- array shaping and array text -------------------------------------------------------------
def grid_of(book: Any, top: int, left: int, height: int, width: int) -> list[list[Any]]:
    return [[book.value("S", top + r, left + c) for c in range(width)] for r in range(height)]


def codes(rows: list[list[Any]]) -> list[list[Any]]:
    """Errors as their codes, so grids compare with ==."""
    return [[v.code if isinstance(v, XlErr) else v for v in row] for row in rows]


LETTERS = {f"{c}2": c for c in "ABCDEFG"}


def test_wraprows_and_wrapcols() -> None:
    # WRAPROWS function and WRAPCOLS function: A2:G2 holds A … G
    book = evaluate({}, LETTERS, {"A4:C6": "=WRAPROWS(A2:G2,3)", "E4:G6": '=WRAPROWS(A2:G2,3,"x")',
                                  "A8:C10": "=WRAPCOLS(A2:G2,3)", "E8:G10": '=WRAPCOLS(A2:G2,3,"x")'})
    assert codes(grid_of(book, 4, 1, 3, 3)) == [["A", "B", "C"], ["D", "E", "F"], ["G", "#N/A", "#N/A"]]
    assert grid_of(book, 4, 5, 3, 3) == [["A", "B", "C"], ["D", "E", "F"], ["G", "x", "x"]]
    assert codes(grid_of(book, 8, 1, 3, 3)) == [["A", "D", "G"], ["B", "E", "#N/A"], ["C", "F", "#N/A"]]
    assert grid_of(book, 8, 5, 3, 3) == [["A", "D", "G"], ["B", "E", "x"], ["C", "F", "x"]]
    check(value("=WRAPROWS(A2:G2,0)", LETTERS), NUM)
    check(value("=WRAPROWS({1,2;3,4},2)"), VALUE)


def test_expand() -> None:
    # EXPAND function: 1, 2 / 3, 4 in A2:B3
    cells = {"A2": 1, "B2": 2, "A3": 3, "B3": 4}
    book = evaluate({}, cells, {"D2:F4": "=EXPAND(A2:B3,3,3)", "D6:F8": '=EXPAND(A2:B3,3,3,"-")',
                                "H2:H4": "=EXPAND({1;2},3)"})
    assert codes(grid_of(book, 2, 4, 3, 3)) == [[1, 2, "#N/A"], [3, 4, "#N/A"],
                                                ["#N/A", "#N/A", "#N/A"]]
    assert grid_of(book, 6, 4, 3, 3) == [[1, 2, "-"], [3, 4, "-"], ["-", "-", "-"]]
    assert codes(grid_of(book, 2, 8, 3, 1)) == [[1], [2], ["#N/A"]]
    check(value("=EXPAND(A2:B3,1,3)", cells), VALUE)


def test_textsplit() -> None:
    # TEXTSPLIT function: "Dakota Lennon Sanchez" by spaces; "1,2,3;4,5,6" by "," and ";"
    book = evaluate({}, {"A2": "Dakota Lennon Sanchez", "A3": "1,2,3;4,5,6", "A4": "a,b;c",
                         "A5": "x--y-z", "A6": "1AND2and3"},
                    {"C2:E2": '=TEXTSPLIT(A2," ")', "C3:E4": '=TEXTSPLIT(A3,",",";")',
                     "C6:D7": '=TEXTSPLIT(A4,",",";")', "F6:G7": '=TEXTSPLIT(A4,",",";",,,"")',
                     "C9:E9": '=TEXTSPLIT(A5,{"-","--"})', "C10:E10": '=TEXTSPLIT(A5,"-",,TRUE)',
                     "C11:E11": '=TEXTSPLIT(A6,"and",,,1)', "C12:D12": '=TEXTSPLIT(A6,"and")'})
    assert grid_of(book, 2, 3, 1, 3) == [["Dakota", "Lennon", "Sanchez"]]
    assert grid_of(book, 3, 3, 2, 3) == [["1", "2", "3"], ["4", "5", "6"]]
    # Not in Microsoft's examples, derived from its rules: short rows padded with #N/A or
    # pad_with; the longer delimiter first; empty pieces dropped; match_mode 1 ignores case.
    assert codes(grid_of(book, 6, 3, 2, 2)) == [["a", "b"], ["c", "#N/A"]]
    assert grid_of(book, 6, 6, 2, 2) == [["a", "b"], ["c", ""]]
    assert grid_of(book, 9, 3, 1, 3) == [["x", "y", "z"]]
    assert grid_of(book, 10, 3, 1, 3) == [["x", "y", "z"]]
    assert grid_of(book, 11, 3, 1, 3) == [["1", "2", "3"]]
    assert grid_of(book, 12, 3, 1, 2) == [["1AND2", "3"]]


def test_arraytotext_and_valuetotext() -> None:
    # ARRAYTOTEXT function and VALUETOTEXT function: A1:B3 holds TRUE, #VALUE!, 1234.01234,
    # Seattle, Hello and $1,123.00 (the number 1123); TRUE typed through a formula, as the
    # test book reads a Python bool as a number
    cells = {"B1": VALUE, "A2": 1234.01234, "B2": "Seattle", "A3": "Hello", "B3": 1123}
    formulas = {"A1": "=TRUE", "D1": "=ARRAYTOTEXT(A1:B3,0)", "D2": "=ARRAYTOTEXT(A1:B3,1)",
                "D3": "=ARRAYTOTEXT(A1:B3,2)", "D4": '=VALUETOTEXT("say ""hi""",1)'}
    shown = (("A1", "TRUE", "TRUE"), ("B1", "#VALUE!", "#VALUE!"), ("A2", "1234.01234", "1234.01234"),
             ("B2", "Seattle", '"Seattle"'), ("B3", "1123", "1123"))
    for row, (address, _, _) in enumerate(shown, start=1):
        formulas[f"E{row}"] = f"=VALUETOTEXT({address},0)"
        formulas[f"F{row}"] = f"=VALUETOTEXT({address},1)"
    book = evaluate(formulas, cells)
    check(book.value("S", 1, 4), "TRUE, #VALUE!, 1234.01234, Seattle, Hello, 1123")
    check(book.value("S", 2, 4), '{TRUE,#VALUE!;1234.01234,"Seattle";"Hello",1123}')
    check(book.value("S", 3, 4), VALUE)
    check(book.value("S", 4, 4), '"say ""hi"""')
    for row, (_, concise, strict) in enumerate(shown, start=1):
        check(book.value("S", row, 5), concise)
        check(book.value("S", row, 6), strict)


def test_randarray_shape_and_bounds() -> None:
    book = evaluate({"H1": "=RANDARRAY()", "H2": "=ROWS(RANDARRAY(4,3))*10+COLUMNS(RANDARRAY(4,3))",
                     "H3": "=RANDARRAY(2,2,5,1)", "H4": "=RANDARRAY(0,2)", "H5": "=RANDARRAY(1,1,2.2,2.8,TRUE)"},
                    arrays={"A1:C4": "=RANDARRAY(4,3,-5,5,TRUE)", "E1:F2": "=RANDARRAY(2,2,10,11)"})
    whole = [v for row in grid_of(book, 1, 1, 4, 3) for v in row]
    assert all(v == int(v) and -5 <= v <= 5 for v in whole)
    assert all(10 <= v < 11 for row in grid_of(book, 1, 5, 2, 2) for v in row)
    assert 0 <= book.value("S", 1, 8) < 1
    check(book.value("S", 2, 8), 43.0)
    check(book.value("S", 3, 8), VALUE)
    check(book.value("S", 4, 8), XlErr("#CALC!"))
    check(book.value("S", 5, 8), VALUE)


def test_formulatext() -> None:
    # FORMULATEXT function: the formula of the cell referred to, as typed
    book = evaluate({"A1": "=SUM(B1:B3)*2", "A2": "=_xlfn.STDEV.S(B1:B3)", "C1": "=FORMULATEXT(A1)",
                     "C2": "=FORMULATEXT(A2)", "C3": "=FORMULATEXT(B1)", "C4": '=FORMULATEXT("A1")'},
                    {"B1": 1, "B2": 2, "B3": 3})
    check(book.value("S", 1, 3), "=SUM(B1:B3)*2")
    check(book.value("S", 2, 3), "=STDEV.S(B1:B3)")
    check(book.value("S", 3, 3), NA)
    check(book.value("S", 4, 3), VALUE)


@given(st.lists(st.integers(-9, 9), min_size=1, max_size=20), st.integers(1, 7))
def test_wrapping_keeps_the_values_in_order(values: list[int], count: int) -> None:
    array = "{" + ",".join(str(v) for v in values) + "}"
    rows = value(f'=ARRAYTOTEXT(WRAPROWS({array},{count},""))')
    columns = value(f'=ARRAYTOTEXT(TRANSPOSE(WRAPCOLS({array},{count},"")))')
    expected = ", ".join([str(v) for v in values] + [""] * (-len(values) % count))
    assert rows == columns == expected


@given(st.lists(st.integers(-100, 100), min_size=3, max_size=12), st.integers(14, 19),
       st.integers(1, 3))
def test_aggregate_array_form_equals_its_function(cells: list[int], number: int, k: int) -> None:
    names = {14: "LARGE", 15: "SMALL", 16: "PERCENTILE.INC", 17: "QUARTILE.INC",
             18: "PERCENTILE.EXC", 19: "QUARTILE.EXC"}
    second = k / 4 if number in (16, 18) else k
    end = len(cells) + 1
    book = evaluate({"C1": f"=AGGREGATE({number},4,A2:A{end},{second})",
                     "C2": f"={names[number]}(A2:A{end},{second})",
                     "C3": f"=AGGREGATE({number},6,A2:A{end + 1},{second})"},
                    {**column(cells), f"A{end + 1}": NA})
    found, direct, skipping = (book.value("S", r, 3) for r in (1, 2, 3))
    if isinstance(direct, XlErr):
        check(found, direct)
    else:
        assert found == direct == skipping
