#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm.sh - tinyaot's generated code on Cortex-M, in QEMU.
#
# For every model with goldens in $TINYAOT_SHARED/goldens: `tinyaot
# compile` it (a model the compiler refuses is reported as "not supported
# yet"), build the generated code and the runtime sources it uses with
# arm-none-eabi-gcc for each target in ARM_TARGETS (default: Cortex-M4F at
# -O2 and at -Os, Cortex-M7 and Cortex-M33 at -O2), run every golden case (and the stream of a model with
# state) under qemu-system-arm, and compare the outputs with the goldens:
# integer outputs bit for bit, float32 within ARM_ATOL + ARM_RTOL * |x|.
# One ok/not ok line per model, target and case.  It also checks each
# model's stack high-water against the stack the bare-metal example
# reserves, and the harness itself on a hand-written stand-in model.
#
# Runs in the plain pass of make test only (exit 77 in the san pass:
# nothing here is built for the host).  Environment: see tests/arm/lib.sh;
# ARM_TARGETS ("m4:-O2 m4:-Os m7:-O2 m33:-O2"; targets m4 m7 m33), ARM_MODELS (default:
# every model with goldens), ARM_JOBS (parallel models, default 2),
# ARM_PATCHED (models also run patched under --ram-limit, NAME:BYTES),
# ARM_SPEED (models also run with --optimize speed, NAME[:BYTES]).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
ARM_WORK=${ARM_WORK:-$TINYAOT_BUILD/arm}
ARM_TARGETS=${ARM_TARGETS:-"m4:-O2 m4:-Os m7:-O2 m33:-O2"}
ARM_JOBS=${ARM_JOBS:-2}
export TINYAOT TINYAOT_SHARED ARM_WORK ARM_TARGETS ARM_ROOT

# The stack the example firmware reserves (examples/cortex-m/sections.ld).
example_stack() {
  sed -n 's/^STACK_SIZE = DEFINED(STACK_SIZE) ? STACK_SIZE : \([0-9]*\);/\1/p' \
    "$ARM_EXAMPLE/sections.ld"
}

# check_standin: the harness on a hand-written model whose expected
# outputs come from the same C built for the host.
check_standin() {
  local d s tc t opt b rc msg
  d=$ARM_WORK/standin
  rm -rf "$d" && mkdir -p "$d/case0" "$d/expected"
  LC_ALL=C awk 'BEGIN { for (i = 0; i < 40; i++) printf "%c", (i * 73 + 11) % 256 }' \
    > "$d/case0/input0.bin"
  LC_ALL=C awk 'BEGIN { for (i = 0; i < 16; i++) printf "%c", (i * 151 + 7) % 256 }' \
    > "$d/case0/input1.bin"
  s=$ARM_ROOT/tests/arm/standin
  ${CC:-cc} -O2 -I"$s" -o "$d/host" "$ARM_ROOT/tests/arm/standin_main.c" "$s/net.c" \
    "$s/net_weights.c" && "$d/host" "$d/case0" "$d/expected" || {
    echo "not ok - the stand-in model builds and runs on the host"; return; }
  for tc in $ARM_TARGETS; do
    t=${tc%%:*} opt=${tc#*:}
    target_info "$t"
    b=$d/$t$opt
    if ! arm_build "$s" "$b" "$t" "$opt" 40,16 32,8; then
      echo "not ok - the stand-in model builds for $T_NAME $opt: $(grep -m1 -i error "$b/build.log")"
      continue
    fi
    arm_run "$b/runner.elf" "$t" "$d/case0" "$b/case0"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "not ok - the stand-in model runs on $T_NAME $opt in QEMU: exit $rc, $(tail -n1 "$b/case0/run.log")"
      continue
    fi
    if msg=$(compare_outputs "$d/expected" "$b/case0" "int32 int8" ""); then
      echo "ok - the stand-in model on $T_NAME $opt gives the host's outputs"
    else
      echo "not ok - the stand-in model on $T_NAME $opt gives the host's outputs: $msg"
    fi
  done
  # The comparison must be able to fail: change one byte.
  cp "$d/expected/output1.bin" "$d/changed.bin"
  printf '\001' | dd of="$d/changed.bin" bs=1 seek=3 conv=notrunc 2>/dev/null
  if msg=$("$ARM_WORK/compare" int8 0 0 "$d/changed.bin" "$d/expected/output1.bin"); then
    echo "not ok - the comparison reports a changed output byte: it reported none"
  else
    echo "ok - the comparison reports a changed output byte ($msg)"
  fi
}

# check_model NAME [OPTIONS]: every case of one model compiled with
# OPTIONS, on every target.
check_model() {
  local m gold dir ins outs dts how cases c steps reserve tc t opt b rc msg k bad log top opts name
  m=$1 opts=$2 name=$1
  gold=$TINYAOT_SHARED/goldens/$m
  dir=$ARM_WORK/$m
  if [ -n "$opts" ]; then
    name="$m ($opts)"
    dir=$ARM_WORK/$m$(echo "$opts" | tr -c 'a-zA-Z0-9\n' '_')
  fi
  rm -rf "$dir/gen" && mkdir -p "$dir"
  if ! "$TINYAOT" compile "$TINYAOT_SHARED/models/$m.tflite" -o "$dir/gen" --prefix net $opts \
       > "$dir/compile.log" 2>&1; then
    echo "not ok - $name compiles (tinyaot compile: $(head -n1 "$dir/compile.log" | sed "s|^$TINYAOT_SHARED/models/||"))"
    return
  fi
  ins=$(sizes_of "$gold/case0" input)
  outs=$(sizes_of "$gold/case0" output)
  dts=$(output_dtypes "$gold/manifest.json")
  how="equals the golden bit for bit"
  case " $(echo $dts) " in
    *" float32 "*) how="matches the golden (integers bit for bit, float32 within $ARM_ATOL + $ARM_RTOL*|x|)" ;;
  esac
  cases=""
  for c in "$gold"/*/; do
    c=$(basename "$c")
    [ -f "$gold/$c/input0.bin" ] && cases="$cases $c"
  done
  steps=0
  while [ -d "$gold/stream0/step$steps" ]; do steps=$((steps + 1)); done
  reserve=$(example_stack)
  for tc in $ARM_TARGETS; do
    t=${tc%%:*} opt=${tc#*:}
    target_info "$t"
    b=$dir/$t$opt
    if ! arm_build "$dir/gen" "$b" "$t" "$opt" "$ins" "$outs"; then
      echo "not ok - $name builds for $T_NAME $opt: $(grep -m1 -i error "$b/build.log")"
      continue
    fi
    for c in $cases; do
      arm_run "$b/runner.elf" "$t" "$gold/$c" "$b/$c"
      rc=$?
      if [ $rc -ne 0 ]; then
        echo "not ok - $name $c runs on $T_NAME $opt in QEMU: exit $rc, $(tail -n1 "$b/$c/run.log")"
      elif msg=$(compare_outputs "$gold/$c" "$b/$c" "$dts" ""); then
        echo "ok - $name $c on $T_NAME $opt $how"
      else
        echo "not ok - $name $c on $T_NAME $opt $how: $msg"
      fi
    done
    if [ $steps -gt 0 ]; then
      arm_run "$b/runner.elf" "$t" "$gold/stream0" "$b/stream0" $steps
      rc=$?
      if [ $rc -ne 0 ]; then
        echo "not ok - $name stream0 ($steps steps) runs on $T_NAME $opt in QEMU: exit $rc, $(tail -n1 "$b/stream0/run.log")"
      else
        k=0 bad=""
        while [ $k -lt $steps ]; do
          msg=$(compare_outputs "$gold/stream0/step$k" "$b/stream0" "$dts" "step${k}_") ||
            { bad="step$k $msg"; break; }
          k=$((k + 1))
        done
        if [ -z "$bad" ]; then
          echo "ok - $name stream0 ($steps steps, state carried over) on $T_NAME $opt $how"
        else
          echo "not ok - $name stream0 ($steps steps, state carried over) on $T_NAME $opt $how: $bad"
        fi
      fi
    fi
    log=$b/case0/run.log
    top=$(log_value "$log" stack_top)
    if [ -n "$top" ] && [ "$top" -le "$reserve" ]; then
      echo "ok - $name on $T_NAME $opt needs $top bytes of stack, within the example's $reserve"
    else
      echo "not ok - $name on $T_NAME $opt needs ${top:-?} bytes of stack, within the example's $reserve"
    fi
  done
}

# check_example: examples/cortex-m built with its own Makefile for
# kws_ref_model, run in QEMU; its printed scores must be golden case0's.
check_example() {
  local m=kws_ref_model d=$ARM_WORK/example got want
  if ! "$TINYAOT" compile "$TINYAOT_SHARED/models/$m.tflite" -o "$d.probe" --prefix kws \
       > /dev/null 2>&1; then
    echo "not ok - $m compiles, for the Cortex-M example"
    return
  fi
  rm -rf "$d" "$d.probe"
  if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ARM_EXAMPLE" BUILD="$d" TINYAOT="$TINYAOT" \
       MODEL="$TINYAOT_SHARED/models/$m.tflite" all > "$ARM_WORK/example.log" 2>&1; then
    echo "not ok - the Cortex-M example builds: $(grep -m1 -i error "$ARM_WORK/example.log" ||
      tail -n1 "$ARM_WORK/example.log")"
    return
  fi
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ARM_EXAMPLE" BUILD="$d" TINYAOT="$TINYAOT" \
    MODEL="$TINYAOT_SHARED/models/$m.tflite" run > "$ARM_WORK/example.out" 2>&1
  got=$(sed -n 's/^scores: //p' "$ARM_WORK/example.out")
  want=$(od -An -v -td1 "$TINYAOT_SHARED/goldens/$m/case0/output0.bin" | tr -s ' \n' ' ' |
         sed 's/^ //; s/ $//')
  if [ -n "$got" ] && [ "$got" = "$want" ]; then
    echo "ok - the Cortex-M example prints $m's golden case0 scores ($(grep '^top:' "$ARM_WORK/example.out"))"
  else
    echo "not ok - the Cortex-M example prints $m's golden case0 scores: expected '$want', got '${got:-$(tail -n1 "$ARM_WORK/example.out")}'"
  fi
}

case $1 in
  --model) shift; check_model "$1"; exit 0 ;;
  --patched) shift; check_model "${1%%:*}" "--io-in-workspace --ram-limit ${1#*:}"; exit 0 ;;
  --speed) shift
    case $1 in
      *:*) check_model "${1%%:*}" "--optimize speed --io-in-workspace --ram-limit ${1#*:}" ;;
      *) check_model "$1" "--optimize speed" ;;
    esac
    exit 0 ;;
esac

need_arm_tools "the Cortex-M model runs"
mkdir -p "$ARM_WORK"
build_compare || { echo "not ok - the comparison tool builds"; exit 1; }
check_standin

if [ ! -f "$TINYAOT_SHARED/models/SHA256SUMS" ]; then
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the shared models are at $TINYAOT_SHARED (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: $TINYAOT_SHARED has no models/; set TINYAOT_SHARED"
  fi
  exit 0
fi
if [ ! -x "$TINYAOT" ]; then
  echo "not ok - the compiler $TINYAOT is built"
  exit 0
fi
models=${ARM_MODELS:-$(cd "$TINYAOT_SHARED/goldens" && for d in */; do
  [ -f "$d/manifest.json" ] && [ -f "../models/${d%/}.tflite" ] && echo "${d%/}"; done)}
check_example
mkdir -p "$ARM_WORK/results"
echo $models | tr ' ' '\n' |
  xargs -P "$ARM_JOBS" -I{} sh -c 'sh "$0" --model "$1" > "$ARM_WORK/results/$1.txt" 2>&1' \
    "$0" {}
for m in $models; do cat "$ARM_WORK/results/$m.txt"; done
# Patched runs (doc/memory-plan.md, 2d) and fused residual ADDs (2e) on
# Cortex-M: the plans --ram-limit keeps for these models (NAME:BYTES;
# ARM_PATCHED, empty to skip; resnet8_int8 at 33500 takes --fuse-add and
# the lean form of convolutions 1 and 2, vww_96_int8 at 37000 the lean
# form of its 3x3 depthwise ops 1 and 3).
patched=${ARM_PATCHED-"vww_96_int8:30000 vww_96_int8:37000 person_detect_int8:24000 resnet8_int8:33500"}
for p in $patched; do
  [ -f "$TINYAOT_SHARED/goldens/${p%%:*}/manifest.json" ] || continue
  sh "$0" --patched "$p" > "$ARM_WORK/results/patched.$p.txt" 2>&1
  cat "$ARM_WORK/results/patched.$p.txt"
done
# --optimize speed (CONV_2D over filters widened on the host, and the
# FULLY_CONNECTED after them on the same entry; ad01_int8's on the FC
# kernel's wide entry), alone or (NAME:BYTES) with a --ram-limit that
# patches the run: ARM_SPEED, empty to skip.
speed=${ARM_SPEED-"kws_ref_model resnet8_int8 ad01_int8 person_detect_int8:24000"}
for p in $speed; do
  [ -f "$TINYAOT_SHARED/goldens/${p%%:*}/manifest.json" ] || continue
  sh "$0" --speed "$p" > "$ARM_WORK/results/speed.$p.txt" 2>&1
  cat "$ARM_WORK/results/speed.$p.txt"
done
exit 0
