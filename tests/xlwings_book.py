"""A workbook handed to the script "Pair next round" as each Excel route hands it over.

* :func:`run_lite` — the Lite copy's ``main.py`` script run on workbooks through xlwings'
  own script call path (tests/core/lite_script_driver.py, in a subprocess: the Office.js
  payload of each book, empty cells as ``""``, only the sheets of the script's
  ``include``).
* :class:`ClassicBook` — a stand-in for a classic xlwings ``Book`` over an .xlsx file read
  with openpyxl, shaped as xlwings reads Excel through COM: empty cells as ``None``,
  numbers as floats, a name's ``refers_to_range``; what the script writes goes into the
  openpyxl sheet and is listed in :attr:`ClassicBook.writes`.
* :func:`type_inputs` — values typed into a workbook's named input cells with openpyxl,
  as a director types them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
from officejs_book import officejs_book
from openpyxl.utils import range_boundaries

from chessrating import scripts
from chessrating.lite.embedded import main_py

ROOT = Path(__file__).resolve().parents[1]


def lite_env() -> dict[str, str]:
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "addin"), env.get("PYTHONPATH", "")])
    return env


def run_lite(books: list[Path]) -> dict:
    """main.py's script run on each book, as xlwings Lite runs it."""
    calls = [{"script": "pair_next_round", "book": officejs_book(b, include=scripts.PAIR_NEXT_ROUND["include"])}
             for b in books]
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "core" / "lite_script_driver.py")],
                          env=lite_env(), input=json.dumps({"main": main_py(), "calls": calls}),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def type_inputs(path: Path, typed: dict[str, Any]) -> Path:
    """``path`` with ``typed`` entered by workbook name: a value for a one-cell name, or
    ``{row: value}`` (row counted from 0 within the range) for a column."""
    wb = openpyxl.load_workbook(path)
    for name, value in typed.items():
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        c1, r1, _, _ = range_boundaries(ref.replace("$", ""))
        for row, v in (value.items() if isinstance(value, dict) else [(0, value)]):
            wb[sheet].cell(r1 + row, c1, v)
    wb.save(path)
    return path


def _com(value: Any) -> Any:
    """A value as COM hands it to classic xlwings: numbers as floats."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


class ClassicRange:
    def __init__(self, sheet: "ClassicSheet", r1: int, c1: int, r2: int, c2: int) -> None:
        self.sheet, self.row, self.column, self._end = sheet, r1, c1, (r2, c2)

    @property
    def last_cell(self) -> "ClassicRange":
        return ClassicRange(self.sheet, *self._end, *self._end)

    def options(self, ndim: int | None = None, **_: Any) -> "ClassicRange":
        assert ndim == 2, "the script reads every range as rows"
        return self

    @property
    def value(self) -> list[list[Any]]:
        r2, c2 = self._end
        return [[_com(self.sheet.ws.cell(r, c).value) for c in range(self.column, c2 + 1)]
                for r in range(self.row, r2 + 1)]

    @value.setter
    def value(self, rows: list[list[Any]]) -> None:
        r2, c2 = self._end
        assert (len(rows), len(rows[0])) == (r2 - self.row + 1, c2 - self.column + 1)
        for i, row in enumerate(rows):
            for k, v in enumerate(row):
                self.sheet.ws.cell(self.row + i, self.column + k, v)
        self.sheet.book.writes.append((self.sheet.name, self.row, self.column, rows))


class ClassicSheet:
    def __init__(self, book: "ClassicBook", ws: Any) -> None:
        self.book, self.ws, self.name = book, ws, ws.title

    def range(self, first: tuple[int, int], last: tuple[int, int] | None = None) -> ClassicRange:
        return ClassicRange(self, *first, *(last or first))


class ClassicName:
    def __init__(self, book: "ClassicBook", name: str, sheet: str, ref: str) -> None:
        self.name, self._book, self._at = name, book, (sheet, ref)

    @property
    def refers_to_range(self) -> ClassicRange:
        sheet, ref = self._at
        c1, r1, c2, r2 = range_boundaries(ref.replace("$", ""))
        return ClassicRange(self._book.sheets[sheet], r1, c1, r2, c2)


class ClassicNames(list):
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return next(n for n in self if n.name == key)
        return super().__getitem__(key)


class ClassicBook:
    def __init__(self, path: Path) -> None:
        self.wb = openpyxl.load_workbook(path, data_only=True)
        self.sheets = {ws.title: ClassicSheet(self, ws) for ws in self.wb.worksheets}
        self.names = ClassicNames(ClassicName(self, name, *next(iter(d.destinations)))
                                  for name, d in self.wb.defined_names.items() if list(d.destinations))
        self.writes: list[tuple[str, int, int, list[list[Any]]]] = []
