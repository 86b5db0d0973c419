"""``chessrating publish``: the event as one web page, from a filled workbook.

* :mod:`.reading` — the workbook evaluated in memory by the project's engine (as
  ``chessrating recalc`` evaluates it) and the page's content read from the computed
  cells: the event's name and dates, the standings as the Crosstable computes them, the
  rounds into the package's model (:class:`~chessrating.tournament.Tournament`).
* :mod:`.rounds` — each round's boards in board order, a Swiss crosstable's cells.
* :mod:`.page` — the self-contained HTML5 page, every value escaped.
* :mod:`.command` — the command: where the page goes, the refusal while the workbook's
  Check column names inputs to fix (unless ``--provisional``), the page written whole.
"""

from __future__ import annotations

from .command import PublishRefused, PublishSummary, add_subcommand, default_output, publish_book

__all__ = ["publish_book", "PublishSummary", "PublishRefused", "default_output", "add_subcommand"]
