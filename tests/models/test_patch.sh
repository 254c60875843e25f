#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Patch-based execution (doc/memory-plan.md, 2d): vww_96_int8 and
# person_detect_int8 compiled with their early ops run band by band
# (--patch END:N, several runs and band counts), built and run on every
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

for spec in "vww_96_int8 3:24 7:12 1:1" "person_detect_int8 3:24 6:7 13:2"; do
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
expect_error "--patch 0:2" "--patch 0:2: expected END_OP:BANDS, both positive" --patch 0:2

rm -rf "$tmp"
exit $fail
