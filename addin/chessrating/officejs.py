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

>>> answers_key(([[1, "½", None]], "BH")) == answers_key(([[1, "½", None]], "BH"))
True
>>> answers_key(([[1]],)) == answers_key(([[1.0]],)), answers_key(([[object()]],))
(False, None)
"""

from __future__ import annotations

import functools
import inspect
import marshal
from collections.abc import Callable
from typing import Any, TypeVar

from . import cells

__all__ = ["KEPT", "answers_key", "remembered"]

_F = TypeVar("_F", bound=Callable[..., Any])

# Answers kept per function: the columns of one standings list (four tie-breaks, the
# rank) and those of a second book or of the values before a result was typed.
KEPT = 16


def answers_key(arguments: tuple[Any, ...]) -> bytes | None:
    """The arguments as Excel sent them, as bytes to look an answer up by; ``None`` for
    an argument marshal cannot write (Pyodide's ``JsNull``, any other object) or a range
    larger than an argument may be."""
    for value in arguments:
        if isinstance(value, list) and value:
            first = value[0]
            width = len(first) if isinstance(first, list) else 1
            if len(value) * max(width, 1) > cells.MAX_CELLS:
                return None
    try:
        return marshal.dumps(arguments)
    except ValueError:
        return None


def remembered(function: _F, options: dict[str, dict[str, Any]]) -> _F:
    """``function`` (an Excel function whose arguments xlwings hands over raw) answering a
    call it has answered before from its answer; on a miss each argument is converted as
    xlwings converts it under ``options`` (parameter name -> the ``xw.arg`` options the
    function declares) and ``function`` is called."""
    from xlwings import conversion

    names = list(inspect.signature(function).parameters)
    answers: dict[bytes, tuple[tuple[Any, ...], ...]] = {}

    def converted(name: str, value: Any) -> Any:
        # custom_functions_call gives an omitted argument its default unconverted
        if value is None or name not in options:
            return value
        return conversion.read(None, value, options[name], engine_name="officejs")

    @functools.wraps(function)
    def call(*args: Any) -> Any:
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

    call.answers = answers  # type: ignore[attr-defined]  # for tests: what is kept
    return call  # type: ignore[return-value]
