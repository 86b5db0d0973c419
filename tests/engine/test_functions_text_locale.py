"""ASC, JIS, BAHTTEXT and PHONETIC in the headless evaluator, against the
examples Microsoft documents (support.microsoft.com/office/<name>-function-…, page named
above each group), then properties that hold for any input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_functions import check, value

from xlrecalc.values import XlErr

VALUE, NA = XlErr("#VALUE!"), XlErr("#N/A")

DOCUMENTED = [
    # ASC function: full-width letters, full-width katakana (エクセル) to half-width
    ('=ASC("ＥＸＣＥＬ")', "EXCEL"), ('=ASC("エクセル")', "ｴｸｾﾙ"),
    # JIS function: the reverse, for letters and half-width katakana (ｴｸｾﾙ)
    ('=JIS("EXCEL")', "ＥＸＣＥＬ"), ('=JIS("ｴｸｾﾙ")', "エクセル"),
    # BAHTTEXT function: 1234 in Thai text
    ("=BAHTTEXT(1234)", "หนึ่งพันสองร้อยสามสิบสี่บาทถ้วน"),
]


@pytest.mark.parametrize("formula, expected", DOCUMENTED)
def test_documented_example(formula: str, expected: Any) -> None:
    check(value(formula), expected)


# Derived from the rules of Thai numerals BAHTTEXT follows (see the module): Microsoft's
# page shows 1234 only; these are the amounts of that rule book, not Excel screenshots.
BAHT_RULES = [
    (78.6, "เจ็ดสิบแปดบาทหกสิบสตางค์"), (23.4, "ยี่สิบสามบาทสี่สิบสตางค์"),
    (0, "ศูนย์บาทถ้วน"), (10, "สิบบาทถ้วน"), (11, "สิบเอ็ดบาทถ้วน"),
    (20, "ยี่สิบบาทถ้วน"), (21, "ยี่สิบเอ็ดบาทถ้วน"), (111, "หนึ่งร้อยสิบเอ็ดบาทถ้วน"),
    (0.25, "ยี่สิบห้าสตางค์"), (1_000_000, "หนึ่งล้านบาทถ้วน"),
    (21_000_000, "ยี่สิบเอ็ดล้านบาทถ้วน"), (10 ** 12, "หนึ่งล้านล้านบาทถ้วน"),
    (1_234_567.891, "หนึ่งล้านสองแสนสามหมื่นสี่พันห้าร้อยหกสิบเจ็ดบาทแปดสิบเก้าสตางค์"),
    (-1234, "ลบหนึ่งพันสองร้อยสามสิบสี่บาทถ้วน"),
]


@pytest.mark.parametrize("amount, expected", BAHT_RULES)
def test_bahttext_rules(amount: float, expected: str) -> None:
    check(value("=BAHTTEXT(A2)", {"A2": float(amount)}), expected)


def test_bahttext_reads_its_argument_as_a_number() -> None:
    check(value('=BAHTTEXT("12")'), "สิบสองบาทถ้วน")
    check(value('=BAHTTEXT("twelve")'), VALUE)
    check(value("=BAHTTEXT(1/0)"), XlErr("#DIV/0!"))


def test_asc_and_jis_leave_other_text() -> None:
    check(value('=ASC("がっこう 学校 é")'), "がっこう 学校 é")
    check(value('=JIS("がっこう")'), "がっこう")
    # voiced katakana split into the letter and its mark, and joined again
    check(value('=ASC("ガイド　パン")'), "ｶﾞｲﾄﾞ ﾊﾟﾝ")
    check(value('=JIS("ｶﾞｲﾄﾞ ﾊﾟﾝ")'), "ガイド　パン")
    check(value("=ASC(123)"), "123")
    check(value('=ASC(A2)', {"A2": XlErr("#N/A")}), NA)


# PHONETIC function: the furigana of a cell, the top-left cell of a range, #N/A for
# non-adjacent cells. The page's example (東京都 read トウキョウト) needs the phonetic
# run Excel stores with the cell; headless there is none, and PHONETIC gives the text.
def test_phonetic_without_phonetic_runs() -> None:
    cells = {"C4": "東京都", "B7": "大阪府", "C5": "x"}
    check(value("=PHONETIC(C4)", cells), "東京都")
    check(value("=PHONETIC(C4:D5)", cells), "東京都")
    check(value("=PHONETIC((C4,B7))", cells), NA)


_FULL_WIDTH_KATAKANA = "".join(
    ch for ch in map(chr, range(0x30A1, 0x30FD))
    if ch not in "ヮヰヱヵヶヸヹヺ・")  # letters with no half-width form stay as they are
_FULL_WIDTH = st.text(st.sampled_from(
    [chr(c) for c in range(0xFF01, 0xFF5F)] + ["\u3000", "・", "「", "」", "、", "。"]
    + list(_FULL_WIDTH_KATAKANA)), max_size=20)


@given(_FULL_WIDTH)
def test_jis_undoes_asc_on_full_width_text(s: str) -> None:
    from xlrecalc.functions.text_locale import ELEMENTWISE
    half = ELEMENTWISE["ASC"](s)
    assert all(ord(ch) < 0x3000 or ord(ch) >= 0xFF61 for ch in half)
    assert ELEMENTWISE["JIS"](half) == s


@given(st.integers(-10 ** 15, 10 ** 15))
def test_bahttext_of_whole_numbers_ends_exactly(n: int) -> None:
    from xlrecalc.functions.text_locale import ELEMENTWISE
    words = ELEMENTWISE["BAHTTEXT"](float(n))
    assert words.endswith("บาทถ้วน") and "สตางค์" not in words
    assert words.startswith("ลบ") == (n < 0)
