"""Python's cycle collector paused for a block of work.

Its own module so that a caller (a command line starting up) can pause the collector
before the evaluator is loaded, without loading it.

>>> import gc
>>> with collector_paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block. A workbook's cells, formulas and
    values are hundreds of thousands of objects that live until the end and form no
    cycles; each full collection would walk all of them again (a third of the time of
    a large workbook). What a cycle holds is freed at the next collection after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
