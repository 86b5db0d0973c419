"""The files a rating report writes (the TRF file and its pre-flight workbook): never a
file the user gave, and both replaced or neither.

:func:`refuse_inputs` refuses an output that is one of the inputs, whatever its name (the
same path, a link to it). :func:`replace_together` moves finished drafts onto their
targets one by one, keeping each replaced file's old bytes under a link beside it until
all are in place: when a later target cannot be replaced (a file held open in Excel on
Windows, a folder in its place, a full disk), the earlier ones are put back, so a
refusal means nothing was replaced.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import RatingError

__all__ = ["refuse_inputs", "replace_together", "written"]


def refuse_inputs(inputs: Iterable[Path], outputs: Iterable[Path]) -> None:
    """:class:`RatingError` naming the first output that is one of ``inputs``."""
    from xlrecalc import same_file

    given = list(inputs)
    for output in outputs:
        for source in given:
            if same_file(source, output):
                raise RatingError(f"output: {str(output)!r} is {str(source)!r}, a file given to be read; "
                                  "it is never written to: name another with -o")


def _aside(target: Path, stack: contextlib.ExitStack) -> Path | None:
    """A second name for ``target``'s present file (a hard link, else a copy), removed when
    ``stack`` closes; ``None`` when there is no file there."""
    from xlrecalc import draft_path

    if not target.is_file():
        return None
    backup = stack.enter_context(draft_path(target))
    backup.unlink()
    try:
        os.link(target, backup)
    except OSError:  # a file system without hard links
        shutil.copy2(target, backup)
    return backup


def replace_together(moves: list[tuple[Path, Path]]) -> None:
    """Move each ``(draft, target)``'s finished draft onto its target, in order; when one
    fails, put back every target already replaced and raise :class:`RatingError` naming
    the target that failed."""
    done: list[tuple[Path, Path | None]] = []
    with contextlib.ExitStack() as stack:  # the old files' second names, gone at the end
        _replace_all(moves, done, stack)
    for folder in {target.parent for _, target in moves}:
        with contextlib.suppress(OSError):
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _replace_all(moves: list[tuple[Path, Path]], done: list[tuple[Path, Path | None]],
                 stack: contextlib.ExitStack) -> None:
    from xlrecalc import new_file_mode

    try:
        for draft, target in moves:
            try:
                mode = target.stat().st_mode & 0o7777 if target.is_file() else new_file_mode()
                os.chmod(draft, mode)
                with open(draft, "rb+") as stream:
                    os.fsync(stream.fileno())
                backup = _aside(target, stack)
                os.replace(draft, target)
                done.append((target, backup))
            except OSError as error:
                raise RatingError(f"output: {str(target)!r} cannot be written ({error.strerror or error}); "
                                  "nothing was replaced") from None
    except BaseException:
        for target, backup in reversed(done):
            if backup is None:
                target.unlink(missing_ok=True)
            else:
                os.replace(backup, target)
        raise


@contextlib.contextmanager
def written(target: Path) -> Iterator[None]:
    """A block writing ``target``'s draft: any failure of the disk or of the writer (a full
    disk, XlsxWriter's own errors) becomes one :class:`RatingError` naming ``target``."""
    from xlsxwriter.exceptions import XlsxWriterException

    try:
        yield
    except OSError as error:
        raise RatingError(f"output: {str(target)!r} cannot be written ({error.strerror or error}); "
                          "nothing was replaced") from None
    except XlsxWriterException as error:
        cause = error.__context__ if isinstance(error.__context__, OSError) else None
        reason = (cause.strerror if cause is not None else None) or str(error)
        raise RatingError(f"output: {str(target)!r} cannot be written ({reason}); "
                          "nothing was replaced") from None
