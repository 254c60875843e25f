#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/arm.sh - what every model costs on a Cortex-M4F (make bench-arm).
#
# For each shared model with goldens (../shared/models/*.tflite and the
# ONNX models, named onnx/NAME, whose float outputs must be within
# ARM_ONNX_TOL, default 1e-4, relative error of ONNX Runtime's: the
# largest difference over the output's largest magnitude, as
# tests/arm/test_arm_onnx.sh holds them) that `tinyaot compile`
# accepts: build the generated code and
# kernels with arm-none-eabi-gcc for a Cortex-M4F at -O2 and at -Os (the
# targets in ARM_BENCH_TARGETS), run golden case0 under qemu-system-arm
# -machine mps2-an386 -icount shift=0, check the outputs against the
# golden, and report
#   flash   code = the generated <prefix>.c plus the kernels it uses (text,
#           read-only data, initial values), weights = <prefix>_weights.c,
#           both from the linker's map file (tests/arm/mapsize.awk);
#   RAM     workspace (the .workspace section, <PREFIX>_WORKSPACE_SIZE),
#           persistent state (<PREFIX>_PERSISTENT_SIZE: the state of models
#           with variable tensors, plus anything the generated code and
#           kernels keep in .data/.bss, normally nothing), I/O buffers
#           (the model's inputs and outputs, each rounded to 16 bytes), and
#           the stack high-water of one <prefix>_run() call, measured by
#           painting the stack;
#   instructions per inference: CMSDK timer 0 ticks around <prefix>_run()
#           times 40.  With -icount shift=0 QEMU's virtual clock advances
#           1 ns per instruction and the timer ticks at 25 MHz, so this is
#           an INSTRUCTION COUNT (+-40), not silicon cycles: QEMU has no
#           cycle model.  Deterministic: it does not depend on the host.
#   estimated Cortex-M4 cycles (M4 rows only): the same call run once more
#           with QEMU's execution trace streamed into tools/m4_cycles,
#           which prices every executed instruction with the Cortex-M4
#           TRM's timings at zero wait states (doc/cortex-m.md,
#           "Estimated Cortex-M4 cycles"); a row whose traced instruction
#           count is more than 50 off the timer's says "trace off" (the
#           estimator's whole output, cycles per mnemonic and per function
#           too, stays in $ARM_WORK/MODEL/m4FLAGS/cycles); a
#           run of more than ARM_CYCLES_MAX instructions (default
#           300000000: the trace runs some 30 times slower than the
#           plain run) is not estimated;
# ARM_COMPILE_OPTS adds compile options (for instance "--ram-limit
# 32768"; by default the inputs and outputs are inside the workspace and
# the runner takes them where <prefix>_io() puts them, I/O 0 bytes; with
# --io-in-caller-buffers they are the runner's own buffers).
#
# and the ratio to TensorFlow Lite Micro's instruction counts on the same
# emulated board (reference kernels and CMSIS-NN) from anchors.md, and the
# estimated cycles beside the best published MLPerf Tiny Cortex-M4 cycles
# for the four MLPerf Tiny models.
#
# Writes the table to $TINYAOT_BUILD/bench/arm.md and prints it; every row
# also goes, tab-separated with a header line, to $TINYAOT_BUILD/bench/arm.tsv
# (read by bench/models_doc.sh for doc/models.md).
ARM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
TINYAOT_SHARED=${TINYAOT_SHARED:-$ARM_ROOT/../shared}
ARM_WORK=${ARM_BENCH_WORK:-$TINYAOT_BUILD/arm-bench}
ARM_BENCH_TARGETS=${ARM_BENCH_TARGETS:-"m4:-O2 m4:-Os"}
ARM_JOBS=${ARM_JOBS:-2}
ARM_M4_CYCLES=$TINYAOT_BUILD/tools/m4_cycles
ARM_CYCLES_MAX=${ARM_CYCLES_MAX:-300000000}
ARM_ONNX_TOL=${ARM_ONNX_TOL:-1e-4}
export TINYAOT TINYAOT_SHARED ARM_WORK ARM_BENCH_TARGETS ARM_ROOT ARM_M4_CYCLES ARM_CYCLES_MAX ARM_COMPILE_OPTS \
  ARM_ONNX_TOL

# header_value FILE NAME: the value of #define NAME in FILE, 0 without one.
header_value() {
  awk -v n="$2" '$1 == "#define" && $2 == n {print $3; f = 1; exit} END {if (!f) print 0}' "$1"
}

# bench_model NAME: one row per target into $ARM_WORK/rows/NAME.  A model
# whose image overflows the board's 4 MiB flash is linked with its weights
# in the board's 16 MiB PSRAM, standing in for external flash
# (tests/arm/mps2-*-xweights.ld, chosen by arm_build in tests/arm/lib.sh;
# the float32 MobileNets and SqueezeNet of ../shared/models/onnx) and runs
# as any other; one that overflows that too gets the status "flash
# overflow by N B" and, for RAM and weights, the header's sizes and the
# weights object's .weights section (no run, no code size).
bench_model() {
  local m model gold dir ins outs dts tc t opt b rc ok sz instr needs over cyc traced
  m=$1 gold=$TINYAOT_SHARED/goldens/$m dir=$ARM_WORK/$m
  model=$TINYAOT_SHARED/models/$m.tflite
  # ONNX models (onnx/NAME): float32, within the ONNX relative tolerance.
  case $m in
    onnx/*) model=$TINYAOT_SHARED/models/$m.onnx ARM_RELATIVE=$ARM_ONNX_TOL ;;
  esac
  rm -rf "$dir/gen" && mkdir -p "$dir"
  if ! "$TINYAOT" compile "$model" -o "$dir/gen" --prefix net $ARM_COMPILE_OPTS \
       > "$dir/compile.log" 2>&1; then
    echo "$m	unsupported	$(head -n1 "$dir/compile.log" | sed "s|^$TINYAOT_SHARED/models/||" | tr '\t' ' ')"
    return
  fi
  ins=$(sizes_of "$gold/case0" input)
  outs=$(sizes_of "$gold/case0" output)
  dts=$(output_dtypes "$gold/manifest.json")
  for tc in $ARM_BENCH_TARGETS; do
    t=${tc%%:*} opt=${tc#*:}
    target_info "$t"
    b=$dir/$t$opt
    if ! arm_build "$dir/gen" "$b" "$t" "$opt" "$ins" "$outs"; then
      over=$(sed -n "s/.*region .FLASH. overflowed by \([0-9]*\) bytes.*/\1/p" "$b/build.log" | head -n1)
      if [ -n "$over" ]; then
        # Too big for the board's flash: what is known without running,
        # the weights' section in their object and the header's sizes.
        printf '%s\t%s %s\tflash overflow by %s B\t\t\t%s\t%s\t%s\t%s\n' "$m" "$T_NAME" "$opt" "$over" \
          "$("$ARM_SIZE" -A "$b/obj/net_weights.o" 2>/dev/null | awk '$1 == ".weights" {print $2}')" \
          "$(header_value "$dir/gen/net.h" NET_WORKSPACE_SIZE)" \
          "$(header_value "$dir/gen/net.h" NET_PERSISTENT_SIZE)" "$(io_bytes "$ins,$outs")"
        continue
      fi
      echo "$m	$T_NAME $opt	build failed: $(grep -m1 -i error "$b/build.log" | tr '\t' ' ')"
      continue
    fi
    arm_run "$b/runner.elf" "$t" "$gold/case0" "$b/case0"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "$m	$T_NAME $opt	run failed: exit $rc $(tail -n1 "$b/case0/run.log")"
      continue
    fi
    ok=yes
    compare_outputs "$gold/case0" "$b/case0" "$dts" "" > /dev/null || ok=WRONG
    awk -v prefix=net -f "$ARM_ROOT/tests/arm/mapsize.awk" "$b/runner.map" > "$b/sizes"
    sz() { awk -v k="$1" '$1 == k {print $2; f = 1} END {if (!f) print 0}' "$b/sizes"; }
    # The sum of every size whose key starts with $1 (flash_, ram_).
    sz_all() { awk -v p="$1" 'index($1, p) == 1 {t += $2} END {print t - 0}' "$b/sizes"; }
    instr=$(( $(log_value "$b/case0/run.log" ticks) * T_TICK_NS ))
    cyc=- traced=-
    if [ "$t" = m4 ] && [ "$instr" -gt "$ARM_CYCLES_MAX" ]; then
      cyc="not estimated (over ARM_CYCLES_MAX instructions)"
    elif [ "$t" = m4 ]; then
      mkdir -p "$b/cycles-out"
      if arm_cycles "$b/runner.elf" net_run "$b/cycles" -semihosting-config \
           "enable=on,target=native,arg=runner,arg=$gold/case0,arg=$b/cycles-out"; then
        cyc=$(log_value "$b/cycles" cycles) traced=$(log_value "$b/cycles" instructions)
        [ $((traced - instr)) -ge -50 ] && [ $((traced - instr)) -le 50 ] || cyc="trace off"
      else
        cyc="estimate failed: $(head -n1 "$b/cycles.log" | tr '\t' ' ')"
      fi
    fi
    needs=$(awk '$1 == "needs_gen" || $1 == "needs_rt" {for (i = 2; i <= NF; i++) print $i}' \
            "$b/sizes" | sort -u | tr '\n' ' ')
    printf '%s\t%s %s\tok\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$T_NAME" "$opt" \
      "$(sz flash_gen)" "$(sz flash_rt)" "$(sz flash_weights)" \
      "$(log_value "$b/case0/run.log" workspace)" \
      "$(( $(log_value "$b/case0/run.log" persistent) + $(sz ram_gen) + $(sz ram_rt) ))" "$(log_value "$b/case0/run.log" io)" \
      "$(log_value "$b/case0/run.log" stack_run)" "$instr" "$ok" "${needs:-none}" \
      "$(sz_all flash_)" "$(sz_all ram_)" \
      "$(log_value "$b/case0/run.log" stack_top)" "$cyc" "$traced"
  done
}

case $1 in
  --model) shift; mkdir -p "$(dirname "$ARM_WORK/rows/$1")"
           bench_model "$1" > "$ARM_WORK/rows/$1"; exit 0 ;;
esac

arm_tools_present || { echo "bench-arm: needs $ARM_CC and $ARM_QEMU" >&2; exit 1; }
[ -x "$TINYAOT" ] || { echo "bench-arm: $TINYAOT is not built" >&2; exit 1; }
mkdir -p "$ARM_WORK/rows" "$TINYAOT_BUILD/bench"
build_compare || exit 1
models=${ARM_MODELS:-$(cd "$TINYAOT_SHARED/goldens" && for d in */ onnx/*/; do
  [ -f "$d/manifest.json" ] && { [ -f "../models/${d%/}.tflite" ] || [ -f "../models/${d%/}.onnx" ]; } &&
    echo "${d%/}"; done)}
echo $models | tr ' ' '\n' | xargs -P "$ARM_JOBS" -I{} sh "$0" --model {}

# TFLM's Cortex-M4F instruction counts: "| model | ref | 43,039,480 | ..."
anchors=$ARM_WORK/anchors.tsv
awk -F'|' '/^## Cortex-M4F in emulation/ {on = 1}
           on && NF > 5 {
             m = $2; v = $3; n = $4
             gsub(/[ ,]/, "", m); gsub(/[ ,]/, "", v); gsub(/[ ,]/, "", n)
             if (n ~ /^[0-9]+$/) {
               line = m "\t" v "\t" n
               for (i = 5; i <= 9; i++) { x = $i; gsub(/[ ,]/, "", x); line = line "\t" x }
               print line
             }
           }' "$TINYAOT_SHARED/anchors.md" > "$anchors"

# Every row, machine-readable, for bench/models_doc.sh (doc/models.md).
{
  printf 'model\ttarget\tstatus\tcode_gen\tcode_kernels\tweights\tworkspace\tpersistent\tio\tstack\tinstructions\toutputs_match\tlibc\tflash_image\tram_static\tstack_top\test_m4_cycles\ttraced_instructions\n'
  for m in $models; do cat "$ARM_WORK/rows/$m"; done
} > "$TINYAOT_BUILD/bench/arm.tsv"

report=$TINYAOT_BUILD/bench/arm.md
{
  echo "## Cortex-M4F (QEMU mps2-an386), one inference of golden case0"
  echo
  echo "Instructions are QEMU instruction counts (-icount shift=0, CMSDK timer,"
  echo "+-40), NOT silicon cycles. Ratios: ours / TFLM's count on the same"
  echo "emulated board (anchors.md; < 1 means fewer instructions than TFLM)."
  echo "Code = generated <prefix>.c + kernels (flash, excluding weights)."
  echo "Stack = high-water of one <prefix>_run() call (painted stack)."
  echo "Est. M4 cycles = the same call's executed instructions priced with the"
  echo "Cortex-M4 TRM's timings, zero wait states (tools/m4_cycles.c; an"
  echo "estimate, not a measurement: doc/cortex-m.md, \"Estimated Cortex-M4"
  echo "cycles\"); Cortex-M4 rows only."
  echo
  echo "| model | flags | code: generated + kernels (B) | weights (B) | workspace (B) | persistent (B) | I/O buffers (B) | stack (B) | RAM total (B) | instructions / inference | est. M4 cycles | cycles / instr | vs TFLM ref | vs TFLM CMSIS-NN | outputs | libc used |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
  for m in $models; do
    awk -F'\t' -v anchors="$anchors" '
      BEGIN { while ((getline l < anchors) > 0) { split(l, a, "\t"); tflm[a[1], a[2]] = a[3] } }
      function ratio(v, x) { return (x > 0) ? sprintf("%.2f", v / x) : "-" }
      $2 == "unsupported" { printf "| %s | not supported yet | %s |\n", $1, $3; next }
      $3 != "ok" { printf "| %s | %s | %s |\n", $1, $2, $3; next }
      {
        code = $4 + $5; ram = $7 + $8 + $9 + $10
        cyc = ($17 ~ /^[0-9]+$/) ? sprintf("%.0f", $17) : $17
        cpi = ($17 ~ /^[0-9]+$/ && $11 > 0) ? sprintf("%.2f", $17 / $11) : "-"
        printf "| %s | %s | %.0f (%.0f + %.0f) | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s | %s |\n",
          $1, $2, code, $4, $5, $6, $7, $8, $9, $10, ram, $11, cyc, cpi,
          ratio($11, tflm[$1, "ref"]), ratio($11, tflm[$1, "cmsis_nn"]),
          ($12 == "yes" ? "match golden" : "WRONG"), $13
      }' "$ARM_WORK/rows/$m"
  done
  echo
  echo "### Estimated Cortex-M4 cycles beside MLPerf Tiny's best"
  echo
  echo "Est. M4 cycles as above: every instruction one cycle, plus the TRM's"
  echo "extra cycles, split here by cause: single loads and stores not"
  echo "pipelined (LDR 2, pipelined 1; STR [Rn, Rm] 2), LDRD/STRD (3),"
  echo "LDM/STM/PUSH/POP (1 + N), branch refills (taken: P = 1, 2 to an"
  echo "unaligned 32-bit target, 3 after a load into the PC), address stalls"
  echo "(an address from the instruction just before), divides (12 assumed),"
  echo "floating point. MLPerf Tiny best = the fewest Cortex-M4 cycles in"
  echo "MLPerf Tiny's published inference results: STM32Cube.AI 9.0 on an"
  echo "STM32L4R5 at 120 MHz (flash wait states and all: a measurement, where"
  echo "ours is an estimate at zero wait states)."
  echo
  echo "| model | flags | instructions | est. M4 cycles | cycles / instr | MLPerf Tiny best (M4 cycles) | est. / best | + loads, stores | + LDRD, STRD | + LDM, STM | + branch refills | + address stalls | + divides | + FP |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for m in $models; do
    awk -F'\t' -v work="$ARM_WORK" '
      BEGIN { best["kws_ref_model"] = 5180000; best["vww_96_int8"] = 10670000
              best["resnet8_int8"] = 19820000; best["ad01_int8"] = 486000 }
      $3 == "ok" && $17 ~ /^[0-9]+$/ {
        split($2, f, " "); file = work "/" $1 "/m4" f[2] "/cycles"
        delete v
        while ((getline l < file) > 0) { split(l, kv, " "); v[kv[1]] = kv[2] }
        close(file)
        b = ($1 in best) ? sprintf("%.0f", best[$1]) : "-"
        r = ($1 in best) ? sprintf("%.2f", $17 / best[$1]) : "-"
        printf "| %s | %s | %.0f | %.0f | %.2f | %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n",
          $1, $2, $18, $17, $17 / $18, b, r, v["extra_load"] + v["extra_store"],
          v["extra_ldrd"] + v["extra_strd"], v["extra_ldm"] + v["extra_stm"],
          v["refill_cycles"] + v["extra_tbb"], v["address_stalls"], v["extra_divide"],
          v["extra_fp"] + v["extra_fp_load_store"]
      }' "$ARM_WORK/rows/$m"
  done
  echo
  echo "### Whole image against TensorFlow Lite Micro (Cortex-M4F, anchors.md)"
  echo
  echo "Image w/o weights = everything in flash but <prefix>_weights.c: generated"
  echo "code, kernels, runner (semihosting I/O), start-up code, the libc/libgcc"
  echo "members used; TFLM's 'flash w/o model' is the same for its image."
  echo "RAM total = .data + .bss (I/O buffers included) + workspace + stack peak"
  echo "of the whole program, as TFLM's 'RAM total'. Ratios: ours / TFLM."
  echo
  echo "| model | flags | image w/o weights (B) | vs TFLM ref | vs TFLM CMSIS-NN | RAM total (B) | vs TFLM ref | vs TFLM CMSIS-NN |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  for m in $models; do
    awk -F'\t' -v anchors="$anchors" '
      BEGIN { while ((getline l < anchors) > 0) { split(l, a, "\t");
                flash[a[1], a[2]] = a[8]; ram[a[1], a[2]] = a[7] } }
      function ratio(v, x) { return (x > 0) ? sprintf("%.2f", v / x) : "-" }
      $3 == "ok" && (($1, "ref") in flash) {
        img = $14 - $6; ramt = $15 + $7 + $16
        printf "| %s | %s | %.0f | %s | %s | %.0f | %s | %s |\n", $1, $2,
          img, ratio(img, flash[$1, "ref"]), ratio(img, flash[$1, "cmsis_nn"]),
          ramt, ratio(ramt, ram[$1, "ref"]), ratio(ramt, ram[$1, "cmsis_nn"])
      }' "$ARM_WORK/rows/$m"
  done
} > "$report"
cat "$report"
