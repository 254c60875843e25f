#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tinyaot compile never loses a user's file (compiler/emit/outdir.c):
# it refuses to write over the input model, or over a file it did not
# write (CMakeLists.txt, P.c, P.h) unless --force; a failure while writing
# (a name too long, a file size limit) leaves the -o folder exactly as it
# was and no temporary folder behind; its manifest lets it replace its
# own files and remove its stale ones (another prefix, another model's
# kernel files) without touching anything else.
shared=${TINYAOT_SHARED:-../shared}
small=$shared/models/hello_world_int8.tflite
kws=$shared/models/kws_ref_model.tflite
for m in "$small" "$kws"; do
  if [ ! -f "$m" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared model $m exists (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - SHARED MODELS MISSING: no $m; set TINYAOT_SHARED"
    fi
    exit 0
  fi
done
# Absolute paths: the test works inside its own folder.
small=$(cd "$(dirname "$small")" && pwd)/$(basename "$small")
kws=$(cd "$(dirname "$kws")" && pwd)/$(basename "$kws")
TINYAOT=${TINYAOT:-build/tinyaot}
case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/w"
cd "$tmp/w" || exit 1   # the folders; the logs go to $tmp

# state DIR: every file under DIR with its checksum, and the folder's
# neighbours (a temporary folder left beside it would show).
state() {
  (cd "$1" && find . -type f -exec cksum {} + | sort)
  ls -a "$(dirname "$1")"
}

# refused WHAT PATTERN ARGS...: exit 1, one stderr line matching PATTERN,
# and the folder (the -o argument, found by the caller in $dir) unchanged.
refused() {
  what=$1 pattern=$2
  shift 2
  before=$(state "$dir")
  "$TINYAOT" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  rc=$?
  after=$(state "$dir")
  if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err.txt" &&
     [ "$before" = "$after" ]; then
    echo "ok - $what"
  else
    echo "not ok - $what: exit $rc, stderr '$(head -c 300 "$tmp/err.txt")'"
    [ "$before" = "$after" ] || echo "    (the folder changed)"
  fi
}

# accepted WHAT ARGS...: exit 0.
accepted() {
  what=$1
  shift
  if "$TINYAOT" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"; then
    echo "ok - $what"
  else
    echo "not ok - $what: exit $?, stderr '$(head -c 300 "$tmp/err.txt")'"
  fi
}

# holds WHAT CONDITION...: one check of a shell condition.
holds() {
  what=$1
  shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

# The input model named like a generated file, in the -o folder.
mkdir d
cp "$kws" d/m.c
dir=d
refused "compile d/m.c -o d refuses to overwrite the input model" \
  "d/m.c: is the input model" compile d/m.c -o d
refused "compile d/m.c -o d --force still refuses to overwrite the input model" \
  "d/m.c: is the input model" compile d/m.c -o d --force
holds "the input model is intact" cmp -s d/m.c "$kws"

# Files the user owns in the -o folder.
for f in CMakeLists.txt hello_world_int8.c hello_world_int8.h; do
  rm -rf p
  mkdir p
  echo "the user's own $f" > "p/$f"
  dir=p
  refused "compile refuses to overwrite the user's $f" \
    "p/$f: exists and was not written by tinyaot" compile "$small" -o p
  accepted "compile --force replaces the user's $f" compile "$small" -o p --force
  holds "--force wrote the generated $f" grep -q tinyaot "p/$f"
done

# -o . in a project root holding its own CMakeLists.txt.
mkdir proj
echo "project(mine)" > proj/CMakeLists.txt
dir=proj
(cd proj && "$TINYAOT" compile "$small" -o . > "$tmp/out.txt" 2> "$tmp/err.txt")
rc=$?
holds "compile -o . in a project root refuses to replace its CMakeLists.txt (exit 1)" \
  [ $rc -eq 1 ]
holds "the project's CMakeLists.txt is intact and nothing was written beside it" \
  [ "$(cat proj/CMakeLists.txt)" = "project(mine)" -a "$(ls -a proj | wc -l)" -eq 3 ]

# A folder of its own: compile twice, then another prefix, another model.
accepted "compile writes a new folder" compile "$kws" -o o
holds "the new folder has a manifest listing its files" \
  grep -qx kws_ref_model_weights.c o/.tinyaot-manifest
accepted "compile replaces its own files in a folder it wrote" compile "$kws" -o o
echo keep > o/notes.txt
echo keep > o/runtime/notes.txt
conv=$(grep -m1 '^runtime/conv/.*\.c$' o/.tinyaot-manifest)
holds "the kws folder holds a convolution kernel file" [ -n "$conv" -a -f "o/$conv" ]
accepted "compile writes another model into the folder it wrote" \
  compile "$small" -o o --prefix kws_ref_model
holds "the previous model's convolution kernel file is removed" [ ! -e "o/$conv" ]
accepted "compile writes another prefix into the folder it wrote" \
  compile "$small" -o o --prefix other
holds "the previous prefix's files are removed" \
  [ ! -e o/kws_ref_model.c -a ! -e o/kws_ref_model_weights.c -a -f o/other.c ]
holds "files the user added are kept" [ -f o/notes.txt -a -f o/runtime/notes.txt ]

# Failures while writing leave the folder as it was.
long=$(printf '%0250d' 0 | tr 0 a)
dir=o
refused "a 250-character prefix fails and leaves the existing folder unchanged" \
  "File name too long" compile "$small" -o o --prefix "$long"
dir=fresh
mkdir fresh
rmdir fresh
before=$(ls -a .)
"$TINYAOT" compile "$small" -o fresh --prefix "$long" > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
holds "a 250-character prefix exits 1 naming the file" \
  [ $rc -eq 1 -a "$(grep -c "^fresh/a*_weights.c: cannot write" "$tmp/err.txt")" -eq 1 ]
holds "a 250-character prefix creates no folder and leaves no temporary folder" \
  [ "$before" = "$(ls -a .)" ]
dir=o
before=$(state o)
(trap '' XFSZ; ulimit -f 8; "$TINYAOT" compile "$kws" -o o > "$tmp/out.txt" 2> "$tmp/err.txt")
rc=$?
holds "a file size limit while writing exits 1 (exit $rc: $(head -c 200 "$tmp/err.txt"))" [ $rc -eq 1 ]
holds "a file size limit while writing leaves the folder unchanged" [ "$before" = "$(state o)" ]
mkdir q
echo "mine" > q/runtime
dir=q
refused "a file named like the runtime folder is refused and kept" \
  "q/runtime: is in the way" compile "$small" -o q

# A manifest pointing outside the folder is refused, nothing removed.
echo precious > precious.txt
printf '../precious.txt\n' > o/.tinyaot-manifest
dir=o
refused "a manifest naming a path outside the folder is refused" \
  "line 1: '../precious.txt' is not a path inside the folder" compile "$small" -o o
holds "the file outside the folder is intact" [ "$(cat precious.txt)" = precious ]
