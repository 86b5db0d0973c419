"""What a Lite copy writes as text without ``xml.sax.saxutils``: the same characters as
that module writes (chessrating.lite.spans), and the classic How-to paragraphs it looks
for the same the templates write (chessrating.how_to)."""

from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape, quoteattr

from hypothesis import given, strategies as st

from chessrating.how_to import CLASSIC_PAIRING, CLASSIC_SETUP, paragraph_height
from chessrating.lite.spans import escape, start_tag
from chessrating.workbooks import swiss

XML_TEXT = st.text(alphabet=st.sampled_from("&<>\"' \n\r\tab\u00e9\u2028;#") | st.characters(), max_size=40)
LINE_ENDS = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def _quoted_as_before(value: str) -> str:
    """The attribute value the Lite copy wrote with quoteattr: always in double quotes."""
    quoted = quoteattr(value, LINE_ENDS)
    if quoted.startswith("'"):  # quoteattr picks ' when the value holds "
        quoted = '"' + sax_escape(value, {'"': "&quot;", **LINE_ENDS}) + '"'
    return quoted


@given(XML_TEXT)
def test_escape_writes_what_saxutils_writes(text: str) -> None:
    assert escape(text) == sax_escape(text)
    assert escape(text, {'"': "&quot;"}) == sax_escape(text, {'"': "&quot;"})


@given(XML_TEXT, XML_TEXT)
def test_start_tag_quotes_attributes_as_quoteattr_did(first: str, second: str) -> None:
    want = f"<c r={_quoted_as_before(first)} s={_quoted_as_before(second)}>".encode("utf-8")
    assert start_tag("c", {"r": first, "s": second}) == want


def test_quoting_by_example() -> None:
    assert start_tag("c", {"s": "it's \"x\" & <y>\n"}) == b'<c s="it\'s &quot;x&quot; &amp; &lt;y&gt;&#10;">'


def test_the_classic_paragraphs_are_those_the_templates_write() -> None:
    # the Swiss's How-to holds the pairing paragraph a Lite copy replaces
    assert CLASSIC_PAIRING in swiss.HOW_TO
    assert paragraph_height(CLASSIC_SETUP) == 6 * 15 + 3  # 458 characters wrap to six lines of 80
