"""``chessrating export-uscf``: the US Chess rating report of a filled US Chess workbook,
with a pre-flight check.

:func:`export_uscf` reads the workbook once (:mod:`.workbook`: the tournament, the
report's fields and what reading found wrong), runs the pre-flight check
(:func:`.preflight.preflight`) and, only when neither finds a problem, writes
``THEXPORT.DBF``, ``TSEXPORT.DBF`` and ``TDEXPORT.DBF`` into the folder
(:func:`.writer.write_report`: all three replaced together or none).

**Decision**: while the check finds a problem nothing is written, not even a report
marked as incomplete: the three files are uploaded to US Chess as they are, so a file
on disk is one US Chess would take. The folder keeps what it held, including the report
of an earlier export.

>>> default_folder(Path("events/open.xlsx")).as_posix()
'events/open-uscf'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RatingError
from ..progress import listed
from .layout import FILE_NAMES
from .preflight import Issue, preflight
from .workbook import UscfBook, read_uscf_book
from .writer import write_report

__all__ = ["UscfExportSummary", "default_folder", "checked", "export_uscf", "add_subcommand", "run"]

MAX_SHOWN = 50


def default_folder(book: Path) -> Path:
    """The report's folder beside the workbook: its stem with ``-uscf``."""
    return Path(book).with_name(f"{Path(book).stem}-uscf")


def checked(read: UscfBook) -> list[Issue]:
    """What reading the workbook found and what the pre-flight check finds, the event's
    first, then player by player; where reading named a field (a date that is not one, a
    colour that is not W or B) the check's consequence for it (missing) is left out."""
    named = {(i.player, i.field) for i in read.issues}
    found = [i for i in preflight(read.tournament, read.info) if (i.player, i.field) not in named]
    return sorted(read.issues + found, key=lambda i: i.player)


@dataclass
class UscfExportSummary:
    """What :func:`export_uscf` did: the files written (none while problems are listed)."""

    book: Path
    folder: Path
    players: int
    rated: int
    rounds: int
    issues: list[Issue]
    written: list[Path] = field(default_factory=list)

    def lines(self, max_shown: int = MAX_SHOWN) -> list[str]:
        if self.written:
            out = [f"written: {', '.join(p.name for p in self.written)} in {self.folder}"]
        else:
            out = [f"nothing written: US Chess would reject the report or rate it wrong until "
                   f"{'this is' if len(self.issues) == 1 else 'these are'} fixed in {self.book.name}"]
        out.append(f"players: {self.players} ({self.rated} rated), rounds: {self.rounds}")
        out.append(f"pre-flight check: {len(self.issues)} problem(s)")
        out += listed(self.issues, max_shown)
        return out


def _refuse_output(book: Path, folder: Path) -> None:
    """Nothing is tried when the folder cannot hold the report or a report file would be
    the workbook itself."""
    if folder.suffix.lower() in (".xlsx", ".xlsm", ".dbf"):
        raise RatingError(f"output: {str(folder)!r} names a file; name the folder for the three report files")
    if folder.exists() and not folder.is_dir():
        raise RatingError(f"output: {str(folder)!r} is a file, not a folder")
    if not folder.parent.is_dir():
        raise RatingError(f"output: the folder {str(folder.parent)!r} does not exist")
    for name in FILE_NAMES:
        target = folder / name
        try:
            same = target.exists() and os.path.samefile(target, book)
        except OSError:
            same = False
        if same:
            raise RatingError(f"output: {str(target)!r} is the workbook itself; name another folder")


def export_uscf(book: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None) -> UscfExportSummary:
    """Write the US Chess report of the workbook ``book`` into ``folder`` (default
    :func:`default_folder`), unless the check lists a problem (then nothing is written).

    A workbook that cannot be read, or a folder that cannot be written, raises
    :class:`RatingError` and leaves the folder as it was.
    """
    book = Path(book)
    target = default_folder(book) if folder is None else Path(folder)
    _refuse_output(book, target)
    read = read_uscf_book(book)
    t = read.tournament
    if not t.players:
        raise RatingError(f"book: {str(book)!r} has no players (no names in the crosstable)")
    issues = checked(read)
    summary = UscfExportSummary(book, target, len(t.players), sum(1 for p in t.players if p.rating),
                                t.rounds, issues)
    if issues:
        return summary
    try:
        summary.written = write_report(t, read.info, target, check=False)
    except OSError as error:
        raise RatingError(f"output: {str(target)!r} cannot be written ({error.strerror or error})") from None
    return summary


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Write the US Chess rating report of a filled US Chess event workbook (the template filled
by hand, or made by import-trf --system uscf): THEXPORT.DBF (the event), TSEXPORT.DBF
(the section) and TDEXPORT.DBF (each player with every round), the dBASE III tables of
format 2C that US Chess rates from. The event's name and every player's name, rating and
rounds (opponent, colour, result) come from the Crosstable, the rest from its Report
sheet: affiliate ID, chief and assistant TD's IDs, city, state, ZIP code, country, dates,
time control, section name, rating system, and each player's US Chess ID and state.

Before writing, a pre-flight check lists by player and field what US Chess would reject
or rate wrong: a missing or malformed ID, date, state or ZIP code, a name not LAST,
FIRST, a game without opponent or colour, two rows that disagree about a game, a round
of the section without any result. While it lists anything, nothing is written.
"""
EPILOG = ("Exit code 0: the three files written, no problem found; 1: problems listed, "
          "nothing written; 2: nothing written (the workbook or folder cannot be used; the "
          "reason on one line).")


def add_subcommand(sub: Any) -> None:
    """Register ``export-uscf`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("export-uscf", description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the filled US Chess event workbook")
    parser.add_argument("-o", "--output", metavar="DIR",
                        help="the folder to write the three files into (created if missing; "
                             "default: BOOK's name with -uscf, beside it)")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``export-uscf``; prints the summary and the check, returns the exit code."""
    summary = export_uscf(args.book, args.output)
    for line in summary.lines():
        print(line)
    return 0 if summary.written else 1
