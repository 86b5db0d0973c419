"""Excel's semantics in the headless evaluator beyond single functions: text read as a
number by operators and functions, the 1904 date system, LAMBDA and its helpers, spill
references and the sheet functions.

Values come from Microsoft's support pages (named in a comment above each group,
support.microsoft.com/office/<title>-…), or are derived from what a page documents
where it shows no example (said so in the comment). Where LibreOffice shares Excel's
behaviour, a test recomputes the same formulas in LibreOffice headless (skipped when
``soffice`` is not installed).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from test_evaluator import SOFFICE, libreoffice_values
from test_functions import check, evaluate, value

from xlrecalc.values import XlErr

VALUE, NUM = XlErr("#VALUE!"), XlErr("#NUM!")

# -- 1. text read as a number ---------------------------------------------------------
# "Convert numbers stored as text to numbers" and "VALUE function": Excel reads text an
# operator or a function needs as a number the way it reads what is typed into a cell
# (en-US): separators, percent, currency, parentheses, exponent, dates and times. The
# serials of dates are DATE's ("DATE function": DATE(2024,1,15) is 45306 in the 1900
# system), those of times their fraction of a day ("TIME function").
TEXT_AS_NUMBER = [
    ('"1,000"', 1000.0), ('"50%"', 0.5), ('"$1,234.50"', 1234.5), ('" 12 "', 12.0),
    ('"1e3"', 1000.0), ('"(12)"', -12.0), ('"-$5"', -5.0), ('"($12)"', -12.0),
    ('"1.5e+2"', 150.0), ('"1 1/2"', 1.5),
    ('"2024-01-15"', 45306.0), ('"1/15/2024"', 45306.0), ('"15-Jan-2024"', 45306.0),
    ('"January 15, 2024"', 45306.0), ('"Jan 2024"', 45292.0),
    ('"13:30"', 0.5625), ('"1:30 PM"', 0.5625), ('"12:00:00"', 0.5), ('"25:00"', 25 / 24),
    ('"1/15/2024 13:30"', 45306.5625), ('"100:00"', 100 / 24), ('"5:30:15 PM"', 0.72934027777),
    ('"-1 1/2"', -1.5), ('"2024-1-5"', 45296.0), ('"Jan 15 2024"', 45306.0), ('"Sept 5, 2024"', 45540.0),
    ('"5 %"', 0.05), ('"(1,000)"', -1000.0), ('"1,000.5e2"', 100050.0), ('".5"', 0.5),
]
NOT_A_NUMBER = ['"abc"', '""', '"1,00"', '"10,00,000"', '"nan"', '"inf"', '"1_000"',
                '"\u0661\u0662"', '"-(5)"', '"13:30 PM"', '"2/30/2024"', '"TRUE"', '"1,2,3"',
                '"1.5.2024"', '"1e400"', '"12:60"', '"1/0"', '"(5%)"', '"0x10"', '"1 000"',
                '"31/12/2024"', '"1,0000"']


@pytest.mark.parametrize("text, expected", TEXT_AS_NUMBER)
def test_operators_read_text_as_excel_does(text: str, expected: float):
    check(value(f"={text}+0"), expected)
    check(value(f"=-{text}"), -expected)
    check(value(f"=VALUE({text})"), expected)  # VALUE reads with the same reader


@pytest.mark.parametrize("text", NOT_A_NUMBER)
def test_text_that_is_no_number_is_value_error(text: str):
    check(value(f"={text}+0"), VALUE)
    check(value(f"=VALUE({text})"), VALUE)


def test_dates_read_from_text_agree_with_date():
    for text in ("2024-01-15", "1/15/2024", "15-Jan-2024", "January 15, 2024", "1/15/24"):
        check(value(f'="{text}"-DATE(2024,1,15)'), 0.0)


def test_functions_read_numbers_from_text_and_cells():
    check(value('=SQRT("16")'), 4.0)
    check(value('=SQRT("1,600")'), 40.0)
    check(value('=SUM("1,000",1)'), 1001.0)  # direct arguments are coerced …
    check(value("=SUM(A1:A2)", {"A1": "1,000", "A2": 1}), 1.0)  # … text in ranges is not
    check(value("=A1*2", {"A1": "$1,234.50"}), 2469.0)
    check(value("=A1+A2", {"A1": "50%", "A2": "1:30 PM"}), 1.0625)


def test_comparison_never_coerces():
    check(value('="1"=1'), False)
    check(value('="1,000"=1000'), False)
    check(value('="a"<1'), False)  # text sorts after numbers
    check(value('=A1=1000', {"A1": "1,000"}), False)


def test_value_datevalue_timevalue_pages():
    # "VALUE function": =VALUE("$1,000") is 1000; VALUE("16:48:00")-VALUE("12:00:00") is 0.2
    check(value('=VALUE("$1,000")'), 1000.0)
    check(value('=VALUE("16:48:00")-VALUE("12:00:00")'), 0.2)
    # "DATEVALUE function": 8/22/2011 is 40777, 22-MAY-2011 40685, 2011/02/23 40597,
    # and 5-JUL the 5 July of the current year
    check(value('=DATEVALUE("8/22/2011")'), 40777.0)
    check(value('=DATEVALUE("22-MAY-2011")'), 40685.0)
    check(value('=DATEVALUE("2011/02/23")'), 40597.0)
    check(value('=DATEVALUE("5-JUL")-DATE(YEAR(TODAY()),7,5)'), 0.0)
    check(value('=DATEVALUE("8/22/2011 6:35 AM")'), 40777.0)  # the time is ignored
    check(value('=DATEVALUE("6:35 AM")'), VALUE)  # a time alone is no date
    # "TIMEVALUE function": "2:24 AM" is 0.1, "22-Aug-2011 6:35 AM" 0.274305556
    check(value('=TIMEVALUE("2:24 AM")'), 0.1)
    check(value('=TIMEVALUE("22-Aug-2011 6:35 AM")'), 0.274305556, 9)


LIBREOFFICE_TEXT = [f"={text}+0" for text, _ in TEXT_AS_NUMBER] + \
    [f"=VALUE({text})" for text, _ in TEXT_AS_NUMBER] + \
    ['=DATEVALUE("2024-01-15")', '=TIMEVALUE("1:30 PM")', '=SQRT("1,600")', '="1"=1',
     '="abc"+0', '=""+0', '=VALUE("1,00")', '=VALUE("10,00,000")', '=DATEVALUE("13:30")']


def _libreoffice_column(formulas: list[str], tmp: Path, epoch: Any = None) -> list[str]:
    wb = openpyxl.Workbook()
    if epoch is not None:
        wb.epoch = epoch
    for row, formula in enumerate(formulas, start=1):
        wb.active.cell(row, 1, formula)
    path = tmp / "book.xlsx"
    wb.save(path)
    return [row[0] for row in libreoffice_values(path, tmp)]


def _agrees(ours: Any, theirs: str) -> bool:
    if isinstance(ours, XlErr):  # LibreOffice writes #VALUE! from VALUE as Err:502
        return theirs in (ours.code, "Err:502")
    if isinstance(ours, bool):
        return theirs == str(ours).upper()
    return abs(ours - float(theirs)) <= 1e-9 * max(1.0, abs(ours))


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_text_as_number_agrees_with_libreoffice(tmp_path: Path):
    theirs = _libreoffice_column(LIBREOFFICE_TEXT, tmp_path)
    book = evaluate({f"A{i}": f for i, f in enumerate(LIBREOFFICE_TEXT, start=1)})
    for i, formula in enumerate(LIBREOFFICE_TEXT, start=1):
        ours = book.value("S", i, 1)
        assert _agrees(ours, theirs[i - 1]), (formula, ours, theirs[i - 1])


# -- 2. the 1904 date system ---------------------------------------------------------------
# "Date systems in Excel": in the 1904 system serial 0 is 1 January 1904, and 5 July 2011
# is 39267 (40729 in the 1900 system, 1462 days apart). ECMA-376 Part 1, §18.17.4.1 (date
# conversion for serial values) gives DATEVALUE's serials in both systems; Microsoft's
# KB 175753 ("The 1900 date system vs. the 1904 date system") DATE's failures before 1904.
DATE_1904 = [
    ("=DATE(2011,7,5)", 39267.0), ('=DATEVALUE("01-Jan-1904")', 0.0),
    ('=DATEVALUE("03-Feb-1910")', 2225.0), ('=DATEVALUE("01-Feb-2006")', 37287.0),
    ('=DATEVALUE("31-Dec-9999")', 2957003.0), ("=DATE(0,1,1)", NUM), ("=DATE(1,7,5)", NUM),
    ("=DATE(1902,8,12)", NUM), ("=DATE(4,3,31)", 90.0),
    # derived from serial 0 being Friday 1 January 1904 and 1904 a leap year (no 1900 bug)
    ("=YEAR(0)", 1904.0), ("=MONTH(0)", 1.0), ("=DAY(0)", 1.0), ("=WEEKDAY(0)", 6.0),
    ("=DAY(59)", 29.0), ("=MONTH(60)", 3.0), ("=DAY(60)", 1.0), ("=DATE(1904,3,1)", 60.0),
    ("=EDATE(0,1)", 31.0), ("=EOMONTH(0,1)", 59.0), ("=WEEKDAY(DATE(2011,7,5))", 3.0),
    ('=TEXT(0,"yyyy-mm-dd dddd")', "1904-01-01 Friday"),
    ('=TEXT(39267.75,"d mmm yyyy h:mm AM/PM")', "5 Jul 2011 6:00 PM"),
    ('="2024-01-15"+0', 43844.0), ('=DATEVALUE("1/1/1900")', VALUE),
    ("=YEAR(A1)", 2024.0), ("=A1", 43844.0), ("=A1-DATE(2024,1,15)", 0.0),
    # "NETWORKDAYS function": the same dates, the same 109 working days in either system
    ("=NETWORKDAYS(DATE(2012,10,1),DATE(2013,3,1),DATE(2012,11,22))", 109.0),
    ("=WORKDAY(DATE(2008,10,1),151)-DATE(2009,4,30)", 0.0),  # "WORKDAY function"
    ("=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),\"YD\")", 75.0),  # "DATEDIF function"
    ("=TODAY()-DATEVALUE(TEXT(TODAY(),\"yyyy-mm-dd\"))", 0.0),
]


def _book_1904(tmp: Path) -> Path:
    from openpyxl.utils.datetime import CALENDAR_MAC_1904
    wb = openpyxl.Workbook()
    wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws["A1"] = dt.datetime(2024, 1, 15)
    for row, (formula, _) in enumerate(DATE_1904, start=1):
        ws.cell(row, 2, formula).number_format = "0.000000"  # LibreOffice's csv: no dates
    path = tmp / "mac.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize("reader", ["xml", "openpyxl"])
def test_date1904_workbook(tmp_path: Path, reader: str):
    from xlrecalc import load_book, load_book_openpyxl
    from xlrecalc.engine import evaluate_book
    path = _book_1904(tmp_path)
    book = (load_book if reader == "xml" else load_book_openpyxl)(path, {})
    assert book.date1904
    evaluate_book(book)
    for row, (formula, expected) in enumerate(DATE_1904, start=1):
        found = book.value(book.sheet(None, "Sheet"), row, 2)
        try:
            check(found, expected)
        except AssertionError:
            raise AssertionError(f"{formula}: {found!r}, expected {expected!r}") from None


def test_date1904_today_and_now(tmp_path: Path):
    from xlrecalc import load_book
    from xlrecalc.engine import evaluate_book
    from openpyxl.utils.datetime import CALENDAR_MAC_1904
    wb = openpyxl.Workbook()
    wb.epoch = CALENDAR_MAC_1904
    wb.active["A1"], wb.active["A2"] = "=TODAY()", "=INT(NOW())"
    wb.save(tmp_path / "now.xlsx")
    book = load_book(tmp_path / "now.xlsx", {})
    evaluate_book(book)
    days = float((dt.date.today() - dt.date(1904, 1, 1)).days)
    assert book.value("Sheet", 1, 1) in (days, days + 1)  # midnight may pass
    assert book.value("Sheet", 2, 1) in (days, days + 1)


def test_date1900_is_kept_by_default():
    # "Date systems in Excel": 5 July 2011 is 40729 in the 1900 system; "DATE function"
    check(value("=DATE(2011,7,5)"), 40729.0)
    check(value("=DAY(60)"), 29.0)  # the 29 February 1900 the 1900 system counts
    check(value("=DATE(0,1,1)"), 1.0)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_date1904_agrees_with_libreoffice(tmp_path: Path):
    path = _book_1904(tmp_path)
    theirs = libreoffice_values(path, tmp_path)
    from xlrecalc import load_book
    from xlrecalc.engine import evaluate_book
    book = load_book(path, {})
    evaluate_book(book)
    differ = []
    for row, (formula, expected) in enumerate(DATE_1904, start=1):
        if "TEXT(" in formula or formula.startswith(("=DATE(0,", "=DATE(1,", "=DATE(4,")) \
                or isinstance(expected, XlErr):
            continue  # LibreOffice's own: day names by locale, years 0-99 as 19xx/20xx,
            # days before 1904 as negative serials where Excel refuses them
        ours = book.value("Sheet", row, 2)
        if not _agrees(ours, theirs[row - 1][1]):
            differ.append((formula, ours, theirs[row - 1][1]))
    assert not differ


# -- 3. LAMBDA and its helpers -------------------------------------------------------------
def _named(formulas: dict[str, str], names: dict[str, str],
           values: dict[str, Any] | None = None) -> Any:
    """A one-sheet book with workbook names defined before its formulas are evaluated."""
    from xlrecalc.engine import Book, evaluate_book
    from xlrecalc.parse import parse_ref
    book = Book({})
    book.add_sheet("S")
    for name, text in names.items():
        book.define_name(name, text)
    for address, v in (values or {}).items():
        ref = parse_ref(address)
        book.set_value("S", ref.r1, ref.c1, float(v) if isinstance(v, int) else v)
    for address, text in formulas.items():
        ref = parse_ref(address)
        book.add_formula("S", ref.r1, ref.c1, text)
    evaluate_book(book)
    return book


def _array(formula: str, shape: tuple[int, int], values: dict[str, Any] | None = None) -> list[list[Any]]:
    """An array formula's spilled values, ``shape`` rows by columns from K1."""
    last = f"{chr(ord('K') + shape[1] - 1)}{shape[0]}"
    book = evaluate({}, values, {f"K1:{last}": formula})
    return [[book.value("S", r, 11 + c) for c in range(shape[1])] for r in range(1, shape[0] + 1)]


def test_lambda_called_inline():
    # "LAMBDA function": =LAMBDA(number, number + 1)(1) returns 2
    check(value("=LAMBDA(number, number + 1)(1)"), 2.0)
    check(value("=LAMBDA(x,x+1)(2)"), 3.0)
    check(value("=LAMBDA(a,b,SQRT(a^2+b^2))(3,4)"), 5.0)
    check(value("=LAMBDA(42)()"), 42.0)  # no parameter
    check(value("=LAMBDA(r,SUM(r))(A1:A3)", {"A1": 1, "A2": 2, "A3": 3}), 6.0)  # a reference


def test_lambda_errors():
    # "LAMBDA function", errors: a wrong number of arguments is #VALUE!, a LAMBDA created
    # in a cell and never called #CALC!
    check(value("=LAMBDA(x,x+1)(1,2)"), VALUE)
    check(value("=LAMBDA(x,y,x+y)(1)"), VALUE)
    check(value("=LAMBDA(x,x+1)"), XlErr("#CALC!"))
    check(value("=MYFN", None), XlErr("#NAME?"))
    book = _named({"A1": "=MYFN", "A2": "=NOTFN(1)"}, {"MYFN": "LAMBDA(x,x)", "NOTFN": "5"})
    check(book.value("S", 1, 1), XlErr("#CALC!"))
    check(book.value("S", 2, 1), VALUE)  # a name that is no LAMBDA cannot be called


def test_lambda_through_defined_names():
    # "LAMBDA function", example 1: ToCelsius, =LAMBDA(temp, (5/9) * (Temp-32)) in the Name
    # Manager; 104, 86, 68, 50, 32 °F are 40, 30, 20, 10, 0 °C. Example 2: Hypotenuse,
    # =LAMBDA(a, b, SQRT((a^2+b^2))); the values follow from the formula.
    names = {"ToCelsius": "=LAMBDA(temp, (5/9) * (Temp-32))",
             "Hypotenuse": "=LAMBDA(a, b, SQRT((a^2+b^2)))",
             "PlusOne": "=_xlfn.LAMBDA(_xlpm.n,_xlpm.n+1)"}  # as a file stores it
    temperatures = [104, 86, 68, 50, 32]
    formulas = {f"B{i}": f"=ToCelsius(A{i})" for i in range(1, 6)}
    formulas.update({"C1": "=Hypotenuse(3,4)", "C2": "=Hypotenuse(6,8)",
                     "C3": "=Hypotenuse(10,24)", "C4": "=PlusOne(1)",
                     "C5": "=_xlfn.MAP({1,2},PlusOne)"})
    book = _named(formulas, names, {f"A{i}": t for i, t in enumerate(temperatures, start=1)})
    for i, celsius in enumerate([40.0, 30.0, 20.0, 10.0, 0.0], start=1):
        check(book.value("S", i, 2), celsius)
    for row, expected in enumerate([5.0, 10.0, 26.0, 2.0, 2.0], start=1):
        check(book.value("S", row, 3), expected)


def test_recursive_lambda_name():
    # "LAMBDA function": a LAMBDA may call itself by its name; too many recursive calls are
    # #NUM!. FACT's values for comparison ("FACT function": FACT(5) is 120).
    names = {"MYFACT": "=LAMBDA(n, IF(n<2, 1, n*MYFACT(n-1)))",
             "FOREVER": "=LAMBDA(n, FOREVER(n+1))"}
    book = _named({"A1": "=MYFACT(5)", "A2": "=MYFACT(10)-FACT(10)", "A3": "=FOREVER(1)"}, names)
    check(book.value("S", 1, 1), 120.0)
    check(book.value("S", 2, 1), 0.0)
    check(book.value("S", 3, 1), NUM)


def test_let_binds_lambdas():
    # "LET function" with a LAMBDA bound to a name; nested LETs keep their own values
    check(value("=LET(f,LAMBDA(x,x*2),f(3))"), 6.0)
    check(value("=LET(k,10,f,LAMBDA(x,x+k),f(1)+f(2))"), 23.0)
    check(value("=LET(a,LET(b,2,b*3),c,a+1,c*2)"), 14.0)
    check(value("=_xlfn.LET(_xlpm.x,2,_xlpm.x*_xlpm.x)"), 4.0)


def test_isomitted():
    # "ISOMITTED function", example 1 (in B1)
    formula = '=LAMBDA(x,y, IF(ISOMITTED(y),"Missing second argument",x+y))'
    check(value(formula + "(1,)"), "Missing second argument")
    check(value(formula + "(1,2)"), 3.0)
    check(value("=LAMBDA(x,y,ISOMITTED(x))(1,)"), False)


ONE_TO_SIX = {"A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6}


def test_map():
    # "MAP function", example 1: =MAP(A1:C2, LAMBDA(a, IF(a>4,a*a,a))) squares the values
    # above 4 (the page's data is a picture: 1 to 6 here, the results follow from the formula)
    assert _array("=MAP(A1:C2, LAMBDA(a, IF(a>4,a*a,a)))", (2, 3), ONE_TO_SIX) == \
        [[1.0, 2.0, 3.0], [4.0, 25.0, 36.0]]
    # example 2: two arrays in step, =MAP(TableA[Col1],TableA[Col2],LAMBDA(a,b,AND(a,b)))
    flags = {"A1": True, "A2": True, "A3": False, "B1": True, "B2": False, "B3": False}
    assert _array("=MAP(A1:A3,B1:B3,LAMBDA(a,b,AND(a,b)))", (3, 1), flags) == \
        [[True], [False], [False]]
    check(value("=SUM(MAP({1,2,3},LAMBDA(a,a+1)))"), 9.0)
    check(value("=MAP({1,2},LAMBDA(a,{1,2}))"), XlErr("#CALC!"))  # nested arrays
    check(value("=MAP({1,2},5)"), VALUE)


def test_reduce():
    # "REDUCE function", example 1: =REDUCE(, A1:C2, LAMBDA(a,b,a+b^2)), the sum of the
    # squares (of 1 to 6 here: 91); example 2, a PRODUCTIF: multiply values over 50; example 3
    # counts even values (their data are pictures: the results follow from the formulas)
    check(value("=REDUCE(, A1:C2, LAMBDA(a,b,a+b^2))", ONE_TO_SIX), 91.0)
    check(value("=REDUCE(1,{20;60;70;5},LAMBDA(a,b,IF(b>50,a*b,a)))"), 4200.0)
    check(value("=REDUCE(0,{24,100,97,12,37},LAMBDA(a,n,IF(ISEVEN(n),1+a,a)))"), 3.0)
    check(value("=REDUCE(0,{1,2},LAMBDA(a,a))"), VALUE)  # one parameter too few


def test_scan():
    # "SCAN function", example 1: =SCAN("",A1:C2,LAMBDA(a,b,a&b)) runs the letters a to f
    # together; example 2: =SCAN(1,A1:C3,LAMBDA(a,b,a*b)), the factorials of 1 to 9
    letters = {f"{c}{r}": ch for (r, c), ch in zip([(1, "A"), (1, "B"), (1, "C"), (2, "A"),
                                                    (2, "B"), (2, "C")], "abcdef")}
    assert _array('=SCAN("",A1:C2,LAMBDA(a,b,a&b))', (2, 3), letters) == \
        [["a", "ab", "abc"], ["abcd", "abcde", "abcdef"]]
    nine = {f"{c}{r}": 3 * (r - 1) + i + 1 for r in (1, 2, 3) for i, c in enumerate("ABC")}
    assert _array("=SCAN(1,A1:C3,LAMBDA(a,b,a*b))", (3, 3), nine) == \
        [[1.0, 2.0, 6.0], [24.0, 120.0, 720.0], [5040.0, 40320.0, 362880.0]]


def test_byrow_bycol():
    # "BYROW function": =BYROW(A1:C2, LAMBDA(array, MAX(array))) the largest of each row;
    # =BYROW(A1:C2,LAMBDA(array,SUMSQ(array))) the sum of squares. "BYCOL function" alike by
    # column (the pages' data are pictures: 1 to 6 here, the results follow from the formulas)
    assert _array("=BYROW(A1:C2, LAMBDA(array, MAX(array)))", (2, 1), ONE_TO_SIX) == [[3.0], [6.0]]
    assert _array("=BYROW(A1:C2,LAMBDA(array,SUMSQ(array)))", (2, 1), ONE_TO_SIX) == [[14.0], [77.0]]
    assert _array("=BYCOL(A1:C2, LAMBDA(array, MAX(array)))", (1, 3), ONE_TO_SIX) == [[4.0, 5.0, 6.0]]
    assert _array("=BYCOL(A1:C2,LAMBDA(array,SUMSQ(array)))", (1, 3), ONE_TO_SIX) == [[17.0, 29.0, 45.0]]
    assert _array("=BYROW({1,2;3,4},LAMBDA(r,SUM(r)))", (2, 1)) == [[3.0], [7.0]]
    check(value("=BYROW({1,2;3,4},LAMBDA(r,r))"), XlErr("#CALC!"))  # a row back is an array


def test_makearray():
    # "MAKEARRAY function", example 2: =MAKEARRAY(3, 3, LAMBDA(r,c, r*c)), a multiplication table
    assert _array("=MAKEARRAY(3, 3, LAMBDA(r,c, r*c))", (3, 3)) == \
        [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]]
    # example 1 picks colours at random: each of the 3 × 3 values is one of the three
    colours = _array('=MAKEARRAY(3,3,LAMBDA(r,c,CHOOSE(RANDBETWEEN(1,3),"Red","Blue","Green")))',
                     (3, 3))
    assert {v for row in colours for v in row} <= {"Red", "Blue", "Green"}
    check(value("=MAKEARRAY(0,2,LAMBDA(r,c,r))"), VALUE)


# -- 4. spill references, SHEET, SHEETS, AREAS -------------------------------------------------
def _three_sheets() -> Any:
    """Sheet1, Sheet2 (with a workbook name, a sheet name and a table) and Stuff, as in the
    example of Microsoft's "SHEET function" page; the formulas on Sheet1."""
    from xlrecalc.engine import Book, Table, evaluate_book
    from xlrecalc.parse import Ref
    book = Book({})
    for name in ("Sheet1", "Sheet2", "Stuff"):
        book.add_sheet(name)
    for r in (1, 2):
        for c in (1, 2):
            book.set_value("Sheet2", r, c, float(r * c))
    book.define_name("QSalesByRegion", "Sheet2!$A$1:$B$2")
    book.define_name("Hi_Temps", "Sheet2!$A$1", "Sheet2")
    book.define_name("My3DRef", "Sheet1:Stuff!$A$1")
    book.add_table(Table("Table1", "Sheet2", Ref("Sheet2", 1, 1, 2, 2), ["A", "B"]))
    formulas = ["=SHEET(QSalesByRegion)", "=SHEET(Table1)", "=SHEET(Hi_Temps)", '=SHEET("Stuff")',
                '=SHEET("badSheetName")', "=SHEET()", "=SHEET(Stuff!B7)", "=SHEETS()",
                "=SHEETS(My3DRef)", "=SHEETS(Sheet2!A1:B2)", "=AREAS(B2:D4)",
                "=AREAS((B2:D4,E5,F6:I9))", "=AREAS(B2:D4 B2)", "=AREAS(My3DRef)"]
    for row, formula in enumerate(formulas, start=1):
        book.add_formula("Sheet1", row, 26, formula)
    evaluate_book(book)
    return [book.value("Sheet1", row, 26) for row in range(1, len(formulas) + 1)]


def test_sheet_sheets_areas():
    found = _three_sheets()
    # "SHEET function": QSalesByRegion and Table1 are on sheet 2, Hi_Temps is a name of
    # Sheet2 only (#NAME? from Sheet1), Stuff is sheet 3, a name that is no sheet's #N/A;
    # without an argument the formula's own sheet
    for got, expected in zip(found[:7], [2.0, 2.0, XlErr("#NAME?"), 3.0, XlErr("#N/A"), 1.0, 3.0]):
        check(got, expected)
    # "SHEETS function": without an argument the workbook's sheets; My3DRef spans
    # Sheet1:Stuff (the page's Sheet1:Sheet3), 3 sheets
    for got, expected in zip(found[7:10], [3.0, 3.0, 1.0]):
        check(got, expected)
    # "AREAS function": =AREAS(B2:D4) is 1, =AREAS((B2:D4,E5,F6:I9)) 3, =AREAS(B2:D4 B2) 1
    for got, expected in zip(found[10:], [1.0, 3.0, 1.0, 3.0]):
        check(got, expected)


def test_spill_reference():
    # "Spilled range operator": A1# is the whole range the formula in A1 spills into
    # (SEQUENCE(4) spills 1 to 4 down A1:A4: their sum is 10, the range 4 rows)
    book = evaluate({"C1": "=SUM(A1#)", "C2": "=ROWS(A1#)", "C3": "=SUM(_xlfn.ANCHORARRAY(A1))",
                     "C4": "=SUM(B1#)", "C5": "=SUM(S!A1#)", "C6": "=INDEX(A1#,3)",
                     "C7": "=SUM(E1#)"},
                    {"B1": 5}, {"A1:A4": "=SEQUENCE(4)", "E1:F2": "={1,2;3,4}*10"})
    for row, expected in enumerate([10.0, 4.0, 10.0, XlErr("#REF!"), 10.0, 3.0, 100.0], start=1):
        check(book.value("S", row, 3), expected)


def test_spill_reference_in_a_saved_workbook(tmp_path: Path):
    from xlrecalc import load_book
    from xlrecalc.engine import evaluate_book
    from openpyxl.worksheet.formula import ArrayFormula
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = ArrayFormula("A1:A3", "=_xlfn.SEQUENCE(3,1,10,10)")
    ws["B1"] = "=SUM(_xlfn.ANCHORARRAY(A1))"
    ws["B2"] = "=_xlfn.MAP(_xlfn.ANCHORARRAY(A1),_xlfn.LAMBDA(_xlpm.x,_xlpm.x/10))"
    wb.save(tmp_path / "spill.xlsx")
    book = load_book(tmp_path / "spill.xlsx", {})
    evaluate_book(book)
    check(book.value("Sheet", 1, 2), 60.0)
    check(book.value("Sheet", 2, 2), 1.0)  # its first value, in a cell of its own


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_sheet_functions_agree_with_libreoffice(tmp_path: Path):
    """SHEET, SHEETS and AREAS, which LibreOffice shares with Excel, on a three-sheet book."""
    from xlrecalc import load_book
    from xlrecalc.engine import evaluate_book
    formulas = ['=_xlfn.SHEET()', '=_xlfn.SHEET("Stuff")', "=_xlfn.SHEET(Sheet2!B3)",
                "=_xlfn.SHEETS()", "=_xlfn.SHEETS(Sheet1:Stuff!A1)", "=AREAS((A1:A2,B3,C4:D5))",
                "=_xlfn.SHEET(Named)"]  # as Excel stores them: functions newer than 2010
    wb = openpyxl.Workbook()
    wb.active.title = "Sheet1"
    wb.create_sheet("Sheet2")
    wb.create_sheet("Stuff")
    from openpyxl.workbook.defined_name import DefinedName
    wb.defined_names["Named"] = DefinedName("Named", attr_text="Stuff!$A$1:$B$2")
    for row, formula in enumerate(formulas, start=1):
        wb["Sheet1"].cell(row, 5, formula)
    path = tmp_path / "sheets.xlsx"
    wb.save(path)
    theirs = [row[-1] for row in libreoffice_values(path, tmp_path)]
    book = load_book(path, {})
    evaluate_book(book)
    ours = [book.value("Sheet1", row, 5) for row in range(1, len(formulas) + 1)]
    assert ours == [1.0, 3.0, 2.0, 3.0, 3.0, 3.0, 3.0]
    assert all(_agrees(a, b) for a, b in zip(ours, theirs)), (ours, theirs)
