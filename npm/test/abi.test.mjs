// The plain byte-buffer ABI, called on the raw instance the way a non-JS host
// (the wasmtime MCP host) will: every JS-glue import is a trap and
// __wbindgen_start is never called. Any import the ABI touched would fail here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { callToolJson, toolNames, ValidationArgumentError } from '../src/node.mjs';

const wasmPath = new URL('../dist/wasm/mcp_validation_core_bg.wasm', import.meta.url);
const module = new WebAssembly.Module(readFileSync(wasmPath));

const importCalls = [];
function trappingImports() {
  const imports = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    assert.equal(kind, 'function', `import ${from}.${name} is a ${kind}; a host could not trap it`);
    imports[from] ??= {};
    imports[from][name] = () => {
      importCalls.push(name);
      throw new Error(`the byte ABI called the JS import ${name}`);
    };
  }
  return imports;
}

const newInstance = () => new WebAssembly.Instance(module, trappingImports()).exports;
const instance = newInstance();
const abi = instance;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function put(bytes, abi) {
  const ptr = abi.mcpv_alloc(bytes.length);
  assert.notEqual(ptr, 0, 'mcpv_alloc failed');
  // Views are taken after every call that may grow memory.
  new Uint8Array(abi.memory.buffer, ptr, bytes.length).set(bytes);
  return ptr;
}

/** One call through the ABI: {status, json}, the tool name and the result freed by the caller. */
function call(tool, argsBytes, abi = instance) {
  const toolBytes = typeof tool === 'string' ? encoder.encode(tool) : tool;
  const args = typeof argsBytes === 'string' ? encoder.encode(argsBytes) : argsBytes;
  const toolPtr = put(toolBytes, abi);
  const argsPtr = put(args, abi);
  // The arguments' buffer passes to the module, which frees it once read.
  const packed = abi.mcpv_call(toolPtr, toolBytes.length, argsPtr, args.length);
  abi.mcpv_free(toolPtr, toolBytes.length);
  return takeResult(packed, abi);
}

/** The result buffer a call returned, as {status, json}, freed once copied out. */
function takeResult(packed, abi) {
  // u64 arrives as a BigInt: the pointer is the high half, the length the low.
  const ptr = Number(BigInt.asUintN(64, packed) >> 32n);
  const len = Number(BigInt.asUintN(32, packed));
  const buffer = new Uint8Array(abi.memory.buffer, ptr, len).slice();
  abi.mcpv_free(ptr, len);
  return { status: buffer[0], json: decoder.decode(buffer.subarray(1)) };
}

test('the module exports the byte ABI next to the wasm-bindgen API', () => {
  const names = WebAssembly.Module.exports(module).map((entry) => entry.name);
  for (const name of ['memory', 'mcpv_alloc', 'mcpv_free', 'mcpv_call', 'mcpv_call_csv']) {
    assert.ok(names.includes(name), name);
  }
});

test('an unknown tool is status 1 with the core error as JSON, code first', () => {
  const { status, json } = call('no_such_tool', '{}');
  assert.equal(status, 1);
  assert.equal(
    json,
    '{"code":"unknown_tool","message":"Unknown tool: no_such_tool","argument":null,"location":null,"line":null}',
  );
});

test('arguments that are not JSON are the core invalid_json error', () => {
  for (const args of ['{', '', 'nul']) {
    const { status, json } = call('count_distinct', args);
    assert.equal(status, 1, args);
    assert.equal(JSON.parse(json).code, 'invalid_json', args);
  }
});

test('a zero-length input may have any pointer', () => {
  const tool = encoder.encode('reconcile');
  const toolPtr = put(tool, abi);
  const packed = abi.mcpv_call(toolPtr, tool.length, 0, 0);
  abi.mcpv_free(toolPtr, tool.length);
  const ptr = Number(BigInt.asUintN(64, packed) >> 32n);
  const len = Number(BigInt.asUintN(32, packed));
  assert.equal(new Uint8Array(abi.memory.buffer, ptr, 1)[0], 1);
  abi.mcpv_free(ptr, len);
});

test('for every tool the ABI answers exactly what the JS API answers', () => {
  const args = JSON.stringify({
    rows: [{ id: 'A', amount: '1.50' }, { id: 'a' }],
    key: 'id',
    columns: [{ name: 'id' }],
  });
  for (const tool of toolNames()) {
    const { status, json } = call(tool, args);
    try {
      const text = callToolJson(tool, args);
      assert.equal(status, 0, tool);
      assert.equal(json, text, tool);
    } catch (error) {
      if (!(error instanceof ValidationArgumentError)) throw error;
      assert.equal(status, 1, tool);
      const expected = {
        code: error.code,
        message: error.message,
        argument: error.argument ?? null,
        location: error.location ?? null,
        line: error.line ?? null,
      };
      assert.deepEqual(JSON.parse(json), expected, tool);
    }
  }
});

/** mcpv_call_csv: the arguments, and the csv argument beside them as raw bytes (both pass to the module). */
function callWithCsv(tool, argsText, csvBytes) {
  const toolBytes = encoder.encode(tool);
  const args = encoder.encode(argsText);
  const toolPtr = put(toolBytes, abi);
  const argsPtr = put(args, abi);
  const csvPtr = put(csvBytes, abi);
  const packed = abi.mcpv_call_csv(toolPtr, toolBytes.length, argsPtr, args.length, csvPtr, csvBytes.length);
  abi.mcpv_free(toolPtr, toolBytes.length);
  return takeResult(packed, abi);
}

test('csv beside the arguments answers what csv inside them does, for every row tool', () => {
  const csv = 'id,amount\nA,1.50\n"a, b",x\nA,2\n';
  const argsOf = {
    validate_rows: { columns: [{ name: 'amount', type: 'number' }] },
    count_distinct: { key: 'id' },
    duplicate_report: { key: 'id' },
  };
  for (const [tool, args] of Object.entries(argsOf)) {
    const inside = call(tool, JSON.stringify({ ...args, csv }));
    const beside = callWithCsv(tool, JSON.stringify(args), encoder.encode(csv));
    assert.equal(beside.status, 0, tool);
    assert.equal(beside.json, inside.json, tool);
  }
  // Bytes that are not UTF-8 are an argument error naming csv, not a trap.
  const { status, json } = callWithCsv('validate_rows', '{}', new Uint8Array([0x69, 0x64, 0x0a, 0xff]));
  assert.equal(status, 1);
  assert.equal(JSON.parse(json).argument, 'csv');
});

test('a tool name that is not UTF-8 is an unknown tool, not a trap', () => {
  const { status, json } = call(new Uint8Array([0x72, 0xff]), '{}');
  assert.equal(status, 1);
  assert.equal(JSON.parse(json).code, 'unknown_tool');
});

test('large arguments grow memory and the answer is read after the growth', () => {
  const before = abi.memory.buffer.byteLength;
  const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: `C-${i}`, amount: i }));
  const { status, json } = call('count_distinct', JSON.stringify({ rows, key: 'id' }));
  assert.ok(abi.memory.buffer.byteLength > before, 'memory grew');
  assert.ok(status === 0 || status === 1);
  JSON.parse(json);
});

test('an allocation that cannot be had returns 0 instead of trapping', () => {
  assert.equal(abi.mcpv_alloc(0xffff_ffff), 0);
  abi.mcpv_free(0, 0xffff_ffff);
});

test('freed buffers are reused, so repeated calls do not leak', () => {
  // 2,000 calls with 10 kB of arguments on a fresh instance: a leak of the
  // inputs would need 20 MB more memory; without one the first call's memory
  // suffices. (Results leak too once they are large; today's are small.)
  const fresh = newInstance();
  const args = JSON.stringify({ rows: Array.from({ length: 800 }, (_, i) => ({ id: `key-${i}` })), key: 'id' });
  assert.ok(args.length > 10_000);
  call('count_distinct', args, fresh);
  const size = fresh.memory.buffer.byteLength;
  for (let i = 0; i < 2000; i += 1) call('count_distinct', args, fresh);
  assert.equal(fresh.memory.buffer.byteLength, size);
});

test('no JS import was called', () => {
  assert.deepEqual(importCalls, []);
});
