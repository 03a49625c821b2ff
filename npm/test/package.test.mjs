// What users install: `npm pack` the package, install the tarball into a fresh
// project, and use it there through ESM, CJS, TypeScript, a bundler and, when
// Chromium is present, a browser (plain ES modules, and the bundle).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as source from '../src/node.mjs';
import { chromium, inBrowser } from './support/browser.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(packageDir, 'node_modules', '.bin', name);
const work = mkdtempSync(join(tmpdir(), 'mcpv-package-'));
const project = join(work, 'project');
const installed = join(project, 'node_modules', 'mcp-validation-core');
let tarball;

// The calls every consumer makes; each answers a result or a core error, and
// every consumer must print exactly what the source tree answers.
const CALL_LIST = [
  [
    'validateRows',
    {
      rows: [
        { id: 'A', amount: '1.5' },
        { id: '', amount: 'x' },
      ],
      columns: [
        { name: 'id', required: true },
        { name: 'amount', type: 'number' },
      ],
      row_key: 'id',
    },
  ],
  ['reconcile', { opening_balance: 100, movements: [25, { amount: 5, direction: 'out' }], closing_balance: 120 }],
  ['countDistinct', { rows: [{ id: 'C-1' }, { id: ' c-1 ' }, { id: '' }], key: 'id' }],
  [
    'duplicateReport',
    {
      rows: [
        { id: 'C-1', name: 'Ann' },
        { id: 'C-2', name: 'Ann' },
      ],
      key: 'id',
      match_fields: ['name'],
    },
  ],
];
const CALLS = JSON.stringify(CALL_LIST);

const CONSUMER = `
  const outcomes = [];
  for (const [fn, args] of CALLS) {
    try {
      outcomes.push({ fn, result: api[fn](args) });
    } catch (error) {
      if (!(error instanceof api.ValidationArgumentError)) throw error;
      outcomes.push({ fn, error: { name: error.name, code: error.code, message: error.message, argument: error.argument ?? null } });
    }
  }
  try {
    api.callTool('no_such_tool', {});
  } catch (error) {
    outcomes.push({ fn: 'callTool', error: { name: error.name, code: error.code, message: error.message, instance: error instanceof api.ValidationArgumentError } });
  }
`;

function expectedOutcomes() {
  const api = source;
  const outcomes = [];
  for (const [fn, args] of CALL_LIST) {
    try {
      outcomes.push({ fn, result: api[fn](args) });
    } catch (error) {
      outcomes.push({
        fn,
        error: { name: error.name, code: error.code, message: error.message, argument: error.argument ?? null },
      });
    }
  }
  outcomes.push({
    fn: 'callTool',
    error: {
      name: 'ValidationArgumentError',
      code: 'unknown_tool',
      message: 'Unknown tool: no_such_tool',
      instance: true,
    },
  });
  return outcomes;
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

before(() => {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work, packageDir], { encoding: 'utf8' }),
  );
  tarball = { path: join(work, packed[0].filename), files: packed[0].files.map((file) => file.path) };
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  // The package has no dependencies, so this needs no registry.
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball.path]);
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the module, the glue, the entries and the types, and no tests', () => {
  for (const file of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/wasm/mcp_validation_core_bg.wasm',
    'dist/wasm/mcp_validation_core.js',
    'dist/wasm/mcp_validation_core_node.cjs',
    'dist/api.cjs',
    'dist/index.d.cts',
    'src/api.js',
    'src/browser.js',
    'src/node.cjs',
    'src/node.mjs',
    'types/index.d.ts',
  ]) {
    assert.ok(tarball.files.includes(file), `${file} is missing from the tarball`);
  }
  assert.deepEqual(
    tarball.files.filter((file) => /^(test|bench|node_modules)\//.test(file)),
    [],
  );
  assert.deepEqual(
    tarball.files.filter((file) => file.endsWith('.wasm')),
    ['dist/wasm/mcp_validation_core_bg.wasm'],
  );
});

test('import in an ES module project', () => {
  writeFileSync(
    join(project, 'esm.mjs'),
    `import * as api from 'mcp-validation-core';
     import { createRequire } from 'node:module';
     const CALLS = ${CALLS};
     ${CONSUMER}
     const required = createRequire(import.meta.url)('mcp-validation-core');
     outcomes.push({ sameClass: required.ValidationArgumentError === api.ValidationArgumentError });
     console.log(JSON.stringify(outcomes));`,
  );
  const outcomes = JSON.parse(run(process.execPath, ['esm.mjs']));
  assert.deepEqual(outcomes.pop(), { sameClass: true });
  assert.deepEqual(outcomes, expectedOutcomes());
});

test('require in a CommonJS project', () => {
  writeFileSync(
    join(project, 'cjs.cjs'),
    `const api = require('mcp-validation-core');
     const CALLS = ${CALLS};
     ${CONSUMER}
     console.log(JSON.stringify(outcomes));`,
  );
  assert.deepEqual(JSON.parse(run(process.execPath, ['cjs.cjs'])), expectedOutcomes());
});

test('TypeScript sees precise types through import and require', () => {
  const usage = (importLine) => `${importLine}
const rows = [{ id: 'A', amount: '1.5' }];
const checked: ValidateRowsResult = validateRows({ rows, columns: [{ name: 'amount', type: 'number', min: 0 }], row_key: 'id' });
if (checked.verdict !== 'inputs_rejected') {
  const rate: number = checked.summary.pass_rate;
  const reasons: string[] = checked.quarantine.flatMap((held) => held.reasons);
  void rate; void reasons;
}
const counted = countDistinct({ rows, key: 'id' });
if (counted.verdict !== 'inputs_rejected') {
  const blank: number = counted.difference_breakdown.from_rows_with_blank_key;
  void blank;
}
const closes: boolean | null = reconcile({ opening_balance: '10', movements: [1, { amount: 2, direction: 'out' }], closing_balance: 9 }).closes;
const groups = duplicateReport({ rows, key: 'id', similarity_threshold: 0.9 });
if (groups.verdict !== 'inputs_rejected') { const merged: false = groups.groups[0]!.auto_merged; void merged; }
const viaName: CountDistinctResult = callTool('count_distinct', { rows, key: 'id' });
try { callTool('reconcile', { opening_balance: 1, movements: [], closing_balance: 1 }); } catch (error) {
  if (error instanceof ValidationArgumentError) { const code: ErrorCode = error.code; const arg: string | undefined = error.argument; void code; void arg; }
}
// No narrowing needed: a validate_rows result always has its summary.
const direct: number = validateRows({ csv: 'id\\nA\\n', columns: [{ name: 'id' }], max_listed: 5 }).summary.pass_rate;
const omitted: number | undefined = counted.repeated_keys_omitted;
const line: number | undefined = readCsv('id\\nA\\n').lines[0];
const firstTool: string = toolCatalog().tools[0]!.input_schema.type as string;
void direct; void omitted; void line; void firstTool;
// @ts-expect-error: a path is read only by the MCP server
countDistinct({ path: 'data.csv', key: 'id' });
// @ts-expect-error: the data is given once, as rows or as csv
countDistinct({ rows, csv: 'id\\n', key: 'id' });
// @ts-expect-error: 'int' is not a column type
validateRows({ rows, columns: [{ name: 'a', type: 'int' }] });
// @ts-expect-error: arguments are snake_case, as the MCP tools take them
countDistinct({ rows, key: 'id', caseSensitive: true });
// @ts-expect-error: key is required
duplicateReport({ rows });
// @ts-expect-error: a result is not any
const wrong: string = checked.ok;
void closes; void viaName; void wrong;
`;
  const names =
    'validateRows, countDistinct, reconcile, duplicateReport, callTool, readCsv, toolCatalog, ValidationArgumentError, type ValidateRowsResult, type CountDistinctResult, type ErrorCode';
  writeFileSync(join(project, 'check.mts'), usage(`import { ${names} } from 'mcp-validation-core';`));
  writeFileSync(join(project, 'check.cts'), usage(`import { ${names} } from 'mcp-validation-core';`));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        typeRoots: [join(packageDir, 'node_modules', '@types')],
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['check.mts', 'check.cts'],
    }),
  );
  const result = spawnSync(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

const BROWSER_APP = `
import * as api from 'mcp-validation-core';
const CALLS = ${CALLS};
export async function run(source) {
  let early;
  try { api.countDistinct({ rows: [], key: 'id' }); } catch (error) { early = error.message; }
  await api.init(source);
  ${CONSUMER}
  return { early, outcomes };
}
`;

function bundle() {
  const dir = join(project, 'bundle');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
  writeFileSync(join(project, 'app.js'), BROWSER_APP);
  // esbuild resolves the "browser" condition, as browser bundlers do.
  run(bin('esbuild'), ['app.js', '--bundle', '--format=esm', '--platform=browser', `--outfile=${join(dir, 'app.js')}`]);
  // esbuild leaves new URL(..., import.meta.url) alone, so the .wasm is copied
  // beside the bundle, as the README tells esbuild users to do.
  copyFileSync(
    join(installed, 'dist', 'wasm', 'mcp_validation_core_bg.wasm'),
    join(dir, 'mcp_validation_core_bg.wasm'),
  );
  return dir;
}

test('a browser bundle made by esbuild runs', async () => {
  const dir = bundle();
  const { run: runBundle } = await import(join(dir, 'app.js'));
  const { early, outcomes } = await runBundle(readFileSync(join(dir, 'mcp_validation_core_bg.wasm')));
  assert.match(early, /call `await init\(\)` once/);
  assert.deepEqual(outcomes, expectedOutcomes());
});

const noBrowser = chromium ? false : 'no Chromium on PATH (scripts/ensure-tools.sh installs it)';

const PAGE_SCRIPT = `
  const out = document.getElementById('out');
  run().then((value) => { out.textContent = JSON.stringify(value); }, (error) => { out.textContent = JSON.stringify({ failed: String(error && error.stack || error) }); });
`;

test('a browser loads the package as plain ES modules, no bundler', { skip: noBrowser }, async () => {
  writeFileSync(
    join(project, 'page.html'),
    `<!doctype html><meta charset="utf-8"><pre id="out"></pre>
<script type="importmap">{"imports": {"mcp-validation-core": "./node_modules/mcp-validation-core/src/browser.js"}}</script>
<script type="module">
${BROWSER_APP.replace('export async function run(source)', 'async function run(source)')}
${PAGE_SCRIPT}
</script>`,
  );
  const value = JSON.parse(await inBrowser(project, 'page.html'));
  assert.equal(value.failed, undefined, value.failed);
  assert.match(value.early, /call `await init\(\)` once/);
  assert.deepEqual(value.outcomes, expectedOutcomes());
});

test('a browser runs the esbuild bundle, fetching the .wasm beside it', { skip: noBrowser }, async () => {
  const dir = bundle();
  writeFileSync(
    join(dir, 'page.html'),
    `<!doctype html><meta charset="utf-8"><pre id="out"></pre>
<script type="module">
import { run } from './app.js';
${PAGE_SCRIPT}
</script>`,
  );
  const value = JSON.parse(await inBrowser(dir, 'page.html'));
  assert.equal(value.failed, undefined, value.failed);
  assert.deepEqual(value.outcomes, expectedOutcomes());
});
