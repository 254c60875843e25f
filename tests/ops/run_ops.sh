#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/run_ops.sh - single-op differential tests: tinyaot against TFLite.
#
#   sh tests/ops/run_ops.sh [--build DIR] [--seed S] [--count N]
#                           [--only LIST] [--oracle-only] [--quiet]
#                           [--rounding single|double]
#
# 1. DIR/tools/gen_ops writes N random single-op models per op x dtype
#    (LIST: "OP:dtype ..." or "OP ..." selects rows; default all) with
#    their inputs, under DIR/ops/cases.
# 2. TFLite (the oracle, $TINYAOT_SHARED/oracle, run by oracle_batch.mjs
#    in one Node process per oracle mode: TFLite's builtin kernels, or
#    LiteRT for float CONV_2D) computes the expected outputs.
#    A case with an oracle.tflite (the same computation in ops that
#    TFLite's build implements, gen_ops.c) runs that model instead.
#    They are cached by a hash of model, inputs and mode in
#    $TINYAOT_ORACLE_CACHE (default: the top build folder's
#    oracle-cache/), so the sanitizer pass and later runs skip Node.
# 3. Unless --oracle-only: `$TINYAOT run MODEL --rounding single -i ...
#    -o ...` (TFLite's arithmetic; --rounding R overrides it), compared
#    with tools/cmp_tensors: integers
#    bit-exactly, floats within the case's tolerance (gen_ops.c states
#    them per op: 1e-4 absolute + 1e-4 relative for sums, 1e-5 for other
#    arithmetic, 1e-6 for DEQUANTIZE, exact for data movement).
#
# Cases run in $OPS_JOBS parallel jobs (default 2).  Prints "ok - ..." /
# "not ok - ..." per case (a model TFLite refuses is a generator bug and
# fails), then, as "#" lines, the cases run and equal per op x dtype.  --oracle-only --quiet prints one line for all accepted
# models instead of one per case.  Exit 0 when every check passes.
set -u
build=build
seed=1
count=1
only=""
oracle_only=0
quiet=0
rounding=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --seed) seed=$2; shift ;;
    --count) count=$2; shift ;;
    --only) only=$2; shift ;;
    --oracle-only) oracle_only=1 ;;
    --quiet) quiet=1 ;;
    --rounding) rounding=$2; shift ;;
    *) echo "usage: run_ops.sh [--build DIR] [--seed S] [--count N] [--only LIST] [--oracle-only] [--quiet] [--rounding R]" >&2
       exit 2 ;;
  esac
  shift
done

root=$(pwd)
case "$build" in /*) ;; *) build="$root/$build" ;; esac
shared=${TINYAOT_SHARED:-$root/../shared}
tinyaot=${TINYAOT:-$build/tinyaot}
oracle="$shared/oracle/tflite-oracle"
cache=${TINYAOT_ORACLE_CACHE:-${build%/san}/oracle-cache}
oracle_home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
here="$root/tests/ops"

# One folder per selection, so that the passes and targets do not clobber
# each other's cases.
tag=$(printf '%s %s %s %s %s' "$seed" "$count" "$only" "$oracle_only" "$rounding" | cksum | cut -d' ' -f1)
work="$build/ops/$tag"
cases="$work/cases"
rm -rf "$work"
mkdir -p "$work" "$cache"

if ! "$build/tools/gen_ops" --seed "$seed" --count "$count" ${only:+--only "$only"} "$cases" \
     2> "$work/gen.log"; then
  echo "not ok - gen_ops writes the cases: $(tail -1 "$work/gen.log")"
  exit 1
fi
manifest="$cases/manifest.txt"
if [ ! -s "$manifest" ]; then
  echo "not ok - gen_ops selects at least one case for \"$only\""
  exit 1
fi

# ---- 2. expected outputs from TFLite, for the cases not cached yet.
need=0
for mode in off float on litert; do
  : > "$work/list-$mode"
done
while read -r name op dt mode atol rtol nin nout key outs; do
  [ -f "$cache/$key/status" ] && continue
  ins=""
  i=0
  while [ $i -lt "$nin" ]; do ins="$ins $cases/$name/in$i.bin"; i=$((i + 1)); done
  model="$cases/$name/model.tflite"
  [ -f "$cases/$name/oracle.tflite" ] && model="$cases/$name/oracle.tflite"
  echo "$model $cache/$key$ins" >> "$work/list-$mode"
  need=$((need + 1))
done < "$manifest"

if [ "$need" -gt 0 ]; then
  if [ ! -x "$oracle" ] || ! command -v node > /dev/null 2>&1; then
    why="no TFLite oracle at $oracle"
    command -v node > /dev/null 2>&1 || why="node is not installed"
    if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
      echo "not ok - the TFLite oracle runs ($why; TINYAOT_REQUIRE_SHARED=1)"
      exit 1
    fi
    echo "skip - TFLITE ORACLE MISSING: $why; $need single-op cases not run"
    exit 0
  fi
  # tflite-oracle installs its npm packages into $oracle_home on first use.
  if ! "$oracle" --help > "$work/oracle-install.log" 2>&1; then
    echo "not ok - the TFLite oracle installs and starts: $(tail -1 "$work/oracle-install.log")"
    exit 1
  fi
  for mode in off float on litert; do
    [ -s "$work/list-$mode" ] || continue
    # A TFLite abort ends the process (exit 3) after marking the case; a
    # harder crash leaves the case's "pending" file.  Either way, start
    # again for the rest.
    tries=0
    while :; do
      TFLITE_ORACLE_HOME=$oracle_home node "$here/oracle_batch.mjs" --home "$oracle_home" \
        --mode "$mode" "$work/list-$mode" 2> "$work/oracle-$mode.log"
      rc=$?
      tries=$((tries + 1))
      [ $rc -eq 0 ] && break
      if [ $rc -ne 3 ]; then
        marked=0
        for p in $(cut -d' ' -f2 "$work/list-$mode"); do
          if [ -f "$p/pending" ] && [ ! -f "$p/status" ]; then
            echo "crashed: node exited with status $rc: $(tail -1 "$work/oracle-$mode.log")" > "$p/status"
            rm -f "$p/pending"
            marked=1
          fi
        done
        if [ $marked = 0 ]; then
          echo "not ok - the TFLite oracle runs the $mode cases: $(tail -1 "$work/oracle-$mode.log")"
          break
        fi
      fi
      [ $tries -lt 50 ] || break
    done
  done
fi

# ---- 3. tinyaot against the expected outputs.
# check_case LINE: one case; writes its report line to $work/res/NAME and
# "OP DTYPE VERDICT" to $work/res/NAME.v.
check_case() {
  name=$1 op=$2 dt=$3 atol=$5 rtol=$6 nin=$7 nout=$8 key=$9
  outs=${10}
  rep="$work/res/$name"
  status=$(cat "$cache/$key/status" 2> /dev/null || echo "missing")
  if [ "$status" != ok ]; then
    echo "not ok - TFLite runs the generated model $name: $status" > "$rep"
    echo "$op $dt oracle-fail" > "$rep.v"
    return
  fi
  if [ $oracle_only = 1 ]; then
    [ $quiet = 1 ] && : > "$rep" || echo "ok - TFLite runs the generated model $name" > "$rep"
    echo "$op $dt oracle-ok" > "$rep.v"
    return
  fi
  out="$work/out/$name"
  mkdir -p "$out"
  args=""
  i=0
  while [ $i -lt "$nin" ]; do args="$args -i $cases/$name/in$i.bin"; i=$((i + 1)); done
  i=0
  while [ $i -lt "$nout" ]; do args="$args -o $out/out$i.bin"; i=$((i + 1)); done
  # shellcheck disable=SC2086
  if ! "$tinyaot" run "$cases/$name/model.tflite" --rounding "${rounding:-single}" $args \
       < /dev/null > "$out/log" 2>&1; then
    echo "not ok - tinyaot runs $name: $(grep -v '^$' "$out/log" | tail -1)" > "$rep"
    echo "$op $dt run-fail" > "$rep.v"
    return
  fi
  i=0
  for dtype in $(echo "$outs" | tr ',' ' '); do
    if ! msg=$("$build/tools/cmp_tensors" "$dtype" "$atol" "$rtol" "$cache/$key/out$i.bin" \
                 "$out/out$i.bin" < /dev/null); then
      echo "not ok - tinyaot matches TFLite on $name: output $i ($dtype) $msg" > "$rep"
      echo "$op $dt differ" > "$rep.v"
      return
    fi
    i=$((i + 1))
  done
  echo "ok - tinyaot matches TFLite on $name" > "$rep"
  echo "$op $dt equal" > "$rep.v"
}

# $OPS_JOBS workers (default 2), worker j taking every j-th case.
jobs=${OPS_JOBS:-2}
mkdir -p "$work/res"
j=0
while [ $j -lt "$jobs" ]; do
  awk -v j=$j -v n="$jobs" '(NR - 1) % n == j' "$manifest" | while read -r line; do
    # shellcheck disable=SC2086
    check_case $line
  done &
  j=$((j + 1))
done
wait

fail=0
nok=0
: > "$work/results"
while read -r name rest; do
  if [ -f "$work/res/$name.v" ]; then
    cat "$work/res/$name"
    cat "$work/res/$name.v" >> "$work/results"
    case $(cat "$work/res/$name.v") in
      *" equal" | *" oracle-ok") nok=$((nok + 1)) ;;
      *) fail=$((fail + 1)) ;;
    esac
  else
    echo "not ok - $name is checked (the harness lost it)"
    fail=$((fail + 1))
  fi
done < "$manifest"

if [ $oracle_only = 1 ]; then
  if [ $quiet = 1 ] && [ $fail -eq 0 ]; then
    echo "ok - TFLite runs all $nok generated single-op models (seed $seed, $count per op x dtype)"
  fi
else
  echo "# op x dtype                              cases  equal"
  awk '{ k = $1 " " $2; run[k]++; if ($3 == "equal") eq[k]++ }
       END { for (k in run) printf "# %-40s %5d %6d\n", k, run[k], eq[k] + 0 }' \
    "$work/results" | sort
  awk '{ run++; if ($3 == "equal") eq++ }
       END { printf "# total %d cases, %d equal\n", run, eq + 0 }' "$work/results"
fi
[ $fail -eq 0 ]
