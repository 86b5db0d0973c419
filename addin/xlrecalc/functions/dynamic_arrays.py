"""Excel's functions that answer with an array or read arrays whole: SORT, SORTBY,
UNIQUE, FILTER, FREQUENCY, MDETERM, MINVERSE, the SUMX… family, TRIMMEAN; and ADDRESS,
HYPERLINK.

Sorting follows Excel's order: numbers, then text (without case), then logicals, then
errors; blanks last.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .base import registry, NUM, VALUE, integer, integers, is_number, logical, numbers_of, text
from .statistical_regression import inverse
from ..parse import column_letters
from ..values import MISSING, Arr, Rng, XlErr, grid

__all__ = ["FUNCTIONS"]

FUNCTIONS, _register = registry()
_CALC = "#CALC!"


def _order_key(value: Any) -> tuple[int, Any]:
    if value is None or value == "":
        return 5, 0
    if isinstance(value, bool):
        return 2, value
    if is_number(value):
        return 0, float(value)
    if isinstance(value, str):
        return 1, value.lower()
    return 3, str(value)


def _rows(array: Any, by_col: bool) -> list[list[Any]]:
    rows = [list(row) for row in grid(array)]
    return [list(col) for col in zip(*rows)] if by_col else rows


def _back(rows: list[list[Any]], by_col: bool) -> Any:
    if not rows:
        return XlErr(_CALC, "an empty array")
    out = [list(col) for col in zip(*rows)] if by_col else rows
    return Arr([[0.0 if v is None else v for v in row] for row in out])


@_register("SORT")
def _sort(here: Any, array: Any, index: Any = MISSING, order: Any = MISSING,
          by_col: Any = MISSING) -> Any:
    found = integers(1 if index is MISSING else index, 1 if order is MISSING else order)
    across = False if by_col is MISSING else logical(by_col)
    if isinstance(found, XlErr):
        return found
    if isinstance(across, XlErr):
        return across
    column, direction = found
    rows = _rows(array, across)
    if not rows or not 1 <= column <= len(rows[0]) or direction not in (1, -1):
        return XlErr(VALUE)
    rows.sort(key=lambda row: _order_key(row[column - 1]), reverse=direction == -1)
    return _back(rows, across)


@_register("SORTBY")
def _sortby(here: Any, array: Any, *pairs: Any) -> Any:
    rows = _rows(array, False)
    keys: list[tuple[list[Any], int]] = []
    for i in range(0, len(pairs), 2):
        by = [v for row in grid(pairs[i]) for v in row]
        direction = integer(pairs[i + 1]) if i + 1 < len(pairs) and pairs[i + 1] is not MISSING else 1
        if isinstance(direction, XlErr):
            return direction
        if len(by) != len(rows) or direction not in (1, -1):
            return XlErr(VALUE)
        keys.append((by, direction))
    order = list(range(len(rows)))
    for by, direction in reversed(keys):  # stable sorts, last key first
        order.sort(key=lambda i: _order_key(by[i]), reverse=direction == -1)
    return _back([rows[i] for i in order], False)


@_register("UNIQUE")
def _unique(here: Any, array: Any, by_col: Any = MISSING, once: Any = MISSING) -> Any:
    across = False if by_col is MISSING else logical(by_col)
    exactly = False if once is MISSING else logical(once)
    if isinstance(across, XlErr):
        return across
    if isinstance(exactly, XlErr):
        return exactly
    rows = _rows(array, across)
    counts: dict[tuple[Any, ...], int] = {}
    firsts: dict[tuple[Any, ...], list[Any]] = {}
    for row in rows:
        key = tuple(_order_key(v) for v in row)
        counts[key] = counts.get(key, 0) + 1
        firsts.setdefault(key, row)
    kept = [firsts[k] for k in firsts if not exactly or counts[k] == 1]
    return _back(kept, across)


@_register("FILTER")
def _filter(here: Any, array: Any, include: Any, if_empty: Any = MISSING) -> Any:
    rows = grid(array)
    flags = grid(include)
    height, width = len(rows), len(rows[0]) if rows else 0
    if len(flags) == height and len(flags[0]) == 1:
        tests, across = [row[0] for row in flags], False
    elif len(flags) == 1 and len(flags[0]) == width:
        tests, across = flags[0], True
    else:
        return XlErr(VALUE, "FILTER: the include array does not fit the array")
    chosen = []
    for i, flag in enumerate(tests):
        if isinstance(flag, XlErr):
            return flag
        if flag is not None and flag != "" and not isinstance(flag, str) and flag:
            chosen.append(i)
    if not chosen:
        return XlErr(_CALC, "FILTER: nothing matches") if if_empty is MISSING else if_empty
    if across:
        return _back([[row[j] for j in chosen] for row in rows], False)
    return _back([rows[i] for i in chosen], False)


@_register("FREQUENCY")
def _frequency(here: Any, data: Any, bins: Any) -> Any:
    values = numbers_of([data])
    edges = numbers_of([bins])
    if isinstance(values, XlErr):
        return values
    if isinstance(edges, XlErr):
        return edges
    ordered = sorted(edges)
    counts = [0] * (len(edges) + 1)
    for v in values:
        slot = next((i for i, edge in enumerate(ordered) if v <= edge), len(ordered))
        counts[slot] += 1
    # counts belong to the bins in the order they were given
    by_edge: dict[float, int] = {}
    for i, edge in enumerate(ordered):
        by_edge.setdefault(edge, counts[i])
    out = [float(by_edge.pop(edge, 0)) for edge in edges] + [float(counts[-1])]
    return Arr([[v] for v in out])


def _matrix(array: Any) -> list[list[float]] | XlErr:
    rows = grid(array)
    if len(rows) != len(rows[0]):
        return XlErr(VALUE, "the matrix is not square")
    for v in (v for row in rows for v in row):
        if not is_number(v):
            return v if isinstance(v, XlErr) else XlErr(VALUE)
    return [[float(v) for v in row] for row in rows]


@_register("MDETERM")
def _mdeterm(here: Any, array: Any) -> Any:
    m = _matrix(array)
    if isinstance(m, XlErr):
        return m
    n, det = len(m), 1.0
    m = [row[:] for row in m]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if m[pivot][col] == 0:
            return 0.0
        if pivot != col:
            m[col], m[pivot] = m[pivot], m[col]
            det = -det
        det *= m[col][col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            m[r] = [a - factor * b for a, b in zip(m[r], m[col])]
    return det


@_register("MINVERSE")
def _minverse(here: Any, array: Any) -> Any:
    m = _matrix(array)
    if isinstance(m, XlErr):
        return m
    found = inverse(m)
    return XlErr(NUM, "the matrix is singular") if found is None else Arr([list(r) for r in found])


def _sum_pairs(name: str, fn: Callable[[float, float], float]) -> None:
    def run(here: Any, a: Any, b: Any) -> Any:
        xs = [v for row in grid(a) for v in row]
        ys = [v for row in grid(b) for v in row]
        if len(xs) != len(ys):
            return XlErr("#N/A")
        for v in xs + ys:
            if isinstance(v, XlErr):
                return v
        return math.fsum(fn(float(x), float(y)) for x, y in zip(xs, ys)
                         if is_number(x) and is_number(y))
    FUNCTIONS[name] = run


_sum_pairs("SUMX2MY2", lambda x, y: x * x - y * y)
_sum_pairs("SUMX2PY2", lambda x, y: x * x + y * y)
_sum_pairs("SUMXMY2", lambda x, y: (x - y) ** 2)


@_register("TRIMMEAN")
def _trimmean(here: Any, array: Any, percent: Any) -> Any:
    values = numbers_of([array])
    share = numbers_of([percent])
    if isinstance(values, XlErr):
        return values
    if isinstance(share, XlErr) or not share:
        return share if isinstance(share, XlErr) else XlErr(VALUE)
    if not values or not 0 <= share[0] < 1:
        return XlErr(NUM)
    cut = int(len(values) * share[0] / 2)  # Excel rounds the excluded count down to even
    kept = sorted(values)[cut:len(values) - cut]
    return math.fsum(kept) / len(kept)


@_register("ADDRESS")
def _address(here: Any, row: Any, col: Any, kind: Any = MISSING, a1: Any = MISSING,
             sheet: Any = MISSING) -> Any:
    found = integers(row, col, 1 if kind is MISSING else kind)
    style = True if a1 is MISSING else logical(a1)
    name = "" if sheet is MISSING else text(sheet)
    for value in (found, style, name):
        if isinstance(value, XlErr):
            return value
    assert isinstance(found, list) and isinstance(name, str)
    r, c, k = found
    if not (1 <= r <= 1048576 and 1 <= c <= 16384 and 1 <= k <= 4):
        return XlErr(VALUE)
    abs_row, abs_col = k in (1, 2), k in (1, 3)
    if style:
        ref = f"{'$' if abs_col else ''}{column_letters(c)}{'$' if abs_row else ''}{r}"
    else:
        ref = f"R{r if abs_row else f'[{r}]'}C{c if abs_col else f'[{c}]'}"
    if name:
        plain = all(ch.isalnum() or ch in "_.[]" for ch in name)
        quoted = name if plain else "'" + name.replace("'", "''") + "'"
        ref = f"{quoted}!{ref}"
    return ref


@_register("HYPERLINK")
def _hyperlink(here: Any, link: Any, friendly: Any = MISSING) -> Any:
    shown = link if friendly is MISSING else friendly
    if isinstance(shown, Rng):
        shown = grid(shown)[0][0]
    return 0.0 if shown is None else shown


def _take_drop(take: bool) -> Callable[..., Any]:
    def run(here: Any, array: Any, rows: Any = MISSING, cols: Any = MISSING) -> Any:
        grid_ = [list(row) for row in grid(array)]
        for count, across in ((rows, False), (cols, True)):
            if count is MISSING:
                continue
            n = integer(count)
            if isinstance(n, XlErr):
                return n
            lines = [list(c) for c in zip(*grid_)] if across else grid_
            if take:
                lines = lines[:n] if n >= 0 else lines[n:]
            else:
                lines = lines[n:] if n >= 0 else lines[:n]
            if not lines:
                return XlErr(_CALC, "an empty array")
            grid_ = [list(c) for c in zip(*lines)] if across else lines
        return _back(grid_, False)
    return run


FUNCTIONS["TAKE"], FUNCTIONS["DROP"] = _take_drop(True), _take_drop(False)


def _choose_lines(across: bool) -> Callable[..., Any]:
    def run(here: Any, array: Any, *numbers: Any) -> Any:
        lines = _rows(array, across)
        picked = []
        for number_ in numbers:
            for v in (v for row in grid(number_) for v in row):
                n = integer(v)
                if isinstance(n, XlErr):
                    return n
                if n == 0 or abs(n) > len(lines):
                    return XlErr(VALUE)
                picked.append(lines[n - 1] if n > 0 else lines[n])
        return _back(picked, across)
    return run


FUNCTIONS["CHOOSEROWS"], FUNCTIONS["CHOOSECOLS"] = _choose_lines(False), _choose_lines(True)


def _stack(across: bool) -> Callable[..., Any]:
    def run(here: Any, *arrays: Any) -> Any:
        parts = [_rows(a, across) for a in arrays if a is not MISSING]
        width = max(len(p[0]) for p in parts)
        out = [row + [XlErr("#N/A")] * (width - len(row)) for p in parts for row in p]
        return _back(out, across)
    return run


FUNCTIONS["VSTACK"], FUNCTIONS["HSTACK"] = _stack(False), _stack(True)


def _to_line(column: bool) -> Callable[..., Any]:
    def run(here: Any, array: Any, ignore: Any = MISSING, by_col: Any = MISSING) -> Any:
        skip = 0 if ignore is MISSING else integer(ignore)
        across = False if by_col is MISSING else logical(by_col)
        if isinstance(skip, XlErr):
            return skip
        if isinstance(across, XlErr):
            return across
        values = [v for line in _rows(array, across) for v in line]
        if skip in (1, 3):
            values = [v for v in values if v is not None]
        if skip in (2, 3):
            values = [v for v in values if not isinstance(v, XlErr)]
        if not values:
            return XlErr(_CALC, "an empty array")
        return _back([[v] for v in values] if column else [values], False)
    return run


FUNCTIONS["TOCOL"], FUNCTIONS["TOROW"] = _to_line(True), _to_line(False)


@_register("MODE.MULT")
def _mode_mult(here: Any, *args: Any) -> Any:
    values = numbers_of(args)
    if isinstance(values, XlErr):
        return values
    counts: dict[float, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.values(), default=0)
    if best < 2:
        return XlErr("#N/A")
    modes = [v for v in counts if counts[v] == best]
    return Arr([[v] for v in modes])


@_register("SKEW.P")
def _skew_p(here: Any, *args: Any) -> Any:
    values = numbers_of(args)
    if isinstance(values, XlErr):
        return values
    n = len(values)
    if n < 1:
        return XlErr("#DIV/0!")
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / n)
    if sd == 0:
        return XlErr("#DIV/0!")
    return math.fsum(((v - mean) / sd) ** 3 for v in values) / n


@_register("MULTINOMIAL")
def _multinomial(here: Any, *args: Any) -> Any:
    values = numbers_of(args)
    if isinstance(values, XlErr):
        return values
    whole = [int(v) for v in values]
    if any(v < 0 for v in whole):
        return XlErr(NUM)
    result = math.factorial(sum(whole))
    for v in whole:
        result //= math.factorial(v)
    return float(result)
