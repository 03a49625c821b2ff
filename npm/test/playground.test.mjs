// The playground (npm/playground/): its pure modules against the package in
// Node, its server, and the page itself in Chromium through playwright-core.
//
// Expected values come from reasoning about the example data (the README's
// worked example) or from calling the package in Node on the example's data
// and arguments, assembled here independently of the page's own code; never
// from what the page displayed. CSV is read by the core (readCsv), for the
// page and for these expectations alike; the forms and examples are checked
// against the core's tool catalog.
//
// The browser tests do not skip quietly: without Chromium they fail, unless
// MCPV_NO_BROWSER=1 says this environment has no browser on purpose (and
// MCPV_REQUIRE_ALL_TESTS=1, as .ci/run sets, overrides even that).
// Screenshots go to playground-screenshots/ in cargo's target directory.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../src/node.mjs';
import { contractTarget, splitMessage } from '../playground/arg-errors.js';
import { EXAMPLES } from '../playground/examples.js';
import { indentJson } from '../playground/json-text.js';
import { browserSkip, chromium as chromiumOnPath, NO_CHROMIUM } from './support/browser.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const playgroundDir = join(packageDir, 'playground');
// Cargo's target directory, from the one script that works it out.
const targetDir = execFileSync(fileURLToPath(new URL('../../scripts/target-dir.sh', import.meta.url)), {
  encoding: 'utf8',
}).trim();
const shots = join(targetDir, 'playground-screenshots');

const example = (id) => EXAMPLES.find((e) => e.id === id);

// The page's modules that call the package go through its browser entry,
// which needs the module handed to it outside a browser.
const browser = await import('../src/browser.js');
await browser.init(readFileSync(new URL('../dist/wasm/mcp_validation_core_bg.wasm', import.meta.url)));
const { readData, DATA_ARGUMENTS } = await import('../playground/data.js');
const { formFields, PRESENTATION } = await import('../playground/args-form.js');
const { SPEC_FIELDS } = await import('../playground/contract-form.js');
const catalog = api.toolCatalog();
const entryOf = (tool) => catalog.tools.find((entry) => entry.name === tool);

// The cash book's movements, as the core reads its CSV.
function cashBookMovements() {
  return api.readCsv(example('cash-book').data).rows;
}

function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected an argument error');
}

// ------------------------------------------------- the page's pure modules

test('the core’s CSV reader is the one the checks use: rows, values, lines and errors', () => {
  const tables = [
    'id,amount\nA,1\nB,2\n',
    '\uFEFFname,note,n\r\n"Smith, Ann","said ""hi""",1\r\n"two\nlines",x\r\n\r\n\nlast,"",3,4,5\rq"uote,"a"b,\n"",\n',
    'a,b\r1,2\r\n\n3,4',
    'only\n\n\n',
    example('customers').data,
    example('invoices-5000').data,
  ];
  for (const text of tables) {
    const table = api.readCsv(text);
    // Every row flagged (a required column no row has), so the check lists
    // each row as it read it, with its line.
    const core = api.validateRows({ csv: text, columns: [{ name: '\u0000absent', required: true, on_fail: 'flag' }] });
    assert.equal(table.rows.length, core.summary.rows_in);
    assert.deepEqual(
      table.rows,
      core.flagged.map((held) => held.row),
    );
    assert.deepEqual(
      table.lines,
      core.flagged.map((held) => held.locator.line),
    );
    // The page's data panel holds exactly what the core read.
    const page = readData(text, 'validate_rows');
    assert.deepEqual(
      [page.kind, page.items, page.lines, page.columns, page.error],
      ['csv', table.rows, table.lines, table.header, null],
    );
  }
  // Reasoned, not read back: a quoted two-line field moves the next row's line.
  const reasoned = api.readCsv('a,b\n"x\ny",1\nz,2,3\n');
  assert.deepEqual(reasoned, {
    header: ['a', 'b'],
    rows: [
      { a: 'x\ny', b: '1' },
      { a: 'z', b: '2', _extra: ['3'] },
    ],
    lines: [2, 4],
    extra_fields_key: '_extra',
  });
  for (const broken of ['a,b\n1,"open\n2,3\n', 'id,name,id\n1,2,3\n']) {
    const error = thrown(() => api.countDistinct({ csv: broken, key: 'a' }));
    assert.equal(error.argument, 'csv');
    const read = thrown(() => api.readCsv(broken));
    assert.deepEqual([read.code, read.argument, read.message], [error.code, error.argument, error.message]);
    assert.equal(readData(broken, 'validate_rows').error, error.message);
  }
});

test('the forms are the catalog’s arguments: names, required, defaults', () => {
  const argumentNames = new Set(catalog.tools.flatMap((entry) => Object.keys(entry.input_schema.properties)));
  for (const name of Object.keys(PRESENTATION))
    assert.ok(argumentNames.has(name), `the form presents "${name}", which no tool takes`);
  for (const name of DATA_ARGUMENTS) assert.ok(argumentNames.has(name), `"${name}" is a data argument no tool takes`);
  for (const entry of catalog.tools) {
    const fields = formFields(entry);
    const schema = entry.input_schema;
    assert.deepEqual(
      fields.map((f) => f.name),
      Object.keys(schema.properties).filter((name) => !DATA_ARGUMENTS.includes(name)),
      entry.name,
    );
    for (const field of fields) {
      assert.equal(field.required, schema.required.includes(field.name), `${entry.name}.${field.name}`);
      const types = (schema.properties[field.name].anyOf ?? [schema.properties[field.name]])
        .map((v) => v.type)
        .filter(Boolean);
      const fits = {
        boolean: ['boolean'],
        number: ['number', 'integer'],
        column: ['string'],
        columns: ['array'],
        contract: ['array'],
        json: ['object', 'array'],
        text: ['string'],
      }[field.kind];
      assert.ok(
        types.length === 0 || types.some((type) => fits.includes(type)),
        `${entry.name}.${field.name}: a ${field.kind} field for ${types}`,
      );
    }
  }
  // Generated, not listed: an argument the catalog gains gets a field.
  const grown = structuredClone(entryOf('count_distinct'));
  grown.input_schema.properties.sample = { type: 'integer', default: 10 };
  assert.deepEqual(formFields(grown).at(-1), {
    name: 'sample',
    kind: 'number',
    required: false,
    placeholder: '10',
    help: '',
  });
  // The contract form edits only keys a column spec has, and every rule.
  const specKeys = Object.keys(catalog.column_spec.properties);
  assert.deepEqual(
    SPEC_FIELDS.filter((key) => !specKeys.includes(key)),
    [],
  );
  assert.deepEqual(
    specKeys.filter((key) => !SPEC_FIELDS.includes(key)),
    ['description'],
  );
});

test('the examples are calls the catalog describes, and the core accepts', () => {
  for (const { id, tool, data, args } of EXAMPLES) {
    assert.ok(entryOf(tool), `${id}: ${tool}`);
    for (const [name, given] of Object.entries(args)) {
      const schema = entryOf(name).input_schema;
      for (const key of Object.keys(given))
        assert.ok(key in schema.properties && !DATA_ARGUMENTS.includes(key), `${id}: ${name}.${key}`);
      for (const key of schema.required)
        assert.ok(DATA_ARGUMENTS.includes(key) || key in given, `${id}: ${name} lacks ${key}`);
      const read = readData(data, name);
      const input =
        name === 'reconcile' ? { movements: read.items } : read.kind === 'csv' ? { csv: data } : { rows: read.items };
      assert.equal(typeof api.callTool(name, { ...input, ...given }).ok, 'boolean', `${id}: ${name}`);
    }
  }
});

test('the raw envelope is indented without changing a character of the core’s JSON', () => {
  const args = JSON.parse(JSON.stringify(example('worked-example').args.validate_rows));
  const raw = api.callToolJson(
    'validate_rows',
    JSON.stringify({ rows: JSON.parse(example('worked-example').data), ...args }),
  );
  const pretty = indentJson(raw);
  assert.deepEqual(JSON.parse(pretty), JSON.parse(raw));
  assert.equal(
    pretty.replace(/\s+(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, ''),
    raw.replace(/\s+(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, ''),
  );
  // The README's exact form: the coerced amount is the float 20.0.
  assert.match(pretty, /"amount": 20\.0,/);
  const plain = api.callToolJson(
    'count_distinct',
    JSON.stringify({ rows: [{ id: 'a' }, { id: '' }, { id: 'a' }], key: 'id' }),
  );
  assert.equal(indentJson(plain), JSON.stringify(JSON.parse(plain), null, 2));
});

test('a contract error is placed on the column and key its location names', () => {
  const cases = [
    [[{ name: 'invoice' }, { name: 'amount', type: 'numbr' }], { index: 1, key: 'type' }],
    [[{ name: 'invoice' }, { name: 'amount', min: 'x' }], { index: 1, key: 'min' }],
    [[{ name: 'amount', range: [5, 1] }], { index: 0, key: 'range' }],
    [[{ name: 'amount', on_fail: 'drop' }], { index: 0, key: 'on_fail' }],
    [[{ name: 'x' }, { name: 'a "b": c', pattern: '([' }], { index: 1, key: 'pattern' }],
    // The unknown key itself (the form has no control for it, so the column's first one is focused).
    [[{ name: 'x' }, { nme: 'y' }], { index: 1, key: 'nme' }],
    [[{ name: 'x' }, 7], { index: 1, key: null }],
    [[{ name: 'x' }, { name: '' }], { index: 1, key: 'name' }],
  ];
  for (const [contract, target] of cases) {
    const error = thrown(() => api.validateRows({ rows: [], columns: contract }));
    assert.equal(error.argument, 'columns');
    assert.deepEqual(contractTarget(error.location), target, error.message);
  }
  // A repeated name is placed on the repeat, the second "a".
  const twice = [{ name: 'a' }, { name: 'a' }];
  const duplicate = thrown(() => api.validateRows({ rows: [], columns: twice }));
  assert.deepEqual(contractTarget(duplicate.location), { index: 1, key: 'name' });
  // An empty contract is the whole argument's fault: no column.
  assert.equal(contractTarget(thrown(() => api.validateRows({ rows: [], columns: [] })).location), null);
  assert.ok(splitMessage(duplicate.message)[1].startsWith('A column spec is an object'));
});

// ------------------------------------------------------------ the server

async function startServer() {
  const child = spawn(process.execPath, [join(playgroundDir, 'serve.mjs'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Playground: (http:\/\/127\.0\.0\.1:\d+\/playground\/)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}: ${output}`)));
  });
  return {
    child,
    url,
    origin: new URL(url).origin,
    stop: () =>
      new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))),
  };
}

test('serve.mjs serves the playground, src and dist on loopback, and nothing else', async () => {
  const server = await startServer();
  try {
    const get = (path, init) => fetch(server.origin + path, { redirect: 'manual', ...init });
    assert.equal((await get('/')).headers.get('location'), '/playground/');
    const page = await get('/playground/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    assert.match(await page.text(), /<script type="module" src="main.js">/);
    assert.match((await get('/src/browser.js')).headers.get('content-type'), /^text\/javascript/);
    assert.equal((await get('/dist/wasm/mcp_validation_core_bg.wasm')).headers.get('content-type'), 'application/wasm');
    for (const path of [
      '/package.json',
      '/playground/../package.json',
      '/%2e%2e/package.json',
      '/playground/%2e%2e/test/playground.test.mjs',
      '/node_modules/playwright-core/package.json',
      '/test/playground.test.mjs',
      '/src/../../Cargo.toml',
    ]) {
      assert.equal((await get(path)).status, 404, path);
    }
    assert.equal((await get('/playground/', { method: 'POST' })).status, 405);
    // A page elsewhere cannot reach it through a DNS name that points here.
    const port = new URL(server.origin).port;
    const { request } = await import('node:http');
    const status = await new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/playground/', headers: { host: `attacker.example:${port}` } }, (res) =>
        resolve(res.statusCode),
      )
        .on('error', reject)
        .end();
    });
    assert.equal(status, 421);
  } finally {
    await server.stop();
  }
});

test('the service worker keeps every file the page loads, and only files that exist', () => {
  const source = readFileSync(join(playgroundDir, 'sw.js'), 'utf8');
  const listed = JSON.parse(
    `[${/const FILES = \[([\s\S]*?)\];/.exec(source)[1].replaceAll("'", '"').replace(/,\s*$/, '')}]`,
  );
  const files = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  const pageFiles = files(playgroundDir)
    .map((path) => `./${relative(playgroundDir, path)}`)
    .filter((path) => !['./README.md', './serve.mjs', './sw.js'].includes(path));
  for (const file of pageFiles) assert.ok(listed.includes(file), `sw.js does not keep ${file}`);
  for (const file of listed) {
    if (file === './') continue;
    assert.ok(existsSync(join(playgroundDir, file)), `sw.js lists ${file}, which does not exist`);
  }
});

test('the playground is not part of the published package', () => {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', packageDir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  assert.deepEqual(
    packed.files.filter((file) => file.path.startsWith('playground/')),
    [],
  );
});

// ------------------------------------------------------ the page, in Chromium

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

describe('the playground in Chromium', { skip: browserSkip, timeout: 180_000 }, () => {
  let server;
  let browser;
  const requests = [];
  const problems = [];

  before(async () => {
    const executablePath = process.env.MCPV_CHROMIUM ?? chromiumOnPath;
    assert.ok(executablePath, NO_CHROMIUM);
    let playwright;
    try {
      playwright = await import('playwright-core');
    } catch (error) {
      assert.fail(
        `playwright-core is not installed in npm/node_modules (run scripts/ensure-tools.sh): ${error.message}`,
      );
    }
    mkdirSync(shots, { recursive: true });
    server = await startServer();
    browser = await playwright.chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // A page with every request, error and dialog recorded.
  async function open(viewport = LAPTOP, hash = '') {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    context.on('request', (request) => requests.push(request.url()));
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console error: ${message.text()}`));
    // An argument error must be shown in the page, never as a dialog.
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      dialog.dismiss();
    });
    await page.goto(server.url + hash);
    await page.waitForSelector('#result-body[data-state="result"]');
    return { context, page };
  }

  // Run `action`, then wait for the page to finish the run it causes.
  async function afterRun(page, action) {
    const before = await page.getAttribute('#result-body', 'data-run');
    await action();
    await page.waitForFunction((run) => document.querySelector('#result-body').dataset.run !== run, before);
  }

  const tiles = (page) =>
    page.$$eval('[data-count]', (elements) =>
      Object.fromEntries(elements.map((e) => [e.dataset.count, e.querySelector('.tile-value').textContent])),
    );
  const highlighted = (page, scope = '#result-body table.rows') =>
    page.$$eval(`${scope} td.hit`, (cells) =>
      cells.map((td) => `${td.closest('tr').dataset.rowIndex}:${td.dataset.col}`).sort(),
    );
  const fmt = (n) => n.toLocaleString('en-US');
  const money = (n) =>
    `${n < 0 ? '−' : n > 0 ? '+' : ''}${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

  // An example's result from the package, and the counts the result bar must
  // give for it, in the page's order and words.
  function expectedBar(id) {
    const { tool, data, args } = example(id);
    const input = data.trimStart().startsWith('[') ? { rows: JSON.parse(data) } : { csv: data };
    switch (tool) {
      case 'validate_rows': {
        const r = api.validateRows({ ...input, ...args.validate_rows });
        const s = r.summary;
        return [
          r,
          `${fmt(s.rows_in)} rows in · ${fmt(s.accepted)} accepted · ${fmt(s.quarantined)} quarantined · ${fmt(s.flagged)} flagged`,
        ];
      }
      case 'reconcile': {
        const r = api.reconcile({ movements: cashBookMovements(), ...args.reconcile });
        const c = r.movement_counts;
        return [
          r,
          `${fmt(c.in)} movements in · ${fmt(c.out)} movements out · ${fmt(c.unreadable)} unreadable · ${money(r.variance)} variance`,
        ];
      }
      case 'duplicate_report': {
        const r = api.duplicateReport({ ...input, ...args.duplicate_report });
        return [
          r,
          `${fmt(r.row_count)} rows · ${fmt(r.distinct_keys)} distinct keys · ${fmt(r.duplicate_group_count)} groups to review · ${fmt(r.rows_in_duplicate_groups)} rows in groups`,
        ];
      }
      case 'inspect_dataset': {
        const r = api.inspectDataset({ ...input, ...args.inspect_dataset });
        const s = r.summary;
        return [
          r,
          `${fmt(s.rows)} rows · ${fmt(s.columns)} columns · ${fmt(s.ragged_records)} ragged records · ${fmt(s.duplicate_rows)} repeated rows`,
        ];
      }
      default:
        assert.fail(`no expected bar for ${tool}`);
    }
  }

  async function screenshot(page, name, { full = false } = {}) {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: full });
  }

  test('opens on the README’s worked example, with the counts, cells and reasons it must show', async () => {
    const { context, page } = await open();
    await screenshot(page, 'laptop-worked-example');
    await screenshot(page, 'laptop-worked-example-full', { full: true });
    // The README: 4 rows, 1 accepted, 3 quarantined, none flagged.
    assert.deepEqual(await tiles(page), { rows_in: '4', accepted: '1', quarantined: '3', flagged: '0' });
    assert.equal(await page.textContent('[data-verdict]'), 'Quarantined');
    // Row 2's blank invoice, row 3's negative amount, row 4's amount and date.
    assert.deepEqual(await highlighted(page), ['1:invoice', '2:amount', '3:amount', '3:date']);
    const row4 = await page.textContent('tr[data-row-index="3"] td.reasons');
    assert.match(row4, /amount: 'abc' is not a number/);
    assert.match(row4, /date: '04\/05\/2026' is not an ISO-8601 date/);
    const codes = await page.$$eval('.finding-group', (groups) =>
      groups.map(
        (g) => `${g.dataset.code}@${[...g.querySelectorAll('[data-where]')].map((w) => w.dataset.where).join('+')}`,
      ),
    );
    assert.deepEqual(codes.sort(), [
      'below_minimum@amount',
      'not_a_date@date',
      'not_a_number@amount',
      'required_blank@invoice',
    ]);
    // A finding's link leads to its row.
    await page.click('.finding-group[data-code="not_a_date"] button.link');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'row-4');
    // The raw envelope, one click away, is the core's exact text.
    await page.click('details.raw summary');
    await page.waitForFunction(() => document.querySelector('details.raw pre').textContent !== '');
    const raw = await page.textContent('details.raw pre');
    assert.match(raw, /"amount": 20\.0,/);
    const expected = api.validateRows({
      rows: JSON.parse(example('worked-example').data),
      ...example('worked-example').args.validate_rows,
    });
    assert.deepEqual(JSON.parse(raw), expected);
    await context.close();
  });

  test('each example shows what the package computes for its data', async () => {
    const { context, page } = await open();

    // The cash book: the test reads the CSV itself (simple, unquoted).
    const cash = api.reconcile({ movements: cashBookMovements(), ...example('cash-book').args.reconcile });
    await afterRun(page, () => page.click('[data-example="cash-book"]'));
    assert.equal(cash.variance, -240); // 997.75 reported against 1,237.75 expected
    assert.deepEqual(await tiles(page), {
      movements_in: String(cash.movement_counts.in),
      movements_out: String(cash.movement_counts.out),
      unreadable: '0',
      variance: '−240.00',
    });
    assert.equal(await page.textContent('[data-term="expected"] .term-value'), '1,237.75');
    assert.equal(await page.textContent('[data-term="reported"] .term-value'), '997.75');
    // The diagnosis points at the refund, movement #4, and so does the table.
    const pointer = cash.findings.find((f) => f.code === 'variance_is_double_a_movement');
    assert.equal(pointer.locator.movement_index, 3);
    assert.deepEqual(await page.$$eval('tr[data-pointed="true"]', (rows) => rows.map((r) => r.dataset.movementIndex)), [
      '3',
    ]);
    assert.match(await page.textContent('.diagnosis'), /Movement #4 · Refund to customer C-1017/);
    await screenshot(page, 'laptop-cash-book');

    // The customers: duplicate groups side by side with their questions.
    const customers = example('customers');
    const dup = api.duplicateReport({ csv: customers.data, ...customers.args.duplicate_report });
    await afterRun(page, () => page.click('[data-example="customers"]'));
    assert.deepEqual(await tiles(page), {
      row_count: String(dup.row_count),
      distinct_keys: String(dup.distinct_keys),
      duplicate_group_count: String(dup.duplicate_group_count),
      rows_in_duplicate_groups: String(dup.rows_in_duplicate_groups),
    });
    const cards = await page.$$eval('.group-card', (elements) =>
      elements.map((card) => ({
        id: card.dataset.groupId,
        kind: card.dataset.kind,
        question: card.querySelector('.review-question').lastChild.textContent,
        members: [...card.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
      })),
    );
    assert.deepEqual(
      cards,
      dup.groups.map((group) => ({
        id: group.group_id,
        kind: group.kind,
        question: group.review_question,
        members: group.members.map((m) => `row ${m.locator.row_number} · line ${m.locator.line}`),
      })),
    );
    // The re-keyed id differs from the first only by case and a trailing space, shown.
    assert.equal(await page.textContent('[data-group-id="DUP-001"] tbody tr:first-child td:nth-child(3)'), 'c-1001␣');
    await screenshot(page, 'laptop-customers');

    // The same data under count_distinct: key cells highlighted.
    const counted = api.countDistinct({ csv: customers.data, ...customers.args.count_distinct });
    await afterRun(page, () => page.check('input[name="tool"][value="count_distinct"]'));
    assert.deepEqual(await tiles(page), {
      row_count: String(counted.row_count),
      distinct_count: String(counted.distinct_count),
      from_repeated_keys: String(counted.difference_breakdown.from_repeated_keys),
      from_rows_with_blank_key: String(counted.difference_breakdown.from_rows_with_blank_key),
    });
    const keyCells = [
      ...counted.blank_key_rows.map((b) => b.locator.row_index),
      ...counted.repeated_keys.flatMap((r) => r.row_indexes),
    ].map((i) => `${i}:customer_id`);
    assert.deepEqual(await highlighted(page), keyCells.sort());

    // 5,000 invoices: counts, and the highlighted cells of the rows on show.
    const invoices = example('invoices-5000');
    const big = api.validateRows({ csv: invoices.data, ...invoices.args.validate_rows });
    await afterRun(page, () => page.click('[data-example="invoices-5000"]'));
    const s = big.summary;
    assert.deepEqual(await tiles(page), {
      rows_in: fmt(s.rows_in),
      accepted: fmt(s.accepted),
      quarantined: fmt(s.quarantined),
      flagged: fmt(s.flagged),
    });
    const shownRows = await page.$$eval('#result-body table.rows tbody tr[data-row-index]', (rows) =>
      rows.map((r) => Number(r.dataset.rowIndex)),
    );
    const withFindings = [...new Set([...big.quarantine, ...big.flagged].map((held) => held.locator.row_index))].sort(
      (a, b) => a - b,
    );
    assert.ok(withFindings.length > 200, 'the example has more rows with findings than one page');
    assert.deepEqual(
      shownRows,
      withFindings.slice(0, 200),
      'a big table starts with the first 200 rows that have findings',
    );
    const cells = new Set();
    for (const held of [...big.quarantine, ...big.flagged]) {
      if (!shownRows.includes(held.locator.row_index)) continue;
      for (const f of held.findings) cells.add(`${f.locator.row_index}:${f.locator.column}`);
    }
    assert.deepEqual(await highlighted(page), [...cells].sort());
    await screenshot(page, 'laptop-invoices-5000');
    await context.close();
  });

  test('an argument error appears next to its argument, with the core’s message', async () => {
    const { context, page } = await open(LAPTOP, '#customers');

    // A field: similarity_threshold outside 0–1.
    const expected = thrown(() =>
      api.duplicateReport({
        csv: example('customers').data,
        ...example('customers').args.duplicate_report,
        similarity_threshold: 2,
      }),
    );
    await afterRun(page, () => page.fill('#arg-similarity_threshold', '2'));
    const slot = page.locator('[data-arg="similarity_threshold"] .field-error');
    assert.ok(await slot.isVisible());
    assert.equal(await slot.locator('.error-text').textContent(), expected.message);
    assert.equal(await page.getAttribute('#arg-similarity_threshold', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#result-body', 'data-state'), 'rejected');
    assert.equal(await page.locator('.field-error:visible').count(), 1, 'one message, in one place');
    // The result panel says nothing ran and leads to the argument.
    await page.click('.not-run button.link');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'arg-similarity_threshold');
    await screenshot(page, 'laptop-argument-error');
    // Fixed, the message goes and the result comes back.
    await afterRun(page, () => page.fill('#arg-similarity_threshold', '0.9'));
    assert.equal(await page.locator('.field-error:visible').count(), 0);
    assert.equal(await page.getAttribute('#result-body', 'data-state'), 'result');

    // A contract column, edited in the JSON: the message sits on that column's row.
    await afterRun(page, () => page.click('[data-example="worked-example"]'));
    const args = structuredClone(example('worked-example').args.validate_rows);
    args.columns[1].type = 'numbr';
    const contractError = thrown(() => api.validateRows({ rows: [], ...args }));
    await afterRun(page, () => page.fill('#args-json', JSON.stringify(args, null, 2)));
    const amountRow = page.locator('[data-column-index="1"]');
    assert.equal(
      await amountRow.locator('.field-error .error-text').textContent(),
      splitMessage(contractError.message)[0],
    );
    assert.match(
      await amountRow.locator('.field-error .error-text').textContent(),
      /^column "amount": unknown type 'numbr'/,
    );
    assert.equal(await amountRow.locator('[data-spec-key="type"]').getAttribute('aria-invalid'), 'true');
    // The form followed the JSON: the unknown type shows in the select.
    assert.equal(await amountRow.locator('[data-spec-key="type"]').inputValue(), 'numbr');
    assert.equal(await page.textContent('.not-run button.link'), 'columns: “amount”, type');
    await page.click('.not-run button.link');
    await screenshot(page, 'laptop-contract-error');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('pasting a whole call splits it; a dropped file is read; unreadable data is said next to the data', async () => {
    const { context, page } = await open(LAPTOP, '#cash-book');
    // The README's worked example call, as a person would copy it.
    const call = String.raw`{
  "rows": [
    {"invoice": "INV-1001", "amount": "100.50", "date": "2026-04-01"},
    {"invoice": "",         "amount": "20",     "date": "2026-04-02"},
    {"invoice": "INV-1003", "amount": "-5",     "date": "2026-04-03"},
    {"invoice": "INV-1004", "amount": "abc",    "date": "04/05/2026"}
  ],
  "columns": [
    {"name": "invoice", "type": "string", "required": true, "pattern": "INV-\\d+"},
    {"name": "amount",  "type": "number", "min": 0},
    {"name": "date",    "type": "date",   "required": true}
  ],
  "row_key": "invoice"
}`;
    await page.focus('#data-text');
    await afterRun(page, () =>
      page.evaluate((text) => {
        const clipboardData = new DataTransfer();
        clipboardData.setData('text/plain', text);
        document
          .querySelector('#data-text')
          .dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
      }, call),
    );
    assert.equal(await page.getAttribute('#result-body', 'data-tool'), 'validate_rows');
    assert.deepEqual(await tiles(page), { rows_in: '4', accepted: '1', quarantined: '3', flagged: '0' });
    assert.deepEqual(Object.keys(JSON.parse(await page.inputValue('#args-json'))), ['columns', 'row_key']);
    assert.equal(await page.locator('.spec').count(), 3);
    assert.equal(JSON.parse(await page.inputValue('#data-text')).length, 4);
    assert.ok(await page.isVisible('#data-note'));
    assert.equal(await page.getAttribute('[data-example="cash-book"]', 'aria-pressed'), 'false');

    // A CSV file dropped on the data panel.
    await afterRun(page, () =>
      page.evaluate((text) => {
        const dataTransfer = new DataTransfer();
        dataTransfer.items.add(new File([text], 'customers.csv', { type: 'text/csv' }));
        document
          .querySelector('#data-panel')
          .dispatchEvent(new DragEvent('drop', { dataTransfer, bubbles: true, cancelable: true }));
      }, example('customers').data),
    );
    assert.equal(await page.textContent('#data-info'), 'CSV · 11 rows · 4 columns');

    // Data that is not JSON: the message is under the data, nothing runs.
    await afterRun(page, () => page.fill('#data-text', '[{"id": 1,'));
    assert.equal(await page.getAttribute('#result-body', 'data-state'), 'rejected');
    assert.match(await page.textContent('#data-error'), /not valid JSON/);
    assert.equal(await page.getAttribute('#data-text', 'aria-invalid'), 'true');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the form and the JSON follow each other', async () => {
    const { context, page } = await open();
    await afterRun(page, () => page.fill('[data-column-index="1"] [data-spec-key="max"]', '50'));
    const fromForm = JSON.parse(await page.inputValue('#args-json'));
    assert.deepEqual(fromForm.columns[1], { name: 'amount', type: 'number', min: 0, max: 50 });
    // 100.50 is now above the maximum: no row is accepted.
    assert.equal((await tiles(page)).accepted, '0');

    fromForm.columns[1].max = 1000;
    fromForm.columns.push({ name: 'note', required: true });
    await afterRun(page, () => page.fill('#args-json', JSON.stringify(fromForm)));
    assert.equal(await page.inputValue('[data-column-index="1"] [data-spec-key="max"]'), '1000');
    assert.equal(await page.inputValue('[data-column-index="3"] [data-spec-key="name"]'), 'note');
    assert.ok(await page.isChecked('[data-column-index="3"] [data-spec-key="required"]'));
    // A required column no row has: every row is held, and the cell exists to show it.
    assert.equal((await tiles(page)).quarantined, '4');
    assert.ok((await highlighted(page)).includes('0:note'));
    await context.close();
  });

  test('keyboard only: pick an example, change the check, follow a finding', async () => {
    const { context, page } = await open();
    await page.focus('[data-example="customers"]');
    await afterRun(page, () => page.keyboard.press('Enter'));
    assert.equal(await page.getAttribute('#result-body', 'data-tool'), 'duplicate_report');
    // Arrow keys move through the radio group, as in any form.
    await page.focus('input[name="tool"]:checked');
    await afterRun(page, () => page.keyboard.press('ArrowLeft'));
    assert.equal(await page.getAttribute('#result-body', 'data-tool'), 'count_distinct');
    await page.focus('.finding-group[data-code="blank_key"] button.link');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'row-7');
    await context.close();
  });

  test('re-running on an edit is immediate for 5,000 rows', async () => {
    const { context, page } = await open(LAPTOP, '#invoices-5000');
    const invoices = example('invoices-5000');
    const args = structuredClone(invoices.args.validate_rows);
    args.columns[2].min = 100;
    const expected = api.validateRows({ csv: invoices.data, ...args }).summary;
    // Timed inside the page: from the keystroke's input event to the new result drawn.
    const elapsed = await page.evaluate(async () => {
      const input = document.querySelector('[data-column-index="2"] [data-spec-key="min"]');
      const body = document.querySelector('#result-body');
      const run = body.dataset.run;
      const done = new Promise((resolve) => {
        new MutationObserver((_, observer) => {
          if (body.dataset.run !== run) {
            observer.disconnect();
            resolve();
          }
        }).observe(body, { attributes: true });
      });
      const start = performance.now();
      input.value = '100';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await done;
      return performance.now() - start;
    });
    assert.deepEqual(await tiles(page), {
      rows_in: '5,000',
      accepted: fmt(expected.accepted),
      quarantined: fmt(expected.quarantined),
      flagged: fmt(expected.flagged),
    });
    console.log(`# 5,000 rows: edit to result drawn in ${Math.round(elapsed)} ms`);
    assert.ok(elapsed < 1500, `a re-run took ${Math.round(elapsed)} ms`);
    await context.close();
  });

  test('a drafted contract goes to validate_rows in one click, and passes the data it came from', async () => {
    const { context, page } = await open(LAPTOP, '#draft-contract');
    const drafted = api.inspectDataset({ csv: example('draft-contract').data });
    assert.equal(await page.getAttribute('#result-body', 'data-tool'), 'inspect_dataset');
    assert.deepEqual(await tiles(page), {
      rows: String(drafted.summary.rows),
      columns: String(drafted.summary.columns),
      ragged_records: '0',
      duplicate_rows: '0',
    });
    // A row per column of the profile, in the order the core gives them.
    const profiled = await page.$$eval('table.profile-table tbody tr', (rows) => rows.map((r) => r.dataset.column));
    assert.deepEqual(
      profiled,
      drafted.columns.map((c) => c.name),
    );
    // Each column's range: the core's least and greatest value where the
    // values have an order, else its length range; checked on these
    // customers (text only) and on numbers and dates.
    const ranges = () => page.$$eval('table.profile-table tbody td.range', (cells) => cells.map((c) => c.textContent));
    const expectedRanges = (profile) =>
      profile.columns.map((c) =>
        c.min !== undefined ? `${c.min} … ${c.max}` : c.length ? `${c.length.min}–${c.length.max} characters` : '—',
      );
    assert.deepEqual(await ranges(page), expectedRanges(drafted));
    const ordered = 'id,amount,day\n1,2.5,2024-01-02\n2,-1,2023-12-31\n3,10,2024-02-29\n';
    await afterRun(page, () => page.fill('#data-text', ordered));
    // By reasoning: amounts -1 to 10, days 2023-12-31 to 2024-02-29, ids 1 to 3.
    assert.deepEqual(await ranges(page), ['1 … 3', '-1 … 10', '2023-12-31 … 2024-02-29']);
    assert.deepEqual(await ranges(page), expectedRanges(api.inspectDataset({ csv: ordered })));
    await afterRun(page, () => page.fill('#data-text', example('draft-contract').data));
    await screenshot(page, 'laptop-draft-contract', { full: true });
    await afterRun(page, () => page.click('#use-contract'));
    assert.equal(await page.getAttribute('#result-body', 'data-tool'), 'validate_rows');
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), drafted.suggested_contract);
    assert.equal(await page.textContent('[data-verdict]'), 'Clean');
    assert.equal((await tiles(page)).quarantined, '0');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('on validate_rows, "Draft a contract from this data" fills the form with the core’s draft', async () => {
    const { context, page } = await open();
    const csv = example('draft-contract').data;
    await afterRun(page, () => page.fill('#data-text', csv));
    // Expected: what the package drafts for the same text.
    const drafted = api.inspectDataset({ csv });
    await afterRun(page, () => page.click('#draft-contract'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), drafted.suggested_contract);
    assert.equal(await page.textContent('[data-verdict]'), 'Clean');
    assert.equal((await tiles(page)).accepted, String(drafted.summary.rows));

    // No rows: nothing to draft. The core's guidance says why, next to the
    // button, and the contract stays what it was.
    const before = await page.inputValue('#args-json');
    await afterRun(page, () => page.fill('#data-text', 'name,email\n'));
    const kept = await page.inputValue('#args-json');
    await page.click('#draft-contract');
    const empty = api.inspectDataset({ csv: 'name,email\n' });
    assert.equal(empty.suggested_contract, null);
    assert.equal(await page.textContent('#draft-message'), `Nothing was drafted: ${empty.guidance}`);
    assert.equal(await page.inputValue('#args-json'), kept);
    // The new columns started the drafted contract over: it was made for
    // other data (kept only on request, as the next test shows).
    assert.notEqual(kept, before);
    assert.deepEqual(JSON.parse(kept), { columns: [{ name: 'name' }, { name: 'email' }] });
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('new data starts an example’s contract over, unless asked; a contract the person set stays', async () => {
    const { context, page } = await open();
    const exampleContract = JSON.parse(await page.inputValue('#args-json'));
    assert.ok(
      exampleContract.columns.some((spec) => spec.type),
      'the opening example has a typed contract',
    );

    // Other columns: the example's contract was for other data, so the
    // contract is the default for these, one bare spec per column.
    await afterRun(page, () => page.fill('#data-text', 'sku,qty\nA-1,3\nB-2,5\n'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), { columns: [{ name: 'sku' }, { name: 'qty' }] });
    assert.equal(await page.textContent('#note-action'), 'Keep the previous contract');
    // Asked for: the example's contract is back, as it was.
    await afterRun(page, () => page.click('#note-action'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), exampleContract);
    assert.ok(!(await page.isVisible('#data-note')));

    // The same columns again (a row more): nothing starts over.
    await afterRun(page, () => page.fill('#data-text', 'sku,qty\nA-1,3\nB-2,5\nC-3,1\n'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), exampleContract);

    // A contract the person wrote survives other columns; the note offers to start over.
    const mine = { columns: [{ name: 'sku', type: 'string', required: true }] };
    await afterRun(page, () => page.fill('#args-json', JSON.stringify(mine)));
    await afterRun(page, () => page.fill('#data-text', 'a,b\n1,2\n'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), mine);
    assert.equal(await page.textContent('#note-action'), 'Start over for these columns');
    await afterRun(page, () => page.click('#note-action'));
    assert.deepEqual(JSON.parse(await page.inputValue('#args-json')), { columns: [{ name: 'a' }, { name: 'b' }] });
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('at phone width every example fits the screen and reads top to bottom', async () => {
    const { context, page } = await open(PHONE);
    for (const { id } of EXAMPLES) {
      if (id !== 'worked-example') await afterRun(page, () => page.click(`[data-example="${id}"]`));
      const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
      assert.ok(scrollWidth <= width, `${id}: the page is ${scrollWidth}px wide on a ${width}px screen`);
      // Editing near the top, the result's verdict and counts stay in sight.
      await page.evaluate(() => window.scrollTo(0, 0));
      const bar = page.locator('#result-bar');
      await bar.waitFor({ state: 'visible' });
      const [result, counts] = expectedBar(id);
      assert.equal(
        (await bar.locator('.bar-verdict').textContent()).toLowerCase().replaceAll(' ', '_'),
        result.verdict,
        `${id}: the bar's verdict`,
      );
      assert.equal(await bar.locator('.bar-detail').textContent(), counts, `${id}: the bar's counts`);
      await screenshot(page, `phone-${id}-top`);
      await page.$eval('#results', (element) => element.scrollIntoView());
      await bar.waitFor({ state: 'hidden' });
      await screenshot(page, `phone-${id}`);
      await screenshot(page, `phone-${id}-full`, { full: true });
    }
    // On a narrow screen a row's reasons sit under it rather than off to the side.
    await afterRun(page, () => page.click('[data-example="worked-example"]'));
    assert.ok(await page.locator('tr[data-row-index="3"] + tr.reasons-row').isVisible());
    assert.ok(!(await page.locator('tr[data-row-index="3"] td.reasons').isVisible()));
    await context.close();
  });

  test('nothing is requested from anywhere but the page’s own server, and nothing after loading', async () => {
    requests.length = 0;
    const { context, page } = await open();
    await page.evaluate(() => navigator.serviceWorker.ready);
    const loaded = requests.length;
    for (const { id } of EXAMPLES) await afterRun(page, () => page.click(`[data-example="${id}"]`));
    await afterRun(page, () => page.check('input[name="tool"][value="duplicate_report"]'));
    await page.click('details.raw summary');
    assert.deepEqual(requests.slice(loaded), [], 'running checks made requests');
    const elsewhere = requests.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'));
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('works offline once loaded: with the server gone, a reload still runs the checks', async () => {
    const own = await startServer();
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${own.url}#customers`);
    await page.waitForSelector('#result-body[data-state="result"]');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    assert.match(await page.textContent('#offline-note'), /works offline/);
    await own.stop();
    assert.equal(
      await fetch(own.url).then(
        () => 'up',
        () => 'down',
      ),
      'down',
    );
    await page.reload();
    await page.waitForSelector('#result-body[data-state="result"]');
    assert.equal(
      (await tiles(page)).duplicate_group_count,
      String(
        api.duplicateReport({ csv: example('customers').data, ...example('customers').args.duplicate_report })
          .duplicate_group_count,
      ),
    );
    await afterRun(page, () => page.click('[data-example="worked-example"]'));
    assert.equal((await tiles(page)).quarantined, '3');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
