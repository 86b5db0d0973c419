"""Hostile and odd workbooks and files for the rating reports: ``export-trf`` (and its
pre-flight workbook), ``import-trf``, ``export-uscf``.

Each ``make_…`` function writes one file into a folder and returns its path. Workbooks are
made from one ``import-trf`` wrote (:func:`imported`) with chosen cells' values set as a
user, a formula or a paste leaves them (:func:`with_cells`: a text date, a year typed into
a date cell, a serial pasted as a number, a formula's ``#N/A``, a name holding a line
break and a whole ``001`` record); the TRF files are written byte by byte (a file UTF-8
but for one Latin-1 line, a 1,000-round event).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "addin"))
import make_corpus  # noqa: E402

PLAYERS = 8
FORGED = ("001   99 m  GM Forged, Player                   2800 NOR     9999999 1990/01/01  "
          "3.0   99     1 w 1")
ASTRAL_NAME = "\U0001D504lpha, Anna \U0001F600"  # 𝔄 and an emoji: two UTF-16 units each


def imported(folder: Path, *, players: int = PLAYERS, rounds: int = 3, name: str = "open",
             system: str = "fide") -> Path:
    """The event of :func:`make_corpus.swiss_trf` as ``import-trf`` writes it (a Swiss for
    8 players in 3 rounds; 6 players in 5 rounds make the round robin)."""
    from chessrating.cli import main

    trf = folder / f"{name}.trf"
    trf.write_text(make_corpus.swiss_trf(players, rounds), encoding="utf-8")
    book = folder / f"{name}.xlsx"
    args = ["import-trf", str(trf), "-o", str(book)] + (["--system", system] if system != "fide" else [])
    assert main(args) in (0, 1)
    trf.unlink()
    return book


def cells(book: Path, name: str) -> list[tuple[str, int, int]]:
    """The cells of the workbook name ``name``: (sheet, row, column)."""
    from chessrating.trf.bookview import read_book_view
    return read_book_view(book).names[name]


def with_cells(book: Path, path: Path, values: dict[tuple[str, int], object]) -> Path:
    """A copy of ``book`` at ``path`` whose cells given as (workbook name, index in it)
    hold the values given (their styles kept: a date cell stays one)."""
    from xlrecalc.patch import write_cached_values

    updates: dict[str, dict[tuple[int, int], object]] = {}
    for (name, index), value in values.items():
        sheet, row, col = cells(book, name)[index]
        updates.setdefault(sheet, {})[(row, col)] = value
    write_cached_values(book, path, updates, shown=str(book))
    return path


def event_cell(book: Path) -> tuple[str, int, int]:
    """The crosstable's Event cell (B2 of the sheet of Names)."""
    return cells(book, "Names")[0][0], 2, 2


# -- 1. a pre-flight name that is the user's workbook -----------------------------------
def make_preflight_named(folder: Path, book: Path) -> Path:
    """The user's workbook named as a pre-flight check is: ``club-preflight.xlsx``
    (``export-trf club-preflight.xlsx -o club.trf`` would write its check there)."""
    return Path(shutil.copy(book, folder / "club-preflight.xlsx"))


def make_linked_preflight(folder: Path, book: Path) -> tuple[Path, Path]:
    """The workbook ``club.xlsx`` and a hard link to it named ``out-preflight.xlsx``
    (``-o out.trf``: the check's name is another name of the workbook)."""
    own = Path(shutil.copy(book, folder / "club.xlsx"))
    link = folder / "out-preflight.xlsx"
    link.hardlink_to(own)
    return own, link


# -- 2. an output that cannot be replaced -------------------------------------------------
def make_held_outputs(folder: Path, held: str) -> dict[str, bytes]:
    """An earlier export's ``out.trf`` and ``out-preflight.xlsx``, one of them (``held``:
    ``"trf"`` or ``"check"``) a folder in the file's place (as a file held open on Windows
    cannot be replaced); returns the earlier bytes of the other."""
    trf, check = folder / "out.trf", folder / "out-preflight.xlsx"
    earlier = {"trf": b"012 the earlier report\r\n", "check": b"the earlier check"}
    for kind, path in (("trf", trf), ("check", check)):
        if kind == held:
            path.mkdir()
            (path / "keep").write_bytes(b"held")
        else:
            path.write_bytes(earlier[kind])
    return {k: v for k, v in earlier.items() if k != held}


# -- 3. dates ------------------------------------------------------------------------------
# (workbook name, index) -> the value typed, and what the report must say of it
DATES: dict[tuple[str, int], object] = {
    ("ReportStart", 0): "02.03.26",     # day first: 2 March 2026
    ("ReportEnd", 0): 2026,             # a year typed into a date cell: 1905/07/18 there
    ("RoundDates", 0): "03.03.26",
    ("RoundDates", 1): "03/04/2026",    # 3 April or 4 March: refused, named
    ("RoundDates", 2): 46087,           # a date cell's own serial: 2026/03/06
    ("BirthDates", 0): 32995,           # a serial pasted into the text cell: 1990/05/02
    ("BirthDates", 1): "15.04.1987",
    ("BirthDates", 2): "02/03/04",      # year, day or month first: refused, named
    ("BirthDates", 3): 1991,            # a year: what it says
}


def make_dates_book(folder: Path, book: Path) -> Path:
    """The Swiss with the dates of :data:`DATES`."""
    return with_cells(book, folder / "dates.xlsx", DATES)


# -- 4. names that are Excel errors --------------------------------------------------------
def make_error_name_book(folder: Path, book: Path) -> Path:
    """Player 3's name the formula error ``#N/A`` (a lookup that failed)."""
    from xlrecalc import XlErr
    return with_cells(book, folder / "error-name.xlsx", {("Names", 2): XlErr("#N/A")})


def make_error_fields_book(folder: Path, book: Path) -> Path:
    """The event's name ``#REF!`` and city ``#NAME?`` (formulas in error)."""
    from xlrecalc import XlErr
    from xlrecalc.patch import write_cached_values

    path = folder / "error-fields.xlsx"
    sheet, row, col = event_cell(book)
    city = cells(book, "ReportCity")[0]
    write_cached_values(book, path, {sheet: {(row, col): XlErr("#REF!")},
                                     city[0]: {(city[1], city[2]): XlErr("#NAME?")}}, shown=str(book))
    return path


# -- 5. round 0 ----------------------------------------------------------------------------
def make_round_zero_book(folder: Path) -> Path:
    """The 6-player round robin whose Report grid says players 1 and 2 met in round ``0W``."""
    book = imported(folder, players=6, rounds=5, name="robin")
    grid = cells(book, "GameRounds")
    first_row, first_col = grid[0][1], grid[0][2]
    index = next(i for i, (_, r, c) in enumerate(grid) if (r - first_row, c - first_col) == (0, 1))
    return with_cells(book, folder / "round-zero.xlsx", {("GameRounds", index): "0W"})


# -- 6. a thousand rounds ------------------------------------------------------------------
def thousand_round_trf(rounds: int = 1000) -> str:
    """Two players who meet ``rounds`` times, White winning (points blank: 500 does not
    fit the four columns of TRF16's points)."""
    lines = ["012 Endless Match", f"XXR {rounds}"]
    for n in (1, 2):
        line = f"001 {n:>4} m    {f'Player {n:03d}':<33} {2000 + n:>4} GER {100000 + n:>11} 1990/01/01      {n:>4}"
        for r in range(1, rounds + 1):
            white = (n == 1) == (r % 2 == 1)
            line += f"  {3 - n:>4} {'w' if white else 'b'} {'1' if white else '0'}"
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def make_thousand_rounds(folder: Path, rounds: int = 1000) -> Path:
    path = folder / "endless.trf"
    path.write_text(thousand_round_trf(rounds), encoding="utf-8")
    return path


# -- 7, 8. names that break lines or columns ------------------------------------------------
def make_astral_name_book(folder: Path, book: Path) -> Path:
    """Player 2's name with 𝔄 and an emoji (outside the Basic Multilingual Plane)."""
    return with_cells(book, folder / "astral.xlsx", {("Names", 1): ASTRAL_NAME})


# Every Unicode line break: those XML 1.0 carries (a workbook's cells), then those it
# cannot (the TRF writer is given them directly)
BREAKS = ["\u2028", "\u2029", "\u0085", "\n", "\u2028\u2029", "\u0085\n", "\u2029", "\u2028"]
XML_LESS = ["\u000b", "\u000c", "\u001c", "\u001d", "\u001e", "\r", "\r\n", "\x00"]


def make_forging_book(folder: Path, book: Path) -> Path:
    """Player 1's name ``Alpha, Anna`` then U+2028 and a whole ``001`` record (player 99);
    players 2-8 each a name with another line break before the same record; the event's
    name and city with U+2029 and U+0085 before a ``012`` and a ``022`` record."""
    from xlrecalc.patch import write_cached_values

    path = folder / "forging.xlsx"
    names = cells(book, "Names")
    updates: dict[str, dict[tuple[int, int], object]] = {}
    for n, (sheet, row, col) in enumerate(names[:PLAYERS]):
        updates.setdefault(sheet, {})[(row, col)] = f"Player {n + 1:03d}{BREAKS[n]}{FORGED}"
    sheet, row, col = event_cell(book)
    updates[sheet][(row, col)] = "Hostile Open\u2029012 Forged Event"
    city = cells(book, "ReportCity")[0]
    updates.setdefault(city[0], {})[(city[1], city[2])] = "Oslo\u0085022 Forged City"
    write_cached_values(book, path, updates, shown=str(book))
    return path


def make_forging_uscf_book(folder: Path) -> Path:
    """A US Chess workbook whose player 1's name holds U+2028 and a second name."""
    book = imported(folder, name="uscf", system="uscf")
    return with_cells(book, folder / "forging-uscf.xlsx", {("Names", 0): "Smith, Ann\u2028Forged, Player"})


# -- 9. a file UTF-8 but for one line --------------------------------------------------------
ACCENTED = {1: "Müller, Jürgen", 2: "Ødegård, Åse", 3: "Šarić, Đorđe"}


def make_mixed_encoding_trf(folder: Path, latin_line: int = 2) -> Path:
    """The Swiss with three accented names, UTF-8 but for player ``latin_line``'s line
    (Latin-1, as an editor that saved one pasted line leaves it)."""
    text = make_corpus.swiss_trf(PLAYERS, 3)
    lines = text.split("\r\n")
    for n, name in ACCENTED.items():
        at = next(i for i, line in enumerate(lines) if line.startswith(f"001 {n:>4}"))
        lines[at] = lines[at].replace(f"Player {n:03d}" + " " * (len(name) - 10), name)  # same columns
    data = b""
    for line in lines:
        latin = line.startswith(f"001 {latin_line:>4}")
        data += line.encode("cp1252" if latin else "utf-8") + b"\r\n"
    path = folder / "mixed.trf"
    path.write_bytes(data.removesuffix(b"\r\n"))
    return path


# -- the largest of a kind under 5 MB (for benchmarks/hostile_report.py) -------------------
def make_wide_trf(folder: Path, players: int = 245, rounds: int = 2000) -> Path:
    """``players`` who meet by the circle method for ``rounds`` rounds (past 999: 5 MB),
    points blank (they do not fit TRF16's four columns)."""
    games: dict[int, list[str]] = {n: [] for n in range(1, players + 1)}
    for pairs in make_corpus.round_robin_pairs(players, rounds):
        for white, black in pairs:
            games[white].append(f"  {black:>4} w 1")
            games[black].append(f"  {white:>4} b 0")
    lines = ["012 Wide Open", f"XXR {rounds}"]
    lines += [f"001 {n:>4} m    {f'Player {n:03d}':<33} {1500 + n:>4} GER {100000 + n:>11} 1990/01/01 "
              f"     {n:>4}" + "".join(games[n]) for n in range(1, players + 1)]
    path = folder / "wide.trf"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def make_mixed_encoding_big(folder: Path, comments: int = 85_000) -> Path:
    """The mixed file of :func:`make_mixed_encoding_trf` followed by ``comments`` comment
    lines with accents, every other one Latin-1 (5 MB: each decoded on its own, each named
    up to the reader's cap)."""
    path = make_mixed_encoding_trf(folder)
    with open(path, "ab") as out:
        for n in range(comments):
            line = f"\r\n### Ødegård, Åse — note {n:07d} ".ljust(48, "·")
            out.write(line.encode("latin-1", "replace") if n % 2 else line.encode("utf-8"))
    return path.rename(folder / "mixed-big.trf")
