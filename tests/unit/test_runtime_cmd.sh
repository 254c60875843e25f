#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_runtime_cmd.sh - `tinyaot runtime -o DIR [--kernels
# LIST|all]`: with no list it writes every kernel of runtime/ (as many .c
# files as the source tree has) with the public headers, runtime.mk and
# CMakeLists.txt; with a list, those kernels and what they call, nothing
# else; an unknown kernel is refused (exit 1, naming it), a missing -o is
# bad usage (exit 2).  The flat builds that use such a runtime are in
# tests/models/test_flat_build.sh and tests/arm/test_weights_section.sh.
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
tmp=$(mktemp -d /tmp/tinyaot-rtcmd-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

"$TINYAOT" runtime -o "$tmp/all" > "$tmp/log" 2>&1
want=$(ls runtime/*/*.c | grep -v '^runtime/include/' | wc -l)
got=$(find "$tmp/all" -name '*.c' | wc -l)
if [ "$got" -eq "$want" ] && [ -f "$tmp/all/include/ta_kernels.h" ] &&
   [ -f "$tmp/all/runtime.mk" ] && [ -f "$tmp/all/CMakeLists.txt" ]; then
  ok "tinyaot runtime writes all $want kernel files, include/, runtime.mk and CMakeLists.txt"
else
  notok "tinyaot runtime writes all $want kernel files and its build files: $got .c files"
fi
listed=$(sed -n 's/^  \(.*\.c\)\( \\\)*$/\1/p' "$tmp/all/runtime.mk" | wc -l)
[ "$listed" -eq "$want" ] && ok "runtime.mk lists the $want kernel files" ||
  notok "runtime.mk lists the $want kernel files: $listed"

"$TINYAOT" runtime -o "$tmp/one" --kernels ta_softmax_s8 > "$tmp/log" 2>&1
files=$(cd "$tmp/one" && find . -name '*.c' | sort | tr '\n' ' ')
if [ "$files" = "./softmax/ta_softmax_s8.c " ] && [ -f "$tmp/one/include/ta_types.h" ]; then
  ok "--kernels ta_softmax_s8 writes that kernel and the headers only"
else
  notok "--kernels ta_softmax_s8 writes that kernel and the headers only: $files"
fi

"$TINYAOT" runtime -o "$tmp/bad" --kernels ta_softmax_s8,ta_nosuch_s8 > "$tmp/log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "no runtime kernel is called ta_nosuch_s8" "$tmp/log"; then
  ok "an unknown kernel is refused with exit 1 ($(head -n1 "$tmp/log" | sed "s#$tmp/##"))"
else
  notok "an unknown kernel is refused with exit 1: exit $rc, $(head -n1 "$tmp/log")"
fi
"$TINYAOT" runtime --kernels all > "$tmp/log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "runtime needs -o DIR" "$tmp/log" &&
  ok "tinyaot runtime without -o is bad usage (exit 2)" ||
  notok "tinyaot runtime without -o is bad usage (exit 2): exit $rc"

rm -rf "$tmp"
exit $fail
