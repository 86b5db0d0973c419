"""Circular references as Excel treats them: with iteration off (the default), the cells
of a cycle show one line naming the cycle's cells; with ``<calcPr iterate="1">`` the
workbook is iterated as Excel iterates it (iterateCount times at most, until no cell of
the cycle changes by more than iterateDelta). Never a Python message in a cell."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlrecalc import load_book, load_book_openpyxl, recalculate
from xlrecalc.engine import Book, evaluate_book
from xlrecalc.values import XlErr


def _loop(length: int, start: int, via: str) -> Book:
    """Cells A1…An of a cycle, each reading the next (An reads A1), evaluated from ``start``."""
    book = Book({})
    book.add_sheet("S")
    forms = {"ref": "=A{}", "plus": "=A{}+1", "index": "=INDEX(A:A,{})", "sum": "=SUM(A{},0)"}
    order = [*range(start, length + 1), *range(1, start)]
    for row in order:
        book.add_formula("S", row, 1, forms[via].format(row % length + 1))
    evaluate_book(book)
    return book


@given(st.integers(1, 60), st.data(), st.sampled_from(["ref", "plus", "index", "sum"]))
def test_every_cell_of_a_cycle_names_the_cycle(length: int, data: Any, via: str) -> None:
    start = data.draw(st.integers(1, length))
    book = _loop(length, start, via)
    cells = {f"S!A{r}" for r in range(1, length + 1)}
    for row in range(1, length + 1):
        found = book.cells["S"][(row, 1)]
        assert isinstance(found, XlErr) and found.message, found
        assert found.message.startswith("circular reference: ") and "\n" not in found.message
        path = found.message.removeprefix("circular reference: ").split(" → ")
        assert path[0] == path[-1] and set(path) == cells and len(path) == length + 1


def test_a_chain_of_38_references_in_a_loop_is_no_recursion_error() -> None:
    # the workbook of the report: 38 cells, each "=A(n+1)", the last "=A1"
    book = _loop(38, 1, "ref")
    messages = {book.cells["S"][(r, 1)].message for r in range(1, 39)}
    assert len(messages) == 1
    message = messages.pop()
    assert "recursion" not in message and message.count("→") == 38


def test_a_cell_reading_a_cycle_is_not_part_of_it(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["B1"], ws["C1"] = "=A2", "=A1+1", "=A1*2", "=1+1"
    wb.save(tmp_path / "c.xlsx")
    report = recalculate(tmp_path / "c.xlsx", tmp_path / "out.xlsx")
    loop = report.values[("Sheet", "A1")]
    assert loop == report.values[("Sheet", "A2")]
    assert loop in ("circular reference: Sheet!A1 → Sheet!A2 → Sheet!A1",)
    assert report.values[("Sheet", "C1")] == 2.0


def _iterating(tmp_path: Path, cells: dict[str, Any], count: int | None = 100,
               delta: float | None = 0.001) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for address, value in cells.items():
        ws[address] = value
    wb.calculation.iterate = True
    wb.calculation.iterateCount = count
    wb.calculation.iterateDelta = delta
    path = tmp_path / "iterate.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize("reader", [load_book, load_book_openpyxl])
def test_the_readers_see_iteration_on(tmp_path: Path, reader: Any) -> None:
    path = _iterating(tmp_path, {"A1": "=A1+1"}, 7, 0.5)
    assert reader(path, {}).iteration == (7, 0.5)


def test_a_counter_counts_the_iterations(tmp_path: Path) -> None:
    # Excel: A1 = A1+1 with iteration on (100 iterations, change 0.001) shows 100 after
    # one recalculation from 0; it never converges, so every iteration runs
    report = recalculate(_iterating(tmp_path, {"A1": "=A1+1", "B1": "=A1*2"}), tmp_path / "o.xlsx")
    assert report.values[("Sheet", "A1")] == 100.0 and report.values[("Sheet", "B1")] == 200.0
    assert not report.errors
    report = recalculate(_iterating(tmp_path, {"A1": "=A1+1"}, 1), tmp_path / "o.xlsx")
    assert report.values[("Sheet", "A1")] == 1.0


def test_newtons_square_root_converges_within_the_change(tmp_path: Path) -> None:
    path = _iterating(tmp_path, {"A1": "=IF(A1=0,1,(A1+2/A1)/2)"}, 100, 0.001)
    found = recalculate(path, tmp_path / "o.xlsx").values[("Sheet", "A1")]
    assert abs(found - math.sqrt(2)) < 1e-3


@given(st.floats(-0.9, 0.9), st.floats(-100, 100), st.sampled_from([0.1, 0.001, 1e-6]))
def test_a_two_cell_cycle_stops_near_its_fixed_point(slope: float, offset: float, delta: float) -> None:
    # A1 = B1, B1 = slope·A1 + offset: a contraction whose fixed point is offset/(1-slope);
    # the iterations stop once a step changes no cell by more than delta
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=B1")
    book.add_formula("S", 1, 2, f"={slope!r}*A1+{offset!r}")
    book.iteration = (10_000, delta)
    evaluate_book(book)
    fixed = offset / (1 - slope)
    a, b = book.cells["S"][(1, 1)], book.cells["S"][(1, 2)]
    assert isinstance(a, float) and isinstance(b, float)
    # a step changed A1 by at most delta: it lies within delta·|slope|/(1-|slope|) of the point
    bound = delta * max(abs(slope), 1e-12) / (1 - abs(slope)) + delta + 1e-9
    assert abs(b - fixed) <= bound + abs(b) * 1e-12


def test_iteration_starts_from_excels_cached_value() -> None:
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=A1+1")
    book.cached[("S", 1, 1)] = 41.0
    book.iteration = (1, 0.001)
    evaluate_book(book)
    assert book.cells["S"][(1, 1)] == 42.0


@pytest.mark.parametrize("formula", ["=A", "=B*2", "=IFERROR(A,0)", "=IF(ISERROR(A),0,1)", "=SUM(A,1)"])
def test_a_cycle_through_two_names_is_a_circular_reference(formula: str) -> None:
    # A is =B+1 and B is =A+1: every formula reading either is in the cycle, and no
    # IFERROR turns it into a number (Excel warns of the circular reference and shows 0)
    book = Book({})
    book.add_sheet("S")
    book.define_name("A", "=B+1")
    book.define_name("B", "=A+1")
    book.add_formula("S", 1, 1, formula)
    book.add_formula("S", 1, 2, "=A1*2")
    book.add_formula("S", 1, 3, "=1+1")
    evaluate_book(book)
    found = book.cells["S"][(1, 1)]
    assert isinstance(found, XlErr) and found.message is not None
    path = found.message.removeprefix("circular reference: S!A1 → ").split(" → ")
    assert found.message.startswith("circular reference: S!A1 → ")
    assert path[0] == path[-1] and set(path) == {"name A", "name B"} and len(path) == 3
    assert isinstance(book.cells["S"][(1, 2)], XlErr)  # a reader of the cycle shows its error
    assert book.cells["S"][(1, 3)] == 2.0


def test_a_name_reading_itself_is_a_circular_reference() -> None:
    book = Book({})
    book.add_sheet("S")
    book.define_name("Self", "=Self+1")
    book.add_formula("S", 1, 1, "=IFERROR(Self,5)")
    evaluate_book(book)
    found = book.cells["S"][(1, 1)]
    assert isinstance(found, XlErr)
    assert found.message == "circular reference: S!A1 → name Self → name Self"


def test_a_name_reading_a_cell_is_no_cycle_of_names() -> None:
    # A is S!$B$1+1 and B is =A+1: no name reads itself; S!A1 = A = 1 (B1 blank)
    book = Book({})
    book.add_sheet("S")
    book.define_name("A", "=S!$B$1+1")
    book.define_name("B", "=A+1")
    book.add_formula("S", 1, 1, "=A+B")
    evaluate_book(book)
    assert book.cells["S"][(1, 1)] == 3.0


def _counter_pair(count: int, readers: int = 0, bystanders: int = 0) -> Book:
    """A1 = B1+1 and B1 = A1, a cycle that never settles; C1…Cn read A1, D1…Dn do not."""
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=B1+1")
    book.add_formula("S", 1, 2, "=A1")
    for row in range(1, readers + 1):
        book.add_formula("S", row, 3, f"=A1*{row}")
    for row in range(1, bystanders + 1):
        book.add_formula("S", row, 4, f"={row}+1")
    book.iteration = (count, 0.001)
    return book


def test_iterations_past_excels_32767_are_not_run(tmp_path: Path) -> None:
    # each iteration adds 1 to A1, so A1 counts the iterations run: 32,767 of the 100,000
    path = _iterating(tmp_path, {"A1": "=B1+1", "B1": "=A1"}, 100_000, 0.001)
    report = recalculate(path, tmp_path / "o.xlsx")
    assert report.values[("Sheet", "A1")] == 32_767.0
    assert report.values[("Sheet", "B1")] == 32_766.0
    assert not report.errors


@given(st.integers(2, 60), st.integers(0, 40), st.integers(0, 40))
def test_only_the_cells_of_the_cycle_are_iterated(count: int, readers: int, bystanders: int) -> None:
    book = _counter_pair(count, readers, bystanders)
    evaluate_book(book)
    assert book.cells["S"][(1, 1)] == float(count) and book.cells["S"][(1, 2)] == count - 1.0
    for row in range(1, readers + 1):  # the readers see the cycle's last values
        assert book.cells["S"][(row, 3)] == float(count * row)
    for row in range(1, bystanders + 1):
        assert book.cells["S"][(row, 4)] == row + 1.0
    others = readers + bystanders
    # the first evaluation, the cycle's two cells once per further iteration, and the
    # other formulas once more at the end (the whole book each time would be count·others)
    assert book.evaluations == 2 + others + 2 * (count - 1) + others


def test_a_cell_of_the_cycle_the_engine_did_not_see_meet_is_iterated_too() -> None:
    # A1 = (B1+C1)/4+1, B1 = A1, C1 = B1: evaluating A1, B1 meets A1 under evaluation
    # (the cycle seen), and C1 then reads B1 finished; C1 is in the cycle all the same
    # (A1 → C1 → B1 → A1). The fixed point is 2 for all three; D1 reads the cycle.
    book = Book({})
    book.add_sheet("S")
    book.add_formula("S", 1, 1, "=(B1+C1)/4+1")
    book.add_formula("S", 1, 2, "=A1")
    book.add_formula("S", 1, 3, "=B1")
    book.add_formula("S", 1, 4, "=SUM(A1:C1)")
    book.iteration = (1_000, 1e-9)
    evaluate_book(book)
    for col in (1, 2, 3):
        assert abs(book.cells["S"][(1, col)] - 2.0) < 1e-6
    assert abs(book.cells["S"][(1, 4)] - 6.0) < 1e-5


def test_a_large_cycle_that_never_settles_stops_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from xlrecalc import iteration
    monkeypatch.setattr(iteration, "MAX_WORK", 1_000)
    book = _counter_pair(32_767, readers=1)
    evaluate_book(book)
    # an iteration reads 4 cells (A1 and B1, each reading one): 1,000 allow 250 more
    found = book.cells["S"][(1, 1)]
    assert isinstance(found, XlErr) and found.code == "#NUM!"
    assert found.message == ("iterative calculation stopped after 251 of 32,767 iterations "
                             "of a cycle of 2 cells that does not settle")
    assert isinstance(book.cells["S"][(1, 3)], XlErr)  # the reader shows it too


def test_a_cycle_reading_large_ranges_stops_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    # A1:A10 each the sum of all ten plus 1: an iteration reads 10·(1+10) = 110 cells
    from xlrecalc import iteration
    monkeypatch.setattr(iteration, "MAX_WORK", 1_000)
    book = Book({})
    book.add_sheet("S")
    for row in range(1, 11):
        book.add_formula("S", row, 1, "=SUM($A$1:$A$10)+1")
    book.iteration = (32_767, 0.001)
    evaluate_book(book)
    found = book.cells["S"][(1, 1)]
    assert isinstance(found, XlErr) and found.message is not None
    assert found.message.startswith("iterative calculation stopped after 10 of 32,767 iterations "
                                    "of a cycle of 10 cells")


@pytest.mark.parametrize("iterate", [False, True])
def test_cells_that_each_read_all_the_others_are_one_cycle(iterate: bool) -> None:
    # 60 cells, each half the average of all 60 plus 1 (fixed point 2): every cell is in
    # the cycle, named as one, or iterated to the point
    book = Book({})
    book.add_sheet("S")
    for row in range(1, 61):
        book.add_formula("S", row, 1, "=SUM($A$1:$A$60)/120+1")
    book.add_formula("S", 1, 2, "=A1")
    if iterate:
        book.iteration = (1_000, 1e-12)
    evaluate_book(book)
    found = [book.cells["S"][(row, 1)] for row in range(1, 61)]
    if iterate:
        assert all(abs(v - 2.0) < 1e-9 for v in found), found[:3]
        assert abs(book.cells["S"][(1, 2)] - 2.0) < 1e-9
    else:
        assert all(isinstance(v, XlErr) and v.message and v.message.startswith("circular reference: ")
                   for v in found)
