#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tinyaot plan --svg draws a picture people can read: buffers named by the
# layer producing them (not tensor ids), a byte axis, a scalable viewBox
# without a fixed size, tiny buffers still drawn, and labels that never
# overlap (mcunet's 80 steps were the worst case).
shared=${TINYAOT_SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}
for name in mcunet_detection_fpn_int8_floatio vww_96_int8 kws_ref_model; do
  model=$shared/models/$name.tflite
  if [ ! -f "$model" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
    fi
    continue
  fi
  svg=$tmp/$name.svg
  "$TINYAOT" plan "$model" --svg "$svg" > /dev/null 2> "$tmp/err"
  check $? "$name: tinyaot plan --svg succeeds" "$(head -c 300 "$tmp/err")"
  head -1 "$svg" | grep -q 'viewBox="0 0 [0-9]* [0-9]*"' && ! head -1 "$svg" | grep -q ' width='
  check $? "$name: the SVG scales (a viewBox, no fixed width)" "$(head -1 "$svg")"
  grep -q '<text[^>]*>#[0-9]' "$svg" && ! grep -q '<text[^>]*>t[0-9]' "$svg"
  check $? "$name: buffers are labelled by their layer (#N), never by tensor id" \
    "$(grep -o '<text[^>]*>[^<]*' "$svg" | head -5)"
  grep -q 'text-anchor="end" fill="#555">0 B<' "$svg" && grep -q 'KiB</text>' "$svg"
  check $? "$name: the picture has a byte axis from 0 B in KiB" "no axis labels"
  # Every buffer rectangle is at least 2 px high and 3 px wide.
  bad=$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="#[0-9a-f]*" stroke="#333"' "$svg" |
    awk -F'"' '$6 < 3 || $8 < 2 {print; exit}')
  n=$(grep -c 'stroke="#333"' "$svg")
  [ -z "$bad" ] && [ "$n" -gt 0 ]
  check $? "$name: all $n buffers are drawn at least 2 px high and 3 px wide" "$bad"
  # Labels (x, y of the baseline, 7 px per character, 12 px high) never overlap.
  over=$(grep -o '<text x="[0-9.]*" y="[0-9.]*" pointer-events="none">[^<]*' "$svg" |
    awk -F'"' '{ x[NR] = $2; y[NR] = $4; s = $7; sub(/^>/, "", s); w[NR] = length(s) * 7 }
      END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
              if (x[i] < x[j] + w[j] && x[j] < x[i] + w[i] && y[i] - 10 < y[j] + 2 && y[j] - 10 < y[i] + 2)
                { print "labels " i " and " j " at " x[i] "," y[i] " and " x[j] "," y[j]; exit } }')
  check $([ -z "$over" ]; echo $?) "$name: no two buffer labels overlap" "$over"
done
# Two pools stand side by side: two panels, the second to the right of the first.
model=$shared/models/vww_96_int8.tflite
if [ -f "$model" ]; then
  "$TINYAOT" plan "$model" --pool fast:40k --pool slow --svg "$tmp/two.svg" > /dev/null 2> "$tmp/err"
  n=$(grep -c '<g class="pool">' "$tmp/two.svg")
  xs=$(grep -o 'font-weight="bold">pool' "$tmp/two.svg" | wc -l)
  [ "$n" -eq 2 ] && [ "$xs" -eq 2 ] && grep -q '>pool fast' "$tmp/two.svg" && grep -q '>pool slow' "$tmp/two.svg"
  check $? "two pools are drawn as two panels side by side" "$n panels; $(head -c 300 "$tmp/err")"
fi
