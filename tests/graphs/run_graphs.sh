#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/graphs/run_graphs.sh - the miscompile hunter: random multi-op
# graphs (tools/gen_graphs.c) through tinyaot under many option
# combinations, against TFLite and against each other.
#
#   sh tests/graphs/run_graphs.sh [--build DIR] [--seed S] [--count N]
#        [--runs some|all] [--run-every K] [--seconds T] [--save DIR] [--quiet]
#        [--kind int8|int16|float|mixed|uint8]
#
# 1. DIR/tools/gen_graphs writes N graphs (seeds S .. S+N-1), of the
#    given kind only with --kind (default: each draws its own).
# 2. TFLite's builtin kernels (the oracle, `--xnnpack off`, run in one Node
#    process by tests/ops/oracle_batch.mjs; LiteRT for the pure float
#    graphs that have a float CONV_2D) compute the expected outputs,
#    cached by a hash of model, inputs and mode in $TINYAOT_ORACLE_CACHE
#    (default: the top build folder's oracle-cache/).  A model TFLite
#    refuses is a generator bug and fails.
# 3. Every graph is planned under every option combination of COMBOS
#    below (`tinyaot plan`: the plan checker runs on each plan, and a plan
#    it rejects ends the compiler with an internal error, which fails
#    here), then run (`tinyaot run`: generated C built by the host
#    compiler and run) under some of them:
#    - combinations s*: --rounding single, TFLite's builtin arithmetic:
#      compared with the oracle, integer outputs bit-exactly, float
#      outputs within the graph's stated tolerance (1e-3 absolute + 1e-3
#      relative: up to 40 float ops whose rounding order may differ);
#    - combinations d*: --rounding double (TFLM's arithmetic, the default),
#      for which no oracle runs here: each is compared bit-exactly, floats
#      included, with the first d* combination run on that graph (memory
#      options must not change a single byte).
#    --runs some (the default): graph i runs when i is a multiple of
#    --run-every K (default 1), under combination s<i/K mod 10>, and
#    every third of those also under d0 and one other d*; --runs all:
#    every graph under all 16.
# 4. --seconds T: batches of N graphs with new seeds until T seconds
#    have passed.  Every disagreement is minimised (keep fewer ops, leave
#    ops out, smaller inputs, while the same combination still disagrees)
#    and saved under --save DIR (default DIR/graph-findings) as
#    <graph>-<combo>/: model.tflite, inputs, graph.txt (the ops), why.txt
#    (the combination, the command and what differs).
#
# Prints one "ok - ..." / "not ok - ..." line per graph (--quiet: only the
# failures and one summary line), then "#" lines: graphs, plans, runs,
# disagreements, graphs per hour.  $GRAPHS_JOBS parallel jobs (default 2).
set -u
build=build
seed=1
count=20
runs=some
every=1
seconds=0
save=""
quiet=0
kind=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --seed) seed=$2; shift ;;
    --count) count=$2; shift ;;
    --runs) runs=$2; shift ;;
    --run-every) every=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --save) save=$2; shift ;;
    --quiet) quiet=1 ;;
    --kind) kind=$2; shift ;;
    *) echo "usage: run_graphs.sh [--build DIR] [--seed S] [--count N] [--runs some|all] [--run-every K] [--seconds T] [--save DIR] [--quiet] [--kind KIND]" >&2
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
batch="$root/tests/ops/oracle_batch.mjs"
gen="$build/tools/gen_graphs"
cmp="$build/tools/cmp_tensors"
[ -n "$save" ] || save="$build/graph-findings"
cflags="-O0 ${TINYAOT_CFLAGS:-}"
kindopt=${kind:+--kind $kind}

# The option combinations: ID, then tinyaot's options.
COMBOS='s0 --rounding single
s1 --rounding single --algo linear --schedule model
s2 --rounding single --algo greedy-size --no-views
s3 --rounding single --algo greedy-conflicts --no-inplace
s4 --rounding single --algo search --schedule memory --io-in-caller-buffers
s5 --rounding single --align 1 --io-in-caller-buffers --no-views
s6 --rounding single --pool fast:256 --pool slow --align 4
s7 --rounding single --no-views --no-inplace --algo linear --io-in-caller-buffers
s8 --rounding single --align 64 --schedule memory --algo greedy-conflicts
s9 --rounding single --pool a:1024 --pool b:2048 --pool c --no-inplace --schedule model
d0 --rounding double
d1 --rounding double --algo linear --no-views --no-inplace
d2 --rounding double --algo search --io-in-caller-buffers --schedule memory
d3 --rounding double --pool fast:512 --pool slow --align 8
d4 --rounding double --algo greedy-size --schedule model --align 1
d5 --rounding double --algo greedy-conflicts --io-in-caller-buffers --no-views'
ncombos=$(echo "$COMBOS" | wc -l)
combo_flags() { echo "$COMBOS" | awk -v id="$1" '$1 == id { $1 = ""; print substr($0, 2) }'; }

tag=$(printf '%s %s %s %s %s' "$seed" "$count" "$runs" "$seconds" "$kind" | cksum | cut -d' ' -f1)
work="$build/graphs/$tag"
rm -rf "$work"
mkdir -p "$work" "$cache"

if [ ! -x "$oracle" ] || ! command -v node > /dev/null 2>&1; then
  why="no TFLite oracle at $oracle"
  command -v node > /dev/null 2>&1 || why="node is not installed"
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the TFLite oracle runs ($why; TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - TFLITE ORACLE MISSING: $why; no random graph was run"
  exit 0
fi
if ! "$oracle" --help > "$work/oracle-install.log" 2>&1; then
  echo "not ok - the TFLite oracle installs and starts: $(tail -1 "$work/oracle-install.log")"
  exit 1
fi

# oracle MANIFEST CASES: expected outputs of the manifest's graphs not
# cached yet, one Node process per mode (restarted after a wasm abort).
oracle() {
  for mode in off litert; do
    awk -v m=$mode -v c="$2" -v k="$cache" '$2 == m {
          s = c "/" $1 "/model.tflite " k "/" $7
          for (i = 0; i < $5; i++) s = s " " c "/" $1 "/in" i ".bin"
          print s }' "$1" | while read -r model dir ins; do
      [ -f "$dir/status" ] || echo "$model $dir $ins"
    done > "$2/list-$mode"
    [ -s "$2/list-$mode" ] || continue
    tries=0
    while [ $tries -lt 20 ]; do
      TFLITE_ORACLE_HOME=$oracle_home node "$batch" --home "$oracle_home" --mode $mode \
        "$2/list-$mode" 2>> "$2/oracle.log" && break
      for p in $(cut -d' ' -f2 "$2/list-$mode"); do
        if [ -f "$p/pending" ] && [ ! -f "$p/status" ]; then
          echo "crashed: node died" > "$p/status"
          rm -f "$p/pending"
        fi
      done
      tries=$((tries + 1))
    done
  done
}

# check GRAPHDIR KEY ATOL RTOL NIN NOUT OUTS COMBO BASE: runs the graph
# under one combination; prints nothing and returns 0 when it agrees,
# else prints why.  BASE: the output folder of the d* baseline ("" for s*
# or when this is the baseline).
check() {
  dir=$1 key=$2 atol=$3 rtol=$4 nin=$5 nout=$6 outs=$7 combo=$8 base=$9
  out="$dir/out-$combo"
  rm -rf "$out"
  mkdir -p "$out"
  args=""
  i=0
  while [ $i -lt "$nin" ]; do args="$args -i $dir/in$i.bin"; i=$((i + 1)); done
  i=0
  while [ $i -lt "$nout" ]; do args="$args -o $out/out$i.bin"; i=$((i + 1)); done
  # shellcheck disable=SC2046,SC2086
  if ! "$tinyaot" run "$dir/model.tflite" $(combo_flags "$combo") --cflags "$cflags" $args \
       < /dev/null > "$out/log" 2>&1; then
    echo "tinyaot run fails: $(grep -v '^$' "$out/log" | tail -1)"
    return 1
  fi
  case $combo in
    s*) ref="$cache/$key"; a=$atol; r=$rtol ;;
    *) [ -n "$base" ] || return 0; ref="$base"; a=0; r=0 ;;
  esac
  i=0
  for dt in $(echo "$outs" | tr ',' ' '); do
    if ! msg=$("$cmp" "$dt" "$a" "$r" "$ref/out$i.bin" "$out/out$i.bin" < /dev/null); then
      case $combo in
        s*) echo "output $i ($dt) differs from TFLite: $msg" ;;
        *) echo "output $i ($dt) differs from $(basename "$base" | sed 's/^out-//'): $msg" ;;
      esac
      return 1
    fi
    i=$((i + 1))
  done
  return 0
}

# plan_all GRAPHDIR: every combination through `tinyaot plan`.
plan_all() {
  echo "$COMBOS" | while read -r id flags; do
    # shellcheck disable=SC2086
    if ! "$tinyaot" plan "$1/model.tflite" $flags < /dev/null > "$1/plan-$id.log" 2>&1; then
      echo "$id: tinyaot plan fails: $(grep -v '^$' "$1/plan-$id.log" | tail -1)"
      return 1
    fi
  done
}

# chosen INDEX: the combinations run on graph INDEX.
chosen() {
  if [ "$runs" = all ]; then
    echo "$COMBOS" | cut -d' ' -f1
    return
  fi
  [ $(($1 % every)) -eq 0 ] || return 0
  k=$(($1 / every))
  echo "s$((k % 10))"
  [ $((k % 3)) -eq 0 ] && echo "d0 d$((1 + k / 3 % 5))"
  return 0
}

# one_graph CASES LINE INDEX: plans and runs one graph; prints its report
# line; writes "COMBO why" lines for each disagreement to CASES/NAME.fail.
one_graph() {
  cases=$1 index=$3
  set -- $2
  name=$1 key=$7 atol=$3 rtol=$4 nin=$5 nout=$6 outs=$8 nops=$9
  dir="$cases/$name"
  : > "$dir.fail"
  nplans=0 nruns=0
  status=$(cat "$cache/$key/status" 2> /dev/null || echo missing)
  if [ "$status" != ok ]; then
    echo "generator TFLite $status" >> "$dir.fail"
    echo "not ok - TFLite runs the random graph $name ($nops ops): $status"
    return
  fi
  if ! why=$(plan_all "$dir"); then
    echo "${why%%:*} ${why#*: }" >> "$dir.fail"
  fi
  nplans=$ncombos
  base=""
  for c in $(chosen "$index"); do
    nruns=$((nruns + 1))
    if ! why=$(check "$dir" "$key" "$atol" "$rtol" "$nin" "$nout" "$outs" "$c" "$base"); then
      echo "$c $why" >> "$dir.fail"
    fi
    case $c in d*) [ -n "$base" ] || base="$dir/out-$c" ;; esac
  done
  echo "$nplans $nruns" > "$dir.count"
  if [ -s "$dir.fail" ]; then
    echo "not ok - tinyaot agrees on the random graph $name ($nops ops) under every option combination: $(head -1 "$dir.fail")"
  else
    echo "ok - tinyaot agrees on the random graph $name ($nops ops) under $nplans plans and $nruns runs"
  fi
}

# still_fails SEED OPS SKIP MAXDIM COMBO DIR: does the graph drawn with
# these parameters still disagree under COMBO?  (d*: against d0, which
# the combination must then differ from.)
still_fails() {
  s=$1 o=$2 k=$3 m=$4 c=$5 d=$6
  rm -rf "$d"
  mkdir -p "$d"
  # shellcheck disable=SC2086
  "$gen" --seed "$s" --ops "$o" --skip "$k" --max-dim "$m" $kindopt --name g "$d" 2> /dev/null ||
    return 1
  oracle "$d/manifest.txt" "$d" > /dev/null 2>&1
  set -- $(cat "$d/manifest.txt")
  [ "$(cat "$cache/$7/status" 2> /dev/null)" = ok ] || return 1
  if ! tinyaot_plan_ok "$d/g" "$c"; then return 0; fi
  base=""
  case $c in
    d0) ;;
    d*) check "$d/g" "$7" "$3" "$4" "$5" "$6" "$8" d0 "" > /dev/null || return 1
        base="$d/g/out-d0" ;;
  esac
  ! check "$d/g" "$7" "$3" "$4" "$5" "$6" "$8" "$c" "$base" > "$d/why" 2>&1
}

tinyaot_plan_ok() {
  # shellcheck disable=SC2046
  "$tinyaot" plan "$1/model.tflite" $(combo_flags "$2") < /dev/null > /dev/null 2>&1
}

# minimise NAME SEED NOPS COMBO: shrinks a disagreement and saves it.
minimise() {
  s=$2 n=$3 c=$4
  t="$work/min"
  skip="" maxdim=8
  still_fails "$s" "$n" "" 8 "$c" "$t" || { echo "# $1 under $c does not disagree again"; return; }
  # Fewer ops: halve while it still disagrees, then one less at a time.
  while [ "$n" -gt 1 ] && still_fails "$s" $((n / 2)) "" 8 "$c" "$t"; do n=$((n / 2)); done
  while [ "$n" -gt 1 ] && still_fails "$s" $((n - 1)) "" 8 "$c" "$t"; do n=$((n - 1)); done
  # Leave single ops out (op 0 stays).
  i=$((n - 1))
  while [ $i -ge 1 ]; do
    try=${skip:+$skip,}$i
    still_fails "$s" "$n" "$try" 8 "$c" "$t" && skip=$try
    i=$((i - 1))
  done
  # Smaller inputs.
  for m in 1 2 4; do
    if still_fails "$s" "$n" "$skip" $m "$c" "$t"; then maxdim=$m; break; fi
  done
  still_fails "$s" "$n" "$skip" "$maxdim" "$c" "$t"
  dest="$save/$1-$c"
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$t/g/model.tflite" "$t/g/graph.txt" "$t"/g/in*.bin "$dest/"
  {
    echo "combination $c: $(combo_flags "$c")"
    echo "regenerate: gen_graphs --seed $s --ops $n${skip:+ --skip $skip} --max-dim $maxdim${kind:+ --kind $kind}"
    echo "run: tinyaot run model.tflite $(combo_flags "$c") -i in0.bin ... -o ..."
    cat "$t/why"
  } > "$dest/why.txt"
  echo "# saved $dest: $(tail -1 "$dest/why.txt")"
}

# ---- batches
start=$(date +%s)
total=0 fails=0 plans=0 nrun=0 batchno=0
next_seed=$seed
jobs=${GRAPHS_JOBS:-2}
while :; do
  cases="$work/b$batchno"
  rm -rf "$cases"
  # shellcheck disable=SC2086
  if ! "$gen" --seed "$next_seed" --count "$count" $kindopt "$cases" 2> "$work/gen.log"; then
    echo "not ok - gen_graphs writes the graphs: $(tail -1 "$work/gen.log")"
    exit 1
  fi
  oracle "$cases/manifest.txt" "$cases"
  j=0
  while [ $j -lt "$jobs" ]; do
    awk -v j=$j -v n="$jobs" '(NR - 1) % n == j { print NR - 1 " " $0 }' "$cases/manifest.txt" |
      while read -r idx line; do
        one_graph "$cases" "$line" "$((next_seed - seed + idx))" > "$cases/$(echo "$line" | cut -d' ' -f1).rep"
      done &
    j=$((j + 1))
  done
  wait
  while read -r name rest; do
    rep="$cases/$name.rep"
    if [ $quiet = 1 ]; then grep '^not ok' "$rep"; else cat "$rep"; fi
    total=$((total + 1))
    if [ -f "$cases/$name.count" ]; then
      set -- $(cat "$cases/$name.count")
      plans=$((plans + $1)) nrun=$((nrun + $2))
    fi
    if grep -q '^not ok' "$rep"; then
      fails=$((fails + 1))
      if [ "$seconds" -gt 0 ]; then
        gseed=${name#graph.}
        nops=$(echo "$rest" | awk '{ print $8 }')
        while read -r c why; do
          case $c in s*|d*) minimise "$name" "$gseed" 40 "$c" ;; esac
          break
        done < "$cases/$name.fail"
      fi
    fi
  done < "$cases/manifest.txt"
  next_seed=$((next_seed + count))
  batchno=$((batchno + 1))
  now=$(date +%s)
  [ "$seconds" -gt 0 ] && [ $((now - start)) -lt "$seconds" ] || break
  rm -rf "$cases"
done
el=$(( $(date +%s) - start ))
[ $el -gt 0 ] || el=1
[ $quiet = 1 ] && [ $fails = 0 ] && echo "ok - tinyaot agrees on $total random graphs (seeds $seed..$((next_seed - 1)))"
echo "# $total graphs, $plans plans, $nrun runs ($ncombos combinations planned per graph), $fails disagreeing graphs, ${el} s, $((total * 3600 / el)) graphs per hour"
[ $fails -eq 0 ]
