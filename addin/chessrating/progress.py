"""Progress of the long commands (``chessrating recalc``, ``demo``, ``import-trf``) on stderr.

On a terminal one bar, drawn by `tqdm <https://tqdm.github.io>`_, is redrawn in place.
Into a file or a pipe only the stages are written, one line each, so a log stays a few
lines whatever the workbook's size. Nothing shows before the work has taken ``delay``
seconds (unless ``show_now``): a quick job stays silent, and the stage it is in when the
delay runs out is written then.

>>> import io
>>> log = io.StringIO()
>>> progress = Progress(log, show_now=True)
>>> progress.update("writing", "52 rows", 0.1)
>>> progress.advance(0.5, "1000/3000 formulas")   # within the stage: no line in a log
>>> progress.update("done", fraction=1.0)
>>> progress.close()
>>> print(log.getvalue(), end="")
writing: 52 rows
done
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm import tqdm

    from .recalc import Step

__all__ = ["Progress", "listed"]

_BAR_FORMAT = "{percentage:3.0f}%|{bar:30}| {desc}"


class Progress:
    """Stages and a fraction done, shown as a bar on a terminal and as lines elsewhere.

    ``update(stage, detail, fraction)`` reports a stage; the same stage again only moves
    the bar. ``advance(fraction, detail)`` moves the bar within a stage. A ``Progress`` is
    also the ``progress`` callback of :func:`chessrating.recalc.recalculate` (see
    :meth:`follow`). Call :meth:`close` when the work is over.
    """

    def __init__(self, stream: IO[str] | None = None, *, delay: float = 1.0,
                 show_now: bool = False):
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.perf_counter()
        self.delay = delay
        self.show_now = show_now
        self.stage = ""          # the stage being worked on
        self.detail = ""
        self.fraction = 0.0
        self.pending = ""        # a stage line held back until the delay runs out
        self.bar: tqdm | None = None

    def update(self, stage: str, detail: str = "", fraction: float | None = None) -> None:
        """Report ``stage`` with ``detail``; ``fraction`` of the whole job is done, if known."""
        new = stage != self.stage
        self.stage, self.detail = stage, detail
        self._move(fraction)
        if self._terminal():
            self._draw()
        elif new:
            self._log(self._line())

    def advance(self, fraction: float, detail: str = "") -> None:
        """Move the bar within the stage; off a terminal nothing is written."""
        self.detail = detail
        self._move(fraction)
        if self._terminal():
            self._draw()

    def follow(self, start: float = 0.0, end: float = 1.0) -> Callable[[Step], None]:
        """A ``progress`` callback for ``recalculate``: its stages as stages, its formula
        counts moving the bar from ``start`` to ``end`` of the whole job."""
        def say(step: Step) -> None:
            if step.stage == "evaluating" and step.done:
                self.advance(start + (end - start) * step.done / max(step.total, 1),
                             f"{step.done}/{step.total} formulas")
            else:
                self.update(str(step), fraction=end if step.stage == "writing" else start)
        return say

    def __call__(self, step: Step) -> None:
        self.follow()(step)

    def close(self) -> None:
        """End the bar's line on a terminal."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def _move(self, fraction: float | None) -> None:
        if fraction is not None:
            self.fraction = min(max(fraction, 0.0), 1.0)

    def _showing(self) -> bool:
        return self.show_now or time.perf_counter() - self.started >= self.delay

    def _terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())

    def _log(self, line: str) -> None:
        """One line per stage; a stage reached before the delay ran out waits for the next."""
        if not self._showing():
            self.pending = line
            return
        if self.pending:
            print(self.pending, file=self.stream)
            self.pending = ""
        print(line, file=self.stream, flush=True)

    def _line(self) -> str:
        return f"{self.stage}: {self.detail}" if self.detail else self.stage

    def _draw(self) -> None:
        if not self._showing():
            return
        if self.bar is None:  # drawn as it is made
            from tqdm import tqdm  # only a terminal draws a bar: a log or a pipe never loads it
            self.bar = tqdm(total=1.0, initial=self.fraction, desc=self._line(), file=self.stream,
                            bar_format=_BAR_FORMAT, dynamic_ncols=True, leave=True)
            return
        self.bar.set_description_str(self._line(), refresh=False)
        self.bar.n = self.fraction
        self.bar.refresh()


def listed(items: Sequence[object], limit: int) -> list[str]:
    """A summary's list: up to ``limit`` of ``items``, one indented line each, then how
    many more there are.

    >>> listed(["a", "b", "c"], 2)
    ['  a', '  b', '  ... and 1 more']
    >>> listed(["a"], 2)
    ['  a']
    """
    out = [f"  {item}" for item in items[:limit]]
    if len(items) > limit:
        out.append(f"  ... and {len(items) - limit} more")
    return out
