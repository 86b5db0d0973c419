"""Opening a FIDE rating list file within bounds: the file itself, or a zip's one list.

FIDE's downloads are zips holding one file, packed with Deflate, not encrypted: the
combined TXT list (``players_list.zip``, about 300 MB and 1.9 million lines unpacked, 7-10
times its packed size) and its XML variant (856 MB unpacked, 15-25 times). A zip made to
exhaust the reader ("zip bomb": 2 MB that expand to gigabytes, 1,000 times or more) is told
from them by what FIDE's never are, checked in the zip's directory before a byte is
unpacked:

* more than :data:`MAX_MEMBERS` members, or not exactly one ``.txt`` or ``.xml`` file;
* a member encrypted, or packed with a method Python cannot unpack (Deflate64, which
  Windows uses past 2 GB; PPMd …);
* a member past :data:`RATIO_FROM` that expands more than :data:`MAX_RATIO` times its packed
  size, or past :data:`MAX_MEMBER_BYTES` whatever its ratio.

Python's zipfile stops a member at the size the directory declares and checks its CRC
there, so the declared sizes bound what is read. Lines are bounded by the reader
(:mod:`.fidelist`: a line longer than FIDE's is refused, not read whole). A file that
starts as a zip but is none (an interrupted download loses the directory at the end) is
refused as one, not read as text. Every refusal is a :class:`RatingError` naming the
user's file.
"""

from __future__ import annotations

import contextlib
import io
import os
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

from ..errors import RatingError

__all__ = ["ListStream", "open_list", "MAX_MEMBERS", "MAX_RATIO", "RATIO_FROM",
           "MAX_MEMBER_BYTES", "CHUNK"]

MAX_MEMBERS = 16
MAX_RATIO = 60
RATIO_FROM = 16 << 20
MAX_MEMBER_BYTES = 2 << 30
# Read buffer of a zip member: large reads keep the decompression and line splitting fast.
CHUNK = 1 << 20
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "Deflate",
            zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}
_OTHER_METHODS = {9: "Deflate64", 98: "PPMd", 93: "Zstandard", 95: "XZ", 97: "WavPack",
                  99: "AES encryption"}


@dataclass
class ListStream:
    """The list's bytes, the name of the file they are (the member of a zip), and the
    user's file as messages name it (``'players_list.zip' (players_list_foa.txt)``)."""

    stream: BinaryIO
    name: str
    shown: str


def _refuse(shown: str, what: str) -> RatingError:
    return RatingError(f"list: {shown}: {what}")


def _member(archive: zipfile.ZipFile, shown: str) -> zipfile.ZipInfo:
    """The zip's one list file, refused unless it unpacks as FIDE's do."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _refuse(shown, f"a zip of {len(infos):,} files; a FIDE list download holds one")
    members = [i for i in infos if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))]
    if len(members) != 1:
        raise _refuse(shown, f"holds {len(members)} TXT or XML files; a FIDE list download holds one")
    info = members[0]
    if info.flag_bits & 0x1:
        raise _refuse(shown, f"{info.filename} is encrypted (protected by a password); FIDE's "
                             "download is not: download it again, or give the unpacked file")
    if info.compress_type not in _METHODS:
        method = _OTHER_METHODS.get(info.compress_type, f"method {info.compress_type}")
        raise _refuse(shown, f"{info.filename} is packed with {method}, which this reader "
                             "cannot unpack; FIDE packs with Deflate: unpack it with another "
                             "program and give the .txt or .xml")
    packed = max(info.compress_size, 1)
    if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * packed:
        raise _refuse(shown, f"{info.filename} expands {info.file_size // packed:,} times its "
                             f"packed size, to {info.file_size:,} bytes (FIDE's lists: 7 to 25 "
                             f"times; refused past {MAX_RATIO}): a zip bomb, not a FIDE list")
    if info.file_size > MAX_MEMBER_BYTES:
        raise _refuse(shown, f"{info.filename} expands to {info.file_size:,} bytes, past "
                             f"{MAX_MEMBER_BYTES >> 30} GB (FIDE's largest list, the XML, is "
                             "856 MB): not a FIDE list")
    return info


@contextlib.contextmanager
def open_list(source: str | os.PathLike[str] | BinaryIO) -> Iterator[ListStream]:
    """The list's byte stream: a zip's one list file (streamed, never unpacked to disk),
    else the file itself. ``source`` is a path or a binary stream that can seek."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        shown = repr(str(path))
        try:
            handle: IO[bytes] = open(path, "rb")
        except OSError as error:
            raise _refuse(shown, f"cannot be read ({error.strerror})") from None
        name = path.name
    else:
        handle, name = source, getattr(source, "name", "") or ""
        shown = repr(str(name)) if name else "the list"
    with handle:
        start = handle.read(4)
        handle.seek(0)
        if not start.startswith(b"PK"):
            yield ListStream(handle, name, shown)  # type: ignore[arg-type]
            return
        try:
            archive = zipfile.ZipFile(handle)
        except (zipfile.BadZipFile, EOFError, ValueError) as error:
            raise _refuse(shown, f"a damaged zip, or one cut short (an interrupted download?): "
                                 f"{error}") from None
        with archive:
            info = _member(archive, shown)
            try:
                member = archive.open(info)
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError) as error:
                raise _refuse(shown, f"{info.filename} cannot be unpacked ({error})") from None
            with member:
                yield ListStream(io.BufferedReader(member, CHUNK),  # type: ignore[arg-type,type-var]
                                 info.filename, f"{shown} ({info.filename})")
