#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Custom ops the user implements.  The model: a copy of
# audio_preprocessor_int8 whose SignalEnergy op is renamed UserEnergy12
# (same length, so the file stays valid) - an op tinyaot does not know.
#  - Without --custom-op, compile refuses it: exit 1, a message naming
#    the model, the op index, the op and the flag to use.
#  - With --custom-op UserEnergy12=test_energy, the runner calls
#    test_energy(), written below by this test: it checks what the
#    interface promises (name, index, options bytes, tensor types and
#    shapes, scratch size and bounds) and computes the spectrum's energy
#    itself.  The model's outputs must equal TFLM's goldens for all three
#    cases (TFLM ran the real SignalEnergy), in both passes.
#  - Malformed flags are usage errors (exit 2).
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-custom-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

model=$tmp/user_energy.tflite
gold=$shared/goldens/audio_preprocessor_int8
perl -0777 -pe 's/SignalEnergy/UserEnergy12/' "$shared/models/audio_preprocessor_int8.tflite" \
  > "$model"

# Refused without the flag.
"$TINYAOT" compile "$model" -o "$tmp/refused" > "$tmp/refused.log" 2>&1
rc=$?
msg=$(head -n1 "$tmp/refused.log")
case "$rc:$msg" in
  1:*user_energy.tflite:\ op\ 4\ \(CUSTOM:UserEnergy12\):*not\ supported*--custom-op\ UserEnergy12=*)
    ok "an unknown custom op is refused with exit 1, naming it and the flag ($msg)" ;;
  *) notok "an unknown custom op is refused with exit 1, naming it and the flag: exit $rc, '$msg'" ;;
esac

# Malformed flags.
for bad in "--custom-op UserEnergy12" "--custom-op UserEnergy12=1fn" \
           "--custom-op-scratch UserEnergy12=64" \
           "--custom-op UserEnergy12=f --custom-op-scratch UserEnergy12=lots"; do
  # shellcheck disable=SC2086
  "$TINYAOT" compile "$model" -o "$tmp/bad" $bad > "$tmp/bad.log" 2>&1
  rc=$?
  if [ $rc -eq 2 ]; then
    ok "'$bad' is a usage error ($(head -n1 "$tmp/bad.log"))"
  else
    notok "'$bad' is a usage error: exit $rc"
  fi
done

# The user's kernel.
cat > "$tmp/user_energy.c" <<'EOF'
/* SignalEnergy written by hand, to show the custom-op interface. */
#include <string.h>

#include "ta_kernels.h"

ta_status test_energy(const ta_custom_op *op, const void *const *inputs,
                      void *const *outputs, void *scratch);

static int has_key(const ta_custom_op *op, const char *key) {
  size_t n = strlen(key), i;
  for (i = 0; op->options && i + n <= op->options_size; i++)
    if (!memcmp(op->options + i, key, n))
      return 1;
  return 0;
}

ta_status test_energy(const ta_custom_op *op, const void *const *inputs,
                      void *const *outputs, void *scratch) {
  const ta_tensor_info *in = &op->inputs[0], *out = &op->outputs[0];
  const int16_t *x = (const int16_t *)inputs[0];
  uint32_t *y = (uint32_t *)outputs[0];
  unsigned char *s = (unsigned char *)scratch;
  int32_t i;
  if (strcmp(op->name, "UserEnergy12") || op->op_index != 4 || op->ninputs != 1 ||
      op->noutputs != 1 || !has_key(op, "start_index") || !has_key(op, "end_index"))
    return 101;
  if (in->type != TA_TYPE_INT16 || in->ndims != 1 || in->dims[0] != 514 ||
      in->bytes != 1028 || in->nscale != 0 || in->is_const)
    return 102;
  if (out->type != TA_TYPE_UINT32 || out->ndims != 1 || out->dims[0] != 257 ||
      out->bytes != 1028)
    return 103;
  if (op->scratch_size != 64 || !s)
    return 104;
  memset(s, 0x77, op->scratch_size); /* the sanitizers check the bounds */
  for (i = 0; i < 257; i++) {
    int32_t re = x[2 * i], im = x[2 * i + 1];
    y[i] = i < 5 || i >= 241 ? 0u : (uint32_t)(re * re) + (uint32_t)(im * im);
  }
  return TA_OK;
}
EOF

cmd="\"$TINYAOT\" run \"$model\" --reset-each --custom-op UserEnergy12=test_energy"
cmd="$cmd --custom-op-scratch UserEnergy12=64 --custom-op-source \"$tmp/user_energy.c\""
cmd="$cmd --keep \"$tmp/build\""
for c in case0 case1 case2; do
  cmd="$cmd -i \"$gold/$c/input0.bin\" -o \"$tmp/$c.bin\""
done
if eval "$cmd" > "$tmp/run.log" 2>&1; then
  ok "the model builds and runs with the user's kernel for UserEnergy12"
  for c in case0 case1 case2; do
    if cmp -s "$gold/$c/output0.bin" "$tmp/$c.bin"; then
      ok "with the user's kernel, $c's output equals TFLM's golden bytes"
    else
      notok "with the user's kernel, $c's output equals TFLM's golden bytes: $(cmp "$gold/$c/output0.bin" "$tmp/$c.bin" 2>&1 | head -n1)"
    fi
  done
  if grep -q "^ta_status test_energy(const ta_custom_op \*op" "$tmp/build/user_energy.c"; then
    ok "the runner declares the user's kernel with the documented signature"
  else
    notok "the runner declares the user's kernel with the documented signature"
  fi
else
  notok "the model builds and runs with the user's kernel: $(grep -v '^ *$' "$tmp/run.log" | head -n3 | tr '\n' ' ')"
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
