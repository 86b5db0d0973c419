"""Reading an .xlsx zip within bounds, and writing a file so it is whole or absent.

A workbook is a zip; a hand-made or damaged one may declare members that expand to
gigabytes (a "zip bomb"), or hold a member whose bytes are corrupt. :func:`check_archive`
refuses both before anything reads the file: it checks every member's declared size
and compression ratio in the zip directory, then reads every member once, streamed in
small chunks, counting the bytes it really expands to and verifying its CRC. After it,
openpyxl and the writer only ever meet members of a known, bounded size (Python's
zipfile stops a member at its declared size). Each refusal is one line naming the
user's file and the member: ``BOOK.xlsx: xl/worksheets/sheet1.xml expands past 500 MB;
not a workbook Excel wrote``.

:func:`atomic_output` writes beside the destination under a recognisable temporary name
(``.BOOK.xlsx.~tmp-XXXX``), syncs it to disk and renames it over the destination in one
step, with the mode a new file gets (``0666`` less the umask) or, when the destination
exists (an in-place recalc), its own mode. Whatever stops the writing (an error,
Ctrl-C, SIGTERM turned into ``SystemExit`` by the command line) removes the temporary.
"""

from __future__ import annotations

import contextlib
import copy
import os
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["RecalcError", "MEMBER_LIMIT", "TOTAL_LIMIT", "check_archive", "read_member",
           "not_a_zip", "compound_streams",
           "copy_member", "atomic_output", "draft_path", "publish", "new_file_mode", "TEMP_MARK"]

MB = 1 << 20
# Far above any sheet Excel writes (a full 1,048,576-row sheet of numbers is ~60 MB),
# far below what would exhaust memory once parsed.
MEMBER_LIMIT = 500 * MB
TOTAL_LIMIT = 1024 * MB
# Deflate expands at most ~1032:1; XML sheets compress 10-50:1. A large member packed
# tighter than this is made to expand, not a sheet.
RATIO_LIMIT = 200
RATIO_CHECKED_FROM = 20 * MB
CHUNK = MB
TEMP_MARK = ".~tmp-"
# What zipfile and zlib raise for a member they cannot expand.
_CORRUPT = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError,
            RuntimeError)


class RecalcError(Exception):
    """The workbook cannot be read (missing, not an .xlsx, damaged) or written."""


def _size(n: int) -> str:
    return f"{n // MB} MB" if n >= MB else f"{n} bytes"


def _past(shown: str, member: str, limit: int) -> RecalcError:
    return RecalcError(f"{shown}: {member} expands past {_size(limit)}; "
                       "not a workbook Excel wrote")


def check_archive(path: Path, shown: str | None = None, *, member_limit: int = MEMBER_LIMIT,
                  total_limit: int = TOTAL_LIMIT, keep: Callable[[str], bool] | None = None
                  ) -> dict[str, bytes]:
    """Raise :class:`RecalcError` unless ``path`` is a zip whose every member expands
    within the limits and reads back intact. ``shown`` is the name used in messages.
    The bytes of the members whose name ``keep`` accepts are kept as they are read and
    returned by name, for a reader that would otherwise expand them a second time."""
    shown = shown or str(path)
    kept: dict[str, bytes] = {}
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            declared = 0
            for info in infos:
                if info.file_size > member_limit:
                    raise _past(shown, info.filename, member_limit)
                if (info.file_size > RATIO_CHECKED_FROM
                        and info.file_size > RATIO_LIMIT * max(info.compress_size, 1)):
                    raise RecalcError(
                        f"{shown}: {info.filename} expands {info.file_size // max(info.compress_size, 1)}"
                        f" times its packed size; not a workbook Excel wrote")
                declared += info.file_size
                if declared > total_limit:
                    raise _past(shown, "the workbook", total_limit)
            total = 0
            for info in infos:
                if info.is_dir():
                    continue
                size = 0
                parts: list[bytes] | None = [] if keep is not None and keep(info.filename) else None
                for chunk in _chunks(archive, info, shown):
                    size += len(chunk)
                    total += len(chunk)
                    if size > member_limit:
                        raise _past(shown, info.filename, member_limit)
                    if total > total_limit:
                        raise _past(shown, "the workbook", total_limit)
                    if parts is not None:
                        parts.append(chunk)
                if parts is not None:
                    kept[info.filename] = b"".join(parts)
    except FileNotFoundError:
        raise RecalcError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise RecalcError(f"{shown}: is a folder, not a workbook") from None
    except PermissionError:
        raise RecalcError(f"{shown}: permission denied") from None
    except _CORRUPT as exc:
        raise RecalcError(f"{shown}: not an .xlsx workbook ({_reason(exc)})") from None
    except OSError as exc:
        raise RecalcError(f"{shown}: cannot be read ({exc.strerror or exc})") from None
    return kept


# An OLE compound file (MS-CFB): what Excel saves an encrypted (password-protected)
# workbook as, the .xlsx package inside its EncryptedPackage stream (MS-OFFCRYPTO 2.3.4),
# and what Excel 97-2003 saved a .xls as (its Workbook stream, "Book" before Excel 97).
COMPOUND_SIGNATURE = bytes.fromhex("d0cf11e0a1b11ae1")
_END_OF_CHAIN = 0xFFFFFFFE


def not_a_zip(path: Path, shown: str) -> RecalcError:
    """The refusal of a file that is no zip, saying what it is where that is known: an
    encrypted workbook, a .xls, or neither."""
    streams = compound_streams(path)
    if streams is None:
        return RecalcError(f"{shown}: not an .xlsx workbook")
    if {"EncryptionInfo", "EncryptedPackage"} <= streams:
        return RecalcError(f"{shown}: the workbook is encrypted (protected by a password to "
                           "open); save a copy without the password in Excel and recalc that")
    if streams & {"Workbook", "Book"}:
        return RecalcError(f"{shown}: an Excel 97-2003 workbook (.xls), not an .xlsx; "
                           "save it as .xlsx in Excel or LibreOffice first")
    return RecalcError(f"{shown}: an OLE compound file (an old Office document), not an "
                       ".xlsx workbook")


def compound_streams(path: Path) -> set[str] | None:
    """The names in an OLE compound file's directory (MS-CFB 2.2, 2.6), ``None`` for a
    file that is not one. The directory's chain is followed through the FAT sectors the
    header lists (109: files up to ~7 MB with 512-byte sectors, far more with 4096), at
    most once around: a damaged chain gives the names read so far."""
    try:
        with open(path, "rb") as stream:
            header = stream.read(512)
            if len(header) < 512 or not header.startswith(COMPOUND_SIGNATURE):
                return None
            shift = int.from_bytes(header[0x1E:0x20], "little")
            if shift not in (9, 12):
                return set()
            size = 1 << shift
            fat_sectors = [n for n in (int.from_bytes(header[at:at + 4], "little")
                                       for at in range(0x4C, 0x200, 4)) if n < _END_OF_CHAIN]

            def sector(n: int) -> bytes:
                stream.seek((n + 1) << shift)
                return stream.read(size)
            fat = b"".join(sector(n) for n in fat_sectors)
            names: set[str] = set()
            seen: set[int] = set()
            at = int.from_bytes(header[0x30:0x34], "little")
            while at < _END_OF_CHAIN and at not in seen and 4 * at < len(fat):
                seen.add(at)
                entries = sector(at)
                for start in range(0, len(entries) - 127, 128):
                    entry = entries[start:start + 128]
                    length = int.from_bytes(entry[0x40:0x42], "little")
                    if entry[0x42] in (1, 2) and 2 <= length <= 64:  # a storage or a stream
                        names.add(entry[:length - 2].decode("utf-16-le", "replace"))
                at = int.from_bytes(fat[4 * at:4 * at + 4], "little")
            return names
    except OSError:
        return None


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
    return text[:120]


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str) -> Iterator[bytes]:
    try:
        with archive.open(info) as member:
            while chunk := member.read(CHUNK):
                yield chunk
    except _CORRUPT as exc:
        raise RecalcError(f"{shown}: {info.filename} is damaged ({_reason(exc)})") from None


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str,
                limit: int = MEMBER_LIMIT) -> bytes:
    """A member's bytes, read in chunks and refused past ``limit``."""
    parts: list[bytes] = []
    size = 0
    for chunk in _chunks(archive, info, shown):
        size += len(chunk)
        if size > limit:
            raise _past(shown, info.filename, limit)
        parts.append(chunk)
    return b"".join(parts)


def copy_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, out: zipfile.ZipFile,
                shown: str) -> None:
    """Copy one member streamed, with its name, date, attributes and compression."""
    # a copy: opening for writing resets the sizes the reader still needs
    with out.open(copy.copy(info), "w") as target:
        for chunk in _chunks(archive, info, shown):
            target.write(chunk)


def new_file_mode() -> int:
    """The mode ``open(path, "w")`` gives a new file: 0666 less the umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_output(dst: Path) -> Iterator[BinaryIO]:
    """A binary file to write ``dst`` through: renamed onto ``dst`` only when the block
    ends normally, removed otherwise. Mode: ``dst``'s own when it exists, else a new
    file's."""
    try:
        mode = stat.S_IMODE(dst.stat().st_mode)
    except OSError:
        mode = new_file_mode()
    handle, name = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}{TEMP_MARK}")
    tmp = Path(name)
    try:
        with os.fdopen(handle, "w+b") as stream:
            yield stream
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(tmp, dst)
        _sync_folder(dst.parent)
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def draft_path(dst: Path) -> Iterator[Path]:
    """A path beside ``dst`` (same extension) to build a file at before it is finished
    into ``dst``; removed when the block ends, however it ends."""
    try:
        handle, name = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.stem}{TEMP_MARK}",
                                        suffix=dst.suffix)
    except OSError as exc:  # name the user's file, not the temporary one
        raise RecalcError(f"{dst}: cannot be written ({exc.strerror or exc})") from None
    os.close(handle)
    draft = Path(name)
    try:
        yield draft
    finally:
        draft.unlink(missing_ok=True)


def publish(draft: Path, dst: Path) -> None:
    """Move a finished ``draft`` onto ``dst`` as :func:`atomic_output` does: a new file's
    mode, its bytes and the rename made durable. A failure names ``dst``."""
    try:
        os.chmod(draft, new_file_mode())
        with open(draft, "rb+") as stream:
            os.fsync(stream.fileno())
        os.replace(draft, dst)
    except OSError as exc:
        raise RecalcError(f"{dst}: cannot be written ({exc.strerror or exc})") from None
    _sync_folder(dst.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system lets a folder be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
