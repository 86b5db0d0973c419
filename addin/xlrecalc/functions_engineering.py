"""Excel's base conversions (DEC2BIN, HEX2DEC … with ``places``) and bit functions.

A negative number is written as ten digits of two's complement, and ten digits whose
first is high read back as negative; ``places`` pads with zeros and is ignored for
negative numbers. Examples from Microsoft's pages (support.microsoft.com, *DEC2BIN
function*, *DEC2HEX function*, *HEX2BIN function*):

>>> E = ELEMENTWISE
>>> E["DEC2BIN"](9.0, 4.0), E["DEC2BIN"](-100.0), E["DEC2HEX"](100.0, 4.0), E["DEC2HEX"](-54.0)
('1001', '1110011100', '0064', 'FFFFFFFFCA')
>>> E["HEX2BIN"]("F", 8.0), E["HEX2BIN"]("FFFFFFFE00"), E["BIN2DEC"]("1111111111"), E["DEC2BIN"](9.0, 2.0)
('00001111', '1000000000', -1.0, XlErr('#NUM!'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .functions_base import NUM, VALUE, elementwise, first_error, number, numbers, text
from .values import MISSING, XlErr

__all__ = ["ELEMENTWISE"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
_BASES = {"BIN": 2, "OCT": 8, "DEC": 10, "HEX": 16}
_DIGITS = "0123456789ABCDEF"


def _limit(base: int) -> int:
    """Half the ten-digit range: numbers from -limit to limit - 1 can be written."""
    return base ** 10 // 2


def _parse(value: Any, base: int) -> int | XlErr:
    """A BIN/OCT/HEX argument: text (or a number read as its digits) of up to ten digits."""
    if isinstance(value, bool):
        return XlErr(VALUE)
    digits = text(value)
    if isinstance(digits, XlErr):
        return digits
    digits = digits.strip().upper()
    if len(digits) > 10:
        return XlErr(NUM)
    if not digits:
        return 0
    if any(ch not in _DIGITS[:base] for ch in digits):
        return XlErr(NUM)
    found = int(digits, base)
    if len(digits) == 10 and found >= _limit(base):
        found -= base ** 10
    return found


def _places(places: Any) -> int | None | XlErr:
    """The ``places`` argument: 1 to 10 (truncated), checked before the number itself."""
    if places is MISSING or places is None:
        return None
    if isinstance(places, bool):
        return XlErr(VALUE)
    width = number(places)
    if isinstance(width, XlErr):
        return width
    return int(width) if 1 <= int(width) <= 10 else XlErr(NUM)


def _write(number_: int, base: int, places: int | None) -> str | XlErr:
    limit = _limit(base)
    if not -limit <= number_ < limit:
        return XlErr(NUM)
    negative = number_ < 0
    if negative:
        number_ += base ** 10
    out = ""
    while number_:
        number_, digit = divmod(number_, base)
        out = _DIGITS[digit] + out
    out = out or "0"
    if places is None or negative:
        return out
    return XlErr(NUM) if places < len(out) else out.rjust(places, "0")


def _converter(source: str, target: str) -> Callable[..., Any]:
    base_in, base_out = _BASES[source], _BASES[target]

    def convert(value: Any, places: Any = MISSING) -> Any:
        if isinstance(value, XlErr):
            return value
        width = _places(places)
        if isinstance(width, XlErr):
            return width
        if source == "DEC":
            if isinstance(value, bool):
                return XlErr(VALUE)
            found = number(value)
            if isinstance(found, XlErr):
                return found
            whole: int | XlErr = int(found)
        else:
            whole = _parse(value, base_in)
        if isinstance(whole, XlErr):
            return whole
        if target == "DEC":
            return float(whole)
        return _write(whole, base_out, width)
    return convert


for _source in _BASES:
    for _target in _BASES:
        if _source != _target:
            ELEMENTWISE[f"{_source}2{_target}"] = _converter(_source, _target)


def _bits(fn: Callable[[int, int], int]) -> Callable[[Any, Any], Any]:
    def bitwise(a: Any, b: Any) -> Any:
        found = numbers(a, b)
        if isinstance(found, XlErr):
            return found
        x, y = found
        if any(v < 0 or v != int(v) or v >= 2 ** 48 for v in (x, y)):
            return XlErr(NUM)
        return float(fn(int(x), int(y)))
    return bitwise


elementwise(ELEMENTWISE, "BITAND")(_bits(lambda a, b: a & b))
elementwise(ELEMENTWISE, "BITOR")(_bits(lambda a, b: a | b))
elementwise(ELEMENTWISE, "BITXOR")(_bits(lambda a, b: a ^ b))


def _shift(left: bool) -> Callable[[Any, Any], Any]:
    def shift(a: Any, n: Any) -> Any:
        found = numbers(a, n)
        if isinstance(found, XlErr):
            return found
        x, k = found
        if x < 0 or x != int(x) or x >= 2 ** 48 or abs(k) > 53:
            return XlErr(NUM)
        steps = int(k) if left else -int(k)
        result = int(x) << steps if steps >= 0 else int(x) >> -steps
        return XlErr(NUM) if result >= 2 ** 48 else float(result)
    return shift


ELEMENTWISE["BITLSHIFT"] = _shift(True)
ELEMENTWISE["BITRSHIFT"] = _shift(False)


@elementwise(ELEMENTWISE, "DELTA")
def _delta(a: Any, b: Any = MISSING) -> Any:
    x, y = number(a), 0.0 if b is MISSING else number(b)
    error = first_error(x, y)
    return error if error is not None else float(x == y)


@elementwise(ELEMENTWISE, "GESTEP")
def _gestep(a: Any, step: Any = MISSING) -> Any:
    x, y = number(a), 0.0 if step is MISSING else number(step)
    error = first_error(x, y)
    return error if error is not None else float(x >= y)  # type: ignore[operator]
