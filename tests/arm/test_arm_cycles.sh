#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Cortex-M4 cycle estimate (tools/m4_cycles.c, tests/arm/lib.sh
# arm_cycles) on the hand-made micro-benchmarks of tests/arm/cycles/micro.S:
# straight-line code with multiplies, a divide, PUSH and POP; a sequence of
# loads and stores that do and do not pipeline; taken and not-taken
# branches to aligned 16-bit and unaligned 32-bit targets; an SMLAD dot
# product loop.  Each must give exactly the instructions and cycles counted
# by hand from the Technical Reference Manual's timings in micro.S's
# comments.  Then kws_ref_model at -O2: the instructions the trace counts
# inside net_run() must equal the board timer's count (+-40, the timer's
# resolution, plus the few instructions of the timer reads), so the window
# the estimate covers is the one the benchmark times, and the cycles per
# function and per mnemonic add up to the total.
#
# Plain pass of make test only (exit 77 in the san pass); skips loudly
# without the Cortex-M tools, fails instead with TINYAOT_REQUIRE_SHARED=1.
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
ARM_M4_CYCLES=$TINYAOT_BUILD/tools/m4_cycles
need_arm_tools "the cycle estimate"
if [ ! -x "$ARM_M4_CYCLES" ]; then
  echo "not ok - the estimator $ARM_M4_CYCLES is built (make test-build)"
  exit 1
fi
work=$TINYAOT_BUILD/arm-cycles-test
rm -rf "$work" && mkdir -p "$work"

# bench NAME INSTRUCTIONS CYCLES: the hand counts of micro.S's bench_NAME.
bench() {
  local b=$1 want_i=$2 want_c=$3 elf=$work/$1.elf out=$work/$1.cycles got_i got_c
  if ! $ARM_CC -mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles -DBENCH="bench_$b" \
       -Wl,-Ttext=0 -Wl,-Tbss=0x20000000 -Wl,-e,reset -o "$elf" \
       "$ARM_ROOT/tests/arm/cycles/micro.S" > "$work/$b.build.log" 2>&1; then
    echo "not ok - micro-benchmark bench_$b builds: $(head -n1 "$work/$b.build.log")"
    return
  fi
  if ! arm_cycles "$elf" "bench_$b" "$out" -semihosting-config enable=on,target=native; then
    echo "not ok - the estimator times bench_$b: $(head -n1 "$out.log")"
    return
  fi
  got_i=$(log_value "$out" instructions) got_c=$(log_value "$out" cycles)
  if [ "$got_i" = "$want_i" ] && [ "$got_c" = "$want_c" ]; then
    echo "ok - bench_$b takes the hand-counted $want_c cycles for $want_i instructions"
  else
    echo "not ok - bench_$b takes the hand-counted $want_c cycles for $want_i instructions: estimated $got_c cycles for $got_i instructions"
  fi
}
bench straight 10 32
bench loads 13 23
bench branches 46 68
bench smlad 48 68

# The estimator refuses what it cannot time, with a message.
elf=$work/straight.elf
"$ARM_OBJDUMP" -d "$elf" > "$work/straight.dis"
echo "Trace 0: 0x0 [00000000/00000020/00000000/00000000] bench_straight" |
  "$ARM_M4_CYCLES" "$work/straight.dis" bench_straight > /dev/null 2> "$work/err.log"
rc=$?
if [ $rc = 1 ] && grep -q "before it was translated" "$work/err.log"; then
  echo "ok - a block with no in_asm listing is an error, not a guess"
else
  echo "not ok - a block with no in_asm listing is an error, not a guess: exit $rc $(cat "$work/err.log")"
fi
"$ARM_M4_CYCLES" "$work/straight.dis" no_such_function < /dev/null > /dev/null 2> "$work/err.log"
rc=$?
if [ $rc = 1 ] && grep -q "no such function" "$work/err.log"; then
  echo "ok - an unknown function is an error"
else
  echo "not ok - an unknown function is an error: exit $rc $(cat "$work/err.log")"
fi

# The window is net_run(): the trace's instructions are the timer's.
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
m=kws_ref_model
need_shared_model $m
"$TINYAOT" compile "$model" -o "$work/gen" --prefix net > "$work/compile.log" 2>&1 ||
  { echo "not ok - $m compiles: $(head -n1 "$work/compile.log")"; exit 0; }
target_info m4
arm_build "$work/gen" "$work/build" m4 -O2 "$(sizes_of "$gold" input)" "$(sizes_of "$gold" output)" ||
  { echo "not ok - $m builds for the Cortex-M4F: $(grep -m1 -i error "$work/build/build.log")"; exit 0; }
arm_run "$work/build/runner.elf" m4 "$gold" "$work/run" ||
  { echo "not ok - $m runs under QEMU: $(tail -n1 "$work/run/run.log")"; exit 0; }
timer=$(( $(log_value "$work/run/run.log" ticks) * T_TICK_NS ))
mkdir -p "$work/run2"
if arm_cycles "$work/build/runner.elf" net_run "$work/kws.cycles" \
     -semihosting-config "enable=on,target=native,arg=runner,arg=$gold,arg=$work/run2"; then
  traced=$(log_value "$work/kws.cycles" instructions)
  cyc=$(log_value "$work/kws.cycles" cycles)
  d=$((traced - timer))
  if [ "$d" -ge -50 ] && [ "$d" -le 50 ]; then
    echo "ok - the trace counts the timer's instructions in $m's net_run() ($traced vs $timer; est. $cyc cycles)"
  else
    echo "not ok - the trace counts the timer's instructions in $m's net_run(): $traced vs $timer"
  fi
  sums=$(awk '$1 == "function" {fi += $3; fc += $4} $1 == "mnemonic" {mi += $4; mc += $5}
              END {printf "%.0f %.0f %.0f %.0f", fi, fc, mi, mc}' "$work/kws.cycles")
  if [ "$sums" = "$traced $cyc $traced $cyc" ]; then
    echo "ok - $m's cycles per function and per mnemonic add up to its total"
  else
    echo "not ok - $m's cycles per function and per mnemonic add up to its total: $sums vs $traced $cyc"
  fi
  if [ "$cyc" -ge "$traced" ]; then
    echo "ok - no fewer estimated cycles than instructions in $m ($cyc >= $traced)"
  else
    echo "not ok - no fewer estimated cycles than instructions in $m: $cyc < $traced"
  fi
else
  echo "not ok - the estimator times $m's net_run(): $(head -n1 "$work/kws.cycles.log")"
fi
