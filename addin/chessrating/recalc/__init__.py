"""What is chess about recalculating a workbook: the rating functions and the standings.

The formula engine is its own package, :mod:`xlrecalc` (it imports nothing from
chessrating), and chessrating reads it through its one face, ``from xlrecalc import …``.
This module hands it the rating functions (every upper-case function of
:mod:`chessrating.udfs`) and reads the standings of a recalculated crosstable
(:mod:`.standings`) before anything is written, and writes the print areas that
follow the entries as the fixed rows entered (:mod:`.print_areas`), so :func:`recalculate` here is the
engine's with the chess added. The engine's names the commands and the workbook
builders use are re-exported, so ``from chessrating.recalc import recalculate, Step``
keeps working.

>>> "FIDE_CHANGE" in rating_functions() and "SUM" not in rating_functions()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import zipfile
from pathlib import Path
from typing import Any

import xlrecalc
from xlrecalc import (Book, CellError, RecalcError, Step, chart_values, default_output,
                      load_book, output_path, written_value)

from .print_areas import fixed_area, fix_print_areas, formula_print_areas

from .problems import Problem, as_cell_errors, find_problems
from .standings import Standing, find_standings

__all__ = ["recalculate", "Report", "CellError", "Standing", "Problem", "RecalcError", "default_output",
           "rating_functions", "Step", "load_book", "chart_values", "record_values", "written_value",
           "output_path"]


@dataclass
class Report(xlrecalc.Report):
    """The engine's report (:class:`xlrecalc.Report`), the standings it found and the
    ``check …`` reasons the Check column shows (:mod:`.problems`).

    The reasons are text, not Excel errors, so :attr:`errors` leaves them out; they count
    among :attr:`root_errors`, which a command's exit code and summary read."""

    standings: list[Standing] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def root_errors(self) -> list[CellError]:
        """The engine's root errors, then one per reason the Check column shows."""
        return [*super().root_errors, *(e for e in as_cell_errors(self.problems) if e.cause is None)]


def rating_functions() -> dict[str, Callable[..., Any]]:
    """Every upper-case callable of :mod:`chessrating.udfs`: the Excel functions."""
    try:
        from .. import udfs
    except ImportError:
        return {}
    return {name: fn for name, fn in vars(udfs).items()
            if name.isupper() and callable(fn) and not isinstance(fn, type)}


def record_values(book: Book, report: xlrecalc.Report) -> dict[str, dict[tuple[int, int], Any]]:
    """:func:`xlrecalc.record_values`, and the standings into ``report``."""
    written = xlrecalc.record_values(book, report)
    _add_standings(book, report)
    return written


def _add_standings(book: Book, report: xlrecalc.Report) -> None:
    if isinstance(report, Report):
        report.standings = find_standings(book)
        report.problems = [*find_problems(book), *_unfilled_arrays(book)]


def _unfilled_arrays(book: Book) -> list[Problem]:
    """Array formulas whose range the file holds only in part (``{=A:A*2}`` over
    B1:B1048576 with B1 alone stored): Excel writes every cell of the range; the cells
    the file leaves out are not calculated here, and are named rather than left empty."""
    found = []
    for (sheet, row, col), (ref, held) in book.unfilled.items():
        area = (ref.r2 - ref.r1 + 1) * (ref.c2 - ref.c1 + 1)
        span = f"{xlrecalc.column_letters(ref.c1)}{ref.r1}:{xlrecalc.column_letters(ref.c2)}{ref.r2}"
        found.append(Problem(sheet, (f"{xlrecalc.column_letters(col)}{row}",),
                             f"the array formula over {span} is stored in {held:,} of its {area:,} "
                             "cells; the others are left uncalculated (Excel stores every cell of "
                             "the range: save the workbook again in Excel)"))
    return found


def recalculate(src: Path | str, dst: Path | str | None = None, *,
                functions: Mapping[str, Callable[..., Any]] | None = None,
                progress: Callable[[Step], None] | None = None,
                label: str | None = None,
                accept: Callable[[Report], None] | None = None,
                inputs: Mapping[str, Mapping[tuple[int, int], Any]] | None = None) -> Report:
    """:func:`xlrecalc.recalculate` with the rating functions (``functions`` adds or
    replaces functions by name) and the standings read before writing: a refusal
    there leaves nothing written. ``accept`` sees the report (standings and problems
    found) before anything is written and may refuse by raising. ``inputs`` are values
    typed into cells first, written with the formulas' values (:func:`xlrecalc.recalculate`)."""
    table = rating_functions()
    table.update({name.upper(): fn for name, fn in (functions or {}).items()})

    def before_write(book: Book, report: xlrecalc.Report) -> None:
        _add_standings(book, report)
        if accept is not None:
            assert isinstance(report, Report)
            accept(report)

    areas = formula_print_areas(Path(src)) if Path(src).is_file() and zipfile.is_zipfile(src) else {}
    # print areas that follow the entries are written as the rows entered (print_areas),
    # into workbook.xml in the pass that writes the values
    fixed: dict[str, str] = {}

    def fix_areas(book: Book, report: xlrecalc.Report) -> None:
        before_write(book, report)
        fixed.update({sheet: fixed_area(text, book.value) or text for sheet, text in areas.items()})

    report = xlrecalc.recalculate(src, dst, functions=table, progress=progress, label=label,
                                  report_type=Report, before_write=fix_areas if areas else before_write,
                                  inputs=inputs,
                                  workbook_edit=(lambda xml: fix_print_areas(xml, fixed)) if areas else None)
    assert isinstance(report, Report)
    return report
