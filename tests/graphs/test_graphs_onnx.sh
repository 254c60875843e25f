#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/graphs/test_graphs_onnx.sh - make test's share of the ONNX
# miscompile hunter (tests/graphs/run_graphs_onnx.py; the long run is make
# fuzz-graphs-onnx): $TINYAOT_GRAPHS_ONNX_COUNT random ONNX graphs from
# seed 1 (default 40 in the plain pass, 12 in the sanitizer pass), each
# planned under all 16 option combinations; every 2nd (sanitizer pass:
# every 4th) also run under one --rounding onnxruntime combination
# against ONNX Runtime and, every third of those, three more.
build=${TINYAOT_BUILD:-build}
if [ "${TINYAOT_PASS:-plain}" = san ]; then
  count=${TINYAOT_GRAPHS_ONNX_COUNT:-12} every=4
else
  count=${TINYAOT_GRAPHS_ONNX_COUNT:-40} every=2
fi
/usr/bin/python3 tests/graphs/run_graphs_onnx.py --build "$build" --seed 1 \
  --count "$count" --runs some --run-every "$every" --quiet
rc=$?
[ $rc -eq 0 ] || exit $rc
# The hunter must be able to fail: a compiler whose run writes one wrong
# byte (the last of each output) is reported, on a float and a QDQ graph.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=${TINYAOT:-$build/tinyaot}
cat > "$tmp/corrupts" <<EOS
#!/bin/sh
"$real" "\$@" || exit \$?
[ "\$1" = run ] || exit 0
while [ \$# -gt 0 ]; do
  [ "\$1" = -o ] && /usr/bin/python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] ^= 0x41; open(sys.argv[1], 'wb').write(b)" "\$2"
  shift
done
EOS
chmod +x "$tmp/corrupts"
for s in 1 2; do
  TINYAOT="$tmp/corrupts" /usr/bin/python3 tests/graphs/run_graphs_onnx.py --build "$build" \
    --seed $s --count 1 > "$tmp/log" 2>&1
  r=$?
  if grep -q "^skip" "$tmp/log"; then
    exit 0
  elif [ $r -ne 0 ] && grep -q "^not ok.*differs from ONNX Runtime" "$tmp/log"; then
    echo "ok - the ONNX hunter reports a wrong output byte (graph $s)"
  else
    echo "not ok - the ONNX hunter reports a wrong output byte (graph $s, exit $r: $(head -1 "$tmp/log"))"
    rc=1
  fi
done
exit $rc
