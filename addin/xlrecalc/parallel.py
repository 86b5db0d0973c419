"""A large workbook evaluated by two processes at once.

Formulas are evaluated on demand (:mod:`.engine`), so any subset of them can be
evaluated on its own: whatever a formula reads is evaluated first, wherever it is.
:func:`evaluate_split` cuts the formulas into :data:`PIECES` pieces (every 32nd row, in
the book's order) and forks the process once they are compiled; parent and child each
take the next piece not yet taken until none is left, and the child hands the values of
its pieces back through a pipe, with whatever the caller asked to be made of them there
(``then``: the workbook writer has each process write its rows' XML); where both
evaluated a cell, the parent's value stays. A formula both read (an opponent's rating
looked up from another row) is evaluated in both, to the same value: evaluation is
deterministic, which is why a workbook calling a volatile function (``RAND``, ``NOW`` …)
is never split. The values are the ones a sequential evaluation gives, cell for cell
(the tests compare them); only the message of a circular reference may name its loop
from another of its cells than a sequential evaluation would.

It is used where ``os.fork`` is safe and useful: Linux, two or more CPUs, and at least
:data:`MIN_FORMULAS` formulas (below that the fork costs more than it saves). Anything
going wrong in the child (it dies, its answer is cut short) costs nothing but time: the
parent evaluates what is left itself. The parent failing or being interrupted ends the
child at once, and the kernel ends it if the parent process dies (Linux's parent-death
signal). Functions given to the evaluator are taken to be pure, as Excel's are: a
function with side effects would see them in both processes.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .values import PENDING

if TYPE_CHECKING:
    from .engine import Book, Formula

__all__ = ["MIN_FORMULAS", "PIECES", "can_split", "evaluate_split"]

MIN_FORMULAS = 5000
# pieces the formulas are cut into and handed out one at a time; a few hundred formulas
# each in a workbook worth splitting, so the one finishing last waits a piece at most
PIECES = 32


def can_split(book: "Book") -> bool:
    """Whether :func:`evaluate_split` would help and can run here."""
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and (os.cpu_count() or 1) >= 2 and len(book.formulas) >= MIN_FORMULAS
            and not book.volatile)


Evaluate = Callable[["Book", list["Formula"], "Callable[[int, int], None] | None"], None]


def evaluate_split(book: "Book", evaluate: Evaluate,
                   progress: Callable[[int, int], None] | None = None,
                   then: Callable[[list["Formula"]], Any] | None = None) -> list[Any]:
    """Evaluate every formula of ``book`` (compiled), shared with a forked child.

    ``evaluate(book, formulas, progress)`` evaluates those of ``formulas`` still pending,
    in order; ``progress`` hears of the parent's pieces (the child reports nothing).
    ``then(formulas)`` is called by each process once its pieces are evaluated, with their
    formulas; what it returned in each is returned, the parent's first (the child's only
    where it answered)."""
    ordered = list(book.formulas.values())
    # every PIECES-th row a piece, in the book's order: each piece takes rows from the
    # whole table, so pieces weigh about the same even where the last rows are lighter
    # (players who left, empty rows)
    pieces: list[list[Formula]] = [[] for _ in range(PIECES)]
    for formula in ordered:
        pieces[formula.key[1] % PIECES].append(formula)
    pieces = [piece for piece in pieces if piece]
    parent = os.getpid()
    hand_out = read_end = write_end = -1
    try:
        # the pieces are handed out through a pipe, a byte each, all written before the
        # fork: each process takes the next one as it finishes one, so where one runs
        # slower (another program on its CPU) the other does more, and neither waits long
        hand_out, handed = os.pipe()
        try:
            os.write(handed, bytes(range(len(pieces))))
        finally:
            os.close(handed)  # before the fork: a reader meets the end once all are taken
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():  # the fork is made from the evaluation's thread
            warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
            child = os.fork()
    except OSError:
        for fd in (hand_out, read_end, write_end):
            _close(fd)
        return _alone(book, evaluate, ordered, progress, then)
    if child == 0:  # the child: evaluate, answer, and leave without running any cleanup
        status = 1
        try:
            os.close(read_end)
            _die_with(parent)
            taken = _take_pieces(hand_out, pieces, lambda piece: evaluate(book, piece, None))
            share = [f for i in taken for f in pieces[i]]
            _send(write_end, (_values_of(book, share), then(share) if then is not None else None))
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        done = 0

        def evaluate_piece(piece: list["Formula"]) -> None:
            nonlocal done
            evaluate(book, piece, None)
            done += len(piece)
            if progress is not None:  # about as much again is done by the child
                progress(min(2 * done, len(ordered) - 1), len(ordered))
        taken = _take_pieces(hand_out, pieces, evaluate_piece)
        ours = then([f for i in taken for f in pieces[i]]) if then is not None else None
        answer = _receive(read_end)
    except BaseException:  # interrupted or failed: the child goes too, at once
        _stop(child)
        raise
    finally:
        _close(read_end)
        _close(hand_out)
    _, status = os.waitpid(child, 0)
    found = [ours] if then is not None else []
    if status == 0 and answer is not None:
        values, theirs = answer
        _merge(book, values)
        if then is not None:
            found.append(theirs)
    evaluate(book, ordered, None)  # whatever the child did not answer
    if progress is not None:
        progress(len(ordered), len(ordered))
    return found


def _alone(book: "Book", evaluate: Evaluate, ordered: list["Formula"],
           progress: Callable[[int, int], None] | None,
           then: Callable[[list["Formula"]], Any] | None) -> list[Any]:
    """Everything evaluated here, where no child could be started."""
    evaluate(book, ordered, progress)
    return [then(ordered)] if then is not None else []


def _take_pieces(hand_out: int, pieces: list[list["Formula"]],
                 evaluate: Callable[[list["Formula"]], None]) -> list[int]:
    """Take pieces from the hand-out pipe and evaluate each, until none is left; the
    indexes of the pieces taken."""
    taken: list[int] = []
    while True:
        token = os.read(hand_out, 1)
        if not token:
            return taken
        taken.append(token[0])
        evaluate(pieces[token[0]])


def _die_with(parent: int) -> None:
    """Have the kernel end this child if its parent ends first (Linux's parent-death
    signal), so no half of an evaluation outlives the command that wanted it."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


def _stop(child: int) -> None:
    try:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    except OSError:
        pass


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


Values = dict[str, dict[tuple[int, int], Any]]  # by sheet, then (row, column)


def _values_of(book: "Book", formulas: list["Formula"]) -> Values:
    """The values of ``formulas``' cells, array formulas' whole ranges included, by
    sheet: the parent then looks up each sheet's cells once."""
    out: Values = {}
    sheet_out: dict[tuple[int, int], Any] = {}
    cells: dict[tuple[int, int], Any] = {}
    current = None
    for formula in formulas:
        sheet, row, col = formula.key
        if sheet != current:
            current, cells = sheet, book.cells[sheet]
            sheet_out = out.setdefault(sheet, {})
        ref = formula.ref
        if ref is None:
            sheet_out[(row, col)] = cells.get((row, col))
            continue
        for r in range(ref.r1, ref.r2 + 1):
            for c in range(ref.c1, ref.c2 + 1):
                sheet_out[(r, c)] = cells.get((r, c))
    return out


def _send(fd: int, answer: tuple[Values, Any]) -> None:
    data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)


def _receive(fd: int) -> tuple[Values, Any] | None:
    """The child's values and what ``then`` gave there; ``None`` if its answer is cut short."""
    with os.fdopen(fd, "rb", closefd=False) as stream:
        data = stream.read()
    try:
        found = pickle.loads(data) if data else None
    except Exception:  # a child cut short: the parent evaluates its pieces
        return None
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], dict):
        return found
    return None


def _merge(book: "Book", values: Values) -> None:
    """The child's values, into the cells the parent has not evaluated itself."""
    for sheet, found in values.items():
        cells = book.cells[sheet]
        pending = [place for place in found if cells.get(place) is PENDING]
        if len(pending) == len(found):  # none evaluated by the parent: stored in one call
            cells.update(found)
        else:
            for place in pending:
                cells[place] = found[place]
        if book.owner:  # cells of array formulas' ranges are no formulas of their own
            formulas = book.formulas
            book.pending -= sum((sheet, row, col) in formulas for row, col in pending)
        else:  # every cell the child answers for is a formula's
            book.pending -= len(pending)
