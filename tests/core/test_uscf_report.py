"""The US Chess rating report (format 2C): layout, round trip, pre-flight check, atomic writing.

The written tables are read back with dbfread, a reader independent of the dbf library
that writes them, and the raw bytes are checked against the dBASE III layout.
"""

from __future__ import annotations

import datetime as dt
import os
import struct
from pathlib import Path

import pytest
from dbfread import DBF

from chessrating.errors import RatingError
from chessrating.uscf_report import (EVENT_FIELDS, FILE_NAMES, PLAYER_FIELDS, SECTION_FIELDS, ReportInfo,
                                     preflight, result_letter, write_report)
from chessrating.uscf_report import writer as writer_module
from chessrating.uscf_report.source import Player, RoundGame, Tournament

# The published 2C field lists (US Chess TD/affiliate file-format page, with the 2025
# correction that makes the numeric-looking fields left-justified character fields):
# name, type, length. docs/USCF-DBF.md gives each field's meaning and the sources.
PUBLISHED = {
    "THEXPORT.DBF": [
        ("H_FORMAT", "C", 5), ("H_PROGRAM", "C", 10), ("H_EVENT_ID", "C", 12), ("H_NAME", "C", 35),
        ("H_TOT_SECT", "C", 2), ("H_BEG_DATE", "D", 8), ("H_END_DATE", "D", 8), ("H_AFF_ID", "C", 8),
        ("H_CITY", "C", 21), ("H_STATE", "C", 2), ("H_ZIPCODE", "C", 10), ("H_COUNTRY", "C", 21),
        ("H_SENDCROS", "C", 1), ("H_CTD_ID", "C", 8), ("H_ATD_ID", "C", 8), ("H_OTHER_TD", "C", 255)],
    "TSEXPORT.DBF": [
        ("S_EVENT_ID", "C", 12), ("S_SEC_NUM", "C", 2), ("S_SEC_NAME", "C", 30), ("S_R_SYSTEM", "C", 1),
        ("S_TIMECTL", "C", 40), ("S_CTD_ID", "C", 8), ("S_ATD_ID", "C", 8), ("S_TRN_TYPE", "C", 1),
        ("S_TOT_RNDS", "C", 2), ("S_LST_PAIR", "C", 4), ("S_BEG_DATE", "D", 8), ("S_END_DATE", "D", 8),
        ("S_SCH_LVL", "C", 1), ("S_GR_PRIX", "C", 1), ("S_GP_PTS", "C", 3), ("S_FIDE", "C", 1)],
    "TDEXPORT.DBF": [
        ("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "C", 4), ("D_MEM_ID", "C", 8),
        ("D_NAME", "C", 30), ("D_STATE", "C", 2), ("D_RATING", "C", 4)],
}
# What SwissSys 11 writes, read from its reports of 2025-2026 that the freepairchess/FreePair
# project keeps as reference files (docs/USCF-DBF.md, §Sources): every field a character
# field, the dates too, and H_OTHER_TD one byte shorter than published.
SWISSSYS_11 = [
    ("H_FORMAT", "C", 5), ("H_PROGRAM", "C", 10), ("H_EVENT_ID", "C", 12), ("H_NAME", "C", 35),
    ("H_TOT_SECT", "C", 2), ("H_BEG_DATE", "C", 8), ("H_END_DATE", "C", 8), ("H_AFF_ID", "C", 8),
    ("H_CITY", "C", 21), ("H_STATE", "C", 2), ("H_ZIPCODE", "C", 10), ("H_COUNTRY", "C", 21),
    ("H_SENDCROS", "C", 1), ("H_CTD_ID", "C", 8), ("H_ATD_ID", "C", 8), ("H_OTHER_TD", "C", 254),
    ("S_EVENT_ID", "C", 12), ("S_SEC_NUM", "C", 2), ("S_SEC_NAME", "C", 30), ("S_R_SYSTEM", "C", 1),
    ("S_TIMECTL", "C", 40), ("S_CTD_ID", "C", 8), ("S_ATD_ID", "C", 8), ("S_TRN_TYPE", "C", 1),
    ("S_TOT_RNDS", "C", 2), ("S_LST_PAIR", "C", 4), ("S_BEG_DATE", "C", 8), ("S_END_DATE", "C", 8),
    ("S_SCH_LVL", "C", 1), ("S_GR_PRIX", "C", 1), ("S_GP_PTS", "C", 3), ("S_FIDE", "C", 1),
    ("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "C", 4), ("D_MEM_ID", "C", 8),
    ("D_NAME", "C", 30), ("D_STATE", "C", 2), ("D_RATING", "C", 4),
]

G = RoundGame


def section() -> Tournament:
    """Six players, four rounds: byes of every kind, a forfeit, an unrated and a withdrawn player."""
    players = [
        Player(1, "Doe, Jane", rating=1812,
               games=[G(1, 2, "w", "1"), G(2, 3, "b", "0"), G(3, 4, "w", "="), G(4, 2, "b", "0")]),
        Player(2, "Roe, Richard", rating=1650,
               games=[G(1, 1, "b", "0"), G(2, None, None, "H"), G(3, None, None, "U"), G(4, 1, "w", "1")]),
        Player(3, "Álvarez, José", rating=1500,
               games=[G(1, 4, "w", "="), G(2, 1, "w", "1"), G(3, 5, "w", "0"), G(4, None, None, "F")]),
        Player(4, "Smith, Ann", rating=1490,
               games=[G(1, 3, "b", "="), G(2, 5, "b", "1"), G(3, 1, "b", "="), G(4, 5, "w", "=")]),
        Player(5, "Newcomer, Ned", rating=None,
               games=[G(1, 6, "w", "+"), G(2, 4, "w", "0"), G(3, 3, "b", "1"), G(4, 4, "b", "=")]),
        # withdrew after round 2: his line stops there
        Player(6, "Gone, Gary", rating=1400, games=[G(1, 5, "b", "-"), G(2, None, None, "Z")]),
    ]
    return Tournament(name="Reno Spring Open", city="Reno", time_control="G/90;d5", rounds=4,
                      start_date=dt.date(2026, 3, 7), end_date=dt.date(2026, 3, 8), players=players)


def info(**change: object) -> ReportInfo:
    base: dict[str, object] = dict(
        affiliate_id="A1234567", chief_td_id="12345678", assistant_td_id="23456789", state="NV",
        zip_code="89501", section_name="Open", rating_system="R",
        member_ids={n: f"3000000{n}" for n in range(1, 7)}, player_states={1: "NV", 2: "CA"})
    base.update(change)
    return ReportInfo(**base)  # type: ignore[arg-type]


# Every round of every player, as US Chess reads it: result letter, opponent, colour.
EXPECTED_ROUNDS = {
    "1": ["W2W", "L3B", "D4W", "L2B"],
    "2": ["L1B", "H0", "B0", "W1W"],
    "3": ["D4W", "W1W", "L5W", "B0"],
    "4": ["D3B", "W5B", "D1B", "D5W"],
    "5": ["X0", "L4W", "W3B", "D4B"],
    "6": ["F0", "Z0", "U0", "U0"],
}


def read(folder: Path, name: str) -> DBF:
    return DBF(str(folder / name), encoding="ascii", load=True)


def test_the_written_fields_are_the_published_ones(tmp_path):
    write_report(section(), info(), tmp_path)
    for name in FILE_NAMES:
        fields = [(f.name, f.type, f.length) for f in read(tmp_path, name).fields]
        rounds = [(f"D_RND{n:02d}", "C", 7) for n in range(1, 5)] if name == "TDEXPORT.DBF" else []
        expected = PUBLISHED[name] + rounds
        assert fields == expected, name
    ours = [(f.name, f.type, f.length) for f in EVENT_FIELDS + SECTION_FIELDS + PLAYER_FIELDS]
    assert ours == PUBLISHED["THEXPORT.DBF"] + PUBLISHED["TSEXPORT.DBF"] + PUBLISHED["TDEXPORT.DBF"]


def test_the_layout_differs_from_swisssys_only_in_the_dates_and_other_tds():
    ours = [(f.name, f.type, f.length) for f in EVENT_FIELDS + SECTION_FIELDS + PLAYER_FIELDS]
    assert [f[0] for f in ours] == [f[0] for f in SWISSSYS_11]  # same names in the same order
    differ = {theirs[0]: (mine[1:], theirs[1:]) for mine, theirs in zip(ours, SWISSSYS_11) if mine != theirs}
    assert differ == {**{n: (("D", 8), ("C", 8)) for n in ("H_BEG_DATE", "H_END_DATE", "S_BEG_DATE", "S_END_DATE")},
                      "H_OTHER_TD": (("C", 255), ("C", 254))}


def test_the_files_are_dbase_iii_without_memo_and_left_justified(tmp_path):
    write_report(section(), info(), tmp_path)
    assert sorted(os.listdir(tmp_path)) == sorted(FILE_NAMES)  # no .DBT memo file, no leftovers
    for name in FILE_NAMES:
        raw = (tmp_path / name).read_bytes()
        count, header, size = struct.unpack_from("<IHH", raw, 4)
        fields = PUBLISHED[name] + ([("D_RND", "C", 7)] * 4 if name == "TDEXPORT.DBF" else [])
        assert raw[0] == 0x03 and raw[29] == 0  # dBASE III, no memo; no code page mark
        assert header == 32 + 32 * len(fields) + 1 and raw[header - 1] == 0x0D
        assert size == 1 + sum(length for _, _, length in fields)
        assert len(raw) == header + count * size + 1 and raw[-1] == 0x1A
        for record in range(count):
            at = header + record * size
            assert raw[at:at + 1] == b" "  # not deleted
            at += 1
            for _, kind, length in fields:
                cell = raw[at:at + length]
                assert all(32 <= b <= 126 for b in cell)
                if kind == "C":
                    assert cell == cell.strip().ljust(length), (name, cell)
                at += length


def test_every_round_of_every_player_reads_back(tmp_path):
    write_report(section(), info(), tmp_path)
    players = read(tmp_path, "TDEXPORT.DBF").records
    rounds = {r["D_PAIR_NUM"]: [r[f"D_RND{n:02d}"] for n in range(1, 5)] for r in players}
    assert rounds == EXPECTED_ROUNDS
    by_number = {r["D_PAIR_NUM"]: r for r in players}
    assert by_number["5"]["D_RATING"] == "0"  # unrated
    assert by_number["3"]["D_NAME"] == "Alvarez, Jose"  # accents folded to ASCII
    assert (by_number["1"]["D_MEM_ID"], by_number["1"]["D_STATE"], by_number["2"]["D_STATE"]) == (
        "30000001", "NV", "CA")
    assert [r["D_SEC_NUM"] for r in players] == ["1"] * 6


def test_the_event_and_section_records(tmp_path):
    write_report(section(), info(), tmp_path)
    (event,) = read(tmp_path, "THEXPORT.DBF").records
    assert {k: event[k] for k in ("H_FORMAT", "H_NAME", "H_TOT_SECT", "H_BEG_DATE", "H_END_DATE", "H_AFF_ID",
                                  "H_CITY", "H_STATE", "H_ZIPCODE", "H_COUNTRY", "H_CTD_ID", "H_ATD_ID")} == {
        "H_FORMAT": "2C", "H_NAME": "Reno Spring Open", "H_TOT_SECT": "1", "H_BEG_DATE": dt.date(2026, 3, 7),
        "H_END_DATE": dt.date(2026, 3, 8), "H_AFF_ID": "A1234567", "H_CITY": "Reno", "H_STATE": "NV",
        "H_ZIPCODE": "89501", "H_COUNTRY": "USA", "H_CTD_ID": "12345678", "H_ATD_ID": "23456789"}
    (sec,) = read(tmp_path, "TSEXPORT.DBF").records
    assert (sec["S_SEC_NUM"], sec["S_SEC_NAME"], sec["S_R_SYSTEM"], sec["S_TIMECTL"], sec["S_TOT_RNDS"],
            sec["S_LST_PAIR"], sec["S_CTD_ID"]) == ("1", "Open", "R", "G/90;d5", "4", "6", "12345678")


def test_trf_codes_map_to_the_us_chess_letters():
    # docs/RULES.md §8; the letters of the US Chess crosstable editor's help
    assert {c: result_letter(c) for c in "1=0+-WDLHFUZ "} == {
        "1": "W", "=": "D", "0": "L", "+": "X", "-": "F", "W": "X", "D": "H", "L": "F",
        "H": "H", "F": "B", "U": "B", "Z": "Z", " ": "U"}
    with pytest.raises(RatingError, match="code: 'x' is not a TRF result code"):
        result_letter("x")


def test_a_clean_section_has_no_issue():
    assert preflight(section(), info()) == []


def _as_is(t: Tournament) -> Tournament:
    return t


def _without_opponent(t: Tournament) -> Tournament:
    t.players[0].games[0] = G(1, None, None, "1")
    t.players[1].games[0] = G(1, None, None, "0")
    return t


def _fifth_round_empty(t: Tournament) -> Tournament:
    t.rounds = 5
    return t


def _undated(t: Tournament) -> Tournament:
    t.start_date = t.end_date = None
    return t


def _untimed(t: Tournament) -> Tournament:
    t.time_control = ""
    return t


def _long_name(t: Tournament) -> Tournament:
    t.players[3].name = "Smith-Featherstonehaugh, Annabel"
    return t


@pytest.mark.parametrize("tournament, report, expected", [
    (_as_is, info(member_ids={n: f"3000000{n}" for n in range(1, 6)}), ["player 6 Gone, Gary: US Chess ID: missing"]),
    (_as_is, info(member_ids={1: "3000001", **{n: f"3000000{n}" for n in range(2, 7)}}),
     ["player 1 Doe, Jane: US Chess ID: '3000001' is not 8 digits"]),
    (_as_is, info(member_ids={1: "00000000", **{n: f"3000000{n}" for n in range(2, 7)}}),
     ["player 1 Doe, Jane: US Chess ID: 00000000 stands for no ID"]),
    (_as_is, info(member_ids={n: "30000001" if n < 3 else f"3000000{n}" for n in range(1, 7)}),
     ["player 1 Doe, Jane: US Chess ID: 30000001 is given to more than one player",
      "player 2 Roe, Richard: US Chess ID: 30000001 is given to more than one player"]),
    (_as_is, info(affiliate_id=""), ["event: affiliate ID: missing"]),
    (_as_is, info(affiliate_id="12345678"), ["event: affiliate ID: '12345678' is not A and 7 digits"]),
    (_as_is, info(chief_td_id=""), ["event: chief TD ID: missing"]),
    (_as_is, info(assistant_td_id="2345678X"), ["event: assistant TD ID: '2345678X' is not 8 digits"]),
    (_as_is, info(state=""), ["event: state: missing"]),
    (_as_is, info(state="XX"), ["event: state: 'XX' is not a US state's code"]),
    (_as_is, info(zip_code="8950"), ["event: ZIP code: '8950' is not a US ZIP code"]),
    (_as_is, info(rating_system="B"), ["event: rating system: 'B' is not R, D or Q"]),
    (_as_is, info(section_name=""), ["event: section name: missing"]),
    (_as_is, info(player_states={1: "Nevada"}),
     ["player 1 Doe, Jane: state: 'Nevada' is not a two-letter state code"]),
    (_undated, info(), ["event: start date: missing", "event: end date: missing"]),
    (_untimed, info(), ["event: time control: missing"]),
    (_without_opponent, info(), ["player 1 Doe, Jane: round 1: result '1' but no opponent",
                                 "player 2 Roe, Richard: round 1: result '0' but no opponent"]),
    (_fifth_round_empty, info(), ["event: rounds: the section has 5 rounds but no result in round(s) 5"]),
    (_long_name, info(), ["player 4 Smith-Featherstonehaugh, Annabel: name: is 32 characters, the field holds 30"]),
], ids=["no ID", "short ID", "placeholder ID", "shared ID", "no affiliate", "affiliate form", "no chief TD",
        "assistant form", "no state", "not a state", "ZIP form", "rating system", "no section name", "player state", "no dates",
        "no time control", "no opponent", "empty round", "long name"])
def test_preflight_names_the_player_and_the_field(tournament, report, expected):
    assert [str(i) for i in preflight(tournament(section()), report)] == expected


def test_preflight_names_games_the_other_row_does_not_confirm():
    t = section()
    t.players[3].games[1] = G(2, 6, "b", "1")  # player 4 says he met 6 in round 2; 5's row says 4
    issues = [str(i) for i in preflight(t, info())]
    assert "player 4 Smith, Ann: round 2: paired with player 6, whose row gives no opponent" in issues
    assert "player 5 Newcomer, Ned: round 2: paired with player 4, whose row gives player 6" in issues


def test_preflight_names_rows_that_disagree_about_a_game():
    # docs/RULES.md §1.1: a game has a winner and a loser, or two draws, and two colours;
    # a forfeit win faces a forfeit loss. Named once, on the lower number's row.
    t = section()
    t.players[1].games[0] = G(1, 1, "b", "1")      # 1 says he beat 2 in round 1; 2 says so too
    t.players[3].games[1] = G(2, 5, "w", "1")      # 4 and 5 both have White in round 2
    t.players[4].games[0] = G(1, 6, "w", "1")      # 5 writes a game won where 6 was forfeited
    issues = [str(i) for i in preflight(t, info())]
    assert issues == ["player 1 Doe, Jane: round 1: result W against player 2, whose row gives W: "
                      "the two sides disagree",
                      "player 4 Smith, Ann: round 2: the same colour as player 5",
                      "player 5 Newcomer, Ned: round 1: result W against player 6, whose row gives F: "
                      "the two sides disagree"]
    # a double forfeit (both rows lose) is no disagreement
    t = section()
    t.players[4].games[0] = G(1, 6, "w", "-")
    assert preflight(t, info()) == []


def test_preflight_asks_for_the_rating_system():
    assert [str(i) for i in preflight(section(), info(rating_system=""))] == [
        "event: rating system: missing (R regular, D dual, Q quick)"]


def test_an_export_with_issues_writes_nothing(tmp_path):
    target = tmp_path / "report"
    with pytest.raises(RatingError, match=r"report: 1 problem\(s\) to fix first, the first: event: state: missing"):
        write_report(section(), info(state=""), target)
    assert not target.exists()
    # without the check a value the format cannot hold still stops it
    with pytest.raises(RatingError, match="round 1: result '1' has no opponent"):
        write_report(_without_opponent(section()), info(), target, check=False)
    with pytest.raises(RatingError, match="H_NAME: 'x{36}' is 36 characters, the field holds 35"):
        t = section()
        t.name = "x" * 36
        write_report(t, info(), target, check=False)
    assert not target.exists()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_second_export_replaces_the_three_together(tmp_path):
    write_report(section(), info(), tmp_path)
    (tmp_path / "notes.txt").write_text("kept")
    t = section()
    t.name = "Reno Spring Open II"
    write_report(t, info(), tmp_path)
    assert sorted(os.listdir(tmp_path)) == sorted([*FILE_NAMES, "notes.txt"])
    assert read(tmp_path, "THEXPORT.DBF").records[0]["H_NAME"] == "Reno Spring Open II"


def test_a_failed_move_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    write_report(section(), info(), tmp_path)
    before = _snapshot(tmp_path)
    real_replace = os.replace
    moves: list[str] = []

    def failing_replace(src, dst):
        moves.append(Path(dst).name)
        if Path(src).parent.name.startswith(".uscf-report-new-") and Path(dst).name == "TSEXPORT.DBF":
            raise OSError("disk full")
        real_replace(src, dst)

    monkeypatch.setattr(writer_module.os, "replace", failing_replace)
    t = section()
    t.name = "Another name"
    with pytest.raises(OSError, match="disk full"):
        write_report(t, info(), tmp_path)
    assert "THEXPORT.DBF" in moves  # the first new file had been moved in before the failure
    assert _snapshot(tmp_path) == before


def test_a_failed_table_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    write_report(section(), info(), tmp_path)
    before = _snapshot(tmp_path)
    real_write = writer_module.write_table

    def failing_write(path, fields, rows):
        if path.name == "TDEXPORT.DBF":
            raise OSError("no room")
        real_write(path, fields, rows)

    monkeypatch.setattr(writer_module, "write_table", failing_write)
    with pytest.raises(OSError, match="no room"):
        write_report(section(), info(), tmp_path)
    assert _snapshot(tmp_path) == before
    with pytest.raises(OSError, match="no room"):
        write_report(section(), info(), tmp_path / "new")
    assert not (tmp_path / "new").exists()


# Every Unicode line break and a few controls: what a reader splitting lines the Unicode
# way (str.splitlines) would end a record at, and a format character a reader may drop.
LINE_BREAKS = ["\r", "\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x00", "\u200b"]


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_line_break_in_a_text_field_is_named_and_never_written(brk):
    from chessrating.uscf_report.layout import report_text, text_problem
    value = f"Smith, Ann{brk}Forged, Player"
    assert text_problem(value, 30) == f"has a control or line-break character: U+{ord(brk):04X}"
    assert report_text(value).splitlines() == [report_text(value)] and report_text(value).isprintable()
