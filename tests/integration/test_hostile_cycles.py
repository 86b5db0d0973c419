"""Cycles under ``chessrating recalc`` (files built by tests/hostile/cycle_corpus.py):
a cycle through names is a circular reference as a cycle of cells is, and iterative
calculation runs as Excel runs it — at most 32,767 iterations, of the cycle's cells only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import openpyxl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
import cycle_corpus as corpus  # noqa: E402

from chessrating.cli import main  # noqa: E402


def _recalc(capsys, src: Path, code: int) -> tuple[dict[str, object], str]:
    assert main(["recalc", str(src)]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    out = src.with_name(f"{src.stem}-recalc.xlsx")
    sheet = openpyxl.load_workbook(out, data_only=True)["Data"]
    return {c.coordinate: c.value for row in sheet.iter_rows() for c in row if c.value is not None}, err


def test_a_cycle_through_two_names_is_reported_as_a_circular_reference(tmp_path, capsys):
    got, err = _recalc(capsys, corpus.make_name_cycle(tmp_path), code=1)
    assert got["D1"] == 6
    for cell in ("A1", "B1", "C1"):  # an error, never the 0 a blank would give
        assert isinstance(got[cell], str) and "circular reference" in got[cell], (cell, got[cell])
    assert "Data!A1: circular reference: Data!A1 → name A → name B → name A" in err
    assert "Data!B1: circular reference: Data!B1 → name" in err


def test_a_settling_cycle_reaches_its_fixed_point(tmp_path, capsys):
    got, _ = _recalc(capsys, corpus.make_settling_cycle(tmp_path), code=0)
    assert abs(got["A1"] - 2) < 1e-6 and abs(got["B1"] - 2) < 1e-6
    assert abs(got["C1"] - 20) < 1e-5
    assert got["D1000"] == 1001


def test_an_iterate_count_past_excels_cap_runs_32767_iterations(tmp_path, capsys):
    # A1 = A2+1, A2 = A1: each iteration adds 1, so A1 counts the iterations run
    got, _ = _recalc(capsys, corpus.make_endless_cycle(tmp_path, 100_000), code=0)
    assert got["A1"] == 32_767 and got["A2"] == 32_766 and got["C1"] == 2 * 32_767
    assert got["D1000"] == 1001
