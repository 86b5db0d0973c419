"""Text for line-based, fixed-column records (the TRF, the US Chess report's dBASE fields):
one character in, one character out, nothing that ends a line or counts twice.

A reader splitting lines the Unicode way (Python's :meth:`str.splitlines`, Java's
``\\R``) ends a line at CR and LF and also at VT, FF, the file, group and record
separators (U+001C–U+001E), NEL (U+0085) and the line and paragraph separators (U+2028,
U+2029): a name holding one of them followed by a whole ``001`` record would forge a
player. Every control (Unicode category ``Cc``: C0, DEL, C1), every format character
(``Cf``: zero-width and direction marks, which a reader may drop), the line and paragraph
separators (``Zl``, ``Zp``) and every lone surrogate (``Cs``, which no encoder writes)
become a space.

Fixed columns are counted differently by readers: Python counts code points, Java and
JavaScript UTF-16 units, where a character outside the Basic Multilingual Plane (an emoji,
a CJK extension ideograph, 𝔄) counts two. **Decision**: such a character is written as
``?``, one column for every reader; the caller names what it replaced.

>>> one_line("Alpha\\u2028001    2 m"), one_line("Bet\\u200ba"), one_line("Chess 𝔄 club")
('Alpha 001    2 m', 'Bet a', 'Chess ? club')
>>> replaced("Ann\\u2029e \\U0001F600")
['U+2029', 'U+1F600']
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["one_line", "replaced", "one_line_noted", "ASTRAL_MARK"]

ASTRAL_MARK = "?"  # what a character outside the Basic Multilingual Plane becomes
_BREAKING = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def _ranges() -> str:
    """Every character of the BMP that breaks a line or a column (about 2,200, surrogates
    included), as the ranges of a regular expression's class."""
    spans: list[list[int]] = []
    for cp in range(0x10000):
        if unicodedata.category(chr(cp)) in _BREAKING:
            if spans and spans[-1][1] == cp - 1:
                spans[-1][1] = cp
            else:
                spans.append([cp, cp])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in spans)


# The ranges are found once, on the first text that needs them: scanning the BMP costs more
# than most commands spend on text. Every breaking category is one :meth:`str.isprintable`
# refuses (it accepts no ``C*``, ``Zl`` or ``Zp`` character), so printable text never needs
# them. One regular expression over the ranges does a 10 MB line in a fraction of a second.
@functools.cache
def _odd_bmp() -> re.Pattern[str]:
    return re.compile(f"[{_ranges()}]")


@functools.cache
def _odd_all() -> re.Pattern[str]:
    return re.compile(f"[{_ranges()}\\U00010000-\\U0010FFFF]")


def one_line(text: str, *, astral: bool = True) -> str:
    """``text`` with each character that breaks a line or a column replaced (module doc):
    as long as ``text``, in code points and in UTF-16 units alike. ``astral=False``
    (a reader's) keeps the characters outside the BMP.

    >>> one_line("\\t1\\x1e2\\x85 \\U0001F600", astral=False)
    ' 1 2  \\U0001f600'
    """
    if text.isascii() and text.isprintable():
        return text
    if not text.isprintable():
        text = _odd_bmp().sub(" ", text)
    return _ASTRAL.sub(ASTRAL_MARK, text) if astral else text


def replaced(text: str, *, astral: bool = True) -> list[str]:
    """The characters :func:`one_line` replaces in ``text``, as ``U+XXXX``, each once."""
    if text.isascii() and text.isprintable():
        return []
    if text.isprintable():  # no line or column breaks: only the astral characters count
        if not astral:
            return []
        odd = _ASTRAL
    else:
        odd = _odd_all() if astral else _odd_bmp()
    return list(dict.fromkeys(f"U+{ord(ch):04X}" for ch in odd.findall(text)))


def one_line_noted(text: str) -> tuple[str, str | None]:
    """:func:`one_line` of ``text`` and a note of what it replaced (``None`` for nothing),
    for a check to name.

    >>> one_line_noted("Ann\\u2028e \\U0001F600")
    ('Ann e ?', 'U+2028: a line break or control character, written as a space; U+1F600: outside the Basic Multilingual Plane (two columns for some readers), written as ?')
    """
    odd = replaced(text)
    if not odd:
        return text, None
    astral = [c for c in odd if len(c) > 6]  # U+1F600: past U+FFFF
    breaks = [c for c in odd if len(c) <= 6]
    said = ([f"{', '.join(breaks[:5])}: a line break or control character, written as a space"] if breaks else []) \
        + ([f"{', '.join(astral[:5])}: outside the Basic Multilingual Plane (two columns for some "
            "readers), written as ?"] if astral else [])
    return one_line(text), "; ".join(said)
