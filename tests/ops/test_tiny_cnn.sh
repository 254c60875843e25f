#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_tiny_cnn.sh - examples/tiny_cnn is what its generator
# writes, TFLite gives its committed reference output, and (once every
# layer's op:dtype is in OPS_IN_TEST, mk/ops.mk) so does tinyaot.
build=${TINYAOT_BUILD:-build}
ex=examples/tiny_cnn
work="$build/tiny_cnn"
rc=0
rm -rf "$work"
mkdir -p "$work"

if ! "$build/tools/gen_tiny_cnn" "$work" > "$work/gen.log" 2>&1; then
  echo "not ok - gen_tiny_cnn writes the example: $(tail -1 "$work/gen.log")"
  exit 1
fi
for f in tiny_cnn.tflite input.bin; do
  if cmp -s "$work/$f" "$ex/$f"; then
    echo "ok - gen_tiny_cnn reproduces $ex/$f byte for byte"
  else
    echo "not ok - gen_tiny_cnn reproduces $ex/$f byte for byte: $(cmp "$work/$f" "$ex/$f" 2>&1 | head -1)"
    rc=1
  fi
done

# TFLite itself, once (plain pass only: the sanitizers do not touch Node).
if [ "${TINYAOT_PASS:-plain}" = plain ]; then
  shared=${TINYAOT_SHARED:-../shared}
  oracle="$shared/oracle/tflite-oracle"
  if [ -x "$oracle" ] && command -v node > /dev/null 2>&1; then
    if "$oracle" --xnnpack off "$ex/tiny_cnn.tflite" "$ex/input.bin" "$work/oracle.bin" \
         > "$work/oracle.log" 2>&1 &&
       "$build/tools/cmp_tensors" int8 0 0 "$ex/expected_output.bin" "$work/oracle.bin" \
         > "$work/cmp.log"; then
      echo "ok - TFLite gives $ex/expected_output.bin"
    else
      echo "not ok - TFLite gives $ex/expected_output.bin: $(tail -1 "$work/oracle.log" "$work/cmp.log" 2>/dev/null | grep -v '^$' | tail -1)"
      rc=1
    fi
  elif [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the TFLite oracle runs (no node or no $oracle; TINYAOT_REQUIRE_SHARED=1)"
    rc=1
  else
    echo "skip - TFLITE ORACLE MISSING: $ex/expected_output.bin not rechecked"
  fi
fi

# tinyaot, when it claims every layer.
if [ -z "${TINYAOT_OPS_IN_TEST+set}" ]; then
  TINYAOT_OPS_IN_TEST=$(make -s --no-print-directory print-ops-in-test)
fi
missing=""
for need in CONV_2D:int8 DEPTHWISE_CONV_2D:int8 AVERAGE_POOL_2D:int8 RESHAPE:int8 \
            FULLY_CONNECTED:int8 SOFTMAX:int8; do
  case " $TINYAOT_OPS_IN_TEST " in
    *" $need "*) ;;
    *) missing="$missing $need" ;;
  esac
done
if [ -n "$missing" ]; then
  echo "skip - tinyaot is not run on $ex: OPS_IN_TEST lacks$missing"
  exit $rc
fi
# TFLite rounds CONV_2D/FULLY_CONNECTED once and DEPTHWISE_CONV_2D twice;
# for this input both of tinyaot's roundings give TFLite's bytes.
for r in single double; do
  if "${TINYAOT:-$build/tinyaot}" run "$ex/tiny_cnn.tflite" --rounding $r -i "$ex/input.bin" \
       -o "$work/tinyaot-$r.bin" < /dev/null > "$work/run-$r.log" 2>&1 &&
     "$build/tools/cmp_tensors" int8 0 0 "$ex/expected_output.bin" "$work/tinyaot-$r.bin" \
       > "$work/cmp-$r.log"; then
    echo "ok - tinyaot run --rounding $r gives $ex/expected_output.bin"
  else
    echo "not ok - tinyaot run --rounding $r gives $ex/expected_output.bin: $(cat "$work/run-$r.log" "$work/cmp-$r.log" 2>/dev/null | grep -v '^$' | tail -1)"
    rc=1
  fi
done
exit $rc
