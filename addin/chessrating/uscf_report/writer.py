"""Writing the three tables with the ``dbf`` library, all three or none.

The tables are written into a temporary folder inside the target folder, beside the
files they replace, and then moved into place; the report files already there are moved
aside first and put back if any move fails, so a failed export leaves the folder as it
was and a second export replaces the three together.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import dbf

from ..errors import RatingError
from .layout import (EVENT_FIELDS, FILE_NAMES, PLAYER_FIELDS, SECTION_FIELDS, Field, ReportInfo,
                     Value, report_records, round_fields)
from .preflight import preflight
from .source import Tournament

__all__ = ["write_report", "write_table"]


def write_table(path: Path, fields: Sequence[Field], rows: Sequence[dict[str, Value]]) -> None:
    """One dBASE III table without memo: character fields left-justified, dates ``YYYYMMDD``."""
    specs = [f"{f.name} D" if f.type == "D" else f"{f.name} C({f.length})" for f in fields]
    table = dbf.Table(str(path), specs, dbf_type="db3", codepage="ascii")
    table.open(dbf.READ_WRITE)
    try:
        for row in rows:
            table.append(tuple(row[f.name] for f in fields))
    finally:
        table.close()


def _publish(staging: Path, folder: Path) -> None:
    """Move the three new files from ``staging`` into ``folder``; on failure put the old back."""
    aside = Path(tempfile.mkdtemp(prefix=".uscf-report-old-", dir=folder))
    kept: list[str] = []
    placed: list[str] = []
    try:
        for name in FILE_NAMES:
            if (folder / name).exists():
                os.replace(folder / name, aside / name)
                kept.append(name)
        for name in FILE_NAMES:
            os.replace(staging / name, folder / name)
            placed.append(name)
    except BaseException:
        for name in placed:
            os.replace(folder / name, staging / name)
        for name in kept:
            os.replace(aside / name, folder / name)
        os.rmdir(aside)  # empty again; if not, the old files stay there rather than be lost
        raise
    shutil.rmtree(aside)


def write_report(t: Tournament, info: ReportInfo, folder: str | os.PathLike[str], *,
                 check: bool = True) -> list[Path]:
    """Write ``THEXPORT.DBF``, ``TSEXPORT.DBF`` and ``TDEXPORT.DBF`` into ``folder``.

    With ``check`` (the default) nothing is written while the pre-flight check finds a
    problem; without it, values the format cannot hold still stop the export. Either
    way a failed export leaves ``folder`` as it was. Returns the three paths.
    """
    if check:
        issues = preflight(t, info)
        if issues:
            raise RatingError(f"report: {len(issues)} problem(s) to fix first, the first: {issues[0]}")
    records = report_records(t, info)
    tables = ((EVENT_FIELDS, [records.event]), (SECTION_FIELDS, records.sections),
              (PLAYER_FIELDS + round_fields(records.rounds), records.players))
    target = Path(folder)
    created = not target.exists()
    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".uscf-report-new-", dir=target))
    try:
        for name, (fields, rows) in zip(FILE_NAMES, tables):
            write_table(staging / name, fields, rows)
        _publish(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not any(target.iterdir()):
            target.rmdir()
        raise
    shutil.rmtree(staging)
    return [target / name for name in FILE_NAMES]
