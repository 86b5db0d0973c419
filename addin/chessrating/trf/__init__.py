"""FIDE Tournament Report Files (TRF16 and TRF26).

- :mod:`.model`: the tournament a file describes (players, games, warnings).
- :mod:`.codec`: reading and writing TRF text, tolerant of what real files hold.
- :mod:`.importer`: ``chessrating import-trf``, a file into a filled, recalculated workbook.
- :mod:`.export` and :mod:`.preflight`: ``chessrating export-trf``, a filled workbook into
  the FIDE rating report, with a rating officer's pre-flight check.
- :mod:`.fidelist` and :mod:`.fill`: the FIDE rating list, and ``chessrating fide-list``;
  :mod:`.listfile` opens the list within bounds (a zip's one file), :mod:`.listxml` reads
  its XML variant.
- :mod:`.bookview` (and :mod:`.bookxml`, the parts read as streams): a filled workbook as
  ``export-trf`` and ``fide-list --fill`` read it, only where its names point.
"""

from __future__ import annotations

from .codec import decode_trf, parse_date, parse_trf, read_trf, save_trf, write_trf

__all__ = ["read_trf", "parse_trf", "decode_trf", "parse_date", "write_trf", "save_trf"]
