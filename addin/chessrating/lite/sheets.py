"""The sheets of a Lite copy: each call of our functions in a cell bound as a Lite function.

Excel binds a cell to an Office.js custom function only when the file stores the call as
``_xldudf_NAME(…)`` in a single-cell dynamic array: ``<c cm="1"><f t="array"
ref="A1">…</f>``, the ``cm`` pointing at the dynamic-array entry of ``xl/metadata.xml``.
:class:`SheetRewrite` finds the cells with expat (:mod:`.spans`) and gives the byte
spans to change; a shared formula that calls one of our functions is written out cell by
cell. Calls elsewhere in a sheet (conditional formats, validations) are listed, not bound.
"""

from __future__ import annotations

import re

from ..errors import RatingError
from xlrecalc import FormulaSyntaxError, SharedFormula, parse_ref
from ..udfs import __all__ as FUNCTION_NAMES
from .spans import digits, escape, scan, start_tag

__all__ = ["LITE_PREFIX", "lite_formula", "cell_place", "cell_address", "SheetRewrite", "dynamic_array_cm"]

LITE_PREFIX = "_xldudf_"
_NAMES = frozenset(FUNCTION_NAMES)
# In formula text: string literals, quoted sheet names and structured references are
# skipped (each also when left open: the pattern always goes forward, so the scan is
# linear in the text); a name directly followed by "(" is a function call.
_FORMULA_TOKEN = re.compile(
    r'"(?:[^"]|"")*+(?:"|$)|\'(?:[^\']|\'\')*+(?:\'|$)|\[(?:[^\[\]]|\[[^\]]*+\]?)*+\]?'
    r'|(?<![\w.\\])([A-Za-z_\\][\w.]*+)(?=\()')


def lite_formula(text: str) -> tuple[str, set[str]]:
    """The formula with each call of our functions as ``_xldudf_NAME``, and the names used.

    >>> lite_formula('IF(A1="FIDE_K(",  "", fide_k(A1, 20))')
    ('IF(A1="FIDE_K(",  "", _xldudf_FIDE_K(A1, 20))', {'FIDE_K'})
    >>> lite_formula("_xldudf_FIDE_DP(0.5)+SUM(A1:A2)")
    ('_xldudf_FIDE_DP(0.5)+SUM(A1:A2)', {'FIDE_DP'})
    >>> lite_formula('"open string FIDE_DP(1)')
    ('"open string FIDE_DP(1)', set())
    """
    used: set[str] = set()

    def rename(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        upper = name.upper()
        if upper in _NAMES:
            used.add(upper)
            return LITE_PREFIX + upper
        if upper.startswith(LITE_PREFIX.upper()) and upper[len(LITE_PREFIX):] in _NAMES:
            used.add(upper[len(LITE_PREFIX):])
        return name

    return _FORMULA_TOKEN.sub(rename, text), used


def cell_place(where: str) -> tuple[int, int] | None:
    """A cell's ``r=`` address as (row, column); ``None`` if it has none that reads."""
    try:
        ref = parse_ref(where)
    except (FormulaSyntaxError, ValueError):
        return None
    if ref.r1 < 1 or ref.c1 < 1:
        return None
    return ref.r1, ref.c1


def cell_address(row: int, col: int) -> str:
    """``(3, 28)`` -> ``AB3``."""
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


# Where a call of our functions that is not a cell's formula sits: Lite binds only cells.
_UNBOUND_KINDS = {"conditionalFormatting": "a conditional format",
                  "dataValidation": "a data validation", "dataValidations": "a data validation"}


class SheetRewrite:
    """The changes to one sheet part: calls of our functions bound as Lite functions
    (``<c cm=…><f t="array" ref=…>_xldudf_…</f>``), and rows given new heights."""

    def __init__(self, xml: bytes, cm: str, where: str):
        self.xml = xml
        self.cm = cm
        self.where = where
        self.used: set[str] = set()
        self.unbound: list[str] = []
        self.elements = scan(xml, keep_text={"f", "v", "formula", "formula1", "formula2"},
                             where=where)
        self.cells: list[tuple[int, int, tuple[int, int] | None]] = []  # (c, f, place)
        self.string_rows: dict[str, list[int]] = {}  # shared string index -> rows
        self._locate()

    def _locate(self) -> None:
        """Each cell's place (from ``r=``, or counted as Excel counts a cell without it),
        each formula's cell, each call outside a cell."""
        row = col = 0
        row_index = -1
        cell_of: dict[int, tuple[int, tuple[int, int] | None]] = {}
        kinds: list[str | None] = []  # the kind of place each element sits in, in one pass
        for index, element in enumerate(self.elements):
            local = element.name
            kinds.append(_UNBOUND_KINDS.get(local) or
                         (kinds[element.parent] if element.parent is not None else None))
            if local == "row":
                row = int(element.attrs["r"]) if digits(element.attrs.get("r", "")) else row + 1
                col, row_index = 0, index
            elif local == "c" and element.parent == row_index and row_index >= 0:
                place = cell_place(element.attrs["r"]) if "r" in element.attrs else (row, col + 1)
                if place is not None:
                    col = place[1]
                cell_of[index] = (row_index, place)
            elif local == "f" and element.parent in cell_of:
                self.cells.append((element.parent, index, cell_of[element.parent][1]))
            elif local == "v" and element.parent in cell_of and \
                    self.elements[element.parent].attrs.get("t") == "s":
                self.string_rows.setdefault(element.text.strip(), []).append(cell_of[element.parent][0])
            elif local in ("f", "formula", "formula1", "formula2") and lite_formula(element.text)[1]:
                self.unbound.append(kinds[index] or "another part of the sheet")

    def changes(self, row_heights: dict[int, float]) -> list[tuple[int, int, bytes]]:
        shared: dict[str, SharedFormula] = {}
        for c, f, place in self.cells:
            attrs = self.elements[f].attrs
            if attrs.get("t") == "shared" and "ref" in attrs and place is not None and \
                    lite_formula(self.elements[f].text)[1]:
                shared[attrs.get("si", "")] = SharedFormula(self.elements[f].text, *place)
        out: list[tuple[int, int, bytes]] = []
        for c, f, place in self.cells:
            cell, formula = self.elements[c], self.elements[f]
            f_attrs = dict(formula.attrs)
            if f_attrs.get("t") == "shared":
                master = shared.get(f_attrs.get("si", ""))
                if master is None or place is None:
                    continue
                try:
                    text = master.at(*place)
                except Exception:  # openpyxl's translator raises its own errors on odd text
                    raise RatingError(f"{self.where}: the shared formula of cell "
                                      f"{cell_address(*place)} does not read") from None
            elif f_attrs.get("t") == "dataTable":
                continue
            else:
                text = formula.text
            lite, used = lite_formula(text)
            if not used:
                continue
            if place is None:
                raise RatingError(f"{self.where}: a cell calling {sorted(used)[0]} has the "
                                  f"address {cell.attrs.get('r', '')!r}, which does not read")
            self.used |= used
            where = cell_address(*place)
            if f_attrs.get("t") == "array":
                if not f_attrs.get("ref"):
                    f_attrs["ref"] = where
            else:
                for key in ("t", "ref", "si"):
                    f_attrs.pop(key, None)
                f_attrs = {"t": "array", "ref": where, **f_attrs}
            cell_attrs = dict(cell.attrs)
            cell_attrs["cm"] = self.cm
            out.append((cell.start, cell.tag_end, start_tag(cell.qname, cell_attrs)))
            out.append((formula.start, formula.end, start_tag(formula.qname, f_attrs)
                        + escape(lite).encode("utf-8") + f"</{formula.qname}>".encode("utf-8")))
        for index, height in row_heights.items():
            row = self.elements[index]
            if "ht" in row.attrs:
                attrs = dict(row.attrs, ht=f"{height:g}")
                out.append((row.start, row.tag_end, start_tag(row.qname, attrs, row.empty)))
        return out


def dynamic_array_cm(metadata: bytes, where: str) -> str | None:
    """The ``cm`` index of the dynamic-array cell metadata in an existing metadata part."""
    elements = scan(metadata, where=where)
    types = [e for e in elements if e.name == "metadataType" and e.depth == 2]
    type_index = next((str(i + 1) for i, t in enumerate(types) if t.attrs.get("name") == "XLDAPR"), None)
    future = next((i for i, e in enumerate(elements) if e.depth == 1 and e.name == "futureMetadata"
                   and e.attrs.get("name") == "XLDAPR"), None)
    cells = next((i for i, e in enumerate(elements) if e.depth == 1 and e.name == "cellMetadata"), None)
    if type_index is None or future is None or cells is None:
        return None
    # each element's block (bk) of the future metadata or of the cell metadata, in one pass
    block: dict[int, tuple[int, int]] = {}
    counts = {future: 0, cells: 0}
    dynamic: set[str] = set()
    for i, e in enumerate(elements):
        if e.parent in counts and e.name == "bk":
            block[i] = (e.parent, counts[e.parent])
            counts[e.parent] += 1
        elif e.parent in block:
            block[i] = block[e.parent]
        else:
            continue
        owner, number = block[i]
        if owner == future and e.name == "dynamicArrayProperties" and e.attrs.get("fDynamic") == "1":
            dynamic.add(str(number))
    for i, e in enumerate(elements):
        if e.name == "rc" and i in block and block[i][0] == cells and \
                e.attrs.get("t") == type_index and e.attrs.get("v") in dynamic:
            return str(block[i][1] + 1)
    return None
