#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/graphs/test_graphs.sh - make test's share of the miscompile hunter
# (tests/graphs/run_graphs.sh; the long run is make fuzz-graphs).
#
# $TINYAOT_GRAPHS_TEST_COUNT random graphs from seed 1 (default 300 in the
# plain pass, 100 in the sanitizer pass, where every tinyaot process runs
# under ASan), each
# planned under all 16 option combinations (the plan checker on every
# plan; planning takes milliseconds); every $TINYAOT_GRAPHS_RUN_EVERY-th
# (default 6 in the plain pass, 10 in the sanitizer pass, whose generated
# code builds and runs slower) is also built and run under one --rounding
# single combination (against TFLite) and, every third of those, two
# --rounding double ones (against each other).  TFLite's outputs are
# cached, so only the first run starts Node.
build=${TINYAOT_BUILD:-build}
count=${TINYAOT_GRAPHS_TEST_COUNT:-}
every=${TINYAOT_GRAPHS_RUN_EVERY:-}
if [ "${TINYAOT_PASS:-plain}" = san ]; then
  count=${count:-100}
  every=${every:-10}
else
  count=${count:-300}
  every=${every:-6}
fi
sh tests/graphs/run_graphs.sh --build "$build" --seed 1 --count "$count" --runs some \
  --run-every "$every" --quiet
rc=$?

# The hunter must be able to fail: a compiler whose plan check rejects a
# plan (an internal error, as plan_graph's die() gives), and one whose
# run function writes a wrong byte, are both reported.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=${TINYAOT:-$build/tinyaot}
cat > "$tmp/rejects" <<EOS
#!/bin/sh
[ "\$1" = plan ] && { echo "tinyaot: internal error: the memory plan fails its check" >&2; exit 134; }
exec "$real" "\$@"
EOS
cat > "$tmp/corrupts" <<EOS
#!/bin/sh
"$real" "\$@" || exit \$?
[ "\$1" = run ] || exit 0
while [ \$# -gt 0 ]; do
  [ "\$1" = -o ] && { printf '\\177' | dd of="\$2" bs=1 count=1 conv=notrunc 2> /dev/null; exit 0; }
  shift
done
EOS
chmod +x "$tmp/rejects" "$tmp/corrupts"
for kind in rejects corrupts; do
  case $kind in
    rejects) what="a plan its checker rejects" want="tinyaot plan fails" ;;
    *) what="a wrong output byte" want="differs from TFLite" ;;
  esac
  TINYAOT="$tmp/$kind" sh tests/graphs/run_graphs.sh --build "$build" --seed 3 --count 1 \
    --run-every 1 > "$tmp/$kind.log" 2>&1
  r=$?
  if [ $r -ne 0 ] && grep -q "^not ok.*$want" "$tmp/$kind.log"; then
    echo "ok - the hunter reports $what"
  else
    echo "not ok - the hunter reports $what (exit $r: $(grep -m1 -v '^#' "$tmp/$kind.log"))"
    rc=1
  fi
done
exit $rc
