#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every identifier the user gives that reaches the generated C - the
# prefix (--prefix, or the model file's stem), pool names (--pool) and
# custom-op functions (--custom-op NAME=FUNCTION) - is checked up front
# (compiler/emit/names.c): over a list of hostile names, each is either
# refused as bad usage (exit 2, one line naming the option) or the
# generated code compiles: P.c and P_weights.c with -std=c99 -Wall
# -Wextra -Werror -pedantic, and P.h as C++ when a C++ compiler is there.
shared=${TINYAOT_SHARED:-../shared}
model=$shared/models/hello_world_int8.tflite
audio=$shared/models/audio_preprocessor_int8.tflite
for m in "$model" "$audio"; do
  if [ ! -f "$m" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared model $m exists (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - SHARED MODELS MISSING: no $m; set TINYAOT_SHARED"
    fi
    exit 0
  fi
done
TINYAOT=${TINYAOT:-build/tinyaot}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
cxx=
command -v c++ > /dev/null 2>&1 && cxx=c++
# The custom-op model: audio_preprocessor_int8 with SignalEnergy renamed
# UserEnergy12 (same length: the file stays valid), as test_custom_op.sh.
perl -0777 -pe 's/SignalEnergy/UserEnergy12/' "$audio" > "$tmp/user_energy.tflite"

hostile="int static class template bool typeof restrict asm _Bool _x __y
a__b x_ int8_t size_t NULL offsetof errno INT8_MAX UINT16_C FLT_MAX SIZE_MAX
ta ta_kernels ta_types ta_kernels_ops ta_fixedpoint TA_OK Ta_kernels conv_x8
stdint math tinyaot_harness main ws st ws_sram outputs i Model m int8 sram
hello_world_int8_run HELLO_WORLD_INT8_X user_energy_run USER_ENERGY_SIZE"

# check KIND NAME DIR ARGS...: compile; refused as usage naming KIND, or
# the generated C compiles.
check() {
  kind=$1 name=$2 dir=$3
  shift 3
  "$TINYAOT" compile "$@" -o "$dir" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -eq 2 ]; then
    if [ "$(grep -c '^tinyaot: ' "$tmp/err")" -ge 1 ] &&
       head -n 1 "$tmp/err" | grep -q -- "^tinyaot: $kind"; then
      echo "ok - $kind '$name' is refused, naming the option: $(head -n 1 "$tmp/err")"
    else
      echo "not ok - $kind '$name' is refused with a message naming $kind: '$(head -n 1 "$tmp/err")'"
    fi
    return
  fi
  if [ $rc -ne 0 ]; then
    echo "not ok - $kind '$name' is refused as usage or compiles: exit $rc, '$(head -c 300 "$tmp/err")'"
    return
  fi
  built=1
  for c in "$dir"/*.c; do
    $cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$dir" -I"$dir/runtime/include" \
      -c "$c" -o "$tmp/x.o" > "$tmp/cc" 2>&1 || built=0
    [ $built = 1 ] || break
  done
  if [ $built = 1 ] && [ -n "$cxx" ]; then
    for h in "$dir"/*.h; do
      printf '#include "%s"\n' "$h" > "$tmp/x.cc"
      $cxx -std=c++17 -Wall -Wextra -Werror -fsyntax-only "$tmp/x.cc" > "$tmp/cc" 2>&1 || built=0
    done
  fi
  if [ $built = 1 ]; then
    echo "ok - $kind '$name' is accepted and the generated code compiles"
  else
    echo "not ok - $kind '$name' is accepted and the generated code compiles: $(head -c 400 "$tmp/cc")"
  fi
  rm -rf "$dir"
}

n=0
for name in $hostile; do
  n=$((n + 1))
  check --prefix "$name" "$tmp/p$n" "$model" --prefix "$name"
  check --pool "$name" "$tmp/q$n" "$model" --pool "$name:64k" --pool other
  check --custom-op "$name" "$tmp/c$n" "$tmp/user_energy.tflite" \
    --custom-op "UserEnergy12=$name"
done
long=$(printf '%0200d' 0 | tr 0 p)
check --prefix "200 p's" "$tmp/long" "$model" --prefix "$long"

# Pools that differ only in case, a default prefix that is a keyword.
check --pool "sram and SRAM" "$tmp/case" "$model" --pool sram --pool SRAM
cp "$model" "$tmp/int.tflite"
"$TINYAOT" compile "$tmp/int.tflite" -o "$tmp/int" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^tinyaot: the prefix 'int' (the model file's name; give --prefix NAME)" "$tmp/err"; then
  echo "ok - a model file named int.tflite is refused unless --prefix names another prefix"
else
  echo "not ok - a model file named int.tflite is refused unless --prefix: exit $rc, '$(head -n 1 "$tmp/err")'"
fi
