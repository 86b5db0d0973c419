"""Calls of the engine's own functions and of an add-in's functions: a failing call costs
its cell with a message naming the function, and an add-in function's one-cell arguments
are read as classic xlwings hands them over (a blank as None, an argument left out as its
default, an error cell as its code), its failure naming the cell that holds the value.

The compiler's other shortcuts are held to the general path by tests/engine/test_shortcuts.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xlrecalc import Report, record_values
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
class _Refusal(ValueError):
    """An add-in's error naming the value it refuses by attributes (xlrecalc.trace)."""

    def __init__(self, message: str, argument: str, position: Any = None, value: Any = None):
        super().__init__(message)
        self.argument, self.position, self.value = argument, position, value


def _checked(amount: Any, k: Any = 20.0, note: Any = "none") -> str:
    if not isinstance(amount, float):
        raise _Refusal(f"amount: {amount!r} is not a number", "amount", value=amount)
    return f"{amount} {k} {note}"


@pytest.mark.parametrize("formula, expected, culprit", [
    ("=CHECKED(A1)", "1500.0 20.0 none", None), ("=CHECKED(A1,B1)", "1500.0 40.0 none", None),
    ("=CHECKED($A$1,B$1,C1)", "1500.0 40.0 x", None),
    ("=CHECKED(A1,,C1)", "1500.0 20.0 x", None),       # an argument left out: its default
    ("=CHECKED(A1,B1,)", "1500.0 40.0 none", None),    # left out at the end: the default
    ("=CHECKED(A1,D1)", "1500.0 None none", None),     # a blank cell: None
    ("=CHECKED(A1,Z500)", "1500.0 [] none", None),     # beyond the used range: no row
    ("=CHECKED(A2)", XlErr("#VALUE!"), ("S", 2, 1)),   # the error names the cell
    ("=CHECKED(A2&\"\")", XlErr("#VALUE!"), None),     # a value computed: no cell to name
    ("=CHECKED(A3)", "#N/A", None), ("=CHECKED(A4)", "2.0 20.0 none", None),
])
def test_addin_function_arguments_in_cells(formula: str, expected: Any, culprit: Any) -> None:
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
        assert found.message == "amount: 'n/a' is not a number" and found.culprit == culprit
    elif expected == "#N/A":  # an error cell is handed over as its code
        assert isinstance(found, XlErr) and found.message == "amount: '#N/A' is not a number"
    else:
        assert found == expected


# -- an add-in's error names the value it refuses by attributes, whatever its words ------------
def _traced_book(words: str, refusal: type[ValueError] | None) -> Report:
    """Typed values in A5:C5, a helper row A6:C6 copying them, and JUDGE refusing the
    second value of its argument, read straight (F1) or through a computed array (F2)
    where no cell of the argument can be named. ``refusal``: the add-in's error type with
    the attributes, ``None`` for a plain ValueError with the same words."""

    def judge(scores: Any) -> float:
        if refusal is None:
            raise ValueError(words)
        raise refusal(words, "scores", 2, "x")

    book = Book({"JUDGE": judge})
    book.add_sheet("S")
    for col, typed in enumerate([1.0, "x", 0.5], start=1):
        book.set_value("S", 5, col, typed)
        book.add_formula("S", 6, col, f"={'ABC'[col - 1]}5")
    book.add_formula("S", 1, 6, "=JUDGE(A6:C6)")
    book.add_formula("S", 2, 6, '=JUDGE(A6:C6&"")')
    evaluate_book(book)
    report = Report(source=Path("book.xlsx"), output=None)
    record_values(book, report)
    return report


@pytest.mark.parametrize("words", [
    "scores: 'x' is not a game result (item 2)",       # as an add-in may word it today
    "Ergebnis Nummer zwei ist ungültig",                # reworded: no argument, no item, no value
])
def test_tracing_reads_the_error_attributes_never_its_words(words: str) -> None:
    errors = {e.address: e for e in _traced_book(words, _Refusal).errors}
    assert errors["S!F1"].message == words and errors["S!F1"].inputs == ("S!B5",)  # item 2, via B6
    assert errors["S!F2"].message == words and errors["S!F2"].inputs == ("S!B5",)  # the value "x"


def test_words_alone_name_no_input() -> None:
    errors = {e.address: e for e in _traced_book("scores: 'x' is not a game result (item 2)", None).errors}
    assert errors["S!F1"].inputs == () and errors["S!F2"].inputs == ()
