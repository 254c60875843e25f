#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_const_dedup.sh - byte-identical constants are stored
# once (compiler/emit/emit.c, dedup_constants), in <prefix>_weights.c and
# in the --weights-blob image, parameter structs of equal text once in
# <prefix>.c, and the ops that share an array still
# compute what their own copy gave.  Models from tools/gen_chain.c (no
# shared files needed):
#   relu 1000      one RELU lookup table instead of 1000 (each 256 bytes);
#                  the output on 64 inputs must be max(q, -8) (RELU in the
#                  input's own quantization), computed here;
#   logistic 1000  two LOGISTIC tables instead of 1000 (op 0 reads the
#                  model input's quantization, every later op the
#                  previous op's output's);
#   add 100        100 constant tensors with equal bytes, one array in the
#                  weights file and 64 payload bytes in the blob; the
#                  output must be min(q + 100, 127), computed here.
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
build=${TINYAOT_BUILD:-build}
gen=$build/tools/gen_chain
tmp=$(mktemp -d /tmp/tinyaot-dedup-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
[ -x "$gen" ] || { echo "not ok - $gen is built (make test-build)"; exit 1; }

# 64 input bytes: q = -32..31 for relu, -128..-65 for add.
LC_ALL=C awk 'BEGIN { for (i = 0; i < 64; i++) printf "%c", i + 224 }' > "$tmp/in_relu.bin"
LC_ALL=C awk 'BEGIN { for (i = 0; i < 64; i++) printf "%c", i + 128 }' > "$tmp/in_add.bin"
LC_ALL=C awk 'BEGIN { for (i = 0; i < 64; i++) { q = i - 32; if (q < -8) q = -8; printf "%c", (q + 256) % 256 } }' \
  > "$tmp/want_relu.bin"
LC_ALL=C awk 'BEGIN { for (i = 0; i < 64; i++) { q = i - 128 + 100; if (q > 127) q = 127; printf "%c", (q + 256) % 256 } }' \
  > "$tmp/want_add.bin"

for k in relu:1000:1 logistic:1000:2 add:100:1; do
  kind=${k%%:*} n=${k#*:} want=${n#*:} n=${n%%:*}
  "$gen" "$kind" "$n" "$tmp/$kind.tflite" || { notok "gen_chain $kind $n writes a model"; continue; }
  if ! "$TINYAOT" compile "$tmp/$kind.tflite" -o "$tmp/$kind" --prefix c > "$tmp/$kind.log" 2>&1; then
    notok "a chain of $n $kind ops compiles: $(head -n1 "$tmp/$kind.log")"
    continue
  fi
  # Array definitions in the weights file.
  arrays=$(grep -c '^C_WEIGHT_PRAGMA const' "$tmp/$kind/c_weights.c")
  [ "$arrays" = "$want" ] &&
    ok "$n $kind ops: $want constant array(s) in c_weights.c ($(wc -c < "$tmp/$kind/c_weights.c") bytes)" ||
    notok "$n $kind ops: $want constant array(s) in c_weights.c (has $arrays)"
done

# Parameter structs too: the same type and text (names filled in) is one
# definition.  The 1000 RELU ops share one ta_lut_params (their tables
# are one), the 100 ADDs one ta_add_params and one ta_bcast.
for k in relu:1 add:2; do
  kind=${k%%:*} want=${k#*:}
  defs=$(grep -c '^static const ta_' "$tmp/$kind/c.c")
  [ "$defs" = "$want" ] &&
    ok "$kind chain: $want parameter struct definition(s) in c.c for every op" ||
    notok "$kind chain: $want parameter struct definition(s) in c.c (has $defs)"
done
n=$(grep -c '(&c_op0_params, ' "$tmp/relu/c.c")
[ "$n" -ge 1000 ] && ! grep -q 'c_op[1-9][0-9]*_params' "$tmp/relu/c.c" &&
  ok "all 1000 RELU ops pass c_op0_params" ||
  notok "all 1000 RELU ops pass c_op0_params ($n calls)"

# The one struct holds the one table, and nothing refers to a table that
# is not defined (the generated code compiles and links in tinyaot run).
grep -q '^static const ta_lut_params c_op0_params = {.*c_op0_table}' "$tmp/relu/c.c" &&
  ! grep -q 'c_op[1-9][0-9]*_table' "$tmp/relu/c.c" &&
  ok "the RELU ops' one ta_lut_params points at c_op0_table" ||
  notok "the RELU ops' one ta_lut_params points at c_op0_table"
for kind in relu add; do
  n=1000; [ $kind = add ] && n=100
  if "$TINYAOT" run "$tmp/$kind.tflite" -i "$tmp/in_$kind.bin" -o "$tmp/out_$kind.bin" \
       > "$tmp/run_$kind.log" 2>&1 && cmp -s "$tmp/out_$kind.bin" "$tmp/want_$kind.bin"; then
    ok "the $n-op $kind chain sharing one constant gives the expected output"
  else
    notok "the $n-op $kind chain gives the expected output: $(head -n1 "$tmp/run_$kind.log") $(cmp "$tmp/out_$kind.bin" "$tmp/want_$kind.bin" 2>&1 | head -n1)"
  fi
done

# The blob: the 100 equal constant tensors take one 64-byte slot.
if "$TINYAOT" compile "$tmp/add.tflite" -o "$tmp/add_blob" --prefix c --weights-blob "$tmp/add.bin" \
     > "$tmp/blob.log" 2>&1; then
  size=$(sed -n 's/^#define C_WEIGHTS_BLOB_SIZE \([0-9]*\).*/\1/p' "$tmp/add_blob/c.h")
  offs=$(grep -o 'c_blob + [0-9]*' "$tmp/add_blob/c.c" | sort -u | tr '\n' ' ')
  [ "$(wc -c < "$tmp/add.bin")" = "$size" ] && [ "$offs" = "c_blob + 0 " ] && [ "$size" -le 128 ] &&
    ok "--weights-blob: the 100 equal constants are one slot (image $size bytes, every op at c_blob + 0)" ||
    notok "--weights-blob stores the 100 equal constants once: image $size bytes, offsets $offs"
else
  notok "the add chain compiles with --weights-blob: $(head -n1 "$tmp/blob.log")"
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
