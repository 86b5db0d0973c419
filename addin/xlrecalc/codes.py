"""The error values a cell or a formula can hold, as Excel writes them.

>>> "#N/A" in ERROR_CODES, "#WHAT?" in ERROR_CODES
(True, False)
"""

from __future__ import annotations

__all__ = ["ERROR_CODES"]

ERROR_CODES = frozenset({
    "#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!",
    "#CALC!", "#GETTING_DATA", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!",
    "#UNKNOWN!",
})
