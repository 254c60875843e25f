#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_examples_without_shared.sh - the demos without the
# shared models say what is missing and where it is expected, instead of
# make's raw "No rule to make target": `make -C examples/host run` and
# `make -C examples/cortex-m` with SHARED/MODEL pointing nowhere exit
# non-zero with a message naming the missing file and ../shared.
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
tmp=$(mktemp -d /tmp/tinyaot-noshared-XXXXXX)
fail=0
check() { # $1: what, then the make command line
  what=$1
  shift
  "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ] && grep -q "is missing" "$tmp/err" && grep -q "\.\./shared" "$tmp/err" &&
     ! grep -q "No rule to make target" "$tmp/err"; then
    echo "ok - $what without the shared models says what is missing ($(head -n1 "$tmp/err"))"
  else
    echo "not ok - $what without the shared models says what is missing: exit $rc, '$(head -c 300 "$tmp/err")'"
    fail=1
  fi
}
check "make -C examples/host run" make -s -C examples/host run TINYAOT="$TINYAOT" \
  SHARED="$tmp/nowhere" BUILD="$tmp/host"
check "make -C examples/cortex-m" make -s -C examples/cortex-m TINYAOT="$TINYAOT" \
  MODEL="$tmp/nowhere/models/kws_ref_model.tflite" BUILD="$tmp/cm"
rm -rf "$tmp"
exit $fail
