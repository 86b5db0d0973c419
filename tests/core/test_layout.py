"""The package's layout: every module has a layer, dependencies point one way, and no module
reads another's private names.

The rating core (and the package's own ``__init__``) imports only the core and the standard
library; the Excel face (``udfs``, ``cells``, ``event_cells``, ``officejs``) imports the core; the tools
(``recalc``, ``workbooks``, ``how_to``, ``lite``, ``trf``, ``import_trf``, ``import_summary``, ``uscf_report``, ``cli``,
``progress``, ``pairing``, ``publish``) import the core, the face and each other; nothing imports a tool
back. The Excel face for scripts (``scripts``: "Pair next round") sits above them all: it
imports the core, the face and the tools (the pairing), and nothing imports it (a Lite
copy's main.py and the classic add-in load it by name). A module or subpackage with no
layer fails the test. The TRF package reads and writes its format and builds no workbook:
it imports nothing of ``workbooks``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import chessrating

PACKAGE = Path(chessrating.__file__).parent
# A top-level module or subpackage of chessrating by its name; "__init__" is the package's own.
CORE = {"__init__", "errors", "results", "checks", "elo", "fide", "uscf", "performance", "norms", "goal",
        "tiebreaks", "tournament"}
FACE = {"udfs", "cells", "event_cells", "officejs"}
TOOLS = {"recalc", "workbooks", "how_to", "lite", "trf", "import_trf", "import_summary", "uscf_report", "cli", "progress",
         "pairing", "publish"}
SCRIPTS = {"scripts"}
LAYERS = {**{m: "core" for m in CORE}, **{m: "face" for m in FACE}, **{m: "tools" for m in TOOLS},
          **{m: "scripts" for m in SCRIPTS}}
ALLOWED = {"core": {"core"}, "face": {"core", "face"}, "tools": {"core", "face", "tools"},
           "scripts": {"core", "face", "tools", "scripts"}}
# What the core may import from outside the standard library: nothing.
THIRD_PARTY_OK = {"core": set(), "face": {"xlwings", "win32com"},
                  "tools": {"openpyxl", "xlsxwriter", "formulas", "numpy", "schedula", "tqdm",
                            "xlrecalc", "gacrux", "dbf"},
                  "scripts": {"xlwings"}}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py"))


def _dotted(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(absolute module, imported names) of every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _dotted(path)
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [alias.name for alias in node.names]))
    return found


def _top(path: Path) -> str:
    """The top-level module or subpackage ``path`` belongs to ("__init__" for the package's own)."""
    return _dotted(path)[1] if len(_dotted(path)) > 1 else "__init__"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_has_a_layer(path):
    assert _top(path) in LAYERS, f"{path.relative_to(PACKAGE)}: {_top(path)!r} is in no layer of {__name__}"


def test_every_layer_names_a_module_that_exists():
    tops = {_top(path) for path in _modules()}
    assert set(LAYERS) <= tops, f"no such module: {sorted(set(LAYERS) - tops)}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_dependencies_point_one_way(path):
    layer = LAYERS[_top(path)]
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] == "chessrating":
            targets = [parts[1]] if len(parts) > 1 else names
            for target in targets:
                if target in LAYERS:
                    assert LAYERS[target] in ALLOWED[layer], f"{path.name}: {layer} imports {target}"
        elif parts[0] not in sys.stdlib_module_names and parts[0] != "__future__":
            assert parts[0] in THIRD_PARTY_OK[layer], f"{path.name}: {layer} imports {module}"


def test_the_trf_package_builds_no_workbook():
    # function-level imports count too: ast.walk sees every import in the file
    found = []
    for path in sorted((PACKAGE / "trf").rglob("*.py")):
        for module, names in _imports(path):
            parts = module.split(".")
            targets = parts[1:2] if len(parts) > 1 else names if parts[0] == "chessrating" else []
            if parts[0] == "chessrating" and "workbooks" in targets:
                found.append(f"{path.name} imports {module} {names}")
    assert found == []

@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_another_modules_private_names(path):
    for module, names in _imports(path):
        if module.startswith("chessrating"):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.name} imports {private} from {module}"


def test_every_subpackage_says_what_it_owns():
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) > 10, f"{init} has no docstring saying what it owns"
