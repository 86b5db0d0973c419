// Runs the main.py of a Lite workbook in Pyodide, the WebAssembly Python xlwings Lite
// runs, and calls its functions as the add-in does: through
// xlwings.server.custom_functions_call with Office.js-shaped payloads.
//
// usage: node run_main.mjs REQUEST.json
// REQUEST: {"site": folder holding xlwings' pure-Python package, "main": main.py's text,
//           "calls": [{"func": NAME, "args": [...]}, ...],
//           optional "published": true (the calls again with xlwings' own functions in
//           place of those main.py replaces, as "published_outcomes"),
//           optional "timing": {"repeat": N, "rounds": R} (each call N times per round,
//           the two variants alternating, R rounds),
//           optional "scripts": [{"script": NAME, "book": Office.js book payload,
//           "repeat": N (default 1)}, ...] (each run N times, as the add-in runs a script:
//           xlwings.Book(json=...), xlwings.server.custom_scripts_call, book.json())}
// Prints JSON: "outcomes", one per call ({"value": ...} or {"error": type, "message":
// text}), "meta" (custom_functions_meta of main.py, what Excel registers), the names
// main.py replaced in xlwings ("replaced"), "startup" (ms from the start of Node to
// Pyodide loaded, xlwings imported, main.py run, the first call answered), "startup_cpu" (the
// Node process's CPU ms at the same points), "timing" if asked
// (ms per call, median of the rounds, per variant), and the runtime's "python",
// "platform" and "xlwings" versions. With "scripts": "script_outcomes", one per script
// ({"actions": [...], "output": what it printed, "ms": [each run's ms from the call to
// the actions], "cpu_ms": [the Node process's CPU ms in each run]} or {"error", "message"}), "scripts_meta" (custom_scripts_meta of main.py)
// and "engine_at_first_answer", the pairing modules imported once the first function
// call was answered. Always "modules_at_first_answer": every chessrating module imported
// once the first function call was answered (main.py's lazy imports leave the others out).
// Optional "recalculations": {"arguments": [JSON text of one argument, ...], "runs":
// [{"label": text, "calls": [{"func": NAME, "args": [index into arguments, ...]}, ...]}]}:
// each run calls its cells in order, each argument parsed from its JSON text just before
// its call (outside the time, so no call shares another's objects, as in Excel), and gives
// "recalculations" ({"label", "ms": the calls' sum, "cpu_ms": the Node process's CPU
// in the calls, "ms_by_function", "cpu_ms_by_function",
// "slowest_ms" by function}) and "recalculation_answers" (the first outcome of each
// distinct call, by "NAME:[indices]"). Needs no network.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadPyodide } from "pyodide";

const request = JSON.parse(readFileSync(process.argv[2], "utf8"));
const pyodide = await loadPyodide({
  env: { XLWINGS_LICENSE_KEY: "noncommercial", XLWINGS_ON_SERVER: "true", HOME: "/home/pyodide" },
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const booted = performance.now();
const bootedCpu = (({ user, system }) => (user + system) / 1000)(process.cpuUsage());
pyodide.FS.mkdirTree("/site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: request.site }, "/site");
pyodide.FS.mkdirTree("/workbook");
pyodide.FS.writeFile("/workbook/main.py", request.main, { encoding: "utf8" });
pyodide.globals.set("request_json", JSON.stringify(request));
pyodide.globals.set("booted_ms", booted);
pyodide.globals.set("booted_cpu_ms", bootedCpu);
pyodide.globals.set("now_ms", () => performance.now());
// CPU time of the Node process (user + system), ms: on a loaded machine it moves less
// than the wall clock.
pyodide.globals.set("cpu_ms", () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; });

const answer = await pyodide.runPythonAsync(`
import contextlib
import io
import json
import statistics
import sys

request = json.loads(request_json)
sys.path[:0] = ["/site", "/workbook"]
import xlwings
from xlwings.server import custom_functions_call, custom_functions_meta, custom_scripts_call, custom_scripts_meta
xlwings_ms, xlwings_cpu_ms = now_ms(), cpu_ms()
ENGINE = ("gacrux", "networkx", "chessrating.pairing")

import main
main_ms, main_cpu_ms = now_ms(), cpu_ms()
replaced = getattr(main, "XLWINGS_REPLACED", [])


def use(published):
    """xlwings' own functions (published) or main.py's replacements."""
    for module, name, own, replacement in replaced:
        setattr(module, name, own if published else replacement)


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


async def run_script(name, payload, repeat):
    """A script as the add-in runs it: the book from the payload, the call, its actions."""
    times, cpu, shown = [], [], io.StringIO()
    for _ in range(repeat):
        shown = io.StringIO()
        start, used = now_ms(), cpu_ms()
        book = xlwings.Book(json=json.loads(json.dumps(payload)))
        try:
            with contextlib.redirect_stdout(shown):
                book = await custom_scripts_call(main, name, typehint_to_value={xlwings.Book: book})
            actions = book.json()["actions"]
        except Exception as error:  # the add-in shows the traceback in its task pane
            return {"error": type(error).__name__, "message": str(error), "output": shown.getvalue()}
        times.append(now_ms() - start)
        cpu.append(cpu_ms() - used)
    return {"actions": actions, "output": shown.getvalue(), "ms": times, "cpu_ms": cpu}


async def timing(calls, repeat, rounds):
    """ms per call of each call, median over rounds, the two variants alternating."""
    times = {"published": [[] for _ in calls], "replaced": [[] for _ in calls]}
    for _ in range(rounds):
        for variant in ("published", "replaced"):
            use(variant == "published")
            for index, c in enumerate(calls):
                start = now_ms()
                for _ in range(repeat):
                    await call(c["func"], c["args"])
                times[variant][index].append((now_ms() - start) / repeat)
    use(False)
    return {variant: [statistics.median(t) for t in per_call] for variant, per_call in times.items()}


async def recalculations(spec):
    """Each run's calls in order, timed one by one (their arguments parsed outside the time)."""
    texts, runs, answers = spec["arguments"], [], {}
    for run in spec["runs"]:
        by_function, cpu_by_function, slowest, total, cpu = {}, {}, {}, 0.0, 0.0
        for c in run["calls"]:
            args = [json.loads(texts[i]) for i in c["args"]]
            start, used = now_ms(), cpu_ms()
            outcome = await call(c["func"], args)
            spent, busy = now_ms() - start, cpu_ms() - used
            cpu += busy
            total += spent
            by_function[c["func"]] = by_function.get(c["func"], 0.0) + spent
            cpu_by_function[c["func"]] = cpu_by_function.get(c["func"], 0.0) + busy
            slowest[c["func"]] = max(slowest.get(c["func"], 0.0), spent)
            answers.setdefault(f"{c['func']}:{c['args']}", outcome)
        runs.append({"label": run["label"], "ms": total, "cpu_ms": cpu, "ms_by_function": by_function,
                     "cpu_ms_by_function": cpu_by_function, "slowest_ms": slowest})
    return runs, answers


async def run():
    calls = request["calls"]
    outcomes, first_ms, first_cpu_ms = [], None, None
    engine_at_first_answer = modules_at_first_answer = None
    for c in calls:
        outcomes.append(await call(c["func"], c["args"]))
        first_ms = first_ms or now_ms()
        first_cpu_ms = first_cpu_ms or cpu_ms()
        if engine_at_first_answer is None:
            engine_at_first_answer = sorted(m for m in ENGINE if m in sys.modules)
            modules_at_first_answer = sorted(m for m in sys.modules if m == "chessrating" or m.startswith("chessrating."))
    answer = {"outcomes": outcomes, "meta": custom_functions_meta(main),
              "replaced": [f"{module.__name__}.{name}" for module, name, _, _ in replaced],
              "startup": {"pyodide": booted_ms, "xlwings": xlwings_ms, "main": main_ms,
                          "first_answer": first_ms},
              "startup_cpu": {"pyodide": booted_cpu_ms, "xlwings": xlwings_cpu_ms, "main": main_cpu_ms,
                              "first_answer": first_cpu_ms},
              "python": sys.version.split()[0], "platform": sys.platform,
              "xlwings": xlwings.__version__, "modules_at_first_answer": modules_at_first_answer}
    if "recalculations" in request:
        answer["recalculations"], answer["recalculation_answers"] = await recalculations(request["recalculations"])
    if request.get("published"):
        use(True)
        answer["published_outcomes"] = [await call(c["func"], c["args"]) for c in calls]
        use(False)
    if request.get("timing"):
        answer["timing"] = await timing(calls, request["timing"]["repeat"], request["timing"]["rounds"])
    if "scripts" in request:
        answer["engine_at_first_answer"] = engine_at_first_answer
        answer["script_outcomes"] = [await run_script(s["script"], s["book"], s.get("repeat", 1))
                                     for s in request["scripts"]]
        answer["scripts_meta"] = custom_scripts_meta(main)
    return answer


json.dumps(await run())
`);
process.stdout.write(answer);
