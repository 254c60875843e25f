// SPDX-License-Identifier: Apache-2.0
// ort_batch.mjs - runs many small .onnx models through ONNX Runtime (the
// oracle's onnxruntime-node backend, ../shared/oracle/lib/backend_onnx.mjs)
// in one Node process.
//
//   node ort_batch.mjs --home ORACLE_HOME LIST
//
// ORACLE_HOME is where tflite-oracle installed itself (`tflite-oracle
// --help` does that once; onnxruntime-node is its optional package, see
// the oracle's README).  Each line of LIST is
//   MODEL OUT.bin IN0.bin [IN1.bin ...]
// (one output).  For each line this writes OUT.bin, or OUT.bin.err with
// ONNX Runtime's message.  Session options are the oracle's: CPU, one
// thread, every graph optimization (which fuses the QDQ groups).
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
  console.error('usage: node ort_batch.mjs --home ORACLE_HOME LIST');
  process.exit(2);
}
const backend = await import(pathToFileURL(path.join(home, 'lib', 'backend_onnx.mjs')).href);
for (const line of fs.readFileSync(list, 'utf8').split('\n').filter((l) => l.trim())) {
  const [model, out, ...ins] = line.trim().split(/\s+/);
  fs.rmSync(out + '.err', {force: true});
  try {
    const m = await backend.open(fs.readFileSync(model));
    if (m.outputs.length !== 1) throw new Error(`${m.outputs.length} outputs, expected 1`);
    const outs = await m.run(ins.map((f) => new Uint8Array(fs.readFileSync(f))));
    fs.writeFileSync(out, outs[0]);
    if (m.close) m.close();
  } catch (e) {
    fs.writeFileSync(out + '.err', String(e && e.message || e).replace(/\s+/g, ' ') + '\n');
  }
}
