"""The evaluator's shortcuts for the common cases give what Excel's general rules give.

The evaluator takes a number, a text or a logical straight through comparisons,
arithmetic, unary minus, AND/OR, text functions and rating-function arguments, reads a
one-cell reference at once, and computes a call written twice in a formula once per
cell. Each shortcut is checked here on the inputs that must still take the general way:
TRUE, text that reads as a number, blanks, errors, numbers equal at 15 digits, one-value
arrays. Expected values are Excel's documented rules: "Calculation operators and
precedence" (comparison: numbers < text < logicals, text without case, a blank as 0, ""
or FALSE), "Floating-point arithmetic may give inaccurate results" (15 significant
digits), and the function pages named beside each group (support.microsoft.com).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_functions import check

from xlrecalc.engine import Book, evaluate_book
from xlrecalc.functions.math_aggregate import wildcard
from xlrecalc.functions.base import is_number
from xlrecalc.parse import parse_ref
from xlrecalc.values import (XlErr, binary, compare, negate, scalar, to_bool, to_number,
                                       to_text)

NUM, VALUE, NA, DIV0 = XlErr("#NUM!"), XlErr("#VALUE!"), XlErr("#N/A"), XlErr("#DIV/0!")
OPS = ["=", "<>", "<", ">", "<=", ">="]


def evaluate(formulas: dict[str, str], cells: dict[str, Any] | None = None) -> Book:
    """A one-sheet book with ``cells`` (values as given: TRUE stays a logical) and
    ``formulas``, evaluated."""
    book = Book({})
    book.add_sheet("S")
    for address, given_value in (cells or {}).items():
        ref = parse_ref(address)
        book.set_value("S", ref.r1, ref.c1, given_value)
    for address, text in formulas.items():
        ref = parse_ref(address)
        book.add_formula("S", ref.r1, ref.c1, text)
    evaluate_book(book)
    return book


def value(formula: str, cells: dict[str, Any] | None = None) -> Any:
    """The value of ``formula`` written in Z99 beside ``cells``."""
    return evaluate({"Z99": formula}, cells).value("S", 99, 26)


def excel_compare(op: str, a: Any, b: Any) -> Any:
    """Excel's comparison written out from the documentation, without shortcuts: the
    reference the evaluator's fast paths are held to."""
    for side in (a, b):
        if isinstance(side, XlErr):
            return side
    if a is None:
        a = "" if isinstance(b, str) else False if isinstance(b, bool) else 0.0
    if b is None:
        b = "" if isinstance(a, str) else False if isinstance(a, bool) else 0.0
    rank = {float: 0, str: 1, bool: 2}
    x, y = (rank[type(a)], a), (rank[type(b)], b)
    if x[0] != y[0]:
        x, y = (x[0],), (y[0],)
    elif x[0] == 1:
        x, y = (1, a.lower()), (1, b.lower())
    elif x[0] == 0:
        x, y = (0, float(f"{a:.15g}")), (0, float(f"{b:.15g}"))
    return {"=": x == y, "<>": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]


# -- scalar rules: comparison, coercion, arithmetic, unary minus -------------------------
@pytest.mark.parametrize("op, a, b, expected", [
    ("=", "abc", "ABC", True), ("<", "a", "B", True), (">", "b", "A", True),    # text, no case
    ("=", 0.1 + 0.2, 0.3, True), ("<", 0.1 + 0.2, 0.3, False),               # 15 digits
    ("=", 1.0, 1.0 + 1e-15, True), ("<", 1.0, 1.0000001, True), ("=", 2.0, 3.0, False),
    ("<", False, True, True), ("=", True, True, True),                          # logicals
    ("<", 5.0, "a", True), ("<", "z", False, True), ("=", True, 1.0, False),    # kinds
    ("=", None, "", True), ("=", None, 0.0, True), ("=", None, False, True), ("<", None, 1.0, True),
    ("=", NA, 1.0, NA), ("=", "x", DIV0, DIV0), ("=", NA, NA, NA),              # errors
])
def test_comparison_of_two_values(op: str, a: Any, b: Any, expected: Any) -> None:
    check(compare(op)(a, b), expected)
    check(excel_compare(op, a, b), expected)


SCALARS = st.one_of(
    st.none(), st.booleans(), st.sampled_from(["", "a", "A", "abc", "ABC", "b", "1", "TRUE"]),
    st.sampled_from([0.0, -0.0, 1.0, 0.3, 0.1 + 0.2, 1e-300, -2.5, 1e15, 1e15 + 1]),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(float),
    st.sampled_from([NA, DIV0]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPS), SCALARS, SCALARS)
def test_comparison_follows_the_documented_rule(op: str, a: Any, b: Any) -> None:
    found, expected = compare(op)(a, b), excel_compare(op, a, b)
    assert found == expected and type(found) is type(expected)


@pytest.mark.parametrize("given_value, expected", [
    (2.5, 2.5), (True, 1.0), (False, 0.0), (None, 0.0), ("1", 1.0), ("50%", 0.5),
    ("x", VALUE), (NA, NA)])
def test_a_value_as_a_number(given_value: Any, expected: Any) -> None:
    check(to_number(given_value), expected)


@pytest.mark.parametrize("op, a, b, expected", [
    ("+", 1.5, 2.0, 3.5), ("+", True, 1.0, 2.0), ("+", "2", True, 3.0), ("+", None, 1.0, 1.0),
    ("*", 1e308, 10.0, NUM), ("/", 1.0, 0.0, DIV0), ("/", None, None, DIV0), ("^", -8.0, 1 / 3, NUM),
    ("-", NA, 1.0, NA), ("-", 1.0, "x", VALUE), ("-", "x", NA, VALUE)])
def test_arithmetic(op: str, a: Any, b: Any, expected: Any) -> None:
    check(binary(op)(a, b), expected)


@pytest.mark.parametrize("given_value, expected", [
    (2.0, -2.0), (-2.0, 2.0), (True, -1.0), (False, 0.0), (None, 0.0), ("3", -3.0),
    ("x", VALUE), (NA, NA)])
def test_unary_minus(given_value: Any, expected: Any) -> None:
    check(negate(given_value), expected)


@pytest.mark.parametrize("zero", [0.0, -0.0, False, None])
def test_minus_zero_is_zero(zero: Any) -> None:
    # unary minus is 0 - x: Excel shows no negative zero
    assert math.copysign(1.0, negate(zero)) == 1.0
    assert math.copysign(1.0, negate(negate(zero))) == 1.0


def test_other_readers_keep_texts_logicals_and_blanks() -> None:
    assert to_text("Ab") == "Ab" and to_text(True) == "TRUE" and to_text(None) == ""
    assert to_text(2.0) == "2" and to_text(NA) == NA
    assert to_bool(True) is True and to_bool(0.0) is False and to_bool("true") is True
    assert to_bool(None) is False and to_bool("x") == VALUE
    assert scalar("x", ("S", 1, 1)) == "x" and scalar(None, ("S", 1, 1)) is None
    assert is_number(1.5) and is_number(2) and not is_number(True) and not is_number("1")


# -- comparisons in formulas: with a constant, in an array context, with an array --------
CELL_VALUES = {"A1": 0.0, "A2": "", "A4": "W", "A5": True, "A6": "0", "A7": 0.1 + 0.2,
               "A8": XlErr("#N/A"), "A9": 5.0}  # A3 blank


@pytest.mark.parametrize("formula, expected", [
    ('=A1=""', False), ('=A2=""', True), ('=A3=""', True), ('=A3=0', True), ('=A4="w"', True),
    ('=A4<>"W"', False), ('=A5="TRUE"', False), ('=A5=1', False), ('=A6=0', False),
    ('=A7=0.3', True), ('=A7<0.3', False), ('=A9>"a"', False), ('=A4>5', True),
    ('=A8=""', NA), ('=A8=0', NA), ('=A9<>""', True), ('=A5>"z"', True),
])
def test_a_cell_compared_with_a_constant(formula: str, expected: Any) -> None:
    check(value(formula, CELL_VALUES), expected)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(OPS), SCALARS, st.sampled_from(["", "a", "B", 0.0, 0.3, 1.0, -2.5]))
def test_a_cell_compared_with_a_constant_as_the_rule_says(op: str, cell: Any, constant: Any) -> None:
    written = f'"{constant}"' if isinstance(constant, str) else repr(constant)
    found = value(f"=A1{op}{written}", {"A1": cell})
    expected = excel_compare(op, cell, constant)
    assert found == expected and type(found) is type(expected)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(OPS), st.lists(SCALARS, min_size=1, max_size=4), st.sampled_from(["", "a", "B"]))
def test_a_range_compared_with_a_text_in_an_array_context(op: str, cells: list[Any],
                                                          constant: str) -> None:
    # SUMPRODUCT evaluates its argument as an array: each cell compared, then counted by --
    values = {f"A{i + 1}": v for i, v in enumerate(cells)}
    found = value(f'=SUMPRODUCT(--(A1:A{len(cells)}{op}"{constant}"))', values)
    results = [excel_compare(op, v, constant) for v in cells]
    errors = [r for r in results if isinstance(r, XlErr)]
    expected = errors[0] if errors else float(sum(1 for r in results if r is True))
    check(found, expected)


@pytest.mark.parametrize("formula, expected", [
    ('=SUMPRODUCT(--(A1:A9<>""))', NA),                  # the #N/A in A8 comes through
    ('=SUMPRODUCT(--(A1:A7<>""))', 5.0), ('=SUMPRODUCT(--(A1:A7="w"))', 1.0),
    ('=SUMPRODUCT(--(A3:A3=""))', 1.0),                   # one cell: one value, not an array
    ('=SUMPRODUCT(-(A4:A6<>""))', -3.0),
])
def test_counting_cells_with_a_double_minus(formula: str, expected: Any) -> None:
    # SUMPRODUCT function: "--" turns TRUE/FALSE into 1/0
    check(value(formula, CELL_VALUES), expected)


@pytest.mark.parametrize("cell, expected", [
    ("w", 1.0), (" d ", 0.5), ("½", 0.5), ("Z", 0.0), (1.0, 1.0), (0.5, 0.5), (None, "other"),
    (True, "other"), (XlErr("#N/A"), NA), ("x", "other")])
def test_a_text_compared_with_an_array_of_texts(cell: Any, expected: Any) -> None:
    # TRIM function: a number is trimmed as its text ("1"), TRUE as "TRUE"
    formula = ('=IF(OR(UPPER(TRIM(A1))={"1","W","+"}),1,IF(OR(UPPER(TRIM(A1))={"½","D","0.5"}),'
               '0.5,IF(OR(UPPER(TRIM(A1))={"0","L","Z"}),0,"other")))')
    check(value(formula, {"A1": cell}), expected)


@pytest.mark.parametrize("formula, expected", [
    ('=A1={"w"}', True), ('=A1={"w","x"}', True), ('=OR(A1={"x","w"})', True),
    ('=A1={"x","w"}', False), ('=SUM(--(A1={"x","w","W"}))', 2.0), ('=A2={"",""}', True),
    ('=ISLOGICAL(A1={"w"})', True), ('=A3={"1","x"}', False), ('=A3={1,"x"}', True)])
def test_arrays_of_one_and_more_texts(formula: str, expected: Any) -> None:
    # an array in a cell that holds one value shows its first (A1={"x","w"}: FALSE)
    check(value(formula, {"A1": "W", "A2": None, "A3": 1.0, "B9": 0.0}), expected)


# -- AND and OR of logicals -------------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=OR(A1="",A1=0)', True), ('=AND(A1=0,A2="x")', False), ('=OR(FALSE,A3)', NA),
    ('=AND(TRUE,1)', True), ('=OR(FALSE,"x")', VALUE), ('=OR(A4:A5)', True),
    ('=AND(A4:A5)', True), ('=OR(A6)', VALUE), ('=AND(A1,TRUE)', False)])
def test_and_or(formula: str, expected: Any) -> None:
    # AND and OR functions: text and blanks in a reference are skipped, an error wins,
    # a text given directly is #VALUE!
    cells = {"A1": 0.0, "A2": "", "A3": XlErr("#N/A"), "A4": "text", "A5": True, "A6": "x"}
    check(value(formula, cells), expected)


# -- text functions, cell tests, functions of scalars ------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=LEFT("abc",2.9)', "ab"), ('=LEFT(12.5,2)', "12"), ('=LEFT(A1,1)', "T"),
    ('=LEFT(A2,3)', ""), ('=LEFT("abc",-1)', VALUE), ('=LEFT(A3,1)', NA),
    ('=MID("abcdef",2.5,2)', "bc"), ('=LEFT("abc","2")', "ab"), ('=UPPER(TRIM("  a b "))', "A B"),
    ('=ABS(-2)', 2.0), ('=ABS(B1:B3)', 2.0), ('=SUM(ABS({-1,-2}))', 3.0), ('=ABS(A3)', NA)])
def test_functions_of_scalars(formula: str, expected: Any) -> None:
    # LEFT, MID: a fractional count is truncated; ABS of a column is the value in the
    # formula's row (implicit intersection; the formula sits in row 2)
    cells = {"A1": True, "A3": XlErr("#N/A"), "B1": -1.0, "B2": -2.0, "B3": -3.0}
    book = evaluate({"Z2": formula}, cells)
    check(book.value("S", 2, 26), expected)


@pytest.mark.parametrize("formula, expected", [
    ("=ISNUMBER(A1)", True), ("=ISNUMBER(A2)", False), ("=ISNUMBER(A3)", False),
    ("=ISTEXT(A2)", True), ("=ISBLANK(A4)", True), ("=ISNUMBER(TRUE)", False),
    ("=ISERROR(1/0)", True), ("=ISNA(MATCH(9,A1:A3,0))", True), ("=ISLOGICAL(A3)", True),
    ("=ISNUMBER(A1:A3)", False)])  # a range at row 9: outside it, #VALUE!, not a number
def test_what_a_cell_holds(formula: str, expected: Any) -> None:
    check(value(formula, {"A1": 1.0, "A2": "1", "A3": True}), expected)


# -- references copied down: relative, mixed, expanding ------------------------------------
def test_references_moved_with_their_cell() -> None:
    book = Book({})
    book.add_sheet("S")
    for row in range(1, 5):
        book.set_value("S", row, 1, float(row))             # A1:A4 = 1..4
        book.set_value("S", row, 2, 10.0 * row)             # B1:B4 = 10..40
        book.add_formula("S", row, 3, f"=$A{row}+B$1")      # a fixed column, a fixed row
        book.add_formula("S", row, 4, f"=SUM($A$1:A{row})")  # a growing range
        book.add_formula("S", row, 5, f"=SUM(A{row}:B{row})")  # a range moved whole
        book.add_formula("S", row, 6, f"=SUM(B{row}:A{row + 1})")  # corners given crosswise
    evaluate_book(book)
    cells = book.cells["S"]
    assert [cells[(r, 3)] for r in range(1, 5)] == [11.0, 12.0, 13.0, 14.0]
    assert [cells[(r, 4)] for r in range(1, 5)] == [1.0, 3.0, 6.0, 10.0]
    assert [cells[(r, 5)] for r in range(1, 5)] == [11.0, 22.0, 33.0, 44.0]
    assert [cells[(r, 6)] for r in range(1, 5)] == [33.0, 55.0, 77.0, 44.0]


# -- a call written twice: once per cell, never across scopes, contexts or cells ---------
def test_a_repeated_call_gives_each_cell_its_own_value() -> None:
    # MATCH function: the position of the first text matching the wildcard pattern
    book = Book({})
    book.add_sheet("S")
    names = ["ann", "bob", "check row", "dan"]
    for row, name in enumerate(names, start=1):
        book.set_value("S", row, 1, name)
        book.set_value("S", row, 2, name[0] + "*")
        book.add_formula("S", row, 3, f'=IF(ISNA(MATCH(B{row},$A$1:$A$4,0)),0,'
                                      f'MATCH(B{row},$A$1:$A$4,0)*10+MATCH(B{row},$A$1:$A$4,0))')
    evaluate_book(book)
    assert [book.cells["S"][(r, 3)] for r in range(1, 5)] == [11.0, 22.0, 33.0, 44.0]


@pytest.mark.parametrize("formula, expected", [
    ("=LET(x,1,SUM(x))+LET(x,2,SUM(x))", 3.0),                 # same text, other names
    ("=ABS(B1:B3)+SUMPRODUCT(ABS(B1:B3))", 8.0),               # row 2, then the array: 2 + 6
    ('=IF(ISNA(MATCH("b*",A1:A3,0)),"",INDEX(A1:A3,MATCH("b*",A1:A3,0)))', "Bob"),
    ("=SUM(A4:A5)+SUM(A4:A5)*SUM(A4:A5)", 12.0),
])
def test_a_repeated_call_keeps_its_meaning(formula: str, expected: Any) -> None:
    cells = {"A1": "ann", "A2": "Bob", "A3": "cid", "A4": 1.0, "A5": 2.0,
             "B1": -1.0, "B2": -2.0, "B3": -3.0}
    book = evaluate({"Z2": formula}, cells)
    check(book.value("S", 2, 26), expected)


def test_a_random_number_written_twice_is_drawn_twice() -> None:
    # RAND function: a new number at each call (equal draws have probability 2**-53)
    assert value("=RAND()-RAND()") != 0.0


def test_a_rating_function_written_twice_is_called_twice() -> None:
    calls: list[float] = []

    def counted(x: float) -> float:
        calls.append(x)
        return x * 2
    book = Book({"TWICE": counted})
    book.add_sheet("S")
    book.set_value("S", 1, 1, 3.0)
    book.add_formula("S", 1, 2, "=TWICE(A1)+TWICE(A1)")
    evaluate_book(book)
    assert book.cells["S"][(1, 2)] == 12.0 and calls == [3.0, 3.0]


# -- rating-function arguments: what classic xlwings hands over --------------------------
@pytest.mark.parametrize("formula, expected", [
    ("=SHOW(A1)", "5.0"), ("=SHOW(A2)", "None"), ("=SHOW(B1)", "'x'"), ("=SHOW(B2)", "'#N/A'"),
    ("=SHOW(TRUE)", "True"), ("=SHOW(A1:B1)", "[5.0, 'x']"), ("=SHOW(A1:A2)", "[5.0, None]"),
    ("=SHOW(1+1)", "2.0"), ('=SHOW("")', "''")])
def test_rating_functions_receive_xlwings_shapes(formula: str, expected: str) -> None:
    book = Book({"SHOW": lambda x: repr(x)})
    book.add_sheet("S")
    book.set_value("S", 1, 1, 5.0)
    book.set_value("S", 1, 2, "x")
    book.set_value("S", 2, 2, XlErr("#N/A"))
    book.add_formula("S", 3, 3, formula)
    evaluate_book(book)
    assert book.cells["S"][(3, 3)] == expected


# -- lookups and SUMPRODUCT ------------------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=MATCH("ABC",{"x","abc"},0)', 2.0), ('=MATCH("1",{1,"1"},0)', 2.0),
    ('=MATCH(1,{"1",1},0)', 2.0), ('=MATCH(TRUE,{1,TRUE},0)', 2.0), ('=MATCH("a",{1,2},0)', NA),
    ('=MATCH("c*",{"ab","Cd"},0)', 2.0), ('=MATCH("?b",{"ab","Cd"},0)', 1.0),
    ('=COUNTIF(A1:A3,"a~*")', 1.0), ('=COUNTIF(A1:A3,"a*")', 2.0),
    ("=SUMPRODUCT({1,2},{3,4})", 11.0), ("=SUMPRODUCT(A4:A6)", 2.5),
    ("=SUMPRODUCT(A4:A7)", NA)])
def test_lookups_and_sums(formula: str, expected: Any) -> None:
    # MATCH: match_type 0 is exact, wildcards in a text; COUNTIF: ~ escapes a wildcard;
    # SUMPRODUCT: non-numeric entries count as zero, an error is the result
    cells = {"A1": "a*", "A2": "ab", "A3": "b", "A4": 2.5, "A5": True, "A6": "3",
             "A7": XlErr("#N/A")}
    check(value(formula, cells), expected)


def test_a_wildcard_pattern_read_again_matches_the_same() -> None:
    # the pattern of a criterion is kept: reading it again must give the same matches
    for _ in range(2):
        assert wildcard("a~*").fullmatch("a*") and not wildcard("a~*").fullmatch("ab")
        assert wildcard("CHECK *").fullmatch("check row 3") and not wildcard("check *").fullmatch("checks")
