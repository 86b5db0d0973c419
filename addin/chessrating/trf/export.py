"""``chessrating export-trf``: the FIDE rating report of a filled workbook, with a rating
officer's pre-flight check.

:func:`workbook_tournament` reads a FIDE template filled by hand or made by
``import-trf`` (the Swiss or the round robin; :mod:`.bookview`) into a
:class:`~chessrating.tournament.Tournament`; :func:`.preflight.preflight` lists what a federation's
rating officer would send back (FIDE B.02 §9.1; the 2024 letter to rating officers:
submissions lacking a new player's birth date and sex are returned); :func:`export_trf`
writes the TRF16 (FIDE Handbook C.04 Annex 2) or TRF-2026 file and the check.

The workbook is read by :mod:`.bookevent` (the event, the players, the rounds) and
:mod:`.bookgames` (the games: a result cell's TRF code, :func:`.bookgames.trf_code`).

**Decisions**

* Ranks: a workbook made from a TRF file gives back the file's ranks, as long as its
  ``Rank`` column still gives every player the rank it gave when made (sheet ``File
  ranks``, :mod:`chessrating.workbooks.file_ranks`), and TRF-2026 the file's ``202``
  record. Otherwise by the workbook's tie-breaks where it has them (a ``Rank`` named
  range), else by points, then starting number. TRF16 wants distinct ranks, so ties are
  broken by starting number; TRF-2026 lets equal players share a rank (the check says
  which) and names the tie-breaks that ranked them in its ``202`` record.
* The round-robin crosstable holds no rounds or colours: the Report sheet's grid
  ``GameRounds`` does (``3W``: round 3, the row player White): formulas giving the FIDE
  Berger table (C.05 Annex 1) for the players entered, the file's rounds where
  ``import-trf`` made the workbook, or what the director typed over them. A cell without
  a value (a workbook saved by a program that drops formulas' values) is read as the same
  Berger table for the players entered, the last row with a name; the check says how many.
* The check is printed and written, as a sheet ``Pre-flight`` of its own workbook
  ``OUT-preflight.xlsx`` beside the TRF file (the user's workbook is never rewritten);
  it is rewritten at each export, with one row saying "no problems" when there are none.
* Exit 1 when the file was written with problems listed, 2 when nothing could be
  written: then neither file is touched (both are written whole beside their places and
  replaced together, the first put back if the second cannot be; :mod:`.outputs`). No
  file given is ever written to, whatever its name: an output (the TRF file or the
  check) that is the workbook is refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RatingError
from ..progress import listed
from ..tournament import Tournament
from .bookevent import workbook_tournament
from .bookgames import trf_code
from .bookview import read_book_view
from .preflight import ENCODED_TIME, Issue, preflight, preflight_output, write_check
from .ranks import file_ranks_stand, ranked

__all__ = ["FORMATS", "Issue", "ExportSummary", "trf_code", "workbook_tournament",
           "preflight", "export_trf", "default_output", "preflight_output"]

FORMATS = ("trf16", "trf26")


def _trf26_headers(t: Tournament, tiebreaks: list[str]) -> None:
    t.headers["142"] = [""]
    if tiebreaks:  # 202: the tie-breaks in the order they ranked the players
        t.headers["202"] = [",".join(tiebreaks)]
    compact = t.time_control.replace(" ", "")
    if compact and ENCODED_TIME.fullmatch(compact):
        t.headers["222"] = [compact]


def _refuse_other_formats(book: Path) -> None:
    """A file that is no .xlsx zip refused in one line naming it and what it is: a .xls
    (to be saved as .xlsx), an encrypted workbook, an old Office document."""
    import zipfile

    from xlrecalc import not_a_zip

    if book.is_file() and not zipfile.is_zipfile(book):
        raise RatingError(str(not_a_zip(book, f"book: {str(book)!r}")))


def default_output(book: Path) -> Path:
    """The TRF file beside the workbook: its stem with ``.trf``.

    >>> default_output(Path("events/open.xlsx")).as_posix()
    'events/open.trf'
    """
    return Path(book).with_suffix(".trf")


@dataclass
class ExportSummary:
    """What :func:`export_trf` did."""

    book: Path
    output: Path
    check: Path
    trf_format: str
    layout: str
    players: int
    rated: int
    rounds: int
    issues: list[Issue]
    ranks: str = ""  # whose ranks were written, where the workbook was made from a TRF file

    def lines(self, max_shown: int = 50) -> list[str]:
        out = [f"written: {self.output} ({self.trf_format.upper()}, {self.layout})",
               f"players: {self.players} ({self.rated} rated), rounds: {self.rounds}"]
        if self.ranks:
            out.append(f"ranks: {self.ranks}")
        out.append(f"pre-flight check: {len(self.issues)} problem(s), listed in {self.check}")
        out += listed(self.issues, max_shown)
        return out


def export_trf(book: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
               trf_format: str = "trf16") -> ExportSummary:
    """Write the TRF file of the FIDE workbook ``book`` and its pre-flight check.

    ``output`` defaults to :func:`default_output`; it may not be the workbook. Both
    files are written beside their places and renamed when whole; a workbook that
    cannot be read, or a value that does not fit its TRF columns, raises
    :class:`RatingError` and touches neither file.
    """
    from xlrecalc import draft_path, same_file
    from .codec import write_trf
    from .outputs import refuse_inputs, replace_together, written

    if trf_format not in FORMATS:
        raise RatingError(f"format: {trf_format!r} is not one of {', '.join(FORMATS)}")
    book = Path(book)
    target = default_output(book) if output is None else Path(output)
    if same_file(book, target) or target.suffix.lower() in (".xlsx", ".xlsm"):
        raise RatingError(f"output: {str(target)!r} would overwrite a workbook; name a .trf file")
    check = preflight_output(target)
    refuse_inputs([book], [target, check])  # the check's name may be the workbook's own
    if not target.parent.is_dir():
        raise RatingError(f"output: the folder {str(target.parent)!r} does not exist")
    _refuse_other_formats(book)
    read = workbook_tournament(read_book_view(book))
    t = read.tournament
    if not t.players:
        raise RatingError(f"book: {str(book)!r} has no players (no names in the crosstable)")
    issues = preflight(read, trf_format=trf_format)
    ranked(read, trf_format)
    from_file, ranks_note = file_ranks_stand(read)
    if trf_format == "trf26":
        codes = [read.file_tiebreaks] if from_file and read.file_tiebreaks else \
            [] if from_file else read.tiebreaks if read.ranks else []
        _trf26_headers(t, codes)
    text = write_trf(t)  # raises for a value that does not fit its columns: nothing written
    # both written whole beside their places, then replaced together (the check first:
    # the file most often held open), or neither
    with draft_path(check) as drafted_check, draft_path(target) as drafted_trf:
        with written(check):
            write_check(issues, drafted_check, book)
        with written(target):
            drafted_trf.write_bytes(text.encode("utf-8"))
        replace_together([(drafted_check, check), (drafted_trf, target)])
    return ExportSummary(book, target, check, trf_format, read.layout, len(t.players),
                         sum(1 for p in t.players if p.rating), t.rounds, issues, ranks_note)


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Write the FIDE tournament report (TRF) of a filled FIDE workbook (the round-robin or
Swiss template filled by hand, or a workbook made by import-trf): the header records
(name, city, federation, dates, numbers of players and rated players, type, arbiters,
time control, round dates) from the Crosstable's Event cell and the Report sheet, and
one 001 line per player with each round's opponent, colour and result.

Before writing, a pre-flight check lists what a rating officer would return: a player
without FIDE ID lacking birth date or sex, missing round dates, time control or other
mandatory header fields, results whose two sides disagree, a finished round's game
without a result on either row, a player paired twice in a round, two players who
played each other twice in a Swiss, a colour that is not W or B, points that do not
equal the sum of the results. The list is printed and written as the sheet 'Pre-flight'
of OUT-preflight.xlsx beside the TRF file.

A workbook made by import-trf gives back the file's ranks while its Rank column ranks as
it did when made (sheet 'File ranks'); the summary says whose ranks were written.
"""
EPILOG = ("Exit code 0: written, no problem found; 1: written, with the problems listed; "
          "2: nothing written (the reason on one line).")


def add_subcommand(sub: Any) -> None:
    """Register ``export-trf`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("export-trf", description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the filled FIDE workbook")
    parser.add_argument("-o", "--output", metavar="OUT.trf",
                        help="the TRF file to write (default: BOOK's name with .trf, beside it)")
    parser.add_argument("--format", dest="trf_format", choices=FORMATS, default="trf16",
                        help="trf16 (FIDE C.04 Annex 2, default) or trf26 (TRF-2026)")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``export-trf``; prints the summary and the check, returns the exit code."""
    summary = export_trf(args.book, args.output, trf_format=args.trf_format)
    for line in summary.lines():
        print(line)
    return 1 if summary.issues else 0
