#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm_onnx.sh - the ONNX models on Cortex-M, in QEMU.
#
# Float models: every model of $TINYAOT_SHARED/models/onnx with goldens in
# $TINYAOT_SHARED/goldens/onnx (ONNX Runtime's outputs) is compiled, built
# for each target and run on every golden case under qemu-system-arm; each
# float32 output must be within the ONNX tolerance, 1e-4 relative error
# (max_i |a_i - e_i| / max_i |e_i|, as tests/models/test_onnx_models.c;
# tests/arm/compare.c --relative), and the largest relative error over the
# cases is reported per model and target, with the instructions of case0's
# inference and its stack high-water.  A model whose image overflows the
# board's 4 MiB flash is linked with its weights in the board's PSRAM
# (tests/arm/mps2-*-xweights.ld, chosen by tests/arm/lib.sh).
#
# Integer models: QDQ models from tools/gen_qdq.py (its multi-layer Cnn
# and a few single-op rows, seed 1; Conv:int8_pc, DepthwiseConv:int8 and
# Add:int8_mixed are groups ONNX Runtime computes in float32, so their
# --rounding onnxruntime build runs the float kernels ta_conv2d_ort_f32_s8
# and ta_binary_ort_f32_s8 on the core) compiled under the default rounding
# and under --rounding onnxruntime, built for each target, and their
# outputs compared bit for bit with the host build of the same model
# (`tinyaot run`) and, for --rounding onnxruntime, with ONNX Runtime (the
# oracle's onnxruntime-node; without Node or it, a loud skip of that
# comparison only).
#
# In make test (plain pass only; exit 77 in the san pass: nothing here is
# built for the host's sanitizers): Cortex-M4F -O2 and the quick models
# (ARM_ONNX_QUICK).  make check-arm sets ARM_ONNX_ALL=1: every model on
# every target of ARM_TARGETS.  Environment: see tests/arm/lib.sh;
# ARM_ONNX_MODELS (the models, overriding both), ARM_JOBS (parallel
# models, default 2).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
ARM_ONNX_WORK=${ARM_ONNX_WORK:-${ARM_WORK:-$TINYAOT_BUILD/arm}/onnx}
ARM_WORK=$ARM_ONNX_WORK
ARM_JOBS=${ARM_JOBS:-2}
ARM_ONNX_TOL=1e-4
ARM_ONNX_QUICK="ds_cnn_kws fc_autoencoder_ad lstm_mnist shape_chain_cnn_nofold"
QDQ_ROWS="Cnn:int8 Conv:int8_pc DepthwiseConv:int8 DepthwiseConv:uint8 Gemm:int8 Add:int8 Add:int8_mixed"
if [ "${ARM_ONNX_ALL:-}" = 1 ]; then
  ARM_TARGETS=${ARM_TARGETS:-"m4:-O2 m4:-Os m7:-O2 m33:-O2"}
else
  ARM_TARGETS="m4:-O2"
fi
export TINYAOT TINYAOT_SHARED ARM_WORK ARM_ONNX_WORK ARM_TARGETS ARM_ROOT ARM_ONNX_TOL

# The stack the example firmware reserves (examples/cortex-m/sections.ld).
example_stack() {
  sed -n 's/^STACK_SIZE = DEFINED(STACK_SIZE) ? STACK_SIZE : \([0-9]*\);/\1/p' \
    "$ARM_EXAMPLE/sections.ld"
}

# check_model NAME: every golden case of one float ONNX model, on every
# target.
check_model() {
  local m gold dir ins outs cases c tc t opt b rc msg worst r nout i bad where top reserve
  m=$1
  gold=$TINYAOT_SHARED/goldens/onnx/$m
  dir=$ARM_WORK/$m
  rm -rf "$dir/gen" && mkdir -p "$dir"
  if ! "$TINYAOT" compile "$TINYAOT_SHARED/models/onnx/$m.onnx" -o "$dir/gen" --prefix net \
       > "$dir/compile.log" 2>&1; then
    echo "not ok - onnx/$m compiles: $(head -n1 "$dir/compile.log" | sed "s|^$TINYAOT_SHARED/models/||")"
    return
  fi
  ins=$(sizes_of "$gold/case0" input)
  outs=$(sizes_of "$gold/case0" output)
  nout=$(echo "$outs" | tr ',' '\n' | wc -l)
  if output_dtypes "$gold/manifest.json" | grep -qv '^float32$'; then
    echo "not ok - onnx/$m has float32 outputs only (its manifest lists $(output_dtypes "$gold/manifest.json" | tr '\n' ' '))"
    return
  fi
  cases=""
  for c in "$gold"/*/; do
    c=$(basename "$c")
    [ -f "$gold/$c/input0.bin" ] && cases="$cases $c"
  done
  reserve=$(example_stack)
  for tc in $ARM_TARGETS; do
    t=${tc%%:*} opt=${tc#*:}
    target_info "$t"
    b=$dir/$t$opt
    if ! arm_build "$dir/gen" "$b" "$t" "$opt" "$ins" "$outs"; then
      echo "not ok - onnx/$m builds for $T_NAME $opt: $(grep -m1 -i -e error -e overflow "$b/build.log")"
      continue
    fi
    where="weights in flash"
    [ "$(cat "$b/layout")" = "$T_XW_LD" ] && where="weights in PSRAM ($T_XW_LD)"
    [ "$(cat "$b/layout")" = "$T_BIG_LD" ] && where="RAM in PSRAM ($T_BIG_LD)"
    worst=0 bad=0
    for c in $cases; do
      arm_run "$b/runner.elf" "$t" "$gold/$c" "$b/$c"
      rc=$?
      if [ $rc -ne 0 ]; then
        echo "not ok - onnx/$m $c runs on $T_NAME $opt in QEMU: exit $rc, $(tail -n1 "$b/$c/run.log")"
        bad=1
        continue
      fi
      i=0
      while [ $i -lt "$nout" ]; do
        msg=$("$ARM_WORK/compare" --relative "$ARM_ONNX_TOL" "$gold/$c/output$i.bin" \
              "$b/$c/output$i.bin")
        rc=$?
        r=$(echo "$msg" | sed -n 's/^relative error \([^:]*\).*/\1/p')
        worst=$(awk -v a="$worst" -v b="${r:-inf}" 'BEGIN {print (b + 0 > a + 0 || b == "inf") ? b : a}')
        if [ $rc -ne 0 ]; then
          echo "not ok - onnx/$m $c output$i on $T_NAME $opt is within $ARM_ONNX_TOL relative error of ONNX Runtime: $msg"
          bad=1
        fi
        i=$((i + 1))
      done
    done
    [ $bad = 0 ] &&
      echo "ok - onnx/$m on $T_NAME $opt ($where): every case within $ARM_ONNX_TOL relative error of ONNX Runtime (max relative error $worst over$cases; case0 $(( $(log_value "$b/case0/run.log" ticks) * T_TICK_NS )) instructions)"
    top=$(log_value "$b/case0/run.log" stack_top)
    if [ -n "$top" ] && [ "$top" -le "$reserve" ]; then
      echo "ok - onnx/$m on $T_NAME $opt needs $top bytes of stack, within the example's $reserve"
    else
      echo "not ok - onnx/$m on $T_NAME $opt needs ${top:-?} bytes of stack, within the example's $reserve"
    fi
  done
}

# check_qdq: the integer (QDQ) models, bit for bit against the host build
# and, under --rounding onnxruntime, against ONNX Runtime.
check_qdq() {
  local q=$ARM_WORK/qdq ort=yes oracle home name op variant nin odt d r gen ins outs i
  local tc t opt b rc how
  /usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null || {
    if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
      echo "not ok - python3-onnx and python3-numpy are installed for /usr/bin/python3 (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - QDQ MODELS NOT RUN ON CORTEX-M: no python3-onnx / python3-numpy for /usr/bin/python3"
    fi
    return; }
  rm -rf "$q" && mkdir -p "$q"
  if ! /usr/bin/python3 "$ARM_ROOT/tools/gen_qdq.py" "$q/cases" --seed 1 --count 1 \
       --only "$(echo $QDQ_ROWS | tr ' ' ',')" > "$q/gen.log" 2>&1; then
    echo "not ok - tools/gen_qdq.py writes the QDQ models: $(tail -n1 "$q/gen.log")"
    return
  fi
  oracle=$TINYAOT_SHARED/oracle/tflite-oracle
  home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
  if ! command -v node > /dev/null 2>&1 || ! "$oracle" --help > /dev/null 2>&1 ||
     ! (cd "$home" && node -e "require('onnxruntime-node')") > /dev/null 2>&1; then
    ort=""
    if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
      echo "not ok - node, the oracle and onnxruntime-node in $home are there (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - QDQ MODELS NOT COMPARED WITH ONNX RUNTIME: no node, oracle or onnxruntime-node in $home (the host comparison still runs)"
    fi
  fi
  while read -r name op variant nin odt; do
    [ -n "$name" ] || continue
    d=$q/cases/$name
    mkdir -p "$d/case"
    i=0 ins=""
    while [ $i -lt "$nin" ]; do
      cp "$d/in$i.bin" "$d/case/input$i.bin"
      ins="$ins -i $d/in$i.bin"
      i=$((i + 1))
    done
    if [ -n "$ort" ] && ! "$oracle" "$d/model.onnx" $ins -o "$d/ort0.bin" > "$d/ort.log" 2>&1; then
      echo "not ok - ONNX Runtime runs the QDQ model $name: $(tail -n1 "$d/ort.log")"
      continue
    fi
    for r in double onnxruntime; do
      gen=$d/gen-$r
      if ! "$TINYAOT" compile "$d/model.onnx" -o "$gen" --prefix net --rounding $r \
           > "$d/compile-$r.log" 2>&1; then
        echo "not ok - the QDQ model $name compiles with --rounding $r: $(head -n1 "$d/compile-$r.log")"
        continue
      fi
      if ! "$TINYAOT" run "$d/model.onnx" --rounding $r $ins -o "$d/host-$r.bin" \
           > "$d/host-$r.log" 2>&1; then
        echo "not ok - the QDQ model $name runs on the host with --rounding $r: $(tail -n1 "$d/host-$r.log")"
        continue
      fi
      if [ $r = onnxruntime ] && [ -n "$ort" ]; then
        if cmp -s "$d/ort0.bin" "$d/host-$r.bin"; then
          echo "ok - the QDQ model $name ($odt output) on the host with --rounding onnxruntime equals ONNX Runtime bit for bit"
        else
          echo "not ok - the QDQ model $name ($odt output) on the host with --rounding onnxruntime equals ONNX Runtime bit for bit: $(cmp "$d/ort0.bin" "$d/host-$r.bin" 2>&1 | head -n1)"
        fi
      fi
      outs=$(wc -c < "$d/host-$r.bin" | tr -d ' ')
      for tc in $ARM_TARGETS; do
        t=${tc%%:*} opt=${tc#*:}
        target_info "$t"
        b=$d/$t$opt-$r
        if ! arm_build "$gen" "$b" "$t" "$opt" "$(sizes_of "$d/case" input)" "$outs"; then
          echo "not ok - the QDQ model $name (--rounding $r) builds for $T_NAME $opt: $(grep -m1 -i error "$b/build.log")"
          continue
        fi
        arm_run "$b/runner.elf" "$t" "$d/case" "$b/out"
        rc=$?
        if [ $rc -ne 0 ]; then
          echo "not ok - the QDQ model $name (--rounding $r) runs on $T_NAME $opt in QEMU: exit $rc, $(tail -n1 "$b/out/run.log")"
          continue
        fi
        how="the host build's output"
        [ $r = onnxruntime ] && [ -n "$ort" ] && how="ONNX Runtime's and the host build's output"
        if ! cmp -s "$d/host-$r.bin" "$b/out/output0.bin"; then
          echo "not ok - the QDQ model $name (--rounding $r) on $T_NAME $opt equals the host build's output bit for bit: $(cmp "$d/host-$r.bin" "$b/out/output0.bin" 2>&1 | head -n1)"
        elif [ $r = onnxruntime ] && [ -n "$ort" ] && ! cmp -s "$d/ort0.bin" "$b/out/output0.bin"; then
          echo "not ok - the QDQ model $name (--rounding $r) on $T_NAME $opt equals ONNX Runtime's output bit for bit: $(cmp "$d/ort0.bin" "$b/out/output0.bin" 2>&1 | head -n1)"
        else
          echo "ok - the QDQ model $name ($odt output, --rounding $r) on $T_NAME $opt equals $how bit for bit ($(( $(log_value "$b/out/run.log" ticks) * T_TICK_NS )) instructions)"
        fi
      done
    done
  done < "$q/cases/cases.txt"
}

# check_tolerance: the relative comparison must be able to fail: one
# element of a golden output moved by 2e-4 of the output's largest
# magnitude is reported, 0.5e-4 is not.
check_tolerance() {
  local d=$ARM_WORK/tolerance msg
  mkdir -p "$d"
  # Four float32 values: 1, -2, 0.5, 0 (little-endian).
  printf '\000\000\200\077\000\000\000\300\000\000\000\077\000\000\000\000' > "$d/e.bin"
  # -2 + 4e-4 (relative error 2e-4), then -2 + 1e-4 (5e-5).
  printf '\000\000\200\077\345\362\377\277\000\000\000\077\000\000\000\000' > "$d/far.bin"
  printf '\000\000\200\077\271\374\377\277\000\000\000\077\000\000\000\000' > "$d/near.bin"
  if msg=$("$ARM_WORK/compare" --relative "$ARM_ONNX_TOL" "$d/e.bin" "$d/far.bin"); then
    echo "not ok - compare --relative reports a relative error of 2e-4 over $ARM_ONNX_TOL: it reported none ($msg)"
  else
    echo "ok - compare --relative reports a relative error of 2e-4 over $ARM_ONNX_TOL ($msg)"
  fi
  if msg=$("$ARM_WORK/compare" --relative "$ARM_ONNX_TOL" "$d/e.bin" "$d/near.bin"); then
    echo "ok - compare --relative accepts a relative error of 5e-5 ($msg)"
  else
    echo "not ok - compare --relative accepts a relative error of 5e-5: $msg"
  fi
}

case $1 in
  --model) shift; check_model "$1"; exit 0 ;;
  --qdq) check_qdq; exit 0 ;;
esac

need_arm_tools "the ONNX models on Cortex-M"
if [ ! -f "$TINYAOT_SHARED/models/SHA256SUMS" ] || [ ! -d "$TINYAOT_SHARED/goldens/onnx" ]; then
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the shared ONNX models and goldens are at $TINYAOT_SHARED (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: $TINYAOT_SHARED has no models/ or goldens/onnx; set TINYAOT_SHARED"
  fi
  exit 0
fi
if [ ! -x "$TINYAOT" ]; then
  echo "not ok - the compiler $TINYAOT is built"
  exit 0
fi
mkdir -p "$ARM_WORK/results"
build_compare || { echo "not ok - the comparison tool builds"; exit 1; }
check_tolerance
all=$(cd "$TINYAOT_SHARED/goldens/onnx" && for d in */; do
  [ -f "$d/manifest.json" ] && [ -f "../../models/onnx/${d%/}.onnx" ] && echo "${d%/}"; done)
if [ -n "${ARM_ONNX_MODELS:-}" ]; then
  models=$ARM_ONNX_MODELS
elif [ "${ARM_ONNX_ALL:-}" = 1 ]; then
  models=$all
else
  models=""
  for m in $ARM_ONNX_QUICK; do
    case " $(echo $all) " in *" $m "*) models="$models $m" ;; esac
  done
fi
{ echo "--qdq"; echo $models | tr ' ' '\n'; } |
  xargs -P "$ARM_JOBS" -I{} sh -c 'case $1 in
      --qdq) sh "$0" --qdq > "$ARM_WORK/results/qdq.txt" 2>&1 ;;
      *) sh "$0" --model "$1" > "$ARM_WORK/results/$1.txt" 2>&1 ;;
    esac' "$0" {}
for m in $models; do cat "$ARM_WORK/results/$m.txt"; done
cat "$ARM_WORK/results/qdq.txt"
exit 0
