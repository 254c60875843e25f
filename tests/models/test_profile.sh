#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Per-op profiling (compile --profile): the generated code without
# --profile is what it was (no profiling text at all, and the profiled
# runner minus its hook lines is byte for byte the plain one); with it,
# `tinyaot run --profile` on kws_ref_model still gives the golden output
# bit for bit, prints one row per op and writes the table, whose per-op
# sum equals the whole run timed by the same counter within 1%;
# `tinyaot report --profile-data` reads that table; a table of another
# model is refused naming the file.  On the Cortex-M4 in QEMU the same
# hook is checked by tests/arm/test_arm_profile.sh.
shared=${TINYAOT_SHARED:-../shared}
model=$shared/models/kws_ref_model.tflite
gold=$shared/goldens/kws_ref_model/case0
if [ ! -f "$model" ] || [ ! -d "$gold" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared model $model and its goldens exist (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: no $model or $gold; set TINYAOT_SHARED"
  fi
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}

"$TINYAOT" compile "$model" -o "$tmp/plain" --prefix kws 2> "$tmp/err" &&
  "$TINYAOT" compile "$model" -o "$tmp/prof" --prefix kws --profile 2>> "$tmp/err"
check $? "compile with and without --profile succeeds" "$(head -c 300 "$tmp/err")"
hits=$(grep -il profile "$tmp/plain"/* 2>/dev/null | head -3)
check $([ -z "$hits" ]; echo $?) "without --profile no generated file (runner, header, weights, plan, build files) mentions profiling" "$hits"
# The provenance comment names the options used: --profile is one.
grep -v '_profile_hook(' "$tmp/prof/kws.c" | grep -v '^ \* Options: ' > "$tmp/stripped.c"
grep -v '^ \* Options: ' "$tmp/plain/kws.c" > "$tmp/plain.c"
cmp -s "$tmp/stripped.c" "$tmp/plain.c"
check $? "the profiled runner minus its hook calls is byte for byte the plain runner" \
  "$(diff "$tmp/stripped.c" "$tmp/plain/kws.c" | head -5)"
ops=$("$TINYAOT" inspect "$model" --json | grep -c '"version": ')
calls=$(grep -c 'kws_profile_hook([0-9]*, "[A-Z_0-9]*", [01]);' "$tmp/prof/kws.c")
check $([ "$calls" -eq $((2 * ops)) ]; echo $?) \
  "the profiled runner calls the hook before and after each of the $ops ops" "$calls calls"
for s in kws.c kws_profile.c; do
  ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -I"$tmp/prof" -I"$tmp/prof/runtime/include" \
    -c -o "$tmp/x.o" "$tmp/prof/$s" 2> "$tmp/err"
  check $? "the profiled $s compiles with -std=c99 -pedantic -Wall -Wextra -Werror" \
    "$(head -c 300 "$tmp/err")"
done
if command -v arm-none-eabi-gcc > /dev/null 2>&1; then
  arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -std=c99 \
    -pedantic -Wall -Wextra -Werror -I"$tmp/prof" -c -o "$tmp/y.o" "$tmp/prof/kws_profile.c" \
    2> "$tmp/err" && arm-none-eabi-objdump -d "$tmp/y.o" | grep -q '\.word	0xe0001000'
  check $? "for a Cortex-M4 the hook counts with the DWT cycle counter (DWT at 0xe0001000)" \
    "$(head -c 300 "$tmp/err")"
fi

# tinyaot run --profile: two inferences, the golden output bit for bit.
"$TINYAOT" run "$model" --profile --profile-out "$tmp/kws.tsv" -i "$gold/input0.bin" \
  -o "$tmp/out0.bin" -i "$gold/input0.bin" -o "$tmp/out1.bin" > "$tmp/table" 2> "$tmp/err"
check $? "tinyaot run --profile succeeds" "$(head -c 300 "$tmp/err")"
cmp "$gold/output0.bin" "$tmp/out0.bin" > "$tmp/cmp" 2>&1 && cmp -s "$gold/output0.bin" "$tmp/out1.bin"
check $? "the profiled kws_ref_model gives the golden output bit for bit" "$(cat "$tmp/cmp")"
rows=$(grep -c '^ *[0-9][0-9]*  [A-Z]' "$tmp/table")
check $([ "$rows" -eq "$ops" ]; echo $?) "run --profile prints one row per op ($ops)" \
  "$rows rows: $(head -5 "$tmp/table")"
ratio=$(awk '/^ops total/ {gsub(/[()%]/, ""); print $NF}' "$tmp/table")
awk -v r="$ratio" 'BEGIN {exit !(r >= 99 && r <= 101)}'
check $? "the per-op sum is the whole run within 1% on the host (ops / whole run = $ratio%)" \
  "$(tail -1 "$tmp/table")"
n=$(grep -c '^[0-9][0-9]*	[A-Z_0-9]*	[0-9][0-9]*$' "$tmp/kws.tsv")
grep -q '^# tinyaot profile of .*unit ns, 2 runs' "$tmp/kws.tsv" && grep -q '^total	-	[0-9]' "$tmp/kws.tsv" &&
  [ "$n" -eq "$ops" ]
check $? "--profile-out writes the table: a header with its unit, one line per op, the whole run" \
  "$(head -3 "$tmp/kws.tsv")"

# The report reads it.
ARM_CC=no-such-arm-gcc "$TINYAOT" report "$model" --json --profile-data "$tmp/kws.tsv" \
  > "$tmp/r.json" 2> "$tmp/err"
check $? "tinyaot report --profile-data reads the table" "$(head -c 300 "$tmp/err")"
with=$(grep -c '"profile": [0-9]' "$tmp/r.json")
grep -q '"profile": {"unit": "ns", "runs": 2' "$tmp/r.json" && [ "$with" -eq "$ops" ]
check $? "the report gives each of the $ops layers its count and the unit" "$with layers"
sum=$(grep -o '"profile_share": [0-9.]*' "$tmp/r.json" | awk '{t += $2} END {printf "%.0f", t}')
check $([ "$sum" = 100 ]; echo $?) "the layers' shares of the time add up to 100%" "$sum"
sed 's/CONV_2D/SOFTMAX/' "$tmp/kws.tsv" > "$tmp/bad.tsv"
ARM_CC=no-such-arm-gcc "$TINYAOT" report "$model" --json --profile-data "$tmp/bad.tsv" \
  > /dev/null 2> "$tmp/err"
rc=$?
check $([ $rc -eq 1 ] && grep -q "bad.tsv: op 0 is SOFTMAX in the profile but CONV_2D" "$tmp/err"; echo $?) \
  "a profile of another model is refused, naming the file and the op" "exit $rc: $(cat "$tmp/err")"
"$TINYAOT" run "$model" --profile-out "$tmp/x.tsv" -i "$gold/input0.bin" -o "$tmp/o.bin" \
  > /dev/null 2>&1
check $([ $? -eq 2 ]; echo $?) "--profile-out without --profile is a usage error" "not exit 2"
