"""``chessrating import-trf``: TRF files into filled, recalculated workbooks.

Values are checked against the core called directly (chessrating.fide, chessrating.uscf.event)
on the games read from the same file, and against what the file states (players, rounds,
warnings). The real files are those of tests/data/trf (see its README).
"""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from chessrating import fide
from chessrating.cli import main
from chessrating.results import Game, NoValue
from chessrating.trf import read_trf
from chessrating.progress import Progress
from chessrating.import_trf import K_NOTE, K_NOTE_NEW, USCF_NOTE, USCF_NOTE_NEW
from chessrating.uscf.event import rate_event

from conftest import TRF_DATA as TRF

REAL_FILES = ["javafo_sample2.trf", "grandmommyscup.trf", "trf26_team.trf", "issue_7.trf"]
SCORE = {"1": 1.0, "=": 0.5, "0": 0.0}


def real_file(name: str) -> Path:
    return TRF / name


# ------------------------------------------------------------------------- building TRF text

def player_line(number: int, name: str, rating: int | None, birth: str,
                rounds: list[tuple[int | None, str, str]]) -> str:
    """A TRF16 001 line, columns as FIDE C.04 Annex 2 gives them (see chessrating.trf)."""
    line = (f"001 {number:>4} m    {name:<33} {rating or '':>4} FID {'':>11} {birth:<10} "
            f"{'':>4} {'':>4}")
    for opponent, colour, code in rounds:
        line += f"  {opponent if opponent else '0000':>4} {colour} {code}"
    return line


# A six-player single round robin (circle method, 5 rounds). Player 6 is unrated; the game
# between players 3 and 4 is a forfeit (+ for 3). The scores of each pair are chosen so
# that every K rule shows: 1 is 2450 (K 10), 2 is a junior at 2250 (K 40), 3-5 adults.
RR_PLAYERS = [  # number, name, rating, birth date
    (1, "Alpha, Anna", 2450, "1990/02/03"),
    (2, "Beta, Bert", 2250, "2010/06/01"),
    (3, "Gamma, Gus", 2100, "1980/01/01"),
    (4, "Delta, Dora", 1950, "1975/12/31"),
    (5, "Epsilon, Eve", 2380, "1985/07/07"),
    (6, "Zeta, Zoe", None, "2000/01/01"),
]
RR_ROUNDS = [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
             [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
# Result of the lower-numbered player of each pair.
RR_RESULTS = {(1, 6): "1", (2, 5): "=", (3, 4): "+", (4, 6): "0", (3, 5): "0", (1, 2): "=",
              (2, 6): "1", (1, 3): "1", (4, 5): "=", (5, 6): "=", (1, 4): "=", (2, 3): "0",
              (3, 6): "1", (2, 4): "1", (1, 5): "0"}
MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def round_robin_text(names: dict[int, str] | None = None) -> str:
    names = names or {}
    lines = ["012 Spring Round Robin", "022 Testville", "042 2025/05/01", "052 2025/05/05",
             "122 90+30"]
    for number, name, rating, birth in RR_PLAYERS:
        rounds = []
        for pairs in RR_ROUNDS:
            for white, black in pairs:
                if number in (white, black):
                    opponent = black if number == white else white
                    low = min(number, opponent)
                    code = RR_RESULTS[(low, max(number, opponent))]
                    rounds.append((opponent, "w" if number == white else "b",
                                   code if number == low else MIRROR[code]))
        lines.append(player_line(number, names.get(number, name), rating, birth, rounds))
    return "\r\n".join(lines) + "\r\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", newline="")
    return path


# ------------------------------------------------------------------------- reading workbooks

def header_columns(ws, rows=(3, 4)) -> dict[str, int]:
    """Column number of each header text in the given rows (first occurrence)."""
    found: dict[str, int] = {}
    for row in rows:
        for cell in ws[row]:
            if isinstance(cell.value, str) and cell.value not in found:
                found[cell.value] = cell.column
    return found


def import_book(tmp_path: Path, source: Path, *options: str, name: str = "book.xlsx"):
    out = tmp_path / name
    code = main(["import-trf", str(source), "-o", str(out), *options])
    return code, out


def summary_value(lines: list[str], key: str) -> str:
    matches = [line.split(": ", 1)[1] for line in lines if line.startswith(f"{key}: ")]
    assert len(matches) == 1, (key, lines)
    return matches[0]


# ----------------------------------------------------------------------------- real files

@pytest.mark.parametrize("name", REAL_FILES)
def test_each_real_file_imports_with_its_players_rounds_and_warnings(name, trf_import, capsys):
    source = real_file(name)
    tournament = read_trf(source)
    code, out = trf_import(name)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.out.splitlines()
    assert summary_value(lines, "players") == str(len(tournament.players))
    assert summary_value(lines, "rounds") == str(tournament.rounds)
    assert summary_value(lines, "warnings") == str(len(tournament.warnings))
    listed = [line.strip() for line in lines if line.startswith("  line ")]
    assert listed == [str(w) for w in tournament.warnings[:20]]

    ws = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
    numbers = sorted(p.number for p in tournament.players)
    if tournament.is_round_robin and len(numbers) <= 20:
        assert "FIDE round-robin" in summary_value(lines, "workbook")
        # trf26_team.trf: two players who met once (five rounds in 142/XXR, one played)
        columns = header_columns(ws, rows=(4,))
        grid = [c.value for c in ws[4] if isinstance(c.value, int)]
        assert grid == list(range(1, len(numbers) + 1))
        assert [ws.cell(4 + i, 2).value for i in range(1, len(numbers) + 1)] == \
            [p.name for p in sorted(tournament.players, key=lambda p: p.number)]
        assert ws.cell(5 + len(numbers), 2).value is None
        assert "Change" in columns
    else:
        assert "FIDE Swiss" in summary_value(lines, "workbook")
        rounds = [c.value for c in ws[3] if isinstance(c.value, str) and c.value.startswith("Round ")]
        assert rounds == [f"Round {r}" for r in range(1, tournament.rounds + 1)]
        by_number = {p.number: p for p in tournament.players}
        for number in range(1, max(numbers) + 1):
            assert ws.cell(4 + number, 2).value == (by_number[number].name if number in by_number else None)
        assert ws.cell(5 + max(numbers), 1).value is None  # sized to the event: no spare rows
        # Every game counted in the summary is a result the Games sheet reads as rated for
        # both players: 1, ½ or 0 against a rated opponent, by a rated player.
        games = openpyxl.load_workbook(out, data_only=True)["Games"]
        block = tournament.rounds + 1
        rated_entries = 0
        for number in numbers:
            own = ws.cell(4 + number, 5).value
            for r in range(tournament.rounds):
                result = games.cell(4 + number, 3 + r).value
                opponent = games.cell(4 + number, 3 + block + r).value
                if own and isinstance(opponent, (int, float)) and result in (1, "½", 0):
                    rated_entries += 1
        both = int(summary_value(lines, "games rated").split()[0])
        assert rated_entries == 2 * both


def test_warnings_are_listed_with_line_numbers_up_to_twenty(tmp_path, capsys):
    # 25 lines without a starting number (columns 5-8): each gives two warnings, the
    # field is not a number and the line is skipped
    text = round_robin_text() + "".join(f"001 abcd x{i}\r\n" for i in range(25))
    source = write(tmp_path / "noisy.trf", text)
    code, _ = import_book(tmp_path, source)
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert summary_value(lines, "players") == "6"
    assert summary_value(lines, "warnings") == "50"
    start = lines.index("warnings: 50")
    junk = len(round_robin_text().splitlines()) + 1  # line number of the first junk line
    assert lines[start + 1:start + 21] == [
        text for n in range(junk, junk + 10)
        for text in (f"  line {n}: starting number 'abcd' is not a number",
                     f"  line {n}: no starting number in columns 5-8; line skipped")]
    assert lines[start + 21] == "  ... and 30 more"


def test_default_output_is_beside_the_file_and_the_trf_is_never_overwritten(tmp_path, capsys):
    source = write(tmp_path / "spring.trf", round_robin_text())
    before = source.read_bytes()
    assert main(["import-trf", str(source)]) == 0
    assert (tmp_path / "spring.xlsx").is_file()
    capsys.readouterr()
    assert main(["import-trf", str(source), "-o", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the TRF file itself" in err
    assert source.read_bytes() == before
    # a TRF file named .xlsx would be its own default output: refused the same way
    odd = write(tmp_path / "odd.xlsx", round_robin_text())
    assert main(["import-trf", str(odd)]) == 2
    assert "is the TRF file itself" in capsys.readouterr().err


@pytest.mark.parametrize("make", ["missing", "directory", "not_trf"])
def test_unreadable_input_is_one_line_and_exit_code_2(make, tmp_path, capsys):
    path = tmp_path / "event.trf"
    if make == "directory":
        path.mkdir()
    elif make == "not_trf":
        path.write_bytes(b"PK\x03\x04 this is no tournament report\n")
    assert main(["import-trf", str(path), "-o", str(tmp_path / "out.xlsx")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("chessrating import-trf: error: ")
    assert str(path) in captured.err
    assert not (tmp_path / "out.xlsx").exists()


# --------------------------------------------------------------------------- round robin

def rr_games(tournament, number: int) -> list[Game]:
    """Player's games that FIDE rates: over the board, against a rated opponent."""
    rating = {p.number: p.rating for p in tournament.players}
    player = tournament.player(number)
    return [Game(rating[g.opponent], SCORE[g.code]) for g in player.games
            if g.code in SCORE and g.opponent and rating[g.opponent]]


ASSUMED = "assumed: "


def established_k(rating: int, birth_year: int | None, year: int, games_in_period: int) -> int:
    """The rule book's K for an established player (docs/RULES.md §3.3: 30 rated games or more,
    peak = rating): the most K can be for a player whose earlier games are unknown."""
    return fide.k_factor(rating, 30, birth_year=birth_year, year=year, peak_rating=rating,
                         games_in_period=games_in_period)


@pytest.mark.parametrize("options", [[], ["--k-from-trf-data"], ["--new-players"]])
def test_round_robin_matches_the_core(options, tmp_path, capsys):
    new_players = options == ["--new-players"]
    source = write(tmp_path / "rr.trf", round_robin_text())
    tournament = read_trf(source)
    assert tournament.is_round_robin and tournament.warnings == []
    code, out = import_book(tmp_path, source, *options)
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    ws = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
    col = header_columns(ws, rows=(4,))
    assert [c.value for c in ws[4] if isinstance(c.value, int)] == [1, 2, 3, 4, 5, 6]
    assert ws.cell(2, 16).value == ("new" if new_players else "established")
    for number, name, rating, birth in RR_PLAYERS:
        row = 4 + number
        games = rr_games(tournament, number)
        assert ws.cell(row, col["Name"]).value == name
        assert ws.cell(row, col["Rating"]).value == rating
        assert ws.cell(row, col["Birth year"]).value == int(birth[:4])
        if rating is None:
            # FIDE §8.2: first rating from 5 games against rated opponents
            assert len(games) == 5
            assert ws.cell(row, col["First rating"]).value == fide.initial_rating(games)
            assert ws.cell(row, col["K"]).value in (None, "")
            assert ws.cell(row, col["Change"]).value in (None, "")
            assert ws.cell(row, col["Check"]).value in (None, "")
            continue
        # The file has no rated games, peak or listed K: the cells stay empty for the
        # arbiter, and the row says what K was assumed.
        assert [ws.cell(row, col[h]).value for h in ("Rated games", "Peak", "K list")] == [None] * 3
        # (from 2400 K is 10 whatever the games: nothing assumed)
        note = ws.cell(row, col["Check"]).value
        if rating < 2400:
            assert note.startswith(ASSUMED + "rated games unknown, read as " + ("0" if new_players else "30"))
        else:
            assert note in (None, "")
        # the template counts every entered game against a rated opponent for the 700 rule
        # (no effect here: at most 5 games)
        k = fide.k_factor(rating, 0 if new_players else 30, birth_year=int(birth[:4]), year=2025,
                          games_in_period=5)
        assert ws.cell(row, col["K"]).value == k
        if not new_players:
            assert k <= established_k(rating, int(birth[:4]), 2025, 5)
        change = fide.rating_change(rating, games, k)
        assert ws.cell(row, col["Change"]).value == pytest.approx(change, abs=1e-9)
        assert ws.cell(row, col["New rating"]).value == fide.new_rating(rating, games, k)
        points = tournament.computed_points(tournament.player(number))
        assert ws.cell(row, col["Points"]).value == points
    # the K rules as documented: 10 from 2400; junior under 2300 40; else 20 when read as
    # established (the default) and 40 when read as new players (0 rated games)
    ks = [ws.cell(4 + n, col["K"]).value for n in range(1, 6)]
    assert ks == ([10, 40, 40, 40, 40] if new_players else [10, 40, 20, 20, 20])
    # 15 pairs: 1 forfeit (3-4), 5 games of the unrated player 6, 9 between rated players
    assert summary_value(lines, "games rated") == (
        "9 (played over the board between two rated players; 5 more against an unrated player)")
    assert summary_value(lines, "not rated") == "1 forfeits, 0 byes, 0 absences"
    assert summary_value(lines, "unrated players").startswith("1 (1 reach a first rating")
    assert (K_NOTE_NEW if new_players else K_NOTE) in lines


def test_a_listed_k_overrides_the_assumed_one(tmp_path, capsys):
    from chessrating.recalc import recalculate

    source = write(tmp_path / "rr.trf", round_robin_text())
    code, out = import_book(tmp_path, source)
    capsys.readouterr()
    book = openpyxl.load_workbook(out)
    ws = book["Crosstable"]
    col = header_columns(ws, rows=(4,))
    ws.cell(7, col["K list"]).value = 40       # Gamma (2100, adult): the list says K 40
    book.save(tmp_path / "typed.xlsx")
    recalculate(tmp_path / "typed.xlsx", tmp_path / "listed.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "listed.xlsx", data_only=True)["Crosstable"]
    tournament = read_trf(source)
    games = rr_games(tournament, 3)
    assert ws.cell(7, col["K"]).value == 40
    assert ws.cell(7, col["Change"]).value == pytest.approx(fide.rating_change(2100, games, 40))
    # the listed K is no assumption: the note is gone from that row only
    assert ws.cell(7, col["Check"]).value in (None, "")
    assert ws.cell(8, col["Check"]).value.startswith(ASSUMED)


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_k_never_above_the_rule_book_and_marked(name, tmp_path, capsys):
    source = real_file(name)
    tournament = read_trf(source)
    code, out = import_book(tmp_path, source)
    capsys.readouterr()
    assert code == 0
    book = openpyxl.load_workbook(out, data_only=True)
    ws = book["Crosstable"]
    round_robin = ws.cell(4, 11).value == 1
    col = header_columns(ws, rows=(4,) if round_robin else (3, 4))
    year = ws.cell(2, 7).value or __import__("datetime").date.today().year
    ordered = sorted(tournament.players, key=lambda p: p.number)
    checked = 0
    for index, p in enumerate(ordered):
        row = 5 + index if round_robin else 4 + p.number
        k, note = ws.cell(row, col["K"]).value, ws.cell(row, col["Check"]).value
        if not p.rating:
            # no K; Check tells only why there is no first rating, if there is none
            first = ws.cell(row, col["First rating"]).value
            assert k in (None, "") and note in (None, "", first)
            assert isinstance(first, (int, float)) or note == first, (p.number, first, note)
            continue
        rated_in_period = sum(1 for g in p.games if g.code in SCORE and g.opponent
                              and tournament.player(g.opponent).rating)
        assert isinstance(k, int), (p.number, k)
        assert k <= established_k(p.rating, p.birth_year, year, rated_in_period), p.number
        assert k in (10, 20, 40) or k * rated_in_period <= 700
        if p.rating < 2400:
            assert note.startswith(ASSUMED + "rated games unknown, read as 30"), p.number
        else:
            assert k == 10 and note in (None, ""), p.number
        checked += 1
    assert checked > 0
    # K, change and new rating of those rows carry the assumed mark (a conditional format)
    raw = openpyxl.load_workbook(out)["Crosstable"]
    # rated under 2400, K list and games blank
    rule = 'AND(NOT(OR($E5="",$E5=0,$E5="-")),$I5="",$F5="",N($E5)<2400,N($H5)<2400)'
    marked = {str(cf.sqref).split(":")[0].rstrip("0123456789") for cf in raw.conditional_formatting
              for r in cf.rules if r.formula[0] == rule}
    letters = {openpyxl.utils.get_column_letter(col[h]) for h in ("K", "Change", "New rating")}
    assert letters <= marked


def test_hostile_names_stay_text(tmp_path, capsys):
    names = {1: '=HYPERLINK("http://x.test","a")', 2: "@SUM(1+1)*cmd|' /C calc'!A0"[:33],
             3: "+1+2", 5: "-3+4"}
    source = write(tmp_path / "names.trf", round_robin_text(names))
    for system in ("fide", "uscf"):
        code, out = import_book(tmp_path, source, "--system", system, name=f"{system}.xlsx")
        assert code == 0
        raw = openpyxl.load_workbook(out)["Crosstable"]
        cached = openpyxl.load_workbook(out, data_only=True)
        for number, name in names.items():
            assert raw.cell(4 + number, 2).value == name
            assert raw.cell(4 + number, 2).data_type == "s"
        if system == "uscf":  # the Games sheet copies each name by formula
            games = cached["Games"]
            assert [games.cell(4 + n, 2).value for n in names] == list(names.values())
    capsys.readouterr()


# ---------------------------------------------------------------------------- US Chess

@pytest.mark.parametrize("new_players", [False, True])
def test_uscf_event_column_equals_rate_event(new_players, tmp_path, capsys):
    source = real_file("javafo_sample2.trf")
    tournament = read_trf(source)
    code, out = import_book(tmp_path, source, "--system", "uscf",
                            *(["--new-players"] if new_players else []))
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert (USCF_NOTE_NEW if new_players else USCF_NOTE) in lines
    assert "US Chess event" in summary_value(lines, "workbook")
    ws = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
    col = header_columns(ws)
    count = max(p.number for p in tournament.players)
    by_number = {p.number: p for p in tournament.players}
    ratings = [by_number[n].rating if n in by_number else None for n in range(1, count + 1)]
    pairings = {}
    for p in tournament.players:
        for g in p.games:
            if g.code in SCORE and g.opponent:
                low, high = min(p.number, g.opponent), max(p.number, g.opponent)
                score = SCORE[g.code] if p.number == low else 1 - SCORE[g.code]
                pairings[(g.round, low, high)] = (low - 1, high - 1, score)
    # Games so far are unknown: a rated player is read as established (50 games: N' = N*,
    # US Chess §2), or as a new player (0 games) with --new-players.
    known = [0 if new_players or not r else 50 for r in ratings]
    expected = rate_event(ratings, known, list(pairings.values()))
    if not new_players:
        # reading them as 0 instead moves the ratings (the default must not do that)
        assert rate_event(ratings, [0] * count, list(pairings.values())) != expected
    assert summary_value(lines, "games rated") == f"{len(pairings)} (played over the board)"
    for number in range(1, count + 1):
        row = 4 + number
        assert ws.cell(row, col["Rating"]).value == ratings[number - 1]
        assert ws.cell(row, col["Games so far"]).value is None
        note = ws.cell(row, col["Check"]).value
        if ratings[number - 1]:
            assert note == ASSUMED + ("games so far unknown, read as 0 (new player)" if new_players
                                      else "games so far unknown, read as 50 (established, N′ = N*)")
        else:
            assert note in (None, "")
        shown = ws.cell(row, col["Two passes"]).value
        player = by_number.get(number)
        if player is None or not any(g.opponent for g in player.games):
            assert shown is None, number  # no game at all: the row stays quiet
        elif isinstance(expected[number - 1], NoValue):
            assert shown in (None, "", expected[number - 1].reason)
        else:
            assert shown == pytest.approx(expected[number - 1], abs=1e-9), number
    rounds = [c.value for c in ws[3] if isinstance(c.value, str) and c.value.startswith("Round ")]
    assert len(rounds) == tournament.rounds
    # every value resting on the games so far carries the assumed mark in rated rows
    raw = openpyxl.load_workbook(out)["Crosstable"]
    rules = {str(cf.sqref): rule.formula[0] for cf in raw.conditional_formatting for rule in cf.rules}
    for header in ("N′", "K", "Bonus", "One pass", "Two passes", "Change", "Difference"):
        letter = openpyxl.utils.get_column_letter(col[header])
        assert rules[f"{letter}5:{letter}{4 + count}"] == 'AND(NOT(OR($C5="",$C5=0,$C5="-")),$D5="")'


# --------------------------------------------------------------------------- progress bar

def test_progress_bar_waits_then_writes_one_line_per_stage():
    quiet = io.StringIO()
    bar = Progress(quiet, delay=3600)
    bar.update("recalculating", "1/2 formulas", 0.5)
    assert quiet.getvalue() == ""
    log = io.StringIO()
    bar = Progress(log, show_now=True)
    bar.update("writing", "52 rows", 0.1)
    bar.update("recalculating", "1000/3000 formulas", 0.5)
    bar.update("recalculating", "2000/3000 formulas", 0.8)
    bar.update("done", fraction=1.0)
    bar.close()
    assert log.getvalue().splitlines() == [
        "writing: 52 rows",
        "recalculating: 1000/3000 formulas",
        "done",
    ]


def test_a_large_file_shows_the_bar_on_stderr(trf_import, capsys):
    source = real_file("grandmommyscup.trf")  # 249 players: shown from the start
    code, _ = trf_import(source.name)
    err = capsys.readouterr().err
    assert code == 0
    assert "writing: 249 players read; 249 rows x 14 rounds" in err
    assert any(line.startswith("evaluating ") and line.endswith(" formulas in grandmommyscup.xlsx")
               for line in err.splitlines())
    assert err.splitlines()[-1] == "done: grandmommyscup.xlsx"


# ------------------------------------------------------------------------ results without opponents

def test_a_result_without_an_opponent_keeps_its_points_and_is_no_game(tmp_path, capsys):
    # Player 7 is paired with himself in
    # round 1 (the reader drops the opponent) and has a draw with no opponent in round 2.
    text = round_robin_text() + player_line(7, "Self, Paired", 1500, "1990/01/01",
                                            [(7, "w", "1"), (None, "-", "=")]) + "\r\n"
    source = write(tmp_path / "self.trf", text)
    for system in ("fide", "uscf"):
        code, out = import_book(tmp_path, source, "--system", system, name=f"{system}.xlsx")
        printed = capsys.readouterr().out
        assert code == 0
        assert "round 1: player is paired with himself; opponent dropped" in printed
        assert "round 1: result '1' without an opponent" in printed
        assert "round 2: result '=' without an opponent" in printed
        raw = openpyxl.load_workbook(out)["Crosstable"]
        ws = openpyxl.load_workbook(out, data_only=True)["Crosstable"]
        col = header_columns(ws)
        first_result = col["Round 1"] + 2  # Opp, Col, Res in both
        step = 3
        # Written as the byes with the same points: B (full point), H (half a point).
        assert [raw.cell(11, first_result + step * k).value for k in range(2)] == ["B", "H"]
        assert raw.cell(11, col["Round 1"]).value is None
        # 1.5 points (TRF defaults), no game: nothing rated, no performance.
        assert ws.cell(11, col["Points"]).value == 1.5
        assert ws.cell(11, col["Games"]).value == 0
        rated = ("Perf. (TPR)", "Change", "New rating") if system == "fide" else (
            "Perf.", "One pass", "Two passes", "Change")
        assert all(ws.cell(11, col[h]).value is None for h in rated)
        # The functions see no game in those rounds (Games sheet, first block: results read).
        games = openpyxl.load_workbook(out, data_only=True)["Games"]
        assert games.cell(11, 3).value is None and games.cell(11, 4).value is None
        # Player 1's six-player round-robin row is untouched: 3 points from RR_RESULTS
        # (1, ½, 1, ½, 0 against 6, 2, 3, 4, 5).
        assert ws.cell(5, col["Points"]).value == 3.0 and ws.cell(5, col["Games"]).value == 5
