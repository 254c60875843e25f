#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_spdx.sh - every source file of the project says its
# licence: an SPDX-License-Identifier line among its first three lines
# (C and headers, linker scripts, shell, make and awk files), and LICENSE
# and NOTICE are at the root.
cd "$(dirname "$0")/../.." || exit 1
if [ -d .git ] && command -v git >/dev/null 2>&1; then
  files=$(git ls-files -co --exclude-standard)
else
  files=$(find . -path ./build -prune -o -type f -print | sed 's#^\./##')
fi
missing=0
n=0
for f in $files; do
  case "$f" in
    build/*) continue ;;
    *.c|*.h|*.ld|*.sh|*.mk|*.awk|*.mjs|Makefile|*/Makefile|.ci/run) ;;
    *) continue ;;
  esac
  [ -f "$f" ] || continue
  n=$((n + 1))
  if ! head -3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0'; then
    echo "not ok - $f carries an SPDX-License-Identifier line"
    missing=$((missing + 1))
  fi
done
[ "$missing" -eq 0 ] && echo "ok - all $n source files carry SPDX-License-Identifier: Apache-2.0"
for f in LICENSE NOTICE; do
  if [ -s "$f" ]; then echo "ok - $f is at the root"; else echo "not ok - $f is at the root"; fi
done
if grep -q 'Apache License' LICENSE 2>/dev/null && grep -q 'Version 2.0' LICENSE; then
  echo "ok - LICENSE is the Apache License 2.0"
else
  echo "not ok - LICENSE is the Apache License 2.0"
fi
