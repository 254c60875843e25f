#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Per-op profiling on a Cortex-M4F under QEMU: bench/arm_profile.sh
# builds kws_ref_model with `compile --profile` (the generated hook, its
# counter the board's timer) and runs golden case0; every op gets a
# count, the per-op sum equals the whole run the runner timed within 1%,
# the outputs still match the golden bit for bit, and the table it
# writes is one `tinyaot report --profile-data` reads.  And the flash
# `tinyaot report` gives for the model equals the linker map of this
# very bench build (tests/arm/mapsize.awk): runner, weights, kernels.
#
# Plain pass of make test only (exit 77 in the san pass: nothing here
# runs on the host); skips loudly without the Cortex-M tools, fails
# instead with TINYAOT_REQUIRE_SHARED=1.
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
export TINYAOT TINYAOT_BUILD TINYAOT_SHARED
check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}
need_arm_tools "the Cortex-M profile"
m=kws_ref_model
need_shared_model $m
dir=$TINYAOT_BUILD/arm-profile/$m
out=$(sh "$ARM_ROOT/bench/arm_profile.sh" "$model" m4 -O2 2>&1)
rc=$?
check $rc "bench/arm_profile.sh profiles $m (given as a path) on the Cortex-M4F" \
  "exit $rc: $(echo "$out" | tail -5)"
ops=$("$TINYAOT" inspect "$model" --json | grep -c '"version": ')
rows=$(echo "$out" | grep -c '^ *[0-9][0-9]*  [A-Z]')
check $([ "$rows" -eq "$ops" ]; echo $?) "the QEMU table has one row per op ($ops)" "$rows rows"
line=$(echo "$out" | grep '^ops total')
ratio=$(echo "$line" | sed 's/.*= \([0-9.]*\)%.*/\1/')
awk -v r="$ratio" 'BEGIN {exit !(r >= 99 && r <= 101)}'
check $? "the per-op instructions add up to the whole run within 1% ($line)" "$out"
i=0 ok=0
while [ -f "$gold/output$i.bin" ]; do
  cmp -s "$gold/output$i.bin" "$dir/out/output$i.bin" || ok=1
  i=$((i + 1))
done
check $([ $ok -eq 0 ] && [ $i -gt 0 ]; echo $?) \
  "the profiled build still gives the golden output bit for bit" "output differs"
ARM_CC=no-such-arm-gcc "$TINYAOT" report "$model" --json --profile-data "$dir/profile.tsv" \
  > "$dir/report.json" 2> "$dir/report.err"
grep -q '"profile": {"unit": "instructions"' "$dir/report.json"
check $? "tinyaot report reads the QEMU table (unit instructions)" "$(cat "$dir/report.err")"
# The report's flash against the bench build's map (no --profile there).
b=$dir/bench
rm -rf "$b" && mkdir -p "$b"
"$TINYAOT" compile "$model" -o "$b/gen" --prefix net > /dev/null &&
  arm_build "$b/gen" "$b/build" m4 -O2 "$(sizes_of "$gold" input)" "$(sizes_of "$gold" output)" &&
  awk -v prefix=net -f "$ARM_ROOT/tests/arm/mapsize.awk" "$b/build/runner.map" > "$b/sizes"
check $? "the bench build of $m links" "$(tail -5 "$b/build/build.log" 2>/dev/null)"
"$TINYAOT" report "$model" --json > "$b/report.json" 2> "$b/report.err"
val() { awk -v k="$1" '$1 == k {print $2}' "$b/sizes"; }
got() { grep -o "\"$1\": [0-9]*" "$b/report.json" | head -1 | awk '{print $2}'; }
grep -q '"flash": {"measured": true' "$b/report.json" &&
  [ "$(got code)" = "$(val flash_gen)" ] && [ "$(got weights)" = "$(val flash_weights)" ] &&
  [ "$(got kernels)" = "$(val flash_rt)" ] && [ "$(got lib)" = "$(val flash_lib)" ]
check $? "the report's flash equals the bench build's map (runner $(val flash_gen), weights $(val flash_weights), kernels $(val flash_rt), C library $(val flash_lib) B)" \
  "report: runner $(got code), weights $(got weights), kernels $(got kernels), lib $(got lib)"
