#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_strict_warnings.sh - the runtime and the generated code
# compile without a warning under the flags firmware teams build with
# (doc/generated-code.md, "Strict warnings"):
#   gcc:   -Wall -Wextra -Wconversion -Wsign-conversion -Wcast-align=strict
#   clang: -Weverything -Wno-declaration-after-statement -Wno-padded
# both with -std=c99 -pedantic -Werror.  Every runtime file (runtime/*/*.c
# with their headers), then the generated folders (the model's .c files
# and the runtime copies) of a few shared models, int8 and float, with I/O
# outside and inside the workspace and with two pools; the runtime's Arm
# paths with arm-none-eabi-gcc (Cortex-M4 with and without the assembly,
# M33, M0).  clang and arm-none-eabi-gcc are checked when installed (a
# loud skip otherwise).  Plain pass only: the flags do
# not depend on the sanitizers.
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
build=${TINYAOT_BUILD:-build}
tinyaot=${TINYAOT:-$build/tinyaot}
shared=${TINYAOT_SHARED:-../shared}
GCC_FLAGS="-std=c99 -pedantic -Wall -Wextra -Wconversion -Wsign-conversion -Wcast-align=strict -Werror"
CLANG_FLAGS="-std=c99 -pedantic -Weverything -Wno-declaration-after-statement -Wno-padded -Werror"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

compilers="gcc"
if command -v clang > /dev/null 2>&1; then
  compilers="gcc clang"
else
  echo "skip - CLANG MISSING: the clang -Weverything half of the strict build is not checked"
fi

# strict CC LABEL INCLUDES FILES...: one check.
strict() {
  cc=$1 label=$2 inc=$3
  shift 3
  flags=$GCC_FLAGS
  [ "$cc" = clang ] && flags=$CLANG_FLAGS
  # shellcheck disable=SC2086
  if $cc $flags -O2 $inc -fsyntax-only "$@" > "$tmp/log" 2>&1; then
    echo "ok - $label compiles with $cc's strict warnings"
  else
    echo "not ok - $label compiles with $cc's strict warnings: $(grep -m1 -E 'warning|error' "$tmp/log")"
    rc=1
  fi
}

for cc in $compilers; do
  strict "$cc" "every runtime file" "-Iruntime/include" runtime/*/*.c
done

# The Arm paths (the DSP extension's C and assembly, its C versions with
# TA_NO_ASM, a core without it) with the gcc firmware is built with.
if command -v arm-none-eabi-gcc > /dev/null 2>&1; then
  for t in "cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard" "cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -DTA_NO_ASM" \
           "cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard" "cortex-m0"; do
    # shellcheck disable=SC2086
    if arm-none-eabi-gcc -mthumb -mcpu=$t $GCC_FLAGS -O2 -Iruntime/include -fsyntax-only \
         runtime/*/*.c > "$tmp/log" 2>&1; then
      echo "ok - every runtime file compiles for $t with arm-none-eabi-gcc's strict warnings"
    else
      echo "not ok - every runtime file compiles for $t with arm-none-eabi-gcc's strict warnings: $(grep -m1 -E 'warning|error' "$tmp/log")"
      rc=1
    fi
  done
else
  echo "skip - ARM-NONE-EABI-GCC MISSING: the runtime's Arm paths are not checked with strict warnings"
fi

models="kws_ref_model kws_ref_model_float32 hello_world_float audio_preprocessor_int8 mnist_lstm_float
onnx/ds_cnn_kws.onnx"
if [ ! -d "$shared/models" ]; then
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the shared models are at $shared/models (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING at $shared/models: the generated code is not checked"
  exit $rc
fi
for m in $models; do
  for opts in "" "--io-in-caller-buffers" "--pool fast:4096 --pool slow"; do
    d="$tmp/${m##*/}"
    f="$shared/models/$m"
    case $m in *.onnx) ;; *) f="$f.tflite" ;; esac
    rm -rf "$d"
    # shellcheck disable=SC2086
    if ! "$tinyaot" compile "$f" -o "$d" $opts > "$tmp/compile.log" 2>&1; then
      echo "not ok - tinyaot compiles $m ${opts:-(defaults)}: $(tail -1 "$tmp/compile.log")"
      rc=1
      continue
    fi
    for cc in $compilers; do
      strict "$cc" "the generated code of $m ${opts:-(defaults)}" "-I$d -I$d/runtime/include" \
        "$d"/*.c $(find "$d/runtime" -name '*.c' | sort)
    done
  done
done
exit $rc
