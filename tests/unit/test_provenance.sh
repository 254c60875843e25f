#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/unit/test_provenance.sh - every generated folder says where it
# came from and under what terms: compiling examples/tiny_cnn (no shared
# files needed), the header's <PREFIX>_TINYAOT_VERSION is
# compiler/version.h's version, <PREFIX>_MODEL_SHA256 is sha256sum's
# digest of the model file and <PREFIX>_TINYAOT_OPTIONS the options given
# (read by a C program that includes the header, -std=c99 -pedantic);
# every generated source (.c, .h, .mk, CMakeLists.txt) opens with an SPDX
# Apache-2.0 line and the licence statement, and so do the runtime files.
cd "$(dirname "$0")/../.." || exit 1
TINYAOT=${TINYAOT:-build/tinyaot}
case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
CC=${CC:-cc}
tmp=$(mktemp -d /tmp/tinyaot-prov-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }
model=examples/tiny_cnn/tiny_cnn.tflite

if ! "$TINYAOT" compile "$model" -o "$tmp/out" --prefix tc --align 8 --rounding single \
     > "$tmp/log" 2>&1; then
  notok "tiny_cnn compiles: $(head -n2 "$tmp/log")"
  exit 1
fi
version=$(sed -n 's/^#define TINYAOT_VERSION "\(.*\)"/\1/p' compiler/version.h)
sha=$(sha256sum "$model" | cut -d' ' -f1)
cat > "$tmp/main.c" <<'C'
#include <stdio.h>
#include "tc.h"
int main(void) {
  printf("%s\n%s\n%s\n", TC_TINYAOT_VERSION, TC_MODEL_SHA256, TC_TINYAOT_OPTIONS);
  return 0;
}
C
# shellcheck disable=SC2086
if $CC -std=c99 -Wall -Wextra -Werror -pedantic $TINYAOT_CFLAGS -I"$tmp/out" \
     -o "$tmp/main" "$tmp/main.c" > "$tmp/cc.log" 2>&1 && "$tmp/main" > "$tmp/macros"; then
  got=$(sed -n 1p "$tmp/macros")
  [ "$got" = "$version" ] && ok "TC_TINYAOT_VERSION is \"$version\", compiler/version.h's" ||
    notok "TC_TINYAOT_VERSION is \"$version\": got \"$got\""
  got=$(sed -n 2p "$tmp/macros")
  [ "$got" = "$sha" ] && ok "TC_MODEL_SHA256 is the model file's SHA-256 ($sha)" ||
    notok "TC_MODEL_SHA256 is the model file's SHA-256 $sha: got $got"
  got=$(sed -n 3p "$tmp/macros")
  [ "$got" = "--prefix tc --align 8 --rounding single" ] &&
    ok "TC_TINYAOT_OPTIONS holds the options given ($got)" ||
    notok "TC_TINYAOT_OPTIONS holds the options given: got '$got'"
else
  notok "a program reading the header's macros compiles: $(head -n3 "$tmp/cc.log")"
fi

bad=""
n=0
# The JSON plan has no comments; .tinyaot-manifest is outdir.c's list of
# the files written, not a source.
for f in $(cd "$tmp/out" && find . -type f ! -name '*.json' ! -name .tinyaot-manifest | sort); do
  n=$((n + 1))
  head -1 "$tmp/out/$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || bad="$bad $f"
done
[ -z "$bad" ] && ok "all $n generated files (but the JSON plan and the manifest) open with SPDX-License-Identifier: Apache-2.0" ||
  notok "every generated file opens with an SPDX line: not$bad"
bad=""
for f in tc.h tc.c tc_weights.c tc.mk CMakeLists.txt; do
  grep -q "may be used, modified and shipped under the Apache" "$tmp/out/$f" &&
    grep -q "Model SHA-256: $sha" "$tmp/out/$f" || bad="$bad $f"
done
[ -z "$bad" ] && ok "the header, runner, weights and build files state the licence and the model's SHA-256" ||
  notok "the generated files state the licence and the model's SHA-256: not$bad"

rm -rf "$tmp"
exit $fail
