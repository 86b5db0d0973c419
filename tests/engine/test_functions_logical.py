"""The logical functions (xlrecalc.functions.logical): Microsoft's documented examples
(support.microsoft.com/office/<name>-function-…), then properties for any input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_functions import NA, VALUE, check, value

from xlrecalc.values import XlErr


# IFS function: a score in A2 graded =IFS(A2>89,"A",A2>79,"B",A2>69,"C",A2>59,"D",TRUE,"F")
@pytest.mark.parametrize("score, grade", [(93, "A"), (89, "B"), (79, "C"), (60, "D"), (58, "F")])
def test_ifs_grades_as_documented(score: int, grade: str) -> None:
    check(value('=IFS(A2>89,"A",A2>79,"B",A2>69,"C",A2>59,"D",TRUE,"F")', {"A2": float(score)}),
          grade)


@pytest.mark.parametrize("formula, expected", [
    ('=IFS(1>2,"x")', NA),                                  # no condition true: #N/A
    ('=SWITCH(7,1,"one",2,"two")', NA),                     # no case and no default: #N/A
    ('=SWITCH(2,1,"one",2,"two","other")', "two"),
    ('=SWITCH(9,1,"one",2,"two","other")', "other"),
    ("=IFERROR(1/0,\"none\")", "none"), ("=IFNA(NA(),5)", 5.0), ("=IFNA(1/0,5)", XlErr("#DIV/0!")),
    ("=IF(TRUE,1)", 1.0), ("=IF(FALSE,1)", False), ('=IF("x",1,2)', VALUE),
    ("=NOT(0)", True), ("=AND(TRUE,1)", True), ("=OR(FALSE,0)", False),
    ("=XOR(TRUE,TRUE,TRUE)", True), ("=TRUE()", True), ("=FALSE()", False),
])
def test_logical_functions(formula: str, expected: object) -> None:
    check(value(formula), expected)


@given(st.booleans(), st.integers(-50, 50), st.integers(-50, 50))
def test_if_picks_its_branch_and_not_undoes_itself(flag: bool, a: int, b: int) -> None:
    cells = {"A1": flag, "A2": float(a), "A3": float(b)}
    assert value("=IF(A1,A2,A3)", cells) == float(a if flag else b)
    assert value("=NOT(NOT(A1))", cells) is flag


@given(st.lists(st.booleans(), min_size=1, max_size=8))
def test_and_or_xor_agree_with_python(flags: list[bool]) -> None:
    args = ",".join("TRUE" if f else "FALSE" for f in flags)
    assert value(f"=AND({args})") is all(flags)
    assert value(f"=OR({args})") is any(flags)
    assert value(f"=XOR({args})") is (sum(flags) % 2 == 1)


@given(st.integers(1, 5))
def test_switch_agrees_with_nested_ifs(x: int) -> None:
    switch = value(f'=SWITCH({x},1,"a",2,"b",3,"c","z")')
    nested = value(f'=IF({x}=1,"a",IF({x}=2,"b",IF({x}=3,"c","z")))')
    assert switch == nested
