"""The compiler's shortcuts give what the general path gives, on generated formulas.

The compiler takes common cases a short way (a comparison with a constant, ``--(range)``,
a call written twice computed once, IF, AND and OR of logicals, NOT of a logical, MATCH
in an array constant, ISTEXT(A1), INDEX with its row in a cell or the cell it picks read
as an operand, a one-cell argument read straight away). Each formula generated here,
over cells holding every kind of value Excel distinguishes (numbers, numbers equal at 15
digits, texts that read as numbers or not, logicals, blanks, errors), is evaluated with
the shortcuts and with ``compile.SHORTCUTS`` off, and the two values must be the same:
the same number, text or logical, or an error of the same code.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlrecalc import compile as compiler
from xlrecalc.engine import Book, evaluate_book
from xlrecalc.values import XlErr

VALUES = [0.0, 1.0, -2.5, 3.0, 0.1 + 0.2, 0.3, 1e15, "", "a", "A", "1", " 2 ", "TRUE", "x y",
          True, False, None, XlErr("#N/A"), XlErr("#DIV/0!")]
CELLS = [f"{c}{r}" for c in "ABC" for r in (1, 2, 3)]
COMPARISONS = ["=", "<>", "<", ">", "<=", ">="]


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    return '"' + value.replace('"', '""') + '"'


literals = st.sampled_from([0.0, 1.0, 2.0, -1.0, 0.3, "", "a", "1", True, False]).map(_literal)
references = st.sampled_from(CELLS)
ranges = st.sampled_from(["A1:A3", "A1:C1", "B1:B3", "A1:C3"])


def formulas() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(inner, inner)
        return st.one_of(
            st.builds(lambda a, op, b: f"{a}{op}{b}", inner, st.sampled_from(COMPARISONS),
                      st.one_of(literals, references)),
            st.builds(lambda ab, op: f"({ab[0]}{op}{ab[1]})", pair, st.sampled_from("+-*/&")),
            st.builds(lambda a: f"-{a}", inner),
            st.builds(lambda c, a, b: f"IF({c},{a},{b})", inner, inner, inner),
            st.builds(lambda c, a: f"IF({c},{a})", inner, inner),
            st.builds(lambda ab, f: f"{f}({ab[0]},{ab[1]})", pair, st.sampled_from(["AND", "OR"])),
            st.builds(lambda r, f: f"{f}({r})", references,
                      st.sampled_from(["ISTEXT", "ISNUMBER", "ISBLANK", "ISLOGICAL", "ISERROR",
                                       "ISNA", "ISNONTEXT"])),
            st.builds(lambda a, f: f"{f}({a})", inner, st.sampled_from(["LEN", "TRIM", "ABS", "N", "NOT"])),
            st.builds(lambda a, n: f"LEFT({a},{n})", inner, st.sampled_from(["1", "2", "B1"])),
            st.builds(lambda rg, op, v: f"SUMPRODUCT(--({rg}{op}{v}))", ranges,
                      st.sampled_from(COMPARISONS), st.one_of(literals, references)),
            st.builds(lambda v, rg: f"IF(ISNA(MATCH({v},{rg},0)),0,MATCH({v},{rg},0))",
                      st.one_of(literals, references), st.sampled_from(["A1:A3", "B1:B3"])),
            st.builds(lambda r, c: f"INDEX(A1:C3,{r},{c})", st.sampled_from(["1", "2", "A1", "B2"]),
                      st.sampled_from(["1", "3", "C1"])),
            st.builds(lambda rg, r: f"INDEX({rg},{r})", ranges,
                      st.sampled_from(["1", "2", "3", "0", "4", "A1", "B2", "-1"])),
            st.builds(lambda v, a: f"MATCH({v},{a},0)", st.one_of(literals, references),
                      st.sampled_from(['{1,"a",TRUE,0.3,"1",""}', '{"x";"A";2;FALSE}', '{1,2;3,4}'])),
            st.builds(lambda rg: f"SUM({rg})", ranges),
        )
    return st.recursive(st.one_of(literals, references), extend, max_leaves=6)


def _evaluate(values: dict[str, Any], formula: str, where: str, shortcuts: bool) -> Any:
    compiler.SHORTCUTS = shortcuts
    try:
        book = Book({})
        book.add_sheet("S")
        for address, value in values.items():
            if value is not None:
                book.set_value("S", int(address[1:]), "ABC".index(address[0]) + 1, value)
        row, col = int(where[1:]), "ABCDEFG".index(where[0]) + 1
        book.add_formula("S", row, col, "=" + formula)
        evaluate_book(book)
        return book.cells["S"][(row, col)]
    finally:
        compiler.SHORTCUTS = True


def _same(fast: Any, general: Any) -> bool:
    if isinstance(fast, XlErr) or isinstance(general, XlErr):
        return isinstance(fast, XlErr) and isinstance(general, XlErr) and fast.code == general.code
    return type(fast) is type(general) and fast == general


@given(st.lists(st.sampled_from(VALUES), min_size=9, max_size=9), formulas(),
       st.sampled_from(["E1", "E2", "E3", "F2"]))
def test_the_shortcuts_give_what_the_general_path_gives(values: list[Any], formula: str,
                                                        where: str) -> None:
    cells = dict(zip(CELLS, values))
    fast = _evaluate(cells, formula, where, True)
    general = _evaluate(cells, formula, where, False)
    assert _same(fast, general), (formula, fast, general)


@pytest.mark.parametrize("formula", ['IF(A1="","",A1*2)', "SUMPRODUCT(--(A1:A3>0))",
                                     'IF(ISNA(MATCH("a",A1:A3,0)),0,MATCH("a",A1:A3,0))',
                                     "AND(A1>0,B1<2)", "ISTEXT(A2)", "INDEX(A1:C3,B1,1)",
                                     "NOT(ISNUMBER(A1))", "NOT(B2)", "NOT(A1:A3)", "NOT(C1)",
                                     "NOT({1,0})", "NOT(ISTEXT(C1))",
                                     'MATCH(A1,{1,"a",TRUE,"A",1},0)', 'MATCH(A2,{"b";"A";"a"},0)',
                                     'MATCH(B2,{1,TRUE},0)', 'MATCH(A3,{0,""},0)', 'MATCH(C1,{1},0)',
                                     'MATCH("a*",{"b","ab"},0)', 'MATCH(B3,{"1",1},0)',
                                     'MATCH(A1:A3,{1,"a"},0)'])
def test_each_shortcut_is_taken_and_can_be_turned_off(formula: str) -> None:
    # the formulas the templates write most, over a column of mixed values: the same
    # values both ways (and the generated formulas above cover their other forms)
    cells = dict(zip(CELLS, [1.0, "a", None, 2.0, True, "1", XlErr("#N/A"), 0.0, ""]))
    assert _same(_evaluate(cells, formula, "E2", True), _evaluate(cells, formula, "E2", False))


@pytest.mark.parametrize("use", ["{}", '{}&"x"', "{}=1", 'IF({}="","e",1)', "ISTEXT({})", "TRIM({})",
                                 "INDEX(A1:A3,{})", "-{}", "{}:C3"])
def test_index_as_an_operand_reads_the_cell_it_picks(use: str) -> None:
    # INDEX(range,row) read as an operand takes the cell it picks at once: every range
    # shape, row in and out of it, given as a number or a cell of any kind, in each use
    cells = dict(zip(CELLS, [1.0, "a", None, 2.0, True, "1", XlErr("#N/A"), 3.0, ""]))
    for rg in ["A1:A3", "B1:B3", "A1:C1", "A1:C3", "$C$1:$C$3"]:
        for row in ["1", "2", "3", "0", "4", "-1", "2.7", "A1", "A2", "B1", "B2", "C1", "C2"]:
            formula = use.format(f"INDEX({rg},{row})")
            for where in ("E1", "E2"):
                fast, general = (_evaluate(cells, formula, where, True),
                                 _evaluate(cells, formula, where, False))
                assert _same(fast, general), (formula, where, fast, general)
