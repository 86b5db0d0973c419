#!/usr/bin/env bash
# Renders docs/crosstable.png, the README's picture of the demo crosstable as a user sees
# it: `chessrating demo` -> LibreOffice (PDF) -> poppler's pdftoppm (PNG, cropped).
# Needs libreoffice-calc-nogui and poppler-utils.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chessrating demo -o "$work/demo.xlsx" >/dev/null 2>&1
soffice -env:UserInstallation="file://$work/profile" --headless --convert-to pdf \
    --outdir "$work" "$work/demo.xlsx" >/dev/null 2>&1
# The first page at 200 dpi, cropped to the crosstable with its Rank and tie-break columns
# (pixels from the top left of the A4 page).
pdftoppm -r 200 -png -f 1 -l 1 -x 30 -y 90 -W 2266 -H 900 -singlefile \
    "$work/demo.pdf" docs/crosstable
echo docs/crosstable.png
