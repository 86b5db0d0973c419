"""The information functions (xlrecalc.functions.information): Microsoft's documented
values (TYPE function, ERROR.TYPE function, IS functions pages), then properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_functions import NA, check, evaluate, value


# TYPE function: number 1, text 2, logical 4, error 16, array 64
@pytest.mark.parametrize("formula, expected", [
    ("=TYPE(1)", 1.0), ('=TYPE("Smith")', 2.0), ("=TYPE(TRUE)", 4.0), ("=TYPE(1/0)", 16.0),
    ("=TYPE({1,2;3,4})", 64.0),
    # ERROR.TYPE function: #NULL! 1, #DIV/0! 2, #VALUE! 3, #REF! 4, #NAME? 5, #NUM! 6, #N/A 7
    ("=ERROR.TYPE(1/0)", 2.0), ('=ERROR.TYPE(1+"a")', 3.0), ("=ERROR.TYPE(NA())", 7.0),
    ("=ERROR.TYPE(SQRT(-1))", 6.0), ("=ERROR.TYPE(1)", NA),
    ("=ISNA(NA())", True), ("=ISERR(NA())", False), ("=ISERROR(NA())", True),
    ('=ISTEXT("x")', True), ("=ISNONTEXT(1)", True), ("=ISLOGICAL(FALSE)", True),
    ('=ISNUMBER("1")', False), ("=NA()", NA),
])
def test_information_functions(formula: str, expected: object) -> None:
    check(value(formula), expected)


def test_isblank_isref_and_isformula_read_the_cell() -> None:
    book = evaluate({"C1": "=ISBLANK(A1)", "C2": "=ISBLANK(A2)", "C3": "=ISREF(A1)",
                     "C4": "=ISFORMULA(C1)", "C5": "=ISFORMULA(A2)"}, {"A2": 3.0})
    assert [book.value("S", r, 3) for r in range(1, 6)] == [True, False, True, True, False]


@given(st.integers(-10 ** 6, 10 ** 6))
def test_iseven_and_isodd_split_the_integers(n: int) -> None:
    even, odd = value(f"=ISEVEN({n})"), value(f"=ISODD({n})")
    assert even is (n % 2 == 0) and odd is (not even)
