"""Excel's functions whose value lies outside the workbook: INFO, the CUBE functions, RTD,
WEBSERVICE, GETPIVOTDATA, IMAGE and the FORECAST.ETS family.

They are known functions here, so a workbook that uses them is evaluated like any other,
but their value cannot be known from the file: it comes from Excel's session or the
machine it runs on (INFO), an OLAP server (CUBEVALUE …), a real-time data server (RTD),
the network (WEBSERVICE, IMAGE), a PivotTable's cache that Excel rebuilds from its source
(GETPIVOTDATA), or a fit Microsoft does not document (FORECAST.ETS: Excel's AAA version of
exponential triple smoothing, whose initial values and parameter search are not
published, so no reimplementation can promise Excel's digits).

Each gives ``#N/A`` carrying a message that names the function and says why, e.g.
``WEBSERVICE: needs a network call Excel makes; not computed headlessly``. ``#N/A``
rather than ``#VALUE!``: the arguments are not wrong, the value is not available, which
is what ``#N/A`` means in Excel and what Excel itself shows when a cube connection, an RTD
server or a PivotTable field is missing. Like every error with a message in this
evaluator, the message is what the written cell shows (see :func:`.values.shown`).
INFO's ``type_text`` is checked first: a kind Excel does not know is ``#VALUE!``.

>>> FUNCTIONS["WEBSERVICE"](None, "https://example.com")
XlErr('#N/A')
>>> FUNCTIONS["WEBSERVICE"](None, "https://example.com").message
'WEBSERVICE: needs a network call Excel makes; not computed headlessly'
>>> ELEMENTWISE["INFO"]("osversion").message
'INFO("osversion"): the version of the operating system Excel runs on; not computed headlessly'
>>> ELEMENTWISE["INFO"]("colour")
XlErr('#VALUE!')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .functions_base import NA, VALUE, elementwise, registry, text
from .values import XlErr

__all__ = ["FUNCTIONS", "ELEMENTWISE", "WHY"]

FUNCTIONS, _register = registry()
ELEMENTWISE: dict[str, Callable[..., Any]] = {}

_CUBE = "needs the OLAP cube connection Excel queries"
WHY = {
    "CUBEKPIMEMBER": _CUBE, "CUBEMEMBER": _CUBE, "CUBEMEMBERPROPERTY": _CUBE,
    "CUBERANKEDMEMBER": _CUBE, "CUBESET": _CUBE, "CUBESETCOUNT": _CUBE, "CUBEVALUE": _CUBE,
    "RTD": "needs the real-time data server Excel calls",
    "WEBSERVICE": "needs a network call Excel makes",
    "IMAGE": "needs the picture Excel downloads",
    "GETPIVOTDATA": "reads the PivotTable Excel builds from its source data",
    "FORECAST.ETS": "Excel's AAA exponential-smoothing fit is not documented",
    "FORECAST.ETS.CONFINT": "Excel's AAA exponential-smoothing fit is not documented",
    "FORECAST.ETS.SEASONALITY": "Excel's seasonality detection is not documented",
    "FORECAST.ETS.STAT": "Excel's AAA exponential-smoothing fit is not documented",
}


def _unavailable(name: str, why: str) -> Callable[..., Any]:
    message = f"{name}: {why}; not computed headlessly"

    def unavailable(here: Any, *args: Any) -> XlErr:
        return XlErr(NA, message)
    unavailable.__doc__ = message
    return unavailable


for _name, _why in WHY.items():
    FUNCTIONS[_name] = _unavailable(_name, _why)


_INFO = {
    "directory": "the current folder of Excel's session",
    "numfile": "the worksheets of every workbook open in Excel",
    "origin": "the cell at the top left of Excel's window",
    "osversion": "the version of the operating system Excel runs on",
    "recalc": "the calculation mode of Excel's session",
    "release": "the version of Excel",
    "system": "the operating system Excel runs on",
    "memavail": "memory figures Excel no longer reports",
    "memused": "memory figures Excel no longer reports",
    "totmem": "memory figures Excel no longer reports",
}


@elementwise(ELEMENTWISE, "INFO")
def _info(type_text: Any) -> Any:
    kind = text(type_text)
    if isinstance(kind, XlErr):
        return kind
    why = _INFO.get(kind.strip().lower())
    if why is None:
        return XlErr(VALUE, f"INFO: {kind!r} is not a type_text")
    return XlErr(NA, f'INFO("{kind.strip().lower()}"): {why}; not computed headlessly')
