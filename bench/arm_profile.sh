#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/arm_profile.sh - instructions per operator of one model on a
# Cortex-M (QEMU -icount shift=0, as bench/arm.sh), for finding where the
# time goes:
#
#   sh bench/arm_profile.sh MODEL [TARGET [FLAGS]]    (default m4 -O2)
#
# Compiles MODEL, builds it with the generated code's tensor hook
# (NET_TENSOR_HOOK) pointing at a function that reads the CMSDK timer
# each time an op has produced its output, runs golden case0 and prints
# one line per op: instructions (+-40), the op's comment line from the
# generated code.  The hook's own printing is not counted (the timer is
# read again when it returns).  Work folder: $TINYAOT_BUILD/arm-profile.
#
# With ARM_PROFILE_FUNCS=1 it also runs QEMU once more one instruction
# per translation block with -d exec (slow, a log of ~70 bytes per
# executed instruction in the work folder, deleted afterwards) and prints
# the instructions executed per function, the runner's included;
# ARM_PROFILE_ANNOTATE=FUNCTION adds FUNCTION's disassembly with the
# times each instruction ran.
ARM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
m=$1 t=${2:-m4} opt=${3:--O2}
[ -n "$m" ] || { echo "usage: $0 MODEL [TARGET [FLAGS]]" >&2; exit 2; }
dir=$TINYAOT_BUILD/arm-profile/$m
gold=$TINYAOT_SHARED/goldens/$m
rm -rf "$dir/gen" && mkdir -p "$dir"
"$TINYAOT" compile "$TINYAOT_SHARED/models/$m.tflite" -o "$dir/gen" --prefix net || exit 1
# The hook: one timer read on entry (the op's end), print, one on exit.
sed -i '1i #define NET_TENSOR_HOOK prof_hook' "$dir/gen/net.c"
target_info "$t"
cat > "$dir/gen/prof_hook.c" <<EOF
#include <stddef.h>
#include <stdint.h>
#include "semihost.h"
#define TIMER_VALUE (*(volatile uint32_t *)($T_TIMER + 0x4))
void prof_hook(int tensor, const void *data, size_t bytes);
void prof_hook(int tensor, const void *data, size_t bytes) {
  static uint32_t last;
  static int started;
  uint32_t now = TIMER_VALUE;
  (void)data;
  (void)bytes;
  if (started)
    sh_put_kv("prof_tensor", (uint32_t)tensor), sh_put_kv("prof_ticks", last - now);
  started = 1;
  last = TIMER_VALUE;
}
EOF
cp "$ARM_EXAMPLE/semihost.h" "$dir/gen/"
ins=$(sizes_of "$gold/case0" input)
outs=$(sizes_of "$gold/case0" output)
arm_build "$dir/gen" "$dir/build" "$t" "$opt" "$ins" "$outs" || {
  cat "$dir/build/build.log"; exit 1; }
arm_run "$dir/build/runner.elf" "$t" "$gold/case0" "$dir/out"
# Pair each "t N / ticks K" with the op comment that produced tensor N.
awk -v tick="$T_TICK_NS" -v gen="$dir/gen/net.c" '
  BEGIN {
    while ((getline l < gen) > 0) {
      if (l ~ /\/\* op [0-9]+:/) { c = l; sub(/^ *\/\* /, "", c) }
      if (l ~ /NET_TENSOR\([0-9]+,/ && c != "") {
        n = l; sub(/.*NET_TENSOR\(/, "", n); sub(/,.*/, "", n); op[n] = c; c = "" }
    }
  }
  $1 == "prof_tensor" { t = $2 }
  $1 == "prof_ticks" && (t in op) { printf "%10d  %s\n", $2 * tick, op[t]; total += $2 * tick }
  $1 == "prof_ticks" && !(t in op) { total += $2 * tick }
  END { printf "%10d  total\n", total }' "$dir/out/run.log"
if [ "${ARM_PROFILE_FUNCS:-0}" = 1 ]; then
  echo
  rm -rf "$dir/trace-out" && mkdir -p "$dir/trace-out"
  timeout "$ARM_TIMEOUT" "$ARM_QEMU" -machine "$T_MACHINE" -display none -monitor none \
    -serial none -icount shift=0 -singlestep -d exec,nochain -D "$dir/trace.log" \
    -semihosting-config "enable=on,target=native,arg=runner,arg=$gold/case0,arg=$dir/trace-out" \
    -kernel "$dir/build/runner.elf" > /dev/null 2>&1
  awk '/^Trace/ {n[$NF]++} END {for (f in n) printf "%10d  %s\n", n[f], f}' "$dir/trace.log" |
    sort -rn | head -n "${ARM_PROFILE_TOP:-25}"
  if [ -n "$ARM_PROFILE_ANNOTATE" ]; then
    echo
    awk -v f="$ARM_PROFILE_ANNOTATE" '/^Trace/ && $NF == f {split($4, a, "/"); n[a[2]]++}
         END {for (pc in n) print pc, n[pc]}' "$dir/trace.log" > "$dir/annotate.counts"
    arm-none-eabi-objdump -d --no-show-raw-insn "$dir/build/runner.elf" |
      awk -v f="<$ARM_PROFILE_ANNOTATE>:" -v counts="$dir/annotate.counts" '
        BEGIN { while ((getline l < counts) > 0) { split(l, a, " "); n[a[1]] = a[2] } }
        $0 ~ f { on = 1; next }
        on && /^$/ { exit }
        on { pc = $1; sub(":", "", pc); pc = sprintf("%08s", pc); gsub(/ /, "0", pc)
             printf "%10s %s\n", (pc in n) ? n[pc] : "", $0 }'
  fi
  rm -f "$dir/trace.log"
fi
