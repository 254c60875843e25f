#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two different models linked into one program.  kws_ref_model (prefix
# kws) and resnet8_int8 (prefix resnet) are compiled into two folders;
# each folder's Makefile fragment builds its own static library (both
# hold copies of the same kernels: CONV_2D, FULLY_CONNECTED, pools,
# SOFTMAX); one program includes both headers, links both libraries,
# runs both models on their case0 inputs, and the outputs must equal the
# goldens.  In the plain pass the same is built once more through the
# generated CMakeLists.txt (when cmake is installed).  Under the san pass
# the program is built with $TINYAOT_CFLAGS.
shared=${TINYAOT_SHARED:-../shared}
TINYAOT=${TINYAOT:-build/tinyaot}
if [ ! -f "$shared/models/SHA256SUMS" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared models are at $shared (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING: $shared has no models/; set TINYAOT_SHARED"
  exit 0
fi
tmp=$(mktemp -d /tmp/tinyaot-two-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

if "$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o "$tmp/kws" --prefix kws &&
   "$TINYAOT" compile "$shared/models/resnet8_int8.tflite" -o "$tmp/resnet" --prefix resnet; then
  ok "kws_ref_model and resnet8_int8 compile into two folders"
else
  notok "kws_ref_model and resnet8_int8 compile into two folders"
  exit 1
fi

cat > "$tmp/main.c" <<'C'
/* Runs two generated models in one program. */
#include <stdio.h>
#include <stdlib.h>

#include "kws.h"
#include "resnet.h"

static void *load(const char *path, size_t n) {
  unsigned char *p = malloc(n);
  FILE *f = fopen(path, "rb");
  if (!p || !f || fread(p, 1, n, f) != n) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  return p;
}

static void save(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
}

int main(int argc, char **argv) {
  struct kws_inputs ki;
  struct kws_outputs ko;
  struct resnet_inputs ri;
  struct resnet_outputs ro;
  void *kws_ws = malloc(KWS_WORKSPACE_SIZE ? KWS_WORKSPACE_SIZE : 1);
  void *resnet_ws = malloc(RESNET_WORKSPACE_SIZE ? RESNET_WORKSPACE_SIZE : 1);
  int8_t kws_out[KWS_OUTPUT0_SIZE], resnet_out[RESNET_OUTPUT0_SIZE];
  if (argc != 5)
    return 2;
  ki.input_1 = load(argv[1], KWS_INPUT0_SIZE);
  ko.identity = kws_out;
  ri.input_1_int8 = load(argv[2], RESNET_INPUT0_SIZE);
  ro.identity_int8 = resnet_out;
  if (kws_run(&ki, &ko, kws_ws) != 0 || resnet_run(&ri, &ro, resnet_ws) != 0) {
    fprintf(stderr, "a run failed\n");
    return 1;
  }
  save(argv[3], kws_out, sizeof kws_out);
  save(argv[4], resnet_out, sizeof resnet_out);
  free((void *)ki.input_1);
  free((void *)ri.input_1_int8);
  free(kws_ws);
  free(resnet_ws);
  return 0;
}
C

cat > "$tmp/Makefile" <<'MK'
# One program, two models: each fragment builds its library.
CFLAGS = -std=c99 -O2 $(EXTRA)
app:
include kws/kws.mk
include resnet/resnet.mk
app: main.o $(KWS_LIB) $(RESNET_LIB)
	$(CC) $(CFLAGS) -o $@ main.o $(KWS_LIB) $(RESNET_LIB) -lm
main.o: main.c
	$(CC) $(CFLAGS) $(KWS_INCLUDES) $(RESNET_INCLUDES) -c -o $@ main.c
MK

check_outputs() { # $1: what was built, $2: the program
  g=$shared/goldens
  if ! "$2" "$g/kws_ref_model/case0/input0.bin" "$g/resnet8_int8/case0/input0.bin" \
       "$tmp/kws.bin" "$tmp/resnet.bin" > "$tmp/run.log" 2>&1; then
    notok "$1: the program runs both models ($(tail -n1 "$tmp/run.log"))"
    return
  fi
  ok "$1: the program runs both models"
  for m in kws:kws_ref_model resnet:resnet8_int8; do
    if cmp "$tmp/${m%%:*}.bin" "$g/${m#*:}/case0/output0.bin" > "$tmp/cmp.log" 2>&1; then
      ok "$1: ${m#*:} gives TFLM's golden output"
    else
      notok "$1: ${m#*:} gives TFLM's golden output: $(cat "$tmp/cmp.log")"
    fi
  done
}

if make -C "$tmp" EXTRA="$TINYAOT_CFLAGS" > "$tmp/make.log" 2>&1; then
  ok "the two Makefile fragments build two libraries that link into one program"
  dups=$(nm -A "$tmp/kws/build/libkws.a" "$tmp/resnet/build/libresnet.a" 2>/dev/null |
         awk '$2 == "T" {print $3}' | sort | uniq -d | tr '\n' ' ')
  if [ -n "$dups" ]; then
    ok "both libraries define shared kernels ($dups) and still link"
  else
    notok "both libraries define shared kernels (none found: the test lost its point)"
  fi
  check_outputs "make" "$tmp/app"
else
  notok "the two Makefile fragments build two libraries that link into one program: $(grep -m3 -iE 'error|multiple' "$tmp/make.log" | tr '\n' ' ')"
fi

if [ "${TINYAOT_PASS:-plain}" = plain ] && command -v cmake > /dev/null 2>&1; then
  mkdir -p "$tmp/cm"
  cat > "$tmp/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.5)
project(two C)
add_subdirectory($tmp/kws kws)
add_subdirectory($tmp/resnet resnet)
add_executable(app $tmp/main.c)
target_link_libraries(app PRIVATE kws resnet m)
CM
  if (cd "$tmp/cm" && cmake -S . -B build > ../cmake.log 2>&1 &&
      cmake --build build >> ../cmake.log 2>&1); then
    ok "the two generated CMakeLists.txt build libraries that link into one program"
    check_outputs "cmake" "$tmp/cm/build/app"
  else
    notok "the two generated CMakeLists.txt build libraries that link into one program: $(grep -m3 -i error "$tmp/cmake.log" | tr '\n' ' ')"
  fi
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
