#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Several models in one flat build, the way STM32CubeIDE, Keil, IAR and
# the Arduino IDE build: every .c file they see compiled by ONE compiler
# command and linked together.
#
# Three models - kws_ref_model (prefix kws), resnet8_int8 (resnet) and
# audio_preprocessor_int8 with its SignalEnergy op renamed UserEnergy12, a
# custom op implemented in tests/models/user_energy.c (prefix ap, a model with state) - are
# compiled with --runtime DIR against one runtime that
# `tinyaot runtime --kernels` wrote with exactly the kernels they call
# (`tinyaot plan -dL` names them).  Then:
#  - one `cc` command over main.c, the custom op and every .c under the
#    three model folders and the runtime builds one program (each kernel
#    is defined once: in the runtime; embedded folders would each carry
#    a copy, and the link would fail with "multiple definition");
#  - in the plain pass the same folders build through their Makefile
#    fragments and through their CMakeLists.txt (add_subdirectory);
#  - each program's outputs equal TFLM's golden bytes for case0.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-flat-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
CC=${CC:-cc}
g=$shared/goldens

perl -0777 -pe 's/SignalEnergy/UserEnergy12/' "$shared/models/audio_preprocessor_int8.tflite" \
  > "$tmp/user_energy.tflite"
custom="--custom-op UserEnergy12=user_energy --custom-op-scratch UserEnergy12=64"

# The kernels the three models call, as the lowering names them.
{ "$TINYAOT" plan "$shared/models/kws_ref_model.tflite" -dL
  "$TINYAOT" plan "$shared/models/resnet8_int8.tflite" -dL
  # shellcheck disable=SC2086
  "$TINYAOT" plan "$tmp/user_energy.tflite" --prefix ap $custom -dL
} > /dev/null 2> "$tmp/lowering.txt"
kernels=$(grep -o ' ta_[a-z0-9_]*' "$tmp/lowering.txt" | sort -u | tr -d ' ' | paste -sd, -)
if [ -n "$kernels" ] && "$TINYAOT" runtime -o "$tmp/rt" --kernels "$kernels" > "$tmp/rt.log" 2>&1; then
  ok "tinyaot runtime writes one runtime with the kernels of the three models ($(find "$tmp/rt" -name '*.c' | wc -l) files)"
else
  notok "tinyaot runtime writes one runtime with the kernels of the three models: '$kernels' $(head -n2 "$tmp/rt.log")"
  exit 1
fi

# shellcheck disable=SC2086
if (cd "$tmp" &&
    "$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o kws --prefix kws --runtime rt &&
    "$TINYAOT" compile "$shared/models/resnet8_int8.tflite" -o resnet --prefix resnet --runtime rt &&
    "$TINYAOT" compile user_energy.tflite -o ap --prefix ap $custom --runtime rt) > "$tmp/compile.log" 2>&1; then
  ok "the three models compile against the shared runtime (--runtime rt)"
else
  notok "the three models compile against the shared runtime: $(head -n2 "$tmp/compile.log")"
  exit 1
fi
if [ ! -e "$tmp/kws/runtime" ] && [ ! -e "$tmp/ap/runtime" ]; then
  ok "a model compiled with --runtime carries no copy of the kernels"
else
  notok "a model compiled with --runtime carries no copy of the kernels"
fi

# A runtime lacking a kernel is refused at compile time, naming the file.
"$TINYAOT" runtime -o "$tmp/rt_small" --kernels ta_softmax_s8 > /dev/null 2>&1
"$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o "$tmp/kws_small" --runtime "$tmp/rt_small" \
  > "$tmp/small.log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "rt_small: has no .*\.c, which model kws_ref_model.tflite needs" "$tmp/small.log"; then
  ok "compile refuses a runtime that lacks a kernel the model calls ($(head -n1 "$tmp/small.log" | sed "s#$tmp/##"))"
else
  notok "compile refuses a runtime that lacks a kernel the model calls: exit $rc, $(head -n1 "$tmp/small.log")"
fi

cp "$(dirname "$0")/user_energy.c" "$tmp/user_energy.c"

cat > "$tmp/main.c" <<'C'
/* Three generated models in one program: each runs on its case0 input. */
#include <stdio.h>
#include <stdlib.h>

#include "ap.h"
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
  static int8_t kws_out[KWS_OUTPUT0_SIZE], resnet_out[RESNET_OUTPUT0_SIZE];
  static int8_t ap_out[AP_OUTPUT0_SIZE];
  void *ws = malloc(KWS_WORKSPACE_SIZE + RESNET_WORKSPACE_SIZE + AP_WORKSPACE_SIZE);
  void *ps = malloc(AP_PERSISTENT_SIZE);
  void *kin, *rin, *ain;
  if (argc != 7 || !ws || !ps)
    return 2;
  kin = load(argv[1], KWS_INPUT0_SIZE);
  rin = load(argv[2], RESNET_INPUT0_SIZE);
  ain = load(argv[3], AP_INPUT0_SIZE);
  {
    /* One member each: positional initializers need no member names. */
    struct kws_inputs ki = {0};
    struct kws_outputs ko = {0};
    struct resnet_inputs ri = {0};
    struct resnet_outputs ro = {0};
    struct ap_inputs ai = {0};
    struct ap_outputs ao = {0};
    *(const void **)&ki = kin;
    *(void **)&ko = kws_out;
    *(const void **)&ri = rin;
    *(void **)&ro = resnet_out;
    *(const void **)&ai = ain;
    *(void **)&ao = ap_out;
    ap_reset(ps);
    /* The models run one after another: they can share one workspace. */
    if (kws_run(&ki, &ko, ws) != 0 || resnet_run(&ri, &ro, ws) != 0 ||
        ap_run(&ai, &ao, ws, ps) != 0) {
      fprintf(stderr, "a run failed\n");
      return 1;
    }
  }
  save(argv[4], kws_out, sizeof kws_out);
  save(argv[5], resnet_out, sizeof resnet_out);
  save(argv[6], ap_out, sizeof ap_out);
  free(kin);
  free(rin);
  free(ain);
  free(ws);
  free(ps);
  return 0;
}
C

check_outputs() { # $1: what was built, $2: the program
  if ! "$2" "$g/kws_ref_model/case0/input0.bin" "$g/resnet8_int8/case0/input0.bin" \
       "$g/audio_preprocessor_int8/case0/input0.bin" \
       "$tmp/kws.bin" "$tmp/resnet.bin" "$tmp/ap.bin" > "$tmp/run.log" 2>&1; then
    notok "$1: the program runs the three models ($(tail -n1 "$tmp/run.log"))"
    return
  fi
  for m in kws:kws_ref_model resnet:resnet8_int8 ap:audio_preprocessor_int8; do
    if cmp "$tmp/${m%%:*}.bin" "$g/${m#*:}/case0/output0.bin" > "$tmp/cmp.log" 2>&1; then
      ok "$1: ${m#*:} gives TFLM's golden output"
    else
      notok "$1: ${m#*:} gives TFLM's golden output: $(cat "$tmp/cmp.log")"
    fi
  done
}

# The flat build: one command, every .c file.
flags="-std=c99 -O1 -Wall -Wextra -Werror -pedantic $TINYAOT_CFLAGS"
# shellcheck disable=SC2086
if (cd "$tmp" && $CC $flags -Ikws -Iresnet -Iap -Irt/include -o flat \
      main.c user_energy.c kws/*.c resnet/*.c ap/*.c $(find rt -name '*.c' | sort) -lm) \
    > "$tmp/flat.log" 2>&1; then
  ok "one compiler command over every .c of three models, a custom op and the shared runtime builds a program"
  check_outputs "flat build" "$tmp/flat"
else
  notok "one compiler command over every .c builds a program: $(grep -m3 -iE 'error|multiple' "$tmp/flat.log" | tr '\n' ' ')"
fi

cat > "$tmp/Makefile" <<'MK'
# One program, three models and one runtime: each fragment adds its library.
CFLAGS = -std=c99 -O1 $(EXTRA)
app:
include kws/kws.mk
include resnet/resnet.mk
include ap/ap.mk
app: main.o user_energy.o $(KWS_LIBS) $(RESNET_LIBS) $(AP_LIBS)
	$(CC) $(CFLAGS) -o $@ main.o user_energy.o $(KWS_LIB) $(RESNET_LIB) $(AP_LIB) $(TINYAOT_RUNTIME_LIB) -lm
main.o: main.c
	$(CC) $(CFLAGS) $(KWS_INCLUDES) $(RESNET_INCLUDES) $(AP_INCLUDES) -c -o $@ main.c
user_energy.o: user_energy.c
	$(CC) $(CFLAGS) $(TINYAOT_RUNTIME_INCLUDES) -c -o $@ user_energy.c
MK
if [ "${TINYAOT_PASS:-plain}" != plain ]; then
  : # the sanitizer pass checks the flat build only (the same code, built once)
elif make -C "$tmp" EXTRA="$TINYAOT_CFLAGS" > "$tmp/make.log" 2>&1; then
  ok "the three Makefile fragments include the runtime's runtime.mk once and link one program"
  check_outputs "make" "$tmp/app"
else
  notok "the three Makefile fragments link one program: $(grep -m3 -iE 'error|multiple' "$tmp/make.log" | tr '\n' ' ')"
fi

if [ "${TINYAOT_PASS:-plain}" = plain ] && command -v cmake > /dev/null 2>&1; then
  mkdir -p "$tmp/cm"
  cat > "$tmp/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.5)
project(three C)
add_subdirectory($tmp/kws kws)
add_subdirectory($tmp/resnet resnet)
add_subdirectory($tmp/ap ap)
add_executable(app $tmp/main.c $tmp/user_energy.c)
target_link_libraries(app PRIVATE kws resnet ap m)
CM
  if (cd "$tmp/cm" && cmake -S . -B build > ../cmake.log 2>&1 &&
      cmake --build build >> ../cmake.log 2>&1); then
    ok "three generated CMakeLists.txt add the shared runtime once and link one program"
    check_outputs "cmake" "$tmp/cm/build/app"
  else
    notok "three generated CMakeLists.txt link one program: $(grep -m3 -i error "$tmp/cmake.log" | tr '\n' ' ')"
  fi
fi

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
