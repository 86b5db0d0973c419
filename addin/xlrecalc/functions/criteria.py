"""The ``IF`` and ``IFS`` forms of Excel's aggregates: COUNTIF, COUNTIFS, SUMIF,
SUMIFS, AVERAGEIF, AVERAGEIFS, MAXIFS and MINIFS (:mod:`.math_aggregate` holds them in
its table), and the criteria they read.

Criteria read as Excel reads them: ``">=5"``, ``"<>x"``, wildcards ``*`` and ``?`` (``~``
escapes), ``""`` for blank cells, ``"="`` for truly empty ones; text compares without
case, and text that reads as a number matches that number. A range counted again with
the same kind of criterion (``COUNTIF($B$5:$B$204,"<"&B5)`` copied down a column) is
counted from what its values were once sorted or counted into
(:func:`..values.settled`).

>>> matcher(">=5")(7.0), matcher(">=5")("7"), matcher("b*")("Bob"), matcher("")(None)
(True, False, True, True)
>>> matcher(5.0)("5"), matcher("<>")(None), matcher("=")(""), matcher("a?c")("abc")
(True, False, False, True)
>>> matcher(None)(None), matcher(None)(0.0)  # an empty criterion cell: zeros, not blanks
(False, True)
"""

from __future__ import annotations

import bisect
import functools
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from .base import registry, DIV0, VALUE, is_number, number
from ..values import MISSING, PENDING, Arr, Rng, XlErr, grid, settled

__all__ = ["FUNCTIONS", "matcher", "wildcard", "block", "mean", "over"]

FUNCTIONS, _register = registry()


def over(numbers: list[float] | XlErr, fn: Callable[[list[float]], Any]) -> Any:
    """``fn`` of the numbers, or the error found instead of them."""
    return numbers if isinstance(numbers, XlErr) else fn(numbers)


def mean(xs: list[float]) -> Any:
    """The average of the numbers; ``#DIV/0!`` of none."""
    return math.fsum(xs) / len(xs) if xs else XlErr(DIV0)


# -- criteria ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=512)  # a criterion copied down a column is built once
def wildcard(pattern: str) -> re.Pattern[str]:
    """A pattern with Excel's wildcards as a case-insensitive whole-text regex."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "*?~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.I | re.S)


_OPS = ("<=", ">=", "<>", "=", "<", ">")
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b, "<>": lambda a, b: a != b, "<": lambda a, b: a < b,
    ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}
_ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


def _as_number(value: Any) -> float | None:
    if is_number(value):
        return float(value)
    if isinstance(value, str):
        found = number(value)
        return None if isinstance(found, XlErr) or not value.strip() else found
    return None


def matcher(criterion: Any) -> Callable[[Any], bool]:
    """A test of a cell's value for one criterion of COUNTIF, SUMIFS …"""
    if criterion is None or criterion is MISSING:  # an empty criterion cell means 0
        return lambda v: is_number(v) and v == 0 or v == "0"
    if isinstance(criterion, XlErr):
        code = criterion.code
        return lambda v: isinstance(v, XlErr) and v.code == code
    if isinstance(criterion, bool):
        return lambda v: isinstance(v, bool) and v == criterion
    if is_number(criterion):
        target = float(criterion)
        return lambda v: _as_number(v) == target and not isinstance(v, bool)
    text = str(criterion)
    op = next((o for o in _OPS if text.startswith(o)), "")
    rest = text[len(op):]
    compare = _COMPARE[op or "="]
    if rest == "":
        if op == "":
            return lambda v: v is None or v == ""
        if op == "=":
            return lambda v: v is None
        if op == "<>":
            return lambda v: v is not None
        return lambda v: False
    if rest.upper() in _ERRORS:
        code = rest.upper()
        return lambda v: compare(isinstance(v, XlErr) and v.code == code, True)
    if rest.upper() in ("TRUE", "FALSE"):
        flag = rest.upper() == "TRUE"
        return lambda v: isinstance(v, bool) and compare(v, flag) if op not in ("", "=", "<>") \
            else compare(isinstance(v, bool) and v == flag, True)
    target_number = _as_number(rest)
    if target_number is not None:
        if op in ("", "=", "<>"):
            return lambda v: compare(_as_number(v) == target_number and not isinstance(v, bool), True)
        return lambda v: is_number(v) and compare(float(v), target_number)
    if op in ("", "=", "<>"):
        if any(ch in rest for ch in "*?~"):
            pattern = wildcard(rest)
            return lambda v: compare(isinstance(v, str) and pattern.fullmatch(v) is not None, True)
        lowered = rest.lower()
        return lambda v: compare(isinstance(v, str) and v.lower() == lowered, True)
    lowered = rest.lower()
    return lambda v: isinstance(v, str) and compare(v.lower(), lowered)


def _number_test(criterion: Any) -> tuple[Callable[[Any, Any], bool], float] | None:
    """What :func:`matcher`'s test of ``criterion`` answers for a cell holding a float:
    ``compare(v, target)``, as (compare, target); ``None`` for a criterion that is
    neither a number nor a comparison with one. A column of numbers is then tested
    without a call of the general test for each cell."""
    if is_number(criterion):
        return operator.eq, float(criterion)
    if type(criterion) is not str:
        return None
    op = next((o for o in _OPS if criterion.startswith(o)), "")
    rest = criterion[len(op):]
    if rest == "" or rest.upper() in _ERRORS or rest.upper() in ("TRUE", "FALSE"):
        return None
    target = _as_number(rest)
    if target is None:
        return None
    return (operator.ne if op == "<>" else operator.eq) if op in ("", "=", "<>") else _OPERATORS[op], target


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


def _flat(arg: Any, height: int, width: int) -> list[Any]:
    """:func:`_block`'s values row by row as one list, without a list for each row."""
    if isinstance(arg, Rng):
        book, sheet, r1, c1 = arg.book, arg.sheet, arg.r1, arg.c1
        get = book.cells[sheet].get  # book.value, inlined: a formula still pending is evaluated
        if width == 1:
            flat = [get((row, c1)) for row in range(r1, r1 + height)]
        else:
            cols = range(c1, c1 + width)
            flat = [get((row, col)) for row in range(r1, r1 + height) for col in cols]
        if book.pending and PENDING in flat:
            for at, v in enumerate(flat):
                if v is PENDING:
                    flat[at] = book.value(sheet, r1 + at // width, c1 + at % width)
        return flat
    return [v for row in block(arg, height, width) for v in row]


def block(arg: Any, height: int, width: int) -> list[list[Any]]:
    """``height`` × ``width`` values of a range from its top-left cell (SUMIF's sum range
    takes the criteria range's size), blank where the sheet has none."""
    if isinstance(arg, Rng):
        book, sheet = arg.book, arg.sheet
        get = book.cells[sheet].get  # book.value, inlined: a formula still pending is evaluated
        cols = range(arg.c1, arg.c1 + width)
        block = [[get((row, col)) for col in cols] for row in range(arg.r1, arg.r1 + height)]
        if book.pending:
            for i, values in enumerate(block):
                if PENDING in values:
                    block[i] = [book.value(sheet, arg.r1 + i, arg.c1 + j) if v is PENDING else v
                                for j, v in enumerate(values)]
        return block
    rows = grid(arg)
    return [[rows[i][j] if i < len(rows) and j < len(rows[i]) else None for j in range(width)]
            for i in range(height)]


def _extent(ranges: list[Any]) -> tuple[int, int, int]:
    """The rows and columns worth reading (a whole column stops at the last used row),
    and how many cells of the nominal shape lie beyond them (all blank)."""
    height, width = ranges[0].shape if isinstance(ranges[0], (Rng, Arr)) else (1, 1)
    used_h, used_w = 0, 0
    for arg in ranges:
        if isinstance(arg, Rng):
            r2, c2 = arg.book.clip(arg.sheet, arg.r2, arg.c2)
            used_h, used_w = max(used_h, r2 - arg.r1 + 1), max(used_w, c2 - arg.c1 + 1)
        else:
            used_h, used_w = height, width
    used_h, used_w = min(height, used_h), min(width, used_w)
    return used_h, used_w, height * width - used_h * used_w


def _criteria_lifted(first: int, step: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A criterion given as several cells gives one answer per cell (an array); the
    criteria are the arguments ``first``, ``first + step`` …"""
    return lambda fn: _lifted(fn, first, step)


def _lifted(fn: Callable[..., Any], first: int, step: int) -> Callable[..., Any]:
    def wrapper(here: Any, *args: Any) -> Any:
        spots = range(first, len(args), step)
        for i in spots:
            if i < len(args) and isinstance(args[i], (Rng, Arr)) and args[i].shape != (1, 1):
                rows = grid(args[i])
                return Arr([[wrapper(here, *args[:i], v, *args[i + 1:]) for v in row]
                            for row in rows])
        return fn(here, *[grid(a)[0][0] if i in spots and isinstance(a, (Rng, Arr)) else a
                          for i, a in enumerate(args)])
    wrapper.__name__ = fn.__name__
    return wrapper


def _matching(pairs: list[tuple[Any, Any]], target: Any) -> tuple[list[Any], int] | XlErr:
    """The values of ``target`` where every (range, criterion) pair matches, and how many
    matching cells lie beyond the used area (blank in every range)."""
    ranges = [r for r, _ in pairs]
    shape = ranges[0].shape if isinstance(ranges[0], (Rng, Arr)) else (1, 1)
    for r in ranges:
        if (r.shape if isinstance(r, (Rng, Arr)) else (1, 1)) != shape:
            return XlErr(VALUE, "the criteria ranges differ in size")
    tests = [matcher(c) for _, c in pairs]
    height, width, beyond = _extent(ranges + ([target] if target is not None else []))
    cells = [_flat(r, height, width) for r in ranges]  # row by row, as one list
    targets = _flat(target, height, width) if target is not None else None
    if len(tests) == 1:
        test, numbers = tests[0], _number_test(pairs[0][1])
        if numbers is not None:  # a float compared at once, any other value tested
            fn, wanted = numbers
            hits = [at for at, v in enumerate(cells[0])
                    if (fn(v, wanted) if type(v) is float else test(v))]
        else:
            hits = [at for at, v in enumerate(cells[0]) if test(v)]
    else:
        hits = [at for at in range(height * width)
                if all(test(flat[at]) for test, flat in zip(tests, cells))]
    if targets is not None:
        found = [targets[at] for at in hits]
    else:
        found = [True] * len(hits)
    outside = beyond if beyond and all(test(None) for test in tests) else 0
    return found, outside


def _count_settled(rng: Rng, criterion: Any) -> float | None:
    """COUNTIF of a number, of a comparison with one or of a text over a range counted
    again (``COUNTIF($B$5:$B$204,"<"&B5)`` copied down a column): the numbers of the
    range sorted once (:func:`.values.settled`) and counted by halving, or its values
    counted by value once; what the criterion's test counts (a comparison counts
    numbers, an equality numbers and texts that read as the number, a text the texts
    equal to it without case). ``None`` where the general way counts."""
    numbers = _number_test(criterion)
    if numbers is None:
        text = _text_equal(criterion)
        if text is None:
            return None
        texts = settled(rng, "texts counted", _texts_counted)
        return None if texts is None else float(texts.get(text, 0))
    if numbers[0] is operator.ne:
        return None
    fn, target = numbers
    if fn is operator.eq:
        counts = settled(rng, "numbers counted", _numbers_counted)
        return None if counts is None else float(counts.get(target, 0))
    ordered = settled(rng, "numbers sorted", _numbers_sorted)
    if ordered is None:
        return None
    if fn is operator.lt:
        return float(bisect.bisect_left(ordered, target))
    if fn is operator.le:
        return float(bisect.bisect_right(ordered, target))
    if fn is operator.gt:
        return float(len(ordered) - bisect.bisect_right(ordered, target))
    return float(len(ordered) - bisect.bisect_left(ordered, target))


def _texts_counted(values: list[Any]) -> dict[str, int]:
    """How many of a range's values are each text, without case."""
    counts: dict[str, int] = {}
    for v in values:
        if isinstance(v, str):
            lowered = v.lower()
            counts[lowered] = counts.get(lowered, 0) + 1
    return counts


def _text_equal(criterion: Any) -> str | None:
    """The text, lowered, that :func:`matcher`'s test of ``criterion`` compares a text
    cell with when the criterion asks for a text equal to it ("U", "=x": not a number,
    a logical, an error code nor a pattern); ``None`` for any other criterion."""
    if type(criterion) is not str:
        return None
    op = next((o for o in _OPS if criterion.startswith(o)), "")
    rest = criterion[len(op):]
    if op not in ("", "=") or rest == "" or rest.upper() in _ERRORS or rest.upper() in ("TRUE", "FALSE"):
        return None
    if _as_number(rest) is not None or any(ch in rest for ch in "*?~"):
        return None
    return rest.lower()


def _numbers_sorted(values: list[Any]) -> list[float]:
    """The numbers among a range's values, sorted (what a comparison's test counts)."""
    return sorted(float(v) for v in values if is_number(v))


def _numbers_counted(values: list[Any]) -> dict[float, int]:
    """How many of a range's values read as each number (what an equality's test
    counts: numbers, and texts that read as numbers; not logicals)."""
    counts: dict[float, int] = {}
    for v in values:
        found = None if isinstance(v, bool) else _as_number(v)
        if found is not None:
            counts[found] = counts.get(found, 0) + 1
    return counts


def _numbers_only(values: list[Any]) -> list[float] | XlErr:
    out = []
    for v in values:
        if isinstance(v, XlErr):
            return v
        if is_number(v):
            out.append(float(v))
    return out


@_register("COUNTIF")
@_criteria_lifted(1, 99)
def _countif(here: Any, rng: Any, criterion: Any) -> Any:
    if type(rng) is Rng:
        counted = _count_settled(rng, criterion)
        if counted is not None:
            return counted
    found = _matching([(rng, criterion)], None)
    return found if isinstance(found, XlErr) else float(len(found[0]) + found[1])


@_register("COUNTIFS")
@_criteria_lifted(1, 2)
def _countifs(here: Any, *args: Any) -> Any:
    if len(args) % 2:
        return XlErr(VALUE, "COUNTIFS takes ranges and criteria in pairs")
    found = _matching(list(zip(args[::2], args[1::2])), None)
    return found if isinstance(found, XlErr) else float(len(found[0]) + found[1])


def _with_target(name: str, fold: Callable[[list[float]], Any]) -> None:
    @_register(name)
    @_criteria_lifted(1, 99)
    def single(here: Any, rng: Any, criterion: Any, target: Any = MISSING) -> Any:
        found = _matching([(rng, criterion)], rng if target is MISSING else target)
        return found if isinstance(found, XlErr) else over(_numbers_only(found[0]), fold)

    @_register(name + "S")
    @_criteria_lifted(2, 2)
    def several(here: Any, target: Any, *args: Any) -> Any:
        if len(args) % 2 or not args:
            return XlErr(VALUE, f"{name}S takes ranges and criteria in pairs")
        pairs = list(zip(args[::2], args[1::2]))
        if isinstance(target, (Rng, Arr)) and target.shape != (
                pairs[0][0].shape if isinstance(pairs[0][0], (Rng, Arr)) else (1, 1)):
            return XlErr(VALUE, f"{name}S: the ranges differ in size")
        found = _matching(pairs, target)
        return found if isinstance(found, XlErr) else over(_numbers_only(found[0]), fold)


_with_target("SUMIF", lambda xs: float(math.fsum(xs)))
_with_target("AVERAGEIF", mean)
_with_target("MAXIF", lambda xs: max(xs) if xs else 0.0)
_with_target("MINIF", lambda xs: min(xs) if xs else 0.0)
del FUNCTIONS["MAXIF"], FUNCTIONS["MINIF"]  # only the IFS forms exist in Excel
