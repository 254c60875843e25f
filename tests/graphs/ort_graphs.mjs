// SPDX-License-Identifier: Apache-2.0
// ort_graphs.mjs - runs many .onnx graphs of several outputs through ONNX
// Runtime (the oracle's onnxruntime-node backend) in one Node process,
// for tests/graphs/run_graphs_onnx.py.
//
//   node ort_graphs.mjs --home ORACLE_HOME LIST
//
// Each line of LIST is  MODEL OUTDIR IN0.bin [IN1.bin ...]; for each this
// writes OUTDIR/ref0.bin, ref1.bin, ... (one per graph output, raw bytes)
// or OUTDIR/ref.err with ONNX Runtime's message.  Session options are the
// oracle's: CPU, one thread, every graph optimization (which fuses the
// QDQ groups).
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const args = process.argv.slice(2);
let home = null, list = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--home') home = args[++i];
  else list = args[i];
}
if (!home || !list) {
  console.error('usage: node ort_graphs.mjs --home ORACLE_HOME LIST');
  process.exit(2);
}
const backend = await import(pathToFileURL(path.join(home, 'lib', 'backend_onnx.mjs')).href);
for (const line of fs.readFileSync(list, 'utf8').split('\n').filter((l) => l.trim())) {
  const [model, out, ...ins] = line.trim().split(/\s+/);
  fs.rmSync(path.join(out, 'ref.err'), {force: true});
  try {
    const m = await backend.open(fs.readFileSync(model));
    const outs = await m.run(ins.map((f) => new Uint8Array(fs.readFileSync(f))));
    outs.forEach((o, i) => fs.writeFileSync(path.join(out, `ref${i}.bin`), o));
    if (m.close) m.close();
  } catch (e) {
    fs.writeFileSync(path.join(out, 'ref.err'), String(e && e.message || e).replace(/\s+/g, ' ') + '\n');
  }
}
