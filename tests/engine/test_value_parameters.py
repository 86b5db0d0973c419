"""Functions of values given a range: cell by cell in an array context, the cell in the
formula's row or column otherwise, in each kind of formula cell a workbook file holds.

Excel declares every parameter of ISNUMBER, LEN, ABS … a value (Microsoft's pages of
those functions: "value", "text", "number"). What a range given there becomes depends on
where the formula evaluates:

- in an array context it is read cell by cell and the function gives an array of the
  same shape ("Guidelines and examples of array formulas": a single-cell array formula
  such as ``=SUM(LEN(range))`` counts the characters of every cell);
- SUMPRODUCT's arguments are arrays ("SUMPRODUCT function": it multiplies corresponding
  entries of its arrays, and treats entries that are not numbers, TRUE and FALSE
  among them, as zeros, hence the ``--`` or ``*1``), so they are an array context
  in any cell;
- a legacy array formula (``<f t="array">``, entered with Ctrl+Shift+Enter) and a dynamic
  array formula of Excel 365 (``<f t="array">`` in a cell marked ``cm=`` by the dynamic
  array metadata) are array contexts ("Dynamic array formulas and spilled array
  behavior": Excel 365 evaluates a formula as an array formula and stores one that would
  differ in older Excel as a dynamic array);
- a plain cell formula of a legacy workbook reads the cell of the range in its own row or
  column, and ``#VALUE!`` where there is none ("Implicit intersection operator: @").

Page titles are support.microsoft.com's. The IS functions' answers per kind of value
are those of Microsoft's "IS functions" page (ISNONTEXT is TRUE for a blank cell, ISERR
FALSE for ``#N/A``). IFERROR over ranges is held to Excel's own values by the
conformance corpus (``ironcalc/IFERROR.xlsx``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from xlrecalc import recalculate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from engine_corpus import dynamic_array_book  # noqa: E402

KIND_TESTS = ["ISNUMBER", "ISTEXT", "ISLOGICAL", "ISBLANK", "ISERROR", "ISERR", "ISNA",
              "ISNONTEXT"]
# C1:C6 holds 7, "x", TRUE, a blank, #N/A and #DIV/0!: what each test says of each cell
KINDS = {"ISNUMBER": [True, False, False, False, False, False],
         "ISTEXT": [False, True, False, False, False, False],
         "ISLOGICAL": [False, False, True, False, False, False],
         "ISBLANK": [False, False, False, True, False, False],
         "ISERROR": [False, False, False, False, True, True],
         "ISERR": [False, False, False, False, False, True],
         "ISNA": [False, False, False, False, True, False],
         "ISNONTEXT": [True, False, True, True, True, True]}


def _value(column: int, row: int, value: Any) -> str:
    letter = "ABC"[column]
    if isinstance(value, bool):
        return f'<c r="{letter}{row}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, str) and value.startswith("#"):
        return f'<c r="{letter}{row}" t="e"><v>{value}</v></c>'
    if isinstance(value, str):
        return f'<c r="{letter}{row}" t="inlineStr"><is><t>{value}</t></is></c>'
    return f'<c r="{letter}{row}"><v>{value}</v></c>'


def _formula(address: str, text: str, kind: str) -> str:
    """A formula cell of a kind: "plain", "array" (legacy, Ctrl+Shift+Enter) or
    "dynamic" (Excel 365); the ref of an array formula is its own cell unless given
    (``E1:E6 =ISNUMBER(C1:C6)``). The cached values are stale on purpose."""
    address, _, spill = address.partition(" ")
    ref = spill or address
    if kind == "plain":
        return f'<c r="{address}"><f>{text}</f><v>0</v></c>'
    marked = ' cm="1"' if kind == "dynamic" else ""
    return f'<c r="{address}"{marked}><f t="array" ref="{ref}">{text}</f><v>0</v></c>'


# Data: A1:A11 eleven numbers; B1:B4 "Swiss", "round", 1500 and a blank (LEN 5+5+4+0);
# C1:C6 one value of each kind. The formulas, by cell: (text, kind, Excel's value).
FORMULAS = {
    "D1": ("SUMPRODUCT(--ISNUMBER(A1:A11))", "plain", 11.0),
    "D2": ("SUMPRODUCT(ISNUMBER(A1:A11)*1)", "plain", 11.0),
    "D3": ("SUMPRODUCT(LEN(B1:B4))", "plain", 14.0),
    "D4": ("SUM(--ISNUMBER(A1:A11))", "array", 11.0),
    "D5": ("SUM(--ISNUMBER(A1:A11))", "dynamic", 11.0),
    "D6": ("SUM(--ISNUMBER(A1:A11))", "plain", 1.0),     # row 6: ISNUMBER(A6)
    "D7": ("SUM(LEN(B1:B4))", "plain", "#VALUE!"),  # row 7 meets no cell of B1:B4
    "D8": ("SUMPRODUCT(ISNUMBER(A1:A11))", "plain", 0.0),  # logicals count as zeros
    "D9": ("SUM(LEN(B1:B4))", "array", 14.0),
    "D20": ("SUM(--ISNUMBER(A1:A11))", "plain", 0.0),    # ISNUMBER(#VALUE!) is FALSE
    # IFERROR: #N/A and #DIV/0! of C1:C6 caught; SUM counts only the numbers of an array
    # ("SUM function"), so 7 + 5 + 5; in a plain cell the cell of the formula's row
    "D11": ("SUM(IFERROR(C1:C6,5))", "array", 17.0),
    "D10": ("SUM(IFERROR(C1:C6,5))", "plain", 5.0),      # row 10: #VALUE!, caught
    "I1": ("SUM(IFERROR(C1:C6,5))", "plain", 7.0),       # row 1: C1, 7
    "I5": ("SUM(IFERROR(C1:C6,5))", "plain", 5.0),       # row 5: C5, #N/A caught
    # RANDBETWEEN of equal bounds is the bound ("RANDBETWEEN function"): one per cell
    "D12": ("SUMPRODUCT(--(RANDBETWEEN(A1:A11,A1:A11)=A1:A11))", "plain", 11.0),
    **{f"G{i}": (f"SUMPRODUCT(--{name}(C1:C6))", "plain", float(sum(KINDS[name])))
       for i, name in enumerate(KIND_TESTS, 1)},
    **{f"H{i}": (f"SUM(--{name}(C1:C6))", "dynamic", float(sum(KINDS[name])))
       for i, name in enumerate(KIND_TESTS, 1)},
}


def _book(folder: Path) -> Path:
    data: dict[int, list[str]] = {}
    numbers = [float(n) for n in range(1, 12)]
    kinds = [7.0, "x", True, None, "#N/A", "#DIV/0!"]
    for column, values in enumerate([numbers, ["Swiss", "round", 1500.0], kinds]):
        for row, value in enumerate(values, 1):
            if value is not None:
                data.setdefault(row, []).append(_value(column, row, value))
    cells = [(address, _formula(address, text, kind)) for address, (text, kind, _) in FORMULAS.items()]
    cells += [("E1", _formula("E1 E1:E6", "ISNUMBER(C1:C6)", "dynamic")),
              ("F1", _formula("F1 F1:F6", "ISTEXT(C1:C6)", "array"))]
    for address, cell in cells:
        data.setdefault(int(address[1:].split(" ")[0]), []).append(cell)
    rows = "".join(f'<row r="{r}">{"".join(sorted(cells_of, key=_column))}</row>'
                   for r, cells_of in sorted(data.items()))
    return dynamic_array_book(folder / "values.xlsx", {"Data": rows})


def _column(cell: str) -> str:
    return cell.split('r="')[1][0]


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("value-parameters")
    report = recalculate(_book(folder), folder / "out.xlsx")
    return {cell: value for (sheet, cell), value in report.values.items()}


@pytest.mark.parametrize("address", sorted(FORMULAS))
def test_a_function_of_values_given_a_range(values: dict[str, Any], address: str) -> None:
    expected = FORMULAS[address][2]  # a number, or the text of an error as written
    found = values[address]
    assert found == expected and type(found) is type(expected), (FORMULAS[address][0], found)


def test_a_spilled_or_entered_array_answers_cell_by_cell(values: dict[str, Any]) -> None:
    assert [values[f"E{r}"] for r in range(1, 7)] == KINDS["ISNUMBER"]   # dynamic array
    assert [values[f"F{r}"] for r in range(1, 7)] == KINDS["ISTEXT"]     # legacy array formula


def test_a_cell_holding_a_message_is_text_to_the_kind_tests_cell_by_cell(tmp_path: Path) -> None:
    """An add-in function's error is written as its message, so the kind tests and IFERROR
    read each such cell of a range as text, as they read one such cell
    (test_evaluator.py: a cell reading a rating message sees the text written)."""
    def fails(x: Any) -> Any:
        raise ValueError("x: 'abc' is not a number")
    rows = ('<row r="1"><c r="A1"><f>FAILS(1)</f></c><c r="B1"><f>SUMPRODUCT(--ISTEXT(A1:A4))</f></c>'
            '<c r="C1" cm="1"><f t="array" ref="C1:C4">IFERROR(A1:A4,"caught")</f></c></row>'
            '<row r="2"><c r="A2"><f>FAILS(2)</f></c><c r="B2"><f>SUMPRODUCT(--ISERROR(A1:A4))</f></c></row>'
            '<row r="3"><c r="A3"><f>FAILS(3)</f></c>'
            '<c r="B3"><f t="array" ref="B3">SUM(--ISNONTEXT(A1:A4))</f></c></row>'
            '<row r="4"><c r="A4"><f>1/0</f></c></row>')
    src = dynamic_array_book(tmp_path / "messages.xlsx", {"Data": rows})
    report = recalculate(src, tmp_path / "out.xlsx", functions={"FAILS": fails})
    found = {cell: value for (sheet, cell), value in report.values.items()}
    message = "x: 'abc' is not a number"
    assert [found["B1"], found["B2"], found["B3"]] == [3.0, 1.0, 1.0]
    assert [found[f"C{r}"] for r in range(1, 5)] == [message] * 3 + ["caught"]
