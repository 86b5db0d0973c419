"""The Swiss template's Pairings sheet and the round robin's Schedule, as a director uses them.

Each book is the shipped template filled as a director types it (openpyxl writes the
crosstable's cells, no formula touched), recalculated with ``chessrating recalc`` and
read back. The Swiss event is gacrux's own (its random tournament generator pairs every
round with FIDE's engine): the Pairings sheet must list each round's boards in the
order ``chessrating.pairing.pair_round`` gives, the byes and absent players after them.
The round robin's schedule and ``export-trf`` must follow the Berger table of the
players entered (FIDE Handbook C.05 Annex 1), and a round robin made from a TRF file
must keep the file's rounds.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from gacrux_events import before_round, file_round, generated_trf

from chessrating.cli import main
from chessrating.pairing import pair_round
from chessrating.tournament import Player, RoundGame, Tournament, berger, berger_rounds, cell_result
from chessrating.trf import parse_trf, read_trf, write_trf
from chessrating.trf.export import export_trf

ROOT = Path(__file__).resolve().parents[2]
SWISS = ROOT / "workbooks" / "fide-swiss.xlsx"
ROUND_ROBIN = ROOT / "workbooks" / "fide-round-robin.xlsx"
FIRST = 5                  # Excel row of player 1 in both crosstables
GRID = 11                  # Excel column of the first round (Swiss) / of player 1's results (round robin)
# FIDE Handbook C.05 Annex 1, the Berger table for 7-8 players (first named has White).
PUBLISHED_8 = ("1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / "
               "3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1")
BYE_NOTES = {"U": "pairing-allocated bye", "H": "half-point bye", "F": "full-point bye",
             "Z": "zero-point bye", " ": "not paired"}


def typed(template: Path, out: Path, cells: dict[str, dict[tuple[int, int], Any]]) -> Path:
    """``template`` with ``cells`` (sheet -> (row, column) -> value) typed in; text as text."""
    book = openpyxl.load_workbook(template)
    for sheet, values in cells.items():
        for (row, col), value in values.items():
            target = book[sheet].cell(row, col)
            target.value = value
            if isinstance(value, str):
                target.data_type = "s"
    book.save(out)
    return out


def recalculated(book: Path) -> Path:
    out = book.with_name(book.stem + "-recalc.xlsx")
    assert main(["recalc", str(book), "-o", str(out)]) == 0
    return out


def result_cell(code: str) -> Any:
    """A TRF code as the director picks it from the list: 1 and 0 are numbers."""
    text = cell_result(code)
    return int(text) if text in ("1", "0") else text


def shown(code: str) -> str:
    """A result as the Pairings and Schedule sheets show it."""
    return cell_result(code)


def listing(book: Path, sheet: str, columns: int) -> tuple[Any, list[tuple[Any, ...]]]:
    """The heading of row 2 and the lines below the headers, blank lines left out."""
    ws = openpyxl.load_workbook(book, data_only=True)[sheet]
    lines = [tuple(ws.cell(r, c).value for c in range(1, columns + 1)) for r in range(FIRST, ws.max_row + 1)]
    return ws["A2"].value, [tuple(None if v == "" else v for v in line) for line in lines
                            if any(v not in (None, "") for v in line)]


# ------------------------------------------------------------------ the Swiss Pairings sheet

@pytest.fixture(scope="module")
def swiss_event() -> Tournament:
    """gacrux's 30-player, 7-round event: half- and zero-point byes, forfeits, and a
    pairing-allocated bye in round 1."""
    event = parse_trf(generated_trf(30, 7, 3))
    assert {"H", "Z", "U", "+", "-"} <= {g.code for p in event.players for g in p.games}
    return event


def swiss_cells(event: Tournament, just_paired: int) -> dict[tuple[int, int], Any]:
    """Names, ratings and the rounds as the director types them; round ``just_paired``
    has its pairing and byes but no result yet."""
    cells: dict[tuple[int, int], Any] = {}
    for p in event.players:
        row = FIRST + p.number - 1
        cells[(row, 2)], cells[(row, 5)] = p.name, p.rating
        for g in p.games:
            col = GRID + 3 * (g.round - 1)
            if g.opponent is not None:
                cells[(row, col)], cells[(row, col + 1)] = g.opponent, g.colour.upper()
            if g.code.strip() and not (g.round == just_paired and g.opponent is not None):
                cells[(row, col + 2)] = result_cell(g.code)
    return cells


def expected_pairings(event: Tournament, rnd: int, played: bool) -> list[tuple[Any, ...]]:
    """The lines the Pairings sheet shows for round ``rnd``: the engine's boards in its
    order, then the pairing-allocated bye, then the others not paired by number."""
    pairing = pair_round(before_round(event, rnd), rnd)
    boards, bye, absent = file_round(event, rnd)
    assert set(pairing.boards) == boards and pairing.bye == bye  # gacrux paired the file

    def score(number: int) -> float:
        return sum(g.points() for g in event.player(number).games[:rnd - 1])

    def name(number: int) -> str:
        return event.player(number).name

    lines: list[tuple[Any, ...]] = []
    for board, (white, black) in enumerate(pairing.boards, start=1):
        result = (f"{shown(event.player(white).game(rnd).code)} - {shown(event.player(black).game(rnd).code)}"
                  if played else None)
        lines.append((board, white, name(white), score(white), result, score(black), name(black), black))
    off = ([bye] if bye else []) + sorted(absent)
    for number in off:
        code = event.player(number).game(rnd).code
        lines.append((None, number, name(number), score(number), shown(code) or None, None,
                      BYE_NOTES[code], None))
    return lines


@pytest.fixture(scope="module")
def swiss_book(swiss_event: Tournament, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template with the event typed in, round 7 just paired."""
    folder = tmp_path_factory.mktemp("pairings")
    return typed(SWISS, folder / "swiss.xlsx", {"Crosstable": swiss_cells(swiss_event, just_paired=7)})


def test_pairings_show_the_round_just_paired_in_board_order(swiss_book: Path, swiss_event: Tournament) -> None:
    heading, lines = listing(recalculated(swiss_book), "Pairings", 8)
    assert heading == "Round 7"  # the round cell blank: the latest round with a pairing
    assert lines == expected_pairings(swiss_event, 7, played=False)


@pytest.mark.parametrize("rnd", [1, 2])
def test_pairings_of_a_round_picked(swiss_book: Path, swiss_event: Tournament, rnd: int) -> None:
    """Round 1 has the pairing-allocated bye and zero-point byes, round 2 half-point byes."""
    book = typed(swiss_book, swiss_book.with_name(f"round-{rnd}.xlsx"), {"Pairings": {(2, 10): rnd}})
    heading, lines = listing(recalculated(book), "Pairings", 8)
    assert heading == f"Round {rnd}"
    assert lines == expected_pairings(swiss_event, rnd, played=True)


# ------------------------------------------------------------------ round robins

def round_robin_cells(n: int, seed: int) -> dict[tuple[int, int], Any]:
    """``n`` players and a result for every game of their Berger table, each game typed
    in both rows."""
    rng = random.Random(seed)
    cells: dict[tuple[int, int], Any] = {}
    for i in range(1, n + 1):
        cells[(FIRST + i - 1, 2)], cells[(FIRST + i - 1, 5)] = f"Player {i}", 2500 - 10 * i
    for boards in berger_rounds(n):
        for white, black in boards:
            if black:
                ours, theirs = rng.choice([(1, 0), ("½", "½"), (0, 1)])
                cells[(FIRST + white - 1, GRID + black - 1)] = ours
                cells[(FIRST + black - 1, GRID + white - 1)] = theirs
    return cells


def schedule_rounds(lines: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """The Schedule's lines by round, each round's heading checked and left out."""
    rounds: list[list[tuple[Any, ...]]] = []
    for line in lines:
        if line[2] == f"Round {len(rounds) + 1}" and line[:2] == (None, None):
            rounds.append([])
        else:
            rounds[-1].append(line)
    return rounds


def games(t: Tournament) -> set[tuple[int, int, int]]:
    """(round, white, black) of every game of an exported event."""
    return {(g.round, p.number, g.opponent) for p in t.players for g in p.games
            if g.opponent is not None and g.colour == "w"}


@pytest.fixture(scope="module")
def eight(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Eight players typed into the 20-player template: the typed book and its recalculation."""
    book = typed(ROUND_ROBIN, tmp_path_factory.mktemp("rr8") / "rr8.xlsx", {"Crosstable": round_robin_cells(8, 8)})
    return book, recalculated(book)


def test_schedule_of_8_players_is_the_published_berger_table(eight: tuple[Path, Path]) -> None:
    typed_book, book = eight
    heading, lines = listing(book, "Schedule", 6)
    assert heading == "8 players, 7 rounds: FIDE Berger table for 8 players"
    crosstable = openpyxl.load_workbook(typed_book)["Crosstable"]

    def result(a: int, b: int) -> str:
        value = crosstable.cell(FIRST + a - 1, GRID + b - 1).value
        return str(value)

    published = [[tuple(map(int, board.split("-"))) for board in rnd.split()] for rnd in PUBLISHED_8.split(" / ")]
    assert schedule_rounds(lines) == [
        [(board, w, f"Player {w}", f"{result(w, b)} - {result(b, w)}", f"Player {b}", b)
         for board, (w, b) in enumerate(rnd, start=1)] for rnd in published]


def test_report_grid_follows_the_players_entered(eight: tuple[Path, Path]) -> None:
    _, book = eight
    values = openpyxl.load_workbook(book, data_only=True)
    sheet, area = next(iter(values.defined_names["GameRounds"].destinations))
    grid = [[c.value for c in row] for row in values[sheet][area.replace("$", "")]]
    table = berger(8)
    for i in range(1, 21):
        for j in range(1, 21):
            if i == j or max(i, j) > 8:
                assert grid[i - 1][j - 1] in (None, ""), (i, j)
                continue
            rnd, low_white = table[(min(i, j), max(i, j))]
            white = low_white == (i < j)
            assert grid[i - 1][j - 1] == f"{rnd}{'W' if white else 'B'}", (i, j)


@pytest.mark.parametrize("recalc", [True, False], ids=["recalculated", "typed only"])
def test_8_players_export_7_rounds_of_the_berger_table(eight: tuple[Path, Path], tmp_path: Path,
                                                      recalc: bool) -> None:
    """Recalculated, the grid's formulas give the rounds; typed only (openpyxl keeps no
    formula's value), the export reads the same table for the players entered."""
    book = eight[1] if recalc else eight[0]
    summary = export_trf(book, tmp_path / "rr8.trf")
    t = read_trf(tmp_path / "rr8.trf")
    assert t.rounds == 7 and len(t.players) == 8
    published = {(r, *map(int, board.split("-"))) for r, rnd in enumerate(PUBLISHED_8.split(" / "), start=1)
                 for board in rnd.split()}
    assert games(t) == published
    assert any("Berger" in str(issue) for issue in summary.issues) is not recalc


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = typed(ROUND_ROBIN, tmp_path_factory.mktemp("rr5") / "rr5.xlsx", {"Crosstable": round_robin_cells(5, 5)})
    return recalculated(book)


def test_schedule_of_5_players_gives_a_bye_each_round(five: Path) -> None:
    heading, lines = listing(five, "Schedule", 6)
    assert heading == "5 players, 5 rounds: FIDE Berger table for 6 players"
    rounds = schedule_rounds(lines)
    assert len(rounds) == 5
    for lines_of_round, boards in zip(rounds, berger_rounds(5)):
        played = [(w, b) for w, b in boards if b]
        (bye,) = [w for w, b in boards if not b]
        assert [(line[0], line[1], line[5]) for line in lines_of_round] == [
            *((k, w, b) for k, (w, b) in enumerate(played, start=1)), (None, bye, None)]
        assert lines_of_round[-1][4] == "bye"


def test_5_players_export_5_rounds_with_a_bye_each(five: Path, tmp_path: Path) -> None:
    export_trf(five, tmp_path / "rr5.trf")
    t = read_trf(tmp_path / "rr5.trf")
    assert t.rounds == 5
    for rnd, boards in enumerate(berger_rounds(5), start=1):
        free = [p.number for p in t.players if p.game(rnd).opponent is None]
        assert free == [w for w, b in boards if not b]
    assert games(t) == {(r, w, b) for r, boards in enumerate(berger_rounds(5), start=1) for w, b in boards if b}


def test_imported_round_robin_keeps_the_files_rounds(tmp_path: Path) -> None:
    """A round robin whose file plays the Berger rounds backwards with the colours
    swapped: the workbook, its schedule and the export keep the file's rounds."""
    rounds = [[(b, w) for w, b in rnd] for rnd in reversed(berger_rounds(6))]
    players = [Player(k, f"Player {k}", rating=2400 - 10 * k) for k in range(1, 7)]
    for r, boards in enumerate(rounds, start=1):
        for white, black in boards:
            players[white - 1].games.append(RoundGame(r, black, "w", "="))
            players[black - 1].games.append(RoundGame(r, white, "b", "="))
    source = tmp_path / "own-rounds.trf"
    source.write_text(write_trf(Tournament(name="Own rounds", players=players, rounds=5)), encoding="utf-8")
    book = tmp_path / "own-rounds.xlsx"
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    assert openpyxl.load_workbook(book).sheetnames[:4] == ["Crosstable", "Standings", "Schedule", "Report"]
    by_round = schedule_rounds(listing(book, "Schedule", 6)[1])
    assert [{(line[1], line[5]) for line in lines} for lines in by_round] == [set(boards) for boards in rounds]
    export_trf(book, tmp_path / "again.trf")
    again = read_trf(tmp_path / "again.trf")
    assert games(again) == {(r, w, b) for r, boards in enumerate(rounds, start=1) for w, b in boards}
    assert games(again) != {(r, w, b) for r, boards in enumerate(berger_rounds(6), start=1) for w, b in boards}
