"""A workbook handed to the script "Pair next round" as each Excel route hands it over.

* :func:`run_lite` — the Lite copy's ``main.py`` script run on workbooks through xlwings'
  own script call path (tests/core/lite_script_driver.py, in a subprocess: the Office.js
  payload of each book, empty cells as ``""``, only the sheets of the script's
  ``include``).
* :class:`ClassicBook` — a stand-in for a classic xlwings ``Book`` over an .xlsx file read
  with openpyxl, shaped as xlwings reads Excel through COM: empty cells as ``None``,
  numbers as floats, a name's ``refers_to_range``; what the script writes goes into the
  openpyxl sheet and is listed in :attr:`ClassicBook.writes`.
* :func:`type_inputs` — values typed into a workbook's named input cells with openpyxl,
  as a director types them.
* :func:`event` — a Swiss whose first rounds the model paired, and :func:`settings_event`
  with :data:`SETTINGS`: an event before round 3 paired under pairing settings that are
  not the defaults (top colour, acceleration, rounds planned, a late entry, a withdrawal).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
from officejs_book import officejs_book
from openpyxl.utils import range_boundaries

from chessrating import scripts
from chessrating.lite.embedded import main_py
from chessrating.pairing import Pairing, apply_pairing, pair_round
from chessrating.tournament import Player, Tournament

ROOT = Path(__file__).resolve().parents[1]
RESULTS = {"1": "0", "0": "1", "=": "="}
# What the director typed on the Report sheet of the "settings" book (11 players, 7 round
# columns): 6 rounds planned, Black on top in round 1, Baku acceleration, player 9 a late
# entry from round 3, player 4 withdrawn after round 2; the most meetings left blank (once).
SETTINGS = {"PairRounds": 6, "PairTopColour": "B", "PairAcceleration": "Baku",
            "JoinsInRound": {8: 3}, "WithdrawnAfter": {3: 2}}


def event(players: int, rounds: int, played: int, seed: int = 1, pairing: dict | None = None) -> Tournament:
    """``players`` × ``rounds``, the first ``played`` rounds paired by the model (with
    ``pairing``'s options, ``top_colour`` White unless given), results cycling through win,
    draw and loss."""
    t = Tournament(name="Club Swiss", players=[Player(n, f"Player {n}", rating=2300 - 15 * n)
                                               for n in range(1, players + 1)], rounds=rounds)
    cycle = "1=0"
    pairing = {"top_colour": "w", **(pairing or {})}
    for r in range(1, played + 1):
        apply_pairing(t, pair_round(t, r, **pairing))
        for board, (white, black) in enumerate(boards_of(t, r)):
            code = cycle[(board + r + seed) % 3]
            t.player(white).games[r - 1].code = code
            t.player(black).games[r - 1].code = RESULTS[code]
    return t


def boards_of(t: Tournament, r: int) -> list[tuple[int, int]]:
    return [(p.number, p.game(r).opponent) for p in t.players if p.game(r).colour == "w"]


def settings_event() -> tuple[Tournament, Pairing]:
    """The "settings" book's event before round 3 (rounds 1 and 2 paired under
    :data:`SETTINGS`, player 9 not yet entered) and round 3 as the model pairs it."""
    options = {"top_colour": "b", "accelerated": True, "rounds": 6}
    t = event(11, 7, 2, pairing={"withdrawn": [9], **options})
    return t, pair_round(t, 3, withdrawn=[4], **options)


def lite_env() -> dict[str, str]:
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "addin"), env.get("PYTHONPATH", "")])
    return env


def run_lite(books: list[Path]) -> dict:
    """main.py's script run on each book, as xlwings Lite runs it."""
    calls = [{"script": "pair_next_round", "book": officejs_book(b, include=scripts.PAIR_NEXT_ROUND["include"])}
             for b in books]
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "core" / "lite_script_driver.py")],
                          env=lite_env(), input=json.dumps({"main": main_py(), "calls": calls}),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def type_inputs(path: Path, typed: dict[str, Any]) -> Path:
    """``path`` with ``typed`` entered by workbook name: a value for a one-cell name, or
    ``{row: value}`` (row counted from 0 within the range) for a column."""
    wb = openpyxl.load_workbook(path)
    for name, value in typed.items():
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        c1, r1, _, _ = range_boundaries(ref.replace("$", ""))
        for row, v in (value.items() if isinstance(value, dict) else [(0, value)]):
            wb[sheet].cell(r1 + row, c1).value = v  # cell(r, c, None) would leave it as it is
    wb.save(path)
    return path


def _com(value: Any) -> Any:
    """A value as COM hands it to classic xlwings: numbers as floats."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


class ClassicRange:
    def __init__(self, sheet: "ClassicSheet", r1: int, c1: int, r2: int, c2: int) -> None:
        self.sheet, self.row, self.column, self._end = sheet, r1, c1, (r2, c2)

    @property
    def last_cell(self) -> "ClassicRange":
        return ClassicRange(self.sheet, *self._end, *self._end)

    def options(self, ndim: int | None = None, **_: Any) -> "ClassicRange":
        assert ndim == 2, "the script reads every range as rows"
        return self

    @property
    def value(self) -> list[list[Any]]:
        r2, c2 = self._end
        return [[_com(self.sheet.ws.cell(r, c).value) for c in range(self.column, c2 + 1)]
                for r in range(self.row, r2 + 1)]

    @value.setter
    def value(self, rows: list[list[Any]]) -> None:
        r2, c2 = self._end
        assert (len(rows), len(rows[0])) == (r2 - self.row + 1, c2 - self.column + 1)
        for i, row in enumerate(rows):
            for k, v in enumerate(row):
                self.sheet.ws.cell(self.row + i, self.column + k).value = v
        self.sheet.book.writes.append((self.sheet.name, self.row, self.column, rows))


class ClassicSheet:
    def __init__(self, book: "ClassicBook", ws: Any) -> None:
        self.book, self.ws, self.name = book, ws, ws.title

    def range(self, first: tuple[int, int], last: tuple[int, int] | None = None) -> ClassicRange:
        return ClassicRange(self, *first, *(last or first))


class ClassicName:
    def __init__(self, book: "ClassicBook", name: str, sheet: str, ref: str) -> None:
        self.name, self._book, self._at = name, book, (sheet, ref)

    @property
    def refers_to_range(self) -> ClassicRange:
        sheet, ref = self._at
        c1, r1, c2, r2 = range_boundaries(ref.replace("$", ""))
        return ClassicRange(self._book.sheets[sheet], r1, c1, r2, c2)


class ClassicNames(list):
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return next(n for n in self if n.name == key)
        return super().__getitem__(key)


class ClassicBook:
    def __init__(self, path: Path) -> None:
        self.wb = openpyxl.load_workbook(path, data_only=True)
        self.sheets = {ws.title: ClassicSheet(self, ws) for ws in self.wb.worksheets}
        self.names = ClassicNames(ClassicName(self, name, *next(iter(d.destinations)))
                                  for name, d in self.wb.defined_names.items() if list(d.destinations))
        self.writes: list[tuple[str, int, int, list[list[Any]]]] = []
