#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Patch-based execution (doc/memory-plan.md, 2d): vww_96_int8 and
# person_detect_int8 compiled with their early ops run band by band
# (--patch [START:]END:N, runs from op 0 and from later ops, several band
# counts), built and run on every
# golden case: every output equals TensorFlow Lite Micro's golden bytes,
# and every tensor case0 dumps (the run's output and everything after it)
# equals TFLM's dump.  Runs that cannot be patched are refused naming
# the op.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-patch-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

specs='vww_96_int8 3:24 7:12 1:1 2:3:5 1:3:8|person_detect_int8 3:24 6:7 13:2 2:4:12'
# The sanitizer pass builds every run with ASan and UBSan: one run each.
[ "${TINYAOT_PASS:-plain}" = san ] && specs='vww_96_int8 3:24 2:3:5|person_detect_int8 6:7'
old_ifs=$IFS
IFS='|'
set -- $specs
IFS=$old_ifs
for spec in "$@"; do
  set -- $spec
  m=$1
  shift
  gold=$shared/goldens/$m
  for cfg in "$@"; do
    d=$tmp/$m.$cfg
    mkdir -p "$d"
    io=""
    cases=""
    for c in case0 case1 case2 person no_person; do
      [ -f "$gold/$c/input0.bin" ] || continue
      io="$io -i $gold/$c/input0.bin -o $d/$c.bin"
      cases="$cases $c"
    done
    if ! "$TINYAOT" run "$shared/models/$m.tflite" --io-in-workspace --patch "$cfg" \
        --dump-tensors "$d/dump" $io > "$d/log" 2>&1; then
      notok "$m --patch $cfg compiles, builds and runs: $(head -n2 "$d/log" | tr '\n' ' ')"
      continue
    fi
    bad=""
    n=0
    for c in $cases; do
      cmp -s "$gold/$c/output0.bin" "$d/$c.bin" || bad="$bad $c"
      n=$((n + 1))
    done
    [ -z "$bad" ] && ok "$m --patch $cfg: the outputs of $n cases equal TFLM's golden bytes" \
                  || notok "$m --patch $cfg: outputs differ in$bad"
    bad=""
    n=0
    for f in "$d"/dump/t*.bin; do
      t=$(basename "$f")
      [ -f "$gold/case0/tensors/$t" ] || continue
      cmp -s "$gold/case0/tensors/$t" "$f" || bad="$bad $t"
      n=$((n + 1))
    done
    [ -z "$bad" ] && [ "$n" -gt 10 ] \
      && ok "$m --patch $cfg case0: the $n tensors it keeps whole equal TFLM's dump" \
      || notok "$m --patch $cfg case0: $n tensors compared, differing:$bad"
  done
done

# Runs that cannot be patched.
vww=$shared/models/vww_96_int8.tflite
expect_error() { # WHAT MESSAGE ARGS...
  what=$1 msg=$2
  shift 2
  if "$TINYAOT" plan "$vww" "$@" > "$tmp/e.log" 2>&1; then
    notok "$what is refused (it was accepted)"
  elif grep -qF -e "$msg" "$tmp/e.log"; then
    ok "$what is refused: $msg"
  else
    notok "$what is refused with '$msg' (got: $(head -n1 "$tmp/e.log"))"
  fi
}
expect_error "--patch 3:25 (24 output rows)" "op 3 (DEPTHWISE_CONV_2D): --patch 3:25: the output has 24 rows, so 1 to 24 bands" --patch 3:25
expect_error "--patch 28:2 (op 27 is an AVERAGE_POOL_2D)" "op 27 (AVERAGE_POOL_2D): cannot be part of a patched run: it is not an int8 CONV_2D or DEPTHWISE_CONV_2D" --patch 28:2
expect_error "--patch 0:2" "--patch 0:2: expected [START_OP:]END_OP:BANDS, END_OP after START_OP (default 0), BANDS positive" --patch 0:2
expect_error "--patch 3:2:4 (end before start)" "--patch 3:2:4: expected [START_OP:]END_OP:BANDS, END_OP after START_OP (default 0), BANDS positive" --patch 3:2:4
expect_error "--patch 26:28:2 (op 27 is an AVERAGE_POOL_2D)" "op 27 (AVERAGE_POOL_2D): cannot be part of a patched run" --patch 26:28:2
expect_error "--patch 2:3:25 (24 output rows)" "op 3 (DEPTHWISE_CONV_2D): --patch 2:3:25: the output has 24 rows, so 1 to 24 bands" --patch 2:3:25

# --ram-limit: the unpatched plan when it fits, else the patched run with
# the fewest MACs recomputed that fits, else a refusal naming the least
# RAM reached and the op at its peak.
ram_case() { # MODEL LIMIT EXPECTED-KEPT EXPECTED-WORKSPACE
  "$TINYAOT" plan "$shared/models/$1.tflite" --io-in-workspace --ram-limit "$2" \
    > "$tmp/r.log" 2>&1 || { notok "$1 --ram-limit $2 fits: $(head -n1 "$tmp/r.log")"; return; }
  kept=$(grep -E '<- kept \(fits\)' "$tmp/r.log" | awk '{print $1}')
  ws=$(sed -n 's/^workspace: \([0-9]*\) bytes.*/\1/p' "$tmp/r.log")
  [ "$kept" = "$3" ] && [ "$ws" = "$4" ] \
    && ok "$1 --ram-limit $2 keeps $3 ($4 bytes)" \
    || notok "$1 --ram-limit $2 keeps '$kept' ($ws bytes), expected '$3' ($4 bytes)"
}
ram_case vww_96_int8 65536 none 38112
ram_case vww_96_int8 33000 2:3:3 32688
ram_case vww_96_int8 32768 2:3:3 32688
ram_case vww_96_int8 30000 2:3:4 29616
ram_case person_detect_int8 24000 3:5 23328
# The residual ADDs in their convolutions' epilogues (--fuse-add) when
# the whole-tensor plan does not fit without them, then the convolutions
# at the peak in their lean form (--lean-conv: half the columns), before
# any patch.
ram_case resnet8_int8 40000 none 34448
ram_case resnet8_int8 34000 --fuse-add 33984
ram_case resnet8_int8 33500 --fuse-add+--lean-conv=2,1 33376
r8="$shared/models/resnet8_int8.tflite"
if "$TINYAOT" plan "$r8" --ram-limit 33000 > "$tmp/e.log" 2>&1; then
  notok "resnet8_int8 --ram-limit 33000 is refused (it was accepted)"
elif grep -qF "needs at least 33376 bytes (op 5 CONV_2D at the peak, with --fuse-add --lean-conv 2,1)" "$tmp/e.log"; then
  ok "resnet8_int8 --ram-limit 33000 is refused with the least RAM, reached with --fuse-add --lean-conv 2,1"
else
  notok "resnet8_int8 --ram-limit 33000 is refused naming --fuse-add --lean-conv 2,1 (got: $(head -n1 "$tmp/e.log"))"
fi
# --lean-conv by hand: the plan --ram-limit kept; refused on an op without
# a lean entry.
"$TINYAOT" plan "$r8" --io-in-workspace --fuse-add --lean-conv 2,1 > "$tmp/l.log" 2>&1
grep -q "^workspace: 33376 bytes" "$tmp/l.log" \
  && ok "--fuse-add --lean-conv 2,1 plans resnet8_int8 in 33376 bytes" \
  || notok "--fuse-add --lean-conv 2,1 plans resnet8_int8 in 33376 bytes: $(grep -m1 '^workspace\|error' "$tmp/l.log")"
expect_r8_error() { # WHAT MESSAGE ARGS...
  what=$1 msg=$2
  shift 2
  if "$TINYAOT" plan "$r8" "$@" > "$tmp/e.log" 2>&1; then
    notok "$what is refused (it was accepted)"
  elif grep -qF -e "$msg" "$tmp/e.log"; then
    ok "$what is refused: $msg"
  else
    notok "$what is refused with '$msg' (got: $(head -n1 "$tmp/e.log"))"
  fi
}
expect_r8_error "--lean-conv 12 (an AVERAGE_POOL_2D)" "op 12 (AVERAGE_POOL_2D): --lean-conv 12: not an int8 CONV_2D or 3 x 3 DEPTHWISE_CONV_2D on the DSP path" --lean-conv 12
expect_r8_error "--lean-conv 99" "--lean-conv 99: the model has 16 ops" --lean-conv 99
expect_r8_error "--lean-conv 2,x" "--lean-conv 2,x: expected op indices separated by commas" --lean-conv 2,x
"$TINYAOT" compile "$r8" --ram-limit 33500 -o "$tmp/r8" --prefix r8 > /dev/null 2>&1
n=$(grep -c 'st = ta_conv2d_fold_add_' "$tmp/r8/r8.c" 2>/dev/null)
a=$(grep -c 'st = ta_add_s8(' "$tmp/r8/r8.c" 2>/dev/null)
[ "$n" = 3 ] && [ "$a" = 0 ] && grep -q "op 3: ADD, computed in op 2's epilogue" "$tmp/r8/r8.c" \
  && ok "resnet8_int8 compiled under --ram-limit 33500 runs its 3 ADDs in the convolutions' epilogues" \
  || notok "resnet8_int8 under --ram-limit 33500: $n fused calls, $a ADD calls (expected 3 and 0)"
expect_error "vww_96_int8 --ram-limit 24576" \
  "vww_96_int8.tflite: --ram-limit 24576: needs at least 28080 bytes (op 0 CONV_2D at the peak, with --patch 1:3:8)" \
  --io-in-workspace --ram-limit 24576
if "$TINYAOT" plan "$vww" --io-in-workspace --ram-limit 24576 > /dev/null 2>&1; then
  notok "a refused --ram-limit exits non-zero"
else
  ok "a refused --ram-limit exits non-zero"
fi

# plan prints the plan compile writes, patched too; the JSON reports the run.
"$TINYAOT" plan "$vww" --io-in-workspace --ram-limit 33000 --json > "$tmp/p.json" 2> "$tmp/p.err"
"$TINYAOT" compile "$vww" --io-in-workspace --ram-limit 33000 -o "$tmp/c" --prefix v > /dev/null 2>&1
if [ "$(grep -v '"model":' "$tmp/p.json")" = "$(grep -v '"model":' "$tmp/c/v_plan.json")" ] &&
   grep -q '"patch": {"ops": \[2, 3\], "bands": 3, "band_bytes": 14256, "macs": 390144, "unpatched_macs": 377856, "extra_macs": 12288' "$tmp/p.json"; then
  ok "plan --json under --ram-limit 33000 is compile's v_plan.json (but the model's path), with the run, its band bytes and MACs"
else
  notok "plan --json under --ram-limit 33000 is compile's v_plan.json, with the run: $(grep -o '"patch": [^]]*' "$tmp/p.json" | head -c 200)"
fi
grep -q '"workspace_bytes": 32688' "$tmp/c/v_plan.json" && grep -q "V_WORKSPACE_SIZE 32688" "$tmp/c/v.h" \
  && ok "the header's workspace is the plan's 32688 bytes" \
  || notok "the header's workspace is the plan's 32688 bytes"

# The kept plan runs: person_detect_int8 under 24,000 bytes.
gold=$shared/goldens/person_detect_int8
io=""
for c in person no_person; do io="$io -i $gold/$c/input0.bin -o $tmp/r_$c.bin"; done
if "$TINYAOT" run "$shared/models/person_detect_int8.tflite" --io-in-workspace \
    --ram-limit 24000 $io > "$tmp/r.log" 2>&1 && cmp -s "$gold/person/output0.bin" "$tmp/r_person.bin" \
    && cmp -s "$gold/no_person/output0.bin" "$tmp/r_no_person.bin"; then
  ok "person_detect_int8 --ram-limit 24000 runs and equals TFLM's goldens"
else
  notok "person_detect_int8 --ram-limit 24000 runs and equals TFLM's goldens: $(head -n2 "$tmp/r.log" | tr '\n' ' ')"
fi

rm -rf "$tmp"
exit $fail
