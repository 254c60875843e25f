#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The host example (examples/host): its Makefile compiles
# person_detect_int8 with tinyaot, builds the generated library and the
# demo, and the demo classifies TFLM's two test images as TFLM's own
# person_detection_test does: person for person/, no person for
# no_person/.  Plain pass only.
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-example-XXXXXX)
if ! make -C examples/host run TINYAOT="$TINYAOT" SHARED="$shared" BUILD="$tmp" \
     > "$tmp/log" 2>&1; then
  echo "not ok - examples/host builds and runs: $(grep -m2 -iE 'error|fail' "$tmp/log" | tr '\n' ' ')"
  exit 1
fi
p=$(grep '/person/input0.bin:' "$tmp/log")
n=$(grep '/no_person/input0.bin:' "$tmp/log")
fail=0
case $p in
  *": person score 113 "*"no person score -113 "*"-> person") ;;
  *) fail=1 ;;
esac
case $n in
  *": person score -57 "*"no person score 57 "*"-> no person") ;;
  *) fail=1 ;;
esac
# TFLM's goldens: person [no_person, person] = [-113, 113], no_person [57, -57].
if [ $fail -eq 0 ]; then
  echo "ok - examples/host finds a person in person/ and none in no_person/ with TFLM's scores"
  rm -rf "$tmp"
else
  echo "not ok - examples/host gives TFLM's scores (person 113 vs -113, no person 57 vs -57): got '$p' and '$n'"
  exit 1
fi
