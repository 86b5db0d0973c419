"""Lookups given several values to look up: each looked up alone in an array context,
the cell in the formula's row or column otherwise, in each kind of formula cell a
workbook file holds (test_value_parameters.py has the rules for functions of values).

Excel declares the looked-up value of MATCH, XMATCH, VLOOKUP, HLOOKUP, XLOOKUP and
LOOKUP one value (Microsoft's pages of those functions: "lookup_value"), so a range or
an array given there in an array context gives an array of answers of its shape; the
classic ``SUMPRODUCT(--ISNUMBER(MATCH(list,table,0)))`` counts the entries of a list
found in a table ("Count unique values among duplicates" and "MATCH function": MATCH
gives ``#N/A`` for a value not found, ISNUMBER turns the positions into TRUE).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlrecalc import recalculate

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from engine_corpus import dynamic_array_book  # noqa: E402
from test_value_parameters import _formula, _value  # noqa: E402

# Data: A1:A4 the values looked up (3, 11, 7, "x"); B1:B10 the numbers 1…10, C1:C10 ten
# times them; rows 20 and 21 the same table laid across (B20:K20, B21:K21). 3 and 7 are
# found (positions 3 and 7, answers 30 and 70); 11 and "x" are not (#N/A).
FORMULAS = {
    "D1": ("SUMPRODUCT(--ISNUMBER(MATCH(A1:A4,B1:B10,0)))", "plain", 2.0),
    "D2": ("SUM(--ISNUMBER(MATCH(A1:A4,B1:B10,0)))", "array", 2.0),
    "D3": ("SUM(--ISNUMBER(MATCH(A1:A4,B1:B10,0)))", "dynamic", 2.0),
    "D4": ("SUM(--ISNUMBER(MATCH(A1:A4,B1:B10,0)))", "plain", 0.0),  # row 4: "x", not found
    "I3": ("SUM(--ISNUMBER(MATCH(A1:A4,B1:B10,0)))", "plain", 1.0),  # row 3: 7, found
    "D5": ("SUMPRODUCT(IFERROR(VLOOKUP(A1:A4,B1:C10,2,FALSE),0))", "plain", 100.0),
    "D6": ("SUMPRODUCT(IFERROR(HLOOKUP(A1:A4,B20:K21,2,FALSE),0))", "plain", 100.0),
    "D7": ("SUM(IFERROR(XLOOKUP(A1:A4,B1:B10,C1:C10),0))", "dynamic", 100.0),
    "D8": ("SUM(IFERROR(XMATCH(A1:A4,B1:B10),0))", "array", 10.0),
    # approximate: 11 is past the last number, so the largest not above it, 10
    "D9": ("SUM(MATCH(A1:A3,B1:B10))", "array", 20.0),
    "D10": ("SUMPRODUCT(LOOKUP(A1:A3,B1:B10,C1:C10))", "plain", 30.0 + 100.0 + 70.0),
    "D11": ("SUM(MATCH({1,4;9,2},B1:B10,0))", "array", 16.0),  # an array constant, 2×2
    "D12": ("MATCH(7,B1:B10,0)", "plain", 7.0),                # one value: as before
}


def _book(folder: Path) -> Path:
    data: dict[int, list[str]] = {}
    for row, value in enumerate([3.0, 11.0, 7.0, "x"], 1):
        data.setdefault(row, []).append(_value(0, row, value))
    for row in range(1, 11):
        data.setdefault(row, []).extend([_value(1, row, float(row)), _value(2, row, 10.0 * row)])
    across = {20: [f'<c r="{chr(65 + n)}20"><v>{n}</v></c>' for n in range(1, 11)],
              21: [f'<c r="{chr(65 + n)}21"><v>{10 * n}</v></c>' for n in range(1, 11)]}
    cells = [(address, _formula(address, text, kind)) for address, (text, kind, _) in FORMULAS.items()]
    cells.append(("E1", _formula("E1 E1:E4", "MATCH(A1:A4,B1:B10,0)", "dynamic")))
    cells.append(("F1", _formula("F1 F1:F4", "VLOOKUP(A1:A4,B1:C10,2,FALSE)", "array")))
    for address, cell in cells:
        data.setdefault(int(address[1:].split(" ")[0]), []).append(cell)
    for row, found in across.items():
        data.setdefault(row, []).extend(found)

    def column(cell: str) -> tuple[int, str]:
        letters = cell.split('r="')[1].rstrip("0123456789\">").split('"')[0].rstrip("0123456789")
        return len(letters), letters
    rows = "".join(f'<row r="{r}">{"".join(sorted(found, key=column))}</row>'
                   for r, found in sorted(data.items()))
    return dynamic_array_book(folder / "lookups.xlsx", {"Data": rows})


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("lookup-values")
    report = recalculate(_book(folder), folder / "out.xlsx")
    return {cell: value for (sheet, cell), value in report.values.items()}


@pytest.mark.parametrize("address", sorted(FORMULAS))
def test_a_lookup_given_several_values(values: dict[str, Any], address: str) -> None:
    expected = FORMULAS[address][2]
    found = values[address]
    assert found == expected and type(found) is type(expected), (FORMULAS[address][0], found)


def test_a_spilled_or_entered_lookup_answers_value_by_value(values: dict[str, Any]) -> None:
    assert [values[f"E{r}"] for r in range(1, 5)] == [3.0, "#N/A", 7.0, "#N/A"]   # dynamic array
    # legacy array (VLOOKUP's #N/A is written with its reason, as the engine writes errors)
    assert [values[f"F{r}"] for r in range(1, 5)] == [30.0, "11.0 not found", 70.0, "'x' not found"]


_VALUES = st.one_of(st.integers(-3, 3).map(float), st.sampled_from(["a", "A", "b", "a*", "?", "~*", ""]),
                    st.booleans(), st.none())


@given(st.lists(_VALUES, min_size=1, max_size=12), st.lists(_VALUES, min_size=1, max_size=20))
def test_several_exact_matches_at_once_equal_each_alone(looked: list[Any], items: list[Any]) -> None:
    # MATCH of many values in exact mode indexes the array once: the same answers
    from xlrecalc.functions.lookup import FUNCTIONS, MANY
    from xlrecalc.values import Arr
    values, array = Arr([[v] for v in looked]), Arr([items])
    at_once = MANY["MATCH"](("S", 1, 1), values, array, 0.0).rows()
    alone = [[FUNCTIONS["MATCH"](("S", 1, 1), v, array, 0.0)] for v in looked]
    assert [[_shown(v) for v in row] for row in at_once] == [[_shown(v) for v in row] for row in alone]


def _shown(value: Any) -> Any:
    return value.code if hasattr(value, "code") else value


@given(st.lists(_VALUES, min_size=1, max_size=12), st.lists(st.tuples(_VALUES, _VALUES), min_size=1, max_size=20))
def test_several_exact_vlookups_at_once_equal_each_alone(looked: list[Any], pairs: list[Any]) -> None:
    from xlrecalc.functions.lookup import FUNCTIONS, MANY
    from xlrecalc.values import Arr
    values, table = Arr([[v] for v in looked]), Arr([list(pair) for pair in pairs])
    at_once = MANY["VLOOKUP"](("S", 1, 1), values, table, 2.0, False).rows()
    alone = [[FUNCTIONS["VLOOKUP"](("S", 1, 1), v, table, 2.0, False)] for v in looked]
    assert [[_shown(v) for v in row] for row in at_once] == [[_shown(v) for v in row] for row in alone]


def test_an_error_looked_up_with_others_is_the_answer_as_it_is_looked_up_alone(tmp_path: Path) -> None:
    # MATCH of several values indexes the table once; an #N/A among the values looked up
    # (here VLOOKUP's, with its reason) comes back as it comes back when looked up alone,
    # while a value not found is MATCH's own bare #N/A
    import openpyxl
    from openpyxl.worksheet.formula import ArrayFormula

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["A2"], sheet["A3"] = "a", '=VLOOKUP("zz",B1:C3,2,FALSE)', "q"
    sheet["B1"], sheet["B2"], sheet["B3"] = "a", "b", "c"
    sheet["D1"] = ArrayFormula("D1:D3", "=MATCH(A1:A3,B1:B3,0)")
    sheet["E2"], sheet["E3"] = "=MATCH(A2,B1:B3,0)", "=MATCH(A3,B1:B3,0)"
    book.save(tmp_path / "m.xlsx")
    values = recalculate(tmp_path / "m.xlsx", tmp_path / "out.xlsx").values
    assert values[("Sheet", "D1")] == 1.0
    assert values[("Sheet", "D2")] == values[("Sheet", "E2")] == "'zz' not found"
    assert values[("Sheet", "D3")] == values[("Sheet", "E3")] == "#N/A"
