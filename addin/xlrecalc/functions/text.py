"""Excel's text functions. ``CHAR`` and ``CODE`` use the Windows code page (1252), as
Excel for Windows does; ``TEXT`` applies a number format (:mod:`.text_format`).

>>> E = ELEMENTWISE
>>> E["PROPER"]("this is a TITLE"), E["TRIM"]("  a   b "), E["SUBSTITUTE"]("a-b-c", "-", "+", 2.0)
('This Is A Title', 'a b', 'a-b+c')
>>> E["SEARCH"]("b?d", "abcd"), E["FIND"]("M", "Miriam McGovern", 3.0), E["CHAR"](128.0)
(2.0, 8.0, '€')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from .criteria import wildcard
from .base import (VALUE, elementwise, first_error, integer, is_number,
                             logical, number, text, values_of)
from .text_format import format_value
from .math_trig import round_digits
from ..values import MISSING, XlErr, to_text

__all__ = ["ELEMENTWISE", "FUNCTIONS"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
FUNCTIONS: dict[str, Callable[..., Any]] = {}
_MAX_TEXT = 32767


def _texts(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Arguments read by their annotation: ``str`` as text, ``int`` as a whole number
    (truncated), ``float`` as a number, anything else as given; errors pass through."""
    kinds = [fn.__annotations__.get(p) for p in fn.__code__.co_varnames[:fn.__code__.co_argcount]]
    # a text alone (TRIM(A1)), or a text and a finite number (LEFT(A1,6)), is converted as
    # below without a loop: a text is its own, a number or a blank read as text() reads
    # them (to_text), the number truncated
    text_first = bool(kinds) and kinds[0] == "str"
    text_and_whole = text_first and len(kinds) >= 2 and kinds[1] == "int"

    def wrapper(*args: Any) -> Any:
        count = len(args)
        if not text_first or not 1 <= count <= 2:
            return general(args)
        first = args[0]
        kind = type(first)
        if kind is not str:
            if kind is not float and first is not None:
                return general(args)
            first = to_text(first)
        if count == 1:
            result = fn(first)
        elif text_and_whole and type(args[1]) is float and math.isfinite(args[1]):
            result = fn(first, int(args[1]))
        else:
            return general(args)
        if isinstance(result, str) and len(result) > _MAX_TEXT:
            return XlErr(VALUE, "text longer than 32,767 characters")
        return result

    def general(args: tuple[Any, ...]) -> Any:
        values = list(args)
        while values and values[-1] is MISSING:
            values.pop()
        converted = []
        for value, kind in zip(values, kinds):
            if kind == "str":
                if type(value) is not str:  # a text is its own text argument
                    value = text(value)
            elif kind == "int":
                if type(value) is float and math.isfinite(value):
                    value = int(value)  # what integer() gives a finite number
                else:
                    value = integer(value)
            elif kind == "float":
                value = number(value)
            if isinstance(value, XlErr):
                return value
            converted.append(value)
        result = fn(*converted)
        if isinstance(result, str) and len(result) > _MAX_TEXT:
            return XlErr(VALUE, "text longer than 32,767 characters")
        return result
    wrapper.__name__ = fn.__name__
    return wrapper


def _register(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return lambda fn: elementwise(ELEMENTWISE, *names)(_texts(fn))


@_register("LEFT")
def _left(s: str, n: int = 1) -> Any:
    return XlErr(VALUE) if n < 0 else s[:n]


@_register("RIGHT")
def _right(s: str, n: int = 1) -> Any:
    return XlErr(VALUE) if n < 0 else (s[-n:] if n else "")


@_register("MID")
def _mid(s: str, start: int, n: int) -> Any:
    if start < 1 or n < 0:
        return XlErr(VALUE)
    return s[start - 1:start - 1 + n]


@_register("LEN")
def _len(s: str) -> float:
    return float(len(s))


@_register("LOWER")
def _lower(s: str) -> str:
    return s.lower()


@_register("UPPER")
def _upper(s: str) -> str:
    return s.upper()


@_register("PROPER")
def _proper(s: str) -> str:
    return re.sub(r"[^\W\d_]+", lambda m: m.group(0)[0].upper() + m.group(0)[1:].lower(), s)


@_register("TRIM")
def _trim(s: str) -> str:
    s = s.strip(" ")
    # no two spaces together: each run of spaces is one space already
    return _SPACES.sub(" ", s) if "  " in s else s


_SPACES = re.compile(" +")


@_register("CLEAN")
def _clean(s: str) -> str:
    return "".join(ch for ch in s if ord(ch) >= 32)


@_register("FIND")
def _find(needle: str, haystack: str, start: int = 1) -> Any:
    if start < 1 or start > len(haystack) + 1:
        return XlErr(VALUE)
    found = haystack.find(needle, start - 1)
    return XlErr(VALUE, f"{needle!r} not found") if found < 0 else float(found + 1)


@_register("SEARCH")
def _search(needle: str, haystack: str, start: int = 1) -> Any:
    if start < 1 or start > len(haystack) + 1:
        return XlErr(VALUE)
    if not needle:
        return float(start)
    pattern = wildcard(needle)
    for i in range(start - 1, len(haystack)):
        if pattern.match(haystack, i):
            return float(i + 1)
    return XlErr(VALUE, f"{needle!r} not found")


@_register("SUBSTITUTE")
def _substitute(s: str, old: str, new: str, instance: int | None = None) -> Any:
    if not old:
        return s
    if instance is None or instance is MISSING:
        return s.replace(old, new)
    which = integer(instance)
    if isinstance(which, XlErr):
        return which
    if which < 1:
        return XlErr(VALUE)
    position = -1
    for _ in range(which):
        position = s.find(old, position + 1)
        if position < 0:
            return s
    return s[:position] + new + s[position + len(old):]


@_register("REPLACE")
def _replace(s: str, start: int, n: int, new: str) -> Any:
    if start < 1 or n < 0:
        return XlErr(VALUE)
    return s[:start - 1] + new + s[start - 1 + n:]


@_register("REPT")
def _rept(s: str, n: int) -> Any:
    if n < 0 or len(s) * n > _MAX_TEXT:
        return XlErr(VALUE)
    return s * n


@_register("EXACT")
def _exact(a: str, b: str) -> bool:
    return a == b


def _from_1252(code: int) -> str:
    try:
        return bytes([code]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(code)


@_register("CHAR")
def _char(n: int) -> Any:
    return _from_1252(n) if 1 <= n <= 255 else XlErr(VALUE)


@_register("CODE")
def _code(s: str) -> Any:
    if not s:
        return XlErr(VALUE)
    try:
        return float(s[0].encode("cp1252")[0])
    except UnicodeEncodeError:
        return 63.0  # Excel shows a character outside the code page as "?"


@_register("UNICHAR")
def _unichar(n: int) -> Any:
    return chr(n) if 1 <= n <= 0x10FFFF else XlErr(VALUE)


@_register("UNICODE")
def _unicode(s: str) -> Any:
    return float(ord(s[0])) if s else XlErr(VALUE)


@elementwise(ELEMENTWISE, "CONCATENATE")
def _concatenate(*args: Any) -> Any:
    parts = [text(a) for a in args]
    error = first_error(*parts)
    if error is not None:
        return error
    joined = "".join(parts)  # type: ignore[arg-type]
    return XlErr(VALUE) if len(joined) > _MAX_TEXT else joined


@elementwise(ELEMENTWISE, "VALUE")
def _value(s: Any) -> Any:
    if isinstance(s, bool):
        return XlErr(VALUE)
    if isinstance(s, str) and not s.strip():
        return XlErr(VALUE)
    return number(s)


@elementwise(ELEMENTWISE, "NUMBERVALUE")
def _numbervalue(s: Any, decimal_sep: Any = MISSING, group_sep: Any = MISSING) -> Any:
    s, dec = text(s), "." if decimal_sep is MISSING else text(decimal_sep)
    group = "," if group_sep is MISSING else text(group_sep)
    error = first_error(s, dec, group)
    if error is not None:
        return error
    cleaned = "".join(str(s).split()).replace(str(group)[:1] or "\0", "")
    cleaned = cleaned.replace(str(dec)[:1] or ".", ".")
    if not cleaned:
        return 0.0
    found = number(cleaned)
    return found


@elementwise(ELEMENTWISE, "T")
def _t(value: Any) -> Any:
    return value if isinstance(value, (str, XlErr)) else ""


@elementwise(ELEMENTWISE, "N")
def _n(value: Any) -> Any:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if is_number(value):
        return float(value)
    return value if isinstance(value, XlErr) else 0.0


@elementwise(ELEMENTWISE, "TEXT")
def _text(value: Any, fmt: Any) -> Any:
    fmt = text(fmt)
    if isinstance(fmt, XlErr):
        return fmt
    if isinstance(value, XlErr):
        return value
    if isinstance(value, str):
        found = number(value) if value.strip() else None
        value = value if found is None or isinstance(found, XlErr) else found
    elif isinstance(value, bool) or value is None or value is MISSING:
        value = text(value) if isinstance(value, bool) else 0.0
    return format_value(value, fmt)


def _fixed_text(value: float, decimals: int, commas: bool) -> str:
    rounded = round_digits(value, decimals)
    shown = f"{abs(rounded):,.{max(decimals, 0)}f}" if commas else f"{abs(rounded):.{max(decimals, 0)}f}"
    return ("-" if rounded < 0 else "") + shown


@elementwise(ELEMENTWISE, "FIXED")
def _fixed(value: Any, decimals: Any = MISSING, no_commas: Any = MISSING) -> Any:
    x = number(value)
    d = 2 if decimals is MISSING else integer(decimals)
    plain = False if no_commas is MISSING else logical(no_commas)
    for found in (x, d, plain):
        if isinstance(found, XlErr):
            return found
    assert isinstance(x, float) and isinstance(d, int)
    if d > 127:
        return XlErr(VALUE)
    return _fixed_text(x, d, not plain)


@elementwise(ELEMENTWISE, "DOLLAR")
def _dollar(value: Any, decimals: Any = MISSING) -> Any:
    x = number(value)
    d = 2 if decimals is MISSING else integer(decimals)
    error = first_error(x, d)
    if error is not None:
        return error
    shown = _fixed_text(abs(x), d, True)  # type: ignore[arg-type]
    return f"(${shown})" if round_digits(x, d) < 0 else f"${shown}"  # type: ignore[arg-type]


def _concat(here: Any, *args: Any) -> Any:
    parts = []
    for value, _ in values_of(args):
        piece = text(value)
        if isinstance(piece, XlErr):
            return piece
        parts.append(piece)
    joined = "".join(parts)
    return XlErr(VALUE) if len(joined) > _MAX_TEXT else joined


def _textjoin(here: Any, delimiter: Any, ignore_empty: Any, *args: Any) -> Any:
    from ..values import grid
    delimiters = [text(v) for row in grid(delimiter) for v in row] if delimiter is not MISSING else [""]
    skip = logical(ignore_empty) if ignore_empty is not MISSING else True
    error = first_error(skip, *delimiters)
    if error is not None:
        return error
    parts = []
    for value, _ in values_of(args):
        piece = text(value)
        if isinstance(piece, XlErr):
            return piece
        if piece or not skip:
            parts.append(piece)
    out = ""
    for i, piece in enumerate(parts):
        out += (delimiters[(i - 1) % len(delimiters)] if i else "") + piece  # type: ignore[operator]
    return XlErr(VALUE) if len(out) > _MAX_TEXT else out


FUNCTIONS["CONCAT"] = _concat
FUNCTIONS["TEXTJOIN"] = _textjoin


def _text_around(after: bool) -> Callable[..., Any]:
    """TEXTBEFORE and TEXTAFTER: the text before (after) the n-th delimiter."""
    def around(s: Any, delimiter: Any, instance: Any = MISSING, match_mode: Any = MISSING,
               match_end: Any = MISSING, if_not_found: Any = MISSING) -> Any:
        source, mark = text(s), text(delimiter)
        n = 1 if instance is MISSING else integer(instance)
        ignore_case = False if match_mode is MISSING else logical(match_mode)
        error = first_error(source, mark, n, ignore_case)
        if error is not None:
            return error
        assert isinstance(source, str) and isinstance(mark, str) and isinstance(n, int)
        if n == 0 or len(source) < abs(n) and mark:
            return XlErr(VALUE)
        hay, needle = (source.lower(), mark.lower()) if ignore_case else (source, mark)
        positions = [i for i in range(len(hay) + 1) if hay.startswith(needle, i)] if needle \
            else list(range(len(hay) + 1))
        if n < 0:
            positions = positions[::-1]
        if abs(n) > len(positions):
            return XlErr("#N/A") if if_not_found is MISSING else if_not_found
        at = positions[abs(n) - 1]
        if needle == "" and n < 0:
            at = len(hay) - (abs(n) - 1)
        return source[at + len(mark):] if after else source[:at]
    return around


ELEMENTWISE["TEXTBEFORE"] = _text_around(False)
ELEMENTWISE["TEXTAFTER"] = _text_around(True)
for _single, _double in (("LEFT", "LEFTB"), ("RIGHT", "RIGHTB"), ("MID", "MIDB"), ("LEN", "LENB"),
                         ("FIND", "FINDB"), ("SEARCH", "SEARCHB"), ("REPLACE", "REPLACEB")):
    ELEMENTWISE[_double] = ELEMENTWISE[_single]  # the same in a single-byte language

_ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


@_register("ROMAN")
def _roman(n: int, form: int = 0) -> Any:
    if not 0 <= n <= 3999 or form != 0:
        return XlErr(VALUE, "ROMAN: only the classic form (0) is written") if form in (1, 2, 3, 4) \
            else XlErr(VALUE)
    out = ""
    for amount, letters in _ROMAN:
        while n >= amount:
            out, n = out + letters, n - amount
    return out


@_register("ARABIC")
def _arabic(s: str) -> Any:
    letters = s.strip().upper()
    negative = letters.startswith("-")
    letters = letters.lstrip("-")
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    if len(letters) > 255 or any(ch not in values for ch in letters):
        return XlErr(VALUE)
    total = 0
    for i, ch in enumerate(letters):
        value = values[ch]
        total += -value if i + 1 < len(letters) and values[letters[i + 1]] > value else value
    return float(-total if negative else total)
