#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The tinyaot command line on bad usage and bad files: bad usage exits 2
# with a message and the usage text; a model or input that cannot be
# read (missing, a folder, empty, not a model) and an output folder that
# cannot be written exit 1 with one message naming the file; nothing
# aborts (status 134) or trips a sanitizer (the san pass runs the
# sanitizer build of tinyaot).
shared=${TINYAOT_SHARED:-../shared}
model=$shared/models/hello_world_int8.tflite
if [ ! -f "$model" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
  fi
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage ARGS...: exit status 2, "tinyaot: ..." or the usage text on stderr.
usage() {
  "$TINYAOT" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q '^usage: tinyaot' "$tmp/err" && [ ! -s "$tmp/out" ]; then
    echo "ok - 'tinyaot $*' is bad usage: exit 2 with the usage text"
  else
    echo "not ok - 'tinyaot $*' is bad usage: exit 2 with the usage text: exit $rc, stderr '$(head -c 200 "$tmp/err")'"
  fi
}

# refused FILE ARGS...: exit status 1, exactly one line on stderr, which
# starts with "FILE: ".
refused() {
  file=$1
  shift
  "$TINYAOT" "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  lines=$(wc -l < "$tmp/err")
  case $(head -n 1 "$tmp/err") in
    "$file: "?*) named=1 ;;
    *) named=0 ;;
  esac
  if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ $named -eq 1 ]; then
    echo "ok - 'tinyaot $*' exits 1 with one message naming $file"
  else
    echo "not ok - 'tinyaot $*' exits 1 with one message naming $file: exit $rc, stderr '$(head -c 300 "$tmp/err")'"
  fi
}

usage
usage bogus
usage --bogus
usage inspect
usage inspect "$model" "$model"
usage inspect "$model" --bogus
usage plan
usage plan "$model" --algo bogus
usage plan "$model" --schedule bogus
usage plan "$model" --align 3
usage plan "$model" --align 0
usage plan "$model" --pool 'bad name'
usage plan "$model" --pool sram:-5
usage plan "$model" --pool sram:12q
usage plan "$model" --pool sram --pool sram
usage plan "$model" --svg
usage plan "$model" -dQ
usage compile
usage compile "$model"
usage compile -o "$tmp/o"
usage compile "$model" -o
usage compile "$model" -o "$tmp/o" --bogus
usage compile "$model" -o ""
usage run "$model" -i "$tmp/in.bin" -o "$tmp/out.bin" --keep ""
usage compile "$model" -o "$tmp/o" --prefix 9lives
usage compile "$model" -o "$tmp/o" --prefix ''
usage compile "$model" -o "$tmp/o" --rounding half
usage compile "$model" -o "$tmp/o" --custom-op Foo
usage compile "$model" -o "$tmp/o" --custom-op Foo=1x
usage compile "$model" -o "$tmp/o" --custom-op-scratch Foo=10
usage compile "$model" -o "$tmp/o" --custom-op-scratch Foo=lots --custom-op Foo=f
usage run
usage run "$model"
usage run "$model" -i
usage run "$model" -i "$tmp/in.bin"
usage run "$model" -i "$tmp/in.bin" -o "$tmp/out.bin" --profile-out "$tmp/p.tsv"
usage report
usage report "$model" "$model"
usage report "$model" -o
usage report "$model" --profile-data
usage report "$model" --bogus

# Files that are not models.
: > "$tmp/empty.tflite"
printf 'not a model at all, just text\n' > "$tmp/text.tflite"
mkdir "$tmp/folder.tflite"
head -c 100 "$model" > "$tmp/cut.tflite"
refused "$tmp/missing.tflite" inspect "$tmp/missing.tflite"
refused "$tmp/missing.tflite" compile "$tmp/missing.tflite" -o "$tmp/o"
refused "$tmp/folder.tflite" inspect "$tmp/folder.tflite"
refused "$tmp/folder.tflite" compile "$tmp/folder.tflite" -o "$tmp/o"
refused "$tmp/folder.tflite" plan "$tmp/folder.tflite"
refused "$tmp/empty.tflite" inspect "$tmp/empty.tflite"
refused "$tmp/text.tflite" compile "$tmp/text.tflite" -o "$tmp/o"
refused "$tmp/cut.tflite" plan "$tmp/cut.tflite"
refused /dev/null inspect /dev/null
refused "$tmp/missing.tflite" report "$tmp/missing.tflite"
refused "$tmp/cut.tflite" report "$tmp/cut.tflite" --json

# Outputs that cannot be written: a file where the folder should be, a
# folder below a file, a place that cannot hold folders.
: > "$tmp/afile"
refused "$tmp/afile" compile "$model" -o "$tmp/afile"
refused "$tmp/afile/sub" compile "$model" -o "$tmp/afile/sub"
refused /proc/tinyaot-out compile "$model" -o /proc/tinyaot-out
refused "$tmp/afile/x.svg" plan "$model" --svg "$tmp/afile/x.svg"
refused "$tmp/afile/x.html" report "$model" -o "$tmp/afile/x.html"
# report: a profile that is missing, not a profile, or of another model.
printf '0\tCONV_2D\t5\n' > "$tmp/other.tsv"
refused "$tmp/missing.tsv" report "$model" --profile-data "$tmp/missing.tsv"
refused "$tmp/text.tflite" report "$model" --profile-data "$tmp/text.tflite"
refused "$tmp/other.tsv" report "$model" --profile-data "$tmp/other.tsv"

# run: an input that is missing, a folder, or of the wrong size.
head -c 1 /dev/zero > "$tmp/in.bin"
head -c 3 /dev/zero > "$tmp/in3.bin"
refused "$tmp/missing.bin" run "$model" -i "$tmp/missing.bin" -o "$tmp/out.bin"
refused "$tmp/folder.tflite" run "$model" -i "$tmp/folder.tflite" -o "$tmp/out.bin"
refused "$tmp/in3.bin" run "$model" -i "$tmp/in3.bin" -o "$tmp/out.bin"

# Outputs that would overwrite what is read: the model, an input.
cp "$model" "$tmp/precious.tflite"
refused "$tmp/precious.tflite" plan "$tmp/precious.tflite" --svg "$tmp/precious.tflite"
refused "$tmp/precious.tflite" run "$tmp/precious.tflite" -i "$tmp/in.bin" -o "$tmp/precious.tflite"
refused "$tmp/in.bin" run "$model" -i "$tmp/in.bin" -o "$tmp/in.bin"
if cmp -s "$model" "$tmp/precious.tflite" && [ "$(wc -c < "$tmp/in.bin")" -eq 1 ]; then
  echo "ok - the model and the input are intact after those refusals"
else
  echo "not ok - the model and the input are intact after those refusals"
fi

# A host compiler that does not exist: exit 1 naming it (not the
# shell's 127).
refused /nonexistent run "$model" -i "$tmp/in.bin" -o "$tmp/out.bin" --cc /nonexistent
refused no-such-cc-here run "$model" -i "$tmp/in.bin" -o "$tmp/out.bin" --cc no-such-cc-here

# A model path of more than 1,200 characters: the message still names
# the file (the middle of the path is cut).
deep=$tmp
while [ ${#deep} -lt 1200 ]; do deep=$deep/dddddddddddddddddddddddddddddddddddddddd; done
mkdir -p "$deep"
printf 'not a model at all, just text\n' > "$deep/long_named.tflite"
"$TINYAOT" inspect "$deep/long_named.tflite" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q '/long_named.tflite: ' "$tmp/err"; then
  echo "ok - a ${#deep}-character model path: exit 1, one message naming the file"
else
  echo "not ok - a ${#deep}-character model path: exit 1, one message naming the file: exit $rc, '$(head -c 300 "$tmp/err")'"
fi

# A pool the model does not use: no zero-size macro, and the code builds
# and runs.
"$TINYAOT" run "$model" -i "$tmp/in.bin" -o "$tmp/out.bin" --pool fast --pool spare \
  --keep "$tmp/pools" > "$tmp/out" 2> "$tmp/err"
rc=$?
h=$tmp/pools/hello_world_int8.h
if [ $rc -eq 0 ] && ! grep -q 'POOL_SPARE_SIZE' "$h" && grep -q '#define HELLO_WORLD_INT8_POOL_SPARE_UNUSED 1' "$h" &&
   grep -q '#define HELLO_WORLD_INT8_POOL_FAST_SIZE [1-9]' "$h"; then
  echo "ok - an unused pool gets _UNUSED instead of a zero _SIZE macro, and the model runs"
else
  echo "not ok - an unused pool gets _UNUSED instead of a zero _SIZE macro, and the model runs: exit $rc, $(grep POOL "$h" | head -3)"
fi

# And a good command still works after all that.
"$TINYAOT" compile "$model" -o "$tmp/good" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -f "$tmp/good/hello_world_int8.c" ]; then
  echo "ok - tinyaot compile writes the folder for a good model"
else
  echo "not ok - tinyaot compile writes the folder for a good model: exit $rc, $(head -c 200 "$tmp/err")"
fi
