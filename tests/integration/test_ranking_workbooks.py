"""Rank and tie-break columns in the crosstables, as a director sees them.

Each workbook is checked against the rating core computed from the event itself, not from
the workbook: the demo's round robin (4th Sinquefield Cup 2016) from its data file, an
imported Swiss from the TRF model. A code changed at the top recalculates its column.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest

from chessrating import tiebreaks
from chessrating.tiebreaks import event as tiebreaks_event
from chessrating.recalc import recalculate
from chessrating.trf import read_trf
from chessrating.workbooks.event import load_demo_event
from chessrating.workbooks.ranking import TIEBREAK_COLUMNS
from conftest import TRF_DATA

pytestmark = pytest.mark.slow  # builds, imports and recalculates whole workbooks


def _table(path: Path) -> dict[str, list]:
    """The Crosstable's player rows by header (the header row holds 'Name' in column B)."""
    sheet = openpyxl.load_workbook(path, data_only=True)["Crosstable"]
    header = next(r for r in range(1, 10) if sheet.cell(r, 2).value == "Name")
    first = header + 1 if sheet.cell(header + 1, 1).value == 1 else header + 2
    last = first
    while isinstance(sheet.cell(last + 1, 1).value, int):  # the player rows, to the first gap
        last += 1
    columns: dict[str, list] = {}
    for col in range(1, sheet.max_column + 1):
        title = sheet.cell(header, col).value
        if isinstance(title, str) and title not in columns:
            columns[title] = [sheet.cell(r, col).value for r in range(first, last + 1)]
    return columns


def _codes(path: Path) -> list[str]:
    book = openpyxl.load_workbook(path, data_only=True)
    codes = []
    for slot in range(1, len(TIEBREAK_COLUMNS) + 1):
        sheet_name, ref = next(iter(book.defined_names[f"TieBreak{slot}"].destinations))
        codes.append(book[sheet_name][ref.replace("$", "")].value or "")
    return codes


def _rules(path: Path) -> str:
    book = openpyxl.load_workbook(path, data_only=True)
    sheet_name, ref = next(iter(book.defined_names["TieBreakRules"].destinations))
    return str(book[sheet_name][ref.replace("$", "")].value)


def _expected(event: tiebreaks_event.Event, codes: list[str], points: list[float],
              rules: str = "2026") -> tuple[dict[str, list], list[int]]:
    # Each column is handed the codes up to its own: DE among players equal on all before it.
    used = [code for code in codes if code]
    columns = {code: tiebreaks.tiebreak(used[:k + 1], event, rules) for k, code in enumerate(used)}
    return columns, tiebreaks.ranks(points, [columns[c] for c in codes if c])


def test_demo_round_robin_is_ranked_by_the_round_robin_defaults(demo_book: Path):
    demo = load_demo_event()
    codes = _codes(demo_book)
    assert codes == list(tiebreaks.FIDE_ROUND_ROBIN_DEFAULTS)
    table = _table(demo_book)
    assert all(code in table for code in codes)  # each column headed by its code
    event = tiebreaks_event.from_grid([[value or None for value in row] for row in demo.results])
    points = [sum({"1": 1.0, "½": 0.5, "0": 0.0}.get(v, 0.0) for v in row) for row in demo.results]
    assert table["Points"] == points
    columns, ranks = _expected(event, codes, points, rules="2024")  # 2016: the older edition
    for code in codes:
        assert table[code] == pytest.approx(columns[code]), code
    assert table["Rank"] == ranks
    # Published: So first alone on 5.5, Giri last alone on 3.
    assert table["Rank"][0] == 1 and table["Rank"][-1] == 10


def test_imported_swiss_matches_the_core_on_the_trf_itself(trf_import):
    code, book = trf_import("javafo_sample2.trf")
    assert code == 0
    tournament = read_trf((TRF_DATA / "javafo_sample2.trf").read_bytes())
    count = max(p.number for p in tournament.players)
    event = tiebreaks_event.from_tournament(tournament)
    table = _table(book)
    codes = _codes(book)
    assert codes == list(tiebreaks.FIDE_SWISS_DEFAULTS)
    points = [p if isinstance(p, (int, float)) else None for p in table["Points"]][:count]
    # The edition in force on the event's first day (C.07 2024 before 1 March 2026).
    start = tournament.start_date
    assert _rules(book) == ("2026" if start is None or start >= dt.date(2026, 3, 1) else "2024")
    columns, ranks = _expected(event, codes, points, _rules(book))
    for code in codes:
        shown = table[code][:count]
        assert [v for v, p in zip(shown, points) if p is not None] == pytest.approx(
            [v for v, p in zip(columns[code], points) if p is not None]), code
    assert [r for r, p in zip(table["Rank"][:count], points) if p is not None] == \
        [r for r, p in zip(ranks, points) if p is not None]


def test_a_code_changed_at_the_top_recalculates_its_column(demo_book: Path, tmp_path: Path):
    book = openpyxl.load_workbook(demo_book)
    sheet_name, ref = next(iter(book.defined_names["TieBreak1"].destinations))
    copy = tmp_path / "changed.xlsx"
    shutil.copy(demo_book, copy)
    # Change the code as a user would, in the file itself (openpyxl keeps formulas).
    book[sheet_name][ref.replace("$", "")].value = "WIN"
    book.save(copy)
    out = tmp_path / "changed-recalc.xlsx"
    recalculate(copy, out)
    table = _table(out)
    demo = load_demo_event()
    event = tiebreaks_event.from_grid([[value or None for value in row] for row in demo.results])
    assert _codes(out) == ["WIN", "SB", "WIN", "KS"]
    assert "DE" not in table  # the first column's header follows its new code
    assert table["WIN"] == tiebreaks.tiebreak("WIN", event, "2024")
    # ... and the ranks follow it: points, then WIN, SB, WIN, KS.
    points = [sum({"1": 1.0, "½": 0.5, "0": 0.0}.get(v, 0.0) for v in row) for row in demo.results]
    _, ranks = _expected(event, ["WIN", "SB", "WIN", "KS"], points, rules="2024")
    assert table["Rank"] == ranks


def test_demo_prints_the_ranking_it_used(demo_command):
    first = demo_command.out.splitlines()[0]
    assert first == "Ranked by points, then " + ", ".join(tiebreaks.FIDE_ROUND_ROBIN_DEFAULTS) + \
        " (Rank column; tie-break rules 2024)"  # a 2016 event: the oldest edition implemented


def test_imported_us_chess_event_is_ranked_by_us_chess_tiebreaks(trf_import):
    code, book = trf_import("javafo_sample2.trf", "--system", "uscf")
    assert code == 0
    codes = _codes(book)
    assert codes == [*tiebreaks.USCF_DEFAULTS, ""]
    tournament = read_trf((TRF_DATA / "javafo_sample2.trf").read_bytes())
    count = max(p.number for p in tournament.players)
    event = tiebreaks_event.from_tournament(tournament)
    table = _table(book)
    points = [p if isinstance(p, (int, float)) else None for p in table["Points"]][:count]
    columns, ranks = _expected(event, codes, points)
    played = [i for i, p in enumerate(points) if p is not None]
    for code in tiebreaks.USCF_DEFAULTS:
        assert [table[code][i] for i in played] == pytest.approx([columns[code][i] for i in played]), code
    assert [table["Rank"][i] for i in played] == [ranks[i] for i in played]


def test_import_takes_the_tiebreaks_a_trf26_file_names(tmp_path: Path, capsys):
    from chessrating.cli import main

    text = (TRF_DATA / "javafo_sample2.trf").read_text(encoding="latin-1")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    named = tmp_path / "named.trf"
    named.write_text("\n".join([*lines[:at], "202 SB,WIN,BH/M1", *lines[at:]]) + "\n", encoding="latin-1")
    assert main(["import-trf", str(named), "-o", str(tmp_path / "named.xlsx")]) == 0
    out = capsys.readouterr().out
    assert "tie-breaks: SB, WIN, BH/M1 (the file's 202 record)" in out.splitlines()
    assert "Ranked by points, then SB, WIN, BH/M1 (Rank column; " in out
    assert _codes(tmp_path / "named.xlsx") == ["SB", "WIN", "BH/M1", ""]
