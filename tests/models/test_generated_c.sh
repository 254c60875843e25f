#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The generated C itself: for every model of the golden set, and for
# kws_ref_model with the other layouts (inputs and outputs in the
# workspace, two pools, single rounding) and vww_96_int8 with patched runs,
# every generated file compiles
# with gcc and clang under -std=c99 -Wall -Wextra -Werror -pedantic; the
# output is byte-identical when compiled twice, from another directory;
# a model with an op no kernel handles is refused with a message naming
# the op.  Plain pass only (nothing here runs generated code).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-genc-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
STRICT="-std=c99 -Wall -Wextra -Werror -pedantic"
compilers=""
for c in gcc clang; do command -v $c > /dev/null 2>&1 && compilers="$compilers $c"; done

# strict DIR WHAT: compiles every .c of DIR with each compiler.
strict() {
  for cc in $compilers; do
    log=$tmp/$cc.log
    if (cd "$1" && for f in $(find . -name '*.c' | sort); do
          $cc $STRICT -O2 -I. -Iruntime/include -c -o /dev/null "$f" || exit 1
        done) > "$log" 2>&1; then
      ok "$2 compiles with $cc $STRICT"
    else
      notok "$2 compiles with $cc $STRICT: $(grep -m2 -E 'error|warning' "$log" | tr '\n' ' ')"
    fi
  done
}

for m in kws_ref_model ds_cnn_s_int8 vww_96_int8 person_detect_int8 resnet8_int8 \
         ad01_int8 micro_speech_int8 hello_world_int8 simple_add_int8; do
  if "$TINYAOT" compile "$shared/models/$m.tflite" -o "$tmp/$m" > "$tmp/c.log" 2>&1; then
    strict "$tmp/$m" "$m's generated code"
  else
    notok "$m compiles: $(head -n1 "$tmp/c.log")"
  fi
done

kws=$shared/models/kws_ref_model.tflite
for variant in "--io-in-caller-buffers" "--pool sram:20000 --pool ext" \
               "--rounding single --align 64" "--prefix a_b2"; do
  d=$tmp/variant
  rm -rf "$d"
  if "$TINYAOT" compile "$kws" -o "$d" $variant > "$tmp/c.log" 2>&1; then
    strict "$d" "kws_ref_model's generated code with $variant"
  else
    notok "kws_ref_model compiles with $variant: $(head -n1 "$tmp/c.log")"
  fi
done

# A patched run (the band loop and its tables).
vww=$shared/models/vww_96_int8.tflite
for variant in "--io-in-workspace --patch 3:24" "--patch 7:5" "--io-in-workspace --patch 2:3:5"; do
  d=$tmp/variant
  rm -rf "$d"
  if "$TINYAOT" compile "$vww" -o "$d" $variant > "$tmp/c.log" 2>&1; then
    strict "$d" "vww_96_int8's generated code with $variant"
  else
    notok "vww_96_int8 compiles with $variant: $(head -n1 "$tmp/c.log")"
  fi
done

# Residual ADDs in their convolutions' epilogues.
d=$tmp/variant
rm -rf "$d"
if "$TINYAOT" compile "$shared/models/resnet8_int8.tflite" -o "$d" --fuse-add > "$tmp/c.log" 2>&1; then
  strict "$d" "resnet8_int8's generated code with --fuse-add"
else
  notok "resnet8_int8 compiles with --fuse-add: $(head -n1 "$tmp/c.log")"
fi

# Deterministic, and independent of the working directory.
"$TINYAOT" compile "$kws" -o "$tmp/d1" --prefix kws > /dev/null 2>&1
mkdir -p "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$TINYAOT" compile "$kws" -o ../d2 --prefix kws) > /dev/null 2>&1
if diff -r "$tmp/d1" "$tmp/d2" > "$tmp/diff.log" 2>&1; then
  ok "compiling the same model twice, from two directories, gives identical folders"
else
  notok "compiling the same model twice gives identical folders: $(head -n3 "$tmp/diff.log" | tr '\n' ' ')"
fi

# An op no kernel handles is refused, naming the model, the op and its name:
# a copy of the audio preprocessor whose first custom op is renamed to one
# tinyaot does not know (the name has the same length, so the file stays
# valid).
perl -0777 -pe 's/SignalWindow/NoSuchOp1234/' "$shared/models/audio_preprocessor_int8.tflite" \
  > "$tmp/unknown_op.tflite"
"$TINYAOT" compile "$tmp/unknown_op.tflite" -o "$tmp/unknown" > "$tmp/unknown.log" 2>&1
rc=$?
msg=$(head -n1 "$tmp/unknown.log")
case "$rc:$msg" in
  1:*unknown_op.tflite:\ op\ 0\ *NoSuchOp1234*not\ supported*)
    ok "a model with an unsupported op is refused with exit 1 naming it ($msg)" ;;
  *) notok "a model with an unsupported op is refused with exit 1 naming it: exit $rc, '$msg'" ;;
esac

if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
