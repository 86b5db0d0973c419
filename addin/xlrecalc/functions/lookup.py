"""Excel's lookup functions: VLOOKUP, HLOOKUP, MATCH, XMATCH, LOOKUP, XLOOKUP.

Exact matches compare text without case and take Excel's wildcards (``*``, ``?``, ``~``);
approximate matches search sorted data by halving, as Excel does, among the values of the
looked-up value's own type (numbers, text or logicals).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .criteria import wildcard
from .base import NA, REF, VALUE, integer, is_number, logical
from ..values import MISSING, Arr, Rng, XlErr, grid, settled

__all__ = ["FUNCTIONS", "find", "MANY", "exact_positions", "lookup_key"]

FUNCTIONS: dict[str, Callable[..., Any]] = {}


def _key(value: Any) -> tuple[int, Any] | None:
    """A value's type class and its order within it (text without case)."""
    kind = type(value)
    if kind is float:  # the common cases first, as the general rule below reads them
        return 0, value
    if kind is str:
        return 1, value.lower()
    if isinstance(value, bool):
        return 2, value
    if is_number(value):
        return 0, float(value)
    if isinstance(value, str):
        return 1, value.lower()
    return None


def _lookup_value(value: Any, here: Any) -> Any:
    if isinstance(value, (Rng, Arr)):
        rows = grid(value)
        if len(rows) == 1 and len(rows[0]) == 1:
            value = rows[0][0]
        else:
            from ..values import scalar
            value = scalar(value, here)
    return 0.0 if value is None or value is MISSING else value


def find(value: Any, items: list[Any], mode: int, wildcards: bool = True,
         reverse: bool = False) -> int | None:
    """Position of ``value`` in ``items``: mode 0 exact, 1 the largest not above it in
    ascending data (halving), -1 the smallest not below it in descending data."""
    target = _key(value)
    if target is None:
        return None
    if mode == 0:
        order = range(len(items) - 1, -1, -1) if reverse else range(len(items))
        if target[0] == 1 and wildcards and ("*" in value or "?" in value or "~" in value):
            matches = wildcard(value).fullmatch  # MATCH("check *",…): the test in the loop
            for i in order:
                v = items[i]
                if isinstance(v, str) and matches(v) is not None:
                    return i
            return None
        if target[0] == 1:  # a text: what _key(v) == target means, without the tuple
            lowered = target[1]
            for i in order:
                v = items[i]
                if isinstance(v, str) and v.lower() == lowered:
                    return i
            return None
        if target[0] == 0:  # a number: what _key(v) == target means, without the tuple
            wanted = target[1]
            for i in order:
                v = items[i]
                if type(v) is float:
                    if v == wanted:
                        return i
                elif is_number(v) and float(v) == wanted:
                    return i
            return None
        for i in order:
            if _key(items[i]) == target:
                return i
        return None
    same = [(i, k[1]) for i, k in ((i, _key(v)) for i, v in enumerate(items))
            if k is not None and k[0] == target[0]]
    low, high, found = 0, len(same) - 1, None
    while low <= high:
        middle = (low + high) // 2
        position, key = same[middle]
        if key <= target[1] if mode > 0 else key >= target[1]:
            found, low = position, middle + 1
        else:
            high = middle - 1
    return found


def _vector(arg: Any) -> list[Any]:
    if type(arg) is Rng:  # a range's cells without a list for each row
        return arg.values()
    return [v for row in grid(arg) for v in row]


def _nth_of(arg: Any, index: int, along_rows: bool) -> Any:
    """The ``index``-th (0-based) row (``along_rows``) or column of a range or array."""
    if isinstance(arg, Rng):
        height, width = arg.shape
        if along_rows:
            return Rng(arg.book, arg.sheet, arg.r1 + index, arg.c1, arg.r1 + index, arg.c2)
        return Rng(arg.book, arg.sheet, arg.r1, arg.c1 + index, arg.r2, arg.c1 + index)
    rows = grid(arg)
    if along_rows:
        return Arr([rows[index]]) if len(rows[index]) > 1 else rows[index][0]
    column = [[row[index]] for row in rows]
    return Arr(column) if len(column) > 1 else column[0][0]


def _cell(arg: Any, row: int, col: int) -> Any:
    if isinstance(arg, Rng):
        return arg.book.value(arg.sheet, arg.r1 + row, arg.c1 + col)
    rows = grid(arg)
    return rows[row][col] if row < len(rows) and col < len(rows[row]) else XlErr(NA)


def _table_lookup(vertical: bool) -> Callable[..., Any]:
    def lookup(here: Any, value: Any, table: Any, index: Any, approximate: Any = MISSING) -> Any:
        value = _lookup_value(value, here)
        if isinstance(value, XlErr):
            return value
        if isinstance(table, XlErr):
            return table
        column = integer(_lookup_value(index, here))
        if isinstance(column, XlErr):
            return column
        approx = True if approximate is MISSING else logical(_lookup_value(approximate, here))
        if isinstance(approx, XlErr):
            return approx
        height, width = table.shape if isinstance(table, (Rng, Arr)) else (1, 1)
        if column < 1:
            return XlErr(VALUE)
        if column > (width if vertical else height):
            return XlErr(REF)
        rows = grid(table)
        keys = [row[0] for row in rows] if vertical else (rows[0] if rows else [])
        found = find(value, keys, 1 if approx else 0)
        if found is None:
            return XlErr(NA, f"{value!r} not found" if not approx else None)
        return _cell(table, found, column - 1) if vertical else _cell(table, column - 1, found)
    return lookup


FUNCTIONS["VLOOKUP"] = _table_lookup(True)
FUNCTIONS["HLOOKUP"] = _table_lookup(False)


def _match(here: Any, value: Any, array: Any, kind: Any = MISSING) -> Any:
    value = _lookup_value(value, here)
    if isinstance(value, XlErr):
        return value
    mode = 1 if kind is MISSING else integer(_lookup_value(kind, here))
    if isinstance(mode, XlErr):
        return mode
    if isinstance(array, XlErr):
        return array
    if isinstance(array, (Rng, Arr)) and min(array.shape) > 1:
        return XlErr(NA, "MATCH looks in one row or one column")
    if mode == 0 and type(array) is Rng and not (
            isinstance(value, str) and ("*" in value or "?" in value or "~" in value)):
        # the same range looked up again (a formula copied down a column): its values
        # indexed once, as find's exact match finds them
        first = settled(array, "first positions", _first_positions)
        if first is not None:
            key = _key(value)
            found = None if key is None else first.get(key)
            return XlErr(NA) if found is None else float(found + 1)
    found = find(value, _vector(array), (mode > 0) - (mode < 0))
    return XlErr(NA) if found is None else float(found + 1)


FUNCTIONS["MATCH"] = _match


def _first_positions(items: list[Any]) -> dict[tuple[int, Any], int]:
    """Each value's first position among ``items``, by its type class and order (the
    exact match of :func:`find`, text without case)."""
    first: dict[tuple[int, Any], int] = {}
    for i, item in enumerate(items):
        key = _key(item)
        if key is not None and key not in first:
            first[key] = i
    return first


def exact_positions(array: Arr) -> dict[tuple[int, Any], int] | None:
    """Where MATCH's exact mode finds each value in a one-row or one-column array
    (0-based, by :func:`lookup_key`); ``None`` for a block, which MATCH refuses."""
    if min(array.shape) > 1:
        return None
    return _first_positions(_vector(array))


def lookup_key(value: Any) -> tuple[int, Any] | None:
    """A value's type class and its order within it, as exact matches compare them."""
    return _key(value)


def _each_exact(values: Rng | Arr, items: list[Any], answer: Callable[[int], Any],
                alone: Callable[[Any], Any],
                missing: Callable[[Any], XlErr] = lambda value: XlErr(NA, f"{value!r} not found")) -> Arr:
    """Several values looked up in exact mode with ``items`` indexed once: ``answer``
    of the position found, ``missing`` of a value not found; a value with wildcards,
    compared one by one, ``alone``; an error looked up is the answer as it is."""
    first = _first_positions(items)

    def one(value: Any) -> Any:
        value = 0.0 if value is None else value
        if isinstance(value, XlErr):
            return value
        if isinstance(value, str) and ("*" in value or "?" in value or "~" in value):
            return alone(value)
        key = _key(value)
        found = first.get(key) if key is not None else None
        return missing(value) if found is None else answer(found)
    return Arr([[one(v) for v in row] for row in values.rows()])


def _match_many(here: Any, values: Rng | Arr, array: Any, kind: Any = MISSING) -> Any:
    """MATCH of each of several values in exact mode, the array indexed once (each
    value looked up alone costs the array's length: a column of values against a
    column of a hundred thousand would be ten billion comparisons); ``None`` where
    the general way is taken (another mode, a block, an error)."""
    mode = 1 if kind is MISSING else integer(_lookup_value(kind, here))
    if mode != 0 or isinstance(array, XlErr) or (isinstance(array, (Rng, Arr)) and min(array.shape) > 1):
        return None
    return _each_exact(values, _vector(array), lambda i: float(i + 1),
                       lambda v: _match(here, v, array, kind), lambda v: XlErr(NA))


def _vlookup_many(here: Any, values: Rng | Arr, table: Any, index: Any,
                  approximate: Any = MISSING) -> Any:
    """VLOOKUP of each of several values with FALSE (exact), the first column indexed
    once; ``None`` where the general way is taken."""
    if approximate is MISSING or isinstance(table, XlErr) or not isinstance(table, (Rng, Arr)):
        return None
    exact = logical(_lookup_value(approximate, here))
    column = integer(_lookup_value(index, here))
    if exact is not False or isinstance(column, XlErr) or not 1 <= column <= table.shape[1]:
        return None
    rows = grid(table)
    return _each_exact(values, [row[0] for row in rows], lambda i: _cell(table, i, column - 1),
                       lambda v: FUNCTIONS["VLOOKUP"](here, v, table, index, approximate))


# Lookups of several values at once, where one pass over the array serves them all
MANY: dict[str, Callable[..., Any]] = {"MATCH": _match_many, "VLOOKUP": _vlookup_many}


def _x_find(value: Any, items: list[Any], match_mode: int, search_mode: int) -> int | None:
    if match_mode == 2:
        if not isinstance(value, str):
            return find(value, items, 0, False, search_mode < 0)
        return find(value, items, 0, True, search_mode < 0)
    if search_mode in (2, -2):
        return _bisect(value, items, match_mode, search_mode < 0)
    exact = find(value, items, 0, False, search_mode < 0)
    if exact is not None or match_mode == 0:
        return exact
    target = _key(value)
    best = None
    for i, item in enumerate(items):
        key = _key(item)
        if key is None or target is None or key[0] != target[0]:
            continue
        better = key[1] < target[1] if match_mode < 0 else key[1] > target[1]
        if better and (best is None or (key[1] > best[1] if match_mode < 0 else key[1] < best[1])):
            best = (i, key[1])
    return None if best is None else best[0]


def _bisect(value: Any, items: list[Any], match_mode: int, descending: bool) -> int | None:
    """XLOOKUP's binary search (search_mode 2 or -2): halving over every item, whatever
    its type, in Excel's order of types (numbers, then text, then logicals), so data
    that is not sorted leads where Excel's own halving leads; the item equal to
    ``value``, else the last one passed that is next larger (match_mode 1) or next
    smaller (-1).

    >>> _bisect(46523, [9700, "xyz", "xyz", 160726, 204100, 510300], 1, False)
    1
    >>> _bisect(46523, [510300, 204100, 160726, 84200, 39475, 9700], 1, True)
    3
    """
    target = _key(value)
    if target is None:
        return None
    low, high, larger, smaller = 0, len(items) - 1, None, None
    while low <= high:
        middle = (low + high) // 2
        key = _key(items[middle]) or (-1, 0)  # an empty cell or an error: below all
        if key == target:
            return middle
        if key < target:
            smaller = middle
            low, high = (low, middle - 1) if descending else (middle + 1, high)
        else:
            larger = middle
            low, high = (middle + 1, high) if descending else (low, middle - 1)
    return larger if match_mode == 1 else smaller if match_mode == -1 else None


def _modes(match_mode: Any, search_mode: Any, here: Any) -> tuple[int, int] | XlErr:
    m = 0 if match_mode is MISSING else integer(_lookup_value(match_mode, here))
    s = 1 if search_mode is MISSING else integer(_lookup_value(search_mode, here))
    if isinstance(m, XlErr):
        return m
    if isinstance(s, XlErr):
        return s
    if m not in (-1, 0, 1, 2) or s not in (-2, -1, 1, 2):
        return XlErr(VALUE)
    return m, s


def _xlookup(here: Any, value: Any, lookup: Any, result: Any, if_not_found: Any = MISSING,
             match_mode: Any = MISSING, search_mode: Any = MISSING) -> Any:
    value = _lookup_value(value, here)
    if isinstance(value, XlErr):
        return value
    modes = _modes(match_mode, search_mode, here)
    if isinstance(modes, XlErr):
        return modes
    shape = lookup.shape if isinstance(lookup, (Rng, Arr)) else (1, 1)
    if min(shape) > 1:
        return XlErr(VALUE, "XLOOKUP looks in one row or one column")
    found = _x_find(value, _vector(lookup), *modes)
    if found is None:
        return XlErr(NA) if if_not_found is MISSING else if_not_found
    along_rows = shape[1] == 1 and shape[0] > 1 or shape == (1, 1)
    result_shape = result.shape if isinstance(result, (Rng, Arr)) else (1, 1)
    if (result_shape[0] if along_rows else result_shape[1]) != max(shape):
        return XlErr(VALUE, "XLOOKUP: the arrays differ in size")
    if along_rows:
        return _nth_of(result, found, True) if result_shape[1] > 1 else _cell(result, found, 0)
    return _nth_of(result, found, False) if result_shape[0] > 1 else _cell(result, 0, found)


FUNCTIONS["XLOOKUP"] = _xlookup


def _xmatch(here: Any, value: Any, lookup: Any, match_mode: Any = MISSING,
            search_mode: Any = MISSING) -> Any:
    value = _lookup_value(value, here)
    if isinstance(value, XlErr):
        return value
    modes = _modes(match_mode, search_mode, here)
    if isinstance(modes, XlErr):
        return modes
    found = _x_find(value, _vector(lookup), *modes)
    return XlErr(NA) if found is None else float(found + 1)


FUNCTIONS["XMATCH"] = _xmatch


def _lookup(here: Any, value: Any, lookup: Any, result: Any = MISSING) -> Any:
    """LOOKUP's vector form and, without a result vector, its array form: a block wider
    than tall is searched along its first row and answers from its last, else down its
    first column answering from its last column."""
    value = _lookup_value(value, here)
    if isinstance(value, XlErr):
        return value
    if isinstance(lookup, XlErr):
        return lookup
    rows = grid(lookup)
    height, width = len(rows), len(rows[0]) if rows else 0
    if result is MISSING:
        if width > height:
            keys, answers = rows[0], rows[-1]
        else:
            keys, answers = [row[0] for row in rows], [row[-1] for row in rows]
    else:
        if min(height, width) > 1:
            return XlErr(NA, "LOOKUP's vector form takes one row or one column")
        keys, answers = _vector(lookup), _vector(result)
    found = find(value, keys, 1)
    if found is None:
        return XlErr(NA)
    if found >= len(answers):
        if isinstance(result, Rng):  # a result vector shorter than the lookup one grows
            column = result.shape[1] == 1
            return result.book.value(result.sheet, result.r1 + (found if column else 0),
                                     result.c1 + (0 if column else found))
        return XlErr(NA)
    return answers[found]


FUNCTIONS["LOOKUP"] = _lookup
