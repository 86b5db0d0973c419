"""More of the evaluator's shortcuts against Excel's general rules.

Shortcuts checked here: ``--X`` over an array negated in one pass, SUMPRODUCT of one
array of numbers, AND and OR of arrays of logicals, cell tests (ISTEXT, ISNUMBER …) and
INDEX's row and column read straight from a one-cell reference, text functions of one
text or of a text and a number, TRIM without a regular expression, exact MATCH in both
directions, and the record of the formulas under evaluation that names a circular
reference's loop. Each is checked on the inputs that must still take the general way.
Expected values follow Excel's function pages (support.microsoft.com): SUMPRODUCT ("--"
turns TRUE/FALSE into 1/0; entries that are not numbers count as zero), AND/OR (text and
blanks in a reference or array are skipped, an error wins), INDEX (row 0 is the whole
column), LEFT (a fractional count is truncated), TRIM (inner runs of spaces become one).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_paths_eval import evaluate, value
from test_functions import check

from xlrecalc.engine import Book, evaluate_book
from xlrecalc.parse import parse_ref
from xlrecalc.values import XlErr

NUM, VALUE, NA, DIV0, REF = (XlErr("#NUM!"), XlErr("#VALUE!"), XlErr("#N/A"), XlErr("#DIV/0!"),
                             XlErr("#REF!"))


# -- a double minus over an array, SUMPRODUCT of one array -----------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=SUMPRODUCT(--(A1:A4<>""))', 3.0), ('=SUMPRODUCT(-(-(A1:A4<>"")))', 3.0),
    ("=SUMPRODUCT(--A1:A3)", VALUE),                     # --"x" is #VALUE!, which wins
    ("=SUMPRODUCT(--A2:A4)", 3.0),                       # "2" reads as 2, TRUE as 1, blank 0
    ("=SUMPRODUCT(--{TRUE,FALSE,TRUE})", 2.0), ('=SUMPRODUCT(--(A4:A4=""))', 1.0),
    ("=SUMPRODUCT(--A5:A6)", NA), ("=SUMPRODUCT(---{TRUE,TRUE})", -2.0),
])
def test_a_double_minus_over_an_array(formula: str, expected: Any) -> None:
    cells = {"A1": "x", "A2": "2", "A3": True, "A5": 1.0, "A6": XlErr("#N/A")}
    check(value(formula, cells), expected)


def test_a_double_minus_gives_plus_zero() -> None:
    # -(-FALSE) is 0 - (0 - 0), which is +0: a minus zero would be written "-0"
    found = value("=INDEX(--{FALSE,TRUE},1)")
    assert found == 0.0 and math.copysign(1.0, found) == 1.0


@pytest.mark.parametrize("formula, expected", [
    ("=SUMPRODUCT(A1:A3)", 0.0),                  # 1e16 + 1 rounds to 1e16: added in order
    ("=SUMPRODUCT(A1:B3)", 0.0), ("=SUMPRODUCT(A4:A6)", 2.5),  # text and TRUE count 0
    ("=SUMPRODUCT(A6:A7)", NA), ("=SUMPRODUCT(A8:A9)", 0.0),   # blanks count 0
    ("=SUMPRODUCT({1.5;2.5})", 4.0),
])
def test_sumproduct_of_one_array(formula: str, expected: Any) -> None:
    cells = {"A1": 1e16, "A2": 1.0, "A3": -1e16, "A4": 2.5, "A5": True, "A6": "3",
             "A7": XlErr("#N/A")}
    check(value(formula, cells), expected)


# -- AND and OR ------------------------------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ("=AND(TRUE,FALSE)", False), ("=OR(FALSE,FALSE)", False), ("=OR(FALSE,TRUE)", True),
    ("=AND(TRUE,TRUE,TRUE)", True), ("=OR(FALSE,FALSE,A3)", NA), ("=AND(TRUE,TRUE,TRUE,FALSE)", False),
    ("=OR({FALSE,FALSE})", False), ("=AND({TRUE,FALSE})", False), ("=AND(TRUE,{TRUE;TRUE})", True),
    ('=OR(A1={"x","w"})', True), ('=AND(A1={"w","W"},TRUE)', True),
    ("=OR(FALSE,{1,0})", True), ("=AND(TRUE,{1,0})", False),    # numbers in an array count
    ('=OR({"a",FALSE})', False), ('=AND({"a","b"})', VALUE),     # text in an array is skipped
    ("=OR(FALSE,A4:A5)", True), ("=AND(A3,TRUE)", NA), ('=OR(FALSE,"x")', VALUE),
])
def test_and_or_with_arrays(formula: str, expected: Any) -> None:
    cells = {"A1": "W", "A3": XlErr("#N/A"), "A4": "text", "A5": True}
    check(value(formula, cells), expected)


# -- cell tests of one cell: as of the same cell given as a reference ------------------------
CELLS = [None, 0.0, 1.5, "", "x", "1", True, False, XlErr("#N/A"), XlErr("#DIV/0!"),
         XlErr("#VALUE!", "a reason")]
TESTS = ["ISTEXT", "ISNUMBER", "ISBLANK", "ISERROR", "ISERR", "ISNA", "ISLOGICAL", "ISNONTEXT"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CELLS), st.sampled_from(TESTS), st.booleans())
def test_a_cell_test_of_one_cell_as_of_its_reference(cell: Any, test: str, fixed: bool) -> None:
    # INDEX(A1:A3,1) is the reference A1 computed: the cell test's general way
    address = "$A$1" if fixed else "A1"
    book = evaluate({"Z1": f"={test}({address})", "Z2": f"={test}(INDEX(A1:A3,1))"},
                    {"A1": cell, "A3": 0.0})
    assert book.value("S", 1, 26) == book.value("S", 2, 26)
    assert type(book.value("S", 1, 26)) is bool


def test_a_cell_test_of_a_formula_cell_evaluates_it_first() -> None:
    book = evaluate({"Z1": '=ISTEXT(Y5)', "Z2": "=ISNUMBER(Y6)", "Z3": "=ISERROR(Y7)",
                     "Y5": '="a"&"b"', "Y6": "=1+1", "Y7": "=1/0"})
    assert [book.value("S", r, 26) for r in (1, 2, 3)] == [True, True, True]


# -- INDEX with its row and column in cells -------------------------------------------------
@pytest.mark.parametrize("row, expected", [
    (2.0, "b"), (2.7, "b"), ("2", "b"), (True, "a"), (XlErr("#N/A"), NA), (5.0, REF),
    (None, "c"),               # row 0: the whole column, read in the formula's row (3)
    ("x", VALUE), (-1.0, REF),
])
def test_index_with_its_row_in_a_cell(row: Any, expected: Any) -> None:
    cells = {"A1": "a", "A2": "b", "A3": "c", "A4": "d", "C1": row}
    book = evaluate({"Z3": "=INDEX($A$1:$A$4,C1)"}, cells)
    check(book.value("S", 3, 26), expected)


@pytest.mark.parametrize("formula, expected", [
    ("=INDEX(A1:B2,C1,C2)", 3.0), ("=INDEX(A1:B2,C2,C1)", 2.0),
    ("=INDEX(A1:B2,C1,C3)", VALUE),   # column 0: the whole row A2:B2, outside column Z
    ("=INDEX(A1:B2,C1,C2,C2)", 3.0), ("=INDEX(A1:B2,C1,C2,C1)", REF),  # area 2 of one
    ('=INDEX(A1:B2,C1)&""', VALUE),  # one number into two rows and columns: a whole row
])
def test_index_with_row_and_column_in_cells(formula: str, expected: Any) -> None:
    cells = {"A1": 1.0, "B1": 2.0, "A2": 3.0, "B2": 4.0, "C1": 2.0, "C2": 1.0}
    book = evaluate({"Z5": formula}, cells)
    check(book.value("S", 5, 26), expected)


# -- text functions ------------------------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=LEFT("abcdef",2)', "ab"), ('=LEFT("abc",1E+300)', "abc"), ('=LEFT("abc",1/0)', DIV0),
    ('=LEFT("abc",TRUE)', "a"), ('=LEFT("abc")', "a"), ('=LEFT(A1,6)', "check "),
    ('=LEFT(A2,2)', "12"), ('=RIGHT("abc",2)', "bc"), ('=UPPER("straße")', "STRASSE"),
    ('=TRIM("  a   b  ")', "a b"), ('=TRIM("a b")', "a b"), ('=TRIM("   ")', ""),
    ('=TRIM(" a" & CHAR(9) & "  b")', "a\t b"), ('=LEN(TRIM(A3))', 0.0), ('=UPPER(A4)', NA),
    ('=LEFT(A5,40000)', VALUE),       # longer than 32,767 characters
    ('=LEFT(A5,3)', "xxx"), ('=UPPER(TRUE)', "TRUE"),
])
def test_text_functions(formula: str, expected: Any) -> None:
    cells = {"A1": "check this", "A2": 12.5, "A4": XlErr("#N/A"), "A5": "x" * 40000}
    check(value(formula, cells), expected)


@pytest.mark.parametrize("formula, expected", [
    ("=LEFT(A1:A3,1)", "b"), ('=LEFT({"ab","cd"},1)', "a"), ("=UPPER(A1:A3)", "BOB"),
    ('=SUMPRODUCT(LEN(LEFT(A1:A3,2)))', 6.0),
])
def test_text_functions_of_ranges(formula: str, expected: Any) -> None:
    # a range outside an array formula is read in the formula's row (2)
    book = evaluate({"Z2": formula}, {"A1": "ann", "A2": "bob", "A3": "cid"})
    check(book.value("S", 2, 26), expected)


# -- exact MATCH and XLOOKUP in both directions ------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=MATCH("check *",A1:A4,0)', 2.0), ('=MATCH("CHECK*",A1:A4,0)', 2.0),
    ('=MATCH("b",A1:A4,0)', 3.0), ('=MATCH("B",A1:A4,0)', 3.0), ('=MATCH(4,A1:A4,0)', 4.0),
    ('=MATCH("z*",A1:A4,0)', NA), ('=XLOOKUP("check*",A1:A4,B1:B4,"none",2,-1)', 30.0),
    ('=XLOOKUP("b",A1:A4,B1:B4,"none",0,-1)', 20.0), ('=XLOOKUP("q",A1:A4,B1:B4,"none",0,-1)', "none"),
])
def test_exact_match(formula: str, expected: Any) -> None:
    cells = {"A1": 1.0, "A2": "Check one", "A3": "b", "A4": 4.0,
             "B1": 10.0, "B2": 30.0, "B3": 20.0, "B4": 40.0}
    check(value(formula, cells), expected)


# -- formulas under evaluation: a loop named in the order it was entered ----------------------
def test_a_circular_reference_names_its_loop() -> None:
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=B1+1")
    book.add_formula("S", 1, 2, "=C1+1")
    book.add_formula("S", 1, 3, "=A1+1")
    book.add_formula("S", 2, 1, "=5")
    evaluate_book(book)
    loop = "circular reference: S!A1 → S!B1 → S!C1 → S!A1"
    for col in (1, 2, 3):
        found = book.cells["S"][(1, col)]
        assert isinstance(found, XlErr) and found.code == "#REF!" and found.message == loop
    assert book.cells["S"][(2, 1)] == 5.0
    assert book.pending == 0


# -- IF with constant branches ---------------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=IF(A1="","empty","full")', "empty"), ('=IF(A2="","empty","full")', "full"),
    ('=IF(A1="","",A2)', ""), ('=IF(A2="","",A2)', "x"), ("=IF(A3,1,2)", 1.0),
    ("=IF(A4,1,2)", 2.0), ("=IF(A4,1)", False), ("=IF(A3,,2)", 0.0), ("=IF(A4,1,)", 0.0),
    ('=IF("TRUE","a","b")', "a"), ("=IF(A5,1,2)", NA), ("=IF(0,#N/A,3)", 3.0),
    ("=IF(1,#DIV/0!,3)", DIV0), ('=IF(A2="x",{1,2},"b")', 1.0), ('=IF(A6,"a","b")', "b"),
])
def test_if_with_constant_branches(formula: str, expected: Any) -> None:
    # IF function: a branch left empty gives 0, a missing else FALSE; the condition is
    # read as a logical (a text "TRUE" is TRUE, a blank FALSE), an error is the result
    cells = {"A2": "x", "A3": True, "A4": False, "A5": XlErr("#N/A")}
    check(value(formula, cells), expected)


# -- a call of the evaluator's own functions failing costs its cell ----------------------------
@pytest.mark.parametrize("formula, code, start", [
    ("=ISNUMBER(1,2)", "#VALUE!", "ISNUMBER: wrong number or kind of arguments"),
    ("=ROWS(1,2)", "#VALUE!", "ROWS: wrong number of arguments (2)"),
    ('=INDEX(A1:A3,"x")', "#VALUE!", None), ("=INDEX(A1:A3,4)", "#REF!", None),
    ("=INDEX(A1:A3,2.9)&INDEX(A1:A3,C1)", None, "bb"),
])
def test_engine_calls_failing(formula: str, code: str | None, start: str) -> None:
    found = value(formula, {"A1": "a", "A2": "b", "A3": "c", "C1": 2.0})
    if code is None:
        assert found == start
    else:
        assert isinstance(found, XlErr) and found.code == code
        assert start is None or (found.message or "").startswith(start), found.message


# -- a one-cell reference compared with a constant, fixed, mixed or relative, copied down -----
def test_cells_compared_with_constants_where_copied() -> None:
    book = Book({})
    book.add_sheet("S")
    column = [0.0, "x", None, "X", True, XlErr("#N/A"), 1e-16]
    for row, cell in enumerate(column, start=1):
        book.set_value("S", row, 1, cell)
    book.set_value("S", 1, 3, "x")
    book.add_formula("S", 1, 4, "=2-2")  # a formula read before it is evaluated
    for row in range(1, 8):
        book.add_formula("S", row, 6, f'=$A{row}="x"')
        book.add_formula("S", row, 7, f"=A{row}=0")
        book.add_formula("S", row, 8, f'=$C$1="X"')
        book.add_formula("S", row, 9, "=D$1=0")
        book.add_formula("S", row, 10, f"=A{row}<>1")
    evaluate_book(book)
    cells = book.cells["S"]
    # a text equals without case; a blank is "" beside a text and 0 beside a number; TRUE
    # is neither; an error is the result; 1e-16 differs from 0
    assert [cells[(r, 6)] for r in range(1, 8)][:5] == [False, True, False, True, False]
    assert [cells[(r, 7)] for r in range(1, 8)][:5] == [True, False, True, False, False]
    assert cells[(7, 7)] is False and cells[(7, 10)] is True
    assert all(cells[(r, 8)] is True and cells[(r, 9)] is True for r in range(1, 8))
    assert [cells[(r, 10)] for r in range(1, 6)] == [True, True, True, True, True]
    for col in (6, 7, 10):
        assert isinstance(cells[(6, col)], XlErr) and cells[(6, col)].code == "#N/A"


# -- a rating function's one-cell arguments, read without building their ranges --------------
def _checked(rating: Any, k: Any = 20.0, note: Any = "none") -> str:
    if not isinstance(rating, float):
        raise ValueError(f"rating: {rating!r} is not a number")
    return f"{rating} {k} {note}"


@pytest.mark.parametrize("formula, expected, culprit", [
    ("=CHECKED(A1)", "1500.0 20.0 none", None), ("=CHECKED(A1,B1)", "1500.0 40.0 none", None),
    ("=CHECKED($A$1,B$1,C1)", "1500.0 40.0 x", None),
    ("=CHECKED(A1,,C1)", "1500.0 20.0 x", None),       # an argument left out: its default
    ("=CHECKED(A1,B1,)", "1500.0 40.0 none", None),    # left out at the end: the default
    ("=CHECKED(A1,D1)", "1500.0 None none", None),     # a blank cell: None
    ("=CHECKED(A1,Z500)", "1500.0 [] none", None),     # beyond the used range: no row
    ("=CHECKED(A2)", XlErr("#VALUE!"), ("S", 2, 1)),   # the message names the cell
    ("=CHECKED(A2&\"\")", XlErr("#VALUE!"), None),     # a value computed: no cell to name
    ("=CHECKED(A3)", "#N/A", None), ("=CHECKED(A4)", "2.0 20.0 none", None),
])
def test_rating_function_arguments_in_cells(formula: str, expected: Any, culprit: Any) -> None:
    book = Book({"CHECKED": _checked})
    book.add_sheet("S")
    for address, cell in {"A1": 1500.0, "B1": 40.0, "C1": "x", "A2": "n/a",
                          "A3": XlErr("#N/A"), "E9": 0.0}.items():
        ref = parse_ref(address)
        book.set_value("S", ref.r1, ref.c1, cell)
    book.add_formula("S", 4, 1, "=1+1")
    book.add_formula("S", 6, 6, formula)
    evaluate_book(book)
    found = book.cells["S"][(6, 6)]
    if isinstance(expected, XlErr):
        assert isinstance(found, XlErr) and found.code == "#VALUE!"
        assert found.message == "rating: 'n/a' is not a number" and found.culprit == culprit
    elif expected == "#N/A":  # an error cell is handed over as its code
        assert isinstance(found, XlErr) and found.message == "rating: '#N/A' is not a number"
    else:
        assert found == expected


# -- a computed value compared with a text -------------------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=LEFT(A1,1)="A"', True), ('=TRIM(A4)=""', True), ('=INDEX(A1:A3,2)="B"', True),
    ('=IF(TRUE,A1:A3)="b"', True),          # a range read in the formula's row (2)
    ('=IF(TRUE,C1:D1)="x"', VALUE),         # a row range outside the formula's column
    ('=(1/0)="x"', DIV0), ('=INDEX(A1:A3,4)="x"', REF), ('=(1=1)="TRUE"', False),
    ('=SUM(A5,1)="x"', False), ('=SUM(A5,1)<"x"', True), ('=INDEX(A1:A4,4)=""', True),
    ('={"a","b"}="A"', True), ('=IF(FALSE,1)="FALSE"', False), ('=IF(TRUE,A4)="0"', False),
])
def test_a_computed_value_compared_with_a_text(formula: str, expected: Any) -> None:
    # comparison: numbers < text < logicals; a blank is "" beside a text
    cells = {"A1": "abc", "A2": "B", "A3": "c", "A5": 2.0, "C1": "x", "D1": "y"}
    book = evaluate({"Z2": formula}, cells)
    check(book.value("S", 2, 26), expected)
