#!/bin/sh
# tinyaot plan on the command line: JSON and SVG are deterministic, pools
# and their limits, the error for pools too small, bad options.
shared=${TINYAOT_SHARED:-../shared}
model=$shared/models/vww_96_int8.tflite
if [ ! -f "$model" ]; then
  if [ "$TINYAOT_REQUIRE_SHARED" = 1 ]; then
    echo "not ok - the shared model $model exists (TINYAOT_REQUIRE_SHARED=1)"
  else
    echo "skip - SHARED MODELS MISSING: no $model; set TINYAOT_SHARED"
  fi
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # check COND-EXIT-STATUS SENTENCE DETAIL
  if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fi
}

"$TINYAOT" plan "$model" --json --svg "$tmp/a.svg" > "$tmp/a.json" 2> "$tmp/err"
rc=$?
check $rc "tinyaot plan --json --svg succeeds on vww_96_int8" "exit $rc: $(head -c 300 "$tmp/err")"
"$TINYAOT" plan "$model" --json --svg "$tmp/b.svg" > "$tmp/b.json" 2>/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json"
check $? "the JSON plan is byte-identical from run to run" "$(diff "$tmp/a.json" "$tmp/b.json" | head -3)"
cmp -s "$tmp/a.svg" "$tmp/b.svg"
check $? "the SVG picture is byte-identical from run to run" "differs"
for key in lower_bound_bytes workspace_bytes pools algorithms buffers persistent_bytes; do
  grep -q "\"$key\":" "$tmp/a.json"
  check $? "the JSON plan has \"$key\"" "missing in $(head -c 200 "$tmp/a.json")"
done
grep -q '"workspace_bytes": 55296,' "$tmp/a.json"
check $? "vww_96_int8 needs 55,296 bytes of workspace" "$(grep workspace_bytes "$tmp/a.json")"
head -c 4 "$tmp/a.svg" | grep -q '<svg' && grep -q 'peak 55296' "$tmp/a.svg" && grep -q 'bound 55296' "$tmp/a.svg"
check $? "the SVG draws the buffers with the peak and the lower bound marked" "$(head -c 200 "$tmp/a.svg")"

"$TINYAOT" plan "$model" --pool sram:40k --pool ext:1M --algo greedy-size --json > "$tmp/c.json" 2> "$tmp/err"
rc=$?
check $rc "two pools with limits are accepted" "exit $rc: $(cat "$tmp/err")"
grep -q '"name": "sram", "size": [0-9]*, "limit": 40960' "$tmp/c.json" && grep -q '"name": "ext"' "$tmp/c.json" && grep -q '"algo": "greedy-size"' "$tmp/c.json"
check $? "the JSON plan lists both pools, their limits and the chosen algorithm" "$(grep -A3 '"pools"' "$tmp/c.json")"

"$TINYAOT" plan "$model" --pool sram:30000 > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "bytes missing" "$tmp/err" && grep -q "largest live set, 55296 bytes, is at step" "$tmp/err"
check $? "a pool too small is refused naming the bytes missing and the largest live set" "exit $rc: $(cat "$tmp/err")"

"$TINYAOT" plan "$model" --align 24 > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ]
check $? "an alignment that is not a power of two is a usage error" "exit $rc"
"$TINYAOT" plan "$model" --algo fastest > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ]
check $? "an unknown algorithm is a usage error" "exit $rc"

"$TINYAOT" plan "$model" --io-in-workspace --align 64 --json > "$tmp/d.json" 2>/dev/null
grep -q '"io_in_workspace": true' "$tmp/d.json" && grep -q '"align": 64' "$tmp/d.json" && ! grep -q '"external": true' "$tmp/d.json"
check $? "--io-in-workspace --align 64 plans inputs and outputs inside, 64-byte aligned" "$(head -c 300 "$tmp/d.json")"

"$TINYAOT" plan "$model" > "$tmp/t.txt" 2>&1
grep -q "^search " "$tmp/t.txt" && grep -q "lower bound: 55296" "$tmp/t.txt" && grep -q " id .*bytes.*pool.*offset.*first.*last" "$tmp/t.txt"
check $? "the table lists each algorithm, the lower bound and the buffers" "$(head -5 "$tmp/t.txt")"
exit 0
