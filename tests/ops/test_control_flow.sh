#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_control_flow.sh - IF and WHILE compiled as C control flow:
# the models of tools/gen_control.c.
#   - tinyaot runs every case of a model in one process (the cases are
#     successive inferences: nothing may leak from one into the next) and
#     gives TFLite's bytes for each (builtin kernels, --xnnpack off;
#     float32 compared exactly: the branches and bodies only add, subtract
#     and multiply by powers of two and constants);
#   - IF takes both branches, WHILE runs 0, 1 and several iterations as
#     its input decides, a counter loop runs to a constant bound, an IF
#     sits inside a WHILE body; int8, int32 and float32;
#   - the generated C compiles with -std=c99 -Wall -Wextra -Werror -pedantic;
#   - the refusals of the models in bad/ (exit 1, the message expected).
# In the sanitizer pass the runs are built with TINYAOT_CFLAGS
# (AddressSanitizer and UndefinedBehaviorSanitizer).
build=${TINYAOT_BUILD:-build}
tinyaot=${TINYAOT:-$build/tinyaot}
cmp="$build/tools/cmp_tensors"
work="$build/control_flow"
cc=${CC:-cc}
rc=0
rm -rf "$work"
mkdir -p "$work/bad"
if ! "$build/tools/gen_control" "$work" > "$work/gen.log" 2>&1; then
  echo "not ok - gen_control writes its models: $(tail -1 "$work/gen.log")"
  exit 1
fi

shared=${TINYAOT_SHARED:-../shared}
oracle=""
if [ -x "$shared/oracle/tflite-oracle" ] && command -v node > /dev/null 2>&1; then
  oracle="$shared/oracle/tflite-oracle"
elif [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
  echo "not ok - the TFLite oracle runs (no node or no $shared/oracle; TINYAOT_REQUIRE_SHARED=1)"
  rc=1
else
  echo "skip - TFLITE ORACLE MISSING: control-flow models only compiled and run"
fi

# files PREFIX N TAG: " TAG PREFIX<i>.bin" for i < N
files() {
  i=0
  s=""
  while [ $i -lt "$2" ]; do
    s="$s $3 $1$i.bin"
    i=$((i + 1))
  done
  echo "$s"
}

while read -r name ncases nin nout dtypes; do
  w="$work/$name"
  args=""
  c=0
  while [ $c -lt "$ncases" ]; do
    args="$args $(files "$work/${name}_c${c}_in" "$nin" -i) $(files "$w.c$c.out" "$nout" -o)"
    c=$((c + 1))
  done
  # shellcheck disable=SC2086
  if ! "$tinyaot" run "$work/$name.tflite" --rounding single $args < /dev/null \
         > "$w.run.log" 2>&1; then
    echo "not ok - $name: tinyaot runs its $ncases cases: $(tail -1 "$w.run.log")"
    rc=1
    continue
  fi
  echo "ok - $name: tinyaot runs its $ncases cases in one process"

  if "$tinyaot" compile "$work/$name.tflite" -o "$w.gen" < /dev/null > "$w.compile.log" 2>&1 &&
     (cd "$w.gen" && for f in *.c; do
        $cc -std=c99 -Wall -Wextra -Werror -pedantic -Iruntime/include -c "$f" -o /dev/null || exit 1
      done) > "$w.strict.log" 2>&1; then
    echo "ok - $name: the generated runner compiles with -std=c99 -Wall -Wextra -Werror -pedantic"
  else
    echo "not ok - $name: the generated runner compiles with -std=c99 -Wall -Wextra -Werror -pedantic: $(head -3 "$w.compile.log" "$w.strict.log" | tr '\n' ' ')"
    rc=1
  fi

  [ -n "$oracle" ] || continue
  c=0
  while [ $c -lt "$ncases" ]; do
    # shellcheck disable=SC2086
    if ! "$oracle" --xnnpack off "$work/$name.tflite" $(files "$work/${name}_c${c}_in" "$nin" -i) \
           $(files "$w.c$c.tflite" "$nout" -o) > "$w.oracle.log" 2>&1; then
      echo "not ok - $name case $c: TFLite runs the model: $(tail -1 "$w.oracle.log")"
      rc=1
      c=$((c + 1))
      continue
    fi
    fail=""
    i=0
    for dt in $dtypes; do
      if ! "$cmp" "$dt" 0 0 "$w.c$c.tflite$i.bin" "$w.c$c.out$i.bin" > "$work/cmp.log" 2>&1; then
        fail="output $i: $(tail -1 "$work/cmp.log")"
        break
      fi
      i=$((i + 1))
    done
    if [ -z "$fail" ]; then
      echo "ok - $name case $c ($dtypes): TFLite's builtin kernels give tinyaot's bytes"
    else
      echo "not ok - $name case $c ($dtypes): TFLite's builtin kernels give tinyaot's bytes: $fail"
      rc=1
    fi
    c=$((c + 1))
  done
done < "$work/manifest.txt"

while read -r name expect; do
  "$tinyaot" compile "$work/bad/$name.tflite" -o "$work/bad/$name.out" < /dev/null \
    > "$work/bad/$name.log" 2>&1
  st=$?
  if [ $st -eq 1 ] && grep -qF -- "$expect" "$work/bad/$name.log"; then
    echo "ok - bad/$name is refused: $expect"
  else
    echo "not ok - bad/$name is refused (exit $st, expected 1): $expect: $(head -1 "$work/bad/$name.log")"
    rc=1
  fi
done < "$work/bad/expect.txt"
exit $rc
