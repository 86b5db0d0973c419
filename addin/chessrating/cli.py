"""The ``chessrating`` command: build the templates, recalculate a workbook, run the demo.

Exit codes, one contract for every subcommand: 0 when the output was written and every
formula gave a value; 1 when it was written but at least one cell holds an error (bad
input, a missing name) or a crosstable's Check column gives a reason (a contradiction, a
result that is not one: :mod:`.recalc.problems`), so scripts notice, and when ``pair``
refuses a round for the workbook's content (nothing written; the cells listed),
``check-pairings`` finds a round that differs or ``publish`` finds the standings not
final (nothing written; with ``--provisional`` written, marked so); 2 when nothing was
written (a usage error, a file that cannot be read or written), with one line on stderr
naming the user's own path; 130 when interrupted (Ctrl-C or SIGTERM), leaving no temporary file behind. No
exception reaches the user as a traceback: :func:`main` turns any into that one line.

Each subcommand is one entry of :data:`COMMANDS`, under its name: its one-line summary
and the ``_add_…`` function that registers its parser and points ``func`` at the code
that runs it; a new subcommand is one more entry. A run registers only the subcommand it
names; ``chessrating --help`` (or no command, or a name mistyped) lists every summary
without importing the commands' modules.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from xlrecalc import collector_paused

from . import __version__
from .errors import RatingError
from .progress import Progress

__all__ = ["main", "COMMANDS", "print_errors", "print_problems", "error_groups"]

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


def print_errors(errors: list[Any]) -> None:
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
    from .recalc.standings import format_standings, not_final
    problems = getattr(report, "problems", [])
    if report.standings:
        causes = [str(p) for p in problems] + [str(g[0]) for g in error_groups(report.errors)]
        heading, withheld = not_final(report.standings, causes, len(problems), len(report.errors))
        for line in heading:
            print(line)
        if not withheld:
            print(format_standings(report.standings))
    else:
        print(f"{report.formula_count} formulas recalculated (no player table found)")
    if problems:
        print_problems(problems)
    if report.errors:
        print_errors(report.errors)
    if report.kept_line:
        print(report.kept_line, file=sys.stderr)
    print(f"written: {report.output}", file=sys.stderr)
    return 1 if report.errors or problems else 0


def print_problems(problems: list[Any]) -> None:
    """The reasons the Check column shows instead of a player's numbers (a contradiction,
    a result that is not one), each with the cells showing it: the players' numbers do
    not count until they are fixed. Then the formulas not calculated whole (an array
    formula whose file holds part of its range)."""
    reasons = [p for p in problems if p.message.startswith("check ")]
    others = [p for p in problems if not p.message.startswith("check ")]
    for shown, heading in ((reasons, "input(s) to fix; the rows named show the reason instead of "
                                     "their numbers:"),
                           (others, "formula(s) not calculated whole:")):
        if not shown:
            continue
        print(f"\n{len(shown)} {heading}", file=sys.stderr)
        for problem in shown[:_MAX_CAUSES_SHOWN]:
            print(f"  {problem}", file=sys.stderr)
        if len(shown) > _MAX_CAUSES_SHOWN:
            print(f"  … and {len(shown) - _MAX_CAUSES_SHOWN} more", file=sys.stderr)


# -- templates ----------------------------------------------------------------------
def _run_templates(args: argparse.Namespace) -> int:
    from . import workbooks
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = workbooks.write_templates(folder)
    for path in written:
        print(path)
    from .lite import write_lite
    (folder / "lite").mkdir(exist_ok=True)
    for path in written:
        write_lite(path, folder / "lite" / path.name)
    print(f"xlwings Lite copies: {folder / 'lite'}", file=sys.stderr)
    return 0


def _add_templates(sub: Any) -> None:
    parser = sub.add_parser(
        "templates",
        description="Write every template workbook (round robin, Swiss, US Chess event, "
                    "calculators) into FOLDER, with cached values so previews show numbers, "
                    "and their xlwings Lite copies into FOLDER/lite.")
    parser.add_argument("folder", metavar="FOLDER", help="folder to write into (created if missing)")
    parser.set_defaults(func=_run_templates)


# -- recalc -------------------------------------------------------------------------
def _run_recalc(args: argparse.Namespace) -> int:
    # The whole command with the collector paused, as the recalculation pauses it for
    # its work: the modules loaded first (the evaluator, the rating functions) are tens
    # of thousands of objects that live to the end, which the collections their imports
    # set off would walk again and again (about 2 ms of every start).
    with collector_paused():
        from .recalc import recalculate
        book = Path(args.book)
        # no name given: the engine names it, by what the workbook holds (.xlsm for macros)
        output = Path(args.output) if args.output else None
        progress = Progress()
        try:
            report = recalculate(book, output, progress=progress)
        finally:
            progress.close()
        return _print_report(report)


def _add_recalc(sub: Any) -> None:
    parser = sub.add_parser(
        "recalc",
        description="Evaluate every formula of BOOK.xlsx (the rating functions and Excel's "
                    "own) and write a copy whose cells carry the values, so any viewer shows "
                    "them. Prints the standings, and every cell that shows an error with its "
                    "sheet and address. The input is never changed unless -o names it.",
        epilog="Exit code 0: written, all formulas gave values; 1: written, some cells show "
               "an error, or a crosstable's Check column a reason (a result that is not one, a "
               "game whose two sides contradict each other; listed with their cells, and the "
               "standings open by saying they are provisional, and why); "
               "2: nothing written (the reason on one line); 130: interrupted.")
    parser.add_argument("book", metavar="BOOK.xlsx", help="the workbook to recalculate")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx",
                        help="where to write the result: a file named .xlsx (.xlsm for a macro "
                             "workbook), BOOK itself, or a folder (default: BOOK-recalc.xlsx "
                             "beside BOOK)")
    parser.set_defaults(func=_run_recalc)


# -- lite ---------------------------------------------------------------------------
def _run_lite(args: argparse.Namespace) -> int:
    from .lite import write_lite
    copy = write_lite(Path(args.book), Path(args.output) if args.output else None,
                      replace_code=args.replace_code)
    print(f"{len(copy.used)} function(s) bound for xlwings Lite: {', '.join(copy.used) or 'none'}")
    if copy.unbound:
        print(f"note: Lite binds calls in cells only; left as they are: {'; '.join(copy.unbound)}",
              file=sys.stderr)
    print(f"written: {copy.path}", file=sys.stderr)
    return 0


def _add_lite(sub: Any) -> None:
    parser = sub.add_parser(
        "lite",
        description="Write a copy of BOOK.xlsx for xlwings Lite: each call of a rating "
                    "function in a cell is stored as Excel stores a Lite function, and the "
                    "copy carries the Python code of the functions, so opening it in Excel "
                    "with the xlwings Lite add-in and trusting it is all the set-up. Cached "
                    "values, styles, validations, charts, other sheets and other add-ins are "
                    "kept; the classic add-in's xlwings.conf sheet is left out.",
        epilog="Exit code 0: written; 2: nothing written (the reason on one line); "
               "130: interrupted.")
    parser.add_argument("book", metavar="BOOK.xlsx", help="the workbook to copy")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx",
                        help="where to write the copy: a file named .xlsx (.xlsm for a macro "
                             "workbook), BOOK itself, or a folder (default: BOOK-lite.xlsx "
                             "beside BOOK)")
    parser.add_argument("--replace-code", action="store_true",
                        help="replace the Lite code (main.py, requirements.txt) the workbook "
                             "already carries; without it such a workbook is refused")
    parser.set_defaults(func=_run_lite)


# -- demo ---------------------------------------------------------------------------
def _run_demo(args: argparse.Namespace) -> int:
    from . import workbooks
    from .recalc import output_path
    output = Path(args.output)
    if output.is_dir():
        output = output / "demo.xlsx"
    output = output_path(output, output)  # refused before any work
    event = workbooks.load_demo_event()
    progress = Progress()
    try:  # evaluated while it is built; it appears finished or not at all
        with workbooks.evaluation(progress=progress, label=output.name) as found:
            workbooks.fill_round_robin(event, output)
    finally:
        progress.close()
    assert found.report is not None, "the workbook was evaluated"
    return _print_report(found.report)


def _add_demo(sub: Any) -> None:
    parser = sub.add_parser(
        "demo",
        description="Fill the FIDE round-robin template with the example tournament that "
                    "ships with the package, recalculate it and print the standings. "
                    "Needs no network and no Excel.")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx", default="demo.xlsx",
                        help="workbook to write (default: demo.xlsx)")
    parser.set_defaults(func=_run_demo)


# -- import-trf ---------------------------------------------------------------------
def _add_import_trf(sub: Any) -> None:
    from .import_trf import add_subcommand
    add_subcommand(sub)


# -- export-trf, fide-list ----------------------------------------------------------
def _add_export_trf(sub: Any) -> None:
    from .trf.export import add_subcommand
    add_subcommand(sub)


def _add_fide_list(sub: Any) -> None:
    from .trf.fill import add_subcommand
    add_subcommand(sub)


# -- export-uscf ----------------------------------------------------------------------
def _add_export_uscf(sub: Any) -> None:
    from .uscf_report.export import add_subcommand
    add_subcommand(sub)
# -- pair, check-pairings -----------------------------------------------------------
def _add_pair(sub: Any) -> None:
    from .pairing.command import add_pair
    add_pair(sub)


def _add_check_pairings(sub: Any) -> None:
    from .pairing.command import add_check
    add_check(sub)


# -- publish --------------------------------------------------------------------------
def _add_publish(sub: Any) -> None:
    from .publish import add_subcommand
    add_subcommand(sub)


# Each subcommand by its name: its one-line summary (what ``chessrating --help`` lists)
# and the function that registers its parser.
COMMANDS: dict[str, tuple[str, Callable[[Any], None]]] = {
    "templates": ("write the template workbooks into a folder", _add_templates),
    "recalc": ("recalculate a filled workbook without Excel", _add_recalc),
    "lite": ("write a copy of a workbook for xlwings Lite (Excel on Windows, Mac and the web)",
             _add_lite),
    "demo": ("fill the round-robin template with the bundled example and recalculate", _add_demo),
    "import-trf": ("fill a rating workbook from a FIDE TRF tournament file", _add_import_trf),
    "export-trf": ("write the FIDE rating report (TRF) of a filled workbook", _add_export_trf),
    "fide-list": ("read the FIDE rating list; fill a workbook's players from it", _add_fide_list),
    "export-uscf": ("write the US Chess rating report (three DBF files) of a filled US Chess "
                    "workbook", _add_export_uscf),
    "pair": ("pair the next round of a FIDE Swiss workbook (gacrux, Dutch system)", _add_pair),
    "check-pairings": ("re-pair every round of a FIDE Swiss workbook and list the rounds that "
                       "differ", _add_check_pairings),
    "publish": ("write the event as one web page (standings, crosstable, pairings)", _add_publish)}


class _Summarised:
    """The subcommands' action as the ``_add_…`` functions see it: each parser they add
    gets its summary from :data:`COMMANDS`, its one home."""

    def __init__(self, sub: Any):
        self.sub = sub

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self.sub.add_parser(name, help=COMMANDS[name][0], **options)
        return parser


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given one of :data:`COMMANDS`, with that subcommand's
    parser alone (the others import their modules to register, a tenth of a second
    at every start that a run of one command does not need); given anything else (an
    option such as ``--help``, a name mistyped, ``""`` for none), every subcommand by
    its summary alone: such a run prints the list or an error and ends, it runs no
    command; ``None``: every subcommand whole.

    >>> list(build_parser("recalc")._subparsers._group_actions[0].choices)
    ['recalc']
    >>> listed = build_parser("--help")._subparsers._group_actions[0].choices
    >>> list(listed) == list(COMMANDS), listed["recalc"].format_usage()
    (True, 'usage: chessrating recalc [-h]\\n')
    """
    parser = argparse.ArgumentParser(
        prog="chessrating",
        description="Chess rating workbooks without Excel: build the templates, recalculate "
                    "a filled crosstable, try the demo, move events in and out (TRF, the FIDE "
                    "list, the US Chess report), publish an event as a web page.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (summary, add) in COMMANDS.items():
        if command is None or name == command:
            add(_Summarised(sub))
        elif command not in COMMANDS:
            sub.add_parser(name, help=summary)
    return parser


def _interrupt_on_sigterm() -> list[int]:
    """SIGTERM ends the run as Ctrl-C does, so ``finally`` blocks remove temporary files.

    An interrupt that lands inside a ``__del__`` cannot propagate (Python prints it as
    "Exception ignored" with a traceback and carries on): such reports are silenced,
    and the returned list, which records every signal, lets :func:`main` still exit 130.
    """
    received: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        received.append(signum)
        raise KeyboardInterrupt
    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    except (ValueError, OSError):  # not the main thread: leave the signals alone
        return received
    default_hook = sys.unraisablehook

    def unraisable(report: Any) -> None:
        if not isinstance(report.exc_value, KeyboardInterrupt):
            default_hook(report)
    sys.unraisablehook = unraisable
    return received


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text if len(text) <= 300 else text[:297] + "…"


def _command_named(argv: list[str]) -> str | None:
    """What :func:`build_parser` registers for ``argv``: the command it starts with;
    ``""``, the summaries, when no word names a command (``--help``, a name mistyped,
    nothing); every command whole when one follows an option (so the option's error
    reads as it would after the command).

    >>> _command_named(["recalc", "demo"]), _command_named(["--help"]), _command_named(["-h", "demo"])
    ('recalc', '', None)
    """
    if argv and argv[0] in COMMANDS:
        return argv[0]
    return None if any(word in COMMANDS for word in argv) else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see the module's contract)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with collector_paused():  # registering a command imports its modules (see _run_recalc)
        parser = build_parser(_command_named(argv))
    args = parser.parse_args(argv)
    where = f"chessrating {args.command}: error:"
    saved = (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook)
    received = _interrupt_on_sigterm()
    try:
        from xlrecalc import RecalcError
        code = args.func(args)
        if received:  # an interrupt swallowed on its way (see _interrupt_on_sigterm)
            raise KeyboardInterrupt
        return code
    except (RecalcError, RatingError) as exc:
        print(f"{where} {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"{where} {name}{exc.strerror or _one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"chessrating {args.command}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"{where} out of memory; nothing written", file=sys.stderr)
        return 2
    except Exception as exc:  # the last resort: one line, never a traceback
        print(f"{where} {exc.__class__.__name__}: {_one_line(exc)} (a fault in chessrating)",
              file=sys.stderr)
        return 2
    finally:  # a caller in the same process gets its own handlers back
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(signal.SIGTERM, saved[0])
            signal.signal(signal.SIGINT, saved[1])
        sys.unraisablehook = saved[2]


def run() -> None:
    """The ``chessrating`` command: :func:`main`, then the exit with its code.

    A workbook's cells, formulas and compiled closures (which refer to their book, a
    cycle only the collector frees) are still in memory when the command ends; freeing
    them one by one as the interpreter shuts down took a tenth of a second for a
    200-player Swiss. The collector is told to leave them (``gc.freeze``): the system
    takes the process's memory back whole. ``main`` itself, called from Python, leaves
    the collector as it was."""
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
