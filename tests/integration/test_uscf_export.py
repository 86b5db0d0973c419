"""export-uscf on whole workbooks (slow): the US Chess event workbook to the three DBF files.

The round trip: a section typed into the shipped template (openpyxl, as any program other
than Excel writes it: no recalculation) and the same section imported from a TRF file
(import-trf --system uscf) are exported, and the tables read back with dbfread, a reader
independent of the dbf library that writes them, give every round of every player as the
crosstable shows it. A real TRF file (tests/data/trf) makes the same trip.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import openpyxl
import pytest
from conftest import TRF_DATA
from dbfread import DBF

from chessrating.cli import main
from chessrating.trf import read_trf, save_trf
from chessrating.import_trf import lone_results_as_byes
from chessrating.uscf_report import FILE_NAMES, round_cell
from chessrating.uscf_report import writer as writer_module
from chessrating.uscf_report.source import Player, RoundGame, Tournament

SHIPPED = Path(__file__).resolve().parents[2] / "workbooks" / "uscf-event.xlsx"

# Six players, four rounds: a win and a loss, draws, a half-point and a full-point bye, a
# pairing-allocated bye (U, a full point in US Chess), a forfeit, an unrated player (5)
# and a player who withdrew after round 2 (6, his later rounds left blank).
# number: name, rating, [(opponent, colour, result) per round]
SECTION = {
    1: ("Doe, Jane", 1812, [(2, "W", 1), (3, "B", 0), (4, "W", "½"), (2, "B", 0)]),
    2: ("Roe, Richard", 1650, [(1, "B", 0), (None, None, "H"), (None, None, "U"), (1, "W", 1)]),
    3: ("Álvarez, José", 1500, [(4, "W", "½"), (1, "W", 1), (5, "W", 0), (None, None, "B")]),
    4: ("Smith, Ann", 1490, [(3, "B", "½"), (5, "B", 1), (1, "B", "½"), (5, "W", "½")]),
    5: ("Newcomer, Ned", None, [(6, "W", "+"), (4, "W", 0), (3, "B", 1), (4, "B", "½")]),
    6: ("Gone, Gary", 1400, [(5, "B", "-"), (None, None, "Z")]),
}
# Every round as US Chess reads it (docs/RULES.md §8): letter, opponent's number, colour;
# a round without a game the letter and 0; rounds after a withdrawal U0.
EXPECTED = {
    "1": ["W2W", "L3B", "D4W", "L2B"],
    "2": ["L1B", "H0", "B0", "W1W"],
    "3": ["D4W", "W1W", "L5W", "B0"],
    "4": ["D3B", "W5B", "D1B", "D5W"],
    "5": ["X0", "L4W", "W3B", "D4B"],
    "6": ["F0", "Z0", "U0", "U0"],
}
REPORT = {"ReportAffiliate": "A1234567", "ReportChiefTd": "12345678", "ReportAssistantTd": "23456789",
          "ReportCity": "Reno", "ReportState": "NV", "ReportZip": "89501",
          "ReportStart": dt.date(2026, 3, 7), "ReportEnd": dt.date(2026, 3, 8),
          "ReportTimeControl": "G/90;d5", "ReportSection": "Open", "ReportRatingSystem": "R"}
IDS = {n: f"3000000{n}" for n in SECTION}
STATES = {1: "NV", 2: "CA"}


def named_cell(book: openpyxl.Workbook, name: str, index: int = 0):  # type: ignore[no-untyped-def]
    """The cell of a workbook name (the ``index``-th of a range)."""
    sheet, ref = next(iter(book.defined_names[name].destinations))
    cells = book[sheet][ref.replace("$", "")]
    if isinstance(cells, tuple):
        return [c for row in cells for c in row][index]
    return cells


def fill_report(book: openpyxl.Workbook, report: dict, ids: dict[int, str], states: dict[int, str]) -> None:
    for name, value in report.items():
        named_cell(book, name).value = value
    for number, member in ids.items():
        named_cell(book, "UscfIds", number - 1).value = member
    for number, state in states.items():
        named_cell(book, "PlayerStates", number - 1).value = state


def typed_section(path: Path) -> Path:
    """The shipped template, filled as a director types the section (no recalculation)."""
    book = openpyxl.load_workbook(SHIPPED)
    ws = book["Crosstable"]
    ws["B2"] = "Reno Spring Open"
    for number, (name, rating, games) in SECTION.items():
        row = 4 + number
        ws.cell(row, 2, name)
        ws.cell(row, 3, rating)
        for k, (opponent, colour, result) in enumerate(games):
            col = 10 + 3 * k  # Opp, Col, Res from column J
            ws.cell(row, col, opponent)
            ws.cell(row, col + 1, colour)
            ws.cell(row, col + 2, result)
    fill_report(book, REPORT, IDS, STATES)
    book.save(path)
    return path


def read(folder: Path, name: str) -> list[dict]:
    return [dict(r) for r in DBF(str(folder / name), encoding="ascii")]


def rounds_of(folder: Path) -> dict[str, list[str]]:
    players = read(folder, "TDEXPORT.DBF")
    count = len([k for k in players[0] if k.startswith("D_RND")])
    return {r["D_PAIR_NUM"]: [r[f"D_RND{n:02d}"] for n in range(1, count + 1)] for r in players}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_template_has_a_report_sheet_with_choices() -> None:
    book = openpyxl.load_workbook(SHIPPED)
    assert book.sheetnames == ["Crosstable", "Standings", "Games", "Report", "How to use", "xlwings.conf"]
    ws = book["Report"]
    assert named_cell(book, "ReportCountry").value == "USA"  # the default
    assert named_cell(book, "ReportRatingSystem").value is None  # chosen, never assumed
    assert book.defined_names["UscfIds"].attr_text == "Report!$C$18:$C$117"  # a cell per crosstable row
    assert ws["B18"].value == '=IF(Crosstable!$B$5="","",Crosstable!$B$5)'
    lists = {str(dv.sqref): dv.formula1 for dv in ws.data_validations.dataValidation if dv.type == "list"}
    assert lists["B15"] == '"R,D,Q"'
    states = lists["B8"].strip('"').split(",")
    assert len(states) == 59 and {"NV", "CA", "DC", "PR"} <= set(states) and lists["D18:D117"] == lists["B8"]
    lengths = {str(dv.sqref): (dv.operator, dv.formula1) for dv in ws.data_validations.dataValidation
               if dv.type == "textLength"}
    # the widths of the report's fields (docs/USCF-DBF.md): IDs of 8, city 21, section 30
    assert (lengths["B4"], lengths["B5"], lengths["C18:C117"]) == (("equal", "8"),) * 3
    assert (lengths["B7"], lengths["B14"]) == (("lessThanOrEqual", "21"), ("lessThanOrEqual", "30"))
    assert ws["C18"].number_format == "@"  # an ID or a ZIP code keeps its leading zeros


def test_a_section_typed_into_the_template_reads_back_round_for_round(tmp_path: Path, capsys) -> None:
    book = typed_section(tmp_path / "reno.xlsx")
    out = tmp_path / "report"
    assert main(["export-uscf", str(book), "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"written: THEXPORT.DBF, TSEXPORT.DBF, TDEXPORT.DBF in {out}",
                     "players: 6 (5 rated), rounds: 4", "pre-flight check: 0 problem(s)"]
    assert sorted(os.listdir(out)) == sorted(FILE_NAMES)
    assert rounds_of(out) == EXPECTED
    players = {r["D_PAIR_NUM"]: r for r in read(out, "TDEXPORT.DBF")}
    assert [(r["D_NAME"], r["D_RATING"], r["D_MEM_ID"], r["D_STATE"]) for r in players.values()] == [
        ("Doe, Jane", "1812", "30000001", "NV"), ("Roe, Richard", "1650", "30000002", "CA"),
        ("Alvarez, Jose", "1500", "30000003", ""), ("Smith, Ann", "1490", "30000004", ""),
        ("Newcomer, Ned", "0", "30000005", ""), ("Gone, Gary", "1400", "30000006", "")]
    (event,) = read(out, "THEXPORT.DBF")
    assert (event["H_NAME"], event["H_CITY"], event["H_STATE"], event["H_ZIPCODE"], event["H_AFF_ID"],
            event["H_CTD_ID"], event["H_ATD_ID"], event["H_BEG_DATE"], event["H_END_DATE"]) == (
        "Reno Spring Open", "Reno", "NV", "89501", "A1234567", "12345678", "23456789",
        dt.date(2026, 3, 7), dt.date(2026, 3, 8))
    (section,) = read(out, "TSEXPORT.DBF")
    assert (section["S_SEC_NAME"], section["S_R_SYSTEM"], section["S_TIMECTL"], section["S_TOT_RNDS"],
            section["S_LST_PAIR"]) == ("Open", "R", "G/90;d5", "4", "6")
    # without -o: a folder beside the workbook
    assert main(["export-uscf", str(book)]) == 0
    assert rounds_of(tmp_path / "reno-uscf") == EXPECTED


def test_the_check_names_each_problem_and_nothing_is_written(tmp_path: Path, capsys) -> None:
    book = typed_section(tmp_path / "reno.xlsx")
    out = tmp_path / "report"
    assert main(["export-uscf", str(book), "-o", str(out)]) == 0
    before = snapshot(out)
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    ws["E2"] = True           # Dual rated, while the Report sheet says R
    ws["N8"] = None           # Smith's colour against Newcomer in round 2 (Opp M, Col N, Res O)
    ws["O9"] = 1              # Newcomer writes a win where Smith wrote one too
    named_cell(wb, "UscfIds", 2).value = "3000003"
    named_cell(wb, "ReportZip").value = None
    wb.save(book)
    capsys.readouterr()
    assert main(["export-uscf", str(book), "-o", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "nothing written: US Chess would reject the report or rate it wrong until these are fixed in reno.xlsx",
        "players: 6 (5 rated), rounds: 4",
        "pre-flight check: 5 problem(s)",
        "  event: rating system: R but the crosstable's Dual rated is TRUE: D exactly when the event is dual rated",
        "  event: ZIP code: missing",
        "  player 3 Álvarez, José: US Chess ID: '3000003' is not 8 digits",
        "  player 4 Smith, Ann: round 2: result W against player 5, whose row gives W: the two sides disagree",
        "  player 4 Smith, Ann: round 2: a game without colour (w or b)",
    ]
    assert snapshot(out) == before  # the earlier report stays as it was
    assert not (tmp_path / "elsewhere").exists()
    assert main(["export-uscf", str(book), "-o", str(tmp_path / "elsewhere")]) == 1
    assert not (tmp_path / "elsewhere").exists()


def test_a_second_export_replaces_the_three_and_a_failed_one_leaves_them(tmp_path: Path, capsys,
                                                                         monkeypatch) -> None:
    book = typed_section(tmp_path / "reno.xlsx")
    out = tmp_path / "report"
    assert main(["export-uscf", str(book), "-o", str(out)]) == 0
    wb = openpyxl.load_workbook(book)
    wb["Crosstable"]["B2"] = "Reno Spring Open II"
    wb.save(book)
    assert main(["export-uscf", str(book), "-o", str(out)]) == 0
    assert sorted(os.listdir(out)) == sorted(FILE_NAMES)  # no staging folder left behind
    assert read(out, "THEXPORT.DBF")[0]["H_NAME"] == "Reno Spring Open II"
    before = snapshot(out)
    real_write = writer_module.write_table

    def failing_write(path, fields, rows):  # type: ignore[no-untyped-def]
        if path.name == "TDEXPORT.DBF":
            raise OSError(28, "No space left on device")
        real_write(path, fields, rows)

    monkeypatch.setattr(writer_module, "write_table", failing_write)
    wb["Crosstable"]["B2"] = "Reno Spring Open III"
    wb.save(book)
    capsys.readouterr()
    assert main(["export-uscf", str(book), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"chessrating export-uscf: error: output: {str(out)!r} cannot be written "
                           "(No space left on device)")
    assert snapshot(out) == before


def test_the_output_never_overwrites_an_input(tmp_path: Path, capsys) -> None:
    book = typed_section(tmp_path / "reno.xlsx")
    kept = book.read_bytes()
    assert main(["export-uscf", str(book), "-o", str(book)]) == 2
    assert "names a file" in capsys.readouterr().err
    notes = tmp_path / "notes"
    notes.write_text("mine")
    assert main(["export-uscf", str(book), "-o", str(notes)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    # a workbook saved under a report file's name, in the folder the report would go to
    folder = tmp_path / "report"
    folder.mkdir()
    shutil.copy(book, folder / "TDEXPORT.DBF")
    assert main(["export-uscf", str(folder / "TDEXPORT.DBF"), "-o", str(folder)]) == 2
    assert "is the workbook itself" in capsys.readouterr().err
    assert (folder / "TDEXPORT.DBF").read_bytes() == kept and os.listdir(folder) == ["TDEXPORT.DBF"]
    assert (book.read_bytes(), notes.read_text()) == (kept, "mine")


def section_trf(path: Path) -> Path:
    """The same section as a TRF-2026 file from a pairing program: the players' US Chess IDs
    and states in its USA national records."""
    players = []
    for number, (name, rating, games) in SECTION.items():
        codes = {1: "1", 0: "0", "½": "=", "+": "+", "-": "-", "H": "H", "B": "F", "U": "U", "Z": "Z"}
        players.append(Player(number, name, rating=rating, games=[
            RoundGame(k, opponent, colour.lower() if colour else None, codes[result])
            for k, (opponent, colour, result) in enumerate(games, start=1)]))
    # TRF-2026 national record: federation, number (5-8), sex, title, name (15-47),
    # rating (49-52), origin (54-56), national ID (58-68)
    records = [f"USA {n:>4}{'':6}{SECTION[n][0]:<33} {SECTION[n][1] or 0:>4} {STATES.get(n, ''):<3} {IDS[n]:<11}"
               for n in SECTION]
    t = Tournament(name="Reno Spring Open", city="Reno", federation="USA", start_date=dt.date(2026, 3, 7),
                   end_date=dt.date(2026, 3, 8), time_control="G/90;d5", rounds=4, players=players,
                   extra_lines=records)
    save_trf(t, path)
    return path


def test_a_section_made_by_import_trf_reads_back_round_for_round(tmp_path: Path, capsys) -> None:
    source = section_trf(tmp_path / "reno.trf")
    book = tmp_path / "reno.xlsx"
    assert main(["import-trf", str(source), "-o", str(book), "--system", "uscf"]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    # the colours of the file are in the crosstable, each round's Col column
    for number, (_, _, games) in SECTION.items():
        shown = [(ws.cell(4 + number, 10 + 3 * k).value, ws.cell(4 + number, 11 + 3 * k).value)
                 for k in range(len(games))]
        assert shown == [(o, c) for o, c, _ in games], number
    # the Report sheet holds what the file has: place, dates, time control, IDs, states
    assert [named_cell(wb, n).value for n in ("ReportCity", "ReportCountry", "ReportTimeControl")] == [
        "Reno", "USA", "G/90;d5"]
    assert named_cell(wb, "ReportStart").value == dt.datetime(2026, 3, 7)
    assert [named_cell(wb, "UscfIds", n - 1).value for n in SECTION] == list(IDS.values())
    assert [named_cell(wb, "PlayerStates", n - 1).value for n in SECTION] == ["NV", "CA", None, None, None, None]
    # no TRF record holds the affiliate, the TDs' IDs, state, ZIP code, section or system
    capsys.readouterr()
    assert main(["export-uscf", str(book), "-o", str(tmp_path / "report")]) == 1
    listed = capsys.readouterr().out
    for field in ("affiliate ID", "chief TD ID", "state", "ZIP code", "section name", "rating system"):
        assert f"event: {field}: missing" in listed
    fill_report(wb, {k: v for k, v in REPORT.items() if k in ("ReportAffiliate", "ReportChiefTd", "ReportState",
                                                                 "ReportZip", "ReportSection", "ReportRatingSystem")},
                {}, {})
    wb.save(book)
    assert main(["export-uscf", str(book), "-o", str(tmp_path / "report")]) == 0
    assert rounds_of(tmp_path / "report") == EXPECTED


def test_a_real_trf_imported_reads_back_round_for_round(trf_import, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # javafo_sample2.trf: a real open (Donostia 2010), 52 players, byes, forfeits, unrated players
    code, imported = trf_import("javafo_sample2.trf", "--system", "uscf")
    assert code == 0
    original = lone_results_as_byes(read_trf(TRF_DATA / "javafo_sample2.trf"))
    book = tmp_path / imported.name
    shutil.copy(imported, book)
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    for p in original.players:  # the file writes "Last First"; US Chess wants LAST, FIRST
        if "," not in p.name:
            ws.cell(4 + p.number, 2).value = p.name.replace(" ", ", ", 1)
    fill_report(wb, REPORT, {p.number: f"{20000000 + p.number}" for p in original.players}, {})
    wb.save(book)
    capsys.readouterr()
    code = main(["export-uscf", str(book), "-o", str(tmp_path / "report")])
    assert code == 0, capsys.readouterr().out
    rounds = max(len(p.games) for p in original.players)
    expected = {str(p.number): [round_cell(p.game(r)) for r in range(1, rounds + 1)] for p in original.players}
    assert rounds_of(tmp_path / "report") == expected
    ratings = {r["D_PAIR_NUM"]: r["D_RATING"] for r in read(tmp_path / "report", "TDEXPORT.DBF")}
    assert ratings == {str(p.number): str(p.rating or 0) for p in original.players}


def test_help_and_refusals(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "export-uscf" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["export-uscf", "--help"])
    out = capsys.readouterr().out
    assert "THEXPORT.DBF" in out and "Exit code 0" in out and "-o DIR" in out
    # a FIDE workbook is not a US Chess one: nothing written, exit 2, one line naming it
    fide = SHIPPED.with_name("fide-swiss.xlsx")
    assert main(["export-uscf", str(fide), "-o", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"chessrating export-uscf: error: book: {str(fide)!r} is not a US Chess crosstable (no Games "
                   "so far column); export-uscf reads the US Chess event workbook")
    assert not (tmp_path / "r").exists()
    assert main(["export-uscf", str(tmp_path / "missing.xlsx")]) == 2
    assert "does not exist" in capsys.readouterr().err
