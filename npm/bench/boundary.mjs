// How long a large call takes on each way across the JS/wasm boundary:
//   JSON text   callTool(): JSON.stringify, one string copy in, one out, JSON.parse
//   JS values   callToolValues(): serde-wasm-bindgen converts value by value
// on validate_rows with 100,000 rows and a 4-column contract.
//
//   node bench/boundary.mjs [rows] [runs]      (after scripts/build-wasm.sh)
//
// The README's figures come from this script; re-run it when the core changes.
import { performance } from 'node:perf_hooks';
import { callTool, callToolValues } from '../src/node.mjs';

const rowCount = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 9);

const statuses = ['open', 'closed', 'void'];
const rows = Array.from({ length: rowCount }, (_, i) => ({
  invoice: `INV-${String(i).padStart(6, '0')}`,
  amount: i % 97 === 0 ? 'n/a' : ((i * 37) % 100_000) / 100,
  date: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
  status: statuses[i % 3],
}));
const args = {
  rows,
  columns: [
    { name: 'invoice', type: 'string', required: true, pattern: 'INV-\\d+' },
    { name: 'amount', type: 'number', min: 0 },
    { name: 'date', type: 'date', required: true },
    { name: 'status', allowed: ['open', 'closed'], on_fail: 'flag' },
  ],
  row_key: 'invoice',
};

// One call; an argument error still crossed the boundary both ways, and is
// reported so figures taken against an unfinished core are recognisable.
function once(call) {
  const start = performance.now();
  let answer;
  try {
    answer = call('validate_rows', args);
  } catch (error) {
    answer = { error: `${error.code ?? error.name}: ${error.message}` };
  }
  return { ms: performance.now() - start, answer };
}

function measure(label, call) {
  once(call); // warm-up: compiles the paths and grows wasm memory once
  const times = [];
  let answer;
  for (let i = 0; i < runs; i += 1) {
    const run = once(call);
    times.push(run.ms);
    answer = run.answer;
  }
  times.sort((a, b) => a - b);
  return { label, median: times[Math.floor(times.length / 2)], min: times[0], max: times.at(-1), answer };
}

const argsBytes = Buffer.byteLength(JSON.stringify(args));
console.log(
  `node ${process.version}, ${rowCount} rows (${(argsBytes / 1e6).toFixed(1)} MB as JSON), ${runs} runs each`,
);

const results = [
  measure('JSON text (callTool, the default)', callTool),
  measure('JS values (callToolValues)', callToolValues),
];
console.log('| path | median ms | min ms | max ms |');
console.log('| --- | ---: | ---: | ---: |');
for (const { label, median, min, max } of results) {
  console.log(`| ${label} | ${median.toFixed(1)} | ${min.toFixed(1)} | ${max.toFixed(1)} |`);
}
const answer = results[0].answer;
if (answer.error) {
  console.log(`note: the core answered an error, so only argument crossing was timed: ${answer.error}`);
} else {
  console.log(
    `answer: verdict ${answer.verdict}, ${answer.summary?.accepted} accepted, ${answer.summary?.quarantined} quarantined`,
  );
}
