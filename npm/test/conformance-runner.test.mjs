// The conformance runner must fail on every kind of difference, and pass only
// on an exact match. It is exercised here against a fake module (the JS layer
// over canned answers), since the core's checks are not all in yet, and end
// to end against the real module on the one answer the core already gives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bindApi, ValidationArgumentError } from '../src/api.js';
import { KIND_OF_CODE, assertPlain, checkCase, loadVector } from './support/conformance.mjs';

// A module whose every call answers `json` (or throws `error`), through the
// same JS layer the package uses.
function fakeApi({ json, error, onCall = () => {} }) {
  const answer = (name, args) => {
    onCall(name, args);
    if (error) throw { ...error };
    return json;
  };
  return {
    ...bindApi({
      callToolJson: (name, text) => answer(name, text),
      callTool: (name, args) => JSON.parse(answer(name, JSON.stringify(args))),
      toolNames: () => ['validate_rows', 'reconcile', 'count_distinct', 'duplicate_report'],
    }),
    ValidationArgumentError,
  };
}

function withVectors(files, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpv-vectors-'));
  try {
    for (const [name, doc] of Object.entries(files)) {
      writeFileSync(join(dir, name), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
    }
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function casesOf(text) {
  return withVectors({ 'v.json': text }, (dir) => loadVector(join(dir, 'v.json')));
}

const okCase = (expectedText, argsText = '{"rows": [], "key": "id"}') =>
  casesOf(
    `{"reference": "0.1.0", "cases": [{"name": "c", "tool": "count_distinct", "args": ${argsText}, "expected": ${expectedText}}]}`,
  )[0];

const errorCase = (expectedError) =>
  casesOf(
    JSON.stringify({
      reference: '0.1.0',
      cases: [{ name: 'e', tool: 'count_distinct', args: { rows: [] }, expected_error: expectedError }],
    }),
  )[0];

test('an identical result passes', () => {
  const text = '{"tool": "count_distinct", "ok": true, "ratio": 0.5, "n": 2}';
  checkCase(fakeApi({ json: text }), okCase(text));
});

test('an int where the vector has a float fails, naming the path', () => {
  assert.throws(
    () => checkCase(fakeApi({ json: '{"row": {"amount": 20}}' }), okCase('{"row": {"amount": 20.0}}')),
    /\$\.row\.amount: expected the float 20\.0, got the integer 20/,
  );
});

test('a reordered key fails', () => {
  assert.throws(
    () => checkCase(fakeApi({ json: '{"ok": true, "tool": "x"}' }), okCase('{"tool": "x", "ok": true}')),
    /key 0 is "ok"/,
  );
});

test('an error where a result is expected fails', () => {
  const api = fakeApi({ error: { code: 'invalid_argument', message: 'no', argument: 'key' } });
  assert.throws(
    () => checkCase(api, okCase('{}')),
    /expected a result, got ValidationArgumentError \[invalid_argument\]: no/,
  );
});

test('the arguments reach the module as the vector wrote them', () => {
  const seen = [];
  const args = '{"rows": [{"10": 1.0, "b": 2}], "key": "b"}';
  checkCase(fakeApi({ json: '{}', onCall: (name, text) => seen.push(text) }), okCase('{}', args));
  // First the exact text; then, because JS loses 1.0 and the key order, the
  // JSON path again on what JS sees, as the reference for the object API.
  assert.equal(seen[0], args);
  assert.equal(seen[1], '{"rows":[{"10":1,"b":2}],"key":"b"}');
});

test('an object API that answers differently from the JSON path fails', () => {
  const api = fakeApi({ json: '{"n": 1}' });
  api.callToolValues = () => ({ n: 2 });
  assert.throws(() => checkCase(api, okCase('{"n": 1}')), /callToolValues: result/);
});

test('an object API that returns a Map fails', () => {
  const api = fakeApi({ json: '{"n": {"a": 1}}' });
  api.callToolValues = () => ({ n: new Map([['a', 1]]) });
  assert.throws(() => checkCase(api, okCase('{"n": {"a": 1}}')), /\$\.n is not a plain object/);
  assert.throws(() => assertPlain([{ a: new Map() }]), /\$\[0\]\.a is not a plain object/);
});

test('an expected error passes on the same message and kind, and fails otherwise', () => {
  const api = fakeApi({ error: { code: 'invalid_argument', message: 'key must be ...', argument: 'key' } });
  checkCase(api, errorCase({ kind: 'tool_error', message: 'key must be ...', arguments: ['key'] }));
  assert.throws(
    () => checkCase(api, errorCase({ kind: 'tool_error', message: 'key must be' })),
    /callToolJson: message/,
  );
  assert.throws(
    () => checkCase(api, errorCase({ kind: 'invalid_arguments', message: 'key must be ...' })),
    /is a tool_error, the vector expects a invalid_arguments/,
  );
  assert.throws(
    () => checkCase(api, errorCase({ kind: 'tool_error', message: 'key must be ...', arguments: ['rows'] })),
    /"key" is not one of \["rows"\]/,
  );
  assert.throws(
    () => checkCase(fakeApi({ json: '{}' }), errorCase({ kind: 'tool_error', message: 'x' })),
    /expected a tool_error error, got a result/,
  );
});

test('every error code has a kind', () => {
  assert.deepEqual(Object.keys(KIND_OF_CODE).sort(), [
    'argument_type',
    'invalid_argument',
    'invalid_contract',
    'invalid_json',
    'unknown_tool',
  ]);
});

test('a vector that does not follow the schema is refused, not skipped', () => {
  const bad = [
    '[]',
    '{"cases": []}',
    '{"reference": "r", "cases": []}',
    '{"reference": "r", "cases": [{"name": "c", "tool": "t", "args": {}}]}',
    '{"reference": "r", "cases": [{"name": "c", "tool": "t", "args": {}, "expected": {}, "expected_error": {"kind": "tool_error", "message": "m"}}]}',
    '{"reference": "r", "cases": [{"name": "c", "tool": "t", "args": {}, "expected": {}, "skip": true}]}',
    '{"reference": "r", "cases": [{"name": "c", "tool": "t", "args": {}, "expected_error": {"kind": "other", "message": "m"}}]}',
    '{"reference": "r", "cases": [{"name": "c", "tool": "t", "args": {}, "expected_error": {"kind": "tool_error", "message": "m", "arguments": "key"}}]}',
  ];
  for (const text of bad) assert.throws(() => casesOf(text), assert.AssertionError, text);
});

// End to end: the real runner, the real module, a vector directory of our own.
function runRunner(dir) {
  const runner = fileURLToPath(new URL('./conformance.test.mjs', import.meta.url));
  // NODE_TEST_CONTEXT would make the child talk to this runner instead of printing.
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  return spawnSync(process.execPath, ['--test', '--test-reporter=tap', runner], {
    env: { ...env, MCPV_VECTORS_DIR: dir },
    encoding: 'utf8',
  });
}

test('the runner passes a vector the module matches and fails one it does not', () => {
  const unknown = (message) => ({
    reference: 'test',
    cases: [{ name: 'unknown tool', tool: 'no_such_tool', args: {}, expected_error: { kind: 'tool_error', message } }],
  });
  const pass = withVectors({ 'a.json': unknown('Unknown tool: no_such_tool') }, runRunner);
  assert.equal(pass.status, 0, pass.stdout + pass.stderr);
  // The presence check, the file and its one case.
  assert.match(pass.stdout, /# pass 3/);

  const fail = withVectors({ 'a.json': unknown('Unknown tool: something else') }, runRunner);
  assert.notEqual(fail.status, 0);
  assert.match(fail.stdout, /callToolJson: message/);
});
