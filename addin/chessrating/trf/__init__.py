"""FIDE Tournament Report Files (TRF16 and TRF26).

- :mod:`.codec`: reading and writing TRF text, tolerant of what real files hold, into
  and out of the tournament model (:mod:`chessrating.tournament`); :mod:`.decoding`
  turns a file's bytes into that text (UTF-8, UTF-16, or 8-bit line by line).
- :mod:`.export`, :mod:`.preflight` and :mod:`.ranks`: ``chessrating export-trf``, a filled
  workbook into the FIDE rating report, with a rating officer's pre-flight check and the
  ranks it writes (the TRF file's, where the workbook was made from one); :mod:`.bookevent`
  reads the workbook's event, players and rounds, :mod:`.bookgames` its games (a result
  cell's TRF code), :mod:`.celldates` its date cells as they show; :mod:`.outputs`
  replaces the TRF file and its check together (never a file given).
- :mod:`.plaintext`: text for line-based, fixed-column records (TRF, US Chess's dBASE
  fields): no line break or control of any kind, one column per character for every reader.
- :mod:`.fidelist` and :mod:`.fill`: the FIDE rating list, and ``chessrating fide-list``;
  :mod:`.listfile` opens the list within bounds (a zip's one file), :mod:`.listxml` reads
  its XML variant.
- :mod:`.bookview` (and :mod:`.bookxml`, the parts read as streams): a filled workbook as
  ``export-trf``, ``fide-list --fill``, ``pair`` and ``export-uscf`` read it, only where
  its names point.
- :mod:`.national`: TRF-2026's national records (a federation's own ID, rating and region
  per player), where ``import-trf --system uscf`` finds US Chess IDs and states.

The package reads and writes files and workbooks cell by cell; it builds no workbook
(``chessrating import-trf``, a file into a filled workbook, is :mod:`chessrating.import_trf`).
"""

from __future__ import annotations

from .codec import decode_trf, parse_date, parse_trf, read_trf, save_trf, write_trf

__all__ = ["read_trf", "parse_trf", "decode_trf", "parse_date", "write_trf", "save_trf"]
