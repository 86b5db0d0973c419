"""Array formulas whose file holds only their first cell (tests/hostile/array_corpus.py):
a range the engine can fill is evaluated over every cell, as Excel shows it; one past
what it fills (a whole column) is named among recalc's problems (exit 1), never left
silently empty.
"""

from __future__ import annotations

import sys
from pathlib import Path

import openpyxl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
import array_corpus as corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402


def _values(path: Path) -> dict[str, object]:
    sheet = openpyxl.load_workbook(path, data_only=True)["Data"]
    return {c.coordinate: c.value for row in sheet.iter_rows() for c in row if c.value is not None}


def test_a_short_range_stored_in_its_first_cell_is_evaluated_over_the_range(tmp_path, capsys):
    src = corpus.make_partly_stored_array(tmp_path, 10)
    assert main(["recalc", str(src)]) == 1  # B3: "x"*2 is #VALUE!, as in Excel
    err = capsys.readouterr().err
    assert "Data!B3" in err and "not calculated whole" not in err
    got = _values(tmp_path / "partly-stored-10-recalc.xlsx")
    column = {f"B{r}": got.get(f"B{r}") for r in range(1, 11)}
    assert column == {"B1": 2, "B2": 10, "B3": "#VALUE!", **{f"B{r}": 0 for r in range(4, 11)}}


def test_a_whole_column_stored_in_its_first_cell_is_named(tmp_path, capsys):
    src = corpus.make_partly_stored_array(tmp_path, 1_048_576)
    assert main(["recalc", str(src)]) == 1
    err = capsys.readouterr().err
    assert ("1 formula(s) not calculated whole:\n  Data!B1: the array formula over B1:B1048576 "
            "is stored in 1 of its 1,048,576 cells; the others are left uncalculated") in err
    assert _values(tmp_path / "partly-stored-1048576-recalc.xlsx")["B1"] == 2
