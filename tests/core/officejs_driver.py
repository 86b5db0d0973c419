"""Calls chessrating.udfs through xlwings' Office.js path, as xlwings Lite/Server does.

Run in a subprocess with XLWINGS_ON_SERVER=true and XLWINGS_LICENSE_KEY=noncommercial
(test use only). Reads a JSON list of calls on stdin ({"func": name, "args": [...]}, each
argument already 2-D as Excel sends it), "meta" or "signatures", and prints a JSON list of
outcomes, xlwings' metadata, or each function's signature as xlwings reads it.
"""

import asyncio
import inspect
import json
import sys

import xlwings
from xlwings.server import custom_functions_call, custom_functions_meta

from chessrating import udfs


def call(func: str, args: list) -> dict:
    data = {
        "client": "Office.js", "func_name": func, "args": args,
        "caller_address": "[Book1.xlsx]Sheet1!A1", "session_id": "test",
        "culture_info_name": "en-US", "date_format": "M/d/yyyy",
        "version": xlwings.__version__, "runtime": "1.4",
    }
    # Round-trip through JSON, as the add-in's payload does.
    data = json.loads(json.dumps(data))
    try:
        return {"value": asyncio.run(custom_functions_call(data, udfs))}
    except Exception as error:  # the host turns any exception into #VALUE!
        return {"error": type(error).__name__, "message": str(error)}


def main() -> None:
    request = json.load(sys.stdin)
    if request == "meta":
        json.dump(custom_functions_meta(udfs), sys.stdout)
    elif request == "signatures":  # as xlwings reads it at each call, its own function's, kept
        functions = {name: getattr(udfs, name) for name in udfs.__all__}
        json.dump({name: [str(inspect.signature(fn)), "__signature__" in vars(fn)]
                   for name, fn in functions.items()}, sys.stdout)
    else:
        json.dump([call(c["func"], c["args"]) for c in request], sys.stdout)


if __name__ == "__main__":
    main()
