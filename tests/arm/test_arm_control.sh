#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm_control.sh - the IF and WHILE models of
# tools/gen_control.c on Cortex-M4F -O2 in QEMU, every case compared with
# the same generated code run on the host (`tinyaot run`; against TFLite,
# the host side is checked by tests/ops/test_control_flow.sh): integers
# bit for bit, float32 within ARM_ATOL + ARM_RTOL * |x|.
#
# Plain pass only (exit 77 in the san pass).  A loud skip when the
# cross compiler or QEMU is missing (a failure with TINYAOT_REQUIRE_SHARED=1).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
ARM_WORK=${ARM_WORK:-$TINYAOT_BUILD/arm}/control

need_arm_tools "IF and WHILE on Cortex-M"
rm -rf "$ARM_WORK"
mkdir -p "$ARM_WORK/models/bad"
build_compare || { echo "not ok - the comparison tool builds"; exit 1; }
if ! "$TINYAOT_BUILD/tools/gen_control" "$ARM_WORK/models" > "$ARM_WORK/gen.log" 2>&1; then
  echo "not ok - gen_control writes its models: $(tail -1 "$ARM_WORK/gen.log")"
  exit 1
fi

rc=0
m="$ARM_WORK/models"
while read -r name ncases nin nout dtypes; do
  d="$ARM_WORK/$name"
  mkdir -p "$d"
  if ! "$TINYAOT" compile "$m/$name.tflite" -o "$d/gen" --prefix net > "$d/compile.log" 2>&1; then
    echo "not ok - tinyaot compiles $name: $(tail -1 "$d/compile.log")"
    rc=1
    continue
  fi
  target_info m4
  c=0
  while [ $c -lt "$ncases" ]; do
    mkdir -p "$d/case$c" "$d/host$c"
    args=""
    i=0
    while [ $i -lt "$nin" ]; do
      cp "$m/${name}_c${c}_in$i.bin" "$d/case$c/input$i.bin"
      args="$args -i $m/${name}_c${c}_in$i.bin"
      i=$((i + 1))
    done
    i=0
    while [ $i -lt "$nout" ]; do args="$args -o $d/host$c/output$i.bin"; i=$((i + 1)); done
    # shellcheck disable=SC2086
    if ! "$TINYAOT" run "$m/$name.tflite" $args > "$d/host$c.log" 2>&1; then
      echo "not ok - $name case $c runs on the host: $(tail -1 "$d/host$c.log")"
      rc=1
    elif [ $c -eq 0 ] && ! arm_build "$d/gen" "$d/m4" m4 -O2 "$(sizes_of "$d/case0" input)" \
           "$(sizes_of "$d/host0" output)"; then
      echo "not ok - $name builds for $T_NAME -O2: $(grep -m1 -i error "$d/m4/build.log")"
      rc=1
      break
    else
      arm_run "$d/m4/runner.elf" m4 "$d/case$c" "$d/m4/case$c"
      r=$?
      if [ $r -ne 0 ]; then
        echo "not ok - $name case $c runs on $T_NAME in QEMU: exit $r, $(tail -n1 "$d/m4/case$c/run.log")"
        rc=1
      elif msg=$(compare_outputs "$d/host$c" "$d/m4/case$c" "$dtypes" ""); then
        echo "ok - the control-flow model $name, case $c, on $T_NAME -O2 gives the host's outputs"
      else
        echo "not ok - the control-flow model $name, case $c, on $T_NAME -O2 gives the host's outputs: $msg"
        rc=1
      fi
    fi
    c=$((c + 1))
  done
done < "$m/manifest.txt"
exit $rc
