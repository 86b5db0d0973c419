"""The engine's layout: it imports nothing from the add-in, and what it imports from
outside the standard library is openpyxl (the fallback reader) alone; it speaks no
chess; its package module is its one face, and the add-in imports from that face alone."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chessrating
import xlrecalc

ENGINE = Path(xlrecalc.__file__).parent
ADDIN = Path(chessrating.__file__).parent
# An import of an engine module past the face, still to move to the face's name.


def _modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def _absolute_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append(node.module or "")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_imports_no_chess_and_only_openpyxl_beside_the_standard_library(path):
    for module in _absolute_imports(path):
        top = module.split(".")[0]
        assert top != "chessrating", f"{path.name} imports {module}"
        assert top in sys.stdlib_module_names or top in {"__future__", "xlrecalc", "openpyxl"}, \
            f"{path.name} imports {module}"


def test_no_relative_import_climbs_out_of_the_engine():
    for path in _modules():
        depth = len(path.relative_to(ENGINE).parts) - 1  # folders below xlrecalc/
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level - 1 <= depth, f"{path.name}: from {'.' * node.level}{node.module}"


def _graph() -> dict[str, set[str]]:
    """Every import between the engine's modules, wherever it is written (inside a
    function or under TYPE_CHECKING too): module -> the engine modules it imports."""
    modules: dict[str, Path] = {}
    for path in _modules():
        parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
                found = subs if len(subs) == len(node.names) else [target, *subs]
            elif isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            else:
                continue
            graph[name].update(t for t in found if t in modules and t != name)
    return graph


def test_the_engine_has_no_import_cycle():
    graph = _graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), list(graph[start])
        while todo:
            current = todo.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                todo.extend(graph[current])
        return False

    cycles = sorted(name for name in graph if reaches(name, name))
    assert not cycles, f"modules in an import cycle: {cycles}"


# -- the face -------------------------------------------------------------------------------
def _engine_imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import of the engine in an add-in file, wherever written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name.split(".")[0] == "xlrecalc"]
        elif isinstance(node, ast.ImportFrom) and not node.level and \
                (node.module or "").split(".")[0] == "xlrecalc":
            found.append((node.module or "", [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("path", sorted(ADDIN.rglob("*.py")), ids=lambda p: str(p.relative_to(ADDIN)))
def test_the_addin_imports_the_engine_from_its_face_alone(path):
    where = path.relative_to(ADDIN).as_posix()
    for module, names in _engine_imports(path):
        assert module == "xlrecalc", f"{where} imports {module}: import from xlrecalc"
        missing = [name for name in names if name not in xlrecalc.__all__]
        assert not missing, f"{where} imports {missing}, not in xlrecalc.__all__"


def test_the_face_names_what_it_exports_and_defines_nothing():
    tree = ast.parse((ENGINE / "__init__.py").read_text(encoding="utf-8"))
    defined = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    assert not defined, "the face defines, it should only import and list"
    assert len(set(xlrecalc.__all__)) == len(xlrecalc.__all__)
    for name in xlrecalc.__all__:
        assert getattr(xlrecalc, name, None) is not None, name


def test_each_name_of_the_face_loads_from_the_module_its_import_names():
    """The face's imports (read by the type checker) and the table its names load from at
    their first use (``_HOMES``) say the same."""
    tree = ast.parse((ENGINE / "__init__.py").read_text(encoding="utf-8"))
    typed = {alias.name: f".{node.module}" for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module != "lazy"
             for alias in node.names}
    assert typed == xlrecalc._HOMES
    assert sorted(typed) == sorted(xlrecalc.__all__)


def test_a_helper_of_the_face_loads_without_the_evaluator():
    code = ("import sys; from xlrecalc import RecalcError, same_file, column_letters; "
            "print(sorted(m for m in sys.modules if m.startswith('xlrecalc.')))")
    env = {**os.environ, "PYTHONPATH": str(ENGINE.parent)}
    loaded = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True).stdout
    assert "xlrecalc.output" in loaded and "xlrecalc.parse" in loaded
    assert "xlrecalc.engine" not in loaded and "xlrecalc.functions" not in loaded


# -- its words ------------------------------------------------------------------------------
CHESS = re.compile(r"\b(ratings?|players?|chess|tournaments?|crosstables?|opponents?|pairings?|"
                   r"fide|uscf|elo|tie-?breaks?|games?|swiss|round[- ]robin|arbiters?)\b", re.I)


@pytest.mark.parametrize("path", sorted([*ENGINE.rglob("*.py"), *ENGINE.rglob("*.md")]),
                         ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_speaks_no_chess(path):
    found = sorted({m.group(0) for m in CHESS.finditer(path.read_text(encoding="utf-8"))})
    assert not found, f"{path.name} says {found}"
