"""The event page's structure, escaping and content, from a model built here (no workbook):
:mod:`chessrating.publish.page` and :mod:`chessrating.publish.rounds`.

The page is parsed back with the strict check of tests/html_page.py (every element
closed, lang, charset, viewport, title, th scope, nothing fetched or run).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chessrating.errors import RatingError
from chessrating.publish.command import html_output
from chessrating.publish.page import cell_text, event_page
from chessrating.publish.reading import EventData, StandingsTable
from chessrating.publish.rounds import round_boards, round_cell
from chessrating.tournament import Player, RoundGame, Tournament

from html_page import check_page

HOSTILE = "<script>alert(1)</script>"
KINDS = ("rank", "number", "name", "text", "text", "rating", "points", "tiebreak", "change", "rating")
HEADERS = ("Rank", "No.", "Name", "Title", "Fed", "Rating", "Points", "BH", "Change", "New rating")


def swiss_event(name: str = "Spring Open", first: str = "Ann") -> EventData:
    """Three players, two rounds: Bob beats Ann, Cid has the bye; then Cid–Bob drawn,
    Ann's opponent the bye."""
    ann = Player(1, first, games=[RoundGame(1, 2, "w", "0"), RoundGame(2, None, None, "U")])
    bob = Player(2, "Bob", games=[RoundGame(1, 1, "b", "1"), RoundGame(2, 3, "b", "=")])
    cid = Player(3, "Cid & Co", games=[RoundGame(1, None, None, "U"), RoundGame(2, 2, "w", "=")])
    table = StandingsTable(HEADERS, [
        (1, 2, "Bob", "FM", "ENG", 2200, 1.5, 2.5, 7.25, 2207.25),
        (2, 3, "Cid & Co", "", "", 1900, 1.5, 1.5, -3.04, 1896.96),
        (3, 1, first, "", "", None, 1.0, 2.0, None, None)], KINDS)
    return EventData(name, "swiss", "2026-03-07", "2026-03-08", table,
                     Tournament(name=name, players=[ann, bob, cid], rounds=2),
                     round_dates=["2026-03-07", "2026-03-08"])


def test_the_page_is_strict_html5_with_everything_it_must_have() -> None:
    page = check_page(event_page(swiss_event()))
    assert page.problems == []
    assert page.first("html") == {"lang": "en"}
    assert page.title == "Spring Open"
    assert "2026-03-07 – 2026-03-08" in page.text
    # standings, crosstable, then one table per round
    assert list(page.tables) == ["standings", "crosstable", "pairings-1", "pairings-2"]
    standings = page.tables["standings"]
    assert [c.text for c in standings[0]] == list(HEADERS)
    assert all(c.tag == "th" and c.attrs["scope"] == "col" for c in standings[0])
    assert [[c.text for c in row] for row in standings[1:]] == [
        ["1", "2", "Bob", "FM", "ENG", "2200", "1.5", "2.5", "+7.3", "2207"],
        ["2", "3", "Cid & Co", "", "", "1900", "1.5", "1.5", "−3.0", "1897"],
        ["3", "1", "Ann", "", "", "", "1.0", "2", "", ""]]
    # the workbook's values whole, for a comparison value by value
    assert standings[2][9].attrs["data-value"] == "1896.96"
    assert standings[1][2].tag == "th" and standings[1][2].attrs["scope"] == "row"


def test_a_hostile_name_shows_as_text_everywhere() -> None:
    text = event_page(swiss_event(name=f"Open {HOSTILE}", first=HOSTILE))
    page = check_page(text)
    assert page.problems == []  # no <script> element: check_page lists one
    assert "<script" not in text
    assert page.title == f"Open {HOSTILE}"
    assert page.text.count(HOSTILE) >= 4  # heading, standings, crosstable, pairings
    assert page.tables["standings"][3][2].text == HOSTILE


def test_attribute_and_quote_characters_are_escaped() -> None:
    name = 'O"Brien\' onmouseover="x" &amp;'
    page = check_page(event_page(swiss_event(first=name)))
    assert page.problems == []
    assert page.tables["standings"][3][2].text == name


def test_provisional_says_so_at_the_top_with_the_reasons() -> None:
    data = swiss_event()
    data.problems = ["Crosstable!BE5, BE6: check game of player 1 and player 2: <contradiction>"]
    text = event_page(data, provisional=True)
    page = check_page(text)
    assert page.problems == []
    assert page.title.startswith("Provisional")
    assert text.index("Provisional") < text.index("<h1>")
    assert data.problems[0] in page.text
    assert "Provisional" not in event_page(swiss_event())


def test_a_row_showing_a_reason_reads_to_fix_with_the_reason_in_its_title() -> None:
    data = swiss_event()
    reason = "check round 1: player 1 (Ann) and player 2 (Bob) have 1 and 1"
    data.standings.rows[2] = (reason, 1, "Ann", "", "", None, reason, reason, reason, None)
    page = check_page(event_page(data, provisional=True))
    assert page.problems == []
    row = page.tables["standings"][3]
    assert [c.text for c in row][:3] == ["to fix", "1", "Ann"]
    assert row[0].attrs == {"class": "fix", "title": reason}
    assert [c.text for c in row[6:9]] == ["to fix"] * 3
    assert page.tables["crosstable"][3][0].text == "to fix"


def test_crosstable_rows_follow_the_standings_with_each_round() -> None:
    page = check_page(event_page(swiss_event()))
    rows = [[c.text for c in row] for row in page.tables["crosstable"]]
    assert rows == [["Rank", "No.", "Name", "R1", "R2", "Points"],
                    ["1", "2", "Bob", "1b 1", "3b ½", "1.5"],
                    ["2", "3", "Cid & Co", "U", "2w ½", "1.5"],
                    ["3", "1", "Ann", "2w 0", "U", "1.0"]]


def test_pairings_per_round_with_results_and_byes() -> None:
    page = check_page(event_page(swiss_event()))
    round1 = [[c.text for c in row] for row in page.tables["pairings-1"]]
    assert round1 == [["Board", "White", "Result", "Black"], ["1", "Ann (1)", "0 – 1", "Bob (2)"]]
    round2 = [[c.text for c in row] for row in page.tables["pairings-2"]]
    assert round2[1] == ["1", "Cid & Co (3)", "½ – ½", "Bob (2)"]
    assert "Ann (1): pairing-allocated bye (1 point)" in page.text
    assert "Round 2 (2026-03-08)" in page.text


def test_boards_ordered_by_the_higher_score_then_the_sum_then_the_lower_number() -> None:
    # before round 3: 5 and 6 have 2 points, 1 and 2 have 1, 3 has 2 and 4 has 0
    def player(n: int, codes: str, third: tuple[int, str]) -> Player:
        games = [RoundGame(1, None, None, codes[0]), RoundGame(2, None, None, codes[1]),
                 RoundGame(3, third[0], third[1], " ")]
        return Player(n, f"P{n}", games=games)
    players = [player(1, "FZ", (2, "w")), player(2, "ZF", (1, "b")), player(3, "FF", (4, "w")),
               player(4, "ZZ", (3, "b")), player(5, "FF", (6, "b")), player(6, "FF", (5, "w"))]
    boards, off = round_boards(Tournament(players=players, rounds=3), 3)
    # 6-5 (2+2) first, then 3-4 (top 2, sum 2), then 1-2 (top 1)
    assert [(b.white.number, b.black.number, b.result) for b in boards] == [(6, 5, ""), (3, 4, ""), (1, 2, "")]
    assert off == []


def test_a_round_robin_lists_its_boards_as_the_berger_table() -> None:
    # FIDE C.05 Annex 1, 4 players, round 2: 4-3, 1-2
    players = [Player(n, f"P{n}") for n in range(1, 5)]
    games = {1: (2, "w"), 2: (1, "b"), 3: (4, "b"), 4: (3, "w")}
    for p in players:
        p.games = [RoundGame(1), RoundGame(2, games[p.number][0], games[p.number][1], " ")]
    boards, _ = round_boards(Tournament(players=players, rounds=2), 2, round_robin=True)
    assert [(b.white.number, b.black.number) for b in boards] == [(4, 3), (1, 2)]


def test_a_game_only_one_row_names_is_listed_from_that_row() -> None:
    a = Player(1, "A", games=[RoundGame(1, 2, "w", "1")])
    b = Player(2, "B", games=[RoundGame(1, 3, "w", "1")])
    c = Player(3, "C", games=[RoundGame(1, 2, "b", "0")])
    boards, _ = round_boards(Tournament(players=[a, b, c], rounds=1), 1)
    assert sorted((x.white.number, x.black.number, x.result) for x in boards) == [(1, 2, "1 – ?"), (2, 3, "1 – 0")]


@pytest.mark.parametrize("value,kind,shown", [
    (5.0, "points", "5.0"), (0.5, "points", "0.5"), (12.25, "change", "+12.3"), (-0.04, "change", "−0.0"),
    (2499.5, "rating", "2500"), (6.25, "tiebreak", "6.25"), (2.0, "tiebreak", "2"),
    ("no games", "change", "no games"), (None, "rating", ""),
])
def test_cell_text(value: object, kind: str, shown: str) -> None:
    assert cell_text(value, kind) == shown


def test_round_cells() -> None:
    assert [round_cell(g) for g in (RoundGame(1, 7, "b", "+"), RoundGame(1, None, None, "F"),
                                    RoundGame(1, None, None, "Z"), RoundGame(1, 4, None, " "))] == \
        ["7b +", "B", "Z", "4"]


def test_where_the_page_goes(tmp_path: Path) -> None:
    book = tmp_path / "open.xlsx"
    book.write_bytes(b"")
    assert html_output(book, None) == tmp_path / "open.html"
    assert html_output(book, tmp_path) == tmp_path / "open.html"
    assert html_output(book, tmp_path / "web.htm") == tmp_path / "web.htm"
    for refused in (book, tmp_path / "page.txt", tmp_path / "copy.xlsx"):
        with pytest.raises(RatingError, match="is not an .html file"):
            html_output(book, refused)
    with pytest.raises(RatingError, match="does not exist"):
        html_output(book, tmp_path / "missing" / "page.html")
