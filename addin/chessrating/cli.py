"""The ``chessrating`` command: build the templates, recalculate a workbook, run the demo.

Exit codes: 0 when every formula gave a value; 1 when the workbook was written but at
least one cell holds an error (bad input, a missing name), so scripts notice; 2 for a
usage error or a workbook that cannot be read or written.

Each subcommand is one ``_add_…`` function in :data:`COMMANDS` that registers its parser
and points ``func`` at the code that runs it; a new subcommand is one more entry.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .errors import RatingError
from .progress import Progress

__all__ = ["main", "COMMANDS"]

_MAX_CAUSES_SHOWN = 10
_MAX_ADDRESSES_SHOWN = 8


def _short(address: str, sheet: str) -> str:
    return address.split("!", 1)[1] if address.startswith(f"{sheet}!") else address


def error_groups(errors: list[Any]) -> list[list[Any]]:
    """Errors grouped by cause: the input cells they trace to, else the cell they copy.

    Within a group the error that starts in its own cell comes first.
    """
    groups: dict[Any, list[Any]] = {}
    for error in errors:
        key = error.inputs or (error.cause or error.address)
        groups.setdefault(key, []).append(error)
    for members in groups.values():
        members.sort(key=lambda e: e.cause not in (None, e.address))
    return list(groups.values())


def _print_errors(errors: list[Any]) -> None:
    groups = error_groups(errors)
    causes = f", from {len(groups)} cause(s)" if len(groups) > 1 else ""
    print(f"\n{len(errors)} cell(s) show an error{causes}:", file=sys.stderr)
    for members in groups[:_MAX_CAUSES_SHOWN]:
        first, rest = members[0], members[1:]
        print(f"  {first}", file=sys.stderr)
        if rest:
            shown = ", ".join(_short(e.address, first.sheet) for e in rest[:_MAX_ADDRESSES_SHOWN])
            more = ", …" if len(rest) > _MAX_ADDRESSES_SHOWN else ""
            print(f"    and {len(rest)} more cell(s) with the same cause: {shown}{more}",
                  file=sys.stderr)
    if len(groups) > _MAX_CAUSES_SHOWN:
        hidden = sum(len(m) for m in groups[_MAX_CAUSES_SHOWN:])
        print(f"  … and {len(groups) - _MAX_CAUSES_SHOWN} more cause(s) ({hidden} cell(s))",
              file=sys.stderr)


def _print_report(report: Any) -> int:
    from .recalc.standings import format_standings
    if report.standings:
        print(format_standings(report.standings))
    else:
        print(f"{report.formula_count} formulas recalculated (no player table found)")
    if report.errors:
        _print_errors(report.errors)
    print(f"written: {report.output}", file=sys.stderr)
    return 1 if report.errors else 0


# -- templates ----------------------------------------------------------------------
def _run_templates(args: argparse.Namespace) -> int:
    from . import workbooks
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    for path in workbooks.write_templates(folder):
        print(path)
    return 0


def _add_templates(sub: Any) -> None:
    parser = sub.add_parser(
        "templates", help="write the template workbooks into a folder",
        description="Write every template workbook (round robin, Swiss, US Chess event, "
                    "calculators) into FOLDER, with cached values so previews show numbers.")
    parser.add_argument("folder", metavar="FOLDER", help="folder to write into (created if missing)")
    parser.set_defaults(func=_run_templates)


# -- recalc -------------------------------------------------------------------------
def _run_recalc(args: argparse.Namespace) -> int:
    from .recalc import default_output, recalculate
    book = Path(args.book)
    output = Path(args.output) if args.output else default_output(book)
    progress = Progress()
    try:
        report = recalculate(book, output, progress=progress)
    finally:
        progress.close()
    return _print_report(report)


def _add_recalc(sub: Any) -> None:
    parser = sub.add_parser(
        "recalc", help="recalculate a filled workbook without Excel",
        description="Evaluate every formula of BOOK.xlsx (the rating functions and Excel's "
                    "own) and write a copy whose cells carry the values, so any viewer shows "
                    "them. Prints the standings, and every cell that shows an error with its "
                    "sheet and address. The input is never changed unless -o names it.",
        epilog="Exit code 0: all formulas gave values; 1: some cells show an error; "
               "2: the workbook could not be read or written.")
    parser.add_argument("book", metavar="BOOK.xlsx", help="the workbook to recalculate")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx",
                        help="where to write the result (default: BOOK-recalc.xlsx beside BOOK)")
    parser.set_defaults(func=_run_recalc)


# -- demo ---------------------------------------------------------------------------
def _run_demo(args: argparse.Namespace) -> int:
    from . import workbooks
    from .recalc import recalculate
    output = Path(args.output)
    event = workbooks.load_demo_event()
    workbooks.fill_round_robin(event, output, recalculate=False)
    progress = Progress()
    try:
        report = recalculate(output, output, progress=progress)
    finally:
        progress.close()
    return _print_report(report)


def _add_demo(sub: Any) -> None:
    parser = sub.add_parser(
        "demo", help="fill the round-robin template with the bundled example and recalculate",
        description="Fill the FIDE round-robin template with the example tournament that "
                    "ships with the package, recalculate it and print the standings. "
                    "Needs no network and no Excel.")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx", default="demo.xlsx",
                        help="workbook to write (default: demo.xlsx)")
    parser.set_defaults(func=_run_demo)


# -- import-trf ---------------------------------------------------------------------
def _add_import_trf(sub: Any) -> None:
    from .trf.importer import add_subcommand
    add_subcommand(sub)


COMMANDS: list[Callable[[Any], None]] = [_add_templates, _add_recalc, _add_demo, _add_import_trf]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chessrating",
        description="Chess rating workbooks without Excel: build the templates, recalculate "
                    "a filled crosstable, try the demo.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from .recalc import RecalcError
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (RecalcError, RatingError) as exc:
        print(f"chessrating {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"chessrating {args.command}: error: {exc.filename or ''}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
