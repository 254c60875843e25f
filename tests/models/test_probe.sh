#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --probe NAME: an intermediate value becomes an extra output, after the
# model's own, and nothing else about the compiled model changes.
#  - .tflite: two activations of ds_cnn_s_int8 probed by name equal TFLite
#    Micro's dumped tensors (golden case0/tensors), and the model's output
#    is still its golden output;
#  - .onnx (float): a Conv output of ds_cnn_kws probed equals ONNX
#    Runtime's value of it (the oracle's onnxruntime-node run on a copy of
#    the model with that value as a graph output), within 1e-4 relative;
#  - .onnx (QDQ, tools/gen_qdq.py's Cnn): probing the first convolution's
#    QuantizeLinear output leaves the layers' kernels the same, where
#    making it a graph output makes ONNX Runtime, and --rounding
#    onnxruntime, compute that group and the next in float32
#    (ta_conv2d_ort_f32_s8);
#  - an unknown name is refused with a message naming it.
# The ONNX parts need ONNX Runtime: plain pass only.
. "$(dirname "$0")/../lib.sh"
need_shared
tmp=$(mktemp -d /tmp/tinyaot-probe-XXXXXX)
fail=0
ok() { echo "ok - $1"; }
notok() { echo "not ok - $1"; fail=1; }

name=ds_cnn_s_int8
model=$shared/models/$name.tflite
g=$shared/goldens/$name/case0
"$TINYAOT" inspect "$model" > "$tmp/inspect.txt"
n24=$(awk '$1 == 24 && $2 == "int8" { print $NF }' "$tmp/inspect.txt")
n27=$(awk '$1 == 27 && $2 == "int8" { print $NF }' "$tmp/inspect.txt")
if "$TINYAOT" run "$model" -i "$g/input0.bin" -o "$tmp/out.bin" -o "$tmp/p24.bin" \
     -o "$tmp/p27.bin" --probe "$n24" --probe "$n27" > "$tmp/log" 2>&1 &&
   cmp -s "$tmp/out.bin" "$g/output0.bin" && cmp -s "$tmp/p24.bin" "$g/tensors/t24.bin" &&
   cmp -s "$tmp/p27.bin" "$g/tensors/t27.bin"; then
  ok "$name: --probe of tensors 24 and 27 gives TFLite Micro's bytes of them, the output stays the golden"
else
  notok "$name: --probe of tensors 24 and 27 gives TFLite Micro's bytes of them: $(head -n2 "$tmp/log")"
fi
if ! "$TINYAOT" run "$model" -i "$g/input0.bin" -o "$tmp/out.bin" -o "$tmp/x.bin" \
     --probe no_such_tensor > "$tmp/log" 2>&1 && grep -q "no_such_tensor" "$tmp/log"; then
  ok "$name: an unknown --probe name is refused, naming it"
else
  notok "$name: an unknown --probe name is refused, naming it: $(head -n2 "$tmp/log")"
fi

# The rest compares with ONNX Runtime: plain pass only (the sanitizers
# do not touch Node).
if [ "${TINYAOT_PASS:-plain}" != plain ]; then
  rm -rf "$tmp"
  exit $fail
fi
need_ort "--probe test's ONNX part"
onnx=$shared/models/onnx/ds_cnn_kws.onnx
in=$shared/goldens/onnx/ds_cnn_kws/case0/input0.bin
conv=$(/usr/bin/python3 - "$onnx" "$tmp/wide.onnx" <<'PY'
import sys, onnx
from onnx import helper
m = onnx.load(sys.argv[1])
c = [n for n in m.graph.node if n.op_type == "Conv"][1].output[0]
m.graph.output.append(helper.ValueInfoProto(name=c))
onnx.save(m, sys.argv[2])
print(c)
PY
)
mkdir -p "$tmp/ort"
if node "tools/ort_tensors.mjs" --home "$home" --run "$tmp/wide.onnx" "$tmp/ort" "$in" \
     > "$tmp/log" 2>&1 &&
   "$TINYAOT" run "$onnx" -i "$in" -o "$tmp/o.bin" -o "$tmp/p.bin" --probe "$conv" \
     >> "$tmp/log" 2>&1 &&
   /usr/bin/python3 - "$tmp/ort/1.bin" "$tmp/p.bin" >> "$tmp/log" 2>&1 <<'PY'
import sys
import numpy as np
a, b = (np.fromfile(p, dtype=np.float32) for p in sys.argv[1:3])
err = float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(a))), 1e-30)) if a.size == b.size else 1.0
print("probe size %d/%d, max relative error %.3g" % (b.size, a.size, err))
sys.exit(0 if a.size == b.size and a.size > 0 and err <= 1e-4 else 1)
PY
then
  ok "ds_cnn_kws.onnx: --probe $conv equals ONNX Runtime's value ($(tail -n1 "$tmp/log"))"
else
  notok "ds_cnn_kws.onnx: --probe $conv equals ONNX Runtime's value: $(tail -n2 "$tmp/log" | tr '\n' ' ')"
fi

if /usr/bin/python3 "tools/gen_qdq.py" "$tmp/qdq" --only Cnn --count 1 > "$tmp/log" 2>&1; then
  cnn=$tmp/qdq/Cnn_int8_0/model.onnx
  q=$(/usr/bin/python3 - "$cnn" "$tmp/cnn_out.onnx" <<'PY'
import sys, onnx
from onnx import helper
m = onnx.load(sys.argv[1])
nodes = list(m.graph.node)
first = [i for i, n in enumerate(nodes) if n.op_type == "Conv"][0]
q = [n for n in nodes[first:] if n.op_type == "QuantizeLinear"][0].output[0]
m.graph.output.append(helper.make_tensor_value_info(q, onnx.TensorProto.INT8, None))
onnx.save(m, sys.argv[2])
print(q)
PY
)
  # The integer and float kernels of the convolutions and the Gemm (the
  # probe adds a TRANSPOSE of its own to the model's NCHW layout).
  kernels() { grep -ho 'ta_[a-z0-9_]*\(conv\|fully_connected\)[a-z0-9_]*(' "$1"/*.c | sort | uniq -c; }
  "$TINYAOT" compile "$cnn" --rounding onnxruntime -o "$tmp/c0" --prefix cnn > "$tmp/log" 2>&1 &&
    "$TINYAOT" compile "$cnn" --rounding onnxruntime -o "$tmp/c1" --prefix cnn --probe "$q" \
      >> "$tmp/log" 2>&1 &&
    "$TINYAOT" compile "$tmp/cnn_out.onnx" --rounding onnxruntime -o "$tmp/c2" --prefix cnn \
      >> "$tmp/log" 2>&1
  if [ "$(kernels "$tmp/c0")" = "$(kernels "$tmp/c1")" ] &&
     ! grep -q ta_conv2d_ort_f32_s8 "$tmp/c1/cnn.c" &&
     [ "$(grep -c 'ta_conv2d_ort_f32_s8(' "$tmp/c2/cnn.c")" -eq 2 ]; then
    ok "QDQ Cnn: --probe $q keeps every kernel; as a graph output two convolutions go float32"
  else
    notok "QDQ Cnn: --probe $q keeps every kernel; as a graph output two convolutions go float32: $(tail -n2 "$tmp/log")"
  fi
else
  notok "tools/gen_qdq.py writes the Cnn model: $(tail -n1 "$tmp/log")"
fi
rm -rf "$tmp"
exit $fail
