"""The US Chess rating report: the three dBASE III tables a director uploads (format 2C).

* :mod:`.source` — the one import of the tournament model.
* :mod:`.layout` — the published field lists (:data:`EVENT_FIELDS`, :data:`SECTION_FIELDS`,
  :data:`PLAYER_FIELDS`, :func:`round_fields`), :class:`ReportInfo` (what the report needs
  beyond the tournament: affiliate, TD IDs, state, ZIP, country, section, rating system,
  the players' US Chess IDs and states), the TRF-code-to-letter mapping
  (:func:`result_letter`, :func:`round_cell`) and the records (:func:`report_records`).
* :mod:`.preflight` — :func:`preflight`: what US Chess would reject, by player and field.
* :mod:`.writer` — :func:`write_report`: the three files, written with the ``dbf``
  library and moved into place together.
* :mod:`.workbook` — :func:`~.workbook.read_uscf_book`: the US Chess event workbook
  (crosstable and Report sheet) read into the tournament and :class:`ReportInfo`.
* :mod:`.export` — ``chessrating export-uscf``: read, check, write (nothing written while
  the check lists a problem).

``docs/USCF-DBF.md`` documents every field and its sources; ``docs/RULES.md`` §8 the
result letters.
"""

from __future__ import annotations

from .layout import (EVENT_FIELDS, FILE_NAMES, PLAYER_FIELDS, RESULT_LETTERS, SECTION_FIELDS, Field,
                     ReportInfo, ReportRecords, report_records, result_letter, round_cell, round_fields)
from .preflight import Issue, preflight
from .writer import write_report

__all__ = [
    "EVENT_FIELDS", "FILE_NAMES", "PLAYER_FIELDS", "RESULT_LETTERS", "SECTION_FIELDS", "Field",
    "Issue", "ReportInfo", "ReportRecords", "preflight", "report_records", "result_letter",
    "round_cell", "round_fields", "write_report",
]
