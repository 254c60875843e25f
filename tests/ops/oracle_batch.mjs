// SPDX-License-Identifier: Apache-2.0
// oracle_batch.mjs - runs many small .tflite models through the TFLite
// oracle (../shared/oracle) in one Node process.
//
//   node oracle_batch.mjs --home ORACLE_HOME --mode off|float|on|litert LIST
//
// MODE off/float/on runs tfjs-tflite with `--xnnpack MODE` (off: TFLite's
// builtin kernels); litert runs LiteRT.js (XNNPACK).  Float CONV_2D needs
// litert: builtin float CONV_2D aborts in the tfjs-tflite wasm, and its
// XNNPACK gives wrong results for some strides (checked against a direct
// evaluation of the convolution; LiteRT agrees with it).
//
// ORACLE_HOME is where tflite-oracle installed itself (it copies
// oracle.mjs and lib/ there and runs npm install; `tflite-oracle --help`
// does that once).  Each line of LIST is
//   MODEL RESULT_DIR IN0.bin [IN1.bin ...]
// For each line this writes RESULT_DIR/out<i>.bin (raw bytes, in the
// model's subgraph-0 output order, as tflite-oracle does) and then
// RESULT_DIR/status, one line: "ok", "refused: <TFLite's message>" or
// "crashed: <message>" (a wasm abort).  Lines that already have a status
// are skipped.  While a model runs, RESULT_DIR/pending exists: if the
// process dies there, the caller marks that case and starts a new process
// for the rest.  A caught wasm abort also ends the process (exit 3), as
// the module may be unusable after it.
//
// Starting Node and compiling the wasm costs about 0.3 s, running one of
// these models well under a millisecond: hence the batch.
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

function usage(msg) {
  console.error(`oracle_batch: ${msg}\nusage: node oracle_batch.mjs --home ORACLE_HOME --mode off|float|on|litert LIST`);
  process.exit(2);
}

const args = process.argv.slice(2);
let home = null, mode = 'off', list = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--home') home = args[++i];
  else if (args[i] === '--mode') mode = args[++i];
  else if (!list) list = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (!home || !list) usage('--home and LIST are required');

const lib = (f) => pathToFileURL(path.join(home, 'lib', f)).href;
if (!['off', 'float', 'on', 'litert'].includes(mode)) usage(`unknown mode ${mode}`);
const litert = mode === 'litert';
const backend = await import(lib(litert ? 'backend_litert.mjs' : 'backend_tfjs_tflite.mjs'));
const {parseModel, tensorBytes} = await import(lib('tflite_fb.mjs'));

const logLines = [];
const log = (s) => { logLines.push(s); };

const lines = fs.readFileSync(list, 'utf8').split('\n').filter((l) => l.trim());
let crashed = false;
for (const line of lines) {
  const [model, dir, ...ins] = line.trim().split(/\s+/);
  fs.mkdirSync(dir, {recursive: true});
  const status = path.join(dir, 'status');
  if (fs.existsSync(status)) continue;
  const pending = path.join(dir, 'pending');
  fs.writeFileSync(pending, '');
  logLines.length = 0;
  let m = null;
  try {
    const bytes = fs.readFileSync(model);
    const sg = parseModel(bytes).subgraphs[0];
    m = await backend.open(bytes, litert ? {log} : {xnnpack: mode, log});
    // tfjs-tflite names tensors by index, LiteRT by (unique) name.
    const same = (b, t) => (litert ? b.name === sg.tensors[t].name : b.id === t);
    const inPerm = sg.inputs.map((t) => m.inputs.findIndex((b) => same(b, t)));
    const outPerm = sg.outputs.map((t) => m.outputs.findIndex((b) => same(b, t)));
    if (inPerm.some((p) => p < 0) || outPerm.some((p) => p < 0) || ins.length !== sg.inputs.length) {
      throw new Error(`input/output lists do not match (model ${sg.inputs.length} inputs, ${ins.length} files)`);
    }
    const data = new Array(ins.length);
    ins.forEach((f, c) => { data[inPerm[c]] = new Uint8Array(fs.readFileSync(f)); });
    const outs = await m.run(data);
    // The model declares static output shapes; TFLite computes its own.
    // A difference is a bug in the model, not a result.
    outPerm.forEach((p, c) => {
      const t = sg.tensors[sg.outputs[c]];
      if (outs[p].length !== tensorBytes(t)) {
        throw new Error(`output ${c} (${t.name}): TFLite made ${outs[p].length} bytes, the model declares ` +
                        `${t.dtype}[${t.shape}] = ${tensorBytes(t)} bytes`);
      }
    });
    outPerm.forEach((p, c) => fs.writeFileSync(path.join(dir, `out${c}.bin`), outs[p]));
    fs.writeFileSync(status, 'ok\n');
  } catch (e) {
    const msg = [...logLines, String(e && e.message || e)].join(' | ').replace(/\s+/g, ' ');
    if (/abort|unreachable|out of bounds/i.test(msg)) {
      fs.writeFileSync(status, `crashed: ${msg}\n`);
      crashed = true;
    } else {
      fs.writeFileSync(status, `refused: ${msg}\n`);
    }
  }
  if (m) {
    try { m.close(); } catch (e) { crashed = true; }
  }
  fs.rmSync(pending, {force: true});
  if (crashed) process.exit(3);
}
