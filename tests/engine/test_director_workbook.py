"""A director's own columns beside an imported tournament, recalculated without Excel.

The shipped FIDE Swiss template is filled by ``chessrating import-trf`` from a real
tournament report (``javafo_sample2.trf``, 52 players, 4 rounds played) and given, with
openpyxl, a sheet of the formulas a tournament director adds: RANK of the points,
COUNTIF(S) of federations, SUMIF(S), VLOOKUP and XLOOKUP of a start number, AVERAGE and
ROUND of the ratings, LARGE, SORT/SORTBY/FILTER/UNIQUE of names and federations, TEXT of
a rating. ``chessrating recalc`` evaluates the book, and every one of those cells must be
the value computed here in plain Python from the TRF file itself (its fixed columns: the
start number, name, federation, rating and the points the pairing program wrote), never
from the engine.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import TRF_DATA

pytestmark = pytest.mark.slow

TRF = "javafo_sample2.trf"
FIRST_ROW = 5  # the Crosstable's first player row (template layout)


@dataclass(frozen=True)
class Player:
    number: int
    name: str
    federation: str
    rating: int | None  # None: unrated (0 in the TRF, an empty cell in the workbook)
    points: float


def players_from_trf(path: Path) -> list[Player]:
    """The player lines (001) of a TRF-16 file, by their fixed columns (FIDE TRF-16:
    start number 5-8, name 15-47, rating 49-52, federation 54-56, points 81-84)."""
    found = []
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith("001"):
            rating = int(line[48:52])
            found.append(Player(int(line[4:8]), line[14:47].strip(), line[53:56].strip(),
                                rating or None, float(line[80:84])))
    return sorted(found, key=lambda p: p.number)


def competition_rank(value: float, values: list[float]) -> int:
    """RANK's answer: one more than the number of greater values."""
    return 1 + sum(1 for v in values if v > value)


def average_rank(value: float, values: list[float]) -> float:
    """RANK.AVG's answer: the mean of the positions the tied values hold."""
    first = competition_rank(value, values)
    return first + (values.count(value) - 1) / 2


def thousands(n: int) -> str:
    return f"{n:,}"


def excel_round(x: float, digits: int) -> float:
    """ROUND: halves away from zero, on the decimal the number shows."""
    from decimal import ROUND_HALF_UP, Decimal
    return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP))


def add_director_sheet(book: Path, out: Path, players: list[Player]) -> dict[str, Any]:
    """Write the director's sheet into a copy of ``book``; return each formula cell's
    expected value (computed from ``players``) by address."""
    import openpyxl
    from openpyxl.worksheet.formula import ArrayFormula

    n = len(players)
    last = FIRST_ROW + n - 1
    col = {key: f"Crosstable!${letter}${FIRST_ROW}:${letter}${last}"
           for key, letter in {"no": "A", "name": "B", "fed": "D", "rating": "E",
                               "points": "AL"}.items()}
    points = [p.points for p in players]
    rated = [p.rating for p in players if p.rating is not None]
    feds = sorted({p.federation for p in players})
    expected: dict[str, Any] = {}

    workbook = openpyxl.load_workbook(book)
    sheet = workbook.create_sheet("Director")
    for i, p in enumerate(players):
        row, src = 2 + i, FIRST_ROW + i
        sheet[f"A{row}"] = p.number
        cells = {
            "B": (f"=RANK(Crosstable!AL{src},{col['points']})",
                  competition_rank(p.points, points)),
            "C": (f"=_xlfn.RANK.EQ(Crosstable!AL{src},{col['points']},0)",
                  competition_rank(p.points, points)),
            "D": (f"=_xlfn.RANK.AVG(Crosstable!AL{src},{col['points']})",
                  average_rank(p.points, points)),
            "E": (f"=COUNTIF({col['fed']},Crosstable!D{src})",
                  sum(1 for q in players if q.federation == p.federation)),
            "F": (f"=VLOOKUP(A{row},Crosstable!$A${FIRST_ROW}:$E${last},4,FALSE)", p.federation),
            "G": (f"=_xlfn.XLOOKUP(A{row},{col['no']},{col['name']},\"?\")", p.name),
            "H": (f"=_xlfn.XLOOKUP(A{row},{col['no']},{col['points']})", p.points),
            "I": (f"=IF(Crosstable!E{src}=\"\",\"unrated\",TEXT(Crosstable!E{src},\"#,##0\"))",
                  "unrated" if p.rating is None else thousands(p.rating)),
            "J": (f"=IF(Crosstable!E{src}=\"\",\"\",TEXT(Crosstable!E{src}/1000,\"0.00\"))",
                  "" if p.rating is None else f"{excel_round(p.rating / 1000, 2):.2f}"),
        }
        for letter, (formula, value) in cells.items():
            sheet[f"{letter}{row}"] = formula
            expected[f"{letter}{row}"] = value

    spain = [p for p in players if p.federation == "ESP"]
    summary = {
        "L2": (f"=COUNTIFS({col['fed']},\"ESP\",{col['points']},\">=2\")",
               sum(1 for p in spain if p.points >= 2)),
        "L3": (f"=SUMIF({col['fed']},\"ESP\",{col['points']})", sum(p.points for p in spain)),
        "L4": (f"=SUMIFS({col['points']},{col['fed']},\"<>ESP\",{col['rating']},\">2000\")",
               sum(p.points for p in players if p.federation != "ESP"
                   and p.rating is not None and p.rating > 2000)),
        "L5": (f"=ROUND(AVERAGE({col['rating']}),1)", excel_round(statistics.mean(rated), 1)),
        "L6": (f"=ROUND(AVERAGE({col['points']}),2)", excel_round(statistics.mean(points), 2)),
        "L7": (f"=LARGE({col['rating']},1)", sorted(rated)[-1]),
        "L8": (f"=LARGE({col['rating']},3)", sorted(rated)[-3]),
        "L9": (f"=LARGE({col['points']},5)", sorted(points)[-5]),
        "L10": (f"=COUNTIF({col['rating']},\"\")", n - len(rated)),
        "L11": (f"=ROWS(_xlfn.UNIQUE({col['fed']}))", len(feds)),
        "L12": (f"=TEXT(AVERAGE({col['rating']}),\"0.0\")",
                f"{excel_round(statistics.mean(rated), 1):.1f}"),
        "L13": (f"=INDEX(_xlfn._xlws.SORT({col['name']}),1)",
                min((p.name for p in players), key=str.casefold)),
    }
    for address, (formula, value) in summary.items():
        sheet[address] = formula
        expected[address] = value

    # Spilled lists, written as the array formulas their results fill.
    def spill(letter: str, formula: str, values: list[Any]) -> None:
        ref = f"{letter}2:{letter}{1 + len(values)}"
        sheet[f"{letter}2"] = ArrayFormula(ref, formula)
        for k, value in enumerate(values):
            expected[f"{letter}{2 + k}"] = value

    spill("N", f"=_xlfn._xlws.SORT(_xlfn.UNIQUE({col['fed']}))", feds)
    for k, fed in enumerate(feds):
        sheet[f"O{2 + k}"] = f"=COUNTIF({col['fed']},N{2 + k})"
        expected[f"O{2 + k}"] = sum(1 for p in players if p.federation == fed)
    spill("P", f"=_xlfn._xlws.FILTER({col['name']},{col['fed']}=\"FRA\")",
          [p.name for p in players if p.federation == "FRA"])
    by_points = sorted(players, key=lambda p: (-p.points, p.number))
    spill("Q", f"=_xlfn.SORTBY({col['name']},{col['points']},-1,{col['no']},1)",
          [p.name for p in by_points])
    spill("R", f"=_xlfn._xlws.SORT(_xlfn._xlws.FILTER({col['no']},{col['points']}>=3),,-1)",
          sorted((p.number for p in players if p.points >= 3), reverse=True))
    workbook.save(out)
    return expected


def same(ours: Any, expected: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(ours, (int, float)) and abs(ours - expected) <= 1e-9 * max(1, abs(expected))
    return ours == expected or (expected == "" and ours is None)


def test_a_directors_formulas_agree_with_python(
        trf_import: Callable[..., tuple[int, Path]], tmp_path: Path) -> None:
    from chessrating.recalc import recalculate

    code, imported = trf_import(TRF)
    assert code == 0
    players = players_from_trf(TRF_DATA / TRF)
    assert len(players) == 52
    # the fixture's facts the formulas lean on: ties in points, federations besides
    # Spain, unrated players, French players to filter
    assert len(set(p.points for p in players)) < len(players)
    assert {"ESP", "FRA"} < {p.federation for p in players}
    assert any(p.rating is None for p in players)

    directed = tmp_path / "directed.xlsx"
    expected = add_director_sheet(imported, directed, players)
    report = recalculate(directed, tmp_path / "directed-recalc.xlsx")

    wrong = [f"Director!{address}: ours {report.values.get(('Director', address))!r}, "
             f"Python {value!r}" for address, value in expected.items()
             if not same(report.values.get(("Director", address)), value)]
    assert not wrong, "\n".join(wrong[:20])
    assert len(expected) > 10 * len(players)
