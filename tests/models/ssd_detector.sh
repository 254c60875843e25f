#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/models/ssd_detector.sh - a real, trained SSD detector end to end
# against TFLite (make test-ssd; not in make test: see mk/ssd.mk).
#
# The model: MediaPipe's SSD MobileNetV2 trained on Open Images V4 (23
# classes, float16 weights behind DEQUANTIZE, Apache-2.0), as the npm
# package @mediapipe/objectron@0.4.1675468480 ships it inside its packed
# assets (doc/models.md).  The package is fetched with npm pack into
# $TINYAOT_SSD_CACHE (default ~/.cache/tinyaot-models) on first use, never
# into the project; the model's SHA-256 is checked.  No package (no npm,
# no registry): a loud skip, a failure under TINYAOT_REQUIRE_SHARED=1.
#
# tools/ssd_detector.c ends it as the TF Object Detection API's export
# does: LOGISTIC on the class logits and TFLite_Detection_PostProcess
# with the model's 1917 anchors, fast and regular NMS (det_fast,
# det_regular).  Inputs: the person and no_person pictures of the shared
# goldens (person_detect_int8), widened to 300 x 300 x 3, and two seeded
# scenes.  Checks:
#   - the whole detector, tinyaot against TFLite (float ops on XNNPACK:
#     the oracle's builtin float CONV_2D aborts): num_detections and
#     classes equal, scores and boxes within 1e-4 (+ 1e-4 relative);
#   - the post-processing alone (head_fast, head_regular) on the box
#     encodings and class scores TFLite computed for those inputs,
#     TFLite's builtin kernels: num_detections, classes and scores equal,
#     boxes within 1e-5 (gen_detection --compare).
build=${TINYAOT_BUILD:-build}
root=$(pwd)
case "$build" in /*) ;; *) build="$root/$build" ;; esac
tinyaot=${TINYAOT:-$build/tinyaot}
tool="$build/tools/ssd_detector"
shared=${TINYAOT_SHARED:-$root/../shared}
oracle="$shared/oracle/tflite-oracle"
cache=${TINYAOT_SSD_CACHE:-${HOME:-/tmp}/.cache/tinyaot-models}
pkg=@mediapipe/objectron@0.4.1675468480
tgz="$cache/mediapipe-objectron-0.4.1675468480.tgz"
sha=d0a5255bf8c4f5a0bc4240741a76c41d5e939f7655078f945f50ab53a9375da6
work="$build/ssd-detector"
rc=0

missing() {
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the real SSD detector runs: $1 (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SSD DETECTOR NOT RUN: $1"
  exit 77
}

rm -rf "$work"
mkdir -p "$work" "$cache"
if [ ! -s "$tgz" ]; then
  command -v npm > /dev/null 2>&1 || missing "no npm to fetch $pkg"
  (cd "$cache" && npm pack --silent "$pkg" > /dev/null 2> "$work/npm.log") ||
    missing "npm pack $pkg failed: $(tail -1 "$work/npm.log")"
fi
tar xzf "$tgz" -C "$work" package/objectron_solution_packed_assets.data \
  package/objectron_solution_packed_assets_loader.js || missing "cannot unpack $tgz"
# The packed assets' index names the model's first and last byte.
range=$(tr ',' '\n' < "$work/package/objectron_solution_packed_assets_loader.js" |
  grep -A2 'object_detection_ssd_mobilenetv2_oidv4_fp16.tflite' |
  sed -n 's/.*"\(start\|end\)": *\([0-9][0-9]*\).*/\2/p' | tr '\n' ' ')
set -- $range
[ $# -ge 2 ] || missing "the packed assets do not list the SSD model"
tail -c +$(($1 + 1)) "$work/package/objectron_solution_packed_assets.data" |
  head -c $(($2 - $1)) > "$work/ssd_oidv4.tflite"
if [ "$(sha256sum "$work/ssd_oidv4.tflite" | cut -d' ' -f1)" != "$sha" ]; then
  echo "not ok - the SSD model from $pkg has SHA-256 $sha"
  exit 1
fi
[ -x "$oracle" ] && command -v node > /dev/null 2>&1 || missing "no TFLite oracle ($oracle) or no node"

for mode in fast regular; do
  f=$([ $mode = fast ] && echo 1 || echo 0)
  "$tool" --model "$work/ssd_oidv4.tflite" $f "$work/det_$mode.tflite" &&
    "$tool" --head $f "$work/head_$mode.tflite" || { echo "not ok - ssd_detector writes the models"; exit 1; }
done
"$tool" --model "$work/ssd_oidv4.tflite" 2 "$work/backbone.tflite" ||
  { echo "not ok - ssd_detector writes the backbone"; exit 1; }

# Inputs.
inputs=""
goldens="$shared/goldens/person_detect_int8"
for pic in person no_person; do
  [ -f "$goldens/$pic/input0.bin" ] || continue
  "$tool" --image "$goldens/$pic/input0.bin" 96 96 "$work/$pic.bin" && inputs="$inputs $pic"
done
for s in 1 2; do
  "$tool" --scene $s "$work/scene$s.bin" && inputs="$inputs scene$s"
done

# TFLite: the whole detectors, and the backbone alone for the head models.
for name in $inputs; do
  in="$work/$name.bin"
  for mode in fast regular; do
    e="$work/exp/det_$mode/$name"
    mkdir -p "$e"
    "$oracle" --xnnpack float "$work/det_$mode.tflite" -i "$in" \
      -o "$e/out0.bin" -o "$e/out1.bin" -o "$e/out2.bin" -o "$e/out3.bin" > "$work/oracle.log" 2>&1 ||
      { echo "not ok - TFLite runs det_$mode on $name: $(tail -1 "$work/oracle.log")"; exit 1; }
  done
  b="$work/backbone/$name"
  mkdir -p "$b"
  "$oracle" --xnnpack float "$work/backbone.tflite" -i "$in" -o "$b/boxes.bin" -o "$b/scores.bin" \
    > "$work/oracle.log" 2>&1 ||
    { echo "not ok - TFLite runs the backbone on $name: $(tail -1 "$work/oracle.log")"; exit 1; }
  for mode in fast regular; do
    e="$work/exp/head_$mode/$name"
    mkdir -p "$e"
    "$oracle" --xnnpack off "$work/head_$mode.tflite" -i "$b/boxes.bin" -i "$b/scores.bin" \
      -o "$e/out0.bin" -o "$e/out1.bin" -o "$e/out2.bin" -o "$e/out3.bin" > "$work/oracle.log" 2>&1 ||
      { echo "not ok - TFLite runs head_$mode on $name: $(tail -1 "$work/oracle.log")"; exit 1; }
  done
done

# tinyaot: one process per model, one inference per input.
for model in det_fast det_regular head_fast head_regular; do
  args=""
  for name in $inputs; do
    a="$work/act/$model/$name"
    mkdir -p "$a"
    case $model in
      det_*) args="$args -i $work/$name.bin" ;;
      *) args="$args -i $work/backbone/$name/boxes.bin -i $work/backbone/$name/scores.bin" ;;
    esac
    args="$args -o $a/out0.bin -o $a/out1.bin -o $a/out2.bin -o $a/out3.bin"
  done
  start=$(date +%s)
  # shellcheck disable=SC2086
  if ! "$tinyaot" run "$work/$model.tflite" $args < /dev/null > "$work/$model.log" 2>&1; then
    echo "not ok - tinyaot runs $model: $(grep -v '^$' "$work/$model.log" | tail -1)"
    rc=1
    continue
  fi
  secs=$(($(date +%s) - start))
  fast=$(case $model in *fast) echo 1 ;; *) echo 0 ;; esac)
  for name in $inputs; do
    e="$work/exp/$model/$name"
    a="$work/act/$model/$name"
    case $model in
      det_*) msg=$("$tool" --compare $fast 1e-4 "$e" "$a") ;;
      *) msg=$("$build/tools/gen_detection" --compare $fast 10 1 1 1e-5 "$e" "$a") ;;
    esac
    if [ $? -eq 0 ]; then
      echo "ok - tinyaot matches TFLite on $model, input $name: $msg"
    else
      echo "not ok - tinyaot matches TFLite on $model, input $name: $msg"
      rc=1
    fi
  done
  echo "# $model: compiled, built and run on $(echo $inputs | wc -w) inputs in $secs s"
done

# RAM and flash of the whole detector (tinyaot report: flash measured
# with arm-none-eabi-size when the cross compiler is there).
if "$tinyaot" report "$work/det_fast.tflite" --json > "$work/report.json" 2> "$work/report.log"; then
  echo "# det_fast: $(grep -o '"flash": {[^}]*}' "$work/report.json" | sed 's/"note": "[^"]*", //')"
  echo "# det_fast: RAM $(grep -o '"workspace": [0-9]*, "persistent": [0-9]*, "io_outside": [0-9]*' \
    "$work/report.json")"
fi
exit $rc
