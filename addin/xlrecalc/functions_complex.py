"""Excel's complex-number functions (COMPLEX, IMSUM, IMSIN …) on complex numbers as text.

Excel keeps a complex number as text: ``"3+4i"``, ``"-2.5j"``, ``"i"``, ``"-i"``, ``"7"``.
A malformed text (a space, a capital ``I``, two signs) is ``#NUM!``; a logical is
``#VALUE!``; a blank is 0. Mixing ``i`` and ``j`` is ``#VALUE!`` in IMSUM and IMPRODUCT
and ``#NUM!`` in IMSUB and IMDIV; the result keeps the suffix of its arguments. Each part
of a result is written with 15 significant digits, as Excel writes it. Like Excel's other
engineering functions, those of one complex number refuse a range of several cells
(``#VALUE!``, even in an array formula) but take an array: see :func:`one_value_each`.
Examples from Microsoft's pages (support.microsoft.com, *COMPLEX function*, *IMSIN
function*, *IMPOWER function*, *IMCONJUGATE function*):

>>> E = SCALAR
>>> E["COMPLEX"](3.0, 4.0), E["COMPLEX"](3.0, 4.0, "j"), E["COMPLEX"](0.0, 1.0), E["COMPLEX"](1.0, 0.0)
('3+4i', '3+4j', 'i', '1')
>>> E["IMSIN"]("4+3i"), E["IMPOWER"]("2+3i", 3.0)
('-7.61923172032141-6.548120040911i', '-46+9.00000000000001i')
>>> E["IMCONJUGATE"]("3+4i"), E["IMABS"]("5+12i"), E["IMREAL"]("3 + 4i"), E["IMSUB"]("1+i", "1+j")
('3-4i', 13.0, XlErr('#NUM!'), XlErr('#NUM!'))
"""

from __future__ import annotations

import cmath
import decimal
import math
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from .functions_base import DIV0, NUM, VALUE, elementwise, number, text
from .values import MISSING, Arr, Rng, XlErr, grid, lift

__all__ = ["SCALAR", "FUNCTIONS", "ComplexNumber", "parse_complex", "complex_text",
           "one_value_each"]

SCALAR: dict[str, Callable[..., Any]] = {}  # the functions of one complex number, of scalars
FUNCTIONS: dict[str, Callable[..., Any]] = {}

_NUMBER = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # ASCII digits only
# a real part, then an imaginary part (sign, optional coefficient) with its suffix; or
# an imaginary part alone (an optional sign and coefficient) with its suffix
_FULL = re.compile(rf"([+-]?{_NUMBER})([+-])({_NUMBER})?([ij])")
_IMAGINARY = re.compile(rf"([+-]?)({_NUMBER})?([ij])")
_REAL = re.compile(rf"[+-]?{_NUMBER}")


class ComplexNumber:
    """A parsed argument: its value and its suffix (``""`` for a plain real number)."""

    __slots__ = ("value", "suffix")

    def __init__(self, value: complex, suffix: str):
        self.value, self.suffix = value, suffix


def parse_complex(argument: Any) -> ComplexNumber | XlErr:
    """An argument as Excel reads a complex number: a number is its real part; text must
    be ``x``, ``yi``, ``x+yi`` (or ``j``), with no spaces."""
    if isinstance(argument, XlErr):
        return argument
    if isinstance(argument, bool):
        return XlErr(VALUE, "a logical value is not a complex number")
    if isinstance(argument, (int, float)):
        return ComplexNumber(complex(float(argument), 0.0), "")
    written = text(argument)
    if isinstance(written, XlErr):
        return written
    if written == "":
        return ComplexNumber(0j, "")
    if _REAL.fullmatch(written):
        return ComplexNumber(complex(float(written), 0.0), "")
    found = _FULL.fullmatch(written)
    if found:
        real, sign, coefficient, suffix = found.groups()
        imaginary = float(coefficient) if coefficient else 1.0
        return ComplexNumber(complex(float(real), -imaginary if sign == "-" else imaginary), suffix)
    found = _IMAGINARY.fullmatch(written)
    if found:
        sign, coefficient, suffix = found.groups()
        imaginary = float(coefficient) if coefficient else 1.0
        return ComplexNumber(complex(0.0, -imaginary if sign == "-" else imaginary), suffix)
    return XlErr(NUM, f"{written!r} is not a complex number")


def _part(x: float) -> str:
    """One part of a complex result with 15 significant digits (the binary value rounded
    once); plain decimals from 1E-5 up to 1E15, ``1.5E-08`` style outside (the forms
    Excel's results show)."""
    if x == 0:
        return "0"
    rounded = decimal.Decimal(f"{x:.14e}")
    power = rounded.adjusted()
    if -5 <= power < 15:
        written = f"{rounded:f}"
        return written.rstrip("0").rstrip(".") if "." in written else written
    mantissa = f"{rounded.scaleb(-power):f}"
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa}E{'-' if power < 0 else '+'}{abs(power):02d}"


def complex_text(value: complex, suffix: str = "i") -> str | XlErr:
    """A complex number as Excel writes it: ``3+4i``, ``-i``, ``2.5``, ``0``."""
    real, imaginary = value.real, value.imag
    if not (math.isfinite(real) and math.isfinite(imaginary)):
        return XlErr(NUM)
    real_text, imaginary_text = _part(real), _part(imaginary)
    if imaginary_text == "0":
        return real_text
    if imaginary_text in ("1", "-1"):
        imaginary_text = imaginary_text[:-1]
    if real_text == "0":
        return f"{imaginary_text}{suffix}"
    sign = "" if imaginary_text.startswith("-") else "+"
    return f"{real_text}{sign}{imaginary_text}{suffix}"


def _suffix(*parsed: ComplexNumber, code: str = VALUE) -> str | XlErr:
    """The suffix the arguments agree on (``i`` when none has one); ``code`` when they
    mix ``i`` and ``j``."""
    suffixes = {p.suffix for p in parsed if p.suffix}
    if len(suffixes) > 1:
        return XlErr(code, "complex numbers mix the suffixes i and j")
    return suffixes.pop() if suffixes else "i"


_register = partial(elementwise, SCALAR)


def one_value_each(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` of scalars as Excel's engineering functions take their arguments: a range of
    one cell is its value, a range of several is ``#VALUE!`` (no implicit intersection,
    and none even in an array formula), an array is taken element by element. The
    result is called as the library's other functions of ranges, ``(here, *arguments)``."""
    def run(here: Any, *arguments: Any) -> Any:
        values = []
        for argument in arguments:  # in order: an error before the range comes first
            if isinstance(argument, Rng):
                if argument.shape != (1, 1):
                    return XlErr(VALUE, "a range of several cells where one value is wanted")
                argument = grid(argument)[0][0]
            if isinstance(argument, XlErr):
                return argument
            values.append(argument)
        if any(isinstance(v, Arr) for v in values):
            return lift(fn, *values)
        return fn(*values)
    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


def _of_one(fn: Callable[[complex], complex]) -> Callable[[Any], Any]:
    """An Excel function of one complex number returning a complex number."""
    def run(argument: Any) -> Any:
        parsed = parse_complex(argument)
        if isinstance(parsed, XlErr):
            return parsed
        return complex_text(fn(parsed.value), parsed.suffix or "i")
    return run


def _of_one_real(fn: Callable[[complex], float]) -> Callable[[Any], Any]:
    """An Excel function of one complex number returning a number."""
    def run(argument: Any) -> Any:
        parsed = parse_complex(argument)
        return parsed if isinstance(parsed, XlErr) else float(fn(parsed.value))
    return run


def _of_two(fn: Callable[[complex, complex], complex]) -> Callable[[Any, Any], Any]:
    def run(first: Any, second: Any) -> Any:
        a, b = parse_complex(first), parse_complex(second)
        if isinstance(a, XlErr):
            return a
        if isinstance(b, XlErr):
            return b
        suffix = _suffix(a, b, code=NUM)
        if isinstance(suffix, XlErr):
            return suffix
        return complex_text(fn(a.value, b.value), suffix)
    return run


@_register("COMPLEX")
def _complex(real: Any, imaginary: Any, suffix: Any = MISSING) -> Any:
    if isinstance(real, bool) or isinstance(imaginary, bool):
        return XlErr(VALUE)
    x, y = number(real), number(imaginary)
    if isinstance(x, XlErr):
        return x
    if isinstance(y, XlErr):
        return y
    letter = "i" if suffix is MISSING or suffix is None else text(suffix)
    if isinstance(letter, XlErr):
        return letter
    if letter not in ("i", "j", ""):
        return XlErr(VALUE, f"COMPLEX: the suffix must be \"i\" or \"j\", not {letter!r}")
    return complex_text(complex(x, y), letter or "i")


def _divide(a: complex, b: complex) -> complex:
    if b == 0:
        raise ZeroDivisionError("division by the complex number 0")
    denominator = b.real * b.real + b.imag * b.imag
    return complex((a.real * b.real + a.imag * b.imag) / denominator,
                   (a.imag * b.real - a.real * b.imag) / denominator)


def _power(z: complex, n: float) -> complex:
    """Excel's IMPOWER: in polar form, r**n (cos nθ + i sin nθ); hence 9.00000000000001
    where exact arithmetic gives 9."""
    if z == 0:
        if n <= 0:
            raise ValueError("0 to a power that is not positive")
        return 0j
    r, theta = abs(z), math.atan2(z.imag, z.real)
    magnitude = r ** n
    return complex(magnitude * math.cos(n * theta), magnitude * math.sin(n * theta))


def _sqrt(z: complex) -> complex:
    r, theta = abs(z), math.atan2(z.imag, z.real)
    root = math.sqrt(r)
    return complex(root * math.cos(theta / 2), root * math.sin(theta / 2))


def _ln(z: complex) -> complex:
    if z == 0:
        raise ValueError("the logarithm of 0")
    return complex(math.log(abs(z)), math.atan2(z.imag, z.real))


def _argument(z: complex) -> Any:
    if z == 0:
        return XlErr(DIV0, "IMARGUMENT of 0")
    return math.atan2(z.imag, z.real)


SCALAR["IMABS"] = _of_one_real(abs)
SCALAR["IMREAL"] = _of_one_real(lambda z: z.real)
SCALAR["IMAGINARY"] = _of_one_real(lambda z: z.imag)
SCALAR["IMCONJUGATE"] = _of_one(lambda z: z.conjugate())
SCALAR["IMSQRT"] = _of_one(_sqrt)
SCALAR["IMLN"] = _of_one(_ln)
SCALAR["IMLOG10"] = _of_one(lambda z: _ln(z) / math.log(10))
SCALAR["IMLOG2"] = _of_one(lambda z: _ln(z) / math.log(2))
SCALAR["IMEXP"] = _of_one(lambda z: cmath.exp(z))
SCALAR["IMSIN"] = _of_one(lambda z: cmath.sin(z))
SCALAR["IMCOS"] = _of_one(lambda z: cmath.cos(z))
SCALAR["IMSINH"] = _of_one(lambda z: cmath.sinh(z))
SCALAR["IMCOSH"] = _of_one(lambda z: cmath.cosh(z))


# The quotients follow the double-angle forms, whose last digit is Excel's:
# tan(a+bi) = (sin 2a + i sinh 2b) / (cos 2a + cosh 2b) and so on.
def _over(numerator: complex, denominator: float) -> complex:
    if denominator == 0:
        raise ZeroDivisionError("the function has a pole there")
    return numerator / denominator


def _tan(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(math.sin(2 * a), math.sinh(2 * b)), math.cos(2 * a) + math.cosh(2 * b))


def _cot(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(math.sin(2 * a), -math.sinh(2 * b)), math.cosh(2 * b) - math.cos(2 * a))


def _sec(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(2 * math.cos(a) * math.cosh(b), 2 * math.sin(a) * math.sinh(b)),
                 math.cos(2 * a) + math.cosh(2 * b))


def _csc(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(2 * math.sin(a) * math.cosh(b), -2 * math.cos(a) * math.sinh(b)),
                 math.cosh(2 * b) - math.cos(2 * a))


def _sech(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(2 * math.cosh(a) * math.cos(b), -2 * math.sinh(a) * math.sin(b)),
                 math.cosh(2 * a) + math.cos(2 * b))


def _csch(z: complex) -> complex:
    a, b = z.real, z.imag
    return _over(complex(2 * math.sinh(a) * math.cos(b), -2 * math.cosh(a) * math.sin(b)),
                 math.cosh(2 * a) - math.cos(2 * b))


for _name, _fn in (("IMTAN", _tan), ("IMCOT", _cot), ("IMSEC", _sec), ("IMCSC", _csc),
                   ("IMSECH", _sech), ("IMCSCH", _csch)):
    SCALAR[_name] = _of_one(_fn)
SCALAR["IMSUB"] = _of_two(lambda a, b: a - b)
SCALAR["IMDIV"] = _of_two(_divide)


@_register("IMARGUMENT")
def _imargument(argument: Any) -> Any:
    parsed = parse_complex(argument)
    return parsed if isinstance(parsed, XlErr) else _argument(parsed.value)


@_register("IMPOWER")
def _impower(argument: Any, power: Any) -> Any:
    parsed = parse_complex(argument)
    if isinstance(parsed, XlErr):
        return parsed
    if isinstance(power, bool):
        return XlErr(VALUE)
    n = number(power)
    if isinstance(n, XlErr):
        return n
    return complex_text(_power(parsed.value, n), parsed.suffix or "i")


def _all_of(arguments: tuple[Any, ...]) -> list[ComplexNumber] | XlErr:
    """Every complex number of IMSUM's or IMPRODUCT's arguments, cell by cell of a range
    (a blank is 0, as Excel's IMPRODUCT of a blank cell shows)."""
    found: list[ComplexNumber] = []
    for argument in arguments:
        if argument is MISSING:
            continue
        cells = argument.cells() if isinstance(argument, (Rng, Arr)) else [argument]
        for value in cells:
            parsed = parse_complex(value)
            if isinstance(parsed, XlErr):
                return parsed
            found.append(parsed)
    return found


def _fold(name: str, start: complex, combine: Callable[[complex, complex], complex]
          ) -> Callable[..., Any]:
    def run(here: Any, *arguments: Any) -> Any:
        if not arguments:
            return XlErr(VALUE, f"{name} needs at least one complex number")
        parsed = _all_of(arguments)
        if isinstance(parsed, XlErr):
            return parsed
        suffix = _suffix(*parsed)
        if isinstance(suffix, XlErr):
            return suffix
        total = start
        for item in parsed:
            total = combine(total, item.value)
        return complex_text(total, suffix)
    return run


FUNCTIONS["IMSUM"] = _fold("IMSUM", 0j, lambda a, b: a + b)
FUNCTIONS["IMPRODUCT"] = _fold("IMPRODUCT", 1 + 0j, lambda a, b: a * b)

# the functions of single complex numbers take their arguments as Excel's engineering
# functions do
FUNCTIONS.update({name: one_value_each(fn) for name, fn in SCALAR.items()})
