// SPDX-License-Identifier: Apache-2.0
// ort_tensors.mjs - the graph ONNX Runtime really runs, and its tensors,
// for tools/bisect_quant_onnx.py.
//
//   node ort_tensors.mjs --home ORACLE_HOME --optimize MODEL OUT.onnx
//   node ort_tensors.mjs --home ORACLE_HOME --run MODEL OUTDIR IN0.bin ...
//
// --optimize writes the graph ONNX Runtime makes of MODEL under the
// oracle's session options (CPU, one thread, every graph optimization:
// the fused QDQ groups, the int8 -> uint8 conversions, the NHWC
// transposes) to OUT.onnx.  --run runs MODEL with every graph
// optimization off, so an optimized graph whose intermediate tensors
// were made graph outputs runs the same kernels; it writes OUTDIR/N.bin
// (raw bytes of output N) and OUTDIR/outputs.json (name, type, shape of
// each).  ORACLE_HOME is where tflite-oracle installed onnxruntime-node.
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';

const args = process.argv.slice(2);
let home = null, mode = null;
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--home') home = args[++i];
  else if (args[i] === '--optimize' || args[i] === '--run') mode = args[i];
  else rest.push(args[i]);
}
if (!home || !mode || rest.length < 2) {
  console.error('usage: node ort_tensors.mjs --home H (--optimize MODEL OUT.onnx | --run MODEL OUTDIR IN.bin...)');
  process.exit(2);
}
const ort = createRequire(path.join(home, 'lib', 'x.js'))('onnxruntime-node');
const TYPED = {
  float32: Float32Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
  bool: Uint8Array,
};
const base = {executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1,
  logSeverityLevel: 3};
if (mode === '--optimize') {
  await ort.InferenceSession.create(rest[0], {...base, graphOptimizationLevel: 'all',
    optimizedModelFilePath: rest[1]});
} else {
  const [model, outdir, ...ins] = rest;
  const s = await ort.InferenceSession.create(model, {...base, graphOptimizationLevel: 'disabled'});
  const feeds = {};
  s.inputNames.forEach((name, i) => {
    const meta = s.inputMetadata[i];
    const shape = meta.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const b = new Uint8Array(fs.readFileSync(ins[i]));
    const T = TYPED[meta.type];
    feeds[name] = new ort.Tensor(meta.type, new T(b.buffer, 0, b.length / T.BYTES_PER_ELEMENT), shape);
  });
  const res = await s.run(feeds);
  const list = s.outputNames.map((name, i) => {
    const t = res[name];
    const d = t.data;
    fs.writeFileSync(path.join(outdir, `${i}.bin`), new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
    return {name, type: t.type, dims: t.dims};
  });
  fs.writeFileSync(path.join(outdir, 'outputs.json'), JSON.stringify(list));
}
