"""Calls of the engine's own functions and of an add-in's functions: a failing call costs
its cell with a message naming the function, and an add-in function's one-cell arguments
are read as classic xlwings hands them over (a blank as None, an argument left out as its
default, an error cell as its code), its failure naming the cell that holds the value.

The compiler's other shortcuts are held to the general path by tests/engine/test_shortcuts.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from xlrecalc.engine import Book, evaluate_book
from xlrecalc.parse import parse_ref
from xlrecalc.values import XlErr


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


# -- a call of the evaluator's own functions failing costs its cell ----------------------------
@pytest.mark.parametrize("formula, code, start", [
    ("=AREAS(A1,A2)", "#VALUE!", "AREAS: wrong number or kind of arguments"),
    ("=ISNUMBER(1,2)", "#VALUE!", "ISNUMBER: wrong number of arguments (2)"),
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


# -- an add-in function's one-cell arguments, read without building their ranges --------------
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
