// The npm package's part of the benchmark (scripts/bench.sh runs it through
// the Rust program in bench/, which reads what this prints):
//
//   node bench/inprocess.mjs MANIFEST.json
//
// MANIFEST: {"workloads": [{"id", "tool", "args_path", "warm_up", "runs", "out_path"}]}.
// For each workload: read the arguments as text, time a first callToolJson
// (the first call on these arguments: the module's memory grows to fit, and
// V8 still runs much of the module in its baseline tier), make `warm_up` more
// calls (V8 tiers hot functions up once they have run a while), time `runs`
// more (warm), and write the last result's text to out_path so the caller can
// compare it with the native core's, byte for byte.
//
// Prints one JSON object on stdout:
//   {"node": "v20...", "import_ms": n,
//    "workloads": [{"id", "first_ms", "runs_ms": [...]}]}
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));

// Loading the package compiles and instantiates the module.
const importStarted = performance.now();
const { callToolJson } = await import('../src/node.mjs');
const importMs = performance.now() - importStarted;

const workloads = [];
for (const { id, tool, args_path: argsPath, warm_up: warmUp, runs, out_path: outPath } of manifest.workloads) {
  const args = readFileSync(argsPath, 'utf8');
  let started = performance.now();
  let out = callToolJson(tool, args);
  const firstMs = performance.now() - started;
  for (let i = 0; i < warmUp; i += 1) {
    out = undefined;
    out = callToolJson(tool, args);
  }
  const runsMs = [];
  for (let i = 0; i < runs; i += 1) {
    out = undefined; // let the previous result go before the next call
    started = performance.now();
    out = callToolJson(tool, args);
    runsMs.push(performance.now() - started);
  }
  writeFileSync(outPath, out);
  workloads.push({ id, first_ms: firstMs, runs_ms: runsMs });
}

process.stdout.write(`${JSON.stringify({ node: process.version, import_ms: importMs, workloads })}\n`);
