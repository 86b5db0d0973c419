"""Chess ratings for Excel: classic Elo, FIDE, US Chess, performance ratings and title norms.

The package by concern, dependencies pointing one way (a test pins them):

- the rating core, pure functions on the standard library only: :mod:`.errors`, :mod:`.checks`
  (one domain and one message per kind of input),
  :mod:`.results` (results and value types), :mod:`.elo`, :mod:`.fide`, :mod:`.uscf`
  (one player, the special-formula solver, the whole event), :mod:`.performance`,
  :mod:`.norms`, :mod:`.goal`, :mod:`.tiebreaks` (FIDE's and US Chess's tie-breaks and
  the ranks they give: the event reader, each federation's codes, the dispatch by code),
  and :mod:`.tournament`, the model of a whole tournament (players, rounds, results) that
  the file formats, the workbooks, the tie-breaks and the pairing share;
- the Excel face: :mod:`.udfs` (the worksheet functions), :mod:`.cells` (what Excel
  hands over, read into core values), :mod:`.event_cells` (a whole event read from
  ranges, computed once for a table) and :mod:`.officejs` (under xlwings Lite and Server,
  a call a sheet repeats row after row answered before its arguments are converted); it
  imports the core;
- the tools, which import the core, the face and each other: :mod:`.recalc` (formulas
  evaluated without Excel), :mod:`.workbooks` (the templates), :mod:`.lite` (their copies
  for xlwings Lite), :mod:`.how_to` (the How-to paragraphs the two share), :mod:`.trf`
  (tournament report files), :mod:`.import_trf` (a report file into a filled workbook)
  with :mod:`.import_summary` (what it tells of the event),
  :mod:`.uscf_report` (the US Chess rating report's dBASE tables), :mod:`.pairing` (Swiss
  rounds paired by gacrux, FIDE's engine, in the model and in a workbook: ``pair``,
  ``check-pairings``; Berger tables; a Swiss workbook's named ranges read for them and for
  "Pair next round"), :mod:`.publish` (the event as one web
  page, its values read from the recalculated workbook), :mod:`.cli` (the ``chessrating``
  command) and :mod:`.progress` (its progress display);
- the Excel face for scripts, above them all: :mod:`.scripts` ("Pair next round" in the
  open FIDE Swiss workbook, a macro with the classic add-in and a script in xlwings Lite);
  nothing imports it.
"""

from .errors import RatingError

__version__ = "0.1.0"
__all__ = ["RatingError", "__version__"]
