"""Hostile sheet XML for the value writer (issue 23): markup that a pattern over the bytes
misreads and an XML parser reads as XML defines it.

Each ``make_…`` writes one workbook into a folder and returns its path. In every one A1
holds 2 and B1 the formula ``A1*3`` (so B1 is 6 after a recalculation) with a stale
cached value, plus what the case is about. ``CASES`` lists them with what the written
file must show.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from make_corpus import workbook

HOSTILE_NS = "urn:hostile"


def make_comment(folder: Path) -> Path:
    """A commented-out copy of row 1 (with a B1 inside) before the real row: the comment
    is no cell, so it stays as it is and the real B1 gets the value."""
    rows = ('<!-- <row r="1"><c r="B1"><f>A1*3</f><v>0</v></c></row> -->'
            '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*3</f><v>999</v></c></row>')
    return workbook(folder / "comment.xlsx", {"Data": rows})


def make_cdata(folder: Path) -> Path:
    """B1's formula held in a CDATA section, which must come back unchanged."""
    rows = ('<row r="1"><c r="A1"><v>2</v></c>'
            '<c r="B1"><f><![CDATA[A1*3]]></f><v>0</v></c></row>')
    return workbook(folder / "cdata.xlsx", {"Data": rows})


def make_slash_in_attribute(folder: Path) -> Path:
    """Attribute values holding ``/>`` and ``>`` on the row and on B1 (legal XML)."""
    rows = (f'<row r="1" xmlns:h="{HOSTILE_NS}" h:note="a/>b"><c r="A1"><v>2</v></c>'
            '<c h:note="x/> v>1" r="B1"><f>A1*3</f><v>0</v></c>'
            '<c r="C1" h:note=">"><f>B1+1</f></c></row>')
    return workbook(folder / "slash.xlsx", {"Data": rows})


def make_out_of_order(folder: Path) -> Path:
    """Row 2 listed before row 1, and B1 before A1 in its row: B1 = 6, B2 = 3."""
    rows = ('<row r="2"><c r="B2"><f>A1+1</f></c></row>'
            '<row r="1"><c r="B1"><f>A1*3</f><v>0</v></c><c r="A1"><v>2</v></c></row>')
    return workbook(folder / "order.xlsx", {"Data": rows})


def make_quotes_and_order(folder: Path) -> Path:
    """Single quotes, ``t=`` before ``r=``, spaces around ``=``: B1 was text, now a number."""
    rows = ("<row r='1'><c r = '1' t='n'><v>2</v></c>".replace("r = '1'", "r = 'A1'")
            + "<c t = 'str' s='0' r='B1'><f>A1*3</f><v>stale</v></c></row>")
    return workbook(folder / "quotes.xlsx", {"Data": rows})


# builder, the cells the written sheet must hold (address -> <v> text), and a piece of
# the original sheet XML that must come back byte for byte
CASES: list[tuple[Callable[[Path], Path], dict[str, str], bytes]] = [
    (make_comment, {"B1": "6"}, b'<!-- <row r="1"><c r="B1"><f>A1*3</f><v>0</v></c></row> -->'),
    (make_cdata, {"B1": "6"}, b"<f><![CDATA[A1*3]]></f>"),
    (make_slash_in_attribute, {"B1": "6", "C1": "7"}, b'<c h:note="x/> v>1" r="B1">'),
    (make_out_of_order, {"B1": "6", "B2": "3"}, b'<c r="A1"><v>2</v></c>'),
    (make_quotes_and_order, {"B1": "6"}, b"<c r = 'A1' t='n'><v>2</v></c>"),
]
