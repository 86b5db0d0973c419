"""``chessrating pair`` and ``check-pairings`` on workbooks: the whole path, file to file.

The events are made by gacrux's own random tournament generator (tests/gacrux_events.py:
10, 51 and 200 players; half- and zero-point byes, forfeits, absences, pairing-allocated
byes). An event as it stood before round k goes into the FIDE Swiss workbook either
through ``import-trf`` of its TRF file cut there, or typed into the shipped template with
openpyxl as a director types it; ``chessrating pair`` writes round k, and the round's cells,
read back with openpyxl through the template's ``RoundInputs`` name, must be the file's
round k. A refused round leaves every file byte for byte.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from gacrux_events import before_round, file_round, generated_trf
from openpyxl.utils import range_boundaries
from xlwings_book import SETTINGS, ClassicBook, event, run_lite, settings_event, type_inputs

from chessrating import scripts
from chessrating.cli import main
from chessrating.pairing import engine_version
from chessrating.pairing.book import points_text
from chessrating.tournament import Tournament, cell_result
from chessrating.trf import parse_trf, read_trf, write_trf
from chessrating.trf.export import export_trf
from chessrating.workbooks import fill_swiss

TEMPLATES = Path(__file__).resolve().parents[2] / "workbooks"
EVENTS = {  # players, rounds, event number, rates of zero-point byes, half-point byes, forfeits
    10: (10, 5, 13, ("0.02", "0.08", "0.05")),
    51: (51, 9, 13, ("0.02", "0.05", "0.04")),
    200: (200, 7, 16, ("0.03", "0.08", "0.05")),
}


@pytest.fixture(scope="module")
def events() -> dict[int, Tournament]:
    return {size: parse_trf(generated_trf(p, r, n, rates=rates)) for size, (p, r, n, rates) in EVENTS.items()}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def round_read_back(book: Path, r: int) -> tuple[set[tuple[int, int]], int | None, dict[int, str]]:
    """Round ``r`` as the workbook's cells hold it: boards (white, black), the player with
    U, and the others without an opponent, by their result cell."""
    wb = openpyxl.load_workbook(book, read_only=True)
    try:
        sheet, ref = next(iter(wb.defined_names["RoundInputs"].destinations))
        c1, r1, _, r2 = range_boundaries(ref.replace("$", ""))
        col = c1 + 3 * (r - 1)
        rows = wb[sheet].iter_rows(min_row=r1, max_row=r2, min_col=col, max_col=col + 2, values_only=True)
        return round_of_rows(rows)
    finally:
        wb.close()


def round_of_rows(rows: Any, blank: Any = None) -> tuple[set[tuple[int, int]], int | None, dict[int, str]]:
    """A round's Opp, Col and Res cells, a row per starting number, read as
    :func:`round_read_back` reads them; ``blank`` is what an empty cell holds."""
    boards, bye, absent = set(), None, {}
    for number, (opponent, colour, result) in enumerate(rows, start=1):
        opponent, result = (None if v == blank else v for v in (opponent, result))
        if opponent is not None and colour == "W":
            boards.add((number, opponent))
        elif opponent is None and result == "U":
            bye = number
        elif opponent is None and result is not None:
            absent[number] = {"B": "F"}.get(result, result)
        assert opponent is None or result is None, (number, result)   # results stay empty
    return boards, bye, absent


def cut_trf(event: Tournament, r: int, folder: Path, *, planned: bool = True) -> Path:
    """The event's TRF file as it stood before round ``r`` was paired; without its rounds
    record (142) unless ``planned``."""
    before = before_round(event, r)
    if not planned:
        before.headers.pop("142", None)
    path = folder / f"before-{r}.trf"
    path.write_text(write_trf(before), encoding="utf-8")
    return path


def typed_book(event: Tournament, r: int, folder: Path) -> Path:
    """The shipped Swiss template with the event before round ``r`` typed in by openpyxl:
    names and ratings, each round's opponent, colour and result (1 and 0 as numbers), a
    bye asked for in round ``r``, the rounds planned and the top board's colour."""
    wb = openpyxl.load_workbook(TEMPLATES / "fide-swiss.xlsx")
    crosstable, report = wb["Crosstable"], wb["Report"]
    report["G4"], report["G5"] = event.rounds, event.headers["152"][0].strip()
    for p in before_round(event, r).players:
        row = 4 + p.number
        crosstable.cell(row, 2, p.name)
        crosstable.cell(row, 5, p.rating)
        for g in p.games:
            col = 11 + 3 * (g.round - 1)
            if g.opponent is not None:
                crosstable.cell(row, col, g.opponent)
                crosstable.cell(row, col + 1, g.colour.upper())
            result = cell_result(g.code)
            if result:
                crosstable.cell(row, col + 2, int(result) if result in ("1", "0") else result)
    path = folder / f"typed-{r}.xlsx"
    wb.save(path)
    return path


# ------------------------------------------------------------------ the whole path


@pytest.mark.parametrize("size, r", [(10, 1), (10, 5), (51, 6), (200, 4)])
def test_a_round_paired_from_an_imported_trf_is_the_files(events, tmp_path, capsys, size, r):
    event = events[size]
    # the 51-player file loses its rounds record: --rounds says how many are planned
    planned = size != 51
    trf = cut_trf(event, r, tmp_path, planned=planned)
    book, paired = tmp_path / "event.xlsx", tmp_path / "paired.xlsx"
    rounds = [] if planned else ["--rounds", str(event.rounds)]
    assert main(["import-trf", str(trf), "-o", str(book), *rounds]) == 0
    summary = capsys.readouterr().out.splitlines()
    assert f"rounds: {event.rounds}" in summary
    assert f"rounds paired so far: {r - 1} (chessrating pair pairs the next)" in summary
    assert main(["pair", str(book), "-o", str(paired)]) == 0
    out = capsys.readouterr().out
    assert round_read_back(paired, r) == file_round(event, r)
    # the list: a line per board, White and Black each with the points before the round
    boards = file_round(event, r)[0]
    lines = out.splitlines()
    assert lines[0].startswith(f"Round {r}: FIDE Dutch system C.04.3")
    listed = [line for line in lines if line[:5].strip().isdigit()]
    assert [int(line[:5]) for line in listed] == list(range(1, len(boards) + 1))

    def before(number: int) -> str:
        return points_text(sum(g.points() for g in event.player(number).games[:r - 1]))
    shown = {(int(line[7:11]), int(line[48:52])): (line[41:45].strip(), line[82:86].strip()) for line in listed}
    assert set(shown) == boards
    assert all(points == (before(w), before(b)) for (w, b), points in shown.items())


@pytest.mark.parametrize("size, r", [(51, 9), (200, 2)])
def test_a_round_paired_from_a_typed_template_is_the_files(events, tmp_path, capsys, size, r):
    event = events[size]
    book = typed_book(event, r, tmp_path)
    assert main(["pair", str(book)]) == 0   # written as recalc names its output
    assert round_read_back(tmp_path / f"typed-{r}-recalc.xlsx", r) == file_round(event, r)
    assert "written:" in capsys.readouterr().err


def test_check_pairings_accepts_the_event_and_names_a_round_swapped_by_hand(events, tmp_path, capsys):
    event = events[10]
    trf = tmp_path / "whole.trf"
    trf.write_text(write_trf(event), encoding="utf-8")
    book = tmp_path / "whole.xlsx"
    assert main(["import-trf", str(trf), "-o", str(book)]) == 0
    capsys.readouterr()
    assert main(["check-pairings", str(book)]) == 0
    assert capsys.readouterr().out.startswith("rounds 1-5: every pairing agrees")
    # round 3: the Black players of two boards swapped, both rows of each game
    (a, b), (c, d) = sorted(file_round(event, 3)[0])[:2]
    wb = openpyxl.load_workbook(book)
    sheet = wb["Crosstable"]
    col = 11 + 3 * 2
    results = {n: sheet.cell(4 + n, col + 2).value for n in (a, b, c, d)}
    for white, black, result in ((a, d, results[a]), (c, b, results[c])):
        sheet.cell(4 + white, col).value, sheet.cell(4 + black, col).value = black, white
        sheet.cell(4 + black, col + 1).value = "B"
        sheet.cell(4 + black, col + 2).value = {1: 0, 0: 1, "+": "-", "-": "+"}.get(result, result)
    wb.save(book)
    assert main(["check-pairings", str(book)]) == 1
    out = capsys.readouterr().out.splitlines()
    ours, engines = out[0].removeprefix("round 3: the event pairs ").split("; the engine pairs ")
    assert sorted(ours.split(", ")) == sorted([f"{a}-{d}", f"{c}-{b}"])
    assert sorted(engines.split(", ")) == sorted([f"{a}-{b}", f"{c}-{d}"])
    assert out[-1].endswith("round(s) differ from the engine's pairing (gacrux "
                            f"{engine_version()}, FIDE Dutch system C.04.3)")


# ------------------------------------------------------------------ refusals


def test_a_refused_round_leaves_every_file_as_it_was(events, tmp_path, capsys):
    event = events[10]
    book, paired = tmp_path / "event.xlsx", tmp_path / "paired.xlsx"
    assert main(["import-trf", str(cut_trf(event, 3, tmp_path)), "-o", str(book)]) == 0
    assert main(["pair", str(book), "-o", str(paired)]) == 0
    capsys.readouterr()
    # round 3 is paired, not played: round 4 waits for its results
    before, other = digest(paired), tmp_path / "other.xlsx"
    shutil.copy(book, other)
    kept = digest(other)
    assert main(["pair", str(paired), "-o", str(other)]) == 1
    err = capsys.readouterr().err
    assert "refused: round 4 cannot be paired: round 3: no result for player" in err
    assert "Crosstable!S" in err and err.rstrip().endswith("nothing written")
    assert (digest(paired), digest(other)) == (before, kept)
    assert main(["pair", str(paired)]) == 1
    assert not (tmp_path / "paired-recalc.xlsx").exists()
    # a game whose two rows contradict each other: the Check column's cells are named
    wb = openpyxl.load_workbook(book)
    sheet = wb["Crosstable"]
    opponent = sheet.cell(5, 11).value
    sheet.cell(5, 13).value = sheet.cell(4 + opponent, 13).value = 1
    wb.save(book)
    before = digest(book)
    assert main(["pair", str(book), "-o", str(book)]) == 1
    err = capsys.readouterr().err
    assert "Crosstable!" in err and "check round 1: player 1" in err and "which do not add up" in err
    assert digest(book) == before
    assert main(["check-pairings", str(book)]) == 1
    assert "refused: round 1: results '1' of player" in capsys.readouterr().err


def test_us_chess_and_round_robin_workbooks_are_not_paired(tmp_path, capsys):
    uscf = tmp_path / "uscf.xlsx"
    shutil.copy(TEMPLATES / "uscf-event.xlsx", uscf)
    before = digest(uscf)
    assert main(["pair", str(uscf)]) == 1
    err = capsys.readouterr().err
    assert "US Chess pairs a Swiss by its own rules (rulebook chapter 2, rules 27-29)" in err
    assert digest(uscf) == before and not (tmp_path / "uscf-recalc.xlsx").exists()
    wb = openpyxl.load_workbook(TEMPLATES / "fide-round-robin.xlsx")
    for k in range(1, 5):
        wb["Crosstable"].cell(4 + k, 2, f"Player {k}")
    robin = tmp_path / "robin.xlsx"
    wb.save(robin)
    assert main(["pair", str(robin)]) == 1
    err = capsys.readouterr().err
    assert "FIDE's Berger tables (C.05 Annex 1) for 4 players" in err
    assert "  round 2: 4-3, 1-2" in err.splitlines()
    garbage = tmp_path / "garbage.xlsx"
    garbage.write_bytes(b"not a workbook")
    assert main(["pair", str(garbage)]) == 2
    assert main(["check-pairings", str(garbage)]) == 2


def test_the_report_sheets_pairing_inputs_are_read(tmp_path, capsys):
    """Round 1 of eight players typed into the shipped template: player 3 asks for a
    half-point bye (H in the result cell), player 8 never came (Withdrawn after round 0) and
    Black was drawn for the top board. The six others pair top half against bottom half,
    colours alternating from the top board (C.04.3 round 1): 5-1, 2-6, 7-4."""
    wb = openpyxl.load_workbook(TEMPLATES / "fide-swiss.xlsx")
    crosstable, report = wb["Crosstable"], wb["Report"]
    for k in range(1, 9):
        crosstable.cell(4 + k, 2, f"Player {k}")
        crosstable.cell(4 + k, 5, 2300 - 10 * k)
    crosstable["M7"] = "H"
    report["G5"], report["G4"], report["G26"] = "B", 5, 0
    book = tmp_path / "eight.xlsx"
    wb.save(book)
    assert main(["pair", str(book), "-o", str(book)]) == 0
    assert round_read_back(book, 1) == ({(5, 1), (2, 6), (7, 4)}, None, {3: "H"})
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["absent: 3 Player 3 (0): half-point bye (H)",
                        "absent: 8 Player 8 (0): not paired (withdrawn or not yet entered)"]
    assert main(["check-pairings", str(book)]) == 0


def test_excel_pairs_a_workbook_as_chessrating_pair_does(tmp_path, capsys):
    """One workbook with settings that are not the defaults on its Report sheet (6 of 7
    rounds planned, Black on top, Baku acceleration, a late entry, a withdrawal): the round
    ``chessrating pair`` writes, the round the Lite script writes through xlwings' own call
    path (blank cells as ""), and the round the classic macro writes into a COM-shaped book
    (blank cells as None, numbers as floats) are one round, the model's under the same
    settings; the pairing lists are the same lines."""
    t, expected = settings_event()
    book = type_inputs(fill_swiss(t, tmp_path / "settings.xlsx", recalculate=False), SETTINGS)
    out = tmp_path / "paired.xlsx"
    assert main(["pair", str(book), "-o", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    by_command = round_read_back(out, 3)
    assert by_command == (set(expected.boards), expected.bye, {})  # player 4: three empty cells
    assert (4, " ") in expected.absent and any(9 in board for board in expected.boards)
    [lite] = run_lite([book])["outcomes"]
    assert "error" not in lite, lite
    [action] = lite["actions"]
    assert round_of_rows(action["values"], blank="") == by_command
    classic = ClassicBook(book)
    lines = scripts.pair_book(classic)
    [(_, _, _, rows)] = classic.writes
    assert round_of_rows(rows) == by_command
    assert lines[:-1] == printed == lite["output"].splitlines()[:-1]


def test_the_rounds_planned_are_the_exported_files_rounds(tmp_path):
    """A Swiss of 9 round columns with 7 rounds planned (PairRounds) and 4 played: the TRF
    file says 7 rounds, as TRF-2026's record 142 and as TRF16's XXR (the record import-trf
    reads the rounds planned from); with PairRounds blank, the rounds played."""
    book = type_inputs(fill_swiss(event(8, 9, 4), tmp_path / "swiss.xlsx"), {"PairRounds": 7})
    sixteen = export_trf(book, tmp_path / "swiss.trf")
    lines = sixteen.output.read_text(encoding="utf-8").splitlines()
    assert lines[-1] == "XXR 7" and read_trf(sixteen.output).rounds == 7
    assert all(len(p.games) == 4 for p in read_trf(sixteen.output).players)
    assert read_trf(export_trf(book, tmp_path / "swiss26.trf", trf_format="trf26").output).headers["142"] == ["7"]
    blank = type_inputs(book, {"PairRounds": None})
    back = export_trf(blank, tmp_path / "blank.trf").output
    assert read_trf(back).rounds == 4 and not any(line.startswith("XXR") for line in back.read_text().splitlines())
