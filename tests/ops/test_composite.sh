#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_composite.sh - STABLEHLO_COMPOSITE: the models of
# tools/gen_composite.c, their decompositions inlined by the reader.
#   - tinyaot gives the same bytes for each model and its _inlined twin
#     (the decomposition written in subgraph 0 by the generator);
#   - TFLite (plain pass): LiteRT runs the composite model itself; its
#     float32 outputs match tinyaot's within 1e-5; its int8 kernels are
#     XNNPACK's (within 1 of TFLite's builtin kernels), so int8 is
#     compared bit-exactly with TFLite's builtin kernels on the _inlined
#     twin (tinyaot --rounding single) and within 1 with LiteRT;
#   - the refusals of the models in bad/ (exit 1, the message expected).
build=${TINYAOT_BUILD:-build}
tinyaot=${TINYAOT:-$build/tinyaot}
cmp="$build/tools/cmp_tensors"
work="$build/composite"
rc=0
rm -rf "$work"
mkdir -p "$work/bad"
if ! "$build/tools/gen_composite" "$work" > "$work/gen.log" 2>&1; then
  echo "not ok - gen_composite writes its models: $(tail -1 "$work/gen.log")"
  exit 1
fi

oracle=""
if [ "${TINYAOT_PASS:-plain}" = plain ]; then
  shared=${TINYAOT_SHARED:-../shared}
  if [ -x "$shared/oracle/tflite-oracle" ] && command -v node > /dev/null 2>&1; then
    oracle="$shared/oracle/tflite-oracle"
  elif [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the TFLite oracle runs (no node or no $shared/oracle; TINYAOT_REQUIRE_SHARED=1)"
    rc=1
  else
    echo "skip - TFLITE ORACLE MISSING: composite models checked against their inlined twins only"
  fi
fi

# files PREFIX N TAG: " -o|-i PREFIX<TAG><i>.bin" for i < N
files() {
  i=0
  s=""
  while [ $i -lt "$2" ]; do
    s="$s $3 $1$i.bin"
    i=$((i + 1))
  done
  echo "$s"
}

# same DTYPE ATOL N EXPECTED_PREFIX ACTUAL_PREFIX: all N outputs compare
same() {
  i=0
  while [ $i -lt "$3" ]; do
    "$cmp" "$1" "$2" "$2" "$4$i.bin" "$5$i.bin" > "$work/cmp.log" 2>&1 || return 1
    i=$((i + 1))
  done
}

# within1 N EXPECTED_PREFIX ACTUAL_PREFIX: int8 outputs differ by at most 1
# (cmp_tensors compares integers exactly and reports the largest difference)
within1() {
  i=0
  while [ $i -lt "$1" ]; do
    if ! "$cmp" int8 0 0 "$2$i.bin" "$3$i.bin" > "$work/cmp.log" 2>&1; then
      grep -q 'max |diff| 1)' "$work/cmp.log" || return 1
    fi
    i=$((i + 1))
  done
}

while read -r name dtype nin nout; do
  w="$work/$name"
  ins=$(files "$work/${name}_in" "$nin" -i)
  fail=""
  for m in "$name" "${name}_inlined"; do
    for r in double single; do
      # shellcheck disable=SC2086
      if ! "$tinyaot" run "$work/$m.tflite" --rounding $r $ins \
             $(files "$w.$m.$r.out" "$nout" -o) < /dev/null > "$w.run.log" 2>&1; then
        fail="tinyaot run $m --rounding $r: $(tail -1 "$w.run.log")"
      fi
    done
  done
  if [ -z "$fail" ]; then
    for r in double single; do
      same "$dtype" 0 "$nout" "$w.${name}_inlined.$r.out" "$w.$name.$r.out" ||
        fail="--rounding $r: $(tail -1 "$work/cmp.log")"
    done
  fi
  if [ -z "$fail" ]; then
    echo "ok - $name ($dtype): tinyaot gives the bytes of its inlined twin"
  else
    echo "not ok - $name ($dtype): tinyaot gives the bytes of its inlined twin: $fail"
    rc=1
    continue
  fi
  [ -n "$oracle" ] || continue

  # shellcheck disable=SC2086
  if ! "$oracle" -b litert "$work/$name.tflite" $ins $(files "$w.litert.out" "$nout" -o) \
         > "$w.oracle.log" 2>&1; then
    echo "not ok - $name ($dtype): LiteRT runs the composite model: $(tail -1 "$w.oracle.log")"
    rc=1
    continue
  fi
  if [ "$dtype" = float32 ]; then
    if same float32 1e-5 "$nout" "$w.litert.out" "$w.$name.double.out"; then
      echo "ok - $name (float32): LiteRT on the composite gives tinyaot's outputs within 1e-5"
    else
      echo "not ok - $name (float32): LiteRT on the composite gives tinyaot's outputs within 1e-5: $(tail -1 "$work/cmp.log")"
      rc=1
    fi
    continue
  fi
  # shellcheck disable=SC2086
  if ! "$oracle" --xnnpack off "$work/${name}_inlined.tflite" $ins \
         $(files "$w.tflite.out" "$nout" -o) > "$w.oracle.log" 2>&1; then
    echo "not ok - $name ($dtype): TFLite runs the inlined twin: $(tail -1 "$w.oracle.log")"
    rc=1
    continue
  fi
  if same "$dtype" 0 "$nout" "$w.tflite.out" "$w.$name.single.out"; then
    echo "ok - $name ($dtype): TFLite's builtin kernels on the inlined twin give tinyaot's bytes (--rounding single)"
  else
    echo "not ok - $name ($dtype): TFLite's builtin kernels on the inlined twin give tinyaot's bytes (--rounding single): $(tail -1 "$work/cmp.log")"
    rc=1
  fi
  if within1 "$nout" "$w.litert.out" "$w.$name.single.out"; then
    echo "ok - $name ($dtype): LiteRT on the composite gives tinyaot's outputs within 1"
  else
    echo "not ok - $name ($dtype): LiteRT on the composite gives tinyaot's outputs within 1: $(tail -1 "$work/cmp.log")"
    rc=1
  fi
done < "$work/manifest.txt"

while read -r name expect; do
  "$tinyaot" compile "$work/bad/$name.tflite" -o "$work/bad/$name.out" < /dev/null \
    > "$work/bad/$name.log" 2>&1
  st=$?
  if [ $st -eq 1 ] && grep -qF -- "$expect" "$work/bad/$name.log" &&
     grep -qF "STABLEHLO_COMPOSITE" "$work/bad/$name.log"; then
    echo "ok - bad/$name is refused: $expect"
  else
    echo "not ok - bad/$name is refused (exit $st, expected 1): $expect: $(head -1 "$work/bad/$name.log")"
    rc=1
  fi
done < "$work/bad/expect.txt"
exit $rc
