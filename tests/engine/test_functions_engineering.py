"""Excel's complex-number, Bessel and CONVERT functions and BASE, SERIESSUM, MUNIT,
ECMA.CEILING, ERF.PRECISE, ERFC.PRECISE in the headless evaluator.

Each case is a formula the evaluator compiles and computes, against the value Microsoft's
support page shows (support.microsoft.com/office/<name>-function-…, the page named in the
comment above each group); a number shown rounded is compared at the digits shown. Then
Excel's rules for complex numbers as text, CONVERT's prefixes, and properties that hold
for any input (hypothesis).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xlrecalc.functions_complex import parse_complex
from xlrecalc.functions_units import UNITS
from xlrecalc.values import XlErr
from test_functions import check, column, evaluate, value

NUM, VALUE, NA, DIV0 = XlErr("#NUM!"), XlErr("#VALUE!"), XlErr("#N/A"), XlErr("#DIV/0!")

DOCUMENTED = [
    # COMPLEX function
    ("=COMPLEX(3,4)", "3+4i", None), ('=COMPLEX(3,4,"j")', "3+4j", None),
    ("=COMPLEX(0,1)", "i", None), ("=COMPLEX(1,0)", "1", None),
    # IMABS, IMAGINARY, IMREAL, IMARGUMENT, IMCONJUGATE functions
    ('=IMABS("5+12i")', 13.0, None), ('=IMAGINARY("3+4i")', 4.0, None),
    ('=IMAGINARY("0-j")', -1.0, None), ("=IMAGINARY(4)", 0.0, None),
    ('=IMREAL("6-9i")', 6.0, None), ('=IMARGUMENT("3+4i")', 0.92729522, 8),
    ('=IMCONJUGATE("3+4i")', "3-4i", None),
    # IMCOS, IMCOSH, IMCOT, IMCSC, IMCSCH functions
    ('=IMCOS("1+i")', "0.833730025131149-0.988897705762865i", None),
    ('=IMCOSH("4+3i")', "-27.0349456030742+3.85115333481178i", None),
    ('=IMCOT("4+3i")', "0.00490118239430447-0.999266927805902i", None),
    ('=IMCSC("4+3i")', "-0.0754898329158637+0.0648774713706355i", None),
    ('=IMCSCH("4+3i")', "-0.036275889628626-0.0051744731840194i", None),
    # IMDIV, IMEXP, IMLN, IMLOG10, IMLOG2, IMPOWER functions
    ('=IMDIV("-238+240i","10+24i")', "5+12i", None),
    ('=IMEXP("1+i")', "1.46869393991589+2.28735528717884i", None),
    ('=IMLN("3+4i")', "1.6094379124341+0.927295218001612i", None),
    ('=IMLOG10("3+4i")', "0.698970004336019+0.402719196273373i", None),
    ('=IMLOG2("3+4i")', "2.32192809488736+1.33780421245098i", None),
    ('=IMPOWER("2+3i",3)', "-46+9.00000000000001i", None),
    # IMPRODUCT, IMSUB, IMSUM functions
    ('=IMPRODUCT("3+4i","5-3i")', "27+11i", None), ('=IMPRODUCT("1+2i",30)', "30+60i", None),
    ('=IMSUB("13+4i","5+3i")', "8+i", None), ('=IMSUM("3+4i","5-3i")', "8+i", None),
    # IMSEC, IMSECH, IMSIN, IMSINH, IMSQRT, IMTAN functions
    ('=IMSEC("4+3i")', "-0.0652940278579471-0.0752249603027732i", None),
    ('=IMSECH("4+3i")', "-0.0362534969158689-0.00516434460775318i", None),
    ('=IMSIN("4+3i")', "-7.61923172032141-6.548120040911i", None),
    ('=IMSINH("4+3i")', "-27.0168132580039+3.85373803791938i", None),
    ('=IMSQRT("1+i")', "1.09868411346781+0.455089860562227i", None),
    ('=IMTAN("4+3i")', "0.00490825806749606+1.00070953606723i", None),
    # BESSELI, BESSELJ, BESSELK, BESSELY functions: Excel's own approximations, whose
    # digits Microsoft shows (the true J2(1.9) is 0.3299257277)
    ("=BESSELI(1.5,1)", 0.981666428, 9), ("=BESSELJ(1.9,2)", 0.329925829, 9),
    ("=BESSELK(1.5,1)", 0.277387804, 9), ("=BESSELY(2.5,1)", 0.145918138, 9),
    # CONVERT function
    ('=CONVERT(1,"lbm","kg")', 0.4535924, 7), ('=CONVERT(68,"F","C")', 20.0, None),
    ('=CONVERT(2.5,"ft","sec")', NA, None),
    ('=CONVERT(CONVERT(100,"ft","m"),"ft","m")', 9.290304, 6),
    # BASE function
    ("=BASE(7,2)", "111", None), ("=BASE(100,16)", "64", None),
    ("=BASE(15,2,10)", "0000001111", None),
    # ERF.PRECISE, ERFC.PRECISE functions
    ("=ERF.PRECISE(0.745)", 0.707929, 6), ("=ERF.PRECISE(1)", 0.84270079, 8),
    ("=ERFC.PRECISE(1)", 0.15729921, 8),
    # ECMA.CEILING: Microsoft documents no example; these are ECMA-376 Part 1's examples of
    # CEILING, the definition ECMA.CEILING implements (away from zero, #NUM! across signs)
    ("=ECMA.CEILING(2.5,1)", 3.0, None), ("=ECMA.CEILING(-2.5,-2)", -4.0, None),
    ("=ECMA.CEILING(1.5,0.1)", 1.5, None), ("=ECMA.CEILING(0.234,0.01)", 0.24, None),
    ("=ECMA.CEILING(-2.5,2)", NUM, None),
]


@pytest.mark.parametrize("formula, expected, digits", DOCUMENTED, ids=[c[0] for c in DOCUMENTED])
def test_documented_example(formula: str, expected: Any, digits: int | None) -> None:
    check(value(formula), expected, digits)


def test_seriessum_approximates_the_cosine() -> None:
    # SERIESSUM function: the first terms of the cosine's series at pi/4, in A3:A6
    cells = {"A2": "=PI()/4", "Z99": "=SERIESSUM(A2,0,2,A3:A6)"}
    book = evaluate(cells, column([1, -0.5, 0.041666667, -0.001388889], first=3))
    check(book.value("S", 99, 26), 0.707103, 6)


def test_munit_is_the_identity_matrix() -> None:
    # MUNIT function: =MUNIT(3) entered as an array formula
    book = evaluate({}, arrays={"A1:C3": "=MUNIT(3)"})
    assert [[book.value("S", r, c) for c in (1, 2, 3)] for r in (1, 2, 3)] == \
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    check(value("=MUNIT(0)"), VALUE)


# -- Excel's text form of complex numbers -----------------------------------------------
@pytest.mark.parametrize("formula, expected", [
    ('=IMCONJUGATE("3+4j")', "3-4j"),      # the suffix of the argument is kept
    ('=IMSUM("i","-i","2j")', VALUE),      # i and j in one call
    ('=IMSUB("1+i","1+j")', NUM), ('=IMDIV("1+i","1+j")', NUM),
    ('=IMSUM("2j","-j")', "j"),
    ('=IMREAL("3 + 4i")', NUM),            # no spaces, capital I or doubled signs
    ('=IMREAL("3+4I")', NUM), ('=IMREAL("3++4i")', NUM), ('=IMREAL("i3")', NUM),
    ('=IMABS(TRUE)', VALUE),               # a logical is not a complex number
    ('=IMAGINARY("-i")', -1.0), ('=IMAGINARY("1.5E2-2.5e-1j")', -0.25),
    ('=IMREAL("1.5E2-2.5e-1j")', 150.0), ('=COMPLEX(1,-1)', "1-i"),
    ('=COMPLEX(1,2,"k")', VALUE), ('=COMPLEX(1,2,"I")', VALUE), ('=COMPLEX("a",1)', VALUE),
    # 15 significant digits; plain decimals down to 1E-5, 1.5E-08 style further out, as in
    # the results of Excel's complex functions that pages of examples show
    ("=COMPLEX(0,0)", "0"), ("=COMPLEX(1E-20,-3E+20)", "1E-20-3E+20i"),
    ("=COMPLEX(0.00001,123456789012.345)", "0.00001+123456789012.345i"),
    ("=COMPLEX(1/3,2/3)", "0.333333333333333+0.666666666666667i"),
    # at a pole or a branch point Excel gives an error, not a number
    ('=IMARGUMENT("0")', DIV0), ('=IMLN(0)', NUM), ('=IMDIV("1+i",0)', NUM),
    ('=IMPOWER(0,-1)', NUM), ('=IMPOWER("i","x")', VALUE), ('=IMCOT(0)', NUM),
    # ECMA-376 Part 1's examples of IMPRODUCT and IMPOWER (the standard writes 6.348…E-003)
    ('=IMPRODUCT("1.3-2j","-3.4+3j","2.3-6j")', "67.834+15.13j"),
    ('=IMPRODUCT("-3-3.5i","5+3i")', "-4.5-26.5i"),
    ('=IMPOWER("2.3+4.5i",2.5)', "-52.9752689709953+22.138528463954i"),
    ('=IMPOWER("-1-4j",-3.56)', "0.00634818926783845+0.00116156377299512j"),
])
def test_complex_numbers_as_excel_writes_them(formula: str, expected: Any) -> None:
    check(value(formula), expected)


def test_imsum_and_improduct_take_ranges_and_arrays() -> None:
    values = column(["1+i", "2-3i", 4.0])
    book = evaluate({"C1": "=IMSUM(A2:A4)", "C2": "=IMPRODUCT(A2:A4)",
                     "C3": '=IMSUM({"1+i","2"},A2)', "C4": "=IMSUM(A2:A5,B2)",
                     "C5": "=IMPRODUCT(A2:A5)"}, values)
    assert book.value("S", 1, 3) == "7-2i"
    assert book.value("S", 2, 3) == "20-4i"  # (1+i)(2-3i)4
    assert book.value("S", 3, 3) == "4+2i"
    assert book.value("S", 4, 3) == "7-2i"   # blank cells are 0
    assert book.value("S", 5, 3) == "0"


def test_scalar_engineering_functions_refuse_ranges() -> None:
    # as Excel's engineering functions do: no implicit intersection, and #VALUE! for a
    # range of several cells even in an array formula; an array is taken element-wise
    values = {**column(["3+4i", "5-12i"]), **column([1.5, 2.5], "B")}
    book = evaluate({"D2": "=IMABS(A2:A3)", "D3": "=IMABS(A2)", "D4": '=CONVERT(B2:B3,"m","cm")',
                     "D5": "=SUM(IMABS(A2:A3))"}, values,
                    {"E2:E3": "=IMABS(A2:A3)", "F2:F3": '=IMABS({"3+4i";"5-12i"})',
                     "G2:G3": "=BESSELJ(B2:B3,1)"})
    assert [book.value("S", r, 4) for r in (2, 3, 4, 5)] == [VALUE, 5.0, VALUE, VALUE]
    assert [book.value("S", r, 5) for r in (2, 3)] == [VALUE, VALUE]
    assert [book.value("S", r, 6) for r in (2, 3)] == [5.0, 13.0]
    assert [book.value("S", r, 7) for r in (2, 3)] == [VALUE, VALUE]


# Values Excel (Excel for Mac) computed and cached in an Excel-saved workbook: the test
# workbook of the formulas project (test/test_files/test.xlsx, sheets ENGINEERING, EXTRA
# and CORE), which converts 1 of every unit, with every prefix, to its quantity's base
EXCEL_COMPUTED = [
    ('=CONVERT(1,"e","J")', 1e-7), ('=CONVERT(1,"c","J")', 4.184), ('=CONVERT(1,"cal","J")', 4.1868),
    ('=CONVERT(1,"flb","J")', 1.3558179483314003), ('=CONVERT(1,"HPh","J")', 2684519.537696173),
    ('=CONVERT(1,"eV","J")', 1.602176487e-19), ('=CONVERT(1,"lbf","N")', 4.4482216152605005),
    ('=CONVERT(1,"parsec","km")', 30856775812815.53), ('=CONVERT(1,"kn","m/hr")', 1852.0000000000002),
    ('=CONVERT(1,"Pang3","L")', 1e18), ('=CONVERT(1,"km2","m2")', 1e6), ('=CONVERT(1,"kar","m2")', 1e5),
    ('=CONVERT(1,"pc","J")', 4.184e-12),   # picocalorie: the reading that matches joules
    ('=CONVERT(1,"kmph","m/hr")', 1609344.0), ('=CONVERT(1,"kly","Ym")', 9.460730472580799e-06),
    ('=CONVERT(1,"mK","K")', 0.001), ('=CONVERT(1,"Rank","K")', 0.5555555555555556),
    ('=CONVERT(1,"F","K")', 255.92777777777775), ('=CONVERT(255.92777777777775,"K","F")', 0.9999999999999893),
    ('=CONVERT(13,"C","F")', 55.400000000000006), ('=CONVERT(1,"Reau","K")', 274.4),
    ('=CONVERT(1,"kpsi","Pa")', NA), ('=CONVERT(1,"kTorr","Pa")', NA), ('=CONVERT(1,"kha","m2")', NA),
    ('=CONVERT(1,"mC","K")', NA), ('=CONVERT(TRUE,"C","F")', VALUE),
    ('=IMDIV("3.1+2j","-3+2i")', NUM), ('=IMSUB("3.1+2j","-3+2i")', NUM),
    ('=IMSUM("13+5j","3.1+2j","-3+2i")', VALUE), ('=IMPRODUCT("3.1+2j","-3+2i")', VALUE),
    ('=IMCSCH("3.1+2j")', "-0.0373189117262454-0.0818749558100934j"),
    ('=IMCSCH("13+5j")', "1.28233995888454E-06+4.33496947416312E-06j"),
    ('=IMSINH("-3+2i")', "4.16890695996656+9.15449914691143i"),
    ('=IMSQRT("-3+2i")', "0.550250522700337+1.81735402102397i"),
    ('=IMDIV("7+25j","13+5j")', "1.11340206185567+1.49484536082474j"),
    ('=IMPRODUCT("7+25j","13+5j","3.1+2j")', "-825.4+1048j"), ('=IMABS("yvj")', NUM),
    ('=IMABS(TRUE)', VALUE), ('=ERF.PRECISE(TRUE)', VALUE), ('=ERFC.PRECISE("3.2")', 6.025761151762083e-06),
    ('=BESSELI(0,10000000)', 0.0), ('=BESSELI(10000000,2.3)', NUM), ('=BESSELI(2.3,2)', 1.0054316669125958),
    ('=BESSELI("3.2",2)', 2.7882984611029293), ('=BESSELI(-1,0)', 1.2660658480342601),
    ('=BESSELI("3.3",2)', 3.102655357791815), ('=BESSELI("3.5",2)', 3.83201207162936),
    ('=BESSELJ(2.3,2)', 0.41391458970875217), ('=BESSELJ(-1,0)', 0.7651976837548592),
    ('=BESSELJ(10000000,2)', 8.683739567294922e-05),  # the true J2(1E7) is 8.6837396e-05
    ('=BESSELY(10000000,2)', -0.00023689922733673244), ('=BESSELK(2.3,2)', 0.1617333633782021),
    ('=BESSELK(0,2)', NUM), ('=BESSELY(-1,0)', NUM), ('=BESSELJ(2,-1)', NUM),
    ("=SUM(MUNIT({1,2;3,4;7,8}))", 6.0), ("=SUM(MUNIT({1,#NUM!;3,4;7,8}))", NUM),
]


@pytest.mark.parametrize("formula, expected", EXCEL_COMPUTED, ids=[c[0] for c in EXCEL_COMPUTED])
def test_value_excel_computed(formula: str, expected: Any) -> None:
    found = value(formula)
    if isinstance(expected, float):
        assert math.isclose(found, expected, rel_tol=1e-15), found
    else:
        check(found, expected)


def test_convert_prefixes_and_units() -> None:
    assert value('=CONVERT(1,"km","m")') == 1000.0
    assert value('=CONVERT(100,"hl","dal")') == 1000.0             # two-letter prefix da
    assert value('=CONVERT(1,"Gibyte","Mibyte")') == 1024.0          # binary prefixes
    assert value('=CONVERT(1,"kbyte","byte")') == 1000.0
    assert value('=CONVERT(1,"mi","ft")') == pytest.approx(5280.0, rel=1e-15)
    assert value('=CONVERT(1,"yr","day")') == 365.25
    assert value('=CONVERT(0,"C","F")') == 32.0 and value('=CONVERT(100,"C","K")') == 373.15
    assert value('=CONVERT(1,"m^2","ft2")') == pytest.approx(10.7639104167097, rel=1e-14)
    for unknown in ('"kft","m"', '"kim","m"', '"Kg","g"', '"g","sec"', '"C","m"', '"m",1', '"kC","C"'):
        check(value(f"=CONVERT(1,{unknown})"), NA)  # no such unit or prefix, or a mismatch
    check(value('=CONVERT("x","m","ft")'), VALUE)


# -- properties ----------------------------------------------------------------------------
_parts = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False).map(lambda x: round(x, 3))


def _complex_of(text: Any) -> complex:
    parsed = parse_complex(text)
    assert not isinstance(parsed, XlErr), text
    return parsed.value


@settings(max_examples=100, deadline=None)
@given(_parts, _parts, _parts, _parts)
def test_dividing_a_product_gives_the_factor_back(a: float, b: float, c: float, d: float) -> None:
    assume(abs(complex(c, d)) > 1e-2)
    found = value(f'=IMDIV(IMPRODUCT(COMPLEX({a},{b}),COMPLEX({c},{d})),COMPLEX({c},{d}))')
    assert abs(_complex_of(found) - complex(a, b)) <= 1e-9 * max(1.0, abs(complex(a, b)))


@settings(max_examples=100, deadline=None)
@given(_parts, _parts)
def test_complex_text_reads_back_as_its_parts(a: float, b: float) -> None:
    written = value(f"=COMPLEX({a},{b})")
    assert value(f'=IMREAL("{written}")') == a and value(f'=IMAGINARY("{written}")') == b


_QUANTITIES: dict[str, list[str]] = {}
for _name, (_quantity, *_rest) in UNITS.items():
    _QUANTITIES.setdefault(_quantity, []).append(_name)


@st.composite
def _unit_pairs(draw: st.DrawFn) -> tuple[str, str]:
    quantity = draw(st.sampled_from(sorted(_QUANTITIES)))
    return draw(st.sampled_from(_QUANTITIES[quantity])), draw(st.sampled_from(_QUANTITIES[quantity]))


@settings(max_examples=150, deadline=None)
@given(_unit_pairs(), st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
       st.sampled_from(["", "k", "m", "da"]))
def test_convert_there_and_back(units: tuple[str, str], x: float, prefix: str) -> None:
    source, target = units
    if prefix and UNITS[source][2]:
        source = prefix + source
    back = value(f'=CONVERT(CONVERT({x!r},"{source}","{target}"),"{target}","{source}")')
    assert math.isclose(back, x, rel_tol=1e-12, abs_tol=1e-300), (source, target)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 53 - 1), st.integers(2, 36))
def test_base_and_decimal_undo_each_other(n: int, radix: int) -> None:
    assert value(f"=DECIMAL(BASE({n},{radix}),{radix})") == float(n)
