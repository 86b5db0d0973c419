"""xlwings Lite copies of a workbook (``chessrating lite BOOK.xlsx``).

:func:`write_lite` rewrites an .xlsx package for xlwings Lite (Excel on Windows, Mac
and the web) part by part, at the zip and XML level, never re-saved by a spreadsheet
library:

- :mod:`.convert`: the copy as a whole: which parts change, the zip written beside the
  destination and moved in place;
- :mod:`.webextension`: the Lite add-in's web extension and task pane, the workbook's own
  web-extension parts read within bounds;
- :mod:`.sheets`: each call of our functions in a cell bound as a Lite function;
- :mod:`.parts`: the other parts a copy changes (relationships, content types,
  workbook, shared strings, document properties);
- :mod:`.embedded`: the ``main.py`` the copy carries, the Excel functions with the
  package modules they need;
- :mod:`.spans`: the elements of a part and their byte spans (read by the engine's
  :func:`xlrecalc.every_element`), and the splicing of new bytes into them.
"""

from .convert import LiteCopy, write_lite

__all__ = ["write_lite", "LiteCopy"]
