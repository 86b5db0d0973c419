"""Hostile cycles for the formula engine, each a few kilobytes built on demand around
:func:`make_corpus.workbook`: a cycle through two defined names that an IFERROR would
hide, and cycles under Excel's iterative calculation (``<calcPr iterate="1">``) — one
that settles, one that never does with an iterateCount past Excel's 32,767, and a long
one that never does, beside a sheet of formulas that read nothing of it.
"""

from __future__ import annotations

from pathlib import Path

from make_corpus import workbook


def _calc(count: int, delta: float = 0.001) -> str:
    return (f'<calcPr calcId="191029" fullCalcOnLoad="1" iterate="1" iterateCount="{count}" '
            f'iterateDelta="{delta}"/>')


def make_name_cycle(folder: Path) -> Path:
    """Names A (=B+1) and B (=A+1): A1 = A, B1 = IFERROR(B,0), C1 = A1*2 reads the cycle,
    D1 = 2*3 is fine."""
    rows = ('<row r="1"><c r="A1"><f>A</f></c><c r="B1"><f>IFERROR(B,0)</f></c>'
            '<c r="C1"><f>A1*2</f></c><c r="D1"><f>2*3</f></c></row>')
    return workbook(folder / "name-cycle.xlsx", {"Data": rows}, names=[("A", "B+1"), ("B", "A+1")])


def make_settling_cycle(folder: Path, bystanders: int = 1_000) -> Path:
    """A1 = B1/2+1 and B1 = A1 (fixed point 2) with iteration on, C1 = A1*10 reads the
    cycle, and column D holds ``bystanders`` formulas reading nothing of it."""
    others = "".join(f'<row r="{r}"><c r="D{r}"><f>{r}+1</f></c></row>' for r in range(2, bystanders + 1))
    rows = ('<row r="1"><c r="A1"><f>B1/2+1</f></c><c r="B1"><f>A1</f></c>'
            '<c r="C1"><f>A1*10</f></c><c r="D1"><f>1+1</f></c></row>' + others)
    return workbook(folder / "settling-cycle.xlsx", {"Data": rows}, calc_pr=_calc(100, 1e-9))


def make_endless_cycle(folder: Path, count: int = 100_000, length: int = 2,
                       bystanders: int = 1_000) -> Path:
    """A cycle of ``length`` cells down column A (A1 = A{length}+1, each other = the cell
    above) that never settles, iterateCount ``count``; C1 = A1*2 reads it, and column D
    holds ``bystanders`` formulas reading nothing of it."""
    cells = {1: f'<c r="A1"><f>A{length}+1</f></c><c r="C1"><f>A1*2</f></c>'}
    for r in range(2, length + 1):
        cells[r] = f'<c r="A{r}"><f>A{r - 1}</f></c>'
    for r in range(1, bystanders + 1):
        cells[r] = cells.get(r, "") + f'<c r="D{r}"><f>{r}+1</f></c>'
    rows = "".join(f'<row r="{r}">{cells[r]}</row>' for r in sorted(cells))
    return workbook(folder / f"endless-cycle-{length}.xlsx", {"Data": rows}, calc_pr=_calc(count))


def make_dense_cycle(folder: Path, length: int = 2_000, count: int | None = 32_767) -> Path:
    """``length`` cells down column A, each the average of all of them plus 1: every cell
    reads every other, and the cycle never settles; iteration off when ``count`` is None
    (a circular reference met length² times)."""
    rows = "".join(f'<row r="{r}"><c r="A{r}"><f>SUM($A$1:$A${length})/{length}+1</f></c></row>'
                   for r in range(1, length + 1))
    extra = {} if count is None else {"calc_pr": _calc(count)}
    return workbook(folder / f"dense-cycle-{length}.xlsx", {"Data": rows}, **extra)
