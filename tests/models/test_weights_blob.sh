#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Relocatable weights (--weights-blob) on the host.
#
# kws_ref_model is compiled with --weights-blob kws.bin: its constant
# tensors leave kws_weights.c for the image, whose size the header states
# (KWS_WEIGHTS_BLOB_SIZE).  A program (below, built with $TINYAOT_CFLAGS
# in the san pass) reads the image into memory and checks:
#  - kws_run() before kws_bind_weights() returns KWS_ERR_NO_WEIGHTS;
#  - bound at two different addresses, every golden case's output equals
#    TFLM's bytes (the normal build's, test_goldens);
#  - kws_bind_weights() refuses, with its own code each, a copy with one
#    payload byte flipped (KWS_BLOB_BAD_CRC), a bad magic, a bad format
#    version, a wrong size field, an address off a 16-byte boundary, and
#    the image of another model (resnet8_int8's, KWS_BLOB_WRONG_MODEL);
#    after a refusal the previous image stays bound and still gives the
#    golden bytes.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-blob-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
CC=${CC:-cc}
g=$shared/goldens/kws_ref_model

if "$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o "$tmp/kws" --prefix kws \
     --weights-blob "$tmp/kws.bin" > "$tmp/log" 2>&1 &&
   "$TINYAOT" compile "$shared/models/resnet8_int8.tflite" -o "$tmp/resnet" --prefix resnet \
     --weights-blob "$tmp/resnet.bin" >> "$tmp/log" 2>&1; then
  ok "kws_ref_model and resnet8_int8 compile with --weights-blob"
else
  notok "the models compile with --weights-blob: $(head -n2 "$tmp/log")"
  exit 1
fi
if grep -q 'kws_t[0-9]*\[' "$tmp/kws/kws_weights.c"; then
  notok "with --weights-blob, kws_weights.c holds none of the model's tensors"
else
  ok "with --weights-blob, kws_weights.c holds none of the model's tensors ($(wc -c < "$tmp/kws.bin") bytes in kws.bin)"
fi

cat > "$tmp/main.c" <<'C'
/* Binds kws.bin and runs the golden cases; then feeds bad images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kws.h"

static int failures;

static void check(int cond, const char *what, long got) {
  printf("%s - %s", cond ? "ok" : "not ok", what);
  if (!cond) {
    printf(" (got %ld)", got);
    failures++;
  }
  printf("\n");
}

static unsigned char *load(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  unsigned char *p;
  long len;
  if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
    exit(2);
  p = malloc((size_t)len + 1);
  if (!p || fread(p, 1, (size_t)len, f) != (size_t)len)
    exit(2);
  fclose(f);
  *n = (size_t)len;
  return p;
}

/* Runs every case (argv pairs: input, golden output); 1 when all equal. */
static int run_cases(int argc, char **argv, void *ws) {
  int i, all = 1;
  for (i = 3; i + 1 < argc; i += 2) {
    size_t n, m;
    unsigned char *in = load(argv[i], &n), *gold = load(argv[i + 1], &m);
    int8_t out[KWS_OUTPUT0_SIZE];
    struct kws_inputs ki;
    struct kws_outputs ko;
    size_t k;
    *(const void **)&ki = in;
    *(void **)&ko = out;
    if (n != KWS_INPUT0_SIZE || m != sizeof out || kws_run(&ki, &ko, ws) != 0) {
      all = 0;
    } else {
      for (k = 0; k < m; k++)
        if ((unsigned char)out[k] != gold[k]) {
          printf("# %s: first mismatch at %lu: expected %d, actual %d\n", argv[i + 1],
                 (unsigned long)k, (int8_t)gold[k], out[k]);
          all = 0;
          break;
        }
    }
    free(in);
    free(gold);
  }
  return all;
}

int main(int argc, char **argv) {
  size_t n, other_n;
  unsigned char *file = load(argv[1], &n), *other = load(argv[2], &other_n);
  /* 16-byte aligned places for the image: two of them, at different addresses. */
  unsigned char *area = malloc(2 * n + 64 + 16), *a, *b, *bad;
  void *ws = malloc(KWS_WORKSPACE_SIZE);
  struct kws_inputs ki;
  struct kws_outputs ko;
  int8_t out[KWS_OUTPUT0_SIZE];
  if (!area || !ws || argc < 5)
    return 2;
  a = area + (16 - ((size_t)area & 15));
  b = a + ((n + 31) & ~(size_t)15);
  memcpy(a, file, n);
  memcpy(b, file, n);
  *(const void **)&ki = a; /* any input: the model must not run */
  *(void **)&ko = out;
  check(n == KWS_WEIGHTS_BLOB_SIZE, "kws.bin is KWS_WEIGHTS_BLOB_SIZE bytes", (long)n);
  check(kws_run(&ki, &ko, ws) == KWS_ERR_NO_WEIGHTS,
        "kws_run() before kws_bind_weights() returns KWS_ERR_NO_WEIGHTS",
        (long)kws_run(&ki, &ko, ws));
  check(kws_bind_weights(a) == KWS_BLOB_OK, "kws_bind_weights() accepts kws.bin", 0);
  check(run_cases(argc, argv, ws), "bound at one address, every case equals TFLM's golden bytes", 0);
  check(kws_bind_weights(b) == KWS_BLOB_OK, "kws_bind_weights() accepts kws.bin elsewhere", 0);
  memset(a, 0, n); /* the first copy is gone: the code must read the second */
  check(run_cases(argc, argv, ws), "bound at another address, every case equals TFLM's golden bytes", 0);

  bad = a;
  memcpy(bad, file, n);
  bad[n - 1] ^= 0x01;
  check(kws_bind_weights(bad) == KWS_BLOB_BAD_CRC, "an image with its last byte flipped is refused: KWS_BLOB_BAD_CRC", (long)kws_bind_weights(bad));
  memcpy(bad, file, n);
  bad[64 + n / 2 - 32] ^= 0x80;
  check(kws_bind_weights(bad) == KWS_BLOB_BAD_CRC, "an image with a middle byte flipped is refused: KWS_BLOB_BAD_CRC", (long)kws_bind_weights(bad));
  memcpy(bad, file, n);
  bad[0] = 'X';
  check(kws_bind_weights(bad) == KWS_BLOB_BAD_MAGIC, "an image with a bad magic is refused: KWS_BLOB_BAD_MAGIC", (long)kws_bind_weights(bad));
  memcpy(bad, file, n);
  bad[4] = 2;
  check(kws_bind_weights(bad) == KWS_BLOB_BAD_VERSION, "an image of format version 2 is refused: KWS_BLOB_BAD_VERSION", (long)kws_bind_weights(bad));
  memcpy(bad, file, n);
  bad[12] ^= 0x10;
  check(kws_bind_weights(bad) == KWS_BLOB_BAD_SIZE, "an image with another size is refused: KWS_BLOB_BAD_SIZE", (long)kws_bind_weights(bad));
  memcpy(bad + 1, file, n);
  check(kws_bind_weights(bad + 1) == KWS_BLOB_MISALIGNED, "an image off a 16-byte boundary is refused: KWS_BLOB_MISALIGNED", (long)kws_bind_weights(bad + 1));
  if (other_n <= n) {
    memcpy(bad, other, other_n);
    check(kws_bind_weights(bad) == KWS_BLOB_WRONG_MODEL, "resnet8_int8's image is refused: KWS_BLOB_WRONG_MODEL", (long)kws_bind_weights(bad));
  } else {
    unsigned char *o = malloc(other_n + 16);
    unsigned char *oa = o + (16 - ((size_t)o & 15));
    memcpy(oa, other, other_n);
    check(kws_bind_weights(oa) == KWS_BLOB_WRONG_MODEL, "resnet8_int8's image is refused: KWS_BLOB_WRONG_MODEL", (long)kws_bind_weights(oa));
    free(o);
  }
  check(kws_bind_weights(NULL) == KWS_BLOB_BAD_MAGIC, "a NULL image is refused", 0);
  memset(bad, 0, n);
  check(run_cases(argc, argv, ws), "after the refusals the bound image still gives TFLM's golden bytes", 0);
  free(file);
  free(other);
  free(area);
  free(ws);
  return failures != 0;
}
C
# shellcheck disable=SC2086
if $CC -std=c99 -O1 -Wall -Wextra -Werror -pedantic $TINYAOT_CFLAGS -I"$tmp/kws" \
     -I"$tmp/kws/runtime/include" -o "$tmp/app" "$tmp/main.c" \
     $(cd "$tmp/kws" && find . -name '*.c' | sed "s#^\.#$tmp/kws#") -lm > "$tmp/cc.log" 2>&1; then
  ok "a program binding the image builds (-std=c99 -pedantic -Werror)"
  args=""
  for c in "$g"/case*; do args="$args $c/input0.bin $c/output0.bin"; done
  # shellcheck disable=SC2086
  "$tmp/app" "$tmp/kws.bin" "$tmp/resnet.bin" $args > "$tmp/app.log" 2>&1
  rc=$?
  cat "$tmp/app.log"
  if [ $rc -ne 0 ] && ! grep -q '^not ok' "$tmp/app.log"; then
    notok "the program runs to its end (exit $rc)"
  fi
  grep -q '^not ok' "$tmp/app.log" && fail=1
else
  notok "a program binding the image builds: $(grep -m3 error "$tmp/cc.log" | tr '\n' ' ')"
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
