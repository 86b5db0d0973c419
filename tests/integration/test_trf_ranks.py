"""Import keeps the event as the file says it: every player's points, and the file's
ranks given back by ``export-trf`` while the workbook ranks as it did when imported.

The file is tests/data/trf/swiss_as_round_robin.trf (made by make_swiss_as_round_robin.py
beside it): a 9-player, 9-round Swiss in lichess's shape whose pairings happen to form a
round robin, each player with one pairing-allocated bye worth a point, ranked by points
and then Sonneborn-Berger, not by the template's tie-breaks. The round trip of every
file of tests/data/trf (ranks included) is in test_trf_export.py.
"""

from __future__ import annotations

import openpyxl

from chessrating.cli import main
from chessrating.trf import read_trf
from chessrating.trf.bookview import read_book_view
from chessrating.trf.export import export_trf

from conftest import TRF_DATA

SOURCE = TRF_DATA / "swiss_as_round_robin.trf"


def test_a_swiss_shaped_as_a_round_robin_keeps_its_byes(trf_import, capsys) -> None:  # type: ignore[no-untyped-def]
    original = read_trf(SOURCE)
    assert original.is_round_robin  # every pair met once ...
    assert all(sum(g.code == "U" for g in p.games) == 1 for p in original.players)  # ... and a bye each
    code, book = trf_import(SOURCE.name)
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0] == (f"workbook: {book} (FIDE Swiss: every pair met once, but 9 player(s) have points "
                        "from rounds without a game (byes), which only the Swiss workbook holds)")
    view = read_book_view(book)
    points = dict(zip(view.named("Names"), view.named("Points")))
    assert points == {p.name: p.points for p in original.players}  # 8, 6.5, 5.5 … as the file says
    assert sum(points.values()) == 36 + 9  # 36 games and 9 byes


def test_the_file_ranks_are_named_where_the_workbook_ranks_otherwise(trf_import, capsys) -> None:  # type: ignore[no-untyped-def]
    _, book = trf_import(SOURCE.name)
    lines = capsys.readouterr().out.splitlines()
    ranks = next(line for line in lines if line.startswith("ranks: "))
    file_rank = {p.number: p.rank for p in read_trf(SOURCE).players}
    view = read_book_view(book)
    here = dict(zip(range(1, 10), view.named("Rank")))
    differ = [n for n in file_rank if file_rank[n] != here[n]]
    assert view.named("FileRanks")[:9] == [file_rank[n] for n in range(1, 10)]
    assert view.named("ImportRanks")[:9] == [here[n] for n in range(1, 10)]
    if differ:
        assert f"rank {len(differ)} of 9 players otherwise: player {differ[0]} " in ranks
    else:
        assert ranks.endswith("rank every player alike")


def test_export_gives_back_the_file_ranks_until_the_ranking_changes(trf_import, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, imported = trf_import(SOURCE.name)
    file_rank = [p.rank for p in read_trf(SOURCE).players]
    for trf_format in ("trf16", "trf26"):
        summary = export_trf(imported, tmp_path / f"as-imported-{trf_format}.trf", trf_format=trf_format)
        assert summary.ranks.startswith("the file's (sheet File ranks): the Crosstable ranks as when imported")
        back = read_trf(summary.output)
        assert [p.rank for p in back.players] == file_rank
        assert "202" not in back.headers  # the file names no tie-breaks: none written
    # The director ranks by games won first (openpyxl, as typed) and recalculates: the
    # workbook's ranks now differ from those it had, so they are written.
    typed = openpyxl.load_workbook(imported)
    view = read_book_view(imported)
    sheet, row, col = view.names["TieBreak1"][0]
    typed[sheet].cell(row, col).value = "WON"
    typed.save(tmp_path / "won.xlsx")
    assert main(["recalc", str(tmp_path / "won.xlsx"), "-o", str(tmp_path / "won.xlsx")]) == 0
    summary = export_trf(tmp_path / "won.xlsx", tmp_path / "won.trf", trf_format="trf26")
    assert summary.ranks.startswith("the Crosstable's: its ranks changed since the import")
    back = read_trf(summary.output)
    in_book = read_book_view(tmp_path / "won.xlsx").named("Rank")[:9]
    assert [p.rank for p in back.players] == in_book
    assert back.headers["202"] == ["WON,BH,SB,DE"]
    capsys.readouterr()


def test_a_file_with_its_tiebreaks_gets_them_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The same event in TRF-2026, naming its tie-breaks (202): the workbook ranks by them,
    # and the export writes the record and the ranks back as the file has them.
    text = SOURCE.read_text(encoding="utf-8").replace("XXR 9\n", "XXR 9\n202 SB,WIN\n")
    source = tmp_path / "named.trf"
    source.write_text(text, encoding="utf-8")
    book = tmp_path / "named.xlsx"
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    assert [read_book_view(book).text(f"TieBreak{slot}") for slot in (1, 2, 3)] == ["SB", "WIN", ""]
    summary = export_trf(book, tmp_path / "back.trf", trf_format="trf26")
    back = read_trf(summary.output)
    assert back.headers["202"] == ["SB,WIN"]
    assert [p.rank for p in back.players] == [p.rank for p in read_trf(source).players]
