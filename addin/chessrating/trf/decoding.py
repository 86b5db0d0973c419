"""The bytes of a TRF file as text (:mod:`.codec` reads it on).

UTF-16 by its byte-order mark, else UTF-8 (with or without BOM) where the whole file is,
else line by line: each line UTF-8 where it is, Windows-1252 where it is not, Latin-1
where a byte has no Windows-1252 character; the lines not read as UTF-8 are named in the
reader's warnings (:func:`fallback_note`).
"""

from __future__ import annotations

import re

__all__ = ["decode_trf", "decode_lines", "fallback_encoding", "fallback_note"]


def decode_trf(data: bytes) -> tuple[str, int | None]:
    """Text of a file's bytes: UTF-16 when it starts with a UTF-16 byte-order mark, else
    UTF-8 (a BOM is dropped) when the whole file is valid UTF-8, else line by line
    (:func:`decode_lines`): each line UTF-8 where it is, Windows-1252 where it is not
    (what Windows pairing programs write: ``Š`` is byte 0x8A there), Latin-1 where a
    byte has no Windows-1252 character. A file that is UTF-8 but for one line keeps
    every other line's accents, so no column of theirs shifts.

    Returns the text and, when UTF-8 failed, the number of the first line that is not
    UTF-8 (``None`` otherwise).

    >>> decode_trf(b"\\xef\\xbb\\xbf012 M\\xc3\\xbcller"), decode_trf(b"012 A\\r022 M\\xfcnchen")
    (('012 Müller', None), ('012 A\\r022 München', 2))
    >>> decode_trf("012 Müller".encode("utf-16"))
    ('012 Müller', None)
    """
    text, odd = decode_lines(data)
    return text, odd[0][0] if odd else None


def decode_lines(data: bytes) -> tuple[str, list[tuple[int, str]]]:
    """Text of a file's bytes and the lines not read as UTF-8: (line number, encoding
    name as :func:`fallback_encoding` gives it), in order.

    >>> decode_lines("012 Tromsø\\n022 Tromsø\\n".encode() + "032 Tromsø".encode("cp1252"))
    ('012 Tromsø\\n022 Tromsø\\n032 Tromsø', [(3, 'Windows-1252')])
    """
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError:
            pass  # not UTF-16 after all: read on as 8-bit text
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    pieces = re.split(rb"(\r\n|\r|\n)", data.removeprefix(b"\xef\xbb\xbf"))
    odd: list[tuple[int, str]] = []
    for at in range(0, len(pieces), 2):  # line texts at even places, their ends between
        try:
            pieces[at] = pieces[at].decode("utf-8")  # type: ignore[call-overload]
        except UnicodeDecodeError:
            encoding = fallback_encoding(pieces[at])
            odd.append((at // 2 + 1, encoding))
            pieces[at] = pieces[at].decode(_FALLBACKS[encoding])  # type: ignore[call-overload]
    return "".join(p if isinstance(p, str) else p.decode("ascii") for p in pieces), odd


_FALLBACKS = {"Windows-1252": "cp1252", "Latin-1": "latin-1"}


def fallback_encoding(data: bytes) -> str:
    """The encoding a line that is not UTF-8 is read in, as the warnings name it.

    >>> fallback_encoding(b"\\x8aari\\xe6"), fallback_encoding(b"\\x81")
    ('Windows-1252', 'Latin-1')
    """
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return "Latin-1"
    return "Windows-1252"


def fallback_note(odd: list[tuple[int, str]], text: str) -> list[tuple[int, str]]:
    """The reader's warnings for the lines :func:`decode_lines` did not read as UTF-8:
    one for the file when no line is UTF-8 beyond ASCII (a file written in one 8-bit
    encoding), else one for each such line (a file that is UTF-8 but for them)."""
    encodings = sorted({e for _, e in odd}, reverse=True)
    odd_lines = {n for n, _ in odd}
    lines = re.split(r"\r\n|\r|\n", text)
    utf8 = any(not line.isascii() for n, line in enumerate(lines, 1) if n not in odd_lines)
    if not utf8:
        return [(odd[0][0], f"the file is not UTF-8; read as {encodings[0]}"
                 + (f" (line {next(n for n, e in odd if e == 'Latin-1')} as Latin-1)"
                    if len(encodings) > 1 else ""))]
    return [(n, f"line {n} is not UTF-8, unlike the rest of the file; read as {e}") for n, e in odd]
