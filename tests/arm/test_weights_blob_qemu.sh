#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_weights_blob_qemu.sh - relocatable weights on a
# Cortex-M4F in QEMU (mps2-an386).
#
# kws_ref_model is compiled with --weights-blob kws.bin.  A bare-metal
# firmware (below; the example's start-up code, semihosting for files)
# reads the image at run time into RAM at an address the linker never
# saw, binds it with kws_bind_weights(), runs case0 and writes the output;
# then it binds the image again with one byte flipped.  The output must
# equal TFLM's golden bytes, the good image must be accepted
# (KWS_BLOB_OK) and the corrupted one refused (KWS_BLOB_BAD_CRC), and
# kws_run() before any bind must return KWS_ERR_NO_WEIGHTS.  The
# firmware keeps only the arrays the compiler derived (multipliers,
# shifts, folded biases) in .weights; the sizes are printed.
# Plain pass only (exit 77 in the san pass).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${TINYAOT_SHARED:-$root/../shared}
TINYAOT=${TINYAOT:-$root/build/tinyaot}
ARM_CC=${ARM_CC:-arm-none-eabi-gcc}
QEMU=${ARM_QEMU:-qemu-system-arm}
if [ ! -f "$shared/models/SHA256SUMS" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared models are at $shared (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING: $shared has no models/; set TINYAOT_SHARED"
  exit 0
fi
if ! command -v "$ARM_CC" > /dev/null 2>&1 || ! command -v "$QEMU" > /dev/null 2>&1; then
  echo "skip - $ARM_CC or $QEMU is not installed (.ci/run installs them)"
  exit 0
fi
shared=$(cd "$shared" && pwd)
tmp=$(mktemp -d /tmp/tinyaot-blobqemu-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
ex=$root/examples/cortex-m
cpu="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
g=$shared/goldens/kws_ref_model/case0

if ! "$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o "$tmp/kws" --prefix kws \
     --weights-blob "$tmp/kws.bin" > "$tmp/log" 2>&1; then
  notok "kws_ref_model compiles with --weights-blob: $(head -n2 "$tmp/log")"
  exit 1
fi

cat > "$tmp/fw.c" <<'C'
/* Loads the weights image over semihosting, binds it, runs case0. */
#include <stdint.h>
#include <string.h>

#include "kws.h"
#include "semihost.h"

static uint8_t ws[KWS_WORKSPACE_SIZE] __attribute__((aligned(16), section(".tinyaot_workspace")));
/* Room for the image at an offset the firmware picks at run time. */
static uint8_t area[KWS_WEIGHTS_BLOB_SIZE + 64] __attribute__((aligned(16)));
static int8_t in[KWS_INPUT0_SIZE], out[KWS_OUTPUT0_SIZE];

static int load(const char *path, void *buf, size_t n) {
  int fd = sh_open(path, SH_MODE_RB);
  int good = fd >= 0 && sh_flen(fd) == (long)n && sh_read(fd, buf, n) == n;
  if (fd >= 0)
    sh_close(fd);
  return good;
}

int main(void) {
  static char cmd[1024];
  char *arg[4];
  int n = 0, k, len = sh_cmdline(cmd, sizeof cmd);
  struct kws_inputs ki = {in};
  struct kws_outputs ko = {out};
  uint8_t *image;
  int fd;
  /* "fw IMAGE INPUT OUTPUT" */
  for (k = 0; k < len && n < 4; k++)
    if (cmd[k] != ' ' && (k == 0 || cmd[k - 1] == '\0'))
      arg[n++] = &cmd[k];
    else if (cmd[k] == ' ')
      cmd[k] = '\0';
  if (len < 0 || n != 4)
    sh_exit(2);
  sh_put_kv("unbound", (uint32_t)kws_run(&ki, &ko, ws));
  /* 32 bytes in: an address decided now, not by the linker. */
  image = area + 32 + (((uintptr_t)ws >> 4) & 1u) * 16u;
  if (!load(arg[1], image, KWS_WEIGHTS_BLOB_SIZE) || !load(arg[2], in, sizeof in))
    sh_exit(2);
  sh_put_kv("bind", (uint32_t)kws_bind_weights(image));
  sh_put_kv("run", (uint32_t)kws_run(&ki, &ko, ws));
  fd = sh_open(arg[3], SH_MODE_WB);
  if (fd < 0 || sh_write(fd, out, sizeof out) != 0)
    sh_exit(2);
  sh_close(fd);
  image[KWS_WEIGHTS_BLOB_SIZE / 2] ^= 0x40;
  sh_put_kv("bind_corrupted", (uint32_t)kws_bind_weights(image));
  sh_exit(0);
}
C
# shellcheck disable=SC2086
if $ARM_CC $cpu -O2 -std=c99 -Wall -Wextra -Werror -ffunction-sections -fdata-sections \
     -I"$tmp/kws" -I"$tmp/kws/runtime/include" -I"$ex" -nostartfiles --specs=nano.specs \
     -L"$ex" -T mps2-an386.ld -Wl,--gc-sections -o "$tmp/fw.elf" "$tmp/fw.c" "$ex/startup.c" \
     "$ex/semihost.c" $(find "$tmp/kws" -name '*.c' | sort) -lm > "$tmp/cc.log" 2>&1; then
  ok "a Cortex-M4F firmware binding its weights at run time links"
  echo "# $(arm-none-eabi-size -A "$tmp/fw.elf" | awk '$1 == ".text" || $1 == ".weights" {printf "%s %s B  ", $1, $2}')(image: $(wc -c < "$tmp/kws.bin") B, outside the firmware)"
else
  notok "the firmware links: $(grep -m3 -i error "$tmp/cc.log" | tr '\n' ' ')"
  exit 1
fi
timeout 300 "$QEMU" -machine mps2-an386 -display none -monitor none -serial none \
  -semihosting-config "enable=on,target=native,arg=fw,arg=$tmp/kws.bin,arg=$g/input0.bin,arg=$tmp/out.bin" \
  -kernel "$tmp/fw.elf" > "$tmp/run.log" 2>&1
rc=$?
val() { awk -v k="$1" '$1 == k {print $2}' "$tmp/run.log"; }
if [ $rc -eq 0 ]; then ok "the firmware runs in QEMU"; else notok "the firmware runs in QEMU: exit $rc, $(tail -n2 "$tmp/run.log")"; fi
no_weights=$(sed -n 's/^#define KWS_ERR_NO_WEIGHTS \([0-9]*\).*/\1/p' "$tmp/kws/kws.h")
bad_crc=$(sed -n 's/^#define KWS_BLOB_BAD_CRC \([0-9]*\).*/\1/p' "$tmp/kws/kws.h")
[ -n "$no_weights" ] && [ "$(val unbound)" = "$no_weights" ] &&
  ok "on the device, kws_run() before a bind returns KWS_ERR_NO_WEIGHTS" ||
  notok "on the device, kws_run() before a bind returns KWS_ERR_NO_WEIGHTS ($no_weights): got '$(val unbound)'"
[ "$(val bind)" = 0 ] && ok "on the device, kws_bind_weights() accepts the image read at run time" ||
  notok "on the device, kws_bind_weights() accepts the image: got '$(val bind)'"
if [ "$(val run)" = 0 ] && cmp -s "$tmp/out.bin" "$g/output0.bin"; then
  ok "on the device, the model running from the image gives TFLM's golden bytes"
else
  notok "on the device, the model running from the image gives TFLM's golden bytes: run '$(val run)', $(cmp "$g/output0.bin" "$tmp/out.bin" 2>&1 | head -n1)"
fi
[ -n "$bad_crc" ] && [ "$(val bind_corrupted)" = "$bad_crc" ] &&
  ok "on the device, an image with one byte flipped is refused at bind time (KWS_BLOB_BAD_CRC)" ||
  notok "on the device, a corrupted image is refused (KWS_BLOB_BAD_CRC $bad_crc): got '$(val bind_corrupted)'"

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
