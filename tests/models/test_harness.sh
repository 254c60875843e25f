#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The harness of `tinyaot run` catches a runner that leaves its
# workspace: hello_world_int8 is built with --keep, its header is edited
# to announce a workspace 16 bytes smaller than planned, and the harness
# is rebuilt (tinyaot_build.sh) and run.  It must fail: in the plain pass
# the guard zone check reports the write outside the workspace, in the
# san pass AddressSanitizer stops it (the workspace is a heap block of
# exactly the announced size).  An unedited build passes, so the failure
# comes from the edit.
shared=${TINYAOT_SHARED:-../shared}
TINYAOT=${TINYAOT:-build/tinyaot}
if [ ! -f "$shared/models/SHA256SUMS" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared models are at $shared (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - SHARED MODELS MISSING: $shared has no models/; set TINYAOT_SHARED"
  exit 0
fi
tmp=$(mktemp -d /tmp/tinyaot-harness-XXXXXX)
m=hello_world_int8
g=$shared/goldens/$m/case0
fail=0
if ! "$TINYAOT" run "$shared/models/$m.tflite" -i "$g/input0.bin" -o "$tmp/out.bin" \
     --keep "$tmp/k" --prefix hw > "$tmp/log" 2>&1; then
  echo "not ok - $m runs with --keep: $(tail -n1 "$tmp/log")"
  exit 1
fi
echo "ok - $m runs with --keep and its exact workspace"
size=$(awk '$2 == "HW_WORKSPACE_SIZE" { print $3 }' "$tmp/k/hw.h")
if [ -z "$size" ] || [ "$size" -le 16 ]; then
  echo "not ok - $m's workspace is over 16 bytes (got '$size'): the test lost its point"
  exit 1
fi
sed -i "s/^#define HW_WORKSPACE_SIZE $size\$/#define HW_WORKSPACE_SIZE $((size - 16))/" "$tmp/k/hw.h"
sh "$tmp/k/tinyaot_build.sh" > "$tmp/build.log" 2>&1 || {
  echo "not ok - the kept folder rebuilds with tinyaot_build.sh: $(head -n2 "$tmp/build.log" | tr '\n' ' ')"
  exit 1
}
"$tmp/k/tinyaot_harness" "$g/input0.bin" "$tmp/out2.bin" > "$tmp/run.log" 2>&1
rc=$?
if [ "${TINYAOT_PASS:-plain}" = san ]; then
  if [ $rc -ne 0 ] && grep -q "AddressSanitizer" "$tmp/run.log"; then
    echo "ok - AddressSanitizer stops a runner given 16 bytes less than it needs"
  else
    echo "not ok - AddressSanitizer stops a runner given 16 bytes less than it needs: exit $rc, $(head -n3 "$tmp/run.log" | tr '\n' ' ')"
    fail=1
  fi
else
  if [ $rc -eq 4 ] && grep -q "wrote outside the workspace" "$tmp/run.log"; then
    echo "ok - the guard zones catch a runner given 16 bytes less than it needs ($(head -n1 "$tmp/run.log"))"
  else
    echo "not ok - the guard zones catch a runner given 16 bytes less than it needs: exit $rc, $(head -n2 "$tmp/run.log" | tr '\n' ' ')"
    fail=1
  fi
fi
if [ $fail -eq 0 ]; then rm -rf "$tmp"; else echo "# kept $tmp"; fi
exit $fail
