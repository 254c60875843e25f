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

# need_ort WHAT: what a comparison with ONNX Runtime needs (Node, the
# oracle with its optional onnxruntime-node, python3-onnx and
# python3-numpy); sets $home to the oracle's folder.  Without any of them
# the script ends: a loud "skip - WHAT NOT RUN" line, or, when
# TINYAOT_REQUIRE_SHARED=1 (CI), a failure.  Call after need_shared.
need_ort() {
  home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
  why=
  if ! command -v node > /dev/null 2>&1; then
    why="no node"
  elif ! /usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null; then
    why="no python3-onnx / python3-numpy"
  elif ! "$shared/oracle/tflite-oracle" --help > /dev/null 2>&1; then
    why="the oracle does not install"
  elif ! (cd "$home" && node -e "require('onnxruntime-node')" > /dev/null 2>&1); then
    why="no onnxruntime-node in $home (ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node@1.30.0 there)"
  fi
  [ -z "$why" ] && return 0
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the $1 has what it needs: $why (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - $(echo "$1" | tr '[:lower:]' '[:upper:]') NOT RUN: $why"
  exit 0
}
