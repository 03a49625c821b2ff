// The data panel's text as rows (or, for reconcile, movements): which format
// it is, the values to draw, and the argument that carries it to the check.
// No DOM here, so the tests can import it in Node (after the package's
// browser entry is given the module). CSV is read by the core's own reader
// (readCsv), so the table drawn is the table the checks read.

import { readCsv, toolNames, ValidationArgumentError } from '../src/browser.js';

/** The argument that carries the data panel's content, per tool and format. */
function dataArgument(tool, kind) {
  if (tool === 'reconcile') return 'movements';
  return kind === 'csv' ? 'csv' : 'rows';
}

/** Arguments that only the data panel may supply. */
export const DATA_ARGUMENTS = ['rows', 'csv', 'movements', 'path'];

/**
 * Read the data panel's text.
 * Returns `{ kind, items, lines, columns, extraKey, error }`: `kind` is
 * 'empty', 'csv' or 'json'; `items` the rows or movements; `lines` the CSV
 * line of each (else null); `columns` every key seen, in first-seen order;
 * `extraKey` the key under which the core keeps a CSV record's fields beyond
 * the header (else null); `error` a message when the text cannot be read
 * (the check is then not run).
 */
export function readData(text, tool) {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty', items: [], lines: null, columns: [], extraKey: null, error: null };
  if (trimmed[0] === '[' || trimmed[0] === '{') return readJson(trimmed);

  let table;
  try {
    table = readCsv(text);
  } catch (error) {
    if (!(error instanceof ValidationArgumentError)) throw error;
    return { kind: 'csv', items: [], lines: null, columns: [], extraKey: null, error: error.message };
  }
  let items = table.rows;
  if (tool === 'reconcile') {
    // A bank export leaves cells empty where a movement has no direction or
    // label; an empty cell means "not given" there, not the text "".
    items = items.map((row) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== '')));
  }
  return {
    kind: 'csv',
    items,
    lines: table.lines,
    columns: table.header,
    extraKey: table.extra_fields_key,
    error: null,
  };
}

/** JSON data that could not be used: no rows, and why. */
function unreadableJson(error) {
  return { kind: 'json', items: [], lines: null, columns: [], extraKey: null, error };
}

function readJson(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return unreadableJson(`not valid JSON: ${error.message}`);
  }
  if (!Array.isArray(value)) {
    return unreadableJson(
      'JSON data must be an array of rows, like [{"id": "A-1", "amount": 10}]; a whole call object is split into data and arguments when pasted or dropped',
    );
  }
  return { kind: 'json', items: value, lines: null, columns: columnsOf(value), extraKey: null, error: null };
}

/** Every key of the object rows, in the order first seen. */
function columnsOf(rows) {
  const seen = new Set();
  for (const row of rows) {
    if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
      for (const key of Object.keys(row)) seen.add(key);
    }
  }
  return [...seen];
}

/**
 * A pasted or dropped whole call (`{"rows": [...], "columns": [...]}`, or
 * `{"name": tool, "arguments": {...}}` as MCP sends it) split into the data
 * text and the other arguments, with the tool it is for. Null when the text
 * is not such an object.
 */
export function splitCall(text, currentTool) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  let tool = null;
  if (toolNames().includes(value.name) && value.arguments && typeof value.arguments === 'object') {
    tool = value.name;
    value = value.arguments;
  }
  const dataKey = ['rows', 'csv', 'movements'].find((key) => key in value);
  if (!dataKey) return null;
  tool ??= inferTool(value, currentTool);
  const data = value[dataKey];
  // One row per line reads like the table it is.
  const dataText =
    typeof data === 'string'
      ? data
      : Array.isArray(data)
        ? `[\n${data.map((row) => `  ${JSON.stringify(row)}`).join(',\n')}\n]`
        : JSON.stringify(data, null, 2);
  const args = Object.fromEntries(Object.entries(value).filter(([key]) => !DATA_ARGUMENTS.includes(key)));
  return { tool, dataText, args };
}

// Which check a call object is for, from the arguments only it takes.
function inferTool(args, currentTool) {
  if ('movements' in args || 'opening_balance' in args) return 'reconcile';
  if ('columns' in args) return 'validate_rows';
  if ('match_fields' in args || 'similarity_threshold' in args || 'max_groups' in args) return 'duplicate_report';
  if ('key' in args) return currentTool === 'duplicate_report' ? 'duplicate_report' : 'count_distinct';
  return currentTool;
}

/** The column most likely to be a stable key, for a first guess only. */
export function guessKey(columns) {
  return (
    columns.find((name) => name.toLowerCase() === 'id') ??
    columns.find((name) => /(^|[_\s-])id$/i.test(name)) ??
    columns.find((name) => /key|code|invoice|number/i.test(name)) ??
    columns[0]
  );
}

/**
 * The call's JSON text. The data goes in as the text the person gave where
 * possible (CSV as the `csv` argument; a JSON array spliced in verbatim) so
 * the core sees exactly that: 20.0 stays a float, big integers keep their
 * digits, and the core's CSV reader adds line numbers to every locator.
 */
export function callText(tool, args, dataText, data) {
  const rest = JSON.stringify(args);
  const name = dataArgument(tool, data.kind);
  let value;
  if (data.kind === 'empty') value = '[]';
  else if (data.kind === 'csv') value = tool === 'reconcile' ? JSON.stringify(data.items) : JSON.stringify(dataText);
  else value = dataText.trim();
  return `{${JSON.stringify(name)}:${value}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
}
