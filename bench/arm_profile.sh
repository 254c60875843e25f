#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/arm_profile.sh - instructions per operator of one model on a
# Cortex-M (QEMU -icount shift=0, as bench/arm.sh), for finding where the
# time goes:
#
#   sh bench/arm_profile.sh MODEL [TARGET [FLAGS]]    (default m4 -O2)
#
# MODEL is a path to a .tflite or the name of a shared model; golden
# case0 is the input when there is one (else zeros).  This is tinyaot's
# one profiling mechanism: `tinyaot compile --profile` puts
# net_profile_hook() around every op and the generated net_profile.c
# sums each op's count; here its counter (NET_PROFILE_CLOCK) is the
# board's CMSDK timer, which the runner starts right before net_run() and
# which under -icount shift=0 advances once per T_TICK_NS (40 on the M4)
# instructions.  The runner prints the sums after the run
# (tests/arm/runner.c, prof_op / prof_count); this script prints one line
# per op - instructions (+-40), share, the op - then the sum over the ops
# next to the whole run as the runner timed it, fails when they differ by
# more than 1% and more than 40 per op (the difference is the hook's own
# calls and the timer's resolution), and writes the
# table in `tinyaot report --profile-data` format to
# $TINYAOT_BUILD/arm-profile/NAME/profile.tsv.
#
# With ARM_PROFILE_FUNCS=1 it also runs QEMU once more one instruction
# per translation block with -d exec (slow, a log of ~70 bytes per
# executed instruction in the work folder, deleted afterwards) and prints
# the instructions executed per function, the runner's included;
# ARM_PROFILE_ANNOTATE=FUNCTION adds FUNCTION's disassembly with the
# times each instruction ran.  ARM_PROFILE_OPTIONS: more options for
# tinyaot compile (for example "--ram-limit 33500").
ARM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
m=$1 t=${2:-m4} opt=${3:--O2}
[ -n "$m" ] || { echo "usage: $0 MODEL [TARGET [FLAGS]]" >&2; exit 2; }
if [ -f "$m" ]; then
  model=$m
  m=$(basename "$m")
  m=${m%.*}
else
  model=$TINYAOT_SHARED/models/$m.tflite
fi
[ -f "$model" ] || { echo "$0: no model $model" >&2; exit 2; }
dir=$TINYAOT_BUILD/arm-profile/$m
gold=$TINYAOT_SHARED/goldens/$m/case0
rm -rf "$dir/gen" && mkdir -p "$dir"
"$TINYAOT" compile "$model" -o "$dir/gen" --prefix net --profile $ARM_PROFILE_OPTIONS || exit 1
target_info "$t" || exit 2
if [ ! -d "$gold" ]; then # no golden: zeros of the inputs' sizes
  gold=$dir/zeros
  rm -rf "$gold" && mkdir -p "$gold"
  awk '$1 == "#define" && $2 ~ /^NET_INPUT[0-9]+_SIZE$/ {
         i = $2; gsub(/[^0-9]/, "", i); print i, $3 }' "$dir/gen/net.h" |
    while read -r i n; do head -c "$n" /dev/zero > "$gold/input$i.bin"; done
fi
# The counter: timer 0, which the runner starts at 0xffffffff counting
# down right before net_run(); its complement counts up from 0.
sed -i '1i #define NET_PROFILE_CLOCK prof_clock' "$dir/gen/net_profile.c"
printf '%s\n' '#include <stdint.h>' 'unsigned long prof_clock(void);' \
  'unsigned long prof_clock(void) {' \
  "  return (unsigned long)~*(volatile uint32_t *)($T_TIMER + 0x4);" '}' \
  > "$dir/gen/prof_clock.c"
ins=$(sizes_of "$gold" input)
outs=$(awk '$1 == "#define" && $2 ~ /^NET_OUTPUT[0-9]+_SIZE$/ {
              printf "%s%s", s, $3; s = "," }' "$dir/gen/net.h")
arm_build "$dir/gen" "$dir/build" "$t" "$opt" "$ins" "$outs" || {
  cat "$dir/build/build.log"; exit 1; }
arm_run "$dir/build/runner.elf" "$t" "$gold" "$dir/out" || {
  echo "$0: the run failed"; cat "$dir/out/run.log"; exit 1; }
# One line per op (names from the generated hook calls), the totals, and
# the profile file.
awk -v tick="$T_TICK_NS" -v gen="$dir/gen/net.c" -v tsv="$dir/profile.tsv" \
    -v model="$m" -v tname="$T_NAME" '
  BEGIN {
    while ((getline l < gen) > 0)
      if (l ~ /net_profile_hook\([0-9]+, ".*", 0\);/) {
        n = l; sub(/.*hook\(/, "", n); sub(/,.*/, "", n)
        s = l; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); name[n] = s
      }
  }
  $1 == "ticks" { whole = $2 * tick }
  $1 == "prof_op" { op = $2 }
  $1 == "prof_count" { count[op] = $2 * tick; total += $2 * tick; if (op + 1 > nops) nops = op + 1 }
  END {
    printf "per-op profile of %s on %s (QEMU -icount: instructions, +-%d each)\n", model, tname, tick
    printf "# tinyaot profile of %s: unit instructions, 1 runs (QEMU, %s)\nop\tname\tcount\n", model, tname > tsv
    printf "%5s  %-28s %14s %7s\n", "op", "name", "instructions", "share"
    for (i = 0; i < nops; i++) {
      printf "%5d  %-28s %14.0f %6.2f%%\n", i, name[i], count[i], total ? 100 * count[i] / total : 0
      printf "%d\t%s\t%.0f\n", i, name[i], count[i] > tsv
    }
    printf "total\t-\t%.0f\n", whole > tsv
    printf "ops total %.0f instructions; whole run %.0f (ops / whole run = %.2f%%)\n", total, whole,
           whole ? 100 * total / whole : 0
    # Each op is read to +-tick: a small model may be off by more than 1%
    # but not by more than tick per op.
    slack = whole * 0.01 > tick * nops ? whole * 0.01 : tick * nops
    if (!nops || !whole || total > whole + slack || total < whole - slack) {
      print "the per-op sum is off the whole run by more than 1% and +-" tick \
            " per op, the timer resolution (or missing)"; exit 1 }
  }' "$dir/out/run.log" || exit 1
echo "wrote $dir/profile.tsv (tinyaot report $model --profile-data $dir/profile.tsv)"
if [ "${ARM_PROFILE_FUNCS:-0}" = 1 ]; then
  echo
  rm -rf "$dir/trace-out" && mkdir -p "$dir/trace-out"
  timeout "$ARM_TIMEOUT" "$ARM_QEMU" -machine "$T_MACHINE" -display none -monitor none \
    -serial none -icount shift=0 -singlestep -d exec,nochain -D "$dir/trace.log" \
    -semihosting-config "enable=on,target=native,arg=runner,arg=$gold,arg=$dir/trace-out" \
    -kernel "$dir/build/runner.elf" > /dev/null 2>&1
  awk '/^Trace/ {n[$NF]++} END {for (f in n) printf "%10.0f  %s\n", n[f], f}' "$dir/trace.log" |
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
