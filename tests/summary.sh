#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/summary.sh RESULTS - adds up tests/run.sh's counts; prints the
# closing line "N passed, N failed" (", N skipped" when checks were
# skipped, after a WARNING line of its own) alone on the last line, and
# exits non-zero on any failure.
awk '{p += $1; f += $2; s += $3}
     END {
       if (s > 0) printf "WARNING: %d checks were SKIPPED: see the \"skip -\" lines above\n", s
       if (s > 0) printf "%d passed, %d failed, %d skipped\n", p, f, s
       else printf "%d passed, %d failed\n", p, f
       exit (f > 0 || p == 0) }' "$1"
