#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tinyaot report's figures, checked against independent sources: one
# layer per op of `tinyaot inspect`, the MACs summing to inspect's total,
# the largest RAM live at a step equal to the plan's lower bound, the
# pools and persistent bytes equal to `tinyaot plan --json`, the flash
# marked estimated (and why) without the Cortex-M toolchain, the same
# bytes from run to run, the options recorded, a self-contained page,
# and bad usage refused.  The flash measured against the bench build is
# checked in tests/arm/test_arm_profile.sh; the page in a browser in
# tests/models/test_report_browser.sh.
shared=${TINYAOT_SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}
export ARM_CC=no-such-arm-gcc # the estimate: fast, and the same everywhere
num() { grep -o "\"$2\": [0-9]*" "$1" | head -1 | awk '{print $2}'; }
for name in kws_ref_model mcunet_detection_fpn_int8_floatio; do
  model=$shared/models/$name.tflite
  if [ ! -f "$model" ]; then
    if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
      echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
    else
      echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
    fi
    continue
  fi
  j=$tmp/$name.json
  "$TINYAOT" report "$model" --json -o "$j" 2> "$tmp/err"
  check $? "$name: tinyaot report --json succeeds" "$(head -c 300 "$tmp/err")"
  "$TINYAOT" inspect "$model" --json > "$tmp/inspect.json"
  "$TINYAOT" plan "$model" --json > "$tmp/plan.json"
  ops=$(grep -c '"version": ' "$tmp/inspect.json")
  layers=$(grep -c '^    {"op": ' "$j")
  check $([ "$layers" -eq "$ops" ] && [ "$(num "$j" ops)" = "$ops" ]; echo $?) \
    "$name: the report has one layer per op of inspect ($ops)" "$layers layers"
  total=$(tail -5 "$tmp/inspect.json" | grep -o '"macs": [0-9]*' | awk '{print $2}')
  sum=$(grep -o '"macs": [0-9]*, "macs_share"' "$j" | awk '{t += $2} END {print t}')
  check $([ "$sum" = "$total" ] && [ "$(num "$j" macs)" = "$total" ]; echo $?) \
    "$name: the layers' MACs add up to inspect's total ($total)" "sum $sum, report $(num "$j" macs)"
  lb=$(num "$tmp/plan.json" lower_bound_bytes)
  most=$(grep -o '"live_bytes": [0-9]*' "$j" | awk '$2 > m {m = $2} END {print m}')
  check $([ "$most" = "$lb" ]; echo $?) \
    "$name: the most RAM live at a step is the plan's lower bound ($lb B)" "$most"
  ws=$(num "$tmp/plan.json" workspace_bytes)
  check $([ "$(grep -o '"ram": {"pools": \[{"name": "workspace", "used": [0-9]*' "$j" |
            awk '{print $NF}')" = "$ws" ] && [ "$(num "$j" workspace)" = "$ws" ]; echo $?) \
    "$name: the RAM by pool is the plan's ($ws B)" "$(grep -o '"ram": {[^}]*}' "$j")"
  grep -q '"flash": {"measured": false, [^}]*"note": "estimated: no-such-arm-gcc' "$j"
  check $? "$name: without the Cortex-M toolchain the flash says it is estimated and why" \
    "$(grep -o '"flash": {[^}]*}' "$j")"
  w=$(num "$j" weights)
  check $([ "${w:-0}" -gt 0 ]; echo $?) "$name: the estimate counts the weights ($w B)" "0"
  "$TINYAOT" report "$model" --json > "$tmp/again.json" 2>/dev/null
  cmp -s "$j" "$tmp/again.json"
  check $? "$name: the JSON is byte-identical from run to run" "differs"
  "$TINYAOT" report "$model" -o "$tmp/a.html" 2>/dev/null &&
    "$TINYAOT" report "$model" -o "$tmp/b.html" 2>/dev/null && cmp -s "$tmp/a.html" "$tmp/b.html"
  check $? "$name: the HTML page is byte-identical from run to run" "differs"
  ext=$(grep -o -E '(src|href)="[^"#d][^"]*"|https?://[^" ]*|url\(' "$tmp/a.html" |
        grep -v 'http://www.w3.org/2000/svg' | head -3)
  grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$tmp/a.html" && [ -z "$ext" ]
  check $? "$name: the page is self-contained and forbids itself any fetch" "$ext"
  if command -v python3 > /dev/null 2>&1; then
    python3 -m json.tool "$j" > /dev/null 2> "$tmp/err"
    check $? "$name: the report is valid JSON" "$(head -c 300 "$tmp/err")"
  fi
done
model=$shared/models/vww_96_int8.tflite
if [ -f "$model" ]; then
  "$TINYAOT" report "$model" --json --pool fast:40k --pool slow --align 32 > "$tmp/p.json" 2> "$tmp/err"
  grep -q '"options": "--pool fast:40k --pool slow --align 32"' "$tmp/p.json" &&
    grep -q '"pools": \[{"name": "fast", "used": [0-9]*, "limit": 40960}, {"name": "slow"' "$tmp/p.json"
  check $? "the report records the options given and shows each pool with its limit" \
    "$(grep -o '"options": "[^"]*"' "$tmp/p.json"; head -c 200 "$tmp/err")"
  "$TINYAOT" report "$model" --profile-data "$tmp/none.tsv" > /dev/null 2> "$tmp/err"
  rc=$?
  check $([ $rc -eq 1 ] && grep -q 'none.tsv' "$tmp/err"; echo $?) \
    "a missing profile file is refused, naming it" "exit $rc: $(cat "$tmp/err")"
  "$TINYAOT" report "$model" --bogus > /dev/null 2>&1
  check $([ $? -eq 2 ]; echo $?) "an unknown report option is a usage error" "not exit 2"
  "$TINYAOT" report > /dev/null 2>&1
  check $([ $? -eq 2 ]; echo $?) "report without a model is a usage error" "not exit 2"
fi
