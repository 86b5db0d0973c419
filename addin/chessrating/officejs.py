"""Office.js calls (xlwings Lite and Server) of the functions a crosstable asks once per
player row: ``TIEBREAK``, ``TIEBREAK_RANK`` and ``USCF_EVENT``.

Each row of a standings column asks for the whole column and picks its own item with
``INDEX``, so Excel sends the same ranges once per row: a 250-player Swiss makes about
1,250 such calls per recalculation. Under Office.js xlwings turns every cell of every
argument into a Python value before the function runs (``xlwings.conversion``), which is
most of a call; the function's own cache came after it. :func:`remembered` answers a
call from the last answers given, keyed by the arguments as Excel sent them, *before*
any conversion: the function's arguments are registered raw (``xw.arg(name, "raw")``),
and on a miss each argument is converted here exactly as xlwings converts it under the
options the function declares (:func:`xlwings.conversion.read`), then the function runs
as it always does. Classic Excel and ``chessrating recalc`` never come here.

The key is the arguments written by :mod:`marshal` (one pass in C, each value with its
type: ``1``, ``1.0``, ``TRUE`` and ``"1"`` differ), and the bytes give the arguments
back, so equal keys mean equal arguments: a key can miss, never falsely hit. An answer
is kept only when the function returned one (a refused input is refused on every call),
and a range larger than any argument may be (:data:`.cells.MAX_CELLS`) gets no key.

Writing the key is most of a repeated call, so a range the answer cannot depend on is
left out of it: ``TIEBREAK`` reads the colours only for BPG, BWG and BLACKS and the
ratings only for ARO, TPR, PTP, APRO and APPO (:func:`.tiebreaks.reads_colours`,
:func:`.tiebreaks.reads_ratings`). Such a range is not handed to the function either
(it gets the argument's default, ``None``, as when the argument is omitted), so what
the key leaves out the function never sees, and a hit still answers exactly what the
function would: of an unread range only its size is looked at (a range larger than an
argument may be is refused as before), not its cells.

>>> key = answers_key(([[1, "½", None]], "BH"))
>>> key is not None and key == answers_key(([[1, "½", None]], "BH"))
True
>>> answers_key(([[1]],)) == answers_key(([[1.0]],)), answers_key(([[object()]],))
(False, None)
>>> sorted(tiebreak_unread("BH/C1")), sorted(tiebreak_unread(["BPG", "DE"])), tiebreak_unread("XX")
(['colours', 'ratings'], ['ratings'], frozenset())
"""

from __future__ import annotations

import functools
import inspect
import marshal
from collections.abc import Callable
from typing import Any, TypeVar

from . import cells

__all__ = ["KEPT", "answers_key", "remembered", "tiebreak_unread"]

_F = TypeVar("_F", bound=Callable[..., Any])

# Answers kept per function: the columns of one standings list (four tie-breaks, the
# rank) and those of a second book or of the values before a result was typed.
KEPT = 16
# What is unread, kept per code as Excel sent it: a book's codes are a handful.
_CODES_KEPT = 64


def _within_size(value: Any) -> bool:
    """Whether ``value`` (a cell, a row or rows as Excel sends them) holds at most
    :data:`.cells.MAX_CELLS` cells, counted from its first row (Excel's ranges are
    rectangular)."""
    if isinstance(value, list) and value:
        first = value[0]
        width = len(first) if isinstance(first, list) else 1
        return len(value) * max(width, 1) <= cells.MAX_CELLS
    return True


def answers_key(arguments: tuple[Any, ...]) -> bytes | None:
    """The arguments as Excel sent them, as bytes to look an answer up by; ``None`` for
    an argument marshal cannot write (Pyodide's ``JsNull``, any other object) or a range
    larger than an argument may be."""
    if not all(_within_size(value) for value in arguments):
        return None
    try:
        return marshal.dumps(arguments)
    except ValueError:
        return None


def tiebreak_unread(code: Any) -> frozenset[str]:
    """The arguments of ``TIEBREAK`` that its ``code`` (converted as the function gets it)
    does not read: ``colours`` unless a code computed reads colours, ``ratings`` likewise;
    none for a code that cannot be read (the function refuses it, reading everything).

    The codes are read by the function's own reading (:func:`.udfs.tiebreak_codes`)."""
    from . import tiebreaks
    from .udfs import tiebreak_codes

    try:
        wanted = tiebreak_codes(code)
        return frozenset(name for name, reads in (("colours", tiebreaks.reads_colours),
                                                  ("ratings", tiebreaks.reads_ratings)) if not reads(wanted))
    except Exception:  # any code it cannot read: every argument is read, and refused there
        return frozenset()


# Per function: the argument whose value decides which others go unread, and how.
_UNREAD: dict[str, tuple[str, Callable[[Any], frozenset[str]]]] = {"TIEBREAK": ("code", tiebreak_unread)}


def remembered(function: _F, options: dict[str, dict[str, Any]]) -> _F:
    """``function`` (an Excel function whose arguments xlwings hands over raw) answering a
    call it has answered before from its answer; on a miss each argument is converted as
    xlwings converts it under ``options`` (parameter name -> the ``xw.arg`` options the
    function declares) and ``function`` is called. A range the answer cannot depend on
    (:data:`_UNREAD`) is neither in the key nor handed to ``function``."""
    from xlwings import conversion

    names = list(inspect.signature(function).parameters)
    answers: dict[bytes, tuple[tuple[Any, ...], ...]] = {}
    deciding, unread_of = _UNREAD.get(function.__name__, (None, None))
    decides = names.index(deciding) if deciding in names else None
    unread_by_code: dict[bytes, frozenset[int]] = {}

    def converted(name: str, value: Any) -> Any:
        # custom_functions_call gives an omitted argument its default unconverted
        if value is None or name not in options:
            return value
        return conversion.read(None, value, options[name], engine_name="officejs")

    def unread(args: tuple[Any, ...]) -> frozenset[int]:
        """The places of the arguments ``function`` need not read for this call."""
        if decides is None or unread_of is None or decides >= len(args):
            return frozenset()
        try:
            code_key = marshal.dumps(args[decides])
        except ValueError:
            return frozenset()
        places = unread_by_code.get(code_key)
        if places is None:
            try:
                skipped = unread_of(converted(names[decides], args[decides]))
            except Exception:  # a value xlwings cannot convert: read it all, and fail there
                skipped = frozenset()
            places = frozenset(names.index(name) for name in skipped if name in names)
            if len(unread_by_code) >= _CODES_KEPT:
                unread_by_code.clear()
            unread_by_code[code_key] = places
        return places

    @functools.wraps(function)
    def call(*args: Any) -> Any:
        places = unread(args)
        if places:
            # an unread range larger than an argument may be stays, so it is refused as before
            args = tuple(None if i in places and _within_size(value) else value for i, value in enumerate(args))
        key = answers_key(args)
        found = answers.get(key) if key is not None else None
        if found is not None:
            # a new list of the kept rows, which are tuples: no caller can change what is
            # kept, and xlwings reads rows of either kind (it builds its own lists)
            return list(found)
        answer = function(*(converted(name, value) for name, value in zip(names, args)))
        if key is not None and isinstance(answer, list) and all(isinstance(row, list) for row in answer):
            if len(answers) >= KEPT:
                del answers[next(iter(answers))]  # the oldest answer goes
            answers[key] = tuple(tuple(row) for row in answer)
        return answer

    # xlwings asks for the function's signature at every call (for the arguments it
    # provides itself); following the wrappers to the function each time took about a
    # tenth of a repeated call. The same signature, worked out once.
    call.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
    call.answers = answers  # type: ignore[attr-defined]  # for tests: what is kept
    return call  # type: ignore[return-value]
