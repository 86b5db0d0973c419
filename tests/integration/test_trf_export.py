"""export-trf, fide-list --fill and import-trf --fide-list on whole workbooks (slow).

The round trip: every real TRF of tests/data/trf imported (import-trf) and exported
(export-trf) gives back each player's number, rating, federation, FIDE ID, birth date
and every round's opponent, colour and result; the written file is also read by an
independent reader, gacrux's trf2json (MIT, test-only).
"""

from __future__ import annotations

import datetime as dt
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import TRF_DATA

from chessrating.cli import main
from xlrecalc.patch import write_cached_values
from chessrating.trf import read_trf
from chessrating.trf.bookview import read_book_view
from chessrating.trf.export import export_trf, preflight_output
from chessrating.trf.fidelist import COMBINED_HEADER, list_line
from chessrating.import_trf import lone_results_as_byes

FILES = sorted(p.name for p in TRF_DATA.glob("*.trf"))


def _key(p):  # type: ignore[no-untyped-def]
    return (p.number, p.rating, p.federation, p.fide_id, p.birth_date,
            [(g.round, g.opponent, g.colour, g.code) for g in p.games])


@pytest.fixture(scope="module")
def exported(trf_import, tmp_path_factory):  # type: ignore[no-untyped-def]
    """name -> (original, exported file, summary), each exported once."""
    done = {}

    def get(name: str):  # type: ignore[no-untyped-def]
        if name not in done:
            code, book = trf_import(name)
            assert code in (0, 1)
            out = tmp_path_factory.mktemp("exported") / f"{Path(name).stem}.trf"
            done[name] = (read_trf(TRF_DATA / name), out, export_trf(book, out))
        return done[name]
    return get


@pytest.mark.parametrize("name", FILES)
def test_round_trip_gives_back_every_player_and_game(exported, name: str) -> None:  # type: ignore[no-untyped-def]
    original, out, _ = exported(name)
    back = read_trf(out)
    # the import writes a result without an opponent as the bye with its points
    assert [_key(p) for p in back.players] == [_key(p) for p in lone_results_as_byes(original).players]
    assert [p.name for p in back.players] == [p.name[:33] for p in original.players]
    assert (back.city, back.federation, back.start_date, back.end_date, back.chief_arbiter,
            back.deputy_arbiters, back.time_control) == \
        (original.city, original.federation, original.start_date, original.end_date,
         original.chief_arbiter, original.deputy_arbiters, original.time_control)
    assert back.round_dates == original.round_dates[:len(back.round_dates)]
    assert back.headers["062"] == [str(len(original.players))]
    assert back.headers["072"] == [str(sum(1 for p in original.players if p.rating))]
    assert [w for w in back.warnings if "points column" in w.message] == []
    # every player's rank as the file gives it, whatever tie-breaks the workbook ranks by
    assert [p.rank for p in back.players] == [p.rank for p in original.players]


@pytest.mark.parametrize("name", FILES)
def test_an_independent_reader_reads_the_report(exported, name: str) -> None:  # type: ignore[no-untyped-def]
    trf2json = pytest.importorskip("gacrux.trf2json", reason="gacrux (test extra) not installed").trf2json
    _, out, _ = exported(name)
    mine = read_trf(out)
    reader = trf2json()
    reader.parse_file(out.read_text(encoding="utf-8"), False)
    assert reader.get_status() in (0, 467, 472)
    event = reader.chessjson["event"]
    tournament = reader.get_tournament(1)
    profiles = {p["id"]: p for p in event["profiles"]}
    theirs = {c["cid"]: (profiles[c["profileId"]], c) for c in tournament["competitors"]}
    assert sorted(theirs) == [p.number for p in mine.players]
    for p in mine.players:
        profile, competitor = theirs[p.number]
        assert profile.get("fideId") or None == p.fide_id
        assert profile["federation"] == p.federation
        assert (competitor["rating"] or {}).get("rating") == p.rating
        assert float(competitor["gamePoints"]) == p.points
        assert competitor["rank"] == p.rank
    # every game with an opponent, as gacrux pairs the two lines
    games = {(g["round"], g["white"]["cid"], (g["black"] or {}).get("cid"))
             for g in tournament["gameList"] if g["black"] is not None and g["white"] is not None}
    for p in mine.players:
        for g in p.games:
            if g.opponent is not None:
                white, black = (p.number, g.opponent) if g.colour == "w" else (g.opponent, p.number)
                assert (g.round, white, black) in games


def _copy(book: Path, tmp_path: Path) -> Path:
    target = tmp_path / book.name
    shutil.copy(book, target)
    return target


def _set(book: Path, values: dict[str, dict[str, object]]) -> None:
    """Write input values into the workbook in place, as a user's edit would."""
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string
    cells = {}
    for sheet, by_ref in values.items():
        cells[sheet] = {}
        for ref, value in by_ref.items():
            col, row = coordinate_from_string(ref)
            cells[sheet][(row, column_index_from_string(col))] = value
    write_cached_values(book, book, cells)


def test_preflight_lists_what_a_rating_officer_returns(trf_import, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, imported = trf_import("javafo_sample2.trf")
    book = _copy(imported, tmp_path)
    view = read_book_view(book)
    points = view.names["Points"][1]  # player 2's points cell (a formula's cached value)
    from openpyxl.utils import get_column_letter
    _set(book, {
        # player 6 has no FIDE ID: without sex and birth date the officer returns the file
        "Report": {"D24": "", "E24": "", "B11": ""},
        # player 1 round 1 against 26: a draw against a loss
        "Crosstable": {"M5": "½", "N7": 13, "G10": "",  # player 3 round 2 names player 1's opponent
                       f"{get_column_letter(points[2])}{points[1]}": 9},
    })
    capsys.readouterr()
    out = tmp_path / "report.trf"
    assert main(["export-trf", str(book), "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    expected = [
        "event: time control: missing (Report sheet)",
        "player 6 Gorrochategui Torres, Eugenio: birth date: missing for a player without FIDE ID",
        "player 6 Gorrochategui Torres, Eugenio: sex: missing for a player without FIDE ID",
        "player 1 Mirzoev Azer: round 1: result '=' against player 26, whose row gives '0': the two sides disagree",
        "player 2 Argandona Riveiro Inigo: points: the workbook gives 9, the results add up to 4",
        "player 3 Hernandez Elvis: round 2: paired with player 13, whose row gives player 1",
        "player 13 Rodriguez Cabrera Fco. Javier: round 2: paired 2 times (by players 1, 3)",
    ]
    for line in expected:
        assert f"  {line}" in printed.splitlines(), line
    sheet = openpyxl.load_workbook(preflight_output(out))["Pre-flight"]
    rows = [tuple(c.value for c in row) for row in sheet.iter_rows(min_row=4)]
    assert ("6", "Gorrochategui Torres, Eugenio", "sex", "missing for a player without FIDE ID") in rows
    assert ("event", None, "time control", "missing (Report sheet)") in rows or \
        ("event", "", "time control", "missing (Report sheet)") in rows
    assert read_trf(out).players[0].games[0].code == "="  # written as entered


def test_trf26_header_and_shared_ranks(trf_import, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, imported = trf_import("javafo_sample2.trf")
    # The director ranks by other tie-breaks than the workbook was made with: the file's
    # ranks no longer stand, the workbook's are written.
    book = _copy(imported, tmp_path)
    sheet_name, row, col = read_book_view(book).names["TieBreak3"][0]
    from openpyxl.utils import get_column_letter
    _set(book, {sheet_name: {f"{get_column_letter(col)}{row}": "WIN"}})
    assert main(["recalc", str(book), "-o", str(book)]) == 0
    out = tmp_path / "open26.trf"
    summary = export_trf(book, out, trf_format="trf26")
    assert summary.ranks.startswith("the Crosstable's: its ranks changed since the import for ")
    back = read_trf(out)
    # 5 rounds played of the 9 the file plans (its XXR 9, the workbook's rounds planned)
    assert summary.trf_format == "trf26" and back.headers["142"] == ["9"]
    ranks = {p.number: p.rank for p in back.players}
    # The workbook's Rank column (points, then BH/C1, BH, WIN, DE), shared ranks kept in TRF-2026 ...
    sheet = openpyxl.load_workbook(book, data_only=True)["Crosstable"]
    rank_col = next(c for c in range(1, sheet.max_column + 1) if sheet.cell(3, c).value == "Rank")
    in_book = {sheet.cell(r, 1).value: sheet.cell(r, rank_col).value for r in range(5, 57)}
    assert ranks == {n: r for n, r in in_book.items() if r is not None}
    assert ranks[1] < ranks[2] and {ranks[1], ranks[2]} == {1, 2}  # 4 points each, split by BH/C1
    assert back.headers["202"] == ["BH/C1,BH,WIN,DE"]  # the tie-breaks that ranked them
    # ... and made distinct by starting number in TRF16, which wants one player a rank.
    sixteen = read_trf(export_trf(book, tmp_path / "open16.trf").output)
    assert sorted(p.rank for p in sixteen.players) == list(range(1, 53))
    assert [p.number for p in sorted(sixteen.players, key=lambda p: p.rank)] == \
        sorted(in_book, key=lambda n: (in_book[n] if in_book[n] is not None else 99, n))


def test_a_failed_export_touches_nothing(tmp_path: Path, trf_import, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "keep.trf"
    out.write_bytes(b"old report")
    not_a_book = tmp_path / "plain.xlsx"
    not_a_book.write_bytes(b"not a zip")
    assert main(["export-trf", str(not_a_book), "-o", str(out)]) == 2
    assert out.read_bytes() == b"old report" and not preflight_output(out).exists()
    _, book = trf_import("javafo_sample2.trf")
    copy = _copy(book, tmp_path)
    assert main(["export-trf", str(copy), "-o", str(copy)]) == 2
    assert copy.read_bytes() == book.read_bytes()
    # a rating that does not fit TRF's four columns: nothing written
    _set(copy, {"Crosstable": {"B5": "x" * 10, "E5": 12345}})
    assert main(["export-trf", str(copy), "-o", str(out)]) == 1  # refused rating reported, not written
    assert "Rating: 12345 is not a rating; not written" in capsys.readouterr().out
    _set(copy, {"Report": {"C19": 123456789012345}})
    assert main(["export-trf", str(copy), "-o", str(out)]) == 2
    assert "does not fit" in capsys.readouterr().err
    assert read_trf(out).players[0].fide_id == 13400304  # the previous export, untouched


def test_round_robin_export_follows_the_berger_tables(demo_book: Path, tmp_path: Path) -> None:
    out = tmp_path / "demo.trf"
    summary = export_trf(demo_book, out)
    t = read_trf(out)
    assert summary.layout == "round robin" and t.rounds == 9 and len(t.players) == 10
    for rnd in range(1, 10):
        pairs = {frozenset((p.number, p.game(rnd).opponent)) for p in t.players}
        assert len(pairs) == 5 and all(len(x) == 2 for x in pairs)
    # FIDE C.05 Annex 1, 10 players, round 1: 1-10, 2-9, 3-8, 4-7, 5-6 (first named White)
    assert [(p.number, p.game(1).opponent, p.game(1).colour) for p in t.players[:5]] == \
        [(1, 10, "w"), (2, 9, "w"), (3, 8, "w"), (4, 7, "w"), (5, 6, "w")]
    # the Report grid's formulas give the rounds: none is left to the export's own table
    assert not any("Berger" in str(i) for i in summary.issues)
    assert [w for w in t.warnings if "do not match" in w.message or "points" in w.message] == []


# -- the FIDE list --------------------------------------------------------------------
def _list(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("players_list_foa.txt", "\r\n".join([COMBINED_HEADER, *lines]) + "\r\n")
    return path


LISTED = [
    list_line(13400304, "Mirzoev, Azer", "AZE", "M", "GM", standard=(2530, 3, 10), rapid=(2480, 0, 20),
              birth_year=1978),
    list_line(2212072, "Argandoña Riveiro, Iñigo", "ESP", "M", "IM", standard=(2390, 2, 20), birth_year=1981),
    list_line(6400353, "Hernandez, Elvis", "DOM", "M", "FM", standard=(2250, 0, 40), birth_year=0),
]


def test_fill_from_the_list(trf_import, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, imported = trf_import("javafo_sample2.trf")
    book = _copy(imported, tmp_path)
    out = tmp_path / "filled.xlsx"
    capsys.readouterr()
    assert main(["fide-list", str(_list(tmp_path, *LISTED)), "--fill", str(book), "-o", str(out)]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert "players filled from the list: 3" in printed
    assert "  player 6 Gorrochategui Torres, Eugenio" in printed
    assert "  player 4 Guijarro Galan Jose Luis (FIDE ID 32004478)" in printed
    values = openpyxl.load_workbook(out, data_only=True)
    sheet = values["Crosstable"]
    rows = [[c.value for c in sheet[r][:10]] for r in (5, 6, 7, 8)]
    assert rows[0] == [1, "Mirzoev, Azer", "GM", "AZE", 2530, None, 1978, None, 10, 10]
    assert rows[1][:10] == [2, "Argandoña Riveiro, Iñigo", "IM", "ESP", 2390, None, 1981, None, 20, 20]
    assert rows[2][6] == 1981 and rows[2][8:10] == [40, 40]  # birth year 0 leaves the file's
    assert rows[3][8] is None  # not on the list: left as it was
    points = read_book_view(out).names["Points"][0][2]
    check = next(c for c in range(points, sheet.max_column + 1) if sheet.cell(3, c).value == "Check")
    assert [sheet.cell(r, check).value for r in (5, 6, 7)] == [None, None, None]
    assert sheet.cell(8, check).value.startswith("assumed: ")  # K still assumed there
    # every part but the sheets' values (Crosstable, Games, Report and File ranks, which
    # show the names) and the chart's caches, byte for byte
    a, b = zipfile.ZipFile(book), zipfile.ZipFile(out)
    changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
    assert a.namelist() == b.namelist()
    # Crosstable, Standings, Pairings (the names they show), Games, Report and File ranks;
    # the workbook part where recalc fixes a print area to the lines shown (Pairings)
    assert changed <= {"xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml",
                       "xl/worksheets/sheet3.xml", "xl/worksheets/sheet4.xml",
                       "xl/worksheets/sheet5.xml", "xl/worksheets/sheet6.xml",
                       "xl/charts/chart1.xml", "xl/workbook.xml"}
    assert book.read_bytes() == imported.read_bytes()  # -o: the book itself untouched


def test_fill_refuses_a_list_of_another_type(trf_import, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, imported = trf_import("javafo_sample2.trf")
    book = _copy(imported, tmp_path)
    blitz = tmp_path / "blitz_rating_list.txt"
    blitz.write_text("ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           FOA "
                     "SEP26 Gms  K  B-day Flag\n", encoding="utf-8")
    before = book.read_bytes()
    assert main(["fide-list", str(blitz), "--fill", str(book)]) == 2
    assert book.read_bytes() == before


def test_import_with_the_list(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lst = _list(tmp_path, *LISTED)
    out = tmp_path / "open.xlsx"
    assert main(["import-trf", str(TRF_DATA / "javafo_sample2.trf"), "-o", str(out),
                 "--fide-list", str(lst), "--rating-list", "rapid"]) == 1
    printed = capsys.readouterr().out
    assert "FIDE list (combined): 3 players filled with their rapid rating" in printed
    assert "  player 6 Gorrochategui Torres, Eugenio: no FIDE ID" in printed
    view = read_book_view(out)
    assert view.one("RatingList") == "rapid"
    sheet = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
    assert [c.value for c in sheet[5][:10]] == [1, "Mirzoev, Azer", "GM", "AZE", 2480, None, 1978, None, 20, 20]
    # the report carries the list's values
    back = read_trf(export_trf(out, tmp_path / "open.trf").output)
    assert (back.players[0].name, back.players[0].rating, back.players[0].sex) == ("Mirzoev, Azer", 2480, "m")


def test_a_failed_import_leaves_the_output(tmp_path: Path) -> None:
    out = tmp_path / "keep.xlsx"
    out.write_bytes(b"keep")
    bad_list = tmp_path / "players_list.txt"
    bad_list.write_text("not a list\n", encoding="utf-8")
    assert main(["import-trf", str(TRF_DATA / "javafo_sample2.trf"), "-o", str(out),
                 "--fide-list", str(bad_list)]) == 2
    assert out.read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.xlsx", "players_list.txt"]


def test_list_lookup_by_id(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lst = _list(tmp_path, *LISTED)
    assert main(["fide-list", str(lst), "--id", "13400304", "--id", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "list: combined (combined), 3 players"
    assert out[1].startswith("13400304: Mirzoev, Azer, AZE, m, GM, born 1978; standard 2530 (K 10)")
    assert out[2] == "1: not on the list"


def test_report_sheet_carries_the_header(trf_import) -> None:  # type: ignore[no-untyped-def]
    _, book = trf_import("grandmommyscup.trf")
    view = read_book_view(book)
    assert view.text("ReportCity") == "Test" and view.text("ReportFederation") == "FID"
    assert view.one("ReportStart") == dt.datetime(2024, 12, 1)
    assert view.text("ReportDeputies") == "The First Deputy Arbiter; The Second Deputy Arbiter"
    assert view.named("FideIds")[:1] and all(isinstance(i, int) for i in view.named("FideIds")[:5])


def test_import_with_a_refused_rating_writes_and_names_the_player(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "hostile.trf"
    source.write_text("012 Hostile\n"
                      "001    1 m    Alpha, A                          9999 GER                         1.0    1     2 w 1\n"
                      "001    2 m    Beta, B                              0 GER                         0.0    2     1 b 0\n",
                      encoding="utf-8")
    out = tmp_path / "hostile.xlsx"
    assert main(["import-trf", str(source), "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "  player 2 (Beta, B): no first rating: games opponent: 9999 is not a rating from 100 to 4000 (item 1)" \
        in printed.splitlines()
    assert zipfile.is_zipfile(out)


def test_round_robin_keeps_the_file_rounds_and_colours(tmp_path: Path) -> None:
    # rounds and colours that are not the Berger tables': 1-2 3-4 / 3-1 4-2 / 1-4 2-3
    games = {1: "   2 w 1     3 b =     4 w 0", 2: "   1 b 0     4 w 1     3 b =",
             3: "   4 b =     1 w =     2 w =", 4: "   3 w =     2 b 0     1 b 1"}
    lines = ["012 Four", "022 Bergen", "032 NOR", "102 Arbiter, A", "122 5400+30",
             "042 2026/05/01", "052 2026/05/03", "132" + " " * 88 + "26/05/01  26/05/02  26/05/03"]
    points = {1: 1.5, 2: 1.5, 3: 1.5, 4: 1.5}
    for n in range(1, 5):
        lines.append(f"001 {n:>4} w    {'Player' + str(n):<33} {2000 + n:>4} NOR {1000 + n:>11} 2000/01/0{n} "
                     f"{points[n]:>4.1f} {n:>4}  {games[n]}")
    source = tmp_path / "four.trf"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    original = read_trf(source)
    assert original.is_round_robin and original.warnings == []
    book = tmp_path / "four.xlsx"
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    assert read_book_view(book).named("GameRounds")[:4] == [None, "1W", "2B", "3W"]
    summary = export_trf(book, tmp_path / "back.trf")
    assert summary.layout == "round robin" and summary.issues == []
    back = read_trf(summary.output)
    assert [_key(p) for p in back.players] == [_key(p) for p in original.players]
    assert back.round_dates == original.round_dates


def test_a_template_filled_by_hand(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The shipped Swiss template, typed into as an arbiter would (inputs only, no
    recalculation): filled from the list, then exported."""
    book = tmp_path / "open.xlsx"
    shutil.copy(Path(__file__).resolve().parents[2] / "workbooks" / "fide-swiss.xlsx", book)
    _set(book, {
        "Crosstable": {"B2": "Club Open", "B5": "A", "B7": "C",  # player 2: a FIDE ID only
                       # round 1: 1 beat 2 (1 White), 3 has a half-point bye
                       "K5": 2, "L5": "W", "M5": 1, "K6": 1, "L6": "B", "M6": 0, "M7": "H"},
        "Report": {"B4": "Oslo", "B5": "NOR", "B6": 46143.0, "B7": 46143.0, "B9": "Arbiter, A",
                   "B11": "5400+30", "B16": 46143.0, "C19": 13400304, "C20": 2212072,
                   "D21": "w", "E21": "2001/02/03"},
    })
    assert main(["fide-list", str(_list(tmp_path, *LISTED)), "--fill", str(book)]) == 1
    assert "  player 3 C" in capsys.readouterr().out.splitlines()  # no FIDE ID: named, exit 1
    out = tmp_path / "open.trf"
    assert main(["export-trf", str(book)]) == 0
    assert capsys.readouterr().out.splitlines()[2] == f"pre-flight check: 0 problem(s), listed in {preflight_output(out)}"
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:9] == ["012 Club Open", "022 Oslo", "032 NOR", "042 2026/05/01", "052 2026/05/01",
                         "062 3", "072 2", "102 Arbiter, A", "122 5400+30"]
    assert lines[9] == "132" + " " * 88 + "26/05/01"
    assert lines[10:] == [
        "001    1 m GM Mirzoev, Azer                     2530 AZE    13400304 1978        1.0    1     2 w 1",
        "001    2 m IM Argandoña Riveiro, Iñigo          2390 ESP     2212072 1981        0.0    3     1 b 0",
        "001    3 w    C                                                      2001/02/03  0.5    2  0000 - H",
    ]
    assert lines[12][69:79] == "2001/02/03"  # TRF16 columns 70-79


def test_a_us_chess_workbook_is_refused(trf_import, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, book = trf_import("javafo_sample2.trf", "--system", "uscf")
    assert code in (0, 1)
    out = tmp_path / "uscf.trf"
    assert main(["export-trf", str(book), "-o", str(out)]) == 2
    assert "is not a FIDE crosstable" in capsys.readouterr().err and not out.exists()
    assert main(["fide-list", str(_list(tmp_path, *LISTED)), "--fill", str(book), "-o",
                 str(tmp_path / "x.xlsx")]) == 2
    assert not (tmp_path / "x.xlsx").exists()
