"""A range looked up again gives what reading it anew gives.

MATCH in exact mode, COUNT, and COUNTIF of a number, a comparison with one or a text index
a range the second time a formula asks for it (:func:`xlrecalc.values.settled`): the first
positions of its values, its numbers sorted or counted, its texts counted, kept for the
rest of the evaluation once no cell of it is pending. Each book here is evaluated twice, with that memo and with every
call reading its range anew (``settled`` answering ``None``, as it does the first time),
and every cell must hold the same value: over columns of every kind of value, with
formula cells in the range evaluated on demand, a cycle through the range, and a book
that iterates its cycles (whose cells change between iterations).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrecalc.engine import Book, evaluate_book
from xlrecalc.functions import criteria, lookup, math_aggregate
from xlrecalc.values import XlErr

VALUES = [0.0, 1.0, -2.5, 3.0, 0.1 + 0.2, 0.3, 2.0, "", "a", "A", "1", " 2 ", "TRUE", "a*",
          True, False, None, XlErr("#N/A"), XlErr("#DIV/0!")]
CRITERIA = ['0', '1', '"1"', '"<1"', '">=0"', '"<=2.5"', '">2"', '"=1"', '"<>1"', '"a"', '"=A"',
            '""', '"<>"', 'TRUE', '"TRUE"', '"#N/A"', '"a*"', '"<a"', '"<"&B1', '">="&B2', 'B3']
LOOKED_UP = ['1', '0.3', '"a"', '"A"', '"1"', 'TRUE', '"a*"', 'B1', 'B2', 'B3']


def _book(column: list[Any], formulas: list[str], iteration: tuple[int, float] | None = None) -> Book:
    """Sheet S: ``column`` in A1:A…, B1:B3 as A1:A3, and each formula in D1, D2 …"""
    book = Book({})
    book.add_sheet("S")
    for row, value in enumerate(column, start=1):
        if isinstance(value, str) and value.startswith("="):
            book.add_formula("S", row, 1, value)
        elif value is not None:
            book.set_value("S", row, 1, value)
    for row in (1, 2, 3):
        book.add_formula("S", row, 2, f"=A{row}")
    for row, text in enumerate(formulas, start=1):
        book.add_formula("S", row, 4, text)
    book.iteration = iteration
    evaluate_book(book)
    return book


def _both(column: list[Any], formulas: list[str], monkeypatch: pytest.MonkeyPatch,
          iteration: tuple[int, float] | None = None) -> tuple[dict[Any, Any], dict[Any, Any]]:
    kept = _book(column, formulas, iteration).cells["S"]
    with monkeypatch.context() as patch:  # every call reads its range anew
        patch.setattr(lookup, "settled", lambda *args: None)
        patch.setattr(math_aggregate, "settled", lambda *args: None)
        patch.setattr(criteria, "settled", lambda *args: None)
        anew = _book(column, formulas, iteration).cells["S"]
    return kept, anew


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, XlErr) or isinstance(b, XlErr):
        return (isinstance(a, XlErr) and isinstance(b, XlErr) and a.code == b.code
                and a.message == b.message)
    return type(a) is type(b) and a == b


def _assert_same(kept: dict[Any, Any], anew: dict[Any, Any]) -> None:
    assert kept.keys() == anew.keys()
    for place in kept:
        assert _same(kept[place], anew[place]), (place, kept[place], anew[place])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(VALUES + ["=A1+1", '=IF(A2="","",A2)']), min_size=8, max_size=8),
       st.lists(st.one_of(
           st.builds(lambda c: f"=COUNTIF($A$1:$A$8,{c})", st.sampled_from(CRITERIA)),
           st.builds(lambda v: f"=MATCH({v},$A$1:$A$8,0)", st.sampled_from(LOOKED_UP)),
           st.builds(lambda v: f"=MATCH({v},$A$2:$A$6,0)", st.sampled_from(LOOKED_UP)),
           st.sampled_from(["=COUNT($A$1:$A$8)", "=COUNT($A$2:$A$6)"])),
           min_size=6, max_size=12))
def test_a_range_looked_up_again_gives_what_reading_it_anew_gives(
        column: list[Any], formulas: list[str]) -> None:
    # hypothesis and the function-scoped monkeypatch fixture do not mix: patched by hand
    patch = pytest.MonkeyPatch()
    try:
        # each formula three times, so the same range is asked for again
        _assert_same(*_both(column, [f for f in formulas for _ in range(3)], patch))
    finally:
        patch.undo()


@pytest.mark.parametrize("formula", ['=COUNTIF($A$1:$A$8,"<"&A1)', "=COUNTIF($A$1:$A$8,2)",
                                     "=MATCH(2,$A$1:$A$8,0)", '=COUNTIF($A$1:$A$8,"X")',
                                     "=COUNT($A$1:$A$8)"])
def test_formulas_copied_down_a_column_read_a_range_being_filled(
        formula: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the range's cells are formulas evaluated when the first lookup reads them
    column = [3.0, "=A1-1", "=A2*2", "x", "=A3+A1", None, "=A5", 2.0]
    kept, anew = _both(column, [formula] * 10, monkeypatch)
    _assert_same(kept, anew)
    # A1:A8 hold 3, 2, 4, x, 7, blank, 7, 2
    assert kept[(1, 4)] == {'=COUNTIF($A$1:$A$8,"<"&A1)': 2.0, "=COUNTIF($A$1:$A$8,2)": 2.0,
                            "=MATCH(2,$A$1:$A$8,0)": 2.0, '=COUNTIF($A$1:$A$8,"X")': 1.0,
                            "=COUNT($A$1:$A$8)": 6.0}[formula]


def test_a_cycle_through_the_range_is_reported_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # A3 looks itself up: its cell is under evaluation while the range is read
    column = [1.0, 2.0, "=MATCH(2,$A$1:$A$5,0)", "=COUNTIF($A$1:$A$5,\"<5\")", 4.0]
    kept, anew = _both(column, ["=MATCH(4,$A$1:$A$5,0)", '=COUNTIF($A$1:$A$5,"<5")'] * 4, monkeypatch)
    _assert_same(kept, anew)
    assert isinstance(kept[(3, 1)], XlErr) and kept[(3, 1)].code == "#REF!"


def test_a_book_that_iterates_reads_the_cells_of_each_iteration(monkeypatch: pytest.MonkeyPatch) -> None:
    # A1 halves towards 2 (a cycle, iterated); the lookups over it follow its last value
    column = ["=A1/2+1", 5.0, "=A1*3"]
    formulas = ['=COUNTIF($A$1:$A$3,"<"&5)', "=COUNTIF($A$1:$A$3,5)", "=MATCH(5,$A$1:$A$3,0)"] * 3
    kept, anew = _both(column, formulas, monkeypatch, iteration=(100, 0.001))
    _assert_same(kept, anew)
    assert kept[(1, 1)] == pytest.approx(2.0, abs=0.01)
    assert kept[(1, 4)] == 1.0  # A1 alone under 5 (A2 is 5, A3 three times A1)
