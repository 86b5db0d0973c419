"""Excel formula text to Python closures: the parser of the headless evaluator.

A formula is read once into a tree of closures; evaluating the cell calls the root
closure. The parser also collects every reference the formula reads, so the evaluator
can order cells before computing them.

Precedence follows Excel, highest first: ``:`` (range), unary ``-``/``+``, ``%``, ``^``,
``*``/``/``, ``+``/``-``, ``&``, comparisons. Excel negates before it raises to a power,
so ``-2^2`` is 4.

>>> [t.text for t in tokenize("=SUM($A$1:B2, 'My sheet'!C3)*-2%")]
['SUM(', '$A$1:B2', ',', "'My sheet'!C3", ')', '*', '-', '2', '%']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from .codes import ERROR_CODES

__all__ = ["Token", "Ref", "RefSpec", "FormulaSyntaxError", "tokenize", "parse_ref", "CopyTemplate",
           "parse_ref_spec", "column_number", "relative_key", "MAX_FORMULA"]

MAX_FORMULA = 8192  # Excel's longest formula, in characters


class FormulaSyntaxError(ValueError):
    """A formula the evaluator cannot read (structured references, external links, typos)."""


class Token(NamedTuple):
    """One token of a formula (a named pair: made, compared and hashed in C, as a
    formula's tokens are made once and compared as sequences)."""

    kind: str  # str num bool err ref spill table func name op ( ) , ; { }  (op " " intersects)
    text: str


@dataclass(frozen=True)
class Ref:
    """A rectangle of cells, 1-based and inclusive; ``sheet`` is ``None`` for the formula's own."""

    sheet: str | None
    r1: int
    c1: int
    r2: int
    c2: int


# A sheet name's first character is [A-Za-z_\u00c0-\uffff], the rest [\w.\u00c0-\uffff]; written
# as "not below \u00c0 nor astral" because a class spanning \u00c0-\uffff costs the regular
# expression compiler some 50 ms at every start.
_HIGH = r"[^\x00-\xbf\U00010000-\U0010ffff]"
_SHEET_NAME = rf"(?:[A-Za-z_]|{_HIGH})(?:[\w.]|{_HIGH})*"
_SHEET = rf"(?:'(?:[^']|'')+'|{_SHEET_NAME}(?::{_SHEET_NAME})?)!"  # Sheet1:Sheet3! is 3-D
_CELL = r"\$?[A-Za-z]{1,3}\$?\d+"
_AREA = rf"(?:{_CELL}(?::{_CELL})?|\$?[A-Za-z]{{1,3}}:\$?[A-Za-z]{{1,3}}|\$?\d+:\$?\d+)"
_TOKEN_RE = re.compile(
    r"""\s*(?:
      (?P<str>"(?:[^"]|"")*")
    | (?P<err>""" + "|".join(re.escape(code) for code in sorted(ERROR_CODES, key=len, reverse=True)) + r""")
    | (?P<spill>(?:""" + _SHEET + r""")?""" + _CELL + r""")\#
    | (?P<ref>(?:""" + _SHEET + r""")?""" + _AREA + r""")(?![\w.(![])
    | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<func>[A-Za-z_\\][\w.]*)\(
    | (?P<table>(?:[A-Za-z_\\][\w.]*)?\[(?:'.|[^\[\]']|\[(?:'.|[^\]'])*\])*\])
    | (?P<name>(?:""" + _SHEET + r""")?[A-Za-z_\\][\w.?\\]*)
    | (?P<op><>|<=|>=|[-+*/^&=<>%:@])
    | (?P<punct>[(),;{}])
    )""",
    re.VERBOSE,
)


_BEFORE_SPACE = frozenset({"ref", "spill", "table", "name", ")"})
_AFTER_SPACE = frozenset({"ref", "spill", "table", "name", "func", "("})


def tokenize(formula: str) -> list[Token]:
    """Split a formula (with or without its leading ``=``) into tokens. A space between
    two references is Excel's intersection operator: it becomes the token ``op " "``.

    >>> [t.text for t in tokenize("=SUM(A1:C3 B2:B9)")]
    ['SUM(', 'A1:C3', ' ', 'B2:B9', ')']
    """
    if len(formula) > MAX_FORMULA:
        raise FormulaSyntaxError(f"the formula is {len(formula):,} characters long, "
                                 f"more than Excel's {MAX_FORMULA:,}")
    text = formula[1:] if formula.startswith("=") else formula
    tokens: list[Token] = []
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        match = _TOKEN_RE.match(text, pos)
        kind = match.lastgroup if match is not None else None
        if match is None or kind is None or match.end() == pos:
            raise FormulaSyntaxError(f"cannot read the formula at {text[pos:pos + 12]!r}")
        if (match.start(kind) > pos and tokens and tokens[-1].kind in _BEFORE_SPACE
                and (kind if kind != "punct" else match.group(kind)) in _AFTER_SPACE):
            tokens.append(Token("op", " "))
        pos = match.end()
        value = match.group(kind)
        if kind == "punct":
            kind = value
        elif kind == "func":
            value = value + "("
        elif kind == "name" and value.upper() in ("TRUE", "FALSE"):
            kind = "bool"
        tokens.append(Token(kind, value))
    return tokens


def column_number(letters: str) -> int:
    """``A`` is 1, ``Z`` 26, ``AA`` 27.

    >>> column_number("A"), column_number("AA"), column_number("XFD")
    (1, 27, 16384)
    """
    number = 0
    for char in letters.upper():
        number = number * 26 + ord(char) - 64
    return number


def column_letters(col: int) -> str:
    """1 is ``A``, 27 ``AA``: the inverse of :func:`column_number`.

    >>> column_letters(1), column_letters(27), column_letters(16384)
    ('A', 'AA', 'XFD')
    """
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


_MAX_ROW, _MAX_COL = 1048576, 16384
_CELL_PART = re.compile(r"\$?([A-Za-z]{1,3})?\$?(\d+)?$")


def _split_sheet(text: str) -> tuple[str | None, str]:
    if "!" not in text:
        return None, text
    sheet, _, area = text.rpartition("!")
    if sheet.startswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    return sheet, area


@dataclass(frozen=True)
class RefSpec:
    """A reference as written: each bound is a number (``$``-fixed) or an offset from
    the formula's own cell, so one spec serves a formula copied down a column.

    >>> spec = parse_ref_spec("$B2:C$5", 3, 1)
    >>> spec.at(10, 4)
    Ref(sheet=None, r1=5, c1=2, r2=9, c2=6)
    """

    sheet: str | None
    r1: int
    c1: int
    r2: int
    c2: int
    fixed: tuple[bool, bool, bool, bool]  # r1, c1, r2, c2

    def at(self, row: int, col: int) -> Ref:
        fr1, fc1, fr2, fc2 = self.fixed
        r1 = self.r1 if fr1 else row + self.r1
        c1 = self.c1 if fc1 else col + self.c1
        r2 = self.r2 if fr2 else row + self.r2
        c2 = self.c2 if fc2 else col + self.c2
        return Ref(self.sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


_BOUND = re.compile(r"(\$?)([A-Za-z]{1,3})?(\$?)(\d+)?$")


def parse_ref_spec(text: str, row: int, col: int) -> RefSpec:
    """A reference written in the cell at (row, col), as a :class:`RefSpec`."""
    sheet, area = _split_sheet(text)
    first, _, second = area.partition(":")
    bounds = []
    for index, piece in enumerate((first, second or first)):
        match = _BOUND.match(piece)
        if match is None or not (match.group(2) or match.group(4)):
            raise FormulaSyntaxError(f"{text!r} is not a cell reference")
        col_fixed, letters, row_fixed, digits = match.groups()
        if not letters and col_fixed and not row_fixed:  # "$2": the mark is the row's
            col_fixed, row_fixed = "", col_fixed
        if letters:
            c, c_fixed = column_number(letters), bool(col_fixed)
        else:
            c, c_fixed = (1 if index == 0 else _MAX_COL), True
        if digits:
            r, r_fixed = int(digits), bool(row_fixed)
        else:
            r, r_fixed = (1 if index == 0 else _MAX_ROW), True
        bounds.append((r if r_fixed else r - row, r_fixed, c if c_fixed else c - col, c_fixed))
    (r1, fr1, c1, fc1), (r2, fr2, c2, fc2) = bounds
    return RefSpec(sheet, r1, c1, r2, c2, (fr1, fc1, fr2, fc2))


# Text and table references (kept as they are), whole rows (2:5), whole columns (A:C) and
# cells (B7), each with its $ marks.
_KEY_RE = re.compile(r"""("(?:[^"]|"")*"|'(?:[^']|'')*'|\[[^\]]*\])"""
                     r"""|(?<![\w.$:])(\$?)(\d+):(\$?)(\d+)(?![\w.(!:])"""
                     r"""|(?<![\w.$:])(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})(?![\w.(!:])"""
                     r"""|(?<![\w.$])(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![\w.(!])""")
_COLUMNS: dict[str, int] = {}


def relative_key(text: str, row: int, col: int) -> str:
    """The formula with its relative cell references written as offsets, so formulas
    copied across a table share one key (and one compiled form).

    >>> relative_key('=IF(C5="",0,$B5*D$2)', 5, 3) == relative_key('=IF(C9="",0,$B9*D$2)', 9, 3)
    True
    >>> relative_key("=SUM(2:2)+SUM(A:A)", 5, 2), relative_key("=SUM($2:$2,$A:B)", 5, 2)
    ('=SUM(R-3:R-3)+SUM(C-1:C-1)', '=SUM($2:$2,$A:C0)')
    """
    columns = _COLUMNS

    def column_key(fixed: str, letters: str) -> str:
        if fixed:
            return letters.upper()
        number = columns.get(letters)
        if number is None:
            number = columns[letters] = column_number(letters)
        return "C" + str(number - col)

    def row_key(fixed: str, digits: str) -> str:
        return digits if fixed else "R" + str(int(digits) - row)

    def replace(match: re.Match[str]) -> str:
        (quoted, rf1, r1, rf2, r2, cf1, c1, cf2, c2,
         col_fixed, letters, row_fixed, digits) = match.groups()
        if quoted:
            return quoted
        if r1 is not None:
            return f"{rf1}{row_key(rf1, r1)}:{rf2}{row_key(rf2, r2)}"
        if c1 is not None:
            return f"{cf1}{column_key(cf1, c1)}:{cf2}{column_key(cf2, c2)}"
        return col_fixed + column_key(col_fixed, letters) + row_fixed + row_key(row_fixed, digits)
    return _KEY_RE.sub(replace, text)


def parse_ref(text: str) -> Ref:
    """A reference such as ``Sheet1!$A$1:B3``, ``'My sheet'!C:C`` or ``2:2``.

    >>> parse_ref("'Cross table'!$B$2:D5")
    Ref(sheet='Cross table', r1=2, c1=2, r2=5, c2=4)
    >>> parse_ref("C:C")
    Ref(sheet=None, r1=1, c1=3, r2=1048576, c2=3)
    """
    sheet, area = _split_sheet(text)
    first, _, second = area.partition(":")
    second = second or first
    parts = []
    for piece in (first, second):
        match = _CELL_PART.match(piece)
        if match is None:
            raise FormulaSyntaxError(f"{text!r} is not a cell reference")
        parts.append((match.group(1), match.group(2)))
    (col1, row1), (col2, row2) = parts
    c1 = column_number(col1) if col1 else 1
    c2 = column_number(col2) if col2 else _MAX_COL
    r1 = int(row1) if row1 else 1
    r2 = int(row2) if row2 else _MAX_ROW
    return Ref(sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def split_sheet_name(text: str) -> tuple[str | None, str]:
    """``'My sheet'!Name`` as (sheet, name); ``(None, text)`` without a sheet."""
    return _split_sheet(text)


_DIGITS = re.compile(r"\d+")
_DIGIT_SPLIT = re.compile(r"(\d+)")


def relative_rows(text: str) -> frozenset[int]:
    """Which runs of digits of a formula (counted from 0) are relative row numbers: the
    ones that change, by the same step, when the formula is copied down a column.

    >>> sorted(relative_rows('=IF(C5="",0,$B5*D$2+7)')), sorted(relative_rows("=SUM(2:$3)+A4"))
    ([0, 2], [0, 2])
    """
    starts: set[int] = set()
    for match in _KEY_RE.finditer(text):
        if match.group(3) is not None:  # a whole-row range: each relative end
            starts.update(match.start(g) for g, mark in ((3, 2), (5, 4)) if not match.group(mark))
        elif match.group(13) is not None and not match.group(12):
            starts.add(match.start(13))
    return frozenset(i for i, match in enumerate(_DIGITS.finditer(text)) if match.start() in starts)


class CopyTemplate:
    """A formula as the text around its relative row numbers, so that its copy ``step``
    rows down can be spelled out and compared with a cell's text without parsing either.

    >>> form = CopyTemplate('=IF(C5="",0,$B5*D$2+7)')
    >>> form.moved(3)
    '=IF(C8="",0,$B8*D$2+7)'
    """

    __slots__ = ("pieces", "rows", "_lowest", "_highest", "_format", "_single")

    def __init__(self, text: str):
        relative = relative_rows(text)
        parts = _DIGIT_SPLIT.split(text)
        self.pieces: list[str] = []
        self.rows: list[int] = []
        between = parts[0]
        for i in range(len(parts) // 2):
            digits, after = parts[2 * i + 1], parts[2 * i + 2]
            if i in relative:
                self.pieces.append(between)
                self.rows.append(int(digits))
                between = after
            else:
                between += digits + after
        self.pieces.append(between)
        self._lowest = min(self.rows, default=1)
        self._highest = max(self.rows, default=1)
        # the text as a %-format with a %d for each relative row: a copy is spelled by one
        # formatting call in C, where joining the pieces in Python cost most of compiling
        self._format = "%d".join(piece.replace("%", "%%") for piece in self.pieces)
        # the one row all its relative references name (a formula copied down a column
        # reads its own row: C5, $B5 …), or None: a copy is then its pieces joined by
        # that row's number moved, one join in C for the whole text
        distinct = set(self.rows)
        self._single = self.rows[0] if len(distinct) == 1 else 0 if not distinct else None

    def moved(self, step: int) -> str | None:
        """The formula copied ``step`` rows down (up, for a negative step); ``None`` where
        a reference would leave the sheet (above row 1 or below its last row), which no
        copy can spell.

        >>> form = CopyTemplate("=K5*2")
        >>> form.moved(-5), form.moved(1048571), form.moved(1048572)
        (None, '=K1048576*2', None)
        >>> CopyTemplate('=A1&"%d"&B2*5%').moved(2)
        '=A3&"%d"&B4*5%'
        """
        if self._lowest + step < 1 or self._highest + step > _MAX_ROW:
            return None
        if self._single is not None:
            return str(self._single + step).join(self.pieces)
        return self._format % tuple(map(step.__add__, self.rows))

