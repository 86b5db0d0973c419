"""Excel's CONVERT: its unit table, the metric prefixes and the binary ones.

Units are case-sensitive, as in Excel. A unit is looked up as written first, then as a
prefix followed by a unit that takes prefixes (``km``, ``kPa``, ``dal``, ``Gibyte``); the
binary prefixes (``ki`` … ``Yi``) go only with ``bit`` and ``byte``. An unknown unit, a
prefix on a unit that takes none, or units of two different quantities give ``#N/A``.
Each unit is defined by its size in the SI unit of its quantity, exactly where the
definition is exact. Excel computes the energy units, the pound-force and the parsec with
older or inexact constants of its own (an erg of 1.00000048e-7 J, a pound-force of
4.448222 N, an electronvolt of 1.60217733e-19 J …); those sizes are kept, written as the
number of units in one joule, newton or metre, so that the results are Excel's. Examples
from Microsoft's page (support.microsoft.com, *CONVERT function*):

>>> convert = ELEMENTWISE["CONVERT"]
>>> round(convert(1.0, "lbm", "kg"), 7), convert(68.0, "F", "C"), convert(2.5, "ft", "sec")
(0.4535924, 20.0, XlErr('#N/A'))
>>> round(convert(convert(100.0, "ft", "m"), "ft", "m"), 6), convert(1.0, "kibyte", "bit")
(9.290304, 8192.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .functions_base import NA, VALUE, number, text
from .values import XlErr

__all__ = ["ELEMENTWISE", "UNITS", "convert"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}

_IN, _FT, _MI, _NMI = 0.0254, 0.3048, 1609.344, 1852.0
_PICA = _IN / 72  # the pica point, 1/72 inch
_LY = 299_792_458.0 * 365.25 * 86_400  # light-year (Julian year)
_LB, _G0 = 0.45359237, 9.80665  # pound (kg), standard gravity (m/s²)
_LBF = _LB * _G0  # pound-force (N)

# unit: (quantity, size in the quantity's base unit, takes prefixes). Base units: gram,
# metre, second, pascal, newton, joule, watt, tesla, cubic metre, square metre, bit,
# metre per second; temperatures are converted through degrees Celsius.
_TABLE: list[tuple[str, str, float, bool]] = [
    # weight and mass (gram)
    ("mass", "g", 1.0, True), ("mass", "sg", _LBF / _FT * 1000, False),
    ("mass", "lbm", _LB * 1000, False), ("mass", "u", 1.660538782e-24, True),
    ("mass", "ozm", _LB * 1000 / 16, False), ("mass", "grain", 0.06479891, False),
    ("mass", "cwt shweight", _LB * 100_000, False),
    ("mass", "uk_cwt lcwt hweight", _LB * 112_000, False),
    ("mass", "stone", _LB * 14_000, False), ("mass", "ton", _LB * 2_000_000, False),
    ("mass", "uk_ton LTON brton", _LB * 2_240_000, False),
    # distance (metre)
    ("distance", "m", 1.0, True), ("distance", "mi", _MI, False),
    ("distance", "Nmi", _NMI, False), ("distance", "in", _IN, False),
    ("distance", "ft", _FT, False), ("distance", "yd", 0.9144, False),
    ("distance", "ang", 1e-10, True), ("distance", "ell", 45 * _IN, False),
    ("distance", "ly", _LY, False), ("distance", "parsec pc", 1 / 3.24077928966473e-17, False),
    ("distance", "Picapt Pica", _PICA, False), ("distance", "pica", _IN / 6, False),
    ("distance", "survey_mi", 6_336_000 / 3937, False),
    # time (second)
    ("time", "yr", 365.25 * 86_400, False), ("time", "day d", 86_400.0, False),
    ("time", "hr", 3_600.0, False), ("time", "mn min", 60.0, False),
    ("time", "sec s", 1.0, True),
    # pressure (pascal)
    ("pressure", "Pa p", 1.0, True), ("pressure", "atm at", 101_325.0, True),
    ("pressure", "mmHg", 133.322, True), ("pressure", "psi", _LBF / _IN ** 2, True),
    ("pressure", "Torr", 101_325 / 760, True),
    # force (newton)
    ("force", "N", 1.0, True), ("force", "dyn dy", 1e-5, True), ("force", "lbf", 4.448222, False),
    ("force", "pond", _G0 / 1000, True),
    # energy (joule)
    ("energy", "J", 1.0, True), ("energy", "e", 1 / 9.99999519343231e6, True),
    ("energy", "c", 1 / 0.239006249473467, True), ("energy", "cal", 1 / 0.238846190642017, True),
    ("energy", "eV ev", 1 / 6.241457e18, True), ("energy", "HPh hh", 1 / 3.72506430801e-7, False),
    ("energy", "Wh wh", 1 / 2.77777916238711e-4, True),
    ("energy", "flb", 1 / 23.7304222192651, False),
    ("energy", "BTU btu", 1 / 9.47815067349015e-4, False),
    # power (watt)
    ("power", "HP h", _LBF * _FT * 550, False), ("power", "PS", _G0 * 75, False),
    ("power", "W w", 1.0, True),
    # magnetism (tesla)
    ("magnetism", "T", 1.0, True), ("magnetism", "ga", 1e-4, True),
    # volume (cubic metre)
    ("volume", "l L lt", 1e-3, True), ("volume", "tsp", 4.92892159375e-6, False),
    ("volume", "tspm", 5e-6, False), ("volume", "tbs", 1.478676478125e-5, False),
    ("volume", "oz", 2.95735295625e-5, False), ("volume", "cup", 2.365882365e-4, False),
    ("volume", "pt us_pt", 4.73176473e-4, False), ("volume", "uk_pt", 5.6826125e-4, False),
    ("volume", "qt", 9.46352946e-4, False), ("volume", "uk_qt", 1.1365225e-3, False),
    ("volume", "gal", 3.785411784e-3, False), ("volume", "uk_gal", 4.54609e-3, False),
    ("volume", "ang3 ang^3", 1e-30, True), ("volume", "barrel", 0.158987294928, False),
    ("volume", "bushel", 0.03523907016688, False),
    ("volume", "in3 in^3", _IN ** 3, False), ("volume", "ft3 ft^3", _FT ** 3, False),
    ("volume", "ly3 ly^3", _LY ** 3, False), ("volume", "m3 m^3", 1.0, True),
    ("volume", "mi3 mi^3", _MI ** 3, False), ("volume", "yd3 yd^3", 0.9144 ** 3, False),
    ("volume", "Nmi3 Nmi^3", _NMI ** 3, False),
    ("volume", "Pica3 Pica^3 Picapt3 Picapt^3", _PICA ** 3, False),
    ("volume", "GRT regton", 100 * _FT ** 3, False), ("volume", "MTON", 40 * _FT ** 3, False),
    # area (square metre)
    ("area", "ha", 1e4, True), ("area", "uk_acre", 4046.8564224, False),
    ("area", "us_acre", 4046.87260987425, False), ("area", "ang2 ang^2", 1e-20, True),
    ("area", "ar", 100.0, True), ("area", "ft2 ft^2", _FT ** 2, False),
    ("area", "in2 in^2", _IN ** 2, False), ("area", "ly2 ly^2", _LY ** 2, False),
    ("area", "m2 m^2", 1.0, True), ("area", "Morgen", 2500.0, False),
    ("area", "mi2 mi^2", _MI ** 2, False), ("area", "Nmi2 Nmi^2", _NMI ** 2, False),
    ("area", "Pica2 Pica^2 Picapt2 Picapt^2", _PICA ** 2, False),
    ("area", "yd2 yd^2", 0.9144 ** 2, False),
    # information (bit)
    ("information", "bit", 1.0, True), ("information", "byte", 8.0, True),
    # speed (metre per second)
    ("speed", "m/s m/sec", 1.0, True), ("speed", "m/h m/hr", 1 / 3600, True),
    ("speed", "mph", _MI / 3600, False), ("speed", "admkn", 6080 * _FT / 3600, False),
    ("speed", "kn", _NMI / 3600, False),
]
UNITS: dict[str, tuple[str, float, bool]] = {
    name: (quantity, size, prefixed)
    for quantity, names, size, prefixed in _TABLE for name in names.split()}

# Celsius from each temperature unit and back; no prefixes
_TEMPERATURES: dict[str, tuple[Callable[[float], float], Callable[[float], float]]] = {
    "C": (lambda x: x, lambda c: c),
    "F": (lambda x: (x - 32) / 1.8, lambda c: c * 1.8 + 32),
    "K": (lambda x: x - 273.15, lambda c: c + 273.15),
    "Rank": (lambda x: x / 1.8 - 273.15, lambda c: (c + 273.15) * 1.8),
    "Reau": (lambda x: x * 1.25, lambda c: c / 1.25),
}
_TEMPERATURES.update(cel=_TEMPERATURES["C"], fah=_TEMPERATURES["F"], kel=_TEMPERATURES["K"])

_PREFIXES = {"Y": 1e24, "Z": 1e21, "E": 1e18, "P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6,
             "k": 1e3, "h": 1e2, "da": 1e1, "e": 1e1, "d": 1e-1, "c": 1e-2, "m": 1e-3,
             "u": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15, "a": 1e-18, "z": 1e-21,
             "y": 1e-24}
_BINARY = {"Yi": 2.0 ** 80, "Zi": 2.0 ** 70, "Ei": 2.0 ** 60, "Pi": 2.0 ** 50,
           "Ti": 2.0 ** 40, "Gi": 2.0 ** 30, "Mi": 2.0 ** 20, "ki": 2.0 ** 10}


def _unit(name: str) -> tuple[str, float] | None:
    """A unit's quantity and size, with its prefix if it has one; None if unknown."""
    if name in UNITS:
        quantity, size, _ = UNITS[name]
        return quantity, size
    for prefix, factor in _BINARY.items():
        if name.startswith(prefix) and name[2:] in ("bit", "byte"):
            return "information", factor * UNITS[name[2:]][1]
    for length in (2, 1):
        prefix, rest = name[:length], name[length:]
        if prefix in _PREFIXES and rest in UNITS and UNITS[rest][2]:
            quantity, size, _ = UNITS[rest]
            return quantity, _PREFIXES[prefix] * size
    return None


def convert(value: float, source: str, target: str) -> float | XlErr:
    """``value`` in unit ``source`` expressed in unit ``target``."""
    if source in _TEMPERATURES or target in _TEMPERATURES:
        if source in _TEMPERATURES and target in _TEMPERATURES:
            return _TEMPERATURES[target][1](_TEMPERATURES[source][0](value))
        return XlErr(NA, f"CONVERT: {source!r} and {target!r} measure different things")
    found, wanted = _unit(source), _unit(target)
    if found is None or wanted is None:
        unknown = source if found is None else target
        return XlErr(NA, f"CONVERT: {unknown!r} is not a unit CONVERT knows")
    if found[0] != wanted[0]:
        return XlErr(NA, f"CONVERT: {source!r} and {target!r} measure different things")
    if found[1] == wanted[1]:
        return value
    return value * found[1] / wanted[1]


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


ELEMENTWISE["CONVERT"] = _convert
