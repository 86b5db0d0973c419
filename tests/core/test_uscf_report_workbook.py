"""Reading a US Chess event workbook into the report (uscf_report.workbook), from the values a
workbook holds, laid out as the template lays them out (no file: a BookView in memory),
and TRF-2026's national records (trf.national), which import-trf reads the US Chess IDs from."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import TRF_DATA

from chessrating.errors import RatingError
from chessrating.trf import read_trf
from chessrating.trf.bookview import BookView
from chessrating.trf.national import national_records, parse_national_line
from chessrating.trf.sizing import fit_to_workbook
from chessrating.uscf_report.export import checked
from chessrating.uscf_report.source import Player, RoundGame, Tournament
from chessrating.uscf_report.workbook import uscf_book

X = "Crosstable"
REPORT = {"ReportAffiliate": "a1234567", "ReportChiefTd": 12345678.0, "ReportAssistantTd": None,
          "ReportCity": "Reno", "ReportState": "nv", "ReportZip": "89501", "ReportCountry": "USA",
          "ReportStart": dt.datetime(2026, 3, 7), "ReportEnd": "2026/03/08", "ReportTimeControl": "G/90;d5",
          "ReportSection": "Open", "ReportRatingSystem": "r"}


def book(rows: list[tuple], *, colours: bool = True, report: dict | None = None, dual: bool = False) -> BookView:
    """A US Chess crosstable as the template lays it out: names in B from row 5, Rating in
    C, Games so far in D, rounds from J (Opp, Col, Res, or Opp, Res without colours), the
    Report sheet's cells and the players' IDs (UscfIds) and states (PlayerStates)."""
    per = 3 if colours else 2
    cells: dict[tuple[int, int], object] = {(2, 2): "Reno Spring Open", (3, 2): "Name", (3, 3): "Rating",
                                            (3, 4): "Games so far"}
    rounds = max(len(r[2]) for r in rows)
    for k in range(rounds):
        heads = ("Opp", "Col", "Res") if colours else ("Opp", "Res")
        for i, head in enumerate(heads):
            cells[(4, 10 + per * k + i)] = head
    ids, states = {}, {}
    for i, (name, rating, games, member, state) in enumerate(rows):
        row = 5 + i
        cells[(row, 2)], cells[(row, 3)] = name, rating
        for k, game in enumerate(games):
            opponent, colour, result = game
            cells[(row, 10 + per * k)] = opponent
            if colours:
                cells[(row, 11 + per * k)] = colour
            cells[(row, 10 + per * k + per - 1)] = result
        ids[(17 + i, 3)], states[(17 + i, 4)] = member, state
    values = {X: {k: v for k, v in cells.items() if v is not None},
              "Report": {k: v for k, v in ids.items() | states.items() if v is not None}}
    names = {"Names": [(X, 5 + i, 2) for i in range(len(rows))], "DualRated": [(X, 2, 5)],
             "UscfIds": [("Report", 17 + i, 3) for i in range(len(rows))],
             "PlayerStates": [("Report", 17 + i, 4) for i in range(len(rows))]}
    values[X][(2, 5)] = dual
    for i, (name, value) in enumerate((REPORT if report is None else report).items()):
        names[name] = [("Report", 3 + i, 2)]
        if value is not None:
            values["Report"][(3 + i, 2)] = value
    return BookView(Path("event.xlsx"), values, names, {X: 10 + per * rounds, "Report": 4})


SECTION = [
    ("Doe, Jane", 1812, [(2, "W", 1), (3, "B", 0)], 30000001.0, "NV"),
    ("Roe, Richard", "-", [(1, "B", 0), (None, None, "H")], "30000002", None),
    ("Alvarez, Jose", None, [(None, None, "B"), (1, "w", "1")], "30000003", "ca"),
]


def test_the_crosstable_and_the_report_sheet_become_the_report():
    read = uscf_book(book(SECTION))
    t, info = read.tournament, read.info
    assert (t.name, t.city, t.time_control, t.start_date, t.end_date, t.rounds) == (
        "Reno Spring Open", "Reno", "G/90;d5", dt.date(2026, 3, 7), dt.date(2026, 3, 8), 2)
    assert [(p.number, p.name, p.rating) for p in t.players] == [
        (1, "Doe, Jane", 1812), (2, "Roe, Richard", None), (3, "Alvarez, Jose", None)]
    assert [[(g.round, g.opponent, g.colour, g.code) for g in p.games] for p in t.players] == [
        [(1, 2, "w", "1"), (2, 3, "b", "0")],
        [(1, 1, "b", "0"), (2, None, None, "H")],
        [(1, None, None, "F"), (2, 1, "w", "1")]]
    assert (info.affiliate_id, info.chief_td_id, info.state, info.zip_code, info.rating_system) == (
        "A1234567", "12345678", "NV", "89501", "R")
    assert dict(info.member_ids) == {1: "30000001", 2: "30000002", 3: "30000003"}
    assert dict(info.player_states) == {1: "NV", 2: "", 3: "CA"}
    assert read.issues == [] and checked(read) == []


def test_what_reading_finds_wrong_is_named_by_player_and_field():
    rows = [
        ("Doe, Jane", 1812, [(2, "W", 1), (3, "X", 0), (1, None, "½")], "30000001", None),
        ("Roe, Richard", "16OO", [(1, "B", 0), (None, None, 2), (3, "W", None)], "30000002", None),
        ("Alvarez, Jose", None, [(None, None, "B"), (1, "W", 1), (2, "B", None)], "30000003", None),
    ]
    report = {**REPORT, "ReportStart": "03/07/2026", "ReportRatingSystem": "R"}
    issues = [str(i) for i in checked(uscf_book(book(rows, report=report, dual=True)))]
    # the event's first, then by player; reading's own reason for a field stands for the
    # check's consequence (a date that is not one is not named "missing" again)
    assert issues == [
        "event: start date: '03/07/2026' is not a date (type it as a date, e.g. 2026/03/07)",
        "event: rating system: R but the crosstable's Dual rated is TRUE: D exactly when the event is dual rated",
        "player 1 Doe, Jane: round 2: colour 'X' is not W or B",
        "player 1 Doe, Jane: round 3: opponent '1' is not another player's number",
        "player 2 Roe, Richard: rating: '16OO' is not a rating",
        "player 2 Roe, Richard: round 2: result '2' is not a result",
        "player 2 Roe, Richard: round 3: paired with player 3, no result",
        "player 3 Alvarez, Jose: round 3: paired with player 2, no result",
    ]


def test_a_workbook_without_colours_names_every_game():
    issues = [str(i) for i in checked(uscf_book(book(SECTION, colours=False)))]
    assert issues == ["player 1 Doe, Jane: round 1: a game without colour (w or b)",
                      "player 1 Doe, Jane: round 2: a game without colour (w or b)",
                      "player 2 Roe, Richard: round 1: a game without colour (w or b)",
                      "player 3 Alvarez, Jose: round 2: a game without colour (w or b)"]


def test_a_workbook_without_report_sheet_says_so():
    view = book(SECTION)
    for name in list(REPORT):
        del view.names[name]
    issues = [str(i) for i in checked(uscf_book(view))]
    assert issues[0] == ("event: Report sheet: missing (a workbook built before it): copy the players "
                         "and rounds into a new US Chess template")
    assert "event: affiliate ID: missing" in issues and "event: start date: missing" in issues


def test_a_fide_workbook_is_refused():
    view = book(SECTION)
    view.values[X][(3, 4)] = "Fed"  # the FIDE Swiss has Title, Fed … beside the names
    with pytest.raises(RatingError, match="is not a US Chess crosstable"):
        uscf_book(view)


# ------------------------------------------------------------------ national records

def test_national_records_of_a_real_trf26_file():
    # grandmommyscup.trf (echecsjs/trf, MIT): "IND    1   GM Player0001 Test0001 ... 2634 CG
    # 70100010001 1987/07/05" under the comment line naming the columns
    t = read_trf(TRF_DATA / "grandmommyscup.trf")
    records = national_records(t, "IND")
    first = records[1]
    assert (first.number, first.title, first.name, first.rating, first.origin, first.national_id,
            first.birth_date) == (1, "GM", "Player0001 Test0001", 2634, "CG", "70100010001", "1987/07/05")
    # the records give each name first name first, the 001 lines last name first
    assert t.player(1).name == "Test0001 Player0001"
    assert len(records) == sum(1 for line in t.extra_lines if line.startswith("IND "))
    assert all(sorted(records[n].name.split()) == sorted(t.player(n).name.split()) for n in records)
    assert national_records(t, "USA") == {}


def test_records_follow_their_players_when_the_import_renumbers():
    # a stray starting number (959) makes the import renumber 1-2; the record of 959 is
    # found by its name
    line = "USA  959   FM Doe, Jane                         1812 NV  12345678    1990/05/17"
    t = Tournament(players=[Player(3, "Roe, Richard", games=[RoundGame(1, 959, "w", "1")]),
                            Player(959, "Doe, Jane", games=[RoundGame(1, 3, "b", "0")])],
                   rounds=1, extra_lines=[line])
    fitted, _ = fit_to_workbook(t)
    fitted.extra_lines = t.extra_lines
    records = national_records(fitted, "USA")
    assert list(records) == [2] and records[2].national_id == "12345678"
    assert parse_national_line("### SSSS sTTT NNNN") is None


def test_a_year_typed_into_a_date_cell_is_named_as_one():
    # 2026 typed into a cell formatted as a date shows as 1905/07/18 (serial 2026): the
    # reason says so, as the TRF export does (trf.celldates), not a bare "is not a date"
    rows = [("Doe, Jane", 1812, [(2, "W", 1)], "30000001", None),
            ("Roe, Richard", 1700, [(1, "B", 0)], "30000002", None)]
    report = {**REPORT, "ReportEnd": dt.datetime(1905, 7, 18)}
    issues = [str(i) for i in checked(uscf_book(book(rows, report=report)))]
    assert issues[0] == "event: end date: holds 2026, a year typed into a date cell (shown as 1905/07/18)"
