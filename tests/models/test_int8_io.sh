#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --int8-io on a float-I/O model: mcunet_vww_80_int8_floatio (float32
# input -> QUANTIZE -> int8 network -> DEQUANTIZE -> float32 output).
#
# Compiled with --int8-io, its interface takes and gives int8 (the header
# says so), the two boundary ops are gone, and a program (below) that
# converts with the header's helpers - vww_quantize_input0() on TFLM's
# float input, vww_dequantize_output0() on the int8 output - reproduces
# the model's own ops bit for bit:
#  - the quantized input equals TFLM's QUANTIZE output (case0's dumped
#    tensor), and the int8 output TFLM's FULLY_CONNECTED output (the
#    tensor the dropped DEQUANTIZE read);
#  - the dequantized output equals, byte for byte, the float-I/O path:
#    `tinyaot run` of the unchanged model and TFLM's golden, every case.
# A model whose I/O is already integer is refused with a clear message.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-int8io-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
CC=${CC:-cc}
name=mcunet_vww_80_int8_floatio
model=$shared/models/$name.tflite
g=$shared/goldens/$name

# The tensors around the boundary ops, as the model names them.
"$TINYAOT" inspect "$model" > "$tmp/inspect.txt"
qout=$(awk '$2 == "QUANTIZE" && $1 == 0 { sub(/:.*/, "", $5); sub(/^t/, "", $5); print $5 }' "$tmp/inspect.txt")
dqin=$(awk '$2 == "DEQUANTIZE" { sub(/:.*/, "", $3); sub(/^t/, "", $3); print $3 }' "$tmp/inspect.txt" | tail -n1)

if [ -z "$qout" ] || [ -z "$dqin" ]; then
  notok "inspect names the boundary tensors (QUANTIZE output '$qout', DEQUANTIZE input '$dqin')"
fi
if "$TINYAOT" compile "$model" -o "$tmp/vww" --prefix vww --int8-io > "$tmp/log" 2>&1; then
  ok "$name compiles with --int8-io"
else
  notok "$name compiles with --int8-io: $(head -n2 "$tmp/log")"
  exit 1
fi
if grep -q '^#define VWW_INPUT0_DTYPE "int8"' "$tmp/vww/vww.h" &&
   grep -q '^#define VWW_OUTPUT0_DTYPE "int8"' "$tmp/vww/vww.h" &&
   ! grep -qE 'op [0-9]+: (QUANTIZE|DEQUANTIZE) ' "$tmp/vww/vww.c"; then
  ok "with --int8-io the interface is int8 in and out and the runner has no QUANTIZE or DEQUANTIZE"
else
  notok "with --int8-io the interface is int8 in and out and the runner has no QUANTIZE or DEQUANTIZE"
fi

cat > "$tmp/main.c" <<'C'
/* float input -> vww_quantize_input0 -> vww_run -> vww_dequantize_output0. */
#include <stdio.h>
#include <stdlib.h>

#include "vww.h"

int main(int argc, char **argv) {
  static float fin[VWW_INPUT0_SIZE], fout[VWW_OUTPUT0_SIZE];
  static int8_t qin[VWW_INPUT0_SIZE], qout[VWW_OUTPUT0_SIZE];
  void *ws = malloc(VWW_WORKSPACE_SIZE);
  struct vww_inputs in;
  struct vww_outputs out;
  FILE *f;
  size_t i;
  if (argc != 5 || !ws || !(f = fopen(argv[1], "rb")) ||
      fread(fin, 4, VWW_INPUT0_SIZE, f) != VWW_INPUT0_SIZE)
    return 2;
  fclose(f);
  for (i = 0; i < VWW_INPUT0_SIZE; i++)
    qin[i] = vww_quantize_input0(fin[i]);
  in.input_1 = qin;
  *(void **)&out = qout;
  if (vww_run(&in, &out, ws) != 0)
    return 1;
  for (i = 0; i < VWW_OUTPUT0_SIZE; i++)
    fout[i] = vww_dequantize_output0(qout[i]);
  if (!(f = fopen(argv[2], "wb")) || fwrite(qin, 1, sizeof qin, f) != sizeof qin || fclose(f) ||
      !(f = fopen(argv[3], "wb")) || fwrite(qout, 1, sizeof qout, f) != sizeof qout || fclose(f) ||
      !(f = fopen(argv[4], "wb")) || fwrite(fout, 4, VWW_OUTPUT0_SIZE, f) != VWW_OUTPUT0_SIZE ||
      fclose(f))
    return 2;
  free(ws);
  return 0;
}
C
member=$(sed -n 's/^  const int8_t \*\([a-z0-9_]*\);.*/\1/p' "$tmp/vww/vww.h" | head -n1)
sed -i "s/in\.input_1 = qin/in.$member = qin/" "$tmp/main.c"
# shellcheck disable=SC2086
if $CC -std=c99 -O1 -Wall -Wextra -Werror -pedantic $TINYAOT_CFLAGS -I"$tmp/vww" \
     -I"$tmp/vww/runtime/include" -o "$tmp/app" "$tmp/main.c" \
     $(cd "$tmp/vww" && find . -name '*.c' | sed "s#^\.#$tmp/vww#") -lm > "$tmp/cc.log" 2>&1; then
  ok "a program using vww_quantize_input0 and vww_dequantize_output0 builds (-std=c99 -pedantic -Werror)"
else
  notok "the program builds: $(grep -m3 error "$tmp/cc.log" | tr '\n' ' ')"
  exit 1
fi

first_diff() { cmp "$1" "$2" 2>&1 | head -n1; }
# The float-I/O path: the unchanged model, every case in one run.
runargs=""
for c in "$g"/case*; do runargs="$runargs -i $c/input0.bin -o $tmp/float_${c##*/}.bin"; done
# shellcheck disable=SC2086
"$TINYAOT" run "$model" $runargs > "$tmp/run.log" 2>&1 || notok "the float-I/O path runs: $(head -n2 "$tmp/run.log")"
for c in "$g"/case*; do
  case=${c##*/}
  if ! "$tmp/app" "$c/input0.bin" "$tmp/qin.bin" "$tmp/qout.bin" "$tmp/fout.bin" > "$tmp/app.log" 2>&1; then
    notok "$case: the int8-io program runs ($(tail -n1 "$tmp/app.log"))"
    continue
  fi
  if [ -f "$c/tensors/t$qout.bin" ]; then
    cmp -s "$tmp/qin.bin" "$c/tensors/t$qout.bin" &&
      ok "$case: vww_quantize_input0 gives TFLM's QUANTIZE output (t$qout) bit for bit" ||
      notok "$case: vww_quantize_input0 gives TFLM's QUANTIZE output (t$qout): $(first_diff "$c/tensors/t$qout.bin" "$tmp/qin.bin")"
  fi
  if [ -f "$c/tensors/t$dqin.bin" ]; then
    cmp -s "$tmp/qout.bin" "$c/tensors/t$dqin.bin" &&
      ok "$case: the int8 output is TFLM's t$dqin, the tensor the dropped DEQUANTIZE read" ||
      notok "$case: the int8 output is TFLM's t$dqin: $(first_diff "$c/tensors/t$dqin.bin" "$tmp/qout.bin")"
  fi
  cmp -s "$tmp/fout.bin" "$c/output0.bin" &&
    ok "$case: the dequantized int8 output equals TFLM's float output byte for byte" ||
    notok "$case: the dequantized int8 output equals TFLM's float output: $(first_diff "$c/output0.bin" "$tmp/fout.bin")"
  if [ -f "$tmp/float_$case.bin" ]; then
    cmp -s "$tmp/fout.bin" "$tmp/float_$case.bin" &&
      ok "$case: --int8-io with the header's helpers is bit-exact with the float-I/O path" ||
      notok "$case: --int8-io with the helpers is bit-exact with the float-I/O path: $(first_diff "$tmp/float_$case.bin" "$tmp/fout.bin")"
  fi
done

"$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o "$tmp/kws" --int8-io > "$tmp/kws.log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "kws_ref_model.tflite: --int8-io: the model has no float input or output" "$tmp/kws.log"; then
  ok "--int8-io on an int8 model is refused ($(head -n1 "$tmp/kws.log" | sed "s#$shared/models/##"))"
else
  notok "--int8-io on an int8 model is refused: exit $rc, $(head -n1 "$tmp/kws.log")"
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
