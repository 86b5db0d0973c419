"""Array formulas whose file holds only the first cell of their range, as no Excel
writes them (Excel stores a ``<c>`` for every cell of a legacy array formula's range),
built on demand around :func:`make_corpus.workbook`.
"""

from __future__ import annotations

from pathlib import Path

from make_corpus import workbook


def make_partly_stored_array(folder: Path, last_row: int) -> Path:
    """``{=A1:A{last_row}*2}`` over B1:B{last_row}, only B1 stored; A1 = 1, A2 = 5, A3 =
    "x" (text: #VALUE! in B3), the rest of column A blank (0 in Excel's cells)."""
    rows = (f'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="array" ref="B1:B{last_row}">'
            f'A1:A{last_row}*2</f><v>2</v></c></row>'
            '<row r="2"><c r="A2"><v>5</v></c></row>'
            '<row r="3"><c r="A3" t="inlineStr"><is><t>x</t></is></c></row>')
    return workbook(folder / f"partly-stored-{last_row}.xlsx", {"Data": rows})
