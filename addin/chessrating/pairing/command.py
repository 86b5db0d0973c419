"""``chessrating pair`` and ``chessrating check-pairings``: a FIDE Swiss workbook paired by gacrux.

:func:`pair_workbook` reads the workbook through its names (:mod:`chessrating.trf.bookview`;
what they hold: :mod:`.book`), pairs the next round with gacrux and writes each player's
opponent, colour and, for a bye, the bye code into the round's cells as
``fide-list --fill`` writes inputs: the new values patched into the sheet XML of the
untouched file (:func:`xlrecalc.write_cached_values`), then every formula
recalculated into the output, which appears whole or not at all. The recalculated
book's Check column must be clean: a reason there (a contradiction, a result that is not
one, a refused rating) refuses the round with nothing written, as a round before with a
game without a result does. :func:`check_workbook` re-pairs every paired round from the
rounds before it and lists the rounds that differ.

Exit codes: 0 paired and written (check-pairings: every round agrees); 1 nothing written
because the workbook's content refuses the round, listed with its cells (check-pairings:
a round differs, or the content stops the check), or written but some cells show an
error; 2 a file that cannot be read or written, or a workbook that is not a FIDE Swiss.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RatingError
from .book import (
    FIRST_ROUND_AFTER_NAME, NAMES, PER_ROUND, ROUND_INPUTS, CellKey, Finding, PairingRefused,
    book_kind, findings_text, pair_event, pairing_lines, read_event, result_code, round_cells,
    round_robin_refusal, USCF_REFUSAL,
)
from .swiss import Pairing, RoundDifference, check_pairings

__all__ = ["PairSummary", "pair_workbook", "check_workbook", "add_pair", "add_check"]

Cell = tuple[str, int, int]  # sheet, row, column (1-based, as Excel counts)


@dataclass
class BookNames:
    """A workbook's named ranges as :mod:`.book` reads them: values and cells, row by row."""

    values: dict[str, list[list[Any]]] = field(default_factory=dict)
    cells: dict[str, list[list[Cell]]] = field(default_factory=dict)

    def where(self, key: CellKey) -> str:
        """A cell key as an address: ``Crosstable!K7``."""
        from xlrecalc import column_letters

        name, row, col = key
        try:
            sheet, r, c = self.cells[name][row][col]
        except (KeyError, IndexError):
            return name
        return f"{sheet}!{column_letters(c)}{r}"

    def cell(self, key: CellKey) -> Cell:
        name, row, col = key
        return self.cells[name][row][col]


def _by_rows(cells: list[Cell]) -> list[list[Cell]]:
    rows: dict[int, list[Cell]] = {}
    for cell in cells:
        rows.setdefault(cell[1], []).append(cell)
    return [sorted(rows[r], key=lambda c: c[2]) for r in sorted(rows)]


def book_names(view: Any) -> BookNames:
    """The values and cells of :data:`.book.NAMES` in a workbook read by
    :func:`chessrating.trf.bookview.read_book_view`. A Swiss made before the round
    columns had a name is read by its ``Opp`` headers, as ``export-trf`` reads it."""
    found = BookNames()
    for name in NAMES:
        if view.has(name):
            found.cells[name] = _by_rows(view.names[name])
    if ROUND_INPUTS not in found.cells and "Names" in found.cells:
        found.cells[ROUND_INPUTS] = _round_columns(view, found.cells["Names"])
    for name, rows in found.cells.items():
        found.values[name] = [[view.value(*c) for c in row] for row in rows]
    return found


def _round_columns(view: Any, names: list[list[Cell]]) -> list[list[Cell]]:
    sheet, first, name_col = names[0][0]
    start = name_col + FIRST_ROUND_AFTER_NAME  # the first round's Opp column
    rounds = 0  # as rounds_by_headers counts them, cell by cell
    while view.value(sheet, first - 1, start + PER_ROUND * rounds) == "Opp":
        rounds += 1
    return [[(sheet, row[0][1], start + k) for k in range(PER_ROUND * rounds)] for row in names]


def _kind(view: Any, found: BookNames) -> None:
    """Refuse a workbook ``pair`` does not pair: US Chess, a round robin, not a template."""
    kind = book_kind(view.names)
    if kind == "uscf":
        raise PairingRefused(USCF_REFUSAL)
    if kind == "round robin":
        players = sum(1 for row in found.values.get("Names", []) for v in row if v not in (None, ""))
        raise PairingRefused(round_robin_refusal(players))
    if kind != "swiss" or not found.cells.get(ROUND_INPUTS) or not found.cells[ROUND_INPUTS][0]:
        raise RatingError(f"book: {str(view.path)!r} is not a FIDE Swiss workbook (no Names "
                          "and round columns); build it with chessrating templates or import-trf")


def _same(current: Any, value: Any, column: int) -> bool:
    """Whether a cell already holds what the pairing writes (as the workbook reads it)."""
    blank = current is None or (isinstance(current, str) and not current.strip())
    if value is None:
        return blank
    if blank:
        return False
    if column == 2:  # the result: the same code, however spelled
        return result_code(current) == result_code(value)
    if column == 1:
        return str(current).strip().upper() == value
    return isinstance(current, (int, float)) and not isinstance(current, bool) and current == value


@dataclass
class PairSummary:
    """What :func:`pair_workbook` did: the pairing, the output, what it holds."""

    pairing: Pairing
    lines: list[str]
    output: Path
    cells_written: int
    cell_errors: list[Any] = field(default_factory=list)


def pair_workbook(book: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
                  round: int | None = None, progress: Any = None) -> PairSummary:
    """Pair the next round (or ``round``) of the FIDE Swiss workbook ``book`` and write it,
    recalculated, to ``output`` (default ``BOOK-recalc.xlsx``, as ``recalc`` names it; a
    folder, or ``book`` itself, as there). Refused with nothing written:
    :class:`~.book.PairingRefused` (the workbook's content; its findings name the cells)
    or :class:`RatingError`/:class:`~chessrating.recalc.RecalcError` (a file that cannot
    be read or written)."""
    from xlrecalc import content_kind, draft_path, output_path, write_cached_values

    from ..recalc import Report, recalculate
    from ..trf.bookview import read_book_view

    book = Path(book)
    view = read_book_view(book, NAMES)
    target = output_path(book, None if output is None else Path(output), content_kind(book))
    found = book_names(view)
    _kind(view, found)
    if progress is not None:
        progress.update("pairing", book.name, 0.05)
    try:
        event = read_event(found.values)
        pairing = pair_event(event, round)
    except PairingRefused as refused:
        if not refused.findings:  # the engine's reason: the Check column names the cells
            refused.findings = _checks(book, target, label=target.name)
        raise _addressed(refused, found) from None
    updates: dict[str, dict[tuple[int, int], Any]] = {}
    for key, value in round_cells(event.tournament, pairing).items():
        sheet, row, col = found.cell(key)
        if not _same(view.value(sheet, row, col), value, key[2] % PER_ROUND):
            updates.setdefault(sheet, {})[(row, col)] = value

    def accept(report: Report) -> None:
        if report.problems:
            raise PairingRefused(f"round {pairing.round}: the workbook's Check column lists "
                                 f"{len(report.problems)} input(s) to fix first",
                                 [Finding(str(p)) for p in report.problems])

    with draft_path(target) as patched:
        write_cached_values(book, patched, updates, shown=str(book))
        follow = progress.follow(0.2, 1.0) if progress is not None else None
        report = recalculate(patched, target, label=target.name, progress=follow, accept=accept)
    return PairSummary(pairing, pairing_lines(event.tournament, pairing), target,
                       sum(len(c) for c in updates.values()), list(report.errors))


def _addressed(refused: PairingRefused, found: BookNames) -> PairingRefused:
    """The refusal with each finding's cells written as addresses in its message."""
    def addresses(cells: tuple[CellKey, ...]) -> str:
        shown = [found.where(k) for k in cells]
        sheet = shown[0].split("!", 1)[0] + "!"
        return ", ".join([shown[0]] + [a.removeprefix(sheet) for a in shown[1:]])

    findings = [Finding(f"{addresses(f.cells)}: {f.message}" if f.cells else f.message)
                for f in refused.findings]
    return PairingRefused(str(refused), findings)


class _Listed(Exception):
    """The Check column's reasons, found; nothing is to be written."""


def _checks(book: Path, target: Path, label: str) -> list[Finding]:
    """The reasons the workbook's Check column shows, recalculated, each with its cells."""
    from xlrecalc import draft_path

    from ..recalc import Report, recalculate
    found: list[Finding] = []

    def listed(report: Report) -> None:
        found.extend(Finding(str(p)) for p in report.problems)
        raise _Listed

    with draft_path(target) as nowhere:
        try:
            recalculate(book, nowhere, label=label, accept=listed)
        except _Listed:
            pass
    return found


def check_workbook(book: str | os.PathLike[str]) -> tuple[int, list[RoundDifference]]:
    """The rounds paired in the FIDE Swiss workbook ``book`` and those whose pairing differs
    from gacrux's, each re-paired from the rounds before it with the workbook's pairing
    settings. Raises :class:`~.book.PairingRefused` when the content stops the check."""
    from ..trf.bookview import read_book_view
    from .book import last_paired

    view = read_book_view(Path(book), NAMES)
    found = book_names(view)
    _kind(view, found)
    try:
        event = read_event(found.values)
    except PairingRefused as refused:
        raise _addressed(refused, found) from None
    try:
        differences = check_pairings(event.tournament, top_colour=event.top_colour,
                                     accelerated=event.accelerated, max_meets=event.max_meets,
                                     rounds=event.rounds)
    except RatingError as error:
        raise PairingRefused(str(error)) from None
    return last_paired(event.tournament), differences


# -- command line ---------------------------------------------------------------------
PAIR_DESCRIPTION = """\
Pair the next round of a FIDE Swiss workbook (the fide-swiss template filled by hand, or a
workbook made by import-trf) by the Dutch system (FIDE C.04.3), with gacrux, FIDE's own
pairing engine: the first round of a workbook with no pairing, else the round after the
last one paired (--round N names it; the last round paired is paired again while it has
no result). Each player's opponent and colour go into the round's Opp and Col cells, the
pairing-allocated bye gets U in its result cell, results stay empty; the pairing list is
printed in board order. What the director says before pairing is read from the workbook:
byes asked for (H, B or Z in the round's result cell, no opponent), and on the Report
sheet late entries (Joins in round), withdrawals (Withdrawn after round), the rounds
planned, the top board's colour in round 1, Baku acceleration and the most meetings of
two players. The workbook is then recalculated like recalc does; every other part stays
byte for byte.

Refused, with nothing written: a round before with a game without a result, a reason in
the Check column (a contradiction, a result that is not one), no legal pairing, a US
Chess workbook (US Chess pairs by its rules 27-29, which gacrux does not implement), a
round robin (the Berger tables are printed instead).
"""
PAIR_EPILOG = ("Exit code 0: paired and written; 1: nothing written, the workbook's content "
               "refuses the round (listed with its cells), or written but some cells show an "
               "error; 2: nothing written, a file that cannot be read or written.")
CHECK_DESCRIPTION = """\
Re-pair every paired round of a FIDE Swiss workbook from the rounds before it with gacrux
(FIDE's Dutch system, C.04.3) and the workbook's pairing settings, and list each round
whose pairing differs: the workbook's boards the engine does not make and the engine's
boards in their place. The players the workbook did not pair in a round (byes, absences)
are left out of its re-pairing. It checks the pairing of each round, not the results,
the standings or the colours of games entered without one; gacrux is FIDE's reference
engine, but using it makes no program an endorsed one.
"""
CHECK_EPILOG = ("Exit code 0: every round agrees with the engine; 1: a round differs, or the "
                "workbook's content stops the check (said on one line); 2: a file that cannot "
                "be read, or a workbook that is not a FIDE Swiss.")


def add_pair(sub: Any) -> None:
    """Register ``pair`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("pair", description=PAIR_DESCRIPTION, epilog=PAIR_EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the FIDE Swiss workbook")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx",
                        help="where to write the paired workbook: a file named .xlsx (.xlsm for a "
                             "macro workbook), BOOK itself, or a folder (default: BOOK-recalc.xlsx "
                             "beside BOOK)")
    parser.add_argument("--round", type=int, metavar="N",
                        help="the round to pair (default: the round after the last one paired)")
    parser.set_defaults(func=run_pair)


def add_check(sub: Any) -> None:
    """Register ``check-pairings`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("check-pairings", description=CHECK_DESCRIPTION,
                            epilog=CHECK_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the FIDE Swiss workbook")
    parser.set_defaults(func=run_check)


def _refused(command: str, refused: PairingRefused) -> int:
    print(f"chessrating {command}: refused: {refused}", file=sys.stderr)
    for line in findings_text(refused.findings):
        print(f"  {line}", file=sys.stderr)
    if command == "pair":
        print("nothing written", file=sys.stderr)
    return 1


def run_pair(args: Any) -> int:
    """Run ``pair``; prints the pairing list, returns the exit code."""
    from ..progress import Progress

    bar = Progress()
    try:
        summary = pair_workbook(args.book, args.output, round=args.round, progress=bar)
    except PairingRefused as refused:
        bar.close()
        return _refused("pair", refused)
    finally:
        bar.close()
    for line in summary.lines:
        print(line)
    if summary.cell_errors:
        from ..cli import print_errors
        print_errors(summary.cell_errors)
    print(f"written: {summary.output} ({summary.cells_written} cells of round "
          f"{summary.pairing.round})", file=sys.stderr)
    return 1 if summary.cell_errors else 0


def run_check(args: Any) -> int:
    """Run ``check-pairings``; prints the rounds that differ, returns the exit code."""
    from .engine import engine_version

    try:
        paired, differences = check_workbook(args.book)
    except PairingRefused as refused:
        return _refused("check-pairings", refused)
    for difference in differences:
        print(difference)
    engine = f"gacrux {engine_version()}, FIDE Dutch system C.04.3"
    if not paired:
        print(f"no round is paired yet; nothing to check ({engine})")
    elif differences:
        print(f"{len(differences)} of {paired} round(s) differ from the engine's pairing ({engine})")
    else:
        print(f"rounds 1-{paired}: every pairing agrees with the engine's ({engine})")
    return 1 if differences else 0
