#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The command line with .onnx models: detected by content (a .onnx under
# another name is still read as ONNX), bad ONNX files and bad options end
# in one message naming the file (exit 1) or the usage text (exit 2), and
# --constant-input works for .tflite models too (simple_add_int8 with its
# second input bound to case0's bytes gives the golden output exactly).
shared=${TINYAOT_SHARED:-../shared}
onnx=$shared/models/onnx/ds_cnn_kws.onnx
if [ ! -f "$onnx" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared model $onnx exists (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: no $onnx; set TINYAOT_SHARED"
  fi
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$onnx" "$tmp/model.bin"
if "$TINYAOT" inspect "$tmp/model.bin" > "$tmp/out" 2> "$tmp/err" &&
   grep -q 'CONV_2D' "$tmp/out"; then
  echo "ok - an ONNX model named model.bin is recognised by its content and inspected"
else
  echo "not ok - an ONNX model named model.bin is recognised by its content: $(head -c 200 "$tmp/err")"
fi

# refused FILE WORDS ARGS...: exit 1, one line on stderr starting "FILE: " and holding WORDS.
refused() {
  file=$1 words=$2
  shift 2
  "$TINYAOT" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^$file: .*$words" "$tmp/err"; then
    echo "ok - 'tinyaot $1 ...' on $(basename "$file") is refused: $(cat "$tmp/err")"
  else
    echo "not ok - 'tinyaot $*' is refused with one message naming $file and '$words': exit $rc, stderr '$(head -c 300 "$tmp/err")'"
  fi
}

head -c 4000 "$onnx" > "$tmp/cut.onnx"
refused "$tmp/cut.onnx" "length beyond the end" plan "$tmp/cut.onnx"
refused "$onnx" "no input of that name\|nosuch" run "$onnx" --constant-input nosuch=/dev/null \
  -i /dev/null -o "$tmp/o.bin"

"$TINYAOT" plan "$onnx" --input-shape input=1x1x49x10 > /dev/null 2>&1 &&
  echo "ok - --input-shape with the model's own static shape is accepted" ||
  echo "not ok - --input-shape with the model's own static shape is accepted"
refused "$onnx" "dimension 2 is 49 in the model" plan "$onnx" --input-shape input=1x1x48x10

"$TINYAOT" plan "$onnx" --input-shape input=1xAx3 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q '^usage' "$tmp/err" &&
  echo "ok - a malformed --input-shape is bad usage (exit 2)" ||
  echo "not ok - a malformed --input-shape is bad usage (exit 2)"
"$TINYAOT" plan "$onnx" --layout nchwc > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && echo "ok - --layout nchwc is bad usage (exit 2)" ||
  echo "not ok - --layout nchwc is bad usage (exit 2)"

add=$shared/models/simple_add_int8.tflite
gold=$shared/goldens/simple_add_int8/case0
if "$TINYAOT" run "$add" --constant-input serving_default_input_2:0="$gold/input1.bin" \
     -i "$gold/input0.bin" -o "$tmp/add.bin" > "$tmp/err" 2>&1 &&
   cmp -s "$tmp/add.bin" "$gold/output0.bin"; then
  echo "ok - --constant-input binds simple_add_int8.tflite's second input: the golden bytes"
else
  echo "not ok - --constant-input binds simple_add_int8.tflite's second input: $(head -c 300 "$tmp/err")"
fi
