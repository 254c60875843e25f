#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm_graphs.sh - random multi-op graphs (tools/gen_graphs.c,
# the miscompile hunter's generator) on Cortex-M4F in QEMU, compared with
# the same generated code run on the host.
#
# $ARM_GRAPHS graphs (default 5) from seed $ARM_GRAPHS_SEED (default 1),
# each compiled under one option combination (cycling through default
# rounding, --rounding single, --io-in-caller-buffers, --no-inplace with
# --algo linear, --align 4 with the memory schedule and no views; the
# Cortex-M runner takes one workspace, so no pools), run on the host (`tinyaot run`) and on
# Cortex-M4F at -O2 (tests/arm/lib.sh), outputs compared: integers bit
# for bit, float32 within ARM_ATOL + ARM_RTOL * |x| (newlib's and glibc's
# libm may differ in the last bits).  Against TFLite, the host side is
# checked by tests/graphs/test_graphs.sh.
#
# Plain pass only (exit 77 in the san pass).  A loud skip when the
# cross compiler or QEMU is missing (a failure with TINYAOT_REQUIRE_SHARED=1).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
ARM_WORK=${ARM_WORK:-$TINYAOT_BUILD/arm}/graphs
n=${ARM_GRAPHS:-5}
seed=${ARM_GRAPHS_SEED:-1}

need_arm_tools "random graphs on Cortex-M"
rm -rf "$ARM_WORK"
mkdir -p "$ARM_WORK"
build_compare || { echo "not ok - the comparison tool builds"; exit 1; }
if ! "$TINYAOT_BUILD/tools/gen_graphs" --seed "$seed" --count "$n" "$ARM_WORK/cases" \
     2> "$ARM_WORK/gen.log"; then
  echo "not ok - gen_graphs writes the graphs: $(tail -1 "$ARM_WORK/gen.log")"
  exit 1
fi

rc=0
k=0
while read -r name mode atol rtol nin nout key outs nops; do
  case $((k % 5)) in
    0) opts="" ;;
    1) opts="--rounding single" ;;
    2) opts="--io-in-caller-buffers" ;;
    3) opts="--no-inplace --algo linear" ;;
    *) opts="--align 4 --schedule memory --no-views" ;;
  esac
  k=$((k + 1))
  g="$ARM_WORK/cases/$name"
  d="$ARM_WORK/$name"
  mkdir -p "$d/case0" "$d/host"
  args=""
  i=0
  while [ $i -lt "$nin" ]; do
    cp "$g/in$i.bin" "$d/case0/input$i.bin"
    args="$args -i $g/in$i.bin"
    i=$((i + 1))
  done
  i=0
  while [ $i -lt "$nout" ]; do args="$args -o $d/host/output$i.bin"; i=$((i + 1)); done
  label="the random graph $name ($nops ops, ${opts:-default options})"
  # shellcheck disable=SC2086
  if ! "$TINYAOT" run "$g/model.tflite" $opts $args > "$d/host.log" 2>&1; then
    echo "not ok - $label runs on the host: $(tail -1 "$d/host.log")"
    rc=1
    continue
  fi
  # shellcheck disable=SC2086
  if ! "$TINYAOT" compile "$g/model.tflite" -o "$d/gen" --prefix net $opts > "$d/compile.log" 2>&1; then
    echo "not ok - tinyaot compiles $label: $(tail -1 "$d/compile.log")"
    rc=1
    continue
  fi
  target_info m4
  if ! arm_build "$d/gen" "$d/m4" m4 -O2 "$(sizes_of "$d/case0" input)" "$(sizes_of "$d/host" output)"; then
    echo "not ok - $label builds for $T_NAME -O2: $(grep -m1 -i error "$d/m4/build.log")"
    rc=1
    continue
  fi
  arm_run "$d/m4/runner.elf" m4 "$d/case0" "$d/m4/case0"
  r=$?
  if [ $r -ne 0 ]; then
    echo "not ok - $label runs on $T_NAME in QEMU: exit $r, $(tail -n1 "$d/m4/case0/run.log")"
    rc=1
  elif msg=$(compare_outputs "$d/host" "$d/m4/case0" "$(echo "$outs" | tr ',' ' ')" ""); then
    echo "ok - $label on $T_NAME -O2 gives the host's outputs"
  else
    echo "not ok - $label on $T_NAME -O2 gives the host's outputs: $msg"
    rc=1
  fi
done < "$ARM_WORK/cases/manifest.txt"
exit $rc
