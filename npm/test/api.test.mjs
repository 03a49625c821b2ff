// The JS API: what the package adds over the raw exports (error class, the two
// boundary paths, the entries) against the real module, and the pure
// conversions against a fake module where the core cannot yet answer.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as esm from '../src/node.mjs';
import { bindApi } from '../src/api.js';

const require = createRequire(import.meta.url);
const cjs = require('../src/node.cjs');
const dist = new URL('../dist/wasm/', import.meta.url);

function thrownBy(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected a throw');
}

test('an argument error is a ValidationArgumentError with the core message and code', () => {
  for (const call of [
    () => esm.callTool('no_such_tool', {}),
    () => esm.callToolValues('no_such_tool', {}),
    () => esm.callToolJson('no_such_tool', '{}'),
  ]) {
    const error = thrownBy(call);
    assert.ok(error instanceof esm.ValidationArgumentError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ValidationArgumentError');
    assert.equal(error.message, 'Unknown tool: no_such_tool');
    assert.equal(error.code, 'unknown_tool');
    assert.equal(error.argument, undefined);
    assert.match(error.stack, /ValidationArgumentError: Unknown tool/);
  }
});

test('JSON text that does not parse is the core invalid_json error', () => {
  assert.equal(thrownBy(() => esm.callToolJson('count_distinct', '{"rows": [')).code, 'invalid_json');
});

test('JS values with no JSON form are invalid_json on the value path', () => {
  for (const args of [{ rows: [() => 1], key: 'id' }, { key: Symbol('id') }, { n: 2n ** 70n }]) {
    const error = thrownBy(() => esm.callToolValues('count_distinct', args));
    assert.ok(error instanceof esm.ValidationArgumentError, String(error));
    assert.equal(error.code, 'invalid_json');
    assert.match(error.message, /^the arguments are not valid JSON: /);
  }
});

// The same answer, result or error, as a comparable value.
function answerOf(fn) {
  try {
    return { result: fn() };
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

test('undefined arguments reach the core as null on both paths', () => {
  for (const tool of esm.toolNames()) {
    const expected = answerOf(() => JSON.parse(esm.callToolJson(tool, 'null')));
    assert.deepEqual(
      answerOf(() => esm.callTool(tool, undefined)),
      expected,
      tool,
    );
    assert.deepEqual(
      answerOf(() => esm.callToolValues(tool, undefined)),
      expected,
      tool,
    );
  }
});

test('the raw module throws a plain {code, message, argument, location, line} object, never a Map', () => {
  const raw = require('../dist/wasm/mcp_validation_core_node.cjs');
  const thrown = thrownBy(() => raw.callTool('no_such_tool', {}));
  assert.equal(Object.getPrototypeOf(thrown), Object.prototype);
  assert.deepEqual(Object.keys(thrown), ['code', 'message', 'argument', 'location', 'line']);
  assert.equal(thrown.argument, null);
  assert.equal(thrown.location, null);
});

test('an argument error says where the fault is, as properties', () => {
  // The third column's pattern does not compile: columns[2].pattern (indexes from 0).
  const columns = [{ name: 'a' }, { name: 'b' }, { name: 'c', pattern: '(' }];
  for (const call of [
    () => esm.callTool('validate_rows', { rows: [], columns }),
    () => esm.callToolValues('validate_rows', { rows: [], columns }),
    () => esm.validateRows({ rows: [], columns }),
  ]) {
    const error = thrownBy(call);
    assert.equal(error.code, 'invalid_contract');
    assert.equal(error.argument, 'columns');
    assert.equal(error.location, 'columns[2].pattern');
    assert.equal(error.line, undefined);
  }
  // An unclosed quote that opens on line 3 (the header is line 1).
  const error = thrownBy(() => esm.countDistinct({ csv: 'id\n1\n"2\n3\n', key: 'id' }));
  assert.equal(error.location, 'csv');
  assert.equal(error.line, 3);
  // Our own wording names JSON kinds, never Python's.
  const typed = thrownBy(() => esm.countDistinct({ rows: [], key: null }));
  assert.equal(typed.location, 'key');
  assert.doesNotMatch(typed.message, /NoneType|dict|\bint\b|\bstr\b/);
});

test('export is refused: this package writes no files', () => {
  // The MCP server writes an export's files under --output-root; here nothing
  // would, so the call is an argument error that says what to do instead.
  const args = { rows: [{ a: 1 }], columns: [{ name: 'a' }], export: { dir: 'out' } };
  for (const call of [() => esm.validateRows(args), () => esm.callToolValues('validate_rows', args)]) {
    const error = thrownBy(call);
    assert.ok(error instanceof esm.ValidationArgumentError);
    assert.equal(error.argument, 'export');
    assert.equal(error.location, 'export');
    assert.match(error.message, /writes no files/);
    assert.match(error.message, /--output-root/);
  }
});

test('toolNames are the core names and the TypeScript ToolName union', () => {
  assert.deepEqual(esm.toolNames(), [
    'validate_rows',
    'reconcile',
    'count_distinct',
    'duplicate_report',
    'inspect_dataset',
  ]);
  const types = readFileSync(new URL('../types/index.d.ts', import.meta.url), 'utf8');
  const union = /export type ToolName = ([^;]+);/.exec(types)[1];
  assert.deepEqual(
    [...union.matchAll(/'(\w+)'/g)].map((m) => m[1]),
    esm.toolNames(),
  );
});

test('import and require share one instance and one error class', () => {
  assert.equal(esm.ValidationArgumentError, cjs.ValidationArgumentError);
  assert.equal(esm.callTool, cjs.callTool);
  assert.deepEqual(Object.keys(esm).sort(), Object.keys(cjs).sort());
});

test('init resolves at once in Node', async () => {
  await esm.init();
  await cjs.init(new Uint8Array(0));
});

test('one .wasm file serves both glue files', () => {
  assert.deepEqual(
    readdirSync(dist).filter((name) => name.endsWith('.wasm')),
    ['mcp_validation_core_bg.wasm'],
  );
  const web = readFileSync(new URL('mcp_validation_core.js', dist), 'utf8');
  const node = readFileSync(new URL('mcp_validation_core_node.cjs', dist), 'utf8');
  assert.match(web, /new URL\('mcp_validation_core_bg\.wasm', import\.meta\.url\)/);
  assert.match(node, /\$\{__dirname\}\/mcp_validation_core_bg\.wasm/);
});

// The JS layer alone, over a fake module that answers like the real one will.
function fake(answer) {
  const calls = [];
  const api = bindApi({
    callToolJson: (name, text) => {
      calls.push(['json', name, text]);
      return answer(name, text);
    },
    callTool: (name, args) => {
      calls.push(['values', name, args]);
      return JSON.parse(answer(name, JSON.stringify(args)));
    },
    toolNames: () => ['validate_rows', 'reconcile', 'count_distinct', 'duplicate_report', 'inspect_dataset'],
  });
  return { api, calls };
}

test('the default path sends JSON text and returns parsed values', () => {
  const { api, calls } = fake(() => '{"tool": "count_distinct", "ok": true, "n": 20.0}');
  assert.deepEqual(api.callTool('count_distinct', { rows: [], key: 'id' }), {
    tool: 'count_distinct',
    ok: true,
    n: 20,
  });
  assert.deepEqual(calls, [['json', 'count_distinct', '{"rows":[],"key":"id"}']]);
  api.callTool('count_distinct', undefined);
  assert.equal(calls[1][2], 'null');
});

test('each named check calls its tool', () => {
  const { api, calls } = fake(() => '{}');
  api.validateRows({});
  api.reconcile({});
  api.countDistinct({});
  api.duplicateReport({});
  api.inspectDataset({});
  assert.deepEqual(
    calls.map((call) => call[1]),
    ['validate_rows', 'reconcile', 'count_distinct', 'duplicate_report', 'inspect_dataset'],
  );
});

test('only the core error object becomes a ValidationArgumentError', () => {
  const trap = new WebAssembly.RuntimeError('unreachable');
  const { api } = fake(() => {
    throw trap;
  });
  assert.equal(
    thrownBy(() => api.callTool('reconcile', {})),
    trap,
  );
  const typeError = new TypeError('x');
  typeError.code = 'ERR_X';
  const { api: api2 } = fake(() => {
    throw typeError;
  });
  assert.equal(
    thrownBy(() => api2.callToolValues('reconcile', {})),
    typeError,
  );
  const { api: api3 } = fake(() => {
    throw { code: 'invalid_argument', message: 'key must be ...', argument: 'key' };
  });
  const error = thrownBy(() => api3.duplicateReport({}));
  assert.equal(error.argument, 'key');
  assert.equal(error.code, 'invalid_argument');
});

test('the browser entry works in any runtime once init is given the module', async () => {
  const browser = await import('../src/browser.js');
  assert.throws(() => browser.countDistinct({ rows: [], key: 'id' }), /call `await init\(\)` once/);
  await browser.init(readFileSync(new URL('mcp_validation_core_bg.wasm', dist)));
  await browser.init();
  const error = thrownBy(() => browser.callTool('no_such_tool', {}));
  assert.ok(error instanceof browser.ValidationArgumentError);
  assert.equal(error.message, 'Unknown tool: no_such_tool');
  for (const tool of browser.toolNames()) {
    const args = '{"rows": [{"id": "A"}], "key": "id", "columns": [{"name": "id"}]}';
    const outcome = (api) => {
      try {
        return api.callToolJson(tool, args);
      } catch (e) {
        return `${e.code}: ${e.message}`;
      }
    };
    assert.equal(outcome(browser), outcome(esm), tool);
  }
});

// serde-wasm-bindgen refuses integers beyond 2^53 on the way out; the binding
// then falls back to JSON.parse, which rounds them, as the JSON path does. A
// blank-key row is echoed whole by count_distinct, so it carries one back.
test('integers beyond 2^53 come back rounded on both paths, not as an error', () => {
  const big = 2n ** 64n - 1n;
  const values = esm.callToolValues('count_distinct', { rows: [{ id: '', n: big }], key: 'id' });
  const text = esm.callTool(
    'count_distinct',
    JSON.parse('{"rows": [{"id": "", "n": 18446744073709551615}], "key": "id"}'),
  );
  assert.equal(values.blank_key_rows[0].row.n, Number(big));
  assert.deepEqual(values, text);
});
