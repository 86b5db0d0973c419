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

__all__ = ["Token", "Ref", "FormulaSyntaxError", "tokenize", "parse_ref", "column_number"]

ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
               "#GETTING_DATA", "#SPILL!", "#CALC!")


class FormulaSyntaxError(ValueError):
    """A formula the evaluator cannot read (structured references, external links, typos)."""


@dataclass(frozen=True)
class Token:
    kind: str  # str num bool err ref func name op ( ) , ; { }
    text: str


@dataclass(frozen=True)
class Ref:
    """A rectangle of cells, 1-based and inclusive; ``sheet`` is ``None`` for the formula's own."""

    sheet: str | None
    r1: int
    c1: int
    r2: int
    c2: int


_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*)!"
_CELL = r"\$?[A-Za-z]{1,3}\$?\d+"
_AREA = rf"(?:{_CELL}(?::{_CELL})?|\$?[A-Za-z]{{1,3}}:\$?[A-Za-z]{{1,3}}|\$?\d+:\$?\d+)"
_TOKEN_RE = re.compile(
    r"""\s*(?:
      (?P<str>"(?:[^"]|"")*")
    | (?P<err>\#NULL!|\#DIV/0!|\#VALUE!|\#REF!|\#NAME\?|\#NUM!|\#N/A|\#GETTING_DATA|\#SPILL!|\#CALC!)
    | (?P<ref>(?:""" + _SHEET + r""")?""" + _AREA + r""")(?![\w.(!])
    | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<func>[A-Za-z_\\][\w.]*)\(
    | (?P<name>(?:""" + _SHEET + r""")?[A-Za-z_\\][\w.?\\]*)
    | (?P<op><>|<=|>=|[-+*/^&=<>%:])
    | (?P<punct>[(),;{}])
    )""",
    re.VERBOSE,
)


def tokenize(formula: str) -> list[Token]:
    """Split a formula (with or without its leading ``=``) into tokens."""
    text = formula[1:] if formula.startswith("=") else formula
    tokens: list[Token] = []
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        match = _TOKEN_RE.match(text, pos)
        if match is None or match.end() == pos:
            raise FormulaSyntaxError(f"cannot read the formula at {text[pos:pos + 12]!r}")
        pos = match.end()
        kind = match.lastgroup
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


_MAX_ROW, _MAX_COL = 1048576, 16384
_CELL_PART = re.compile(r"\$?([A-Za-z]{1,3})?\$?(\d+)?$")


def _split_sheet(text: str) -> tuple[str | None, str]:
    if "!" not in text:
        return None, text
    sheet, _, area = text.rpartition("!")
    if sheet.startswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    return sheet, area


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
