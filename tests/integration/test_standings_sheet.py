"""The Standings sheet and the print areas, on books filled as a director types them.

The shipped templates (a fresh build of them) are filled with openpyxl cell by cell, as
a director types: an 11-player and a 40-player Swiss, a 10-player round robin and a
30-player US Chess section, each with the Berger table's pairings and results spread by
a fixed rule; and one imported TRF file. Each is recalculated by ``chessrating recalc``
and printed to PDF by LibreOffice headless. Checked: the Standings lines come in rank
order, each equal to its player's Crosstable cells; LibreOffice computes the Standings
formulas as our engine does; each sheet prints only the rows entered (every page shows
a player), the Standings on one page (two at most for 40 and more), every sheet on at most
the pages of :data:`PAGES` and at 7 pt or more, a crosstable across before down, the
headers on every page and never broken inside a word.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from chessrating.recalc import recalculate
from chessrating.tournament import berger_rounds

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = [pytest.mark.slow,
              # openpyxl cannot read a print area given as a formula (it warns and leaves it out)
              pytest.mark.filterwarnings("ignore:Print area cannot be set"),
              pytest.mark.skipif(SOFFICE is None or shutil.which("pdftotext") is None,
                                 reason="LibreOffice and poppler-utils are needed")]

FIRST = 5  # the first player row of every crosstable (1-based)
BACK = {1: 0, 0: 1, "½": "½"}


def _result(white: int, black: int, rnd: int) -> Any:
    """White's result: wins, losses and draws spread over the boards by a fixed rule."""
    h = (white * 7 + black * 13 + rnd * 5) % 10
    return 1 if h < 4 else (0 if h < 7 else "½")


def _type(cell: Any, value: Any) -> None:
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"  # typed text stays text


def _fill_rounds(ws: Any, players: int, rounds: int, first_round_col: int) -> None:
    """Opponent, colour and result per round from the Berger table of ``players`` (a
    valid Swiss draw: no pair meets twice); the odd player out gets U."""
    table = berger_rounds(players)
    for rnd in range(rounds):
        c = first_round_col + 3 * rnd
        for white, black in table[rnd]:
            if 0 in (white, black):
                _type(ws.cell(FIRST - 1 + (white or black), c + 2), "U")
                continue
            res = _result(white, black, rnd)
            for me, opp, colour, mine in ((white, black, "W", res), (black, white, "B", BACK[res])):
                row = FIRST - 1 + me
                ws.cell(row, c).value = opp
                _type(ws.cell(row, c + 1), colour)
                ws.cell(row, c + 2).value = mine if mine != "½" else None
                if mine == "½":
                    _type(ws.cell(row, c + 2), "½")


def fill_swiss(template: Path, out: Path, players: int, rounds: int) -> Path:
    book = openpyxl.load_workbook(template)
    ws = book["Crosstable"]
    for i in range(players):
        _type(ws.cell(FIRST + i, 2), f"Player {i + 1:02d}")
        ws.cell(FIRST + i, 5).value = 2400 - 17 * i
        ws.cell(FIRST + i, 6).value = 100  # rated games: no assumption
    _fill_rounds(ws, players, rounds, 11)
    book.save(out)
    return out


def fill_uscf(template: Path, out: Path, players: int, rounds: int) -> Path:
    book = openpyxl.load_workbook(template)
    ws = book["Crosstable"]
    for i in range(players):
        _type(ws.cell(FIRST + i, 2), f"Player {i + 1:02d}")
        ws.cell(FIRST + i, 3).value = 2200 - 23 * i
        ws.cell(FIRST + i, 4).value = 60
    _fill_rounds(ws, players, rounds, 10)
    book.save(out)
    return out


def fill_round_robin(template: Path, out: Path, players: int) -> Path:
    book = openpyxl.load_workbook(template)
    ws = book["Crosstable"]
    for i in range(players):
        _type(ws.cell(FIRST + i, 2), f"Player {i + 1:02d}")
        ws.cell(FIRST + i, 5).value = 2500 - 20 * i
        ws.cell(FIRST + i, 6).value = 100
    for rnd in berger_rounds(players):
        for white, black in rnd:
            res = _result(white, black, 0)
            for me, opp, mine in ((white, black, res), (black, white, BACK[res])):
                _type(ws.cell(FIRST - 1 + me, 10 + opp), mine) if mine == "½" else \
                    setattr(ws.cell(FIRST - 1 + me, 10 + opp), "value", mine)
    book.save(out)
    return out


# book -> (players entered, the most pages its Standings may take)
BOOKS = {"swiss-11": (11, 1), "swiss-40": (40, 2), "round-robin-10": (10, 1), "uscf-30": (30, 1),
         "imported": (None, 2)}


def _calibration(folder: Path) -> Path:
    import xlsxwriter

    path = folder / "calibration.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Calibration").write_string(0, 0, "Calibri eleven")
    book.close()
    return path


@pytest.fixture(scope="module")
def books(tmp_path_factory, built_templates, trf_import) -> dict[str, Path]:
    """Each book filled, recalculated by ``chessrating recalc`` and printed to PDF."""
    folder = tmp_path_factory.mktemp("standings")
    typed = {
        "swiss-11": fill_swiss(built_templates["fide-swiss.xlsx"], folder / "swiss-11-typed.xlsx", 11, 5),
        "swiss-40": fill_swiss(built_templates["fide-swiss.xlsx"], folder / "swiss-40-typed.xlsx", 40, 7),
        "round-robin-10": fill_round_robin(built_templates["fide-round-robin.xlsx"],
                                           folder / "round-robin-10-typed.xlsx", 10),
        "uscf-30": fill_uscf(built_templates["uscf-event.xlsx"], folder / "uscf-30-typed.xlsx", 30, 5),
    }
    code, imported = trf_import("javafo_sample2.trf")
    assert code == 0
    typed["imported"] = Path(shutil.copy(imported, folder / "imported-typed.xlsx"))
    done = {name: recalculate(path, folder / f"{name}.xlsx").output for name, path in typed.items()}
    subprocess.run([SOFFICE, f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
                    "--norestore", "--convert-to", "pdf", "--outdir", str(folder / "pdf"),
                    *map(str, done.values()), str(_calibration(folder))],
                   check=True, capture_output=True, timeout=900)
    return done


def _pages(pdf: Path) -> list[tuple[str, list[tuple[float, float, float, float, str]]]]:
    """Each page: the sheet its footer names, and its words' boxes (footer left out)."""
    import xml.etree.ElementTree as ET

    xhtml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True).stdout
    space = "{http://www.w3.org/1999/xhtml}"
    pages = []
    for page in ET.fromstring(xhtml).iter(f"{space}page"):
        height = float(page.get("height"))
        words = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")),
                  w.text or "") for w in page.iter(f"{space}word")]
        marks = [w for w in words if w[4] == "Page" and w[1] > height - 40]
        if not marks:
            pages.append(("", words))
            continue
        mark = max(marks, key=lambda w: w[1])
        footer = sorted((w for w in words if abs(w[1] - mark[1]) < 1 and w[2] <= mark[0]), key=lambda w: w[0])
        pages.append((" ".join(w[4] for w in footer), [w for w in words if abs(w[1] - mark[1]) >= 1]))
    return pages


@pytest.fixture(scope="module")
def printed(books) -> dict[str, Any]:
    folder = next(iter(books.values())).parent / "pdf"
    found: dict[str, Any] = {name: _pages(folder / f"{name}.pdf") for name in books}
    (calibration,) = _pages(folder / "calibration.pdf")
    found["per_point"] = (calibration[1][0][3] - calibration[1][0][1]) / 11
    return found


def _lines(book: Path) -> tuple[list[list[Any]], Any]:
    values = openpyxl.load_workbook(book, data_only=True)
    sheet = values["Standings"]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=3)]
    return rows, values


def _headers(values: Any) -> list[str]:
    return [c.value for c in values["Standings"][2] if c.value not in (None, "Key", "Place")]


@pytest.mark.parametrize("name", list(BOOKS))
def test_standings_come_in_rank_order_and_equal_the_crosstable(books, name: str):
    rows, values = _lines(books[name])
    cross = values["Crosstable"]
    header_rows = (3, 4)
    where: dict[str, int] = {}
    for r in header_rows:
        for c in cross[r]:
            if isinstance(c.value, str) and c.value not in where:
                where[c.value] = c.column
    headers = _headers(values)
    # the tie-break columns headed as the Crosstable heads them
    assert headers[headers.index("Points") + 1:headers.index("Change")] == \
        [cross.cell(header_rows[0] if name != "round-robin-10" else 4, where["Rank"] + k).value for k in (1, 2, 3, 4)]
    # the crosstable's player rows: as many as the Standings lines (a grid may follow them)
    entered = [r for r in range(FIRST, FIRST + len(rows)) if cross.cell(r, 2).value not in (None, "")]
    players = BOOKS[name][0] or len(entered)
    assert len(entered) == players
    shown = [row for row in rows if row[1] not in (None, "")]
    assert len(shown) == players
    # lines past the players entered are blank, not zeros or errors
    assert all(all(v in (None, "") for v in row[:len(headers)]) for row in rows[players:])
    ranks = [row[0] for row in shown]
    assert all(isinstance(rank, (int, float)) for rank in ranks), ranks
    assert ranks == sorted(ranks)
    # within a tie, starting numbers ascend; every player once
    assert [row[1] for row in shown] == [row[1] for row in sorted(shown, key=lambda row: (row[0], row[1]))]
    assert sorted(row[1] for row in shown) == list(range(1, players + 1))
    source = {"New rating": "Two passes" if name.startswith("uscf") else "New rating"}
    for row in shown:
        cross_row = FIRST - 1 + row[1]
        for col, header in enumerate(headers):
            if header in ("No.",):
                continue
            at = where.get(source.get(header, header)) if col < headers.index("Points") + 1 or \
                col > headers.index("Points") + 4 else where["Rank"] + col - headers.index("Points")
            expected = cross.cell(cross_row, at).value
            assert row[col] in (None, "") if expected in (None, "") else row[col] == expected, \
                (name, row[1], header, row[col], expected)


@pytest.mark.parametrize("name", ["swiss-11", "uscf-30"])
def test_libreoffice_computes_the_standings_as_the_engine(books, tmp_path, name: str):
    """The Crosstable as plain values (no rating functions), the Standings formulas without
    cached values: LibreOffice computes them on opening and gives the engine's values."""
    formulas = openpyxl.load_workbook(books[name])
    values = openpyxl.load_workbook(books[name], data_only=True)
    for sheet in list(formulas.sheetnames):
        if sheet not in ("Crosstable", "Standings"):
            del formulas[sheet]
    for row in formulas["Crosstable"].iter_rows():
        for c in row:
            if c.__class__.__name__ == "Cell":
                c.value = values["Crosstable"][c.coordinate].value
    formulas.move_sheet("Standings", offset=-1)
    plain = tmp_path / "plain.xlsx"
    formulas.save(plain)
    subprocess.run([SOFFICE, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}", "--headless",
                    "--norestore", "--convert-to", "csv", "--outdir", str(tmp_path), str(plain)],
                   check=True, capture_output=True, timeout=300)
    with (tmp_path / "plain.csv").open(encoding="utf-8", newline="") as handle:
        shown = list(csv.reader(handle))
    engine, _ = _lines(books[name])
    compared = 0
    for line, row in zip(shown[2:], engine):
        for text, value in zip(line, row[:13]):
            if value in (None, ""):
                assert text == "", (name, line, row)
            elif isinstance(value, (int, float)):
                assert float(text) == pytest.approx(value, abs=0.051), (name, line, row)
                compared += 1
            else:
                assert text == value
                compared += 1
    assert compared > 100


PRINTED_SHEETS = ("Crosstable", "Games", "Pairings", "Report", "Schedule", "Standings")
# book -> sheet -> the most pages it prints on A4 (LibreOffice, Carlito). Before the Report
# followed the entries it took 6/6/4/4 pages (Swiss 11, Swiss 40, round robin 10, US Chess
# 30) and the round robin's Schedule 2. The wide sheets print across at 64 % (7 pt): the
# Swiss Crosstable's eleven rounds and the Games sheet's 13 blocks of eleven rounds do not
# fit a page at that scale, nor the 20-player round robin's grid (README, Printing).
PAGES = {
    "swiss-11": {"Crosstable": 2, "Standings": 1, "Pairings": 1, "Games": 5, "Report": 1},
    "swiss-40": {"Crosstable": 6, "Standings": 1, "Pairings": 1, "Games": 5, "Report": 2},
    "round-robin-10": {"Crosstable": 2, "Standings": 1, "Schedule": 1, "Report": 1},
    "uscf-30": {"Crosstable": 4, "Standings": 1, "Games": 3, "Report": 1},
    "imported": {"Crosstable": 6, "Standings": 2, "Pairings": 1, "Games": 8, "Report": 2},
}


@pytest.mark.parametrize("name", list(BOOKS))
def test_sheets_print_only_the_players_entered(printed, name: str):
    """Every page of the sheets laid out for 100 or 200 players shows a player: no page of
    empty rows. The Standings print portrait on one page (two at most for 40 and more)."""
    pages = printed[name]
    for sheet in PRINTED_SHEETS:
        of_sheet = [words for footer, words in pages if footer == sheet]
        for number, words in enumerate(of_sheet, start=1):
            assert any(w[4] == "Player" or w[4].startswith("Player") for w in words) or name == "imported", \
                (name, sheet, number, len(of_sheet))
    standings = [words for footer, words in pages if footer == "Standings"]
    assert 1 <= len(standings) <= BOOKS[name][1], (name, len(standings))
    if name == "swiss-11":  # the wide Games sheet prints across, never down
        assert len([1 for footer, _ in pages if footer == "Games"]) <= 5


@pytest.mark.parametrize("name", list(BOOKS))
def test_standings_print_upright_at_7_points_with_headers_on_every_page(printed, books, name: str):
    folder = books[name].parent / "pdf"
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(folder / f"{name}.pdf")],
                          check=True, capture_output=True, text=True).stdout
    sizes = [line.split(":", 1)[1].split("pts")[0].split(" x ")
             for line in info.splitlines() if line.startswith("Page") and "size" in line]
    pages = printed[name]
    for (footer, words), size in zip(pages, sizes):
        if footer != "Standings":
            continue
        width, height = (float(s) for s in size)
        assert width < height  # A4 portrait
        smallest = min(w[3] - w[1] for w in words) / printed["per_point"]
        assert smallest >= 7 - 0.05, (name, smallest)
        texts = {w[4] for w in words}
        assert {"Rank", "No.", "Name", "Points", "Change"} <= texts, (name, texts)


def test_headers_never_break_inside_a_word(printed):
    """US Chess: CUMULATIVE prints whole on the Crosstable and the Standings."""
    seen = {"Crosstable": 0, "Standings": 0}
    for footer, words in printed["uscf-30"]:
        if footer in seen:
            texts = {w[4] for w in words}
            seen[footer] += "CUMULATIVE" in texts
            assert not {"CUM", "ULATI", "CUMU", "CUMUL", "ULATIVE"} & texts, footer
    assert seen["Crosstable"] >= 1 and seen["Standings"] >= 1, seen


def _page_sizes(pdf: Path) -> list[tuple[float, float]]:
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(pdf)], check=True, capture_output=True,
                          text=True).stdout
    return [tuple(float(s) for s in line.split(":", 1)[1].split("pts")[0].split(" x "))  # type: ignore[misc]
            for line in info.splitlines() if line.startswith("Page") and "size" in line]


@pytest.mark.parametrize("name", list(BOOKS))
def test_each_sheet_prints_on_few_pages_at_7_points(printed, books, name: str):
    """Every sheet a director hands out, on at most the pages of :data:`PAGES`, its text
    at 7 pt or more; the lists and the US Chess Report upright, the wide sheets across."""
    pages = printed[name]
    sizes = _page_sizes(books[name].parent / "pdf" / f"{name}.pdf")
    counted: dict[str, int] = {}
    for (footer, words), (width, height) in zip(pages, sizes):
        counted[footer] = counted.get(footer, 0) + 1
        if footer not in PAGES[name]:
            continue
        smallest = min(w[3] - w[1] for w in words) / printed["per_point"]
        assert smallest >= 7 - 0.05, (name, footer, counted[footer], round(smallest, 2))
        upright = footer in ("Standings", "Pairings", "Schedule") or (footer == "Report" and name == "uscf-30")
        assert (width < height) == upright, (name, footer)
    assert {sheet: counted.get(sheet, 0) for sheet in PAGES[name]} == \
        {sheet: min(counted.get(sheet, 0), most) for sheet, most in PAGES[name].items()}, (name, counted)
    assert all(counted.get(sheet, 0) >= 1 for sheet in PAGES[name]), (name, counted)


def _players_on(words: list[tuple[float, float, float, float, str]]) -> list[str]:
    """The names ``Player NN`` a page shows, top to bottom."""
    found = []
    for word in words:
        if word[4] == "Player":
            after = [w for w in words if abs(w[1] - word[1]) < 1 and 0 <= w[0] - word[2] < 8]
            found.append((word[1], f"Player {after[0][4] if after else ''}"))
    return [text for _, text in sorted(found)]


def test_a_crosstable_prints_across_then_down(printed):
    """40 players over two pages across and three down: each pair of pages across shows
    the same players, the next pair the players after them."""
    pages = [words for footer, words in printed["swiss-40"] if footer == "Crosstable"]
    assert len(pages) == 6
    shown = [_players_on(words) for words in pages]
    for left, right in zip(shown[::2], shown[1::2]):
        assert left and left == right
    assert [name for left in shown[::2] for name in left] == [f"Player {i:02d}" for i in range(1, 41)]


def test_the_report_prints_the_players_entered_and_a_round_robin_its_rounds(printed):
    """The Report of the 10-player round robin: the ten players and the nine rounds they
    play, none of the twenty the template takes; the Swiss's 11 players."""
    (robin,) = [words for footer, words in printed["round-robin-10"] if footer == "Report"]
    assert _players_on(robin) == [f"Player {i:02d}" for i in range(1, 11)]
    (round_row,) = [w for w in robin if w[4] == "Round"]
    numbers = [w[4] for w in sorted(robin, key=lambda w: w[0]) if abs(w[1] - round_row[1]) < 1 and w[4].isdigit()]
    assert numbers == [str(r) for r in range(1, 10)]
    assert "Round and colour of each game" not in " ".join(w[4] for w in robin)
    (swiss,) = [words for footer, words in printed["swiss-11"] if footer == "Report"]
    assert _players_on(swiss) == [f"Player {i:02d}" for i in range(1, 12)]
