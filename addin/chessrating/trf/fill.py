"""``chessrating fide-list LIST --fill BOOK``: a FIDE workbook's players filled from the
FIDE rating list.

For every player row with a FIDE ID (the Report sheet's ``FideIds``) that the list
holds, the row's name, federation, title, rating of the workbook's rating type
(``RatingList``: standard, rapid or blitz), birth year, K list (the list's K for that
type) and sex are written from the list. Rows without an ID, and IDs the list does not
hold, are named in the summary and left as they are: nothing is guessed; so is an ID the
list cannot fill (its line damaged or cut short, or the ID on two lines: the file and lines
named) and a FIDE ID cell that holds no ID. Once K list is filled, K is the list's (it overrides the computed K, as K list always did), so the
row's orange "assumed" marks go.

A FIDE ID cell is read as an ID when it holds a whole number, or text of ASCII digits only
(spaces around them trimmed): an ID typed as text (``'1503014``) is the ID it shows.

What the list leaves empty: no rating of the type writes 0 (the templates read 0 as no
rating); no title writes an empty title; a birth year of 0 (unknown) and a missing K
leave the cells as they were.

The workbook is changed as ``chessrating recalc`` changes one: the new input values are
typed into the book as it is read, every formula is recalculated
(:func:`chessrating.recalc.recalculate` with ``inputs``), and the inputs and the
formulas' values are written into the sheet XML of the untouched file in one pass
(:func:`xlrecalc.write_cached_values`, which rewrites only those cells' values; an
input's text becomes a ``t="str"`` cell), beside the output and renamed onto it when
whole. Every other part of the file stays byte for byte. (The file is the one written
when the inputs went into a draft first and the draft was recalculated.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import RatingError
from ..progress import listed
from .bookview import BookView, read_book_view
from .fidelist import RATING_TYPES, FideList, read_fide_list

__all__ = ["FillSummary", "fill_workbook", "fill_updates", "fide_id_of", "MAX_NAMED"]

MAX_NAMED = 20


@dataclass
class FillSummary:
    """What :func:`fill_workbook` did, for the summary it prints."""

    book: Path
    output: Path
    list_kind: str
    rating_type: str
    filled: list[tuple[int, str, int]] = field(default_factory=list)
    no_id: list[tuple[int, str]] = field(default_factory=list)
    not_on_list: list[tuple[int, str, int]] = field(default_factory=list)
    refused: list[tuple[int, str, int, str]] = field(default_factory=list)  # the list's reason
    not_ids: list[tuple[int, str, str]] = field(default_factory=list)  # the cell's reason
    notes: list[str] = field(default_factory=list)  # the list's, on the file as a whole
    cell_errors: list[Any] = field(default_factory=list)
    standings: list[Any] = field(default_factory=list)  # after the recalculation

    @property
    def complete(self) -> bool:
        """Every named player filled and every formula gave a value."""
        return not (self.no_id or self.not_on_list or self.refused or self.not_ids
                    or self.cell_errors)

    def lines(self, max_named: int = MAX_NAMED) -> list[str]:
        out = [f"workbook: {self.output}",
               f"list: {self.list_kind}; {self.rating_type} ratings and K written",
               f"players filled from the list: {len(self.filled)}"]

        def named(title: str, rows: list[str]) -> None:
            out.append(f"{title}: {len(rows)}")
            out.extend(listed(rows, max_named))
        named("players without a FIDE ID (left as they are)",
              [f"player {n} {name}" for n, name in self.no_id])
        named("FIDE IDs not on the list (left as they are)",
              [f"player {n} {name} (FIDE ID {i})" for n, name, i in self.not_on_list])
        if self.refused:
            named("FIDE IDs the list cannot fill (left as they are)",
                  [f"player {n} {name} (FIDE ID {i}): {why}" for n, name, i, why in self.refused])
        if self.not_ids:
            named("FIDE ID cells that hold no FIDE ID (left as they are)",
                  [f"player {n} {name}: {why}" for n, name, why in self.not_ids])
        out += [f"note: {note}" for note in self.notes]
        if self.cell_errors:
            out.append(f"cells showing an error: {len(self.cell_errors)}")
            out += [f"  {e}" for e in self.cell_errors[:max_named]]
        return out


def _rows(view: BookView) -> list[tuple[int, tuple[str, int, int], tuple[str, int, int] | None,
                                        tuple[str, int, int] | None]]:
    """(player number, name cell, FIDE ID cell, sex cell) for each crosstable row."""
    names, ids, sexes = view.names.get("Names"), view.names.get("FideIds"), view.names.get("Sexes")
    if not names or not ids:
        raise RatingError(f"book: {str(view.path)!r} is not a FIDE template with a Report sheet "
                          "(no Names or FideIds); rebuild it with chessrating templates or import-trf")
    return [(i + 1, names[i], ids[i] if i < len(ids) else None,
             sexes[i] if sexes and i < len(sexes) else None) for i in range(len(names))]


def _rating_type(view: BookView) -> str:
    kind = view.text("RatingList").lower() or "standard"
    if kind not in RATING_TYPES:
        raise RatingError(f"RatingList: {kind!r} is not one of {', '.join(RATING_TYPES)}")
    return kind


def fide_id_of(value: Any) -> int | str | None:
    """The FIDE ID a cell holds: ``None`` when empty, else the ID, or (a ``str``) why the
    value is none: a whole number from 1, or text of ASCII digits only, trimmed.

    >>> fide_id_of(1503014), fide_id_of(" 1503014 "), fide_id_of(1503014.0), fide_id_of("  ")
    (1503014, 1503014, 1503014, None)
    >>> print(fide_id_of("１５０３０１４"))
    '１５０３０１４' is not a FIDE ID (digits 0-9 only)
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and int(text) > 0:
            return int(text)
        return f"{value!r} is not a FIDE ID (digits 0-9 only)"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value \
            and float(value).is_integer() and 0 < value < 10**15:
        return int(value)
    return f"{value!r} is not a FIDE ID (a whole number)"


def fill_updates(view: BookView, found: FideList, summary: FillSummary) -> dict[str, dict[tuple[int, int], Any]]:
    """The input cells to write, by sheet and (row, column); ``summary`` gets each row's fate."""
    kind = summary.rating_type
    updates: dict[str, dict[tuple[int, int], Any]] = {}
    for number, (sheet, row, col), id_cell, sex_cell in _rows(view):
        name = view.value(sheet, row, col)
        fide_id = fide_id_of(view.value(*id_cell)) if id_cell else None
        if fide_id is None:
            if name is not None:
                summary.no_id.append((number, str(name)))
            continue
        if isinstance(fide_id, str):
            summary.not_ids.append((number, str(name or ""), fide_id))
            continue
        if fide_id in found.refused:
            summary.refused.append((number, str(name or ""), fide_id, found.refused[fide_id]))
            continue
        entry = found.players.get(fide_id)
        if entry is None:
            summary.not_on_list.append((number, str(name or ""), fide_id))
            continue
        cells = updates.setdefault(sheet, {})
        # columns relative to Name, as the FIDE templates write them
        cells[(row, col)] = entry.name
        cells[(row, col + 1)] = entry.title
        cells[(row, col + 2)] = entry.federation
        cells[(row, col + 3)] = entry.rating(kind) or 0
        if entry.birth_year:
            cells[(row, col + 5)] = entry.birth_year
        if entry.k(kind):
            cells[(row, col + 7)] = entry.k(kind)
        if sex_cell is not None and entry.sex:
            updates.setdefault(sex_cell[0], {})[(sex_cell[1], sex_cell[2])] = entry.sex
        summary.filled.append((number, entry.name, fide_id))
    return updates


def book_ids(view: BookView) -> set[int]:
    """The FIDE IDs the workbook's player rows hold (:func:`fide_id_of`)."""
    return {i for c in view.names.get("FideIds", []) for i in [fide_id_of(view.value(*c))]
            if isinstance(i, int)}


def fill_workbook(book: str | os.PathLike[str], fide_list: str | os.PathLike[str] | BinaryIO | FideList,
                  output: str | os.PathLike[str] | None = None, *, shown: str | None = None,
                  rating_type: str | None = None, progress: Any = None) -> FillSummary:
    """Fill ``book``'s players from the FIDE list ``fide_list`` (a path, a stream or a
    list already read) and write the recalculated workbook to ``output`` (default:
    ``book`` itself, replaced whole once the new file is complete). ``shown`` is the
    name the summary gives the output (a draft's caller names its own file);
    ``rating_type`` sets the workbook's rating list first (default: the one it names);
    ``progress`` (a :class:`chessrating.progress.Progress`) shows the stages."""
    from ..recalc import RecalcError, recalculate
    from xlrecalc import same_file

    book = Path(book)
    target = book if output is None else Path(output)
    if target.suffix.lower() != ".xlsx":
        raise RatingError(f"output: {str(target)!r} must be named .xlsx")
    if isinstance(fide_list, (str, os.PathLike)) and same_file(Path(fide_list), target):
        raise RatingError(f"output: {str(target)!r} is the list itself")
    view = read_book_view(book)
    _rows(view)  # a workbook that is no FIDE template is refused before the list is read
    if rating_type is not None and rating_type not in RATING_TYPES:
        raise RatingError(f"rating_type: {rating_type!r} is not one of {', '.join(RATING_TYPES)}")
    kind = rating_type or _rating_type(view)
    if isinstance(fide_list, FideList):
        found = fide_list
    else:
        ids = book_ids(view)
        if progress is not None:
            progress.update("reading", f"the FIDE list for {len(ids)} FIDE IDs", 0.0)
        found = read_fide_list(fide_list, ids)
    if not found.has(kind):
        raise RatingError(f"list: {found.shown}: a {found.kind} list; the workbook is rated on "
                          f"the {kind} list (Report sheet, Rating list): use that list")
    summary = FillSummary(book, Path(shown) if shown else target, found.kind, kind,
                          notes=list(found.notes))
    updates = fill_updates(view, found, summary)
    if rating_type is not None and view.has("RatingList"):
        sheet, row, col = view.names["RatingList"][0]
        updates.setdefault(sheet, {})[(row, col)] = rating_type
    try:  # the new values are typed into the book as it is read, and written with the rest
        report = recalculate(book, target, label=target.name, inputs=updates,
                             progress=progress.follow(0.6, 1.0) if progress is not None else None)
    except (RecalcError, OSError) as error:
        # what stopped the writing, where something did (a full disk: the file beside the output)
        failed = error if isinstance(error, OSError) else error.__context__
        if isinstance(failed, OSError):
            raise RatingError(f"output: {str(target)!r} cannot be written "
                              f"({failed.strerror or failed}); it was left as it was") from None
        raise RatingError(str(error)) from None
    summary.cell_errors = list(report.root_errors)
    summary.standings = report.standings
    return summary


# -- command line ---------------------------------------------------------------------
DESCRIPTION = """\
Read FIDE's rating list download (players_list.zip / players_list_foa.txt, the per-type
standard, rapid and blitz lists, the older layout without FOA, or the XML variants;
zipped or not). Without --fill: say what the list is and print the players asked for
with --id. With --fill BOOK.xlsx: for every player row of the FIDE workbook with a FIDE
ID (Report sheet), write name, federation, sex, title, birth year, the rating of the
workbook's rating list and K list (the list's K, which overrides the computed K) from
the list, then recalculate. Rows without an ID, or whose ID is not on the list or on a
damaged line of it, are named and left as they are; an ID typed as text is read. The
workbook's other parts stay byte for byte.
"""
EPILOG = ("Exit code 0: written, every named player filled, every formula gave a value; 1: "
          "written, but some rows were not filled (each named: no ID, not on the list, or the "
          "list's line damaged, cut short or twice, with the file and line) or some cells show "
          "an error (listed); 2: nothing written, nothing replaced (the reason on one line).")


def add_subcommand(sub: Any) -> None:
    """Register ``fide-list`` on an argparse subparsers object."""
    import argparse

    parser = sub.add_parser("fide-list", description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("list", metavar="FILE", help="the FIDE list: .zip, .txt or .xml")
    parser.add_argument("--fill", metavar="BOOK.xlsx", help="the FIDE workbook to fill")
    parser.add_argument("-o", "--output", metavar="OUT.xlsx",
                        help="where to write the filled workbook (default: BOOK itself)")
    parser.add_argument("--id", dest="ids", metavar="FIDE_ID", type=int, action="append",
                        help="print this player from the list (repeatable)")
    parser.add_argument("--list-type", choices=RATING_TYPES,
                        help="the rating type of a per-type list whose file name does not say it")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run ``fide-list``; prints a summary, returns the exit code."""
    if args.output and not args.fill:
        raise RatingError("-o: give --fill BOOK.xlsx to say which workbook to fill")
    if args.fill:
        found = None
        if args.list_type:  # the kind must be known before the fill reads the list
            ids = book_ids(read_book_view(args.fill))
            found = read_fide_list(args.list, ids, kind=args.list_type)
        from ..progress import Progress
        bar = Progress()
        try:
            summary = fill_workbook(args.fill, found or args.list, args.output, progress=bar)
        finally:
            bar.close()
        for line in summary.lines():
            print(line)
        return 0 if summary.complete else 1
    found = read_fide_list(args.list, args.ids or (), kind=args.list_type)
    print(f"list: {found.kind} ({found.layout}), {found.lines} players")
    for note in found.notes:
        print(f"note: {note}")
    missing = 0
    for fide_id in args.ids or ():
        p = found.players.get(fide_id)
        if fide_id in found.refused:
            print(f"{fide_id}: cannot be read: {found.refused[fide_id]}")
            missing += 1
            continue
        if p is None:
            print(f"{fide_id}: not on the list")
            missing += 1
            continue
        ratings = ", ".join(f"{k} {p.rating(k) or '-'} (K {p.k(k) or '-'})" for k in RATING_TYPES
                            if found.has(k))
        print(f"{fide_id}: {p.name}, {p.federation}, {p.sex or '-'}, {p.title or 'no title'}, "
              f"born {p.birth_year or 'unknown'}; {ratings}")
    return 1 if missing else 0
