#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_weights_section.sh - the weights land in .weights on a
# Cortex-M whatever the build system calls the objects.
#
# kws_ref_model (kws), resnet8_int8 (resnet) and audio_preprocessor_int8
# with its SignalEnergy renamed UserEnergy12, a custom op
# (tests/models/user_energy.c; prefix ap), compiled with --runtime
# against one shared runtime, are linked for a Cortex-M4F with
# examples/cortex-m/sections.ld twice: by ONE arm-none-eabi-gcc command
# over every .c (the flat build of an IDE), and by CMake (objects named
# kws_weights.c.o, which the old *_weights.o rule missed).  In both
# ELF files, read with arm-none-eabi-readelf and -nm, every weight array
# each <prefix>_weights.c defines lies inside the .weights output
# section, and .weights holds exactly their bytes (plus alignment
# padding) and each starts on a 16-byte boundary; the sizes are printed.  A model compiled with
# --weights-section .ext_flash puts its arrays in .ext_flash instead.
# Plain pass only (exit 77 in the san pass: nothing here runs on the host).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${TINYAOT_SHARED:-$root/../shared}
TINYAOT=${TINYAOT:-$root/build/tinyaot}
ARM_CC=${ARM_CC:-arm-none-eabi-gcc}
if [ ! -f "$shared/models/SHA256SUMS" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared models are at $shared (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING: $shared has no models/; set TINYAOT_SHARED"
  exit 0
fi
if ! command -v "$ARM_CC" > /dev/null 2>&1 || ! command -v arm-none-eabi-readelf > /dev/null 2>&1; then
  echo "skip - $ARM_CC or arm-none-eabi-readelf is not installed (.ci/run installs gcc-arm-none-eabi)"
  exit 0
fi
shared=$(cd "$shared" && pwd)
tmp=$(mktemp -d /tmp/tinyaot-wsec-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
ex=$root/examples/cortex-m
cpu="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"

cd "$tmp" || exit 1
perl -0777 -pe 's/SignalEnergy/UserEnergy12/' "$shared/models/audio_preprocessor_int8.tflite" \
  > user_energy.tflite
cp "$root/tests/models/user_energy.c" .
custom="--custom-op UserEnergy12=user_energy --custom-op-scratch UserEnergy12=64"
# The runtime holds the kernels the models call (`tinyaot plan -dL`).
# shellcheck disable=SC2086
{ "$TINYAOT" plan "$shared/models/kws_ref_model.tflite" -dL
  "$TINYAOT" plan "$shared/models/resnet8_int8.tflite" -dL
  "$TINYAOT" plan user_energy.tflite --prefix ap $custom -dL
  "$TINYAOT" plan "$root/examples/tiny_cnn/tiny_cnn.tflite" -dL
} > /dev/null 2> lowering.txt
kernels=$(grep -o ' ta_[a-z0-9_]*' lowering.txt | sort -u | tr -d ' ' | paste -sd, -)
# shellcheck disable=SC2086
if "$TINYAOT" runtime -o rt --kernels "$kernels" > log 2>&1 &&
   "$TINYAOT" compile "$shared/models/kws_ref_model.tflite" -o kws --prefix kws --runtime rt >> log 2>&1 &&
   "$TINYAOT" compile "$shared/models/resnet8_int8.tflite" -o resnet --prefix resnet --runtime rt >> log 2>&1 &&
   "$TINYAOT" compile user_energy.tflite -o ap --prefix ap $custom --runtime rt >> log 2>&1 &&
   "$TINYAOT" compile "$root/examples/tiny_cnn/tiny_cnn.tflite" -o tc --prefix tc \
     --runtime rt --weights-section .ext_flash >> log 2>&1; then
  ok "three models and tiny_cnn compile against one runtime"
else
  notok "the models compile: $(head -n2 log)"
  exit 1
fi

cat > main.c <<'C'
/* Runs the three models once each, so that the linker keeps them. */
#include "ap.h"
#include "kws.h"
#include "resnet.h"
#include "tc.h"

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define WS MAX2(MAX2(KWS_WORKSPACE_SIZE, RESNET_WORKSPACE_SIZE), \
                MAX2(AP_WORKSPACE_SIZE, TC_WORKSPACE_SIZE))
static uint8_t ws[WS] __attribute__((aligned(16), section(".tinyaot_workspace")));
static uint8_t ps[AP_PERSISTENT_SIZE] __attribute__((aligned(16)));
static int8_t in8[4096], out8[64];
static int16_t in16[AP_INPUT0_SIZE / 2];

int main(void) {
  struct kws_inputs ki = {in8};
  struct kws_outputs ko = {out8};
  struct resnet_inputs ri = {in8};
  struct resnet_outputs ro = {out8};
  struct ap_inputs ai = {in16};
  struct ap_outputs ao = {out8};
  struct tc_inputs ti = {in8};
  struct tc_outputs to = {out8};
  ap_reset(ps);
  return kws_run(&ki, &ko, ws) | resnet_run(&ri, &ro, ws) | ap_run(&ai, &ao, ws, ps) |
         tc_run(&ti, &to, ws);
}
C

ldflags="$cpu -nostartfiles --specs=nano.specs -L$ex -T mps2-an386.ld -Wl,--gc-sections"
# shellcheck disable=SC2086
if $ARM_CC $cpu -O2 -std=c99 -Wall -Wextra -Werror -ffunction-sections -fdata-sections \
     -Ikws -Iresnet -Iap -Itc -Irt/include -I"$ex" $ldflags -o flat.elf \
     main.c user_energy.c "$ex/startup.c" "$ex/semihost.c" kws/*.c resnet/*.c ap/*.c tc/*.c \
     $(find rt -name '*.c' | sort) -lm > flat.log 2>&1; then
  ok "one arm-none-eabi-gcc command over every .c links a Cortex-M4F firmware"
else
  notok "one arm-none-eabi-gcc command over every .c links a firmware: $(grep -m3 -iE 'error|multiple' flat.log | tr '\n' ' ')"
fi

mkdir -p cm
cat > cm/CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.5)
project(fw C)
add_subdirectory($tmp/kws kws)
add_subdirectory($tmp/resnet resnet)
add_subdirectory($tmp/ap ap)
add_subdirectory($tmp/tc tc)
add_executable(fw.elf $tmp/main.c $tmp/user_energy.c $ex/startup.c $ex/semihost.c)
target_include_directories(fw.elf PRIVATE $ex)
target_link_libraries(fw.elf PRIVATE kws resnet ap tc m)
CM
if command -v cmake > /dev/null 2>&1; then
  if (cd cm && cmake -S . -B build -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=arm \
        -DCMAKE_C_COMPILER="$ARM_CC" -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
        -DCMAKE_C_FLAGS="$cpu -O2 -ffunction-sections -fdata-sections" \
        -DCMAKE_EXE_LINKER_FLAGS="$ldflags" > ../cmake.log 2>&1 &&
      cmake --build build >> ../cmake.log 2>&1); then
    ok "CMake (objects named *_weights.c.o) links the same firmware"
    obj=$(cd cm/build && find . -name 'kws_weights.c.o*' ! -name '*.d' | head -n1)
    if [ -n "$obj" ]; then
      ok "CMake names the weights object ${obj##*/}, which no *_weights.o rule matches"
    else
      notok "CMake names the weights object kws_weights.c.o[bj]: $(find cm/build -name 'kws_weights*')"
    fi
  else
    notok "CMake links the same firmware: $(grep -m3 -i error cmake.log | tr '\n' ' ')"
  fi
else
  echo "skip - cmake is not installed: the CMake half of the check did not run"
fi

# check ELF WHAT: every array the _weights.c files define is in its section.
check() {
  elf=$1
  what=$2
  [ -f "$elf" ] || return
  arm-none-eabi-readelf -SW "$elf" > sections.txt
  arm-none-eabi-nm -S --defined-only "$elf" > syms.txt
  for sec in .weights .ext_flash; do
    report=""
    line=$(awk -v s="$sec" '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == s { print $3, $5 }' sections.txt)
    if [ -z "$line" ]; then
      notok "$what: the firmware has a $sec section"
      continue
    fi
    start=$((0x${line% *}))
    size=$((0x${line#* }))
    if [ "$sec" = .weights ]; then models="kws resnet ap"; else models="tc"; fi
    total=0
    outside=""
    misaligned=""
    for m in $models; do
      bytes=0
      for sym in $(sed -n 's/^[A-Z_]*_WEIGHT_PRAGMA const [a-z0-9_]* \([a-z0-9_]*\)\[.*/\1/p' "$m/${m}_weights.c"); do
        row=$(awk -v s="$sym" '$4 == s { print $1, $2 }' syms.txt)
        if [ -z "$row" ]; then outside="$outside $sym(absent)"; continue; fi
        addr=$((0x${row% *}))
        len=$((0x${row#* }))
        if [ "$addr" -lt "$start" ] || [ $((addr + len)) -gt $((start + size)) ]; then
          outside="$outside $sym"
        fi
        [ $((addr % 16)) -eq 0 ] || misaligned="$misaligned $sym"
        bytes=$((bytes + len))
      done
      total=$((total + bytes))
      report="$report $m $bytes B,"
    done
    if [ -z "$outside" ] && [ "$total" -gt 0 ] && [ "$size" -ge "$total" ] &&
       [ $((size - total)) -lt 4096 ]; then
      ok "$what: $sec ($size bytes) holds every weight array of$report ${total} bytes in all"
    else
      notok "$what: $sec ($size bytes) holds every weight array ($total bytes): outside:$outside"
    fi
    if [ -z "$misaligned" ]; then
      ok "$what: every weight array in $sec starts on a 16-byte boundary"
    else
      notok "$what: every weight array in $sec starts on a 16-byte boundary: not$misaligned"
    fi
  done
  text=$(awk '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == ".text" { print $5 }' sections.txt)
  echo "# $what: .text $((0x${text:-0})) bytes; arm-none-eabi-size -A:"
  arm-none-eabi-size -A "$elf" | grep -E '^\.(text|weights|ext_flash|data|bss|workspace) ' | sed 's/^/#   /'
}
check flat.elf "flat build"
check cm/build/fw.elf "CMake build"

cd /
if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
