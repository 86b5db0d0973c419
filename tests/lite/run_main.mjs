// Runs the main.py of a Lite workbook in Pyodide, the WebAssembly Python xlwings Lite
// runs, and calls its functions as the add-in does: through
// xlwings.server.custom_functions_call with Office.js-shaped payloads.
//
// usage: node run_main.mjs REQUEST.json
// REQUEST: {"site": folder holding xlwings' pure-Python package, "main": main.py's text,
//           "calls": [{"func": NAME, "args": [...]}, ...]}
// Prints JSON: "outcomes", one per call ({"value": ...} or {"error": type, "message":
// text}), "meta" (custom_functions_meta of main.py, what Excel registers), and the
// runtime's "python", "platform" and "xlwings" versions. Needs no network.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const request = JSON.parse(readFileSync(process.argv[2], "utf8"));
const pyodide = await loadPyodide({
  env: { XLWINGS_LICENSE_KEY: "noncommercial", XLWINGS_ON_SERVER: "true", HOME: "/home/pyodide" },
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
pyodide.FS.mkdirTree("/site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: request.site }, "/site");
pyodide.FS.mkdirTree("/workbook");
pyodide.FS.writeFile("/workbook/main.py", request.main, { encoding: "utf8" });
pyodide.globals.set("request_json", JSON.stringify(request.calls));

const answer = await pyodide.runPythonAsync(`
import json
import sys

sys.path[:0] = ["/site", "/workbook"]
import xlwings
from xlwings.server import custom_functions_call, custom_functions_meta

import main


async def call(func, args):
    data = {
        "client": "Office.js", "func_name": func, "args": args,
        "caller_address": "[Book1.xlsx]Sheet1!A1", "session_id": "test",
        "culture_info_name": "en-US", "date_format": "M/d/yyyy",
        "version": xlwings.__version__, "runtime": "1.4",
    }
    try:
        return {"value": await custom_functions_call(data, main)}
    except Exception as error:  # the add-in turns any exception into #VALUE!
        return {"error": type(error).__name__, "message": str(error)}


async def run():
    calls = json.loads(request_json)
    return {"outcomes": [await call(c["func"], c["args"]) for c in calls],
            "meta": custom_functions_meta(main), "python": sys.version.split()[0],
            "platform": sys.platform, "xlwings": xlwings.__version__}


json.dumps(await run())
`);
process.stdout.write(answer);
