"""The rating report's parts that need no workbook: result codes, the Berger tables, the
pre-flight check on a tournament, and reading a TRF in UTF-16."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from hypothesis import given, strategies as st

from chessrating.trf import read_trf
from chessrating.trf.export import trf_code
from chessrating.trf.preflight import WorkbookEvent, preflight
from chessrating.tournament import Player, RoundGame, Tournament, berger

# FIDE Handbook C.05 Annex 1, Berger table for 5-6 players (first named has White):
# Rd 1: 1-6 2-5 3-4; Rd 2: 6-4 5-3 1-2; Rd 3: 2-6 3-1 4-5; Rd 4: 6-5 1-4 2-3; Rd 5: 3-6 4-2 5-1
BERGER_6 = {1: [(1, 6), (2, 5), (3, 4)], 2: [(6, 4), (5, 3), (1, 2)], 3: [(2, 6), (3, 1), (4, 5)],
            4: [(6, 5), (1, 4), (2, 3)], 5: [(3, 6), (4, 2), (5, 1)]}


def test_berger_table_for_six_players() -> None:
    table = berger(6)
    for rnd, pairs in BERGER_6.items():
        for white, black in pairs:
            a, b = min(white, black), max(white, black)
            assert table[(a, b)] == (rnd, white == a), (rnd, white, black)


@given(st.integers(2, 24))
def test_berger_every_pair_once_each_round_a_pairing(players: int) -> None:
    table = berger(players)
    assert len(table) == players * (players - 1) // 2
    rounds = players - 1 if players % 2 == 0 else players
    for rnd in range(1, rounds + 1):
        met = [x for (a, b), (r, _) in table.items() if r == rnd for x in (a, b)]
        assert len(met) == len(set(met)) >= players - 1
    whites = Counter(a if white else b for (a, b), (_, white) in table.items())
    # colours as balanced as a round robin allows
    assert max(whites.values(), default=0) - min(whites.get(p, 0) for p in range(1, players + 1)) <= 1 + players % 2


def test_result_cells_become_trf_codes() -> None:
    cells = [1, 0.5, 0, "1", "½", "=", "0", "W", "D", "L", "+", "-", "X", "F", "H", "B", "U", "Z", None, " "]
    assert [trf_code(c) for c in cells] == list("1=01==0" "1=0+-+-HFUZ") + [" ", " "]
    assert trf_code("y") is None and trf_code(2) is None and trf_code("1/3") is None


def _event(**changes: object) -> WorkbookEvent:
    a = Player(1, "Alpha, A", "m", rating=2000, fide_id=100, games=[RoundGame(1, 2, "w", "1")])
    b = Player(2, "Beta, B", games=[RoundGame(1, 1, "b", "1")])
    c = Player(3, "Gamma, C", "w", birth_date="2001/02/03", games=[RoundGame(1, 2, "w", "0")])
    t = Tournament(name="Club", city="Oslo", federation="NOR", start_date=dt.date(2026, 1, 2),
                   end_date=dt.date(2026, 1, 2), chief_arbiter="Arbiter, A", time_control="90+30",
                   round_dates=[dt.date(2026, 1, 2)], players=[a, b, c], rounds=1)
    for key, value in changes.items():
        setattr(t, key, value)
    return WorkbookEvent(t, "swiss", stated_points={1: 1.0, 2: 0.0, 3: 0.0})


def test_preflight_names_player_and_field() -> None:
    assert [str(i) for i in preflight(_event())] == [
        "player 1 Alpha, A: round 1: result '1' against player 2, whose row gives '1': the two sides disagree",
        "player 2 Beta, B: birth date: missing for a player without FIDE ID",
        "player 2 Beta, B: sex: missing for a player without FIDE ID",
        "player 2 Beta, B: points: the workbook gives 0, the results add up to 1",
        "player 3 Gamma, C: round 1: paired with player 2, whose row gives player 1",
        "player 2 Beta, B: round 1: paired 2 times (by players 1, 3)",
    ]


def test_preflight_event_fields() -> None:
    found = [str(i) for i in preflight(_event(city="", time_control="", round_dates=[]))]
    assert found[:3] == ["event: city: missing (Report sheet)", "event: time control: missing (Report sheet)",
                         "event: round dates: missing for round(s) 1"]
    assert "event: time control: 'G/90' is not encoded as TRF-2026 record 222 wants (e.g. 5400+30); " \
           "written as 122 only" in [str(i) for i in preflight(_event(time_control="G/90"), trf_format="trf26")]


def test_utf16_file_is_read_by_its_byte_order_mark() -> None:
    text = "012 Müller Cup\r\n001    1 m    Müller, Jörg                      2000 GER\r\n"
    for encoding in ("utf-16", "utf-16-be"):
        data = text.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data
        t = read_trf(data)
        assert (t.name, t.players[0].name, t.warnings) == ("Müller Cup", "Müller, Jörg", [])
