#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_detection.sh - the custom op TFLite_Detection_PostProcess
# against TFLite.
#
# tools/gen_detection.c writes (seed $TINYAOT_DETECTION_SEED, default 1)
# $TINYAOT_DETECTION_COUNT random single-op cases (default 12, 4 in the
# sanitizer pass: float32 and uint8, fast and regular NMS, several score
# and IoU thresholds, equal scores; the first 4 cover each mode x type)
# and ssd_int8, an int8 SSD-style detector ending in the op.  TFLite
# (../shared/oracle, builtin kernels, one Node process through
# oracle_batch.mjs, outputs cached) and `tinyaot run --rounding single`
# run each; gen_detection --compare checks num_detections and every
# class and score equal, boxes within 1e-5 (absolute + relative), in the
# slots TFLite writes.  Then the models tinyaot must refuse (bad/): each
# gives exit 1 and a message naming the op.
build=${TINYAOT_BUILD:-build}
root=$(pwd)
case "$build" in /*) ;; *) build="$root/$build" ;; esac
tinyaot=${TINYAOT:-$build/tinyaot}
shared=${TINYAOT_SHARED:-$root/../shared}
oracle="$shared/oracle/tflite-oracle"
oracle_home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
cache=${TINYAOT_ORACLE_CACHE:-${build%/san}/oracle-cache}
count=${TINYAOT_DETECTION_COUNT:-12}
[ "${TINYAOT_PASS:-plain}" = san ] && count=${TINYAOT_DETECTION_COUNT:-4}
seed=${TINYAOT_DETECTION_SEED:-1}
work="$build/detection/$seed-$count"
cases="$work/cases"
rc=0
rm -rf "$work"
mkdir -p "$work" "$cache"

if ! "$build/tools/gen_detection" --seed "$seed" --count "$count" "$cases" > "$work/gen.log" 2>&1; then
  echo "not ok - gen_detection writes the cases: $(tail -1 "$work/gen.log")"
  exit 1
fi

# Models tinyaot refuses: exit 1, the op named, the reason.
while read -r name text; do
  out=$("$tinyaot" compile "$cases/bad/$name.tflite" -o "$work/bad-$name" 2>&1 < /dev/null)
  st=$?
  case "$out" in
    *"op 0 (CUSTOM:TFLite_Detection_PostProcess): "*"$text"*)
      if [ $st -eq 1 ]; then
        echo "ok - tinyaot refuses bad/$name: $out"
        continue
      fi ;;
  esac
  echo "not ok - tinyaot refuses bad/$name with exit 1 and \"$text\" (exit $st: $out)"
  rc=1
done < "$cases/bad/expect.txt"

# TFLite's outputs, for the cases not cached yet (keyed by model and inputs).
: > "$work/list"
while read -r name rest; do
  key=$(cat "$cases/$name/model.tflite" "$cases/$name"/in*.bin | cksum | tr ' ' '-')
  echo "det-$key" > "$cases/$name/key"
  [ -f "$cache/det-$key/status" ] && continue
  echo "$cases/$name/model.tflite $cache/det-$key $(ls "$cases/$name"/in*.bin | tr '\n' ' ')" >> "$work/list"
done < "$cases/manifest.txt"
if [ -s "$work/list" ]; then
  if [ ! -x "$oracle" ] || ! command -v node > /dev/null 2>&1; then
    if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
      echo "not ok - the TFLite oracle runs (no node or no $oracle; TINYAOT_REQUIRE_SHARED=1)"
      exit 1
    fi
    echo "skip - TFLITE ORACLE MISSING: $(wc -l < "$work/list") detection cases not run"
    exit $rc
  fi
  if ! "$oracle" --help > "$work/oracle-install.log" 2>&1 ||
     ! TFLITE_ORACLE_HOME=$oracle_home node "$root/tests/ops/oracle_batch.mjs" \
         --home "$oracle_home" --mode off "$work/list" > "$work/oracle.log" 2>&1; then
    echo "not ok - the TFLite oracle runs the detection cases: $(tail -1 "$work/oracle.log" 2> /dev/null)"
    exit 1
  fi
fi

n=0
equal=0
while read -r name fast maxdet maxcpd k; do
  n=$((n + 1))
  key=$(cat "$cases/$name/key")
  exp="$cache/$key"
  if [ "$(cat "$exp/status" 2> /dev/null)" != ok ]; then
    echo "not ok - TFLite runs $name: $(cat "$exp/status" 2> /dev/null)"
    rc=1
    continue
  fi
  act="$work/out/$name"
  mkdir -p "$act"
  args=""
  for f in "$cases/$name"/in*.bin; do args="$args -i $f"; done
  # shellcheck disable=SC2086
  if ! "$tinyaot" run "$cases/$name/model.tflite" --rounding single $args \
       -o "$act/out0.bin" -o "$act/out1.bin" -o "$act/out2.bin" -o "$act/out3.bin" \
       < /dev/null > "$act/log" 2>&1; then
    echo "not ok - tinyaot runs $name: $(grep -v '^$' "$act/log" | tail -1)"
    rc=1
    continue
  fi
  if msg=$("$build/tools/gen_detection" --compare "$fast" "$maxdet" "$maxcpd" "$k" 1e-5 \
             "$exp" "$act"); then
    echo "ok - tinyaot matches TFLite on $name ($([ "$fast" = 1 ] && echo fast || echo regular) NMS): $msg"
    equal=$((equal + 1))
  else
    echo "not ok - tinyaot matches TFLite on $name: $msg"
    rc=1
  fi
done < "$cases/manifest.txt"
echo "# TFLite_Detection_PostProcess (seed $seed): $n models, $equal equal to TFLite"
exit $rc
