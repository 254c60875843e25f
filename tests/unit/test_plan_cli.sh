#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tinyaot plan on the command line: JSON and SVG are deterministic, pools
# and their limits, the error for pools too small, bad options.
shared=${TINYAOT_SHARED:-../shared}
model=$shared/models/vww_96_int8.tflite
if [ ! -f "$model" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
  fi
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}

"$TINYAOT" plan "$model" --json --svg "$tmp/a.svg" > "$tmp/a.json" 2> "$tmp/err"
rc=$?
check $rc "tinyaot plan --json --svg succeeds on vww_96_int8" "exit $rc: $(head -c 300 "$tmp/err")"
"$TINYAOT" plan "$model" --json --svg "$tmp/b.svg" > "$tmp/b.json" 2>/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json"
check $? "the JSON plan is byte-identical from run to run" "$(diff "$tmp/a.json" "$tmp/b.json" | head -3)"
cmp -s "$tmp/a.svg" "$tmp/b.svg"
check $? "the SVG picture is byte-identical from run to run" "differs"
for key in lower_bound_bytes whole_tensor_bound_bytes overlap_bound_bytes overlap_ops \
           workspace_bytes pools algorithms buffers persistent_bytes; do
  grep -q "\"$key\":" "$tmp/a.json"
  check $? "the JSON plan has \"$key\"" "missing in $(head -c 200 "$tmp/a.json")"
done
# At its peak vww_96_int8 holds 55,296 bytes of whole tensors (TFLite
# Micro's lower bound in anchors.md) plus whatever scratch op 2's
# convolution asks for (a few bytes: one window's input channels): its
# whole-tensor bound.  With outputs over their dying inputs (the 1x1
# convolution widening 8 to 16 channels, doc/memory-plan.md 2c; the 3x3
# depthwise ones in place over their rows) the plan needs the 1x1's
# 36,864-byte output or a depthwise input of that size beside the
# depthwise ring of rows (1,296-1,440 bytes), within 256 bytes of its
# bound with overlaps; --no-overlap gives the whole-tensor plan.
ws=$(sed -n 's/^  "workspace_bytes": \([0-9]*\),$/\1/p' "$tmp/a.json")
lb=$(sed -n 's/^  "lower_bound_bytes": \([0-9]*\),$/\1/p' "$tmp/a.json")
wb=$(sed -n 's/^  "whole_tensor_bound_bytes": \([0-9]*\),$/\1/p' "$tmp/a.json")
ob=$(sed -n 's/^  "overlap_bound_bytes": \([0-9]*\),$/\1/p' "$tmp/a.json")
[ -n "$wb" ] && [ "$wb" = "$lb" ] && [ "$wb" -ge 55296 ] && [ "$wb" -le 55552 ]
check $? "vww_96_int8's whole-tensor bound: 55,296 bytes of activations and a little kernel scratch" "whole $wb, lower bound $lb"
[ -n "$ws" ] && [ "$ws" -ge "$ob" ] && [ "$ws" -le $((ob + 256)) ] && [ "$ob" -ge 36864 ] && [ "$ob" -le 38400 ]
check $? "vww_96_int8 plans below it, within 256 bytes of its bound with overlaps: 36,864 bytes and a depthwise ring" "workspace $ws, bound with overlaps $ob"
"$TINYAOT" plan "$model" --json --no-overlap > "$tmp/n.json" 2> "$tmp/err"
ws2=$(sed -n 's/^  "workspace_bytes": \([0-9]*\),$/\1/p' "$tmp/n.json")
[ -n "$ws2" ] && [ "$ws2" = "$lb" ] && grep -q '"overlap_ops": 0,' "$tmp/n.json"
check $? "--no-overlap plans every tensor apart from its op's inputs: the whole-tensor bound" "workspace $ws2, bound $lb"
head -c 4 "$tmp/a.svg" | grep -q '<svg' && grep -q "peak $ws" "$tmp/a.svg" && grep -q "bound $lb" "$tmp/a.svg"
check $? "the SVG draws the buffers with the peak and the lower bound marked" "$(head -c 200 "$tmp/a.svg")"

"$TINYAOT" plan "$model" --pool sram:40k --pool ext:1M --algo greedy-size --json > "$tmp/c.json" 2> "$tmp/err"
rc=$?
check $rc "two pools with limits are accepted" "exit $rc: $(cat "$tmp/err")"
grep -q '"name": "sram", "size": [0-9]*, "limit": 40960' "$tmp/c.json" && grep -q '"name": "ext"' "$tmp/c.json" && grep -q '"algo": "greedy-size"' "$tmp/c.json"
check $? "the JSON plan lists both pools, their limits and the chosen algorithm" "$(grep -A3 '"pools"' "$tmp/c.json")"

"$TINYAOT" plan "$model" --pool sram:30000 > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "bytes missing" "$tmp/err" && grep -q "largest live set, $lb bytes, is at step" "$tmp/err"
check $? "a pool too small is refused naming the bytes missing and the largest live set" "exit $rc: $(cat "$tmp/err")"

"$TINYAOT" plan "$model" --align 24 > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ]
check $? "an alignment that is not a power of two is a usage error" "exit $rc"
"$TINYAOT" plan "$model" --algo fastest > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ]
check $? "an unknown algorithm is a usage error" "exit $rc"

"$TINYAOT" plan "$model" --io-in-workspace --align 64 --json > "$tmp/d.json" 2>/dev/null
grep -q '"io_in_workspace": true' "$tmp/d.json" && grep -q '"align": 64' "$tmp/d.json" && ! grep -q '"external": true' "$tmp/d.json"
check $? "--io-in-workspace --align 64 plans inputs and outputs inside, 64-byte aligned" "$(head -c 300 "$tmp/d.json")"

"$TINYAOT" plan "$model" > "$tmp/t.txt" 2>&1
grep -q "^search " "$tmp/t.txt" && grep -q "lower bound: $lb" "$tmp/t.txt" && grep -q " id .*bytes.*pool.*offset.*first.*last" "$tmp/t.txt"
check $? "the table lists each algorithm, the lower bound and the buffers" "$(head -5 "$tmp/t.txt")"
# tinyaot plan shows exactly the plan tinyaot compile emits: the same JSON
# (but the model's name: a path there, the file name in the folder) and
# <PREFIX>_WORKSPACE_SIZE equal to its workspace_bytes, kernel scratch
# included, for several models and options.
for spec in "vww_96_int8" "resnet8_int8" "simple_add_int8" "micro_speech_int8" \
            "ds_cnn_s_int8 --io-in-workspace --align 64" "resnet8_int8 --schedule model --no-inplace"; do
  set -- $spec
  name=$1; shift
  m=$shared/models/$name.tflite
  [ -f "$m" ] || { echo "skip - no $m"; continue; }
  rm -rf "$tmp/out"
  "$TINYAOT" plan "$m" --json "$@" > "$tmp/p.json" 2> "$tmp/err" &&
    "$TINYAOT" compile "$m" -o "$tmp/out" "$@" 2>> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    check 1 "$name $*: plan and compile succeed" "exit $rc: $(head -c 300 "$tmp/err")"
    continue
  fi
  grep -v '^  "model": ' "$tmp/p.json" > "$tmp/p1.json"
  grep -v '^  "model": ' "$tmp/out/${name}_plan.json" > "$tmp/p2.json"
  cmp -s "$tmp/p1.json" "$tmp/p2.json"
  check $? "$name $*: tinyaot plan --json equals the compiled ${name}_plan.json" \
    "$(diff "$tmp/p1.json" "$tmp/p2.json" | head -4 | tr '\n' ' ')"
  ws=$(sed -n 's/^  "workspace_bytes": \([0-9]*\),$/\1/p' "$tmp/p.json")
  macro=$(echo "$name" | tr a-z A-Z)_WORKSPACE_SIZE
  grep -q "^#define $macro $ws\$" "$tmp/out/$name.h"
  check $? "$name $*: $macro is the planned workspace ($ws bytes)" \
    "$(grep "$macro" "$tmp/out/$name.h")"
done
grep -q '"scratch_op": [0-9]' "$tmp/p.json" 2>/dev/null || grep -q '"scratch_op": [0-9]' "$tmp/a.json"
check $? "the plan holds the kernels' scratch buffers" "no scratch_op >= 0 in $(head -c 200 "$tmp/a.json")"

# Debug dumps: -dI (the IR as read), -dL (a kernel per op, its scratch, in
# place), -dP (the plan table), to stderr; stdout stays the plan alone.
"$TINYAOT" plan "$model" --json -dILP > "$tmp/d.out" 2> "$tmp/d.err"
rc=$?
cmp -s "$tmp/d.out" "$tmp/a.json"
check $? "-dILP leaves stdout alone" "exit $rc; $(diff "$tmp/d.out" "$tmp/a.json" | head -3)"
grep -q "CONV_2D" "$tmp/d.err" && grep -q "ta_conv2d_fold_dsp_s8" "$tmp/d.err" &&
  grep -q "scratch B" "$tmp/d.err" && grep -q "^lower bound: $lb" "$tmp/d.err" &&
  grep -q "SOFTMAX *ta_softmax_s8 .*input 0" "$tmp/d.err"
check $? "-dILP prints the IR, the lowering (kernel, scratch, in place) and the plan to stderr" \
  "$(head -c 400 "$tmp/d.err")"
"$TINYAOT" compile "$model" -o "$tmp/out2" -dL 2> "$tmp/c.err" > /dev/null
grep -q "ta_depthwise_conv2d_fold_3x3_dsp_s8" "$tmp/c.err"
check $? "compile -dL prints the lowering" "$(head -c 200 "$tmp/c.err")"
"$TINYAOT" plan "$model" -dX > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ]
check $? "an unknown dump letter is a usage error" "exit $rc"
TINYAOT_VERIFY=1 "$TINYAOT" plan "$model" --json > "$tmp/v.json" 2> "$tmp/err"
rc=$?
cmp -s "$tmp/v.json" "$tmp/a.json"
check $? "TINYAOT_VERIFY=1 verifies after every pass and plans the same" "exit $rc: $(head -c 200 "$tmp/err")"
# The memory order runs the ops in another order than the model's (on
# these models it finds orders of the same peak); the outputs stay
# TensorFlow Lite Micro's bytes (goldens/, case0).
for name in resnet8_int8 rnnoise_int8 mcunet_detection_fpn_int8_floatio; do
  m=$shared/models/$name.tflite
  gold=$shared/goldens/$name/case0
  [ -f "$m" ] && [ -d "$gold" ] || { echo "skip - no $m or $gold"; continue; }
  set --
  for f in "$gold"/input*.bin; do set -- "$@" -i "$f"; done
  n=0
  for f in "$gold"/output*.bin; do set -- "$@" -o "$tmp/out$n.bin"; n=$((n + 1)); done
  "$TINYAOT" plan "$m" --schedule memory --json > "$tmp/s.json" 2> "$tmp/err"
  moved=$(sed -n 's/^  "schedule": \[\(.*\)\],$/\1/p' "$tmp/s.json" |
    awk -F', ' '{ for (i = 1; i <= NF; i++) if ($i != i - 1) n++; print n + 0 }')
  "$TINYAOT" run "$m" --schedule memory "$@" 2>> "$tmp/err"
  rc=$?
  diff=""
  k=0
  while [ $k -lt $n ]; do
    cmp -s "$tmp/out$k.bin" "$gold/output$k.bin" || diff="$diff output$k"
    k=$((k + 1))
  done
  [ $rc -eq 0 ] && [ -z "$diff" ] && [ "${moved:-0}" -gt 0 ]
  check $? "$name in the memory order ($moved ops moved) gives TFLite Micro's outputs bit for bit" \
    "exit $rc, differing:$diff; $(head -c 200 "$tmp/err")"
done
exit 0
