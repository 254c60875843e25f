#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/lib.sh - build tinyaot-generated code for a Cortex-M and run it
# under QEMU.  Sourced by tests/arm/test_arm.sh and bench/arm.sh; also
# runnable: sh tests/arm/lib.sh FUNCTION ARGS... (used for parallel jobs).
#
# Targets (ARM_TARGET names):
#   m4   Cortex-M4F  -mfpu=fpv4-sp-d16   qemu mps2-an386
#   m7   Cortex-M7   -mfpu=fpv5-d16      qemu mps2-an500
#   m33  Cortex-M33  -mfpu=fpv5-sp-d16   qemu mps2-an505
# Every run uses -icount shift=0: the virtual clock advances 1 ns per
# executed instruction, so the board's CMSDK timer (25 MHz on AN386/AN500,
# 20 MHz on AN505: one tick per 40 / 50 ns) counts instructions, not
# cycles, independent of the host's load.
#
# Environment: TINYAOT (compiler), TINYAOT_SHARED, ARM_WORK (build
# folder), ARM_TIMEOUT (seconds per QEMU run, default 300), ARM_CC
# (default arm-none-eabi-gcc), ARM_ATOL/ARM_RTOL (float32 tolerance),
# ARM_M4_CYCLES (the cycle estimator, default $TINYAOT_BUILD/tools/m4_cycles).

ARM_ROOT=${ARM_ROOT:-$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)}
ARM_CC=${ARM_CC:-arm-none-eabi-gcc}
ARM_SIZE=${ARM_SIZE:-arm-none-eabi-size}
ARM_QEMU=${ARM_QEMU:-qemu-system-arm}
ARM_TIMEOUT=${ARM_TIMEOUT:-300}
ARM_ATOL=${ARM_ATOL:-1e-6}
ARM_RTOL=${ARM_RTOL:-1e-5}
ARM_EXAMPLE=$ARM_ROOT/examples/cortex-m
ARM_OBJDUMP=${ARM_OBJDUMP:-arm-none-eabi-objdump}
ARM_M4_CYCLES=${ARM_M4_CYCLES:-${TINYAOT_BUILD:-$ARM_ROOT/build}/tools/m4_cycles}

# target_info TARGET: sets T_CPU (flags), T_MACHINE, T_LD (linker script),
# T_BIG_LD (the same board with RAM in its 16 MiB PSRAM, for models whose
# RAM overflows the 4 MiB SSRAM), T_XW_LD (the same board with the weights
# in its PSRAM, standing in for external flash, for models whose image
# overflows the 4 MiB flash), T_TIMER, T_TICK_NS (instructions per timer
# tick), T_NAME.
target_info() {
  case $1 in
    m4) T_CPU="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
        T_MACHINE=mps2-an386 T_LD=mps2-an386.ld T_TIMER=0x40000000u T_TICK_NS=40
        T_BIG_LD=mps2-an386-psram.ld T_XW_LD=mps2-an386-xweights.ld T_NAME="Cortex-M4F" ;;
    m7) T_CPU="-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16"
        T_MACHINE=mps2-an500 T_LD=mps2-an386.ld T_TIMER=0x40000000u T_TICK_NS=40
        T_BIG_LD=mps2-an500-psram.ld T_XW_LD=mps2-an500-xweights.ld T_NAME="Cortex-M7" ;;
    m33) T_CPU="-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16"
         T_MACHINE=mps2-an505 T_LD=mps2-an505.ld T_TIMER=0x50000000u T_TICK_NS=50
         T_BIG_LD=mps2-an505-psram.ld T_XW_LD=mps2-an505-xweights.ld T_NAME="Cortex-M33" ;;
    *) echo "lib.sh: unknown target $1" >&2; return 1 ;;
  esac
}

# arm_tools_present: 0 when the cross compiler and QEMU are installed.
arm_tools_present() {
  command -v "$ARM_CC" >/dev/null 2>&1 && command -v "$ARM_QEMU" >/dev/null 2>&1
}

# need_arm_tools WHAT: without the cross compiler or QEMU the script ends
# here: a loud "skip" line naming WHAT is not run, or, when
# TINYAOT_REQUIRE_SHARED=1 (CI, whose .ci/run installs them), a failure.
need_arm_tools() {
  arm_tools_present && return 0
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - $ARM_CC and $ARM_QEMU are installed (.ci/run installs them)"
    exit 1
  fi
  echo "skip - CORTEX-M TOOLS MISSING: install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm ($1 not run)"
  exit 0
}

# need_shared_model NAME: sets $model and $gold (golden case0) of the
# shared model NAME in $TINYAOT_SHARED; without them the script ends
# with a loud "skip", or a failure when TINYAOT_REQUIRE_SHARED=1.
need_shared_model() {
  model=$TINYAOT_SHARED/models/$1.tflite
  gold=$TINYAOT_SHARED/goldens/$1/case0
  [ -f "$model" ] && [ -d "$gold" ] && return 0
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the shared model $model and its goldens exist (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING: no $model or $gold; set TINYAOT_SHARED"
  exit 0
}

# sizes_of DIR PREFIX: comma-separated byte sizes of DIR/PREFIX0.bin,
# DIR/PREFIX1.bin, ... in index order.
sizes_of() {
  local i=0 out="" s
  while [ -f "$1/$2$i.bin" ]; do
    s=$(wc -c < "$1/$2$i.bin" | tr -d ' ')
    out="${out:+$out,}$s"
    i=$((i + 1))
  done
  echo "$out"
}

# io_bytes SIZES...: the sum of the sizes rounded up to 16 bytes each.
io_bytes() {
  echo "$*" | tr ',' '\n' | awk 'NF {t += int(($1 + 15) / 16) * 16} END {print t + 0}'
}

# arm_build GEN_DIR OUT_DIR TARGET OPT IN_SIZES OUT_SIZES [STACK]
# Compiles every .c under GEN_DIR (the generated model and the runtime
# sources it uses) with the runner and the example's start-up code into
# OUT_DIR/runner.elf (+ runner.map), linked with the board's script, or,
# when that overflows RAM, T_BIG_LD, or, when it overflows FLASH, T_XW_LD
# (the script used goes to OUT_DIR/layout).  Skipped when OUT_DIR holds a
# build of exactly the same sources, harness and flags.  Compiler messages
# go to OUT_DIR/build.log; returns non-zero on failure.
arm_build() {
  local gen=$1 out=$2 opt=$4 ins=$5 outs=$6 stack=${7:-65536}
  local incs d common objs src o ld key
  target_info "$3" || return 1
  # The same sources, harness and flags as last time: keep the build.
  key=$( (find "$gen" -type f | LC_ALL=C sort | xargs cat
          cat "$ARM_ROOT/tests/arm/runner.c" "$ARM_ROOT/tests/arm/lib.sh" \
              "$ARM_EXAMPLE"/*.c "$ARM_EXAMPLE"/*.h "$ARM_EXAMPLE"/*.ld "$ARM_ROOT"/tests/arm/*.ld
          echo "$3 $opt $ins $outs $stack $ARM_CC") | cksum)
  if [ -f "$out/runner.elf" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
    return 0
  fi
  rm -rf "$out" && mkdir -p "$out/obj"
  incs="-I$gen"
  for d in $(find "$gen" -name '*.h' -exec dirname {} \; | sort -u); do
    incs="$incs -I$d"
  done
  common="$T_CPU $opt -g -ffunction-sections -fdata-sections -fno-common"
  objs=""
  : > "$out/build.log"
  for src in $(find "$gen" -name '*.c' | sort); do
    o="$out/obj/$(echo "${src#$gen/}" | tr '/' '_' | sed 's/\.c$/.o/')"
    $ARM_CC $common -std=c99 -pedantic -Wall -Wextra -Werror $incs \
      -c -o "$o" "$src" >> "$out/build.log" 2>&1 || return 1
    objs="$objs $o"
  done
  for src in "$ARM_ROOT/tests/arm/runner.c" "$ARM_EXAMPLE/startup.c" "$ARM_EXAMPLE/semihost.c"; do
    o="$out/obj/harness_$(basename "$src" .c).o"
    $ARM_CC $common -std=c99 -Wall -Wextra -Werror $incs -I"$ARM_EXAMPLE" \
      -DIN_SIZES="$ins" -DOUT_SIZES="$outs" -DIO_BYTES="$(io_bytes "$ins,$outs")" \
      -DTIMER_BASE="$T_TIMER" -c -o "$o" "$src" >> "$out/build.log" 2>&1 || return 1
    objs="$objs $o"
  done
  ld=$T_LD
  while :; do
    $ARM_CC $T_CPU -nostartfiles --specs=nano.specs -L"$ARM_EXAMPLE" \
      -L"$ARM_ROOT/tests/arm" -T "$ld" -Wl,--gc-sections -Wl,-Map="$out/runner.map" \
      -Wl,--defsym=STACK_SIZE="$stack" -o "$out/runner.elf" $objs -lm \
      > "$out/link.log" 2>&1 && { echo "$ld" > "$out/layout"; echo "$key" > "$out/key"; return 0; }
    cat "$out/link.log" >> "$out/build.log"
    [ "$ld" = "$T_LD" ] || return 1
    if grep -q "region .FLASH. overflowed" "$out/link.log"; then
      ld=$T_XW_LD
    elif grep -q "region .RAM. overflowed" "$out/link.log"; then
      ld=$T_BIG_LD
    else
      return 1
    fi
  done
}

# arm_run ELF TARGET CASE_DIR OUT_DIR [STEPS]: runs the runner under QEMU
# (bounded by ARM_TIMEOUT); OUT_DIR is emptied first, the runner's stdout
# goes to OUT_DIR/run.log.  Returns
# the runner's exit status (124 on timeout).
arm_run() {
  local args
  target_info "$2" || return 1
  rm -rf "$4" && mkdir -p "$4"
  args="arg=runner,arg=$3,arg=$4"
  [ -n "$5" ] && args="$args,arg=$5"
  timeout "$ARM_TIMEOUT" "$ARM_QEMU" -machine "$T_MACHINE" -display none \
    -monitor none -serial none -icount shift=0 \
    -semihosting-config "enable=on,target=native,$args" \
    -kernel "$1" > "$4/run.log" 2>&1
}

# arm_cycles ELF FUNCTION OUT_FILE [QEMU ARGS...]: the estimated Cortex-M4
# cycles of the one call of FUNCTION in ELF (tools/m4_cycles.c): runs
# ELF once more under mps2-an386 with -d in_asm,exec,nochain (no -icount:
# the trace, not the clock, counts here) and streams QEMU's log straight
# into the estimator, so the log (a line per executed translation block,
# hundreds of MB for the larger models) is never written.  The
# estimator's "key value" lines, its cycles per mnemonic and per function
# included, go to OUT_FILE; returns non-zero when QEMU
# (or the guest: its exit status) or the estimator fails (messages in
# OUT_FILE.log).  QEMU ARGS are e.g. the runner's -semihosting-config.
arm_cycles() {
  local elf=$1 fn=$2 out=$3 rc
  shift 3
  "$ARM_OBJDUMP" -d "$elf" > "$out.dis" || return 1
  # QEMU's log is its stderr; the guest's semihosting output joins it and
  # the estimator skips it.
  { timeout "$ARM_TIMEOUT" "$ARM_QEMU" -machine mps2-an386 -display none -monitor none \
      -serial none -d in_asm,exec,nochain "$@" -kernel "$elf" 2>&1
    echo $? > "$out.qemu"; } | "$ARM_M4_CYCLES" -m -f "$out.dis" "$fn" > "$out" 2> "$out.log"
  rc=$?
  [ "$(cat "$out.qemu")" = 0 ] || { echo "qemu exited $(cat "$out.qemu")" >> "$out.log"; rc=1; }
  rm -f "$out.dis" "$out.qemu"
  return $rc
}

# log_value FILE KEY: the value of "KEY value" in a run.log.
log_value() {
  awk -v k="$2" '$1 == k {print $2; exit}' "$1"
}

# output_dtypes MANIFEST: the dtype of every model output, one a line,
# from the manifest's top-level "outputs" list.
output_dtypes() {
  awk '/^ "outputs": \[/ {on = 1; next}
       on && /^ \]/ {exit}
       on && /"dtype":/ {gsub(/[",]/, ""); print $2}' "$1"
}

# compare_outputs GOLD_DIR OUT_DIR DTYPES PREFIX: compares every output
# file; prints the first mismatch ("outputI: ...") and returns 1, or
# returns 0.  PREFIX is "" or "step<k>_" for the written files.  With
# ARM_RELATIVE=TOL, float32 outputs are held to the ONNX models' measure
# (compare --relative TOL: the largest difference over the largest
# magnitude) instead of ARM_ATOL + ARM_RTOL per element.
compare_outputs() {
  local i=0 dt msg
  for dt in $3; do
    if [ -n "$ARM_RELATIVE" ] && [ "$dt" = float32 ]; then
      msg=$("$ARM_WORK/compare" --relative "$ARM_RELATIVE" "$1/output$i.bin" \
            "$2/$4output$i.bin") || { echo "output$i $msg"; return 1; }
    else
      msg=$("$ARM_WORK/compare" "$dt" "$ARM_ATOL" "$ARM_RTOL" "$1/output$i.bin" \
            "$2/$4output$i.bin") || { echo "output$i $msg"; return 1; }
    fi
    i=$((i + 1))
  done
  return 0
}

# build_compare: the host comparison tool, once per ARM_WORK.
build_compare() {
  [ -x "$ARM_WORK/compare" ] && [ "$ARM_WORK/compare" -nt "$ARM_ROOT/tests/arm/compare.c" ] && return 0
  mkdir -p "$ARM_WORK"
  ${CC:-cc} -O2 -o "$ARM_WORK/compare" "$ARM_ROOT/tests/arm/compare.c" -lm
}

# As a script: sh lib.sh FUNCTION ARGS...
case $0 in
  *lib.sh) [ $# -gt 0 ] && { fn=$1; shift; "$fn" "$@"; } ;;
esac
