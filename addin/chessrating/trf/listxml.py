"""The XML variant of the FIDE rating list, read as a stream by an XML parser (expat).

FIDE's XML is one level of players and one of fields, text only:
``<playerslist><player><fideid>1503014</fideid><name>…</name><country>NOR</country> …
</player> …</playerslist>``. Expat's callbacks keep nothing but the fields of the player
being read, so memory stays flat over the 856 MB list and over whatever a file made to
exhaust it holds. What FIDE's list never has refuses the file, naming it and the line:

* a document type declaration (and so any entity: FIDE's list declares none);
* an element among the players other than ``<player>``, one inside a field, or a player
  of more than :data:`MAX_FIELDS` fields;
* elements of under :data:`MIN_ELEMENT_BYTES` bytes on average (FIDE's: over 20), past
  the first million: time goes by elements, and a file of tiny ones is made to waste it;
* a document that is not well formed (one cut short ends inside an element).

A player whose first field is not a ``<fideid>`` asked for (or is one read before: the ID
is on two lines) is not read further: expat then calls back only at each element's end
(FIDE's players start with their ID; the first player of a file is read whole, to tell
the list's kind).

A field's text past :data:`MAX_TEXT` characters is not kept: its player cannot be filled
and is named, as a damaged line of the TXT list is (:func:`.fidelist.problem_of`).
"""

from __future__ import annotations

import pyexpat
from typing import Any, BinaryIO

from ..errors import RatingError
from .fidelist import FideList, player_from_fields, problem_of

__all__ = ["read_xml", "MAX_FIELDS", "MAX_TEXT", "MIN_ELEMENT_BYTES"]

MAX_FIELDS = 64
MAX_TEXT = 256
MIN_ELEMENT_BYTES = 16
_DENSITY_FROM = 1_000_000
_CHUNK = 1 << 20
_TAGS = {"fideid": "id", "name": "name", "country": "fed", "sex": "sex", "title": "title",
         "w_title": "w_title", "o_title": "o_title", "foa_title": "foa",
         "rating": "rating", "games": "games", "k": "k", "birthday": "born", "flag": "flag",
         **{f"{k}_{f}": f"{k}{g}" for k in ("rapid", "blitz")
            for f, g in (("rating", ""), ("games", "_games"), ("k", "_k"))}}
_STANDARD = {"rating": "standard", "games": "standard_games", "k": "standard_k"}


class _Refused(Exception):
    """The file is no FIDE XML list (the message says why)."""


class _Players:
    """Expat's handlers: each ``<player>``'s fields, kept only for the IDs asked for."""

    def __init__(self, parser: Any, kind: str | None, ids: set[int] | None, result: FideList) -> None:
        self.parser, self.kind, self.ids, self.result = parser, kind, ids, result
        self.depth = 0
        self.fields: dict[str, str] = {}
        self.field: str | None = None
        self.text: list[str] = []
        self.size = 0
        self.line = 0
        self.long: str | None = None
        self.children = 0
        self.elements = 0
        self.combined: bool | None = None

    def start(self, name: str, attrs: Any) -> None:
        self.depth += 1
        if self.depth == 2:
            if name != "player":
                raise _Refused(f"<{name}> among the players, where FIDE's list has only <player>")
            self.fields, self.long, self.children = {}, None, 0
            self.line = self.parser.CurrentLineNumber
        elif self.depth == 3:
            self.children += 1
            if self.children > MAX_FIELDS:
                raise _Refused(f"a player of more than {MAX_FIELDS} fields")
            self.field, self.text, self.size = name, [], 0
        elif self.depth > 3:
            raise _Refused(f"<{name}> inside a player's field")

    def data(self, text: str) -> None:
        if self.field is not None and self.size <= MAX_TEXT:
            self.text.append(text)
            self.size += len(text)

    def end(self, name: str) -> None:
        self.elements += 1
        if self.depth == 3 and self.field is not None:
            if self.size > MAX_TEXT:
                self.long = f"<{name}> is longer than {MAX_TEXT} characters"
            value = self.fields[_TAGS.get(name, name)] = "".join(self.text).strip()[:MAX_TEXT]
            self.field = None
            if self.combined is not None and self.ids is not None and self.children == 1:
                self.skip_unless_wanted(value if name == "fideid" else "")
        elif self.depth == 2:
            self.player()
        self.depth -= 1

    def skip_unless_wanted(self, value: str) -> None:
        """Read no further a player not asked for (``value``, its first field's, is not
        an ID asked for: FIDE's players start with ``<fideid>``), or asked for and read
        before (kept as on two lines); expat then calls back only at elements' ends, up to
        the player's."""
        wanted = self.ids or set()
        fide_id = int(value) if value.isascii() and value.isdigit() else None
        if fide_id is not None and fide_id in wanted:
            if not self.result.seen(fide_id):
                return
            self.result.keep(fide_id, self.line, None, None)
        self.parser.StartElementHandler = None
        self.parser.CharacterDataHandler = None
        self.parser.EndElementHandler = self.end_skipped

    def end_skipped(self, name: str) -> None:
        self.elements += 1
        if not self.elements & 0xFFFF:  # a player skipped may hold any number of elements
            self.dense()
        if name == "player":
            self.parser.StartElementHandler = self.start
            self.parser.CharacterDataHandler = self.data
            self.parser.EndElementHandler = self.end
            self.depth = 1
            self.result.lines += 1
            self.dense()

    def dense(self) -> None:
        """Refuse a file of tiny elements (see the module's notes)."""
        if self.elements > _DENSITY_FROM and \
                self.elements * MIN_ELEMENT_BYTES > self.parser.CurrentByteIndex:
            raise _Refused(f"{self.elements:,} elements in {self.parser.CurrentByteIndex:,} bytes, "
                           f"under {MIN_ELEMENT_BYTES} bytes an element (FIDE's list: over 20)")

    def player(self) -> None:
        self.result.lines += 1
        self.dense()
        values = self.fields
        if self.combined is None:
            self.combined = "rapid" in values or self.kind == "combined"
            if not self.combined and self.kind in (None, "combined"):
                raise RatingError(f"list: {self.result.shown}: a list of one rating type whose "
                                  "name does not say which (standard, rapid or blitz); name the "
                                  "file as FIDE does")
            self.result.kind = "combined" if self.combined else self.kind  # type: ignore[assignment]
            self.result.layout = "XML"
        raw_id = values.get("id", "")
        fide_id = int(raw_id) if raw_id.isascii() and raw_id.isdigit() else None
        if self.ids is not None and fide_id not in self.ids:
            return
        if fide_id is None:
            self.result.warnings.append(f"line {self.line}: no FIDE ID in <fideid>")
            return
        if self.combined:
            values = {_STANDARD.get(k, k): v for k, v in values.items()}
        words = {field: f"<{tag}>" for tag, field in _TAGS.items()}
        words.update({s: f"<{t}>" for t, s in _STANDARD.items()})
        problem = self.long or problem_of(values, words)
        player = player_from_fields(values, self.result.kind) if problem is None else None
        self.result.keep(fide_id, self.line, player, problem)


def read_xml(stream: BinaryIO, kind: str | None, ids: set[int] | None, result: FideList) -> None:
    """Read the XML list from ``stream`` into ``result`` (the players of ``ids``, or all)."""
    parser = pyexpat.ParserCreate()
    parser.buffer_text = True
    players = _Players(parser, kind, ids, result)
    parser.StartElementHandler = players.start
    parser.EndElementHandler = players.end
    parser.CharacterDataHandler = players.data

    def no_doctype(*_: Any) -> None:
        raise _Refused("a document type declaration, which FIDE's list never has")
    parser.StartDoctypeDeclHandler = no_doctype
    try:
        while chunk := stream.read(_CHUNK):
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except _Refused as refused:
        raise RatingError(f"list: {result.shown}, line {parser.CurrentLineNumber}: {refused}; "
                          "not a FIDE XML list") from None
    except pyexpat.ExpatError as error:
        reason = pyexpat.ErrorString(error.code)
        raise RatingError(f"list: {result.shown}, line {error.lineno}, column {error.offset + 1}: "
                          f"not well-formed XML ({reason}): damaged, or cut short (an "
                          "interrupted download?)") from None
