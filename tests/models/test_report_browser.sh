#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tinyaot report opens in a real browser: for kws_ref_model, vww_96_int8,
# mcunet_detection_fpn_int8_floatio (and an ONNX model once the ONNX front
# end reads it) the HTML report is rendered by headless Chromium, which
# must log nothing on its console (no script error, no resource the
# page's Content-Security-Policy refused: the page loads nothing), must
# run the page's script to its end (data-ready on <html>), must show one
# table row per op of the model (counted by `tinyaot inspect --json`,
# not by the report), and its screenshot must not be blank.  The
# screenshots and reports stay in $TINYAOT_BUILD/report-screens/ as test
# artefacts.
#
# Without chromium (Debian's package) or zlib (the screenshot's pixel
# count, tests/models/png_ink.c) the test skips loudly; with TINYAOT_REQUIRE_SHARED=1 (CI) it
# fails instead.
# The browser sees the same page in both passes of make test: it runs in
# the plain pass only (the report's own code runs under the sanitizers in
# tests/models/test_report.sh).  kws_ref_model's report measures its
# flash with the Cortex-M toolchain when there is one; the others are
# built with ARM_CC unset to a missing tool, so that the estimated page
# is rendered too (and the test stays fast).
[ "$TINYAOT_PASS" = san ] && exit 77
shared=${TINYAOT_SHARED:-../shared}
build=${TINYAOT_BUILD:-build}
art=$build/report-screens
CHROMIUM=${CHROMIUM:-chromium}
missing() { # missing WHAT
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - $1 is there (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - $1 IS MISSING: the report is not browser-tested"
  fi
}
command -v "$CHROMIUM" > /dev/null 2>&1 || { missing "$CHROMIUM (apt-get install chromium)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$art"
check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}
browse() { # browse ARGS...: headless Chromium, its log in $tmp/log
  timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@" 2> "$tmp/log"
}
# The share of a screenshot's pixels that are not white (png_ink.c).
here=$(cd "$(dirname "$0")" && pwd)
${CC:-cc} -O2 -o "$tmp/png_ink" "$here/png_ink.c" -lz 2> "$tmp/err" ||
  { missing "zlib for the screenshot check (cc png_ink.c -lz: $(head -c 200 "$tmp/err"))"; exit 0; }

report() { # report NAME MODEL
  name=$1 model=$2
  html=$art/$name.html png=$art/$name.png
  if [ "$name" = kws_ref_model ]; then
    "$TINYAOT" report "$model" -o "$html" 2> "$tmp/err"
  else
    ARM_CC=no-such-arm-gcc "$TINYAOT" report "$model" -o "$html" 2> "$tmp/err"
  fi
  check $? "$name: tinyaot report writes the HTML page" "$(head -c 300 "$tmp/err")"
  [ -s "$html" ] || return
  # Nothing outside the page: no http(s) reference, no src= at all.
  ext=$(grep -o -E '(src|href)="[^"#d][^"]*"|https?://[^" ]*|url\(' "$html" | grep -v 'http://www.w3.org/2000/svg' | head -3)
  check $([ -z "$ext" ]; echo $?) "$name: the page references nothing outside itself" "$ext"
  ops=$("$TINYAOT" inspect "$model" --json | grep -c '"version": ')
  rm -f "$png"
  browse --dump-dom --screenshot="$(cd "$art" && pwd)/$name.png" --window-size=1400,2400 \
    "file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")" > "$tmp/dom"
  rc=$?
  console=$(grep 'CONSOLE' "$tmp/log" | head -3)
  check $([ $rc -eq 0 ] && [ -z "$console" ]; echo $?) \
    "$name: Chromium opens the report with nothing on its console" "exit $rc; $console"
  grep -q '<html[^>]*data-ready="1"' "$tmp/dom"
  check $? "$name: the page's script runs to its end" "no data-ready on <html>"
  rows=$(grep -o '<tr id="op-[0-9]*"' "$tmp/dom" | sort -u | wc -l)
  check $([ "$rows" -eq "$ops" ] && [ "$ops" -gt 0 ]; echo $?) \
    "$name: the layer table has one row per op ($ops)" "$rows rows for $ops ops"
  nodes=$(grep -o '<g class="node" id="node-[0-9]*"' "$tmp/dom" | wc -l)
  bufs=$(grep -c 'class="buf"' "$tmp/dom")
  check $([ "$nodes" -eq "$ops" ] && [ "$bufs" -gt 0 ]; echo $?) \
    "$name: the graph draws every op and the plan its buffers" "$nodes nodes, $bufs buffers"
  ink=$("$tmp/png_ink" "$png" 2> "$tmp/err")
  check $([ -n "$ink" ] && [ "$ink" -ge 50 ]; echo $?) \
    "$name: the screenshot ($png) is not blank (${ink:-?} per mille inked)" \
    "$(head -c 200 "$tmp/err")"
}

# The page's interaction, driven by a script added to a copy of it: a
# click on the MACs header sorts the rows heaviest first, a click on a
# graph node selects its row, hovering a buffer of the plan shows its
# details, the wheel zooms the plan and "whole plan" undoes it.  Results
# land in <body data-selftest="PASS ...; FAIL ...">.
cat > "$tmp/selftest.js" <<'EOF'
<script>(function () {
  var r = [];
  function ok(c, m) { r.push((c ? 'PASS ' : 'FAIL ') + m); }
  try {
    var t = document.getElementById('layers'), ths = t.tHead.rows[0].cells, col = -1, i;
    for (i = 0; i < ths.length; i++) if (ths[i].textContent === 'MACs') col = i;
    ths[col].click();
    var v = [].map.call(t.tBodies[0].rows, function (x) { return parseFloat(x.cells[col].getAttribute('data-v')); });
    ok(v.length > 0 && v.every(function (x, k) { return k === 0 || v[k - 1] >= x; }), 'sorting by MACs puts the heaviest first');
    var node = document.querySelectorAll('g.node')[1];
    node.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    ok(document.getElementById('op-' + node.getAttribute('data-op')).classList.contains('sel'), 'a click on a graph node selects its row');
    var rect = document.querySelector('rect.buf'), tip = document.getElementById('tip');
    rect.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, clientX: 20, clientY: 20}));
    ok(tip.style.display === 'block' && /bytes at offset/.test(tip.textContent), 'hovering a buffer shows its details');
    var svg = document.getElementById('plan'), vb = svg.getAttribute('viewBox');
    document.getElementById('planbox').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: 300, clientY: 200, bubbles: true, cancelable: true}));
    ok(svg.getAttribute('viewBox') !== vb, 'the wheel zooms the plan');
    document.getElementById('zreset').click();
    ok(svg.getAttribute('viewBox') === vb, 'whole plan shows it all again');
  } catch (e) { ok(false, 'no exception: ' + e); }
  document.body.setAttribute('data-selftest', r.join('; '));
})();</script>
EOF
selftest() { # selftest NAME: the interaction on NAME's page
  html=$art/$1.html
  sed "s|</body>|$(tr '\n' ' ' < "$tmp/selftest.js" | sed 's/[|&]/\\&/g')</body>|" "$html" > "$tmp/self.html"
  browse --dump-dom "file://$tmp/self.html" > "$tmp/self.dom"
  res=$(grep -o 'data-selftest="[^"]*"' "$tmp/self.dom")
  pass=$(echo "$res" | grep -o 'PASS' | wc -l)
  check $([ "$pass" -eq 5 ] && ! echo "$res" | grep -q FAIL; echo $?) \
    "$1: sorting, graph-to-table selection, hover details and zoom work in the browser" "${res:-no result}"
}

for name in kws_ref_model vww_96_int8 mcunet_detection_fpn_int8_floatio; do
  model=$shared/models/$name.tflite
  if [ ! -f "$model" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
    fi
    continue
  fi
  report "$name" "$model"
  [ "$name" = mcunet_detection_fpn_int8_floatio ] && [ -s "$art/$name.html" ] && selftest "$name"
done
# An ONNX model: the report is the same for either front end.
onnx=$shared/models/onnx/ds_cnn_kws.onnx
if [ -f "$onnx" ]; then
  report ds_cnn_kws_onnx "$onnx"
else
  echo "not ok - the shared ONNX model $onnx is there"
fi
