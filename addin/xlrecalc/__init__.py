"""xlrecalc: recalculating an .xlsx workbook without Excel and writing the values into it.

:func:`recalculate` evaluates every formula of an .xlsx: Excel's own functions
(``SUM``, ``IF``, ``INDEX`` … from :mod:`.functions`) and the functions the caller hands
over by name (an add-in's worksheet functions), and writes a copy of the workbook
whose formula cells carry the results as cached values, so viewers that never
calculate (previews, phones, PDF converters) show numbers. The file itself is never
re-saved by a spreadsheet library: only the cached values inside its sheet XML change.

An add-in function's exception stands in its cell as the message text (as classic
xlwings shows it) and is listed in :attr:`Report.errors` with the cell's address;
cells that use an errored cell show the same message. The functions that test what a
cell holds (``ISERROR``, ``ISTEXT``, ``IFERROR`` …) see such a cell as the text written
into it, as classic Excel does when it reads the file back. The exception may name the
value it refuses by attributes (``argument``, ``position``, ``value``: :mod:`.trace`),
which lead :attr:`CellError.inputs` to the cell typed by hand that holds it.

This module is the package's one face: an add-in imports from ``xlrecalc`` alone. A
name loads the module behind it at its first use (:mod:`.lazy`), so a caller that needs
one helper does not load the evaluator. Behind it, by concern:

- a file recalculated: :mod:`.recalculation` (:func:`recalculate`, the report),
  :mod:`.loading` (a file read into a :class:`Book`), :mod:`.output` (where the result
  goes), :mod:`.archive` (a zip read within bounds, a file written whole),
  :mod:`.patch` and :mod:`.charts` (the cached values written into the sheet and
  chart XML, found by :mod:`.xmlspans`), :mod:`.trace` (an error back to its input);
- a book evaluated: :mod:`.engine` (:class:`Book`, :func:`evaluate_book`), :mod:`.storing`
  (a result into its cells), :mod:`.iteration`, :mod:`.compile` and :mod:`.closures`
  (formulas to closures), :mod:`.arguments`, :mod:`.names`, :mod:`.addin_calls` (the
  add-in's functions called), :mod:`.parse`, :mod:`.references`, :mod:`.structured`,
  :mod:`.lambdas`, :mod:`.shortcuts`, :mod:`.array_ranges`, :mod:`.values`,
  :mod:`.coerce`, :mod:`.dates`, :mod:`.codes` and the function library
  :mod:`.functions`; :mod:`.reader` reads the sheet XML;
- :mod:`.conformance` compares the engine with the values Excel saved;
- :mod:`.lazy` loads a name of this face from its module at its first use, and
  :mod:`.collector` pauses Python's cycle collector for a block of work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import names_from

if TYPE_CHECKING:
    from .archive import (RecalcError, atomic_output, check_archive, draft_path, new_file_mode,
                          not_a_zip, publish)
    from .charts import label_text, number_text
    from .collector import collector_paused
    from .engine import Book, evaluate_book
    from .loading import load_book, load_book_openpyxl
    from .output import content_kind, default_output, output_path, same_file
    from .parse import FormulaSyntaxError, column_letters, column_number, parse_ref
    from .patch import cell_xml_value, value_text, write_cached_values
    from .reader import SharedFormula
    from .recalculation import (CellError, CellValues, Report, Step, chart_values, recalculate,
                                record_values, written_value)
    from .values import ERROR_CODES, PENDING, XlErr, excel_text
    from .xmlspans import DocumentTypeDeclared, ElementAsWritten, escape, every_element, tag_end

# Each name by the module that defines it (the imports above, for the type checker),
# loaded at its first use (:mod:`.lazy`): a caller that needs a path check or a cell
# reference does not load the evaluator.
_HOMES = {name: f".{module}" for module, names in {
    "archive": "RecalcError atomic_output check_archive draft_path new_file_mode not_a_zip publish",
    "charts": "label_text number_text",
    "collector": "collector_paused",
    "engine": "Book evaluate_book",
    "loading": "load_book load_book_openpyxl",
    "output": "content_kind default_output output_path same_file",
    "parse": "FormulaSyntaxError column_letters column_number parse_ref",
    "patch": "cell_xml_value value_text write_cached_values",
    "reader": "SharedFormula",
    "recalculation": "CellError CellValues Report Step chart_values recalculate record_values "
                     "written_value",
    "values": "ERROR_CODES PENDING XlErr excel_text",
    "xmlspans": "DocumentTypeDeclared ElementAsWritten escape every_element tag_end",
}.items() for name in names.split()}
__getattr__ = names_from(__name__, _HOMES)

__all__ = [
    # a workbook file recalculated, and what was found
    "recalculate", "Report", "CellError", "CellValues", "Step", "RecalcError",
    "load_book", "load_book_openpyxl", "record_values", "chart_values", "written_value",
    # where a result goes, and writing it whole or not at all
    "default_output", "content_kind", "output_path", "same_file", "check_archive",
    "draft_path", "publish", "atomic_output", "new_file_mode", "not_a_zip",
    # a book evaluated in memory, and the values its cells hold
    "Book", "evaluate_book", "collector_paused", "XlErr", "ERROR_CODES", "PENDING",
    # references and formulas as written in a sheet
    "parse_ref", "column_letters", "column_number", "FormulaSyntaxError", "SharedFormula",
    # values as a sheet's and a chart's XML hold them
    "write_cached_values", "cell_xml_value", "value_text", "label_text", "number_text",
    "excel_text",
    # XML as written: a tag's end, every element in the file's order, a text escaped
    "tag_end", "every_element", "ElementAsWritten", "DocumentTypeDeclared", "escape",
]
