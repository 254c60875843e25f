# SPDX-License-Identifier: Apache-2.0
# tests/lib.sh - what the test scripts share, sourced as
#   . "$(dirname "$0")/../lib.sh"
#
# need_shared: resolves $shared (TINYAOT_SHARED, default ../shared) to an
# absolute folder and $TINYAOT (default build/tinyaot) to an absolute
# path.  Without the shared models the script ends here: with a loud
# "skip" line, or, when TINYAOT_REQUIRE_SHARED=1 (CI), with a failure.
need_shared() {
  shared=${TINYAOT_SHARED:-../shared}
  TINYAOT=${TINYAOT:-build/tinyaot}
  case $TINYAOT in /*) ;; *) TINYAOT=$(pwd)/$TINYAOT ;; esac
  if [ ! -f "$shared/models/SHA256SUMS" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared models are at $shared (TINYAOT_REQUIRE_SHARED=1)"
      exit 1
    fi
    echo "skip - SHARED MODELS MISSING: $shared has no models/; set TINYAOT_SHARED"
    exit 0
  fi
  shared=$(cd "$shared" && pwd)
}
