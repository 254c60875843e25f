#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm_kernels.sh - the kernel unit tests on Cortex-M.
#
# The kernels have paths of their own on cores with the DSP extension
# (runtime/include/ta_dsp.h).  This builds host-style kernel tests
# (ARM_KERNEL_TESTS, default tests/kernels/test_conv.c and
# test_misc.c: random shapes against tests/kernels/ref.h's transliteration of
# TFLite's reference loops, byte for byte) bare-metal with
# arm-none-eabi-gcc and newlib-nano for every target in ARM_TARGETS,
# tests/arm/libc_shim.c supplying stdout (semihosting) and the heap, and
# runs them under qemu-system-arm.  Every line the test prints is passed
# on with the target named; a build failure, a crash or a run without
# its "ok" lines is a "not ok".
#
# Plain pass of make test only (exit 77 in the san pass).  Environment:
# see tests/arm/lib.sh; ARM_KERNEL_TARGETS (target:flags pairs as
# ARM_TARGETS in tests/arm/test_arm.sh).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
ARM_WORK=${ARM_WORK:-$TINYAOT_BUILD/arm}/kernels
# A target's flags are separated by commas (m4:-O2,-DTA_NO_ASM: the C
# versions of the assembly loops).  ARM_KERNEL_TARGETS, else these three
# (make test); make check-arm adds -Os and the Cortex-M7.
ARM_TARGETS=${ARM_KERNEL_TARGETS:-"m4:-O2 m4:-O2,-DTA_NO_ASM m33:-O2"}
ARM_KERNEL_TESTS=${ARM_KERNEL_TESTS:-"test_conv test_misc"}

need_arm_tools "the kernel tests on Cortex-M"

R=$ARM_ROOT
for tc in $ARM_TARGETS; do
  t=${tc%%:*} opt=$(echo "${tc#*:}" | tr ',' ' ')
  target_info "$t"
  for k in $ARM_KERNEL_TESTS; do
    d=$ARM_WORK/$t$(echo "${tc#*:}" | tr -c 'a-zA-Z0-9\n' '_')
    mkdir -p "$d"
    flags="$T_CPU $opt -g -ffunction-sections -fdata-sections -std=c11 -I$R/compiler -I$R/compiler/passes \
           -I$R/runtime/include -I$R/tests -I$ARM_EXAMPLE"
    if ! { $ARM_CC $flags -Dmain=shim_test_main -c -o "$d/$k.o" "$R/tests/kernels/$k.c" &&
           $ARM_CC $flags "$d/$k.o" "$R/compiler/passes/quant.c" "$R/compiler/passes/quant_ops.c" \
             $(ls "$R"/runtime/*/*.c) "$R/tests/arm/libc_shim.c" "$ARM_EXAMPLE/startup.c" \
             "$ARM_EXAMPLE/semihost.c" -nostartfiles --specs=nano.specs -L"$ARM_EXAMPLE" \
             -T "$T_LD" -Wl,--gc-sections -Wl,--defsym=STACK_SIZE=65536 -o "$d/$k.elf" -lm
         } > "$d/$k.build.log" 2>&1; then
      echo "not ok - $k builds for $T_NAME $opt: $(grep -m1 -i error "$d/$k.build.log")"
      continue
    fi
    timeout "$ARM_TIMEOUT" "$ARM_QEMU" -machine "$T_MACHINE" -display none -monitor none \
      -serial none -semihosting-config "enable=on,target=native,arg=$k" \
      -kernel "$d/$k.elf" > "$d/$k.log" 2>&1
    rc=$?
    sed -n "s/^\(ok\|not ok\|skip\) - /\1 - $T_NAME $opt: /p" "$d/$k.log"
    if [ $rc -ne 0 ] && ! grep -q "^not ok" "$d/$k.log"; then
      echo "not ok - $k runs to the end on $T_NAME $opt: exit $rc, $(tail -n1 "$d/$k.log")"
    elif ! grep -q "^ok" "$d/$k.log"; then
      echo "not ok - $k reports its checks on $T_NAME $opt: $(tail -n1 "$d/$k.log")"
    fi
  done
done
