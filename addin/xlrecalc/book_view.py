"""What the compiler and the functions that read the workbook see of it.

:class:`BookView` is the part of :class:`xlrecalc.engine.Book` that the modules below
the engine use (closures, compile, references, structured references): they receive the
book as a parameter and know it by this protocol, so none of them imports the engine
and the engine's modules import one another one way. :class:`Table` is an Excel table,
which both the engine and the structured references use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .parse import Ref
from .values import Key

__all__ = ["BookView", "Table"]


class Table:
    """An Excel table (``xl/tables/*.xml``): its range, header and totals rows, columns."""

    __slots__ = ("name", "sheet", "r1", "c1", "r2", "c2", "columns", "headers", "totals")

    def __init__(self, name: str, sheet: str, ref: Ref, columns: list[str],
                 headers: int = 1, totals: int = 0):
        self.name, self.sheet = name, sheet
        self.r1, self.c1, self.r2, self.c2 = ref.r1, ref.c1, ref.r2, ref.c2
        self.columns = [c.upper() for c in columns]
        self.headers, self.totals = headers, totals

    def column(self, name: str) -> int | None:
        """The sheet column of a table column, by its header (case-insensitive)."""
        upper = name.upper()
        return self.c1 + self.columns.index(upper) if upper in self.columns else None


class BookView(Protocol):
    """The workbook as the compiled formulas read it (:class:`xlrecalc.engine.Book`)."""

    functions: dict[str, Callable[..., Any]]
    cells: dict[str, dict[tuple[int, int], Any]]
    sheet_names: dict[str, str]
    extent: dict[str, tuple[int, int]]
    formulas: dict[Key, Any]
    owner: dict[Key, Key]
    tables: dict[str, Table]
    compiled_names: dict[tuple[str, str, bool], Any]
    evaluations: int
    _circular: dict[Key, str]  # the cells found on a circular reference, with its message

    def add_sheet(self, name: str) -> None: ...
    def add_formula(self, sheet: str, row: int, col: int, text: str, ref: Ref | None = None) -> None: ...
    def value(self, sheet: str, row: int, col: int) -> Any: ...
    def demand(self, key: Key) -> Any: ...
    def clip(self, sheet: str, row: int, col: int) -> tuple[int, int]: ...
    def sheet(self, name: str | None, here: str) -> str: ...
    def sheets_between(self, first: str, last: str) -> list[str]: ...
    def name_text(self, name: str, here: str) -> str | None: ...
    def table_at(self, key: Key) -> Table | None: ...
    def parameters(self, name: str) -> list[str]: ...
    def defaults(self, name: str) -> list[Any]: ...
    def compile_formula(self, text: str, here: Key, array: bool) -> Any: ...
