#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --optimize speed (doc/cortex-m.md, "Speed or size"): the int8 CONV_2D
# ops on the DSP path call ta_conv2d_fold_wide_dsp_s8 with their filters
# widened to int16 on the host, and a FULLY_CONNECTED after them the same
# entry; other FULLY_CONNECTED ops the FC kernel's wide entry
# (ta_fully_connected_fold_wide_dsp_s8); every golden case of
# kws_ref_model, resnet8_int8, vww_96_int8 and ad01_int8 then equals
# TensorFlow Lite Micro's bytes (built and run on the host; the Cortex-M
# runs are in tests/arm/test_arm.sh).  The
# default and `--optimize size` keep int8 filters, --fuse-add keeps the
# convolutions it may fuse on their int8 entries, and anything but speed
# or size is refused.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-optimize-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

calls() { # FILE KERNEL: how many calls of KERNEL the generated FILE makes
  grep -c "st = $2(" "$1" 2>/dev/null
}

# What the compiler emits: the wide entry for every convolution (and the
# FC), int16 filters, no int8 DSP entry left.
kws=$shared/models/kws_ref_model.tflite
"$TINYAOT" compile "$kws" -o "$tmp/speed" --prefix k --optimize speed > /dev/null 2>&1
"$TINYAOT" compile "$kws" -o "$tmp/size" --prefix k --optimize size > /dev/null 2>&1
"$TINYAOT" compile "$kws" -o "$tmp/default" --prefix k > /dev/null 2>&1
w=$(calls "$tmp/speed/k.c" ta_conv2d_fold_wide_dsp_s8)
n=$(calls "$tmp/speed/k.c" ta_conv2d_fold_dsp_s8)
f=$(grep -c '^extern const int16_t k_op[0-9]*_filter\[' "$tmp/speed/k_weights.c")
[ "$w" = 6 ] && [ "$n" = 0 ] && [ "$f" = 6 ] \
  && ok "kws_ref_model --optimize speed: its 5 CONV_2D and its FULLY_CONNECTED call the wide entry with int16 filters" \
  || notok "kws_ref_model --optimize speed: $w wide calls (expected 6), $n int8 DSP calls (0), $f int16 filters (6)"
for v in size default; do
  w=$(calls "$tmp/$v/k.c" ta_conv2d_fold_wide_dsp_s8)
  n=$(calls "$tmp/$v/k.c" ta_conv2d_fold_dsp_s8)
  [ "$w" = 0 ] && [ "$n" = 6 ] \
    && ok "kws_ref_model ($v): int8 filters on the DSP entry, no wide call" \
    || notok "kws_ref_model ($v): $w wide calls (expected 0), $n int8 DSP calls (6)"
done
# The same number of filter elements, int16 instead of int8.
a=$(sed -n 's/^extern const int16_t k_op0_filter\[\([0-9]*\)\];/\1/p' "$tmp/speed/k_weights.c")
b=$(sed -n 's/^extern const int8_t k_op0_filter\[\([0-9]*\)\];/\1/p' "$tmp/size/k_weights.c")
[ -n "$a" ] && [ "$a" = "$b" ] \
  && ok "op 0's filter: the same $a elements as int16 (twice the flash)" \
  || notok "op 0's filter: int16 elements '$a', int8 elements '$b'"

# ad01_int8's ten FULLY_CONNECTED ops (a multiple of 4 rows each) call
# the FC kernel's wide entry, with int16 filters.
ad=$shared/models/ad01_int8.tflite
"$TINYAOT" compile "$ad" -o "$tmp/ad" --prefix a --optimize speed > /dev/null 2>&1
w=$(calls "$tmp/ad/a.c" ta_fully_connected_fold_wide_dsp_s8)
n=$(calls "$tmp/ad/a.c" ta_fully_connected_fold_dsp_s8)
f=$(grep -c '^extern const int16_t a_op[0-9]*_filter\[' "$tmp/ad/a_weights.c")
[ "$w" = 10 ] && [ "$n" = 0 ] && [ "$f" = 10 ] \
  && ok "ad01_int8 --optimize speed: its 10 FULLY_CONNECTED call the FC kernel's wide entry with int16 filters" \
  || notok "ad01_int8 --optimize speed: $w wide FC calls (expected 10), $n int8 DSP calls (0), $f int16 filters (10)"

# Bit-exact on every golden case (one model in the sanitizer pass).
models="kws_ref_model resnet8_int8 vww_96_int8 ad01_int8"
[ "${TINYAOT_PASS:-plain}" = san ] && models="kws_ref_model"
for m in $models; do
  gold=$shared/goldens/$m
  io=""
  cases=""
  for c in "$gold"/*/; do
    c=$(basename "$c")
    [ -f "$gold/$c/input0.bin" ] || continue
    io="$io -i $gold/$c/input0.bin -o $tmp/$m.$c.bin"
    cases="$cases $c"
  done
  if ! "$TINYAOT" run "$shared/models/$m.tflite" --optimize speed $io > "$tmp/$m.log" 2>&1; then
    notok "$m --optimize speed compiles, builds and runs: $(head -n2 "$tmp/$m.log" | tr '\n' ' ')"
    continue
  fi
  bad=""
  n=0
  for c in $cases; do
    cmp -s "$gold/$c/output0.bin" "$tmp/$m.$c.bin" || bad="$bad $c"
    n=$((n + 1))
  done
  [ -z "$bad" ] && [ "$n" -gt 0 ] \
    && ok "$m --optimize speed: the outputs of $n cases equal TFLM's golden bytes" \
    || notok "$m --optimize speed: outputs differ in$bad ($n cases)"
done

# --fuse-add: the convolutions stay on int8 entries (the fused ones have
# no wide form); resnet8_int8 still fuses its three ADDs.
r8=$shared/models/resnet8_int8.tflite
"$TINYAOT" compile "$r8" -o "$tmp/r8" --prefix r --optimize speed --fuse-add > /dev/null 2>&1
w=$(calls "$tmp/r8/r.c" ta_conv2d_fold_wide_dsp_s8)
f=$(calls "$tmp/r8/r.c" ta_conv2d_fold_add_dsp_s8)
[ "$w" = 0 ] && [ "$f" = 3 ] \
  && ok "resnet8_int8 --optimize speed --fuse-add: 3 fused ADDs, no wide call" \
  || notok "resnet8_int8 --optimize speed --fuse-add: $f fused calls (expected 3), $w wide calls (0)"

if "$TINYAOT" compile "$kws" -o "$tmp/bad" --optimize fast > "$tmp/bad.log" 2>&1; then
  notok "--optimize fast is refused (it was accepted)"
elif [ $? = 2 ] && grep -qF -- "--optimize fast: expected speed or size" "$tmp/bad.log"; then
  ok "--optimize fast is refused as bad usage: expected speed or size"
else
  notok "--optimize fast is refused as bad usage (got: $(head -n1 "$tmp/bad.log"))"
fi

rm -rf "$tmp"
exit $fail
