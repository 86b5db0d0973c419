"""``chessrating publish``: the event page of a workbook, its values the workbook's own.

Workbooks are made as a user makes them: ``import-trf`` of every real TRF file, and the
templates typed into with openpyxl as a director would. The page's standings are
compared value for value with the standings ``chessrating recalc`` reads from the same
workbook (:func:`chessrating.recalc.standings.find_standings`, its own reader of the
Crosstable's named columns). A refused or failed run writes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from chessrating.cli import main
from chessrating.trf import read_trf
from chessrating.workbooks.swiss import build_swiss
from chessrating.workbooks.uscf import build_uscf

from conftest import TRF_DATA
from html_page import Page, check_page

HOSTILE = "<script>alert(1)</script>"
TRF_FILES = sorted(p.name for p in TRF_DATA.glob("*.trf"))


def publish(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["publish", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def number(cell_attrs: dict[str, str | None]) -> float | None:
    value = cell_attrs.get("data-value")
    return None if value is None else float(value)


def shown(cell: object) -> object:
    """A standings cell of the page as a value: its number, else its text (None if blank)."""
    value = number(cell.attrs)  # type: ignore[attr-defined]
    if value is not None:
        return value
    return cell.text or None  # type: ignore[attr-defined]


def as_value(value: object) -> object:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def assert_standings_match(page: Page, standings: list) -> None:
    """The page's standings equal recalc's, row by row (rank order), value for value."""
    table = page.tables["standings"]
    headers = [c.text for c in table[0]]
    rows = [[shown(c) for c in row] for row in table[1:]]
    assert len(rows) == len(standings)
    codes = list(getattr(standings, "codes", ()))
    assert headers[headers.index("Points") + 1: headers.index("Points") + 1 + len(codes)] == codes
    for row, s in zip(rows, standings):
        at = dict(zip(headers, row))
        assert at["Name"] == s.name
        assert at["Rank"] == as_value(s.rank)
        assert at["Points"] == as_value(s.points)
        assert tuple(at[c] for c in codes) == tuple(as_value(v) for v in s.tiebreaks)
        if "Change" in at:
            assert at["Change"] == as_value(s.change)
        assert at["New rating"] == as_value(s.new_rating)


@pytest.mark.parametrize("source", TRF_FILES)
def test_every_imported_trf_publishes_the_workbooks_standings(source: str, trf_import, recalculated,
                                                              tmp_path: Path, capsys) -> None:
    code, book = trf_import(source)
    assert code == 0
    out_file = tmp_path / "event.html"
    exit_code, out, err = publish(capsys, str(book), "-o", str(out_file))
    assert exit_code == 0, err
    assert f"written: {out_file}" in err
    page = check_page(out_file.read_text(encoding="utf-8"))
    assert page.problems == []
    report = recalculated(book)
    assert report.problems == [] and report.errors == []
    assert_standings_match(page, report.standings)
    # Rank order: the ranks never go down the table
    ranks = [number(row[0].attrs) for row in page.tables["standings"][1:]]
    assert ranks == sorted(ranks)
    # one pairings table per round with a game, every game of the round on a board
    crosstable = page.tables["crosstable"]
    assert len(crosstable) - 1 == len(report.standings)
    event = read_trf(TRF_DATA / source)
    for r in range(1, event.rounds + 1):
        games = {frozenset((p.number, g.opponent)) for p in event.players for g in p.games
                 if g.round == r and g.opponent is not None}
        table = page.tables.get(f"pairings-{r}")
        assert (len(table) - 1 if table else 0) == len(games), f"round {r}"


def fill_swiss(template: Path, tmp_path: Path, names: list[str],
               rounds: list[dict[int, tuple[int | None, str | None, object]]]) -> Path:
    """The Swiss template typed into: names, ratings, then per round each row's Opp, Col, Res."""
    book = openpyxl.load_workbook(template)
    ws = book["Crosstable"]
    ws["B2"] = "Club <Championship> & Cup"
    for i, name in enumerate(names):
        ws.cell(5 + i, 2).value = name
        ws.cell(5 + i, 5).value = 2000 - 25 * i
    for r, cells in enumerate(rounds):
        for player, (opp, col, res) in cells.items():
            row, first = 4 + player, 11 + 3 * r
            ws.cell(row, first).value, ws.cell(row, first + 1).value, ws.cell(row, first + 2).value = opp, col, res
    typed = tmp_path / "typed.xlsx"
    book.save(typed)
    return typed


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_swiss(tmp_path_factory.mktemp("swiss") / "swiss.xlsx", players=8, rounds=2)


NAMES = [HOSTILE, "Beta", "Gamma", "Delta"]
ROUND_1 = {1: (3, "W", 1), 3: (1, "B", 0), 2: (4, "B", "½"), 4: (2, "W", "½")}
ROUND_2 = {1: (2, "B", "½"), 2: (1, "W", "½"), 3: (4, "W", 1), 4: (3, "B", 0)}


def test_a_typed_swiss_with_a_hostile_name(swiss: Path, tmp_path: Path, capsys, recalculated) -> None:
    typed = fill_swiss(swiss, tmp_path, NAMES, [ROUND_1, ROUND_2])
    code, out, err = publish(capsys, str(typed))
    assert code == 0, err
    text = (tmp_path / "typed.html").read_text(encoding="utf-8")
    page = check_page(text)
    assert page.problems == []
    assert "<script>" not in text
    assert page.title == "Club <Championship> & Cup"
    assert page.tables["standings"][1][2].text == HOSTILE  # 1.5 points, first
    assert_standings_match(page, recalculated(typed).standings)
    # Round 1 in board order: 1-3 (scores 0) by the lower number, then 4-2
    round1 = [[c.text for c in row] for row in page.tables["pairings-1"][1:]]
    assert round1 == [["1", f"{HOSTILE} (1)", "1 – 0", "Gamma (3)"], ["2", "Delta (4)", "½ – ½", "Beta (2)"]]
    # Round 2: 2-1 (top score 1, sum 1.5) before 3-4 (top 0.5, sum 0.5)
    round2 = [[c.text for c in row] for row in page.tables["pairings-2"][1:]]
    assert round2 == [["1", "Beta (2)", "½ – ½", f"{HOSTILE} (1)"], ["2", "Gamma (3)", "1 – 0", "Delta (4)"]]
    # --provisional on final standings writes the same final page
    assert publish(capsys, str(typed), "--provisional")[0] == 0
    assert (tmp_path / "typed.html").read_text(encoding="utf-8") == text


def test_a_contradiction_refuses_with_nothing_written(swiss: Path, tmp_path: Path, capsys) -> None:
    contradicted = dict(ROUND_2)
    contradicted[2] = (1, "W", 1)  # Beta also claims the win over player 1, who drew
    typed = fill_swiss(swiss, tmp_path, NAMES, [ROUND_1, contradicted])
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = publish(capsys, str(typed))
    assert code == 1
    assert "not final" in err and "nothing written" in err
    # the reason named once with its cells, as recalc names it
    reason = next(line for line in err.splitlines() if re.search(r"Crosstable!([A-Z]+)5, \1(6): check ", line))
    assert "player 1" in reason and "player 2 (Beta)" in reason
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # an existing page is left as it was
    page = tmp_path / "typed.html"
    page.write_text("old page", encoding="utf-8")
    assert publish(capsys, str(typed))[0] == 1
    assert page.read_text(encoding="utf-8") == "old page"
    # --provisional writes it, saying so at its top, and still exits 1
    code, out, err = publish(capsys, str(typed), "--provisional")
    assert code == 1
    text = page.read_text(encoding="utf-8")
    parsed = check_page(text)
    assert parsed.problems == []
    assert parsed.title.startswith("Provisional")
    assert text.index("Provisional") < text.index("<h1>")
    assert reason.strip() in parsed.text
    standings = [[c.text for c in row[:3]] for row in parsed.tables["standings"][1:]]
    assert standings == [["1", "3", "Gamma"], ["2", "4", "Delta"], ["to fix", "1", HOSTILE], ["to fix", "2", "Beta"]]


def test_refusals_write_nothing(swiss: Path, tmp_path: Path, capsys) -> None:
    typed = fill_swiss(swiss, tmp_path, NAMES, [ROUND_1])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for argv in ([str(typed), "-o", str(typed)], [str(typed), "-o", str(tmp_path / "page.txt")],
                 [str(typed), "-o", str(tmp_path / "no" / "page.html")],
                 [str(tmp_path / "missing.xlsx")]):
        code, out, err = publish(capsys, *argv)
        assert code == 2, argv
        assert err.startswith("chessrating publish: error:") and len(err.strip().splitlines()) == 1
    plain = openpyxl.Workbook()
    plain.active["A1"] = "no crosstable here"
    plain.save(tmp_path / "plain.xlsx")
    before["plain.xlsx"] = (tmp_path / "plain.xlsx").read_bytes()
    code, out, err = publish(capsys, str(tmp_path / "plain.xlsx"))
    assert code == 2 and "no Names range" in err
    not_a_book = tmp_path / "notes.xlsx"
    not_a_book.write_text("plain text", encoding="utf-8")
    before[not_a_book.name] = not_a_book.read_bytes()
    assert publish(capsys, str(not_a_book))[0] == 2
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_us_chess_event_shows_the_new_rating(tmp_path: Path, capsys, recalculated) -> None:
    template = build_uscf(tmp_path / "uscf.xlsx", players=8, rounds=2)
    book = openpyxl.load_workbook(template)
    ws = book["Crosstable"]
    ws["B2"] = "Saturday Quad"
    for i, name in enumerate(NAMES):
        ws.cell(5 + i, 2).value, ws.cell(5 + i, 3).value = name, 1800 - 50 * i
    for r, cells in enumerate([ROUND_1, ROUND_2]):
        for player, (opp, col, res) in cells.items():
            for k, value in enumerate((opp, col, res)):
                ws.cell(4 + player, 10 + 3 * r + k).value = value
    typed = tmp_path / "quad.xlsx"
    book.save(typed)
    code, out, err = publish(capsys, str(typed), "-o", str(tmp_path))
    assert code == 0, err
    page = check_page((tmp_path / "quad.html").read_text(encoding="utf-8"))
    assert page.problems == []
    headers = [c.text for c in page.tables["standings"][0]]
    assert headers[:5] == ["Rank", "No.", "Name", "Rating", "Points"]
    assert headers[-1] == "New rating" and "Change" not in headers and "Title" not in headers
    assert_standings_match(page, recalculated(typed).standings)


def test_help_names_the_page_and_the_exit_codes(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["publish", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "OUT.html" in out and "--provisional" in out and "Exit code 0" in out


def standings_sheet(book: Path) -> tuple[list[str], list[list[object]]] | None:
    """The workbook's Standings sheet as recalculated: its headers (the row holding Rank
    and Name) and the rows under them with a name; ``None`` for a workbook without one."""
    from chessrating.publish.reading import evaluate

    evaluated, _ = evaluate(book)
    sheet = next((s for s in evaluated.cells if s.lower() == "standings"), None)
    if sheet is None:
        return None
    rows, cols = evaluated.extent[sheet]
    for r in range(1, rows + 1):
        line = [evaluated.value(sheet, r, c) for c in range(1, cols + 1)]
        texts = [v.strip() if isinstance(v, str) else "" for v in line]
        if "Rank" in texts and "Name" in texts:
            name_at = texts.index("Name")
            body = [[evaluated.value(sheet, k, c) for c in range(1, cols + 1)] for k in range(r + 1, rows + 1)]
            return texts, [row for row in body if isinstance(row[name_at], str) and row[name_at].strip()]
    return None


@pytest.mark.parametrize("source", TRF_FILES)
def test_the_page_equals_the_standings_sheet(source: str, trf_import, tmp_path: Path, capsys) -> None:
    # The Standings sheet (rank order, the Crosstable's columns as live formulas) and the
    # page read the same workbook; every column they share holds the same values.
    code, book = trf_import(source)
    sheet = standings_sheet(book)
    assert sheet is not None, "no Standings sheet with its header row (Rank, Name)"
    headers, rows = sheet
    out_file = tmp_path / "event.html"
    assert publish(capsys, str(book), "-o", str(out_file))[0] == 0
    page = check_page(out_file.read_text(encoding="utf-8")).tables["standings"]
    page_headers = [c.text for c in page[0]]
    shared = [h for h in page_headers if h in headers]
    assert {"Rank", "Name", "Points"} <= set(shared)
    assert len(page) - 1 == len(rows)
    for cells, row in zip(page[1:], rows):
        for header in shared:
            mine, theirs = shown(cells[page_headers.index(header)]), row[headers.index(header)]
            theirs = None if theirs == "" else theirs
            assert mine == as_value(theirs.strip() if isinstance(theirs, str) else theirs), (header, row)


def test_cells_showing_an_error_refuse_too(swiss: Path, tmp_path: Path, capsys) -> None:
    typed = fill_swiss(swiss, tmp_path, NAMES, [ROUND_1, ROUND_2])
    book = openpyxl.load_workbook(typed)
    book["Crosstable"]["G7"] = "=1/0"  # Gamma's birth year: an Excel error, K cannot be found
    book.save(typed)
    code, out, err = publish(capsys, str(typed))
    assert code == 1 and not (tmp_path / "typed.html").exists()
    assert "cell(s) show an error" in err and "Crosstable!G7: #DIV/0!" in err
    code, out, err = publish(capsys, str(typed), "--provisional")
    assert code == 1
    page = check_page((tmp_path / "typed.html").read_text(encoding="utf-8"))
    assert page.problems == [] and page.title.startswith("Provisional")
    gamma = next(row for row in page.tables["standings"][1:] if row[2].text == "Gamma")
    headers = [c.text for c in page.tables["standings"][0]]
    change = gamma[headers.index("Change")]
    assert change.text.startswith("#") and "#DIV/0!" in (change.attrs["title"] or "")
