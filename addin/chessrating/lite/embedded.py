"""The ``main.py`` a Lite workbook carries: the Excel functions with the code they need.

xlwings Lite runs the ``main.py`` stored in the workbook and registers every function
decorated with ``xlwings.func`` that the module holds. The functions of
:mod:`chessrating.udfs` need the Excel face (:mod:`chessrating.cells`) and the rating
core, which use the standard library only; no package index serves ``chessrating``, so
the workbook carries those modules itself. :func:`main_py` writes each module's source
as it is in the package, as a readable text block in ``SOURCES``; at start ``main.py``
writes them into a folder, imports the package from there and exposes the functions
under their Excel names.

The modules carried are found from :mod:`chessrating.udfs` and :mod:`chessrating.scripts`
by following their imports, those inside functions too (and the package data files those
modules name), so a new core module comes along without a list to keep.

``main.py`` also defines the script "Pair next round" (:func:`chessrating.scripts.pair_next_round`),
decorated with ``xlwings.script``: xlwings Lite lists the scripts that ``main.py`` itself
defines. Its pairing modules and gacrux (installed by the copy's requirements) load at
the script's first run, not when the workbook opens.
"""

from __future__ import annotations

import ast
import posixpath
from importlib import resources

from .. import __version__
from .. import udfs

# The modules whose imports the carried code follows: the Excel functions and the script.
_ENTRY_MODULES = ("udfs.py", "scripts.py")

__all__ = ["embedded_sources", "main_py"]

_PACKAGE = "chessrating"


def _read(path: str) -> str:
    return resources.files(_PACKAGE).joinpath(*path.split("/")).read_text(encoding="utf-8")


def _exists(path: str) -> bool:
    return resources.files(_PACKAGE).joinpath(*path.split("/")).is_file()


def _module_file(dotted: str) -> str | None:
    """``uscf.event`` -> ``uscf/event.py`` (or its package's ``__init__.py``), if it exists."""
    base = dotted.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if _exists(candidate):
            return candidate
    return None


def _package_of(path: str) -> str:
    """The dotted package a module file belongs to, relative to chessrating ('' at the top)."""
    folder = posixpath.dirname(path)
    return folder.replace("/", ".")


def _imports(path: str) -> set[str]:
    """The chessrating module files that the module at ``path`` imports."""
    tree = ast.parse(_read(path))
    found: set[str] = set()
    package = _package_of(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                if node.level > 1:
                    parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            elif node.module and (node.module == _PACKAGE or node.module.startswith(_PACKAGE + ".")):
                base = node.module[len(_PACKAGE):].lstrip(".")
            else:
                continue
            for target in [base] + [f"{base}.{a.name}".lstrip(".") for a in node.names]:
                file = _module_file(target) if target else "__init__.py"
                if file:
                    found.add(file)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(_PACKAGE + "."):
                    file = _module_file(alias.name[len(_PACKAGE) + 1:])
                    if file:
                        found.add(file)
    # importing a module of a subpackage runs the subpackage's __init__ first
    for file in list(found):
        folder = posixpath.dirname(file)
        while folder:
            found.add(f"{folder}/__init__.py")
            folder = posixpath.dirname(folder)
    return found


def embedded_sources() -> dict[str, str]:
    """Package path (``chessrating/elo.py``) -> text of every file the Excel functions need."""
    todo, seen = ["__init__.py", *_ENTRY_MODULES], set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(sorted(_imports(path) - seen))
    texts = {path: _read(path) for path in sorted(seen)}
    data = resources.files(_PACKAGE).joinpath("data")
    for item in sorted(data.iterdir(), key=lambda entry: entry.name):
        if item.is_file() and any(item.name in text for text in texts.values()):
            texts[f"data/{item.name}"] = item.read_text(encoding="utf-8")
    return {f"{_PACKAGE}/{path}": text for path, text in texts.items()}


def _literal(text: str) -> str:
    """``text`` as a Python literal a reader can read: a raw triple-quoted block where
    that gives back exactly ``text``, else ``repr``."""
    block = "r'''" + text + "'''"
    try:
        if ast.literal_eval(block) == text:
            return block
    except (SyntaxError, ValueError):
        pass
    return repr(text)


_HEAD = '''\
"""chessrating {version}: chess rating functions for Excel, in this workbook.

The Excel functions {names}
and the script pair_next_round ("Pair next round") are those of the chessrating
package (MIT licence). The functions' code uses Python's standard library only, so
the workbook carries it instead of installing it from a package index: SOURCES below
holds each module of the package that the functions and the script need, as it is in
the package. At start they are written into a folder and imported from there; the
functions are imported at the end of this file, which is what xlwings Lite registers,
and the script is defined there. Each function's description is its docstring in
chessrating/udfs.py (and Excel's Insert Function dialog shows it). The script pairs
with gacrux, FIDE's pairing engine, which requirements.txt installs; it is imported at
the script's first run.
"""

import hashlib
import os
import sys
import tempfile

# xlwings Lite calls the functions through xlwings' Office.js decorators.
os.environ.setdefault("XLWINGS_ON_SERVER", "true")

SOURCES = {{
'''

_TAIL = '''\
}}


def _install(sources):
    """Write the modules into a folder named after their contents and import from it."""
    digest = hashlib.sha256(repr(sorted(sources.items())).encode("utf-8")).hexdigest()[:12]
    root = os.path.join(tempfile.gettempdir(), "chessrating-" + digest)
    for path, text in sources.items():
        target = os.path.join(root, *path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    # a restart of main.py must not keep modules of another copy of the package
    for name in [m for m in sys.modules if m == "chessrating" or m.startswith("chessrating.")]:
        del sys.modules[name]
    if root not in sys.path:
        sys.path.insert(0, root)


_install(SOURCES)


def _jsnull_checked_once():
    """xlwings' checks for Pyodide's JsNull, with the import tried once, not per cell.

    xlwings.utils.is_jsnull (imported by name into xlwings.conversion.standard, called
    as utils.is_jsnull by xlwings.pro._xlofficejs) and xlwings.pro.udfs_officejs.js_to_none
    run ``from pyodide.ffi import JsNull`` at every call: once per argument cell.
    Pyodide 0.27 has no JsNull, so each cell paid a failed import, most of the time of a
    call. These give the same answers: False (the argument unchanged) where the import
    fails, else the isinstance test. Returns (module, name, xlwings' own, replacement)
    for each name replaced.
    """
    import importlib

    try:
        from pyodide.ffi import JsNull
    except ImportError:
        JsNull = None

    def is_jsnull(value):
        return JsNull is not None and isinstance(value, JsNull)

    def js_to_none(arg):
        return None if JsNull is not None and isinstance(arg, JsNull) else arg

    replaced = []
    for module_name, name, replacement in (
            ("xlwings.utils", "is_jsnull", is_jsnull),
            ("xlwings.conversion.standard", "is_jsnull", is_jsnull),
            ("xlwings.pro.udfs_officejs", "js_to_none", js_to_none)):
        try:
            module = importlib.import_module(module_name)
        except Exception:  # another xlwings, or it cannot load here: leave it as it is
            continue
        if callable(getattr(module, name, None)):
            replaced.append((module, name, getattr(module, name), replacement))
            setattr(module, name, replacement)
    return replaced


XLWINGS_REPLACED = _jsnull_checked_once()

from chessrating.udfs import (  # noqa: E402  the Excel functions
{imports}
)

import xlwings as xw  # noqa: E402

from chessrating import scripts as _scripts  # noqa: E402  the script's options and its work


@xw.script(**_scripts.PAIR_NEXT_ROUND)
def pair_next_round(book: xw.Book):
    """Pair the next round of this FIDE Swiss crosstable (FIDE Dutch system, by gacrux):
    the round's opponents and colours are written, the results left for you to enter."""
    _scripts.pair_next_round(book)
'''


def main_py() -> str:
    """The text of the ``main.py`` that a Lite copy of a workbook carries."""
    names = list(udfs.__all__)
    lines = [_HEAD.format(version=__version__, names=_wrapped(names))]
    for path, text in embedded_sources().items():
        lines.append(f"# ---- {path}\n{path!r}: {_literal(text)},\n\n")
    imports = "\n".join(f"    {name}," for name in names)
    lines.append(_TAIL.format(imports=imports))
    return "".join(lines)


def _wrapped(names: list[str], width: int = 80) -> str:
    """Names joined by commas, wrapped for the docstring."""
    lines, line = [], ""
    for name in names:
        piece = f"{name}, " if name != names[-1] else name
        if len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line)
    return "\n".join(lines)
