"""The ``publish`` command: where the page goes, when it is refused, how it is written.

**Decisions**

* The page shows the workbook's values: the book is evaluated in memory as ``recalc``
  evaluates it (nothing is written back into it) and the computed cells are read.
* While the workbook's Check column names inputs to fix (a contradiction, a result that
  is not one: :mod:`chessrating.recalc.problems`) or cells show an error, the standings
  are not final: nothing is written and the command exits 1 naming them, one line each.
  ``--provisional`` writes the page anyway, opening with "Provisional" and the reasons.
* The page goes to ``BOOK.html`` beside the workbook unless ``-o`` names a file
  (``.html`` or ``.htm``) or a folder (``BOOK.html`` inside it). It is written beside
  its place and renamed when whole, so a failed run leaves every file as it was.

>>> default_output(Path("events/open.xlsx")).as_posix()
'events/open.html'
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RatingError

__all__ = ["PublishRefused", "PublishSummary", "publish_book", "default_output", "html_output",
           "add_subcommand", "run"]

PAGE_SUFFIXES = (".html", ".htm")


class PublishRefused(Exception):
    """The standings are not final and ``--provisional`` was not given: nothing written."""

    def __init__(self, message: str, problems: list[Any], errors: list[Any]) -> None:
        super().__init__(message)
        self.problems = problems
        self.errors = errors


@dataclass
class PublishSummary:
    """What :func:`publish_book` wrote."""

    output: Path
    players: int
    rounds: int
    provisional: bool
    problems: list[Any] = field(default_factory=list)
    errors: list[Any] = field(default_factory=list)


def default_output(book: Path) -> Path:
    """The page beside the workbook: its stem with ``.html``."""
    return Path(book).with_suffix(".html")


def html_output(book: Path, output: Path | None) -> Path:
    """Where the page goes, checked before any work (see the module's decisions)."""
    from xlrecalc import same_file

    target = default_output(book) if output is None else output
    if output is not None and output.is_dir():
        target = output / default_output(book).name
    if same_file(book, target) or target.suffix.lower() not in PAGE_SUFFIXES:
        raise RatingError(f"output: {str(target)!r} is not an .html file; name the page OUT.html")
    if not target.parent.is_dir():
        raise RatingError(f"output: the folder {str(target.parent)!r} does not exist")
    return target


def publish_book(book: str | os.PathLike[str], output: str | os.PathLike[str] | None = None, *,
                 provisional: bool = False, progress: Any = None) -> PublishSummary:
    """Write the event page of the workbook ``book``. Raises :class:`PublishRefused`
    while its standings are not final (unless ``provisional``), :class:`RatingError`
    or :class:`~chessrating.recalc.RecalcError` for a file that cannot be read or
    written; in every case nothing is written."""
    import zipfile

    from xlrecalc import RecalcError, atomic_output, not_a_zip

    from .page import event_page
    from .reading import evaluate, read_event

    book = Path(book)
    target = html_output(book, None if output is None else Path(output))
    if not book.is_file():
        raise RecalcError(f"{book}: no such file" if not book.exists() else f"{book}: not a file")
    if not zipfile.is_zipfile(book):
        raise not_a_zip(book, str(book))
    if progress is not None:
        progress.update("evaluating", book.name, 0.05)
    evaluated, report = evaluate(book)
    data = read_event(evaluated, report, book)
    from ..cli import error_groups
    causes = [str(p) for p in report.problems] + [str(g[0]) for g in error_groups(report.errors)]
    if causes and not provisional:
        raise PublishRefused(f"{book}: the standings are not final", list(report.problems), list(report.errors))
    data.problems = causes
    text = event_page(data, provisional=bool(causes))  # a final page stays final with --provisional
    if progress is not None:
        progress.update("writing", target.name, 0.95)
    try:
        with atomic_output(target) as stream:
            stream.write(text.encode("utf-8"))
    except OSError as error:
        raise RatingError(f"output: {str(target)!r} cannot be written ({error.strerror or error})") from None
    return PublishSummary(target, len(data.standings.rows), data.tournament.rounds, bool(causes),
                          list(report.problems), list(report.errors))


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Write the event as one web page: a single HTML file that needs nothing else (no
scripts, links, fonts or images), to put on a web site or send to the players. It holds
the event's name and dates, the standings in rank order (rank, number, name, title,
federation, rating, points, the tie-breaks picked, rating change and new rating; US
Chess: the new rating) as the workbook computes them, the crosstable, and each round's
pairings with the results in board order. On a phone the standings come first and the
wide tables scroll sideways in their own box.

The workbook is recalculated in memory as recalc does (the file itself is not changed).
While its Check column names inputs to fix (a result that is not one, a game whose two
sides contradict each other) or cells show an error, nothing is written and they are
listed; --provisional writes the page anyway, marked "Provisional" at its top.
"""
EPILOG = ("Exit code 0: written; 1: the standings are not final (inputs to fix or cells "
          "showing an error, listed): nothing written, or with --provisional written as "
          "provisional; 2: nothing written (the reason on one line); 130: interrupted.")


def add_subcommand(sub: Any) -> None:
    """Register ``publish`` on an argparse subparsers object."""
    parser = sub.add_parser("publish", description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", metavar="BOOK.xlsx", help="the filled workbook (a template or import-trf's)")
    parser.add_argument("-o", "--output", metavar="OUT.html",
                        help="the page to write: a file named .html, or a folder "
                             "(default: BOOK's name with .html, beside it)")
    parser.add_argument("--provisional", action="store_true",
                        help="write the page while inputs are still to fix, marked provisional")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``publish``; returns the exit code."""
    from ..cli import print_problems, print_errors
    from ..progress import Progress

    progress = Progress()
    try:
        summary = publish_book(args.book, args.output, provisional=args.provisional, progress=progress)
    except PublishRefused as refused:
        progress.close()
        print(f"chessrating publish: {refused}; nothing written (--provisional writes it marked "
              "provisional)", file=sys.stderr)
        if refused.problems:
            print_problems(refused.problems)
        if refused.errors:
            print_errors(refused.errors)
        return 1
    finally:
        progress.close()
    shown = " (provisional)" if summary.provisional else ""
    print(f"{summary.players} players, {summary.rounds} round(s){shown}")
    if summary.problems:
        print_problems(summary.problems)
    if summary.errors:
        print_errors(summary.errors)
    print(f"written: {summary.output}", file=sys.stderr)
    return 1 if summary.provisional else 0
