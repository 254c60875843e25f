#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_summary.sh - tests/summary.sh, which CI reads: its last
# line is the closing line alone ("N passed, N failed", with ", N skipped"
# when checks were skipped), the skip warning on a line of its own before
# it, and the exit status says whether anything failed.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d /tmp/tinyaot-summary-XXXXXX)
fail=0
check() { # $1: what, $2: results file content, $3: expected output, $4: expected status
  printf '%s' "$2" > "$tmp/results"
  sh tests/summary.sh "$tmp/results" > "$tmp/out" 2>&1
  rc=$?
  if [ "$(cat "$tmp/out")" = "$3" ] && [ $rc -eq "$4" ]; then
    echo "ok - $1"
  else
    echo "not ok - $1: exit $rc (expected $4), printed '$(cat "$tmp/out")', expected '$3'"
    fail=1
  fi
}
check "all passing: one closing line, exit 0" '3 0 0
2 0 0
' "5 passed, 0 failed" 0
check "a failure: exit 1" '3 1 0
' "3 passed, 1 failed" 1
check "skipped checks: the warning on its own line, then the closing line alone" '3 0 1
2 0 2
' 'WARNING: 3 checks were SKIPPED: see the "skip -" lines above
5 passed, 0 failed, 3 skipped' 0
check "nothing passed: exit 1" '0 0 0
' "0 passed, 0 failed" 1
rm -rf "$tmp"
exit $fail
