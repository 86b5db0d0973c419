"""Excel's logical functions: IF, IFS, IFERROR, IFNA, SWITCH (which evaluate only the
arguments they need), NOT, TRUE and FALSE; AND, OR and XOR read ranges as the aggregates
do and live with them (:mod:`.math_aggregate`).

>>> ELEMENTWISE["NOT"](0.0), ELEMENTWISE["TRUE"]()
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..values import MISSING, Arr, Rng, XlErr, lift, scalar, shown, to_bool
from .base import NA, VALUE, is_number

__all__ = ["ELEMENTWISE", "LAZY", "lazy_guarded"]


def _not(value: Any) -> Any:
    flag = to_bool(value)
    return flag if isinstance(flag, XlErr) else not flag


ELEMENTWISE: dict[str, Callable[..., Any]] = {
    "NOT": _not, "TRUE": lambda: True, "FALSE": lambda: False,
}


def _if(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    if not 1 <= len(args) <= 3:
        return XlErr(VALUE, "IF takes 1 to 3 arguments")
    condition = args[0](h)
    if array and isinstance(condition, (Rng, Arr)):
        then = args[1](h) if len(args) > 1 else True
        other = args[2](h) if len(args) > 2 else False
        return lift(lambda c, a, b: _pick(c, a, b), condition, then, other)
    chosen = _choose_branch(to_bool(scalar(condition, h)), len(args))
    if isinstance(chosen, XlErr):
        return chosen
    if chosen is None:
        return False
    value = args[chosen](h)
    return 0.0 if value is MISSING else value


def _choose_branch(flag: Any, count: int) -> Any:
    if isinstance(flag, XlErr):
        return flag
    if flag:
        return 1 if count > 1 else None
    return 2 if count > 2 else None


def _pick(condition: Any, then: Any, other: Any) -> Any:
    flag = to_bool(condition)
    if isinstance(flag, XlErr):
        return flag
    value = then if flag else other
    return 0.0 if value is MISSING else value


def _if_error(codes: frozenset[str] | None) -> Callable[[Any, bool, list[Callable[[Any], Any]]], Any]:
    """IFERROR (``codes`` None: any error) and IFNA. Their value is a value parameter: a
    range is read cell by cell in an array context and at the formula's row or column
    otherwise; over an array, element by element, with the fallback spread over it as an
    operator spreads its operands (``IFERROR({1;0}/{0;0},{7,8})`` is ``{7,8;7,8}``). A
    cell holding an error that carries a message is written as that text, so it is kept,
    as classic Excel keeps the text when it reads the cell back (:func:`.values.shown`);
    an error computed in the formula is caught."""
    def caught(v: Any) -> bool:
        return isinstance(v, XlErr) and (codes is None or v.code in codes)

    def read_cell(v: Any) -> bool:  # a value read from a cell, as the workbook shows it
        return caught(shown(v))

    def run(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
        value, test = args[0](h), caught
        if isinstance(value, Rng):
            test = read_cell
            if array and (value.shape != (1, 1) or len(value.areas()) > 1):
                value = Arr(value.rows())
            else:
                value = scalar(value, h)
        if type(value) is Arr:
            if not any(test(v) for row in value.rows() for v in row):
                return value
            fallback = args[1](h) if len(args) > 1 else 0.0
            return lift(lambda v, f: (0.0 if f is MISSING else f) if test(v) else v, value,
                        fallback)
        if test(value):
            fallback = args[1](h) if len(args) > 1 else 0.0
            return 0.0 if fallback is MISSING else fallback
        return value
    return run


def _ifs(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    if len(args) % 2:
        return XlErr(VALUE, "IFS takes conditions and values in pairs")
    for i in range(0, len(args), 2):
        flag = to_bool(scalar(args[i](h), h))
        if isinstance(flag, XlErr):
            return flag
        if flag:
            return args[i + 1](h)
    return XlErr(NA, "IFS: no condition is true")


def _switch(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
    from ..values import compare
    if len(args) < 3:
        return XlErr(VALUE, "SWITCH takes a value and at least one case")
    value = scalar(args[0](h), h)
    if isinstance(value, XlErr):
        return value
    equal = compare("=")
    pairs = len(args) - 1
    for i in range(1, pairs - pairs % 2 + 1, 2):
        case = scalar(args[i](h), h)
        if isinstance(case, XlErr):
            return case
        if type(case) is type(value) or (is_number(case) and is_number(value)):
            if equal(value, case) is True:
                return args[i + 1](h)
    return args[-1](h) if pairs % 2 else XlErr(NA, "SWITCH: no case matches")


def lazy_guarded(name: str, fn: Callable[[Any, bool, list[Callable[[Any], Any]]], Any]
                  ) -> Callable[[Any, bool, list[Callable[[Any], Any]]], Any]:
    def guarded(h: Any, array: bool, args: list[Callable[[Any], Any]]) -> Any:
        try:
            return fn(h, array, args)
        except RecursionError:
            raise
        except Exception as exc:  # a failure costs this cell, never the recalculation
            return XlErr(VALUE, f"{name}: {type(exc).__name__}: {exc}")
    return guarded


LAZY: dict[str, Callable[[Any, bool, list[Callable[[Any], Any]]], Any]] = {
    name: lazy_guarded(name, fn) for name, fn in {
        "IF": _if, "IFERROR": _if_error(None), "IFNA": _if_error(frozenset({NA})),
        "IFS": _ifs, "SWITCH": _switch}.items()
}
