"""Excel's number formats, as the TEXT function applies them (en-US).

Sections ``positive;negative;zero;text`` or conditions (``[<=9999999]###-####;(###) ###-####``);
digit placeholders ``0 # ?``, grouping and scaling commas, percent, scientific
``E+00``, fractions ``# ?/?``, literal text in quotes or after ``\\``, and the date and
time codes (``yyyy mmm dddd h:mm AM/PM``, elapsed ``[h]``).
Examples from Microsoft's page *TEXT function* (support.microsoft.com):

>>> format_value(1234.567, "$#,##0.00"), format_value(0.285, "0.0%"), format_value(4.34, "# ?/?")
('$1,234.57', '28.5%', '4 1/3')
>>> format_value(4.34, "0.00E+00"), format_value(1234, "0000000")
('4.34E+00', '0001234')
>>> format_value(1234567898, "[<=9999999]###-####;(###) ###-####")
'(123) 456-7898'
>>> format_value(9, '[<10]#" Wow"'), format_value(-11, '[=-10]#" Wow"'), format_value(28313, "ee-mm-dd")
('9 Wow', '-11', '1977-07-07')
>>> format_value(39448.75, "MM/DD/YY"), format_value(39448.75, "dddd"), format_value(39448.75, "H:MM AM/PM")
('01/01/08', 'Tuesday', '6:00 PM')
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import re
from fractions import Fraction
from typing import Any

from ..dates import is_1904, weekday_sunday0
from .base import VALUE, date_of
from ..values import XlErr

__all__ = ["format_value", "general"]

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_CONDITION = re.compile(r"\[(<=|>=|<>|<|>|=)\s*(-?[\d.]+(?:[eE][+-]?\d+)?)\]")


def _split_sections(fmt: str) -> list[str]:
    sections, current, i, quoted, bracket = [], [], 0, False, False
    while i < len(fmt):
        ch = fmt[i]
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "\\" and i + 1 < len(fmt):
            current.append(fmt[i:i + 2])
            i += 2
            continue
        elif not quoted and ch == "[":
            bracket = True
        elif not quoted and ch == "]":
            bracket = False
        elif ch == ";" and not quoted and not bracket:
            sections.append("".join(current))
            current = []
            i += 1
            continue
        current.append(ch)
        i += 1
    sections.append("".join(current))
    return sections


def _tokens(section: str) -> list[tuple[str, str]]:
    """(kind, text): lit, digit, point, comma, percent, exp, slash, at, date, ampm, elapsed."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(section):
        ch = section[i]
        rest = section[i:]
        if ch == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            out.append(("lit", section[i + 1:end]))
            i = end + 1
        elif ch == "\\" and i + 1 < len(section):
            out.append(("lit", section[i + 1]))
            i += 2
        elif ch == "_" and i + 1 < len(section):
            out.append(("lit", " "))
            i += 2
        elif ch == "*" and i + 1 < len(section):
            i += 2  # a fill character: nothing in text
        elif ch == "[":
            end = section.find("]", i)
            end = len(section) if end < 0 else end
            inner = section[i + 1:end]
            if re.fullmatch(r"h+|m+|s+", inner, re.I):
                out.append(("elapsed", inner.lower()))
            i = end + 1  # colours, conditions and locales show nothing
        elif ch in "0#?":
            out.append(("digit", ch))
            i += 1
        elif ch == ".":
            out.append(("point", ch))
            i += 1
        elif ch == ",":
            out.append(("comma", ch))
            i += 1
        elif ch == "%":
            out.append(("percent", ch))
            i += 1
        elif rest[:2].upper() in ("E+", "E-"):
            out.append(("exp", rest[:2]))  # the letter shown as written: 1e5 or 1E+05
            i += 2
        elif ch == "/":
            out.append(("slash", ch))
            i += 1
        elif ch == "@":
            out.append(("at", ch))
            i += 1
        elif rest[:5].upper() == "AM/PM" or rest[:3].upper() == "A/P":
            width = 5 if rest[:5].upper() == "AM/PM" else 3
            out.append(("ampm", rest[:width]))
            i += width
        elif ch.lower() in "ymdhse":
            j = i
            while j < len(section) and section[j].lower() == ch.lower():
                j += 1
            out.append(("era" if ch.lower() == "e" else "date", section[i:j].lower()))
            i = j
        else:
            out.append(("lit", ch))
            i += 1
    # e is the year (the era's year, the Gregorian one in en-US) among date codes, and
    # a letter elsewhere
    dated = any(kind == "date" for kind, _ in out)
    return [("date", "yyyy") if kind == "era" and dated else ("lit", text) if kind == "era"
            else (kind, text) for kind, text in out]


def general(value: float) -> str:
    """The General format: up to 11 characters, scientific beyond."""
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e11 or magnitude < 1e-9:
        text = f"{value:.5E}"
        mantissa, exponent = text.split("E")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}E{exponent[0]}{int(exponent[1:]):02d}"
    whole = len(str(int(magnitude)))
    decimals = max(0, 10 - whole - (1 if value < 0 else 0))
    text = _fixed(value, decimals)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _fixed(value: float, decimals: int) -> str:
    """``value`` rounded half away from zero on its 15-digit decimal, as text."""
    with decimal.localcontext() as context:
        context.prec = 400
        exact = decimal.Decimal(f"{value:.15g}")
        return f"{exact.quantize(decimal.Decimal(1).scaleb(-decimals), rounding=decimal.ROUND_HALF_UP):f}"


def _choose(sections: list[str], value: float) -> tuple[str, float, bool]:
    """The section for ``value``, the value it shows and whether a minus sign is added."""
    conditions = [_CONDITION.search(s) for s in sections]
    if any(conditions[:2]):
        for section, condition in zip(sections, conditions):
            if condition is None:
                return section, abs(value) if value < 0 and len(sections) > 2 else value, \
                    value < 0 and len(sections) <= 2
            op, limit = condition.group(1), float(condition.group(2))
            if {"<": value < limit, ">": value > limit, "=": value == limit, "<=": value <= limit,
                    ">=": value >= limit, "<>": value != limit}[op]:
                return section, value, False
        if conditions[len(sections) - 1] is not None:
            # no section for this value (``[<10]#" Wow"`` and 10): shown as General
            return "General", value, False
        return sections[-1], value, value < 0
    numeric = sections[:3] if len(sections) > 3 else sections
    if value > 0 or len(numeric) == 1:
        return numeric[0], abs(value), value < 0
    if value < 0:
        return numeric[1], abs(value), False
    return numeric[2] if len(numeric) > 2 else numeric[0], 0.0, False


def format_value(value: Any, fmt: str) -> str | XlErr:
    """``value`` (a number or text) shown with the number format ``fmt``."""
    sections = _split_sections(fmt)
    if isinstance(value, str):
        section = sections[3] if len(sections) > 3 else sections[0] if "@" in sections[0] else None
        if section is None:
            return value
        return "".join(value if kind == "at" else text for kind, text in _tokens(section)
                       if kind in ("at", "lit"))
    section, shown, minus = _choose(sections, float(value))
    tokens = _tokens(section)
    if section.strip().lower() == "general" or not section.strip():
        body = general(shown) if section.strip() else ""
    elif any(kind in ("date", "ampm", "elapsed") for kind, _ in tokens):
        if shown < 0:
            return XlErr(VALUE, "a negative number has no date or time")
        timed = _date_time(shown, tokens)
        if isinstance(timed, XlErr):
            return timed
        body = timed
    elif any(kind == "slash" for kind, _ in tokens) and any(k == "digit" for k, _ in tokens):
        body = _fraction(shown, tokens)
    else:
        body = _number(shown, tokens)
    return ("-" if minus else "") + body


def _number(value: float, tokens: list[tuple[str, str]]) -> str:
    digits_at = [i for i, (kind, _) in enumerate(tokens) if kind == "digit"]
    exp_at = next((i for i, (kind, _) in enumerate(tokens) if kind == "exp"), None)
    if exp_at is None:  # a scientific format neither multiplies by % nor scales by commas
        value *= 100 ** sum(1 for kind, _ in tokens if kind == "percent")
    point_at = next((i for i, (kind, _) in enumerate(tokens) if kind == "point"
                     and (exp_at is None or i < exp_at)), None)
    mantissa_end = exp_at if exp_at is not None else len(tokens)
    integer_places = [i for i in digits_at if i < (point_at if point_at is not None else mantissa_end)]
    fraction_places = [i for i in digits_at if point_at is not None and point_at < i < mantissa_end]
    last_digit = integer_places[-1] if integer_places else -1
    # commas right after the last integer placeholder scale by 1000; between them, group
    scaling, j = 0, last_digit + 1
    while last_digit >= 0 and j < len(tokens) and tokens[j][0] == "comma":
        scaling, j = scaling + 1, j + 1
    j = fraction_places[-1] + 1 if fraction_places else len(tokens)  # and after the decimals
    while j < len(tokens) and tokens[j][0] == "comma":
        scaling, j = scaling + 1, j + 1
    grouping = any(kind == "comma" and integer_places and integer_places[0] < i < last_digit
                   for i, (kind, _) in enumerate(tokens))
    if exp_at is None:
        value /= 1000 ** scaling
    exponent_text = ""
    if exp_at is not None:
        exponent_places = [i for i in digits_at if i > exp_at]
        exponent = 0
        if value:
            exponent = math.floor(math.log10(value))
            width = max(len(integer_places), 1)
            exponent = math.floor(exponent / width) * width  # a multiple of the places
            value = value / 10 ** exponent
            if float(_fixed(value, len(fraction_places))) >= 10 ** max(len(integer_places), 1):
                value, exponent = value / 10, exponent + 1
        sign = "-" if exponent < 0 else ("+" if tokens[exp_at][1][1] == "+" else "")
        shown = str(abs(exponent)).rjust(sum(1 for i in exponent_places
                                             if tokens[i][1] == "0"), "0")
        # ? places pad the exponent with spaces after its sign ("e+ 142")
        exponent_text = sign + shown.rjust(sum(1 for i in exponent_places
                                               if tokens[i][1] in "0?"), " ")
    rounded = _fixed(value, len(fraction_places))
    whole, _, fraction = rounded.partition(".")
    whole = whole.lstrip("0")
    if exp_at is not None and not value:  # zero in a scientific format: 0 in every place
        whole = "0" * len(integer_places)
    out: list[str] = []
    # integer placeholders, right to left
    assigned: dict[int, str] = {}
    digits = list(whole)
    for n, i in enumerate(reversed(integer_places)):
        place = tokens[i][1]
        if n == len(integer_places) - 1:
            piece = "".join(digits) if digits else ("0" if place == "0" else " " if place == "?" else "")
            digits = []
        elif digits:
            piece = digits.pop()
        else:
            piece = "0" if place == "0" else " " if place == "?" else ""
        assigned[i] = piece
    if grouping:
        grouped = _grouped("".join(assigned[i] for i in integer_places))
        for n, i in enumerate(integer_places):
            assigned[i] = grouped if n == len(integer_places) - 1 else ""
    fraction_digits = list(fraction)
    keep = len(fraction_digits)
    for n in range(len(fraction_places) - 1, -1, -1):  # trailing zeros of # and ? places
        if fraction_digits[n] == "0" and tokens[fraction_places[n]][1] != "0":
            keep = n
        else:
            break
    for n, i in enumerate(fraction_places):
        place = tokens[i][1]
        assigned[i] = fraction_digits[n] if n < keep else (" " if place == "?" else "")
    for i, (kind, text) in enumerate(tokens):
        if kind == "comma" and integer_places and i < integer_places[0]:
            out.append(",")  # before every digit placeholder a comma is a letter
        elif kind == "digit":
            out.append(exponent_text if exp_at is not None and i > exp_at and i == max(
                k for k in digits_at if k > exp_at) else "" if exp_at is not None and i > exp_at
                else assigned.get(i, ""))
        elif kind == "point" and i == point_at:
            out.append(".")
        elif kind == "exp":
            out.append(text[0])
        elif kind in ("lit", "percent", "slash") or (kind == "point"):
            out.append(text)
        elif kind == "at":
            continue
    return "".join(out)


def _grouped(digits: str) -> str:
    """The integer part's places (digits, and spaces where ``?`` pads) in groups of three
    from the right; the separator is a comma after a digit and a space after padding.

    >>> _grouped("01234567"), _grouped("   1234567"), _grouped("1234")
    ('01,234,567', '    1,234,567', '1,234')
    """
    groups = [digits[max(0, end - 3):end] for end in range(len(digits), 0, -3)][::-1]
    if not groups:
        return ""
    out = groups[0]
    for group in groups[1:]:
        out += ("," if out[-1] != " " else " ") + group
    return out


def _fraction(value: float, tokens: list[tuple[str, str]]) -> str:
    slash = next(i for i, (kind, _) in enumerate(tokens) if kind == "slash")
    before = tokens[:slash]
    after = tokens[slash + 1:]
    # the numerator is the last run of placeholders before the slash; an integer part
    # is a run of placeholders before that, separated by a literal
    runs: list[list[int]] = []
    for i, (kind, _) in enumerate(before):
        if kind == "digit":
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    numerator = runs[-1] if runs else []
    whole_places = runs[-2] if len(runs) > 1 else []
    denominator_text = "".join(text for kind, text in after if kind in ("digit", "lit")
                               and (kind == "digit" or text.isdigit()))
    fixed = "".join(text for kind, text in after if kind == "lit" and text.isdigit())
    places = [text for kind, text in after if kind == "digit"]
    whole = math.floor(value) if whole_places else 0
    part = value - whole
    if fixed and not places:
        denominator = int(fixed)
        numer = round(part * denominator)
    else:
        limit = 10 ** max(len(places), 1) - 1
        found = Fraction(part).limit_denominator(limit)
        numer, denominator = found.numerator, found.denominator
        if numer == denominator and whole_places:
            whole, numer = whole + 1, 0
    out = []
    for i, (kind, text) in enumerate(before):
        if i in whole_places:
            if i == whole_places[-1]:
                out.append(str(whole) if whole or not numer else "")
        elif i in numerator:
            if i == numerator[-1]:
                out.append(str(numer).rjust(len(numerator)) if numer else " " * len(numerator))
        elif kind == "lit":
            out.append(text if (whole or not whole_places or kind != "lit") else " ")
    if numer == 0 and whole_places:
        return "".join(out) + " " * (1 + len(denominator_text))
    denominator_shown = str(denominator).ljust(len(places)) if places else str(denominator)
    return "".join(out) + "/" + denominator_shown


def _date_time(value: float, tokens: list[tuple[str, str]]) -> str | XlErr:
    fraction_of_second = max((len(text) for kind, text in tokens if kind == "lit"), default=0)
    decimals = 0
    for i, (kind, text) in enumerate(tokens):  # ss.00: a point then zeros after seconds
        if kind == "point" and i > 0 and tokens[i - 1][0] in ("date", "elapsed") \
                and tokens[i - 1][1].startswith("s"):
            decimals = sum(1 for k, t in tokens[i + 1:i + 4] if k == "digit" and t == "0")
    del fraction_of_second
    total = round(value * 86400, decimals)
    days = math.floor(total / 86400)
    seconds = total - days * 86400
    day = date_of(float(days))
    if isinstance(day, XlErr):
        return day
    hour, rest = divmod(seconds, 3600)
    minute, second = divmod(rest, 60)
    twelve = any(kind == "ampm" for kind, _ in tokens)
    out: list[str] = []
    elapsed: set[str] = set()  # after [h] an h shows the hours elapsed too (so [s] and ss)
    for i, (kind, text) in enumerate(tokens):
        if kind == "date" and text[0] in "hs" and text[0] in elapsed:
            kind = "elapsed"
        if kind == "date":
            code = text[0]
            if code == "m" and _is_minute(tokens, i):
                code = "n"
            out.append(_date_part(code, text, day, days, int(hour), int(minute), second, twelve, decimals))
        elif kind == "elapsed":
            elapsed.add(text[0])
            unit = {"h": total / 3600, "m": total / 60, "s": total}[text[0]]
            out.append(str(int(unit)).rjust(len(text), "0"))
        elif kind == "ampm":
            morning = hour < 12
            if text.upper() == "AM/PM":
                out.append("AM" if morning else "PM")
            else:
                letter = text[0] if morning else text[2]
                out.append(letter)
        elif kind == "point" and decimals and i > 0:
            frac = f"{second - int(second):.{decimals}f}"[1:]
            out.append(frac)
        elif kind == "digit" and decimals:
            continue
        elif kind in ("lit", "point", "comma", "slash", "percent"):
            out.append(text)
    return "".join(out)


def _is_minute(tokens: list[tuple[str, str]], i: int) -> bool:
    """``m`` means minutes right after an hour or a second, or right before seconds
    (``s:m`` as Excel saved it in POI's ElapsedFormatTests)."""
    if len(tokens[i][1]) > 2:
        return False
    for j in range(i - 1, -1, -1):
        kind, text = tokens[j]
        if kind in ("date", "elapsed"):
            if text[0] in "hs":
                return True
            break
    for j in range(i + 1, len(tokens)):
        kind, text = tokens[j]
        if kind in ("date", "elapsed"):
            return text[0] == "s"
    return False


def _date_part(code: str, text: str, day: _dt.date, serial: int, hour: int, minute: int,
               second: float, twelve: bool, decimals: int) -> str:
    width = len(text)
    if code == "y":
        return str(day.year) if width > 2 else f"{day.year % 100:02d}"
    if code == "m":
        month = day.month if is_1904() else 1 if serial == 0 else 2 if serial == 60 else day.month
        if width >= 5:
            return _MONTHS[month - 1][0]
        if width == 4:
            return _MONTHS[month - 1]
        if width == 3:
            return _MONTHS[month - 1][:3]
        return str(month).rjust(width, "0")
    if code == "d":
        number = day.day if is_1904() else 0 if serial == 0 else 29 if serial == 60 else day.day
        weekday = (weekday_sunday0(serial) + 6) % 7  # Monday first, as _DAYS lists them
        if width >= 4:
            return _DAYS[weekday]
        if width == 3:
            return _DAYS[weekday][:3]
        return str(number).rjust(width, "0")
    if code == "h":
        shown = (hour % 12 or 12) if twelve else hour
        return str(shown).rjust(min(width, 2), "0")
    if code == "n":
        return str(minute).rjust(min(width, 2), "0")
    if code == "s":
        return str(int(second)).rjust(min(width, 2), "0")
    return text
