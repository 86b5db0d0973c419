"""Runs a Lite copy's main.py scripts through xlwings' own call path, in CPython.

Run in a subprocess with XLWINGS_ON_SERVER=true and XLWINGS_LICENSE_KEY=noncommercial
(test use only). Reads JSON on stdin: {"main": main.py's text, "calls": [{"script":
name, "book": Office.js book payload}, ...]}. As the xlwings Lite add-in does, each call
makes ``xlwings.Book(json=payload)``, runs ``xlwings.server.custom_scripts_call`` and
takes ``book.json()``, the actions Excel then carries out. Prints JSON: "outcomes", one
per call ({"actions": [...], "output": what the script printed} or {"error": type,
"message": text}); "meta" (custom_scripts_meta of main.py); "loaded_at_start", the
pairing modules imported once main.py ran and one function answered.
"""

import asyncio
import contextlib
import importlib
import io
import json
import sys
import tempfile
from pathlib import Path

import xlwings as xw
from xlwings.server import custom_functions_call, custom_scripts_call, custom_scripts_meta

ENGINE = ("gacrux", "networkx", "chessrating.pairing")


def loaded() -> list[str]:
    return sorted(m for m in ENGINE if m in sys.modules)


async def run_script(main, name: str, payload: dict) -> dict:
    book = xw.Book(json=json.loads(json.dumps(payload)))
    shown = io.StringIO()
    try:
        with contextlib.redirect_stdout(shown):
            book = await custom_scripts_call(main, name, typehint_to_value={xw.Book: book})
    except Exception as error:  # Lite shows the traceback in its task pane
        return {"error": type(error).__name__, "message": str(error), "output": shown.getvalue()}
    return {"actions": book.json()["actions"], "output": shown.getvalue()}


async def first_answer(main) -> object:
    data = {"client": "Office.js", "func_name": "FIDE_DP", "args": [[[0.65]]],
            "caller_address": "[Book1.xlsx]Sheet1!A1", "session_id": "test",
            "culture_info_name": "en-US", "date_format": "M/d/yyyy",
            "version": xw.__version__, "runtime": "1.4"}
    return await custom_functions_call(data, main)


def main() -> None:
    request = json.load(sys.stdin)
    folder = Path(tempfile.mkdtemp(prefix="lite-main-"))
    (folder / "main.py").write_text(request["main"], encoding="utf-8")
    sys.path.insert(0, str(folder))
    lite_main = importlib.import_module("main")
    answer = asyncio.run(first_answer(lite_main))
    at_start = loaded()
    outcomes = [asyncio.run(run_script(lite_main, c["script"], c["book"])) for c in request["calls"]]
    json.dump({"outcomes": outcomes, "meta": custom_scripts_meta(lite_main), "first_answer": answer,
               "loaded_at_start": at_start, "loaded_after": loaded()}, sys.stdout)


if __name__ == "__main__":
    main()
