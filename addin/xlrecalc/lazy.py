"""A package's names loaded from their modules at their first use (PEP 562).

The face (``xlrecalc/__init__.py``) lists each name it offers with the module that
defines it; :func:`names_from` makes its module ``__getattr__``. A caller that needs one
helper (a path check, a cell reference) then loads that helper's module alone, not the
whole evaluator: ``from xlrecalc import same_file`` loads :mod:`xlrecalc.output` and
what it imports, a few milliseconds instead of the tens of milliseconds of compiling and
evaluating machinery.

>>> import sys, types
>>> package = types.ModuleType("demo_package")
>>> sys.modules["demo_package"] = package
>>> package.__getattr__ = names_from("demo_package", {"dedent": "textwrap"})
>>> package.dedent("  a")          # loaded from textwrap at this first use, then kept
'a'
>>> "dedent" in vars(package)
True
>>> package.nothing_here
Traceback (most recent call last):
AttributeError: module 'demo_package' has no attribute 'nothing_here'
>>> del sys.modules["demo_package"]
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["names_from"]


def names_from(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: a name of ``homes`` imports its module
    (``homes[name]``, ``".module"`` for one of the package's own) and stays in the
    package's namespace, so the next use costs a dictionary lookup; another name that
    is a module of the package imports it, as ``import package.name`` does."""
    namespace = vars(sys.modules[package])

    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is not None:
            value = getattr(importlib.import_module(home, package), name)
            namespace[name] = value
            return value
        if not name.startswith("__"):  # dunder probes (__wrapped__, __path__ …) are no modules
            module = f"{package}.{name}"
            try:
                return importlib.import_module(module)
            except ModuleNotFoundError as exc:
                if exc.name != module:  # the module exists and failed to import
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return attribute
