"""The functions of a director's columns where Excel's cached values showed the engine
wrong (Apache POI's test workbooks, ``tests/data/conformance/poi/``): XLOOKUP's binary
search, LARGE of a value typed as its argument, a criterion given as a range outside an
array formula."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_functions import check, evaluate, value

from xlrecalc.values import XlErr


def test_xlookup_binary_search_as_excel_saved_it() -> None:
    # poi/xlookup.xlsx, Sheet2: tax brackets with text in two rows; Excel cached 0.22 and 0.24
    rates = [0.1, 0.22, 0.24, 0.32, 0.35, 0.37]
    ascending = {**{f"B{2 + i}": r for i, r in enumerate(rates)},
                 **{f"C{2 + i}": v for i, v in enumerate([9700, "xyz", "xyz", 160726, 204100,
                                                           510300])}, "E2": 46523}
    check(value("=XLOOKUP(E2,C2:C7,B2:B7,0,1,2)", ascending), 0.22)
    descending = {**{f"B{2 + i}": r for i, r in enumerate(reversed(rates))},
                  **{f"C{2 + i}": v for i, v in enumerate([510300, 204100, 160726, 84200, 39475,
                                                            9700])}, "E2": 46523}
    check(value("=XLOOKUP(E2,C2:C7,B2:B7,0,1,-2)", descending), 0.24)


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=12, unique=True), st.integers(-60, 60),
       st.sampled_from([-1, 0, 1]))
def test_xlookup_binary_search_on_sorted_data_is_the_linear_answer(
        numbers: list[int], target: int, match_mode: int) -> None:
    numbers.sort()
    cells = {f"A{1 + i}": n for i, n in enumerate(numbers)} | {"B1": target}
    last = f"A{len(numbers)}"
    binary = value(f'=XLOOKUP(B1,A1:{last},A1:{last},"none",{match_mode},2)', cells)
    linear = value(f'=XLOOKUP(B1,A1:{last},A1:{last},"none",{match_mode},1)', cells)
    assert binary == linear


def test_large_of_a_value_typed_as_its_argument() -> None:
    # poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!G816:H816: Excel cached 1 and 2.3
    check(value("=LARGE(TRUE,1)"), 1.0)
    check(value('=LARGE("2.3",1)'), 2.3)
    check(value('=LARGE("x",1)'), XlErr("#VALUE!"))
    # in a range text and logicals are still skipped
    check(value("=LARGE(A1:A3,2)", {"A1": "abc", "A2": "9", "A3": 4}), XlErr("#NUM!"))


def test_a_criterion_range_is_the_cell_in_the_formulas_column() -> None:
    # poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!F296 =COUNTIF(G7:K7,E8:G8): the
    # criterion is F8 (Excel cached 2); the same in an array formula gives one per cell
    cells = {"G1": "a", "H1": "b", "I1": "a", "J1": "c", "K1": "a",
             "E2": "b", "F2": "a", "G2": "c"}
    book = evaluate({"F5": "=COUNTIF(G1:K1,E2:G2)", "F6": '=SUMIF(G1:K1,E2:G2,G3:K3)',
                     "C5": "=COUNTIF(G1:K1,E2:G2)",
                     "F7": "=COUNTIFS(G1:K1,E2:G2,G3:K3,\">1\")"},
                    cells | {"G3": 1, "H3": 2, "I3": 3, "J3": 4, "K3": 5},
                    arrays={"A9:C9": "=COUNTIF(G1:K1,E2:G2)"})
    assert book.value("S", 5, 6) == 3.0
    assert book.value("S", 6, 6) == 9.0
    assert book.value("S", 7, 6) == 2.0
    assert book.value("S", 5, 3) == 0.0  # column C meets E2:G2 nowhere: #VALUE!, no cell is
    assert [book.value("S", 9, c) for c in (1, 2, 3)] == [1.0, 3.0, 1.0]


def test_text_formats_as_excel_saved_them() -> None:
    # poi/FormatChoiceTests.xlsx: a single conditional section applies only to the values
    # it names; others are shown as General (Excel cached "10", "-11")
    check(value('=TEXT(9,"[<10]#"" Wow""")'), "9 Wow")
    check(value('=TEXT(10,"[<10]#"" Wow""")'), "10")
    check(value('=TEXT(-11,"[=-10]#"" Wow""")'), "-11")
    # poi/NumberFormatApproxTests.xlsx: the exponent's letter as written ("|1.2|e|5|")
    check(value('=TEXT(123456.789,"0.0e+0")'), "1.2e+5")
    check(value('=TEXT(123456.789,"0.0E+0")'), "1.2E+5")
    # sheetjs/formula_stress_test.xlsx, Text!B15: e is the year among date codes
    check(value('=TEXT(28313,"ee-mm-dd")'), "1977-07-07")


def test_text_thousands_separators_as_excel_saved_them() -> None:
    # poi/NumberFormatTests.xlsx, "Commas", "Scaling" and "Problems" rows, Excel's cached text
    check(value('=TEXT(1234567,"0,0000000")'), "01,234,567")
    check(value('=TEXT(1234567,"?,?????????")'), "    1,234,567")
    check(value('=TEXT(314159,"$000,000,000")'), "$000,314,159")
    check(value('=TEXT(1234567,",#")'), ",1234567")
    check(value('=TEXT(1234567,"0.#,")'), "1234.6")
    check(value('=TEXT(1234567,"#,.#,")'), "1.2")
    check(value('=TEXT(2527,"#,##0")'), "2,527")


@given(st.integers(-10**12, 10**12))
def test_text_grouping_is_pythons_grouping(n: int) -> None:
    assert value(f'=TEXT({n},"#,##0")') == f"{n:,}"


def test_text_elapsed_time_as_excel_saved_it() -> None:
    # poi/ElapsedFormatTests.xlsx, Excel's cached text for 3.14159 days
    check(value('=TEXT(3.14159,"[s].000")'), "271433.376")
    check(value('=TEXT(3.14159,"s:m"" @ hour ""[hh]")'), "53:23 @ hour 75")
    check(value('=TEXT(3.14159,"[s]"" [yes, ""ss""] seconds""")'), "271433 [yes, 271433] seconds")
    check(value('=TEXT(3.14159,"[h]:mm:ss")'), "75:23:53")


def test_text_scientific_formats_as_excel_saved_them() -> None:
    # poi/NumberFormatApproxTests.xlsx, Excel's cached text
    check(value('=TEXT(123456.789,"0000.0000e-0")'), "0012.3457e4")
    check(value('=TEXT(123456.789,"#,e-#")'), "1e5")
    check(value('=TEXT(123456.789,"#%e-#")'), "1%e5")
    check(value('=TEXT(0,"#,######.####e-#")'), "0,000,000.e0")
    check(value('=TEXT(1.2345678E+142,"#.#e+????")'), "1.2e+ 142")
    check(value('=TEXT(4.34,"0.00E+00")'), "4.34E+00")  # Microsoft's TEXT function page
