// The JavaScript peer of the benchmark: ajv, the JSON Schema validator JS
// users reach for, against the npm package on the same JSON rows and the
// same contract (scripts/bench.sh installs ajv and ajv-formats into the
// benchmark's own Node folder and runs this through the Rust program).
//
//   node bench/peers/ajv_rows.mjs ARGS.json NODE_PEERS_DIR RUNS
//
// NODE_PEERS_DIR holds node_modules installed from bench/peers/node.
//
// ARGS.json is a validate_rows call's arguments as the benchmark writes
// them ({"rows": [...], "columns": [...], ...}). Both sides start from the
// same JSON text, so parsing it is timed on both:
// - ajv: JSON.parse, then each row validated against the JSON Schema of one
//   row (compiled once, before the runs) that says what the 4-column
//   contract says (coerceTypes reads the amount's numeric text as a number,
//   as the contract's `number` does; ajv-formats' `date` is a real calendar
//   date, as Python's fromisoformat); a row fails when any keyword fails;
// - the npm package: callToolJson('validate_rows') on the same text with
//   max_listed 25 (the MCP server's default cap), rows counted, not listed.
// Each prints the number of failing rows, which must agree, and the median
// of RUNS timed runs after one untimed run.
//
// Prints one JSON object: {"ajv": {"version", "runs_ms", "validate_ms", "failing"},
//                          "ours": {"runs_ms", "failing"}}
// (validate_ms: ajv's time without JSON.parse, in each timed run).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const [argsPath, peersDir, runsText] = process.argv.slice(2);
const runs = Number(runsText);
const require = createRequire(resolve(peersDir, 'node_modules', 'noop.js'));
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const ajvVersion = require('ajv/package.json').version;

const text = readFileSync(argsPath, 'utf8');

// The contract of the benchmark's validate_rows (bench/src/data.rs) as one
// row's JSON Schema: every column required and not blank, the invoice
// INV-\d{6} (whole value), the amount a number of at least 0, the date an
// ISO calendar date.
const rowSchema = {
  type: 'object',
  required: ['invoice', 'customer', 'amount', 'date'],
  properties: {
    invoice: { type: 'string', pattern: '^INV-\\d{6}$' },
    customer: { type: 'string', pattern: '\\S' },
    amount: { type: 'number', minimum: 0 },
    date: { type: 'string', format: 'date' },
  },
};

// Compiled once, outside the timed runs, as a program that validates many
// inputs would keep it (the npm package reads its contract on every call: the
// comparison leans toward ajv).
const ajv = new Ajv({ coerceTypes: true, allErrors: true });
addFormats(ajv, ['date']);
const validate = ajv.compile(rowSchema);

const validateMs = [];
function ajvRun() {
  const { rows } = JSON.parse(text);
  const started = performance.now();
  let failing = 0;
  for (const row of rows) {
    if (!validate(row)) failing += 1;
  }
  validateMs.push(performance.now() - started);
  return failing;
}

const { callToolJson } = await import('../../npm/src/node.mjs');
const capped = JSON.stringify({ ...JSON.parse(text), max_listed: 25 });
function oursRun() {
  const result = JSON.parse(callToolJson('validate_rows', capped));
  return result.summary.quarantined;
}

function timed(run) {
  let failing = run();
  const runsMs = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    failing = run();
    runsMs.push(performance.now() - started);
  }
  return { runs_ms: runsMs, failing };
}

const ajvTimed = timed(ajvRun);
const oursTimed = timed(oursRun);
const ajvResult = { version: ajvVersion, ...ajvTimed, validate_ms: validateMs.slice(1) };
console.log(JSON.stringify({ ajv: ajvResult, ours: oursTimed }));
