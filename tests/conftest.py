"""Shared test set-up."""

# The Office.js driver runs in a subprocess with the xlwings server environment; importing
# it here (pytest --doctest-modules collects every module) would need a licence key.
collect_ignore = ["officejs_driver.py"]
