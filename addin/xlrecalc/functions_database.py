"""Excel's database functions: DAVERAGE, DCOUNT, DCOUNTA, DGET, DMAX, DMIN, DPRODUCT,
DSTDEV, DSTDEVP, DSUM, DVAR and DVARP.

``Dfn(database, field, criteria)``: the database's first row holds the field labels and
each row below is a record; ``field`` is a label (case ignored) or a column number. The
criteria range has labels in its first row and conditions below: the conditions of one
row must all hold (AND), and a record is taken when any row holds (OR); a blank cell
sets no condition, so a blank row takes every record. A condition reads as a SUMIFS
criterion (``">10"``, ``"<>x"``, wildcards ``*`` ``?`` ``~``, numbers, TRUE), through the
same matcher (:func:`.functions_aggregate.matcher`), with the one difference Excel's
database criteria have: text without an operator matches every text that *begins* with
it (``Pea`` takes Pear and Peach; ``=Pea`` takes Pea only).

A condition under a label that names no field of the database is, in Excel, a computed
criterion: a formula Excel re-evaluates for every record. That cannot be done from the
values a workbook stores, so it gives ``#VALUE!`` saying so, never a guessed total.

The values of the field in the records taken are handed to the worksheet function of
the same name (SUM, AVERAGE, COUNT, STDEV.S …), so they are read exactly as those read a
range. DGET returns the one value found: ``#VALUE!`` when no record matches, ``#NUM!``
when several do.

Microsoft's example (DAVERAGE function): the average yield of apple trees over 10 feet

>>> rows = [["Tree", "Height", "Age", "Yield", "Profit"], ["Apple", 18.0, 20.0, 14.0, 105.0],
...         ["Pear", 12.0, 12.0, 10.0, 96.0], ["Cherry", 13.0, 14.0, 9.0, 105.0],
...         ["Apple", 14.0, 15.0, 10.0, 75.0], ["Pear", 9.0, 8.0, 8.0, 76.8],
...         ["Apple", 8.0, 9.0, 6.0, 45.0]]
>>> FUNCTIONS["DAVERAGE"](None, Arr(rows), "Yield", Arr([["Tree", "Height"], ["=Apple", ">10"]]))
12.0
>>> FUNCTIONS["DGET"](None, Arr(rows), "Yield", Arr([["Tree"], ["=Apple"], ["=Pear"]]))
XlErr('#NUM!')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .functions_aggregate import FUNCTIONS as _AGGREGATES
from .functions_aggregate import matcher
from .functions_base import NUM, VALUE, is_number, number, registry
from .functions_stats import FUNCTIONS as _STATS
from .values import MISSING, Arr, Rng, XlErr, grid, to_text

__all__ = ["FUNCTIONS"]

FUNCTIONS, _register = registry()

_OPERATORS = ("<", ">", "=")
_SPECIAL = ("TRUE", "FALSE", "#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


def _condition(criterion: Any) -> Callable[[Any], bool]:
    """The test one criteria cell sets: a SUMIFS criterion, except that text without an
    operator (and not a number, a logical or an error) is a prefix, as in Excel's database
    and advanced-filter criteria."""
    if isinstance(criterion, str) and criterion and not criterion.startswith(_OPERATORS) \
            and criterion.upper() not in _SPECIAL and isinstance(number(criterion), XlErr):
        return matcher(criterion + "*")
    return matcher(criterion)


def _label(value: Any) -> str:
    found = to_text(value)
    return "" if isinstance(found, XlErr) else found.strip().upper()


def _field_index(name: str, labels: list[str], field: Any) -> int | None | XlErr:
    """The database column of ``field`` (0-based); None when it is omitted."""
    if field is MISSING:
        return None
    if isinstance(field, (Rng, Arr)):
        rows = grid(field)
        field = rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else XlErr(VALUE)
    if isinstance(field, XlErr):
        return field
    if is_number(field) or isinstance(field, bool):
        index = int(field)
        if not 1 <= index <= len(labels):
            return XlErr(VALUE, f"{name}: field {index} is not a column of the database")
        return index - 1
    wanted = _label(field)
    if wanted in labels:
        return labels.index(wanted)
    return XlErr(VALUE, f"{name}: no field is labelled {to_text(field)!r}")


def _records(name: str, database: Any, criteria: Any) -> tuple[list[str], list[list[Any]]] | XlErr:
    """The database's labels and the records the criteria take."""
    table, conditions = grid(database), grid(criteria)
    if len(table) < 1 or len(conditions) < 2:
        return XlErr(VALUE, f"{name}: the criteria need labels and at least one row below them")
    labels = [_label(v) for v in table[0]]
    columns: list[int | None] = []
    for v in conditions[0]:
        label = _label(v)
        columns.append(labels.index(label) if label and label in labels else None)
    tests: list[list[tuple[int, Callable[[Any], bool]]]] = []
    for row in conditions[1:]:
        tests_of_row = []
        for column, cell in zip(columns, row):
            if cell is None or cell == "":
                continue
            if column is None:
                return XlErr(VALUE, f"{name}: the criterion {to_text(cell)!r} is under a label "
                             "that names no field (a computed criterion, which Excel evaluates "
                             "for each record; not computed headlessly)")
            tests_of_row.append((column, _condition(cell)))
        tests.append(tests_of_row)
    taken = [record for record in table[1:]
             if any(all(test(record[c] if c < len(record) else None) for c, test in row)
                    for row in tests)]
    return labels, taken


def _database(name: str, function: str, field_optional: bool = False) -> None:
    fn = {**_AGGREGATES, **_STATS}[function]

    @_register(name)
    def run(here: Any, database: Any, field: Any, criteria: Any = MISSING) -> Any:
        if criteria is MISSING:
            return XlErr(VALUE, f"{name} takes a database, a field and criteria")
        found = _records(name, database, criteria)
        if isinstance(found, XlErr):
            return found
        labels, taken = found
        index = _field_index(name, labels, field)
        if isinstance(index, XlErr):
            return index
        if index is None:
            if not field_optional:
                return XlErr(VALUE, f"{name}: the field is missing")
            return float(len(taken))
        return fn(here, Arr([[record[index]] for record in taken] or [[None]]))


for _name, _function in (("DAVERAGE", "AVERAGE"), ("DMAX", "MAX"), ("DMIN", "MIN"),
                         ("DPRODUCT", "PRODUCT"), ("DSTDEV", "STDEV.S"), ("DSTDEVP", "STDEV.P"),
                         ("DSUM", "SUM"), ("DVAR", "VAR.S"), ("DVARP", "VAR.P")):
    _database(_name, _function)
_database("DCOUNT", "COUNT", field_optional=True)
_database("DCOUNTA", "COUNTA", field_optional=True)


@_register("DGET")
def _dget(here: Any, database: Any, field: Any, criteria: Any) -> Any:
    found = _records("DGET", database, criteria)
    if isinstance(found, XlErr):
        return found
    labels, taken = found
    index = _field_index("DGET", labels, field)
    if isinstance(index, XlErr):
        return index
    if index is None:
        return XlErr(VALUE, "DGET: the field is missing")
    if not taken:
        return XlErr(VALUE, "DGET: no record matches the criteria")
    if len(taken) > 1:
        return XlErr(NUM, f"DGET: {len(taken)} records match the criteria, not one")
    return taken[0][index]
