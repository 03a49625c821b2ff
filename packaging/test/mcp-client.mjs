// A minimal MCP client over stdio, to check an installed server the way a
// host starts it: from a config block's command, args and env. It runs
// initialize, tools/list and one call of each of the five tools, checks each
// answer, and prints how long the server took to list its tools.
//
//   node mcp-client.mjs BLOCK_JSON [SINCE_MS]
//
// BLOCK_JSON is {"command": ..., "args": [...], "env": {...}, "cwd": ...}; the
// server gets only that env (a host does not pass on your shell's). SINCE_MS
// (epoch milliseconds) is when the install began: the line printed is then
// install-to-first-answer, the time a new user waits. Exits 1, naming the
// step, on any wrong or missing answer.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [blockText, sinceText] = process.argv.slice(2);
const block = JSON.parse(blockText);
const since = sinceText ? Number(sinceText) : Date.now();

// One call of each tool, with the verdict its arguments must get.
const calls = [
  {
    name: 'validate_rows',
    verdict: 'quarantined',
    arguments: {
      rows: [
        { invoice: 'INV-1', amount: '10' },
        { invoice: 'INV-2', amount: 'abc' },
      ],
      columns: [
        { name: 'invoice', type: 'string', required: true },
        { name: 'amount', type: 'number' },
      ],
    },
  },
  {
    name: 'reconcile',
    verdict: 'clean',
    arguments: { opening_balance: 100, movements: [5, -2.5], closing_balance: 102.5 },
  },
  { name: 'count_distinct', verdict: 'clean', arguments: { rows: [{ id: 'A' }, { id: 'B' }], key: 'id' } },
  { name: 'duplicate_report', verdict: 'clean', arguments: { rows: [{ id: 1 }, { id: 2 }], key: 'id' } },
  { name: 'inspect_dataset', verdict: null, arguments: { csv: 'id,amount\n1,2.5\n2,3\n' } },
];

const server = spawn(block.command, block.args ?? [], {
  cwd: block.cwd,
  env: block.env ?? {},
  stdio: ['pipe', 'pipe', 'inherit'],
});
server.on('error', (err) => fail(`cannot start ${block.command}: ${err.message}`));
const waiting = new Map();
createInterface({ input: server.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message);
  waiting.delete(message.id);
});
server.on('exit', (code, signal) => {
  if (waiting.size > 0) fail(`the server exited (${signal ?? code}) with ${waiting.size} request(s) unanswered`);
});

let nextId = 1;
function request(method, params) {
  const id = nextId++;
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  return new Promise((resolve) => waiting.set(id, resolve));
}

function fail(why) {
  console.error(`mcp-client: ${why}`);
  process.exit(1);
}

const timeout = setTimeout(() => fail('no complete session within 120 s'), 120_000);
const init = await request('initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'test-install', version: '0' },
});
if (!init.result?.serverInfo) fail(`initialize: ${JSON.stringify(init)}`);
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const list = await request('tools/list', {});
const firstAnswerMs = Date.now() - since;
const names = (list.result?.tools ?? []).map((tool) => tool.name).sort();
const wanted = calls.map((call) => call.name).sort();
if (JSON.stringify(names) !== JSON.stringify(wanted)) fail(`tools/list: ${JSON.stringify(names)}, not ${wanted}`);

for (const call of calls) {
  const answer = await request('tools/call', { name: call.name, arguments: call.arguments });
  const result = answer.result;
  const content = result?.structuredContent;
  if (!result || result.isError || content?.tool !== call.name) {
    fail(`${call.name}: ${JSON.stringify(answer).slice(0, 500)}`);
  }
  if (call.verdict !== null && content.verdict !== call.verdict) {
    fail(`${call.name}: verdict ${JSON.stringify(content.verdict)}, not ${JSON.stringify(call.verdict)}`);
  }
}
clearTimeout(timeout);
server.stdin.end();
console.log(`first answer (tools/list) ${firstAnswerMs} ms after the start; ${calls.length} tool calls answered`);
