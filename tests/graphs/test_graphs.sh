#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/graphs/test_graphs.sh - make test's share of the miscompile hunter
# (tests/graphs/run_graphs.sh; the long run is make fuzz-graphs).
#
# $TINYAOT_GRAPHS_TEST_COUNT random graphs from seed 1 (default 300), each
# planned under all 16 option combinations (the plan checker on every
# plan; planning takes milliseconds); every $TINYAOT_GRAPHS_RUN_EVERY-th
# (default 6 in the plain pass, 20 in the sanitizer pass, whose generated
# code builds and runs slower) is also built and run under one --rounding
# single combination (against TFLite) and, every third of those, two
# --rounding double ones (against each other).  TFLite's outputs are
# cached, so only the first run starts Node.
build=${TINYAOT_BUILD:-build}
count=${TINYAOT_GRAPHS_TEST_COUNT:-300}
every=${TINYAOT_GRAPHS_RUN_EVERY:-}
if [ -z "$every" ]; then
  every=6
  [ "${TINYAOT_PASS:-plain}" = san ] && every=20
fi
sh tests/graphs/run_graphs.sh --build "$build" --seed 1 --count "$count" --runs some \
  --run-every "$every" --quiet
