#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_models_doc.sh - doc/models.md (written by make doc-models)
# has a row for every shared model: each ../shared/models/*.tflite and
# each ../shared/models/onnx/*.onnx (as onnx/NAME), and no row for a model
# that is not there, so the table cannot silently go stale when a model
# is added or removed.  A model added to ../shared fails here until
# make doc-models is rerun.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
need_shared
doc=doc/models.md
if [ ! -f "$doc" ]; then
  echo "not ok - $doc exists (make doc-models)"
  exit 1
fi
# The table's rows, first cell: "| name | ..." after the header.
rows=$(awk -F'|' '/^\|---/ {on = 1; next} on && /^\|/ {m = $2; gsub(/ /, "", m); print m}' "$doc")
want=$( (cd "$shared/models" && ls *.tflite 2>/dev/null; cd onnx 2>/dev/null && ls *.onnx | sed 's|^|onnx/|') |
        sed 's/\.tflite$//; s/\.onnx$//')
fail=0 n=0
for m in $want; do
  n=$((n + 1))
  c=$(echo "$rows" | grep -cxF "$m")
  if [ "$c" != 1 ]; then
    echo "not ok - $doc has one row for $m (has $c): rerun make doc-models"
    fail=1
  fi
done
for r in $rows; do
  echo "$want" | grep -qxF "$r" ||
    { echo "not ok - the row $r of $doc names a shared model (none is there now): rerun make doc-models"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "not ok - $shared/models holds models"; fail=1; }
[ $fail = 0 ] && echo "ok - $doc has one row for each of the $n shared models"
grep -q "models.md" README.md && echo "ok - README.md links doc/models.md" ||
  { echo "not ok - README.md links doc/models.md"; fail=1; }
exit $fail
