"""The Rank and tie-break columns every crosstable template carries.

The tie-breaks are picked at the top of the ``Crosstable`` sheet: four code cells named
``TieBreak1`` … ``TieBreak4`` (a list of the codes to pick from; blank leaves a column
empty) and the edition of FIDE's rules in ``TieBreakRules`` (``2026`` or ``2024``). Each
player row then has one column per code, its item of ``TIEBREAK`` over the whole table,
and ``Rank``, its item of ``TIEBREAK_RANK`` over the points and those columns. A column's
header shows the code picked above it, so changing a code recalculates the column under
it. The defaults are the lists of :mod:`chessrating.tiebreaks` (``docs/RULES.md``).

Every row asks for the whole column and takes its own item with ``INDEX``, as the US
Chess template does with ``USCF_EVENT``; the functions compute a table once and hand the
same column to every row that asks with the same arguments.

>>> formulas = ranking_formulas(4, 4, points="$AE$5:$AE$24", tiebreaks="$AG$5:$AJ$24",
...                             event=",Results,,TieBreakRules,Ratings", codes_at=(0, 10))
>>> formulas["TB1"]
'=IF(OR(TieBreak1="",AE5=""),"",IF(LEFT(AE5,6)="check ",AE5,INDEX(TIEBREAK($N$1:$N$1,,Results,,TieBreakRules,Ratings),ROW()-4)))'
>>> formulas["TB3"].split("INDEX(")[1]
'TIEBREAK($N$1:$T$1,,Results,,TieBreakRules,Ratings),ROW()-4)))'
>>> formulas["Rank"]
'=IF(AE5="","",IF(LEFT(AE5,6)="check ",AE5,INDEX(TIEBREAK_RANK($AE$5:$AE$24,$AG$5:$AJ$24),ROW()-4)))'
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..tiebreaks import CODES, RULES
from .check_formulas import CHECK
from .layout import CROSSTABLE, Styles, column, span, write_text_input

__all__ = ["FIDE_CODES", "USCF_CODES", "TIEBREAK_SLOTS", "code_cell", "RANKING_COLUMNS", "TIEBREAK_COLUMNS",
           "write_tiebreak_settings", "write_ranking_headers", "ranking_formulas", "ranking_formats", "code_choices", "rules_in_force"]

TIEBREAK_SLOTS = 4
TIEBREAK_COLUMNS = tuple(f"TB{slot}" for slot in range(1, TIEBREAK_SLOTS + 1))
# The total columns this module fills, in the order they stand after Points.
RANKING_COLUMNS = ("Rank", *TIEBREAK_COLUMNS)

# The codes each template lists: FIDE's in the FIDE templates, US Chess's (with the FIDE
# codes US Chess rule 34E also names) in the US Chess one.
FIDE_CODES = CODES[:CODES.index("MODMED")]
USCF_CODES = (*CODES[CODES.index("MODMED"):], "SB", "WIN", "DE")

# Modifiers offered in the list beside the plain codes; any other spelling the functions
# read (BH-C1, bh/m1, ARO/C2 ...) may still be typed.
_OFFERED_WITH_CUTS = {"BH": ("C1", "C2", "M1", "M2"), "SB": ("C1",), "ARO": ("C1",), "PS": ("C1",)}


def code_choices(codes: Sequence[str] = CODES) -> list[str]:
    """The codes offered in the list of a tie-break cell: each code, then its usual cuts.

    >>> code_choices(("DE", "BH", "SB"))
    ['DE', 'BH', 'BH/C1', 'BH/C2', 'BH/M1', 'BH/M2', 'SB', 'SB/C1']
    """
    choices: list[str] = []
    for code in codes:
        choices.append(code)
        choices.extend(f"{code}/{cut}" for cut in _OFFERED_WITH_CUTS.get(code, ()))
    return choices


def write_tiebreak_settings(sheet: Worksheet, book: Workbook, st: Styles, row: int, col: int,
                            defaults: Sequence[str], codes: Sequence[str] = CODES,
                            rules: str | None = RULES[0]) -> None:
    """The label ``Tie-breaks`` from (``row``, ``col``), the four code cells after it (three
    columns each) filled with ``defaults`` and, with ``rules``, the edition of FIDE's rules
    (``TB rules``, ``rules``; ``None`` writes none)."""
    # Each label and code over several columns: the round columns it stands over are narrow.
    sheet.merge_range(row, col, row, col + _LABEL - 1, "Tie-breaks", st.label)
    choices = code_choices(codes)
    source = ",".join(choices)
    # Excel keeps a typed list of at most 255 characters; a longer one goes on the How-to
    # sheet's margin would need a range, so the list holds the plain codes then.
    listed = choices if len(source) <= 255 else list(codes)
    for slot in range(TIEBREAK_SLOTS):
        target = code_cell(row, col, slot + 1)[1]
        sheet.merge_range(row, target, row, target + _CODE - 1, "", st.input_result)
        write_text_input(sheet, row, target, defaults[slot] if slot < len(defaults) else "",
                         st.input_result)
        book.define_name(f"TieBreak{slot + 1}", f"={CROSSTABLE}!${column(target)}${row + 1}")
        sheet.data_validation(row, target, row, target, {
            "validate": "list", "source": listed, "error_type": "warning",
            "input_title": f"Tie-break {slot + 1}",
            "input_message": "A code of FIDE C.07 or US Chess (README); blank for none. "
                             "Ties are broken by these in order.",
            "error_title": "Tie-break", "error_message": "Not a code from the list: the "
                             "column will say so if the functions do not know it."})
    if rules is not None:
        at = code_cell(row, col, TIEBREAK_SLOTS + 1)[1]
        sheet.merge_range(row, at, row, at + _LABEL - 1, "TB rules", st.label)
        sheet.merge_range(row, at + _LABEL, row, at + _LABEL + 1, "", st.input_result)
        write_text_input(sheet, row, at + _LABEL, rules, st.input_result)
        book.define_name("TieBreakRules", f"={CROSSTABLE}!${column(at + _LABEL)}${row + 1}")
        sheet.data_validation(row, at + _LABEL, row, at + _LABEL, {
            "validate": "list", "source": list(RULES), "input_title": "Tie-break rules",
            "input_message": "FIDE C.07: 2026 (from 1 March 2026) or 2024 (1 August 2024 "
                             "to 28 February 2026)."})


def write_ranking_headers(sheet: Worksheet, st: Styles, row: int, col: int) -> None:
    """The headers of the Rank and tie-break columns from ``col`` in ``row`` (the top
    cell, where the headers are merged over two rows): ``Rank``, then each slot showing
    its code, or ``TB n`` while the slot is blank."""
    for offset, name in enumerate(RANKING_COLUMNS):
        if name == "Rank":
            sheet.write_string(row, col + offset, name, st.header)
        else:
            slot = name[2:]
            sheet.write_formula(row, col + offset, f'=IF(TieBreak{slot}="","TB {slot}",TieBreak{slot}&"")',
                                st.header)


# Columns a label and a code take in the settings row (its columns may be 3.5 wide).
_LABEL, _CODE = 3, 3


def code_cell(row: int, col: int, slot: int) -> tuple[int, int]:
    """Where tie-break ``slot`` (1-based) has its code, for settings written at (``row``, ``col``).

    >>> code_cell(0, 10, 1), code_cell(0, 10, 4)
    ((0, 13), (0, 22))
    """
    return row, col + _LABEL + _CODE * (slot - 1)


def ranking_formulas(r: int, first: int, *, points: str, tiebreaks: str, event: str,
                     codes_at: tuple[int, int]) -> dict[str, str]:
    """Row ``r``'s Rank and tie-break formulas (``first`` is the first player row).

    ``points`` and ``tiebreaks`` are the absolute ranges of the Points column and of the
    tie-break columns; ``event`` the arguments of ``TIEBREAK`` after the code (opponents,
    results, colours, rules, ratings); ``codes_at`` where :func:`write_tiebreak_settings`
    wrote the codes. Each column hands ``TIEBREAK`` the codes up to its own (blanks are
    skipped): a direct encounter compares only the players still equal on everything
    before it (C.07 Art. 6). A row without points stays empty; a row whose Points cell
    shows a ``check …`` reason shows it in Rank and in each tie-break picked.
    """
    mine = points.replace("$", "").split(":")[0]
    own = f"{mine[:len(mine.rstrip('0123456789'))]}{r + 1}"
    # the row's item from ROW(), so every row holds one formula copied down (compiled once)
    item = f"ROW()-{first}"
    # a row whose Points show a reason (a contradicted game, a result that is not one)
    # shows it in its rank and in every tie-break picked, rather than a number
    reason = f'LEFT({own},{len(CHECK)})="{CHECK}",{own}'
    formulas = {"Rank": f'=IF({own}="","",IF({reason},INDEX(TIEBREAK_RANK({points},{tiebreaks}),{item})))'}
    row, col = codes_at
    first_code = code_cell(row, col, 1)
    for slot in range(1, TIEBREAK_SLOTS + 1):
        codes = span(*first_code, *code_cell(row, col, slot), fixed=True)
        formulas[f"TB{slot}"] = (f'=IF(OR(TieBreak{slot}="",{own}=""),"",IF({reason},'
                                 f'INDEX(TIEBREAK({codes},{event}),{item})))')
    return formulas


def ranking_formats(st: Styles) -> dict[str, Format]:
    """Rank as a whole number; a tie-break as its value is (14.5, 9.75, 3)."""
    return {"Rank": st.formula_int, **{name: st.formula_general for name in TIEBREAK_COLUMNS}}


def rules_in_force(start: date | None) -> str:
    """The edition of C.07 in force on an event's first day: 2026 from 1 March 2026, 2024
    before (the 2024 edition, in force from 1 August 2024, is the oldest this package
    implements; the 2023 text it replaced reads the same for the codes offered here
    but for Art. 16, docs/RULES.md §6); 2026 when the date is unknown.

    >>> from datetime import date
    >>> rules_in_force(date(2026, 2, 28)), rules_in_force(date(2026, 3, 1)), rules_in_force(None)
    ('2024', '2026', '2026')
    """
    if start is None:
        return RULES[0]
    return "2026" if (start.year, start.month) >= (2026, 3) else "2024"
