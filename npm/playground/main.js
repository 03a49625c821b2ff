// The page: state, events and the run loop. Everything it draws lives in the
// other modules; this file decides when.
//
// Every edit re-runs the check at once (a large pasted table waits for a
// pause in typing). The call goes to the package's browser entry, so what
// the page shows is what the package returns.

import { callToolJson, init, toolCatalog, ValidationArgumentError } from '../src/browser.js';
import { clearArgErrors, showArgError } from './arg-errors.js';
import { argsForm } from './args-form.js';
import { DATA_ARGUMENTS, callText, guessKey, readData, splitCall } from './data.js';
import { count, h, replace, scrollToAndFocus } from './dom.js';
import { EXAMPLES } from './examples.js';
import { renderResult } from './results.js';
import { countTiles, verdictOf } from './views/summary.js';

const TOOL_INFO = {
  validate_rows: {
    blurb: 'Apply a column contract: every row is accepted or quarantined, each with its reasons.',
    data: 'Rows: CSV with a header row, or a JSON array of objects.',
  },
  reconcile: {
    blurb: 'Check that opening + movements = closing, and say where a variance points.',
    data: 'Movements: CSV with amount, direction (in/out), label and date columns, or a JSON array of numbers or objects.',
  },
  count_distinct: {
    blurb: 'Count distinct entities on a key, and why that differs from the row count.',
    data: 'Rows: CSV with a header row, or a JSON array of objects.',
  },
  duplicate_report: {
    blurb: 'Find suspected duplicates for a person to review. Nothing is merged.',
    data: 'Rows: CSV with a header row, or a JSON array of objects.',
  },
  inspect_dataset: {
    blurb: 'Profile the data, report what is wrong with it whatever the contract, and draft a contract it passes.',
    data: 'Rows: CSV with a header row, or a JSON array of objects.',
  },
};

const $ = (selector) => document.querySelector(selector);
const els = {
  examples: $('#examples'),
  tools: [...document.querySelectorAll('input[name="tool"]')],
  blurb: $('#tool-blurb'),
  inputs: $('#inputs'),
  dataText: $('#data-text'),
  dataInfo: $('#data-info'),
  dataHelp: $('#data-help'),
  dataNote: $('#data-note'),
  dataPanel: $('#data-panel'),
  fileInput: $('#file-input'),
  openFile: $('#open-file'),
  form: $('#args-form'),
  json: $('#args-json'),
  draftAction: $('#draft-action'),
  draftButton: $('#draft-contract'),
  draftMessage: $('#draft-message'),
  result: $('#result-body'),
  notice: $('#result-notice'),
  view: $('#result-view'),
  status: $('#run-status'),
  offline: $('#offline-note'),
  bar: $('#result-bar'),
};

// Each check's arguments before any data fills them in.
const defaultArgs = () => ({
  validate_rows: { columns: [] },
  reconcile: { opening_balance: 0, closing_balance: 0 },
  count_distinct: {},
  duplicate_report: {},
  inspect_dataset: {},
});

const state = {
  tool: 'validate_rows',
  dataText: '',
  data: readData('', 'validate_rows'),
  // The data's columns an argument can name: not the key under which the
  // core's CSV reader keeps a row's fields beyond the header.
  argColumns: [],
  args: defaultArgs(),
  // Where the arguments that name columns (the contract, the keys) came
  // from, and the data columns they were made for: see dataChanged.
  argsFrom: { source: 'default', columns: [] },
  runs: 0,
  // The core's tool catalog, once the module is loaded: the forms' source.
  catalog: null,
};

// ------------------------------------------------------------------ data

function setData(text, { fromTextarea = false } = {}) {
  state.dataText = text;
  if (!fromTextarea) els.dataText.value = text;
  reparse();
}

// The tools whose arguments name the data's columns.
const COLUMN_TOOLS = ['validate_rows', 'count_distinct', 'duplicate_report'];

// New data the person brought (typed, pasted, dropped, a file). Arguments
// that name columns are kept while the columns are the same. When they
// change:
// - arguments the page guessed for the earlier columns are guessed again;
// - arguments an example or a draft made (not edited since) were for other
//   data: they start over, fitted to the new columns, and the note offers
//   to keep the previous ones instead;
// - arguments the person edited are theirs: they stay, and the note offers
//   to start over for the new columns.
// Nothing the person chose is discarded without a way back in one click.
// Returns whether the arguments changed (the form and JSON are then stale).
// It owns the note under the data while the columns change.
function dataChanged() {
  const { source, columns } = state.argsFrom;
  const now = state.argColumns;
  if (now.length === 0 || now.join('\u0000') === columns.join('\u0000')) return false;
  showNote('');
  const previous = structuredClone(state.args);
  const fresh = () => {
    for (const tool of COLUMN_TOOLS) state.args[tool] = defaultArgs()[tool];
    fillDefaults();
    state.argsFrom = { source: 'default', columns: [...now] };
  };
  if (source === 'default') {
    fresh();
    return true;
  }
  if (source === 'person') {
    showNote('The arguments you set name columns of the earlier data.', {
      label: 'Start over for these columns',
      act: () => {
        fresh();
        redrawArgs();
      },
    });
    return false;
  }
  fresh();
  showNote(
    `The ${source === 'draft' ? 'drafted' : 'example’s'} contract was for other columns, so it starts over for these.`,
    {
      label: 'Keep the previous contract',
      act: () => {
        for (const tool of COLUMN_TOOLS) state.args[tool] = previous[tool];
        state.argsFrom = { source: 'person', columns: [...now] };
        redrawArgs();
      },
    },
  );
  return true;
}

function redrawArgs() {
  showNote('');
  drawForm();
  drawJson();
  schedule(0);
}

function reparse() {
  const before = state.data.columns.join('\u0000');
  state.data = readData(state.dataText, state.tool);
  state.argColumns = state.data.columns.filter((name) => name !== state.data.extraKey);
  fillDefaults();
  const { kind, items, columns } = state.data;
  const noun = state.tool === 'reconcile' ? 'movement' : 'row';
  els.dataInfo.textContent =
    kind === 'empty'
      ? 'empty'
      : state.data.error
        ? `${kind.toUpperCase()} · not readable`
        : `${kind.toUpperCase()} · ${count(items.length)} ${noun}${items.length === 1 ? '' : 's'}${columns.length ? ` · ${columns.length} columns` : ''}`;
  // Column names feed the form's suggestions and match_fields boxes, and
  // new columns may have filled in defaults.
  if (state.data.columns.join('\u0000') !== before) {
    drawForm();
    drawJson();
  }
}

// A first guess where an argument has none yet, so pasted data shows a
// result straight away. Never overwrites what the person set.
function fillDefaults() {
  const { columns } = state.data;
  if (columns.length === 0) return;
  for (const tool of ['count_distinct', 'duplicate_report']) {
    if (state.args[tool].key === undefined) state.args[tool] = { key: guessKey(columns), ...state.args[tool] };
  }
  const contract = state.args.validate_rows;
  if (Array.isArray(contract.columns) && contract.columns.length === 0) {
    state.args.validate_rows = { ...contract, columns: state.argColumns.map((name) => ({ name })) };
  }
}

// A whole call pasted or dropped is split: data here, arguments in the form.
function takeIncoming(text) {
  leaveExample();
  const split = splitCall(text, state.tool);
  if (split) {
    state.args[split.tool] = split.args;
    // As loadExample does: the tool first, so the data is read once, for it,
    // and setTool draws the form and the JSON.
    state.tool = split.tool;
    setData(split.dataText);
    // The call's arguments are the person's, made for this data.
    state.argsFrom = { source: 'person', columns: [...state.argColumns] };
    setTool(split.tool, { run: false });
    showNote(`That was a whole ${split.tool} call: its data is here and its other arguments are in the form.`);
  } else {
    setData(text);
    showNote('');
    dataChanged();
    // New data may have filled in defaults even with the same columns.
    drawForm();
    drawJson();
  }
  schedule(0);
}

// Data the person changed is no longer the example's.
function leaveExample() {
  for (const button of els.examples.querySelectorAll('button[aria-pressed="true"]'))
    button.setAttribute('aria-pressed', 'false');
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

// A note under the data, with at most one action: `{label, act}`.
function showNote(text, action) {
  els.dataNote.textContent = text;
  if (action) {
    els.dataNote.append(
      h('button', { type: 'button', class: 'link', id: 'note-action', onclick: action.act }, action.label),
    );
  }
  els.dataNote.hidden = text === '';
}

async function readFile(file) {
  takeIncoming(await file.text());
}

// ------------------------------------------------------------ arguments

function drawForm(focusSelector) {
  replace(
    els.form,
    argsForm({
      tool: state.tool,
      catalog: state.catalog,
      args: state.args[state.tool],
      dataColumns: state.argColumns,
      onEdit: (args, { structural, focus } = {}) => {
        state.args[state.tool] = args;
        personEdited();
        drawJson();
        if (structural) drawForm(focus);
        schedule(0);
      },
    }),
  );
  if (focusSelector) els.form.querySelector(focusSelector)?.focus();
}

function drawJson() {
  els.json.value = JSON.stringify(state.args[state.tool], null, 2);
  els.json.removeAttribute('aria-invalid');
}

function jsonEdited() {
  let value;
  try {
    value = JSON.parse(els.json.value);
  } catch (error) {
    return pageError('json', 'invalid_json', `not valid JSON: ${error.message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return pageError('json', 'argument_type', 'the arguments must be a JSON object, like {"key": "customer_id"}');
  }
  const dataKey = DATA_ARGUMENTS.find((key) => key in value);
  if (dataKey) {
    return pageError(
      'json',
      'invalid_argument',
      `"${dataKey}" comes from the Data panel; paste a whole call there to split it into data and arguments`,
    );
  }
  state.args[state.tool] = value;
  personEdited();
  drawForm();
  schedule(0);
}

// The person set an argument: what names columns is theirs from now on.
function personEdited() {
  if (COLUMN_TOOLS.includes(state.tool)) state.argsFrom = { source: 'person', columns: [...state.argColumns] };
}

// ------------------------------------------------------------------ tool

function setTool(tool, { run = true } = {}) {
  const wasReconcile = state.tool === 'reconcile';
  state.tool = tool;
  for (const radio of els.tools) radio.checked = radio.value === tool;
  els.blurb.textContent = TOOL_INFO[tool].blurb;
  els.dataHelp.textContent = TOOL_INFO[tool].data;
  // Reconcile reads CSV cells differently (an empty cell is no value).
  if (wasReconcile !== (tool === 'reconcile')) reparse();
  document.body.dataset.tool = tool;
  els.draftAction.hidden = tool !== 'validate_rows';
  showDraftMessage('');
  drawForm();
  drawJson();
  if (run) schedule(0);
}

// The drafted contract of inspect_dataset, as validate_rows' arguments on
// the same data (the row_key and other arguments set there are kept).
function useContract(contract) {
  const { row_key: rowKey } = state.args.validate_rows;
  state.args.validate_rows = { ...structuredClone(contract), ...(rowKey === undefined ? {} : { row_key: rowKey }) };
  state.argsFrom = { source: 'draft', columns: [...state.argColumns] };
  leaveExample();
  setTool('validate_rows');
}

// "Draft a contract from this data", on validate_rows: the core's
// inspect_dataset on the data as it is, its suggested contract into the
// form. When nothing can be drafted, the core's reason is said next to the
// button and the contract stays as it was.
function draftFromData() {
  let result;
  try {
    result = JSON.parse(callToolJson('inspect_dataset', callText('inspect_dataset', {}, state.dataText, state.data)));
  } catch (error) {
    if (!(error instanceof ValidationArgumentError)) throw error;
    return showDraftMessage(`Nothing was drafted: ${error.message}`);
  }
  if (!result.suggested_contract) {
    return showDraftMessage(`Nothing was drafted: ${result.guidance}`);
  }
  useContract(result.suggested_contract);
}

function showDraftMessage(text) {
  els.draftMessage.textContent = text;
  els.draftMessage.hidden = text === '';
}

function loadExample(example) {
  // Checks the example gives no arguments for start over, fitted to its data.
  state.args = { ...defaultArgs(), ...structuredClone(example.args) };
  state.tool = example.tool;
  setData(example.data);
  state.argsFrom = { source: 'example', columns: [...state.argColumns] };
  setTool(example.tool, { run: false });
  showNote('');
  for (const button of els.examples.querySelectorAll('button'))
    button.setAttribute('aria-pressed', String(button.dataset.example === example.id));
  history.replaceState(null, '', `#${example.id}`);
  run();
}

// ------------------------------------------------------------------- run

let timer = null;
function schedule(delay) {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

// A problem the page finds before calling the check (unreadable data or
// JSON), shown the same way as the core's argument errors.
function pageError(where, code, message) {
  clearArgErrors(els.inputs);
  const placed = showArgError(els.inputs, { code, message, argument: where === 'data' ? 'rows' : undefined });
  notRun(
    placed,
    where === 'data'
      ? 'The data could not be read, so nothing was checked.'
      : 'The arguments are not a usable JSON object, so nothing was checked.',
  );
}

// The message itself sits next to its argument; the result panel says that
// nothing ran, points there, and keeps the last result, dimmed, for reference.
function notRun(placed, headline) {
  state.runs += 1;
  els.result.dataset.state = 'rejected';
  els.result.dataset.run = String(state.runs);
  const control = placed.control;
  const go = () => scrollToAndFocus(control);
  replace(
    els.notice,
    h(
      'div',
      { class: 'callout callout-error not-run' },
      h('h3', null, headline),
      h(
        'p',
        null,
        'The reason is shown next to ',
        control ? h('button', { type: 'button', class: 'link', onclick: go }, placed.label) : placed.label,
        '.',
      ),
    ),
  );
  els.view.classList.add('stale');
  els.view.setAttribute('aria-hidden', 'true');
  els.status.textContent = `${headline} See ${placed.label}.`;
  drawBar('rejected', 'Not run', `see ${placed.label}`);
}

// The bar's text: the verdict and the counts the result's tiles show.
function drawBar(tone, verdict, detail) {
  replace(
    els.bar,
    h('span', { class: `bar-verdict bar-${tone}` }, verdict),
    h('span', { class: 'bar-detail' }, detail),
    h('span', { class: 'bar-go', 'aria-hidden': 'true' }, '↓'),
  );
  els.bar.hidden = false;
}

function run() {
  clearTimeout(timer);
  clearArgErrors(els.inputs);
  const { tool, data } = state;
  // Unreadable JSON cannot be sent at all. Unreadable CSV goes to the core
  // as it is (except for reconcile, which needs it as movements), so its
  // reader, which decides, gives the message.
  if (data.error && (data.kind === 'json' || tool === 'reconcile'))
    return pageError('data', 'invalid_json', data.error);

  const started = performance.now();
  let rawText;
  try {
    rawText = callToolJson(tool, callText(tool, state.args[tool], state.dataText, data));
  } catch (error) {
    if (!(error instanceof ValidationArgumentError)) throw error;
    const placed = showArgError(els.inputs, error, { columns: state.args[tool].columns });
    return notRun(placed, 'The call was rejected before any data was checked.');
  }
  const result = JSON.parse(rawText);
  const elapsed = performance.now() - started;
  state.runs += 1;
  els.notice.replaceChildren();
  els.view.classList.remove('stale');
  els.view.removeAttribute('aria-hidden');
  renderResult(els.view, {
    tool,
    result,
    rawText,
    data,
    args: state.args[tool],
    elapsedMs: elapsed,
    actions: { useContract },
  });
  els.result.dataset.state = 'result';
  els.result.dataset.run = String(state.runs);
  els.result.dataset.tool = tool;
  els.status.textContent = `${tool}: ${result.verdict.replaceAll('_', ' ')}, ${count(result.finding_count)} findings`;
  const { label, tone } = verdictOf(result);
  drawBar(
    tone,
    label,
    countTiles(tool, result)
      .map((tile) => `${tile.value} ${tile.label}`)
      .join(' · '),
  );
}

// ---------------------------------------------------------------- wiring

function wire() {
  for (const example of EXAMPLES) {
    els.examples.append(
      h(
        'li',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'example',
            dataset: { example: example.id },
            'aria-pressed': 'false',
            onclick: () => loadExample(example),
          },
          h('span', { class: 'example-title' }, example.title),
          h('span', { class: 'example-text' }, example.description),
          h('span', { class: 'example-tool' }, example.tool),
        ),
      ),
    );
  }
  for (const radio of els.tools) radio.addEventListener('change', () => radio.checked && setTool(radio.value));

  els.dataText.addEventListener('input', () => {
    setData(els.dataText.value, { fromTextarea: true });
    // The note stays until the columns change (dataChanged says what then).
    if (dataChanged()) {
      drawForm();
      drawJson();
    }
    leaveExample();
    // Typing into a big table waits for a pause; a small one runs at once.
    schedule(state.dataText.length > 200_000 ? 250 : state.dataText.length > 20_000 ? 60 : 0);
  });
  els.dataText.addEventListener('paste', (event) => {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (splitCall(text, state.tool)) {
      event.preventDefault();
      takeIncoming(text);
    }
  });
  els.openFile.addEventListener('click', () => els.fileInput.click());
  els.fileInput.addEventListener('change', () => {
    const [file] = els.fileInput.files;
    if (file) readFile(file);
    els.fileInput.value = '';
  });
  els.dataPanel.addEventListener('dragover', (event) => {
    event.preventDefault();
    els.dataPanel.classList.add('dropping');
  });
  els.dataPanel.addEventListener('dragleave', () => els.dataPanel.classList.remove('dropping'));
  els.dataPanel.addEventListener('drop', (event) => {
    event.preventDefault();
    els.dataPanel.classList.remove('dropping');
    const [file] = event.dataTransfer.files;
    if (file) readFile(file);
    else takeIncoming(event.dataTransfer.getData('text/plain'));
  });
  els.json.addEventListener('input', jsonEdited);
  els.draftButton.addEventListener('click', draftFromData);
  // The bar is for when the result is out of sight; CSS shows it only on
  // the stacked layout.
  new IntersectionObserver(([entry]) => {
    document.body.dataset.resultInView = String(entry.isIntersecting);
  }).observe(document.querySelector('#results'));
}

async function start() {
  wire();
  // On a phone the form alone is long enough; the JSON is one tap away.
  if (matchMedia('(max-width: 560px)').matches) document.querySelector('.json-editor').open = false;
  try {
    await init();
    state.catalog = toolCatalog();
  } catch (error) {
    replace(
      els.view,
      h(
        'div',
        { class: 'callout callout-error' },
        h('h3', null, 'The checks could not be loaded.'),
        h('p', null, String(error?.message ?? error)),
        h(
          'p',
          null,
          'Build the module with scripts/build-wasm.sh and serve the page with node npm/playground/serve.mjs.',
        ),
      ),
    );
    els.result.dataset.state = 'failed';
    return;
  }
  const fromHash = EXAMPLES.find((example) => `#${example.id}` === location.hash);
  loadExample(fromHash ?? EXAMPLES[0]);

  // Offline after the first visit: the service worker keeps a copy of every
  // file the page needs. It is optional; without it the page still works.
  if ('serviceWorker' in navigator) {
    try {
      await navigator.serviceWorker.register('./sw.js');
      await navigator.serviceWorker.ready;
      els.offline.textContent = 'Saved in this browser: the page also works offline.';
    } catch {
      // Not a secure context, or storage refused: online use is unaffected.
    }
  }
}

start();
