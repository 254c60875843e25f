#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/run.sh - RAM and instructions per inference on the host, against
# TensorFlow Lite Micro's anchors (make bench-run).
#
# For every model of the golden set that `tinyaot compile` accepts:
#   RAM      what the caller provides with the default layout (inputs and
#            outputs inside the workspace): <PREFIX>_WORKSPACE_SIZE (all
#            pools) + <PREFIX>_PERSISTENT_SIZE + the inputs and outputs
#            outside the workspace (<PREFIX>_IO_SIZE, 0 here), against TFLM's
#            arena_used (anchors.md: planned activations and scratch plus
#            its persistent tail; TFLM's I/O lives inside that arena);
#   instructions per inference: valgrind --tool=callgrind counting only
#            <prefix>_run() (--toggle-collect), one call on an all-zero-bytes
#            input, generated code and kernels built with -O2 - measured
#            the way anchors.md measured TFLM's Invoke().
#   RAM with --io-in-caller-buffers: the same when the inputs and outputs
#            are kept out of the plan, in buffers of the caller's own.
# Also: anchors.md's lower bound for TFLM's order (activations only).
#
# Environment: TINYAOT, TINYAOT_BUILD, TINYAOT_SHARED, CC, BENCH_MODELS.
# Writes $TINYAOT_BUILD/bench/run.md and prints it.
root=$(cd "$(dirname "$0")/.." && pwd)
TINYAOT_BUILD=${TINYAOT_BUILD:-$root/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$root/../shared}
BENCH_MODELS=${BENCH_MODELS:-"kws_ref_model ds_cnn_s_int8 vww_96_int8 person_detect_int8 resnet8_int8 ad01_int8 micro_speech_int8 hello_world_int8 simple_add_int8"}
anchors=$TINYAOT_SHARED/anchors.md
work=$TINYAOT_BUILD/bench/run
out=$TINYAOT_BUILD/bench/run.md
mkdir -p "$work"
command -v valgrind > /dev/null 2>&1 || { echo "bench-run: valgrind is not installed" >&2; exit 1; }

# anchor MODEL COLUMN: a number from anchors.md's first table (2 =
# arena_used, 4 = lower bound, 6 = instructions), commas removed.
anchor() {
  awk -F'|' -v m="$1" -v c="$2" '
    /^## / { section++ }
    section == 0 && $2 ~ "^ *" m " *$" { v = $(c + 1); gsub(/[ ,]/, "", v); print v; exit }' "$anchors"
}

macro() { # FILE NAME -> value of #define NAME
  awk -v n="$2" '$1 == "#define" && $2 == n { print $3; exit }' "$1"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta'; }

{
  echo "| model | our RAM (B) | = workspace + persistent + I/O | with --io-in-caller-buffers (B) | TFLM arena_used (B) | RAM ratio | TFLM-order lower bound (B) | our instructions | TFLM instructions | instr. ratio |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
} > "$out"

for m in $BENCH_MODELS; do
  model=$TINYAOT_SHARED/models/$m.tflite
  gold=$TINYAOT_SHARED/goldens/$m/case0
  d=$work/$m
  rm -rf "$d" && mkdir -p "$d/in"
  ins="" outs=""
  i=0
  while [ -f "$gold/input$i.bin" ]; do
    head -c "$(wc -c < "$gold/input$i.bin")" /dev/zero > "$d/in/input$i.bin"
    ins="$ins -i $d/in/input$i.bin"
    i=$((i + 1))
  done
  i=0
  while [ -f "$gold/output$i.bin" ]; do
    outs="$outs -o $d/in/output$i.bin"
    i=$((i + 1))
  done
  if ! "$TINYAOT" run "$model" $ins $outs --keep "$d/gen" --prefix "$m" \
       --cflags "" > "$d/run.log" 2>&1; then
    echo "| $m | not supported: $(head -n1 "$d/run.log" | cut -c1-80) | | | | | | | | |" >> "$out"
    continue
  fi
  h=$d/gen/$m.h
  U=$(echo "$m" | tr 'a-z' 'A-Z')
  ws=$(macro "$h" "${U}_WORKSPACE_SIZE")
  ps=$(macro "$h" "${U}_PERSISTENT_SIZE"); ps=${ps:-0}
  io=$(macro "$h" "${U}_IO_SIZE"); io=${io:-0}
  ram=$((ws + ps + io))
  "$TINYAOT" compile "$model" -o "$d/ioext" --prefix "$m" --io-in-caller-buffers > /dev/null 2>&1
  h2=$d/ioext/$m.h
  ws2=$(macro "$h2" "${U}_WORKSPACE_SIZE")
  io2=$(macro "$h2" "${U}_IO_SIZE"); io2=${io2:-0}
  ram2=$((ws2 + ps + io2))
  valgrind --tool=callgrind --toggle-collect="${m}_run" \
    --callgrind-out-file="$d/callgrind.out" "$d/gen/tinyaot_harness" \
    $(echo "$ins $outs" | sed 's/-[io] //g') > "$d/valgrind.log" 2>&1
  instr=$(awk '/^(summary|totals):/ { print $2; exit }' "$d/callgrind.out")
  tram=$(anchor "$m" 2); tlb=$(anchor "$m" 4); tins=$(anchor "$m" 6)
  echo "| $m | $(commas $ram) | $ws + $ps + $io | $(commas $ram2) | $(commas "$tram") | $(ratio $ram "$tram") | $(commas "$tlb") | $(commas "$instr") | $(commas "$tins") | $(ratio "$instr" "$tins") |" >> "$out"
done
cat "$out"
