// The conformance vectors (tests/conformance/vectors/*.json) and how one case
// is checked against a package API. Shared by the real run and by the tests
// of the runner itself.
//
// A vector file: {"reference": "...", "cases": [case, ...]}, each case
//   {"name", "tool", "args", "expected": <result envelope>}  or
//   {"name", "tool", "args", "expected_error": {"kind": "tool_error" | "invalid_arguments",
//                                               "message", "arguments"?: [names]}}

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { firstDifference, formatDifference, member, parseExact } from './exact-json.mjs';

/**
 * How the reference reports each error code: the MCP SDK's own argument
 * validation (`invalid_arguments`) refuses a wrongly typed or missing argument
 * and a call whose arguments are not an object before the tool runs; every
 * other refusal is a ToolError raised by the tool (`tool_error`).
 */
export const KIND_OF_CODE = Object.freeze({
  argument_type: 'invalid_arguments',
  invalid_json: 'invalid_arguments',
  invalid_contract: 'tool_error',
  invalid_argument: 'tool_error',
  unknown_tool: 'tool_error',
});

const TOOL_FUNCTIONS = {
  validate_rows: 'validateRows',
  reconcile: 'reconcile',
  count_distinct: 'countDistinct',
  duplicate_report: 'duplicateReport',
};

const CASE_KEYS = new Set(['name', 'tool', 'args', 'expected', 'expected_error']);
const ERROR_KEYS = new Set(['kind', 'message', 'arguments']);

/** The vector files in `dir`, sorted by name (none when `dir` does not exist). */
export function vectorFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Parse one vector file. A file that does not follow the schema is an error,
 * not a skip: a key the runner does not know could carry meaning it ignores.
 */
export function loadVector(path) {
  const doc = parseExact(readFileSync(path, 'utf8'));
  const where = (what) => `${path}: ${what}`;
  assert.equal(doc.type, 'object', where('a vector file is a JSON object'));
  const reference = member(doc, 'reference');
  assert.equal(reference?.type, 'string', where('"reference" must be a string'));
  const cases = member(doc, 'cases');
  assert.equal(cases?.type, 'array', where('"cases" must be an array'));
  assert.ok(cases.items.length > 0, where('"cases" is empty'));

  return cases.items.map((node, index) => {
    const at = (what) => where(`case ${index}: ${what}`);
    assert.equal(node.type, 'object', at('a case is an object'));
    for (const [key] of node.entries) {
      assert.ok(CASE_KEYS.has(key), at(`unknown key ${JSON.stringify(key)}`));
    }
    const name = member(node, 'name');
    const tool = member(node, 'tool');
    const args = member(node, 'args');
    const expected = member(node, 'expected');
    const expectedError = member(node, 'expected_error');
    assert.equal(name?.type, 'string', at('"name" must be a string'));
    assert.equal(tool?.type, 'string', at('"tool" must be a string'));
    assert.ok(args, at('"args" is missing'));
    assert.ok(
      (expected === undefined) !== (expectedError === undefined),
      at('exactly one of "expected" and "expected_error" is required'),
    );
    const kase = { file: path, name: name.value, tool: tool.value, args, expected };
    if (expectedError) {
      kase.expectedError = readExpectedError(expectedError, at);
    }
    return kase;
  });
}

function readExpectedError(node, at) {
  assert.equal(node.type, 'object', at('"expected_error" must be an object'));
  for (const [key] of node.entries) {
    assert.ok(ERROR_KEYS.has(key), at(`unknown expected_error key ${JSON.stringify(key)}`));
  }
  const kind = member(node, 'kind');
  const message = member(node, 'message');
  const args = member(node, 'arguments');
  assert.ok(
    kind?.type === 'string' && ['tool_error', 'invalid_arguments'].includes(kind.value),
    at('"expected_error.kind" must be "tool_error" or "invalid_arguments"'),
  );
  assert.equal(message?.type, 'string', at('"expected_error.message" must be a string'));
  let names;
  if (args !== undefined) {
    assert.ok(
      args.type === 'array' && args.items.every((item) => item.type === 'string'),
      at('"expected_error.arguments" must be an array of strings'),
    );
    names = args.items.map((item) => item.value);
  }
  return { kind: kind.value, message: message.value, arguments: names };
}

function outcomeOf(fn) {
  try {
    return { result: fn() };
  } catch (thrown) {
    return { thrown };
  }
}

function describeThrown(thrown) {
  return thrown?.code ? `${thrown.name} [${thrown.code}]: ${thrown.message}` : String(thrown);
}

/** Both messages report an invalid pattern: the compiler's detail may differ (a documented deviation). */
function bothInvalidPattern(actual, expected) {
  const marker = '"pattern" is not a valid regular expression (';
  return actual.includes(marker) && expected.includes(marker);
}

/**
 * The same rules as the Rust runner (core/tests/conformance.rs): a tool error
 * carries the reference's message exactly (an invalid pattern's compiler
 * detail aside); an argument the reference's validator refused is named, in
 * the error's `argument` and in its message.
 */
function checkError(api, thrown, expected, label) {
  if (!(thrown instanceof api.ValidationArgumentError)) {
    assert.fail(`${label}: expected a ValidationArgumentError, got ${describeThrown(thrown)}`);
  }
  const kind = KIND_OF_CODE[thrown.code];
  assert.ok(kind, `${label}: unknown error code ${JSON.stringify(thrown.code)}`);
  assert.equal(
    kind,
    expected.kind,
    `${label}: code ${thrown.code} is a ${kind}, the vector expects a ${expected.kind}`,
  );
  const names = expected.arguments ?? [];
  if (names.length) {
    assert.ok(
      names.includes(thrown.argument),
      `${label}: argument ${JSON.stringify(thrown.argument)} is not one of ${JSON.stringify(names)}`,
    );
  }
  if (expected.kind === 'tool_error') {
    if (!bothInvalidPattern(thrown.message, expected.message)) {
      assert.equal(thrown.message, expected.message, `${label}: message`);
    }
    return;
  }
  for (const name of names) {
    assert.ok(thrown.message.includes(`"${name}"`), `${label}: message does not name "${name}": ${thrown.message}`);
  }
}

/**
 * tests/conformance/deviations.json: `cases` (case name -> deviation kind),
 * and the replacements of `contract_v2_listing`.
 */
export function loadDeviations(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** What a deviation of this kind requires of the thrown error's message. */
const DEVIATION_CHECKS = {
  unsupported_pattern: (message) => assert.ok(message.includes('which is not supported'), message),
  contract_v2_listing: (message, kase, document) => {
    const recorded = kase.expectedError?.message ?? '';
    const rewritten = document.contract_v2_listing.reduce((text, [ours, v2]) => text.replaceAll(ours, v2), recorded);
    assert.notEqual(rewritten, recorded, 'the recorded message lists no keys or types to rewrite');
    assert.equal(message, rewritten);
  },
};

/** A documented deviation: the behaviour this implementation has instead of the vector's. */
export function checkDeviation(api, kase, deviation, document) {
  const check = DEVIATION_CHECKS[deviation];
  assert.ok(check, `unknown deviation kind ${deviation}`);
  const calls = [
    ['callToolJson', () => api.callToolJson(kase.tool, kase.args.text)],
    ['callTool', () => api.callTool(kase.tool, JSON.parse(kase.args.text))],
  ];
  for (const [label, call] of calls) {
    const outcome = outcomeOf(call);
    if (!('thrown' in outcome)) assert.fail(`${label}: deviation ${deviation}: expected an error, got a result`);
    assert.ok(outcome.thrown instanceof api.ValidationArgumentError, `${label}: ${describeThrown(outcome.thrown)}`);
    assert.equal(outcome.thrown.code, 'invalid_contract', `${label}: code`);
    check(outcome.thrown.message, kase, document);
  }
}

/** Every value is a plain object, an array or a primitive: never a Map. */
export function assertPlain(value, path = '$') {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertPlain(item, `${path}[${index}]`));
    return;
  }
  assert.equal(Object.getPrototypeOf(value), Object.prototype, `${path} is not a plain object`);
  for (const [key, item] of Object.entries(value)) assertPlain(item, `${path}.${key}`);
}

/**
 * Check one case against `api`: the JSON text path exactly (number kinds and
 * key order included), then every object-taking function for the same values
 * as far as JS values can carry them.
 */
export function checkCase(api, kase) {
  const argsText = kase.args.text;
  const exact = outcomeOf(() => api.callToolJson(kase.tool, argsText));

  if (kase.expected) {
    if ('thrown' in exact) {
      assert.fail(`callToolJson: expected a result, got ${describeThrown(exact.thrown)}`);
    }
    const difference = firstDifference(kase.expected, parseExact(exact.result));
    if (difference) assert.fail(`callToolJson: ${formatDifference(difference)}`);
  } else {
    if (!('thrown' in exact)) {
      assert.fail(
        `callToolJson: expected a ${kase.expectedError.kind} error, got a result: ${exact.result.slice(0, 200)}`,
      );
    }
    checkError(api, exact.thrown, kase.expectedError, 'callToolJson');
  }

  // The object API sees the arguments as JS values. Where those lose nothing
  // (no 20.0, no reordered integer-like keys), its answer must be the vector's;
  // otherwise it must be what the JSON path answers for the same JS values.
  const jsArgs = JSON.parse(argsText);
  const jsArgsText = JSON.stringify(jsArgs);
  const lossless = firstDifference(kase.args, parseExact(jsArgsText)) === null;
  const reference = lossless ? exact : outcomeOf(() => api.callToolJson(kase.tool, jsArgsText));

  const calls = [
    ['callTool', () => api.callTool(kase.tool, jsArgs)],
    ['callToolValues', () => api.callToolValues(kase.tool, jsArgs)],
  ];
  const perTool = TOOL_FUNCTIONS[kase.tool];
  if (perTool) calls.push([perTool, () => api[perTool](jsArgs)]);

  for (const [label, call] of calls) {
    const outcome = outcomeOf(call);
    if ('thrown' in reference) {
      if (!('thrown' in outcome)) assert.fail(`${label}: expected an error, got a result`);
      if (!(outcome.thrown instanceof api.ValidationArgumentError)) {
        assert.fail(`${label}: expected a ValidationArgumentError, got ${describeThrown(outcome.thrown)}`);
      }
      assert.equal(outcome.thrown.code, reference.thrown.code, `${label}: code`);
      assert.equal(outcome.thrown.message, reference.thrown.message, `${label}: message`);
      assert.equal(outcome.thrown.argument, reference.thrown.argument, `${label}: argument`);
    } else {
      if ('thrown' in outcome) assert.fail(`${label}: expected a result, got ${describeThrown(outcome.thrown)}`);
      assertPlain(outcome.result);
      assert.deepStrictEqual(outcome.result, JSON.parse(reference.result), `${label}: result`);
    }
  }
}
