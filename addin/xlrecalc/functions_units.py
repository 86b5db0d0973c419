"""Excel's CONVERT: its unit table, the metric prefixes and the binary ones.

Units are case-sensitive, as in Excel. A unit is looked up as written, then as a prefix
followed by a unit that takes prefixes (``km``, ``kPa``, ``dal``, ``mK``, ``Gibyte``);
the binary prefixes (``ki`` … ``Yi``) go only with ``bit`` and ``byte``. A prefix on a
square or cubic unit is squared or cubed with it (``km2`` is 10⁶ m², ``Pang3`` 10¹⁵ m³).
Where a name reads two ways, the reading that measures the same thing as the other unit
is taken: ``pc`` is a parsec beside ``m`` and a picocalorie beside ``J``. An unknown
unit, a prefix on a unit that takes none, or units of two different quantities give
``#N/A``. Sizes and the units that take prefixes are Excel's, as a workbook Excel
calculated shows them for every unit of the table and every prefix; most sizes are the
exact definitions. Examples from Microsoft's page (support.microsoft.com, *CONVERT
function*):

>>> convert = _convert
>>> round(convert(1.0, "lbm", "kg"), 7), convert(68.0, "F", "C"), convert(2.5, "ft", "sec")
(0.4535924, 20.0, XlErr('#N/A'))
>>> round(convert(convert(100.0, "ft", "m"), "ft", "m"), 6), convert(1.0, "kibyte", "bit")
(9.290304, 8192.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .functions_base import NA, VALUE, number, text
from .functions_complex import one_value_each
from .values import XlErr

__all__ = ["FUNCTIONS", "UNITS", "convert"]

FUNCTIONS: dict[str, Callable[..., Any]] = {}

_IN, _FT, _YD, _MI, _NMI = 0.0254, 0.3048, 0.9144, 1609.344, 1852.0
_PICA = 0.0003527777777777778  # the pica point, 1/72 inch, as Excel rounds it
_LY = 299_792_458.0 * 365.25 * 86_400  # light-year (Julian year)
_LB, _G0 = 0.45359237, 9.80665  # pound (kg), standard gravity (m/s²)
_LBF = _LB * _G0  # pound-force (N)
_HP = 745.6998715822702  # mechanical horsepower (W), 550 ft·lbf/s

# (quantity, names, size in the quantity's base unit, takes prefixes, power of the
# prefix). Base units: gram, metre, second, pascal, newton, joule, watt, tesla,
# litre, square metre, bit, metre per second; temperatures have their own conversions.
_TABLE: list[tuple[str, str, float, bool, int]] = [
    # weight and mass (gram)
    ("mass", "g", 1.0, True, 1), ("mass", "sg", 14593.902937206363, False, 1),
    ("mass", "lbm", _LB * 1000, False, 1), ("mass", "u", 1.660538782e-24, True, 1),
    ("mass", "ozm", _LB * 1000 / 16, False, 1), ("mass", "grain", 0.06479891, False, 1),
    ("mass", "cwt shweight", _LB * 100_000, False, 1),
    ("mass", "uk_cwt lcwt hweight", 50802.34544, False, 1),
    ("mass", "stone", 6350.29318, False, 1), ("mass", "ton", _LB * 2_000_000, False, 1),
    ("mass", "uk_ton LTON brton", 1016046.9088, False, 1),
    # distance (metre)
    ("distance", "m", 1.0, True, 1), ("distance", "mi", _MI, False, 1),
    ("distance", "Nmi", _NMI, False, 1), ("distance", "in", _IN, False, 1),
    ("distance", "ft", _FT, False, 1), ("distance", "yd", _YD, False, 1),
    ("distance", "ang", 1e-10, True, 1), ("distance", "ell", 45 * _IN, False, 1),
    ("distance", "ly", _LY, True, 1), ("distance", "parsec pc", 3.26156377694566 * _LY, True, 1),
    ("distance", "Picapt Pica", _PICA, False, 1), ("distance", "pica", 0.004233333333333334, False, 1),
    ("distance", "survey_mi", 6_336_000 / 3937, False, 1),
    # time (second)
    ("time", "yr", 365.25 * 86_400, False, 1), ("time", "day d", 86_400.0, False, 1),
    ("time", "hr", 3_600.0, False, 1), ("time", "mn min", 60.0, False, 1),
    ("time", "sec s", 1.0, True, 1),
    # pressure (pascal)
    ("pressure", "Pa p", 1.0, True, 1), ("pressure", "atm at", 101_325.0, True, 1),
    ("pressure", "mmHg", 133.322, True, 1), ("pressure", "psi", 6894.757293168362, False, 1),
    ("pressure", "Torr", 101_325 / 760, False, 1),
    # force (newton)
    ("force", "N", 1.0, True, 1), ("force", "dyn dy", 1e-5, True, 1),
    ("force", "lbf", 4.4482216152605005, False, 1), ("force", "pond", _G0 / 1000, True, 1),
    # energy (joule)
    ("energy", "J", 1.0, True, 1), ("energy", "e", 1e-7, True, 1), ("energy", "c", 4.184, True, 1),
    ("energy", "cal", 4.1868, True, 1), ("energy", "eV ev", 1.602176487e-19, True, 1),
    ("energy", "HPh hh", _HP * 3600, False, 1), ("energy", "Wh wh", 3600.0, True, 1),
    ("energy", "flb", _LBF * _FT, False, 1), ("energy", "BTU btu", 1055.05585262, False, 1),
    # power (watt)
    ("power", "HP h", _HP, False, 1), ("power", "PS", _G0 * 75, False, 1),
    ("power", "W w", 1.0, True, 1),
    # magnetism (tesla)
    ("magnetism", "T", 1.0, True, 1), ("magnetism", "ga", 1e-4, True, 1),
    # volume (litre)
    ("volume", "l L lt", 1.0, True, 1), ("volume", "tsp", 4.92892159375e-3, False, 1),
    ("volume", "tspm", 5e-3, False, 1), ("volume", "tbs", 1.478676478125e-2, False, 1),
    ("volume", "oz", 2.95735295625e-2, False, 1), ("volume", "cup", 0.2365882365, False, 1),
    ("volume", "pt us_pt", 0.473176473, False, 1), ("volume", "uk_pt", 0.56826125, True, 1),
    ("volume", "qt", 0.946352946, False, 1), ("volume", "uk_qt", 1.1365225, False, 1),
    ("volume", "gal", 3.785411784, False, 1), ("volume", "uk_gal", 4.54609, False, 1),
    ("volume", "ang3 ang^3", 1e-27, True, 3), ("volume", "barrel", 158.987294928, False, 1),
    ("volume", "bushel", 35.23907016688, False, 1),
    ("volume", "in3 in^3", 0.016387064, False, 1), ("volume", "ft3 ft^3", 28.316846592, False, 1),
    ("volume", "ly3 ly^3", _LY ** 3 * 1000, False, 1), ("volume", "m3 m^3", 1000.0, True, 3),
    ("volume", "mi3 mi^3", _MI ** 3 * 1000, False, 1), ("volume", "yd3 yd^3", 764.554857984, False, 1),
    ("volume", "Nmi3 Nmi^3", _NMI ** 3 * 1000, False, 1),
    ("volume", "Pica3 Pica^3 Picapt3 Picapt^3", _PICA ** 3 * 1000, False, 1),
    ("volume", "GRT regton", 2831.6846592, False, 1),
    ("volume", "MTON", 1132.67386368, False, 1),
    # area (square metre)
    ("area", "ha", 1e4, False, 1), ("area", "uk_acre", 4046.8564224, False, 1),
    ("area", "us_acre", 4046.8726098742522, False, 1), ("area", "ang2 ang^2", 1e-20, True, 2),
    ("area", "ar", 100.0, True, 1), ("area", "ft2 ft^2", _FT ** 2, False, 1),
    ("area", "in2 in^2", _IN ** 2, False, 1), ("area", "ly2 ly^2", _LY ** 2, False, 1),
    ("area", "m2 m^2", 1.0, True, 2), ("area", "Morgen", 2500.0, False, 1),
    ("area", "mi2 mi^2", _MI ** 2, False, 1), ("area", "Nmi2 Nmi^2", _NMI ** 2, False, 1),
    ("area", "Pica2 Pica^2 Picapt2 Picapt^2", _PICA ** 2, False, 1),
    ("area", "yd2 yd^2", _YD ** 2, False, 1),
    # information (bit)
    ("information", "bit", 1.0, True, 1), ("information", "byte", 8.0, True, 1),
    # speed (metre per second)
    ("speed", "m/s m/sec", 1.0, True, 1), ("speed", "m/h m/hr", 1 / 3600, True, 1),
    ("speed", "mph", _MI / 3600, True, 1), ("speed", "admkn", 6080 * _FT / 3600, False, 1),
    ("speed", "kn", _NMI / 3600, False, 1),
]
UNITS: dict[str, tuple[str, float, bool, int]] = {
    name: (quantity, size, prefixed, power)
    for quantity, names, size, prefixed, power in _TABLE for name in names.split()}

# Temperatures: to and from degrees Celsius, and to and from kelvins. Excel goes through
# kelvins when either unit is the kelvin or the Rankine degree and through degrees Celsius
# otherwise, which fixes the last digit of its results (CONVERT(1,"Rank","K") is exactly
# 1/1.8, CONVERT(13,"C","F") is 13 × 1.8 + 32). Only the kelvin takes prefixes.
_Linear = Callable[[float], float]
_TEMPERATURES: dict[str, tuple[_Linear, _Linear, _Linear, _Linear]] = {
    "C": (lambda x: x, lambda c: c, lambda x: x + 273.15, lambda k: k - 273.15),
    "F": (lambda x: (x - 32) / 1.8, lambda c: c * 1.8 + 32,
          lambda x: (x - 32) / 1.8 + 273.15, lambda k: (k - 273.15) * 1.8 + 32),
    "K": (lambda x: x - 273.15, lambda c: c + 273.15, lambda x: x, lambda k: k),
    "Rank": (lambda x: x / 1.8 - 273.15, lambda c: (c + 273.15) * 1.8,
             lambda x: x / 1.8, lambda k: k * 1.8),
    "Reau": (lambda x: x * 1.25, lambda c: c / 1.25,
             lambda x: x * 1.25 + 273.15, lambda k: (k - 273.15) / 1.25),
}
_TEMPERATURES.update(cel=_TEMPERATURES["C"], fah=_TEMPERATURES["F"], kel=_TEMPERATURES["K"])
_ABSOLUTE = {"K", "kel", "Rank"}

_PREFIXES = {"Y": 1e24, "Z": 1e21, "E": 1e18, "P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6,
             "k": 1e3, "h": 1e2, "da": 1e1, "e": 1e1, "d": 1e-1, "c": 1e-2, "m": 1e-3,
             "u": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15, "a": 1e-18, "z": 1e-21,
             "y": 1e-24}
_BINARY = {"Yi": 2.0 ** 80, "Zi": 2.0 ** 70, "Ei": 2.0 ** 60, "Pi": 2.0 ** 50,
           "Ti": 2.0 ** 40, "Gi": 2.0 ** 30, "Mi": 2.0 ** 20, "ki": 2.0 ** 10}


class _Reading:
    """One way of reading a unit name: its quantity, its size in the quantity's base unit
    and, for a temperature, its four conversions and whether it is an absolute scale."""

    __slots__ = ("quantity", "size", "temperature", "absolute")

    def __init__(self, quantity: str, size: float = 1.0,
                 temperature: tuple[_Linear, _Linear, _Linear, _Linear] | None = None,
                 absolute: bool = False):
        self.quantity, self.size = quantity, size
        self.temperature, self.absolute = temperature, absolute


def _kelvins(scale: float) -> tuple[_Linear, _Linear, _Linear, _Linear]:
    """The conversions of a prefixed kelvin (mK, kK …)."""
    return (lambda x: x * scale - 273.15, lambda c: (c + 273.15) / scale,
            lambda x: x * scale, lambda k: k / scale)


def _readings(name: str) -> list[_Reading]:
    """Every way Excel can read ``name``: as written first, then with a prefix."""
    found: list[_Reading] = []
    if name in UNITS:
        found.append(_Reading(UNITS[name][0], UNITS[name][1]))
    if name in _TEMPERATURES:
        found.append(_Reading("temperature", temperature=_TEMPERATURES[name],
                              absolute=name in _ABSOLUTE))
    for prefix, factor in _BINARY.items():
        if name.startswith(prefix) and name[2:] in ("bit", "byte"):
            found.append(_Reading("information", factor * UNITS[name[2:]][1]))
    for length in (1, 2):
        prefix, rest = name[:length], name[length:]
        if prefix not in _PREFIXES:
            continue
        scale = _PREFIXES[prefix]
        if rest in UNITS and UNITS[rest][2]:
            quantity, size, _, power = UNITS[rest]
            found.append(_Reading(quantity, scale ** power * size))
        elif rest in ("K", "kel"):
            found.append(_Reading("temperature", temperature=_kelvins(scale), absolute=True))
    return found


def convert(value: float, source: str, target: str) -> float | XlErr:
    """``value`` in unit ``source`` expressed in unit ``target``."""
    sources, targets = _readings(source), _readings(target)
    for unknown, readings in ((source, sources), (target, targets)):
        if not readings:
            return XlErr(NA, f"CONVERT: {unknown!r} is not a unit CONVERT knows")
    for first in sources:
        for second in targets:
            if first.quantity != second.quantity:
                continue
            if first.temperature is not None and second.temperature is not None:
                if first.absolute or second.absolute:
                    return second.temperature[3](first.temperature[2](value))
                return second.temperature[1](first.temperature[0](value))
            return value if first.size == second.size else value * first.size / second.size
    return XlErr(NA, f"CONVERT: {source!r} and {target!r} measure different things")


def _convert(value: Any, source: Any, target: Any) -> Any:
    if isinstance(value, bool):
        return XlErr(VALUE)
    amount = number(value)
    if isinstance(amount, XlErr):
        return amount
    names = []
    for unit in (source, target):
        if isinstance(unit, XlErr):
            return unit
        if not isinstance(unit, str):
            return XlErr(NA, f"CONVERT: {text(unit)!r} is not a unit CONVERT knows")
        names.append(unit)
    return convert(amount, names[0], names[1])


FUNCTIONS["CONVERT"] = one_value_each(_convert)
