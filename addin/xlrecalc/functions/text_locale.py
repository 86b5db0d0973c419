"""Excel's text functions tied to one language or one data format: ASC and JIS (full-width
and half-width characters, as Excel does for Japanese), BAHTTEXT (an amount in Thai
words) and PHONETIC (furigana).

ASC turns full-width characters into half-width ones: the full-width ASCII forms
U+FF01–U+FF5E into U+0021–U+007E, the ideographic space U+3000 into a space, full-width
katakana and Japanese punctuation into the half-width forms of U+FF61–U+FF9F, a voiced
katakana split into its base and the half-width mark (ガ into ｶﾞ, パ into ﾊﾟ) as in
Shift-JIS, which has no half-width voiced letters. JIS is the reverse and joins a
half-width letter and its mark again. Other text (hiragana, kanji, Latin letters with
accents) is unchanged. The katakana table is read from :mod:`unicodedata` (the
``<narrow>`` decomposition of each half-width form names its full-width letter; NFD and
NFC split and join the voiced marks); the full-width ASCII block is a fixed offset.
``unicodedata.normalize("NFKC")`` alone does not do the job: it widens half-width
katakana (the opposite of ASC) and also rewrites characters ASC keeps (ligatures,
circled digits, superscripts).

>>> E = ELEMENTWISE
>>> E["ASC"]("ＥＸＣＥＬ"), E["ASC"]("エクセル"), E["ASC"]("ガイド　パン")
('EXCEL', 'ｴｸｾﾙ', 'ｶﾞｲﾄﾞ ﾊﾟﾝ')
>>> E["JIS"]("EXCEL"), E["JIS"]("ｴｸｾﾙ"), E["JIS"]("ｶﾞｲﾄﾞ ﾊﾟﾝ")
('ＥＸＣＥＬ', 'エクセル', 'ガイド　パン')

BAHTTEXT writes the amount rounded to the satang (two decimals) in Thai words, then
บาท (baht) and the satang with สตางค์, or ถ้วน ("exactly") when there are none. A 1 in
the units after a tens digit is เอ็ด (สิบเอ็ด 11, ยี่สิบเอ็ด 21), a tens digit 2 is ยี่สิบ,
a tens digit 1 is สิบ alone; every six digits repeat ล้าน (million); a negative amount
starts with ลบ. Microsoft's page documents 1234; the other rules (in particular หนึ่ง,
not เอ็ด, after a zero tens digit: 101 หนึ่งร้อยหนึ่ง) follow LibreOffice's
BAHTTEXT, written to read Excel's files with Excel's values.

>>> E["BAHTTEXT"](1234.0)
'หนึ่งพันสองร้อยสามสิบสี่บาทถ้วน'
>>> E["BAHTTEXT"](78.6), E["BAHTTEXT"](-21.0)
('เจ็ดสิบแปดบาทหกสิบสตางค์', 'ลบยี่สิบเอ็ดบาทถ้วน')

PHONETIC gives a cell's furigana, which Excel keeps as phonetic runs beside the cell's
text. The evaluator reads no phonetic runs, so PHONETIC gives the cell's text, which is
what Excel gives for a cell without phonetic information; for a range, the first
(top-left) cell's; a reference of several areas is ``#N/A``, as Microsoft documents.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from .base import NA, elementwise, number, registry, text
from ..values import Arr, Rng, XlErr

__all__ = ["ELEMENTWISE", "FUNCTIONS"]

ELEMENTWISE: dict[str, Callable[..., Any]] = {}
FUNCTIONS, _register = registry()


# -- ASC and JIS -----------------------------------------------------------------------
_VOICED, _SEMI_VOICED = "\u3099", "\u309a"          # combining (han)dakuten
_NARROW_VOICED, _NARROW_SEMI = "\uff9e", "\uff9f"    # ﾞ ﾟ
_WIDE_MARK = {_NARROW_VOICED: "\u309b", _NARROW_SEMI: "\u309c"}  # ゛ ゜ standing alone


def _narrow_table() -> dict[str, str]:
    """Half-width katakana and punctuation (U+FF61–U+FF9D) by their full-width forms."""
    table = {}
    for code in range(0xFF61, 0xFF9E):
        tag, _, target = unicodedata.decomposition(chr(code)).partition(" ")
        if tag == "<narrow>":
            table[chr(int(target, 16))] = chr(code)
    return table


_NARROW = _narrow_table()
_WIDE = {narrow: wide for wide, narrow in _NARROW.items()}
_NARROW.update({_VOICED: _NARROW_VOICED, _SEMI_VOICED: _NARROW_SEMI,
                "\u309b": _NARROW_VOICED, "\u309c": _NARROW_SEMI})


def _half_width(ch: str) -> str:
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:
        return chr(code - 0xFEE0)
    if code == 0x3000:
        return " "
    found = _NARROW.get(ch)
    if found is not None:
        return found
    if 0x30A0 <= code <= 0x30FF:  # a voiced katakana: base letter + mark
        parts = unicodedata.normalize("NFD", ch)
        if len(parts) == 2 and parts[0] in _NARROW:
            return _NARROW[parts[0]] + _NARROW[parts[1]]
    return ch


@elementwise(ELEMENTWISE, "ASC")
def _asc(value: Any) -> Any:
    """ASC(text): full-width (double-byte) characters to half-width."""
    found = text(value)
    return found if isinstance(found, XlErr) else "".join(map(_half_width, found))


@elementwise(ELEMENTWISE, "JIS", "DBCS")
def _jis(value: Any) -> Any:
    """JIS(text) (DBCS in other languages): half-width characters to full-width, a
    half-width letter and its voiced mark joined into one letter where one exists."""
    found = text(value)
    if isinstance(found, XlErr):
        return found
    out: list[str] = []
    after_half_width = False  # the mark joins a letter that was half-width too
    for ch in found:
        code = ord(ch)
        if ch in (_NARROW_VOICED, _NARROW_SEMI):
            mark = _VOICED if ch == _NARROW_VOICED else _SEMI_VOICED
            joined = unicodedata.normalize("NFC", out[-1] + mark) if after_half_width else ""
            if len(joined) == 1:
                out[-1] = joined
            else:
                out.append(_WIDE_MARK[ch])
            after_half_width = False
            continue
        after_half_width = ch in _WIDE
        if 0x21 <= code <= 0x7E:
            out.append(chr(code + 0xFEE0))
        elif ch == " ":
            out.append("\u3000")
        else:
            out.append(_WIDE.get(ch, ch))
    return "".join(out)


# -- BAHTTEXT --------------------------------------------------------------------------
_DIGITS = ("ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า")
_PLACES = {5: "แสน", 4: "หมื่น", 3: "พัน", 2: "ร้อย"}
_MILLION, _BAHT, _SATANG, _EXACT, _MINUS = "ล้าน", "บาท", "สตางค์", "ถ้วน", "ลบ"
_WIDE_DECIMALS = Context(prec=330)


def _thai_group(n: int) -> str:
    """1 … 999,999 in Thai words."""
    words = [_DIGITS[n // 10 ** place % 10] + name
             for place, name in _PLACES.items() if n // 10 ** place % 10]
    tens, ones = n // 10 % 10, n % 10
    if tens:
        words.append(("" if tens == 1 else "ยี่" if tens == 2 else _DIGITS[tens]) + "สิบ")
    if ones:
        words.append("เอ็ด" if ones == 1 and tens else _DIGITS[ones])
    return "".join(words)


def _thai_whole(n: int) -> str:
    """A whole number of baht (> 0): groups of six digits, each but the last followed by
    ล้าน, an empty group leaving its ล้าน (10^12 is หนึ่งล้านล้าน)."""
    groups = []
    while n:
        n, group = divmod(n, 1_000_000)
        groups.append(group)
    return _MILLION.join(_thai_group(g) if g else "" for g in reversed(groups))


@elementwise(ELEMENTWISE, "BAHTTEXT")
def _bahttext(value: Any) -> Any:
    """BAHTTEXT(number): the amount in Thai words with บาท and สตางค์ (or ถ้วน)."""
    amount = number(value)
    if isinstance(amount, XlErr):
        return amount
    # the decimal digits the number shows, rounded half up to the satang
    # (a context wide enough for the largest double, 309 digits)
    exact = Decimal(repr(abs(amount))).quantize(Decimal("0.01"), ROUND_HALF_UP, _WIDE_DECIMALS)
    satang_total = int(exact * 100)
    baht, satang = divmod(satang_total, 100)
    words = _thai_whole(baht) + _BAHT if baht else (_DIGITS[0] + _BAHT if not satang else "")
    words += _thai_group(satang) + _SATANG if satang else _EXACT
    return _MINUS + words if amount < 0 else words


# -- PHONETIC --------------------------------------------------------------------------
@_register("PHONETIC")
def _phonetic(here: Any, reference: Any) -> Any:
    """PHONETIC(reference): the furigana of the reference's first cell; headless, where no
    phonetic runs are read, that cell's text (Excel's value for a cell without them)."""
    if isinstance(reference, Rng):
        if len(reference.areas()) > 1:
            return XlErr(NA, "PHONETIC: the reference must be one area")
        first = reference.areas()[0]
        reference = first.book.value(first.sheet, first.r1, first.c1)
    elif isinstance(reference, Arr):
        reference = reference.rows()[0][0]
    return text(reference)
