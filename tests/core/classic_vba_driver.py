"""The VBA that the classic xlwings add-in's Import Functions writes for modules, made by
xlwings' own generator (``xlwings.udfs.generate_vba_wrapper``) outside Windows.

xlwings.udfs needs Windows' COM modules (pythoncom, pywintypes, win32com) to import; the
generator uses none of them, so stand-ins let it load. As xlwings/__init__.py does on
Windows, ``xlwings.func``, ``arg``, ``ret``, ``script`` and ``sub`` become the classic
decorators and ``sys.platform`` reads ``win32`` while the modules import, so they register
as they do there. Prints JSON: the VBA text of the modules named on the command line
(``;``-separated, as the xlwings.conf sheet's UDF Modules), and each script's argument
options (what xlwings converts the VBA argument with).
"""

import io
import json
import sys
import types

for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["pythoncom"].CoInitialize = lambda: None
sys.modules["pywintypes"].com_error = Exception
sys.modules["win32com.client"].Dispatch = lambda *args: None
sys.modules["win32com"].client = sys.modules["win32com.client"]

import importlib  # noqa: E402

import xlwings  # noqa: E402
from xlwings import udfs as classic  # noqa: E402

xlwings.func, xlwings.arg, xlwings.ret = classic.xlfunc, classic.xlarg, classic.xlret
xlwings.script = xlwings.sub = classic.xlsub


class Workbook:
    """What the generator reads of the workbook: its name (ThisWorkbook unless an add-in)."""

    Name = "fide-swiss.xlsm"


def main() -> None:
    names = sys.argv[1].split(";")
    platform, sys.platform = sys.platform, "win32"
    try:
        modules = [importlib.import_module(name) for name in names]
    finally:
        sys.platform = platform
    vba, options = io.StringIO(), {}
    for name, module in zip(names, modules):
        classic.generate_vba_wrapper(name, module, vba, Workbook())
        for attr in dir(module):
            info = getattr(getattr(module, attr), "__xlfunc__", None)
            if info and info["sub"]:
                options[info["name"]] = [{"name": a["name"], "vba": a["vba"], "options": a["options"]}
                                         for a in info["args"]]
    json.dump({"vba": vba.getvalue(), "subs": options}, sys.stdout, default=str)


if __name__ == "__main__":
    main()
