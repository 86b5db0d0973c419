"""Structured references to Excel tables: ``T[Val]``, ``T[[#This Row],[Val]]``,
``T[@Val]``, ``T[#All]``, ``T[[#Headers],[A]:[C]]``, and ``[@Val]`` inside the table.

A table (``xl/tables/tableN.xml``, reached through its sheet's relationships) has a
range, a number of header rows (usually 1) and of totals rows (usually 0), and named
columns. A reference picks rows (``#All``, ``#Data`` by default, ``#Headers``,
``#Totals``, ``#This Row`` or ``@``) and columns (one, a span ``[A]:[C]``, or all).
Microsoft: "Using structured references with Excel tables".
"""

from __future__ import annotations

import re

from .book_view import BookView, Table
from .parse import FormulaSyntaxError, RefSpec
from .values import Key


__all__ = ["table_reference"]

_ITEM = re.compile(r"\[((?:'.|[^\]'])*)\]")
_SPECIALS = {"#ALL", "#DATA", "#HEADERS", "#TOTALS", "#THIS ROW"}


def _unescape(text: str) -> str:
    return re.sub(r"'(.)", r"\1", text).strip()


def _items(inner: str) -> tuple[list[str], bool]:
    """The bracketed items of a reference's body and whether two columns span (``:``)."""
    if "[" not in inner:
        return ([inner] if inner.strip() else []), False
    items, span = [], False
    rest = inner.strip()
    if rest.startswith("@"):
        items.append("#THIS ROW")
        rest = rest[1:].strip()
    for match in _ITEM.finditer(rest):
        items.append(match.group(1))
    between = _ITEM.sub("", rest)
    span = ":" in between
    return items, span


def table_reference(book: "BookView", text: str, here: Key) -> RefSpec:
    """The range a structured reference names, written in the cell ``here``; a
    ``#This Row`` reference is a spec relative to the formula's row."""
    name, _, body = text.partition("[")
    body = body[:-1]  # the closing bracket
    table = book.table_at(here) if not name else book.tables.get(name.upper())
    if table is None:
        raise FormulaSyntaxError(f"no table named {name!r}" if name else
                                 f"{text} is used outside a table")
    items, span = _items(body)
    rows: set[str] = set()
    columns: list[int] = []
    for raw in items:
        item = raw.strip()
        if item.startswith("@"):
            rows.add("#THIS ROW")
            item = item[1:].strip()
            if not item:
                continue
        upper = _unescape(item).upper()
        if upper in _SPECIALS:
            rows.add(upper)
            continue
        # a column's name may end or begin with a space ("Gender "): the name as written
        # first, then without the spaces Excel allows around it
        exact = re.sub(r"'(.)", r"\1", raw.lstrip()[1:] if raw.lstrip().startswith("@") else raw)
        column = table.column(exact)
        if column is None:
            column = table.column(_unescape(item))
        if column is None:
            raise FormulaSyntaxError(f"table {table.name} has no column {_unescape(item)!r}")
        columns.append(column)
    c1, c2 = (min(columns), max(columns)) if columns else (table.c1, table.c2)
    if len(columns) > 1 and not span:
        raise FormulaSyntaxError(f"{text}: several columns need a span [A]:[B]")
    if "#THIS ROW" in rows:
        return RefSpec(table.sheet, 0, c1, 0, c2, (False, True, False, True))
    r1, r2 = _rows(table, rows or {"#DATA"})
    return RefSpec(table.sheet, r1, c1, r2, c2, (True, True, True, True))


def _rows(table: "Table", picked: set[str]) -> tuple[int, int]:
    data = (table.r1 + table.headers, table.r2 - table.totals)
    spans = {"#ALL": (table.r1, table.r2), "#DATA": data,
             "#HEADERS": (table.r1, table.r1 + table.headers - 1),
             "#TOTALS": (table.r2 - table.totals + 1, table.r2)}
    chosen = [spans[p] for p in picked]
    r1, r2 = min(a for a, _ in chosen), max(b for _, b in chosen)
    if r1 > r2:
        raise FormulaSyntaxError(f"table {table.name} has no such rows")
    return r1, r2
