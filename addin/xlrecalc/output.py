"""Where a result goes: the output path, checked before any work.

A command that writes a workbook names its output (or takes the default beside the
input, or a folder) and has it checked here before it reads anything: the name must
be ``.xlsx``/``.xlsm`` and the kind the content is, the folder must exist, and the
name must not be a folder. :func:`same_file` tells a command that must not write over
its input that it would. Writing the file whole (a draft, a rename) is
:mod:`.archive`'s.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from .archive import RecalcError, read_member

__all__ = ["WORKBOOK_SUFFIXES", "default_output", "content_kind", "output_path", "same_file"]


# Excel opens a workbook only under the extension its content type has.
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def default_output(src: Path, kind: str | None = None) -> Path:
    """``BOOK-recalc.xlsx`` beside ``BOOK.xlsx`` (``.xlsm`` for a macro workbook);
    ``kind`` is the extension the content calls for (:func:`content_kind`), where known.

    >>> default_output(Path("a/open.xlsm")).as_posix(), default_output(Path("open.zip")).as_posix()
    ('a/open-recalc.xlsm', 'open-recalc.xlsx')
    >>> default_output(Path("macros.xlsx"), ".xlsm").as_posix()
    'macros-recalc.xlsm'
    """
    suffix = kind or (src.suffix if src.suffix.lower() in WORKBOOK_SUFFIXES else ".xlsx")
    return src.with_name(f"{src.stem}-recalc{suffix}")


# The workbook part's content type: a macro workbook's (or macro template's) names
# "macroEnabled"; Excel opens a file only under the extension its content type has.
_CONTENT_TYPES = "[Content_Types].xml"
_TYPES_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_PACKAGE_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def content_kind(src: Path) -> str | None:
    """``.xlsm`` when the workbook part's content type is a macro workbook's, ``.xlsx``
    when it is another workbook's, ``None`` when the package does not say (or cannot be
    read: the reader's checks name that later)."""
    try:
        with zipfile.ZipFile(src) as archive:
            # small parts: a bomb among them is refused, by check_archive, later
            types = ElementTree.fromstring(read_member(
                archive, archive.getinfo(_CONTENT_TYPES), str(src), limit=1 << 20))
            rels = ElementTree.fromstring(read_member(
                archive, archive.getinfo("_rels/.rels"), str(src), limit=1 << 20))
    except (KeyError, OSError, RecalcError, ElementTree.ParseError, zipfile.BadZipFile):
        return None
    part = next((rel.get("Target", "") for rel in rels.iter(_PACKAGE_NS + "Relationship")
                 if rel.get("Type", "").endswith("/officeDocument")), None)
    if part is None:
        return None
    name = "/" + part.lstrip("/")
    found = next((o.get("ContentType", "") for o in types.iter(_TYPES_NS + "Override")
                  if o.get("PartName", "").lower() == name.lower()), None)
    if found is None:
        return None
    return ".xlsm" if "macroenabled" in found.lower() else ".xlsx"


def output_path(src: Path, dst: Path | None, kind: str | None = None, *,
                default: Path | None = None, noun: str = "the output") -> Path:
    """Where the result goes, checked before any work: ``dst``, or ``default`` beside
    ``src`` (:func:`default_output` unless given), or that name inside ``dst`` when it
    is a folder. **Decision**: a name that does not end in ``.xlsx``/``.xlsm`` is
    refused, not given an extension (a file the user did not name would appear), and so
    is a different kind from a macro workbook's (``.xlsm`` in, ``.xlsx`` out: Excel
    would refuse to open it). ``kind``, the extension the content calls for
    (:func:`content_kind`), decides over the input's own name: a macro workbook named
    ``.xlsx`` is written as ``.xlsm``. ``noun`` names the result in the refusals.

    >>> output_path(Path("book.xlsm"), Path("copy.xlsx"), noun="the copy")
    Traceback (most recent call last):
    ...
    xlrecalc.archive.RecalcError: copy.xlsx: the copy must keep the input's extension .xlsm; nothing written
    """
    if default is None:
        default = default_output(src, kind)
    if dst is None:
        dst = default
    elif dst.is_dir():
        dst = dst / default.name
    if dst.suffix.lower() not in WORKBOOK_SUFFIXES:
        raise RecalcError(f"{dst}: {noun} must be named .xlsx (or .xlsm for a macro "
                          "workbook); nothing written")
    if kind is not None and kind != src.suffix.lower() and dst.suffix.lower() != kind:
        what = "a macro workbook" if kind == ".xlsm" else "a workbook without macros"
        raise RecalcError(f"{dst}: {src.name} is {what} whatever its name says; {noun} "
                          f"must be named {kind}; nothing written")
    expected = kind or (src.suffix.lower() if src.suffix.lower() in WORKBOOK_SUFFIXES else None)
    if expected is not None and dst.suffix.lower() != expected:
        raise RecalcError(f"{dst}: {noun} must keep the input's extension "
                          f"{expected}; nothing written")
    if not dst.parent.is_dir():
        raise RecalcError(f"{dst}: the folder {dst.parent} does not exist; nothing written")
    if dst.exists() and not dst.is_file():
        raise RecalcError(f"{dst}: not a file; nothing written")
    return dst


def same_file(source: Path, output: Path) -> bool:
    """``output`` names the file ``source`` names (the same path, or a link to the same
    file): a command that must not write over its input refuses it. ``False`` where the
    system cannot tell.

    >>> same_file(Path("a/../book.xlsx"), Path("book.xlsx")), same_file(Path("a.trf"), Path("a.xlsx"))
    (True, False)
    """
    try:
        return source.resolve() == output.resolve() or (output.exists() and os.path.samefile(source, output))
    except OSError:
        return False
