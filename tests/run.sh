#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/run.sh BUILD SANFLAGS RESULTS - runs every test of one build.
#
# Test programs: BUILD/tests/*/test_* (from tests/*/test_*.c) and the
# scripts tests/*/test_*.sh.  Each prints "ok - ..." / "not ok - ..." lines;
# a program that exits non-zero without a "not ok" line (a crash, a
# sanitizer report) counts as one failure.  Counts are appended to RESULTS,
# the seconds each test took to BUILD/test-times.txt.
#
# The environment a test sees:
#   TINYAOT          the compiler binary of this build
#   TINYAOT_BUILD    this build's folder
#   TINYAOT_CFLAGS   extra flags for compiling generated code (sanitizers)
#   TINYAOT_SHARED   the shared models and goldens (default ../shared)
#   TINYAOT_PASS     plain or san
# A script that has nothing to do in this pass (for example a
# cross-compiled test under the sanitizer pass) exits 77 and prints nothing.
build=$1
san=$2
results=$3
root=$(pwd)
TINYAOT="$root/$build/tinyaot"
TINYAOT_BUILD="$root/$build"
TINYAOT_CFLAGS="$san"
TINYAOT_SHARED=${TINYAOT_SHARED:-$root/../shared}
export TINYAOT TINYAOT_BUILD TINYAOT_CFLAGS TINYAOT_SHARED
label=plain
[ -n "$san" ] && label=asan+ubsan
TINYAOT_PASS=plain
[ -n "$san" ] && TINYAOT_PASS=san
export TINYAOT_PASS
log="$build/test-log.txt"
: > "$log"
# Seconds per test (PASS NAME SECONDS), to keep make test's time in view.
: > "$build/test-times.txt"
for t in $(find "$build/tests" -type f -name 'test_*' ! -name '*.d' ! -name '*.o' 2>/dev/null | sort) \
         $(ls tests/*/test_*.sh 2>/dev/null | sort); do
  name=${t#$build/}
  out=$(mktemp)
  t0=$(date +%s)
  case "$t" in
    *.sh) sh "$t" > "$out" 2>&1 ;;
    *) "$t" > "$out" 2>&1 ;;
  esac
  rc=$?
  echo "$label $name $(($(date +%s) - t0))" >> "$build/test-times.txt"
  if [ "$rc" -eq 77 ] && [ ! -s "$out" ]; then rm -f "$out"; continue; fi
  cat "$out" >> "$log"
  pass=$(grep -c '^ok ' "$out")
  fail=$(grep -c '^not ok ' "$out")
  skip=$(grep -c '^skip ' "$out")
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    fail=1
    echo "not ok - $name exits 0 (it exited $rc)" >> "$log"
  fi
  if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ] && [ "$skip" -eq 0 ]; then
    fail=1
    echo "not ok - $name runs at least one check" >> "$log"
  fi
  printf '[%s] %-40s %4d passed %4d failed %s\n' "$label" "$name" "$pass" "$fail" \
    "$([ "$skip" -gt 0 ] && echo "($skip SKIPPED)")"
  grep -E '^(not ok|skip) ' "$out" | sed 's/^/    /' | head -20
  echo "$pass $fail $skip" >> "$results"
  rm -f "$out"
done
