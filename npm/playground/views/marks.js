// What the rows table highlights, read from a result: per row, a status, the
// cells at fault with the core's messages, and the reasons to show beside
// the row. The table draws; this decides what each locator means.

/** Severity to the tone the table paints a cell in. */
const TONE = { error: 'error', warning: 'warning', info: 'info' };

function rowMark(marks, index, status, tone) {
  let mark = marks.get(index);
  if (!mark) {
    mark = { status, tone, cells: new Map(), reasons: [] };
    marks.set(index, mark);
  }
  return mark;
}

function markCell(mark, column, finding) {
  if (column === undefined) return;
  const list = mark.cells.get(column) ?? [];
  list.push({ tone: TONE[finding.severity] ?? 'info', code: finding.code, message: finding.message });
  mark.cells.set(column, list);
}

/**
 * validate_rows: quarantined and flagged rows, each failing cell, and the
 * row's reasons as the core wrote them ("amount: 'abc' is not a number").
 * A row not in either list was accepted.
 */
export function validateRowsMarks(result) {
  const marks = new Map();
  for (const [list, status, tone] of [
    [result.quarantine ?? [], 'quarantined', 'error'],
    [result.flagged ?? [], 'flagged', 'warning'],
  ]) {
    for (const held of list) {
      const mark = rowMark(marks, held.locator.row_index, status, tone);
      // A row both quarantined and flagged is listed twice; its reasons once.
      if (mark.status !== status) continue;
      mark.reasons.push(...held.reasons);
      // A row that is not an object has its value under `_raw`; a finding
      // about the whole row is marked there.
      const wholeRow = held.row && '_raw' in held.row ? '_raw' : undefined;
      for (const finding of held.findings) markCell(mark, finding.locator?.column ?? wholeRow, finding);
    }
  }
  return { marks, unmarkedStatus: 'accepted', extraColumns: absentColumns(result) };
}

// Contract columns missing from the data still get a column, so a
// `required_blank` on them has a cell to sit in.
function absentColumns(result) {
  return (result.contract?.columns ?? []).map((column) => column.name);
}

/**
 * count_distinct: rows with a blank key (excluded from the count) and rows
 * whose key repeats, each with the core's message for that key.
 */
export function countDistinctMarks(result) {
  const marks = new Map();
  const column = result.stable_key;
  for (const blank of result.blank_key_rows ?? []) {
    const mark = rowMark(marks, blank.locator.row_index, 'blank key', 'warning');
    mark.reasons.push(blank.reason);
    markCell(mark, column, { severity: 'warning', code: 'blank_key', message: blank.reason });
  }
  const messages = new Map();
  for (const finding of result.findings) {
    if (finding.code === 'repeated_key') messages.set(finding.locator?.row_key, finding.message);
  }
  for (const repeated of result.repeated_keys ?? []) {
    const message = messages.get(repeated.key) ?? `key '${repeated.key}' appears on ${repeated.count} rows`;
    for (const index of repeated.row_indexes) {
      const mark = rowMark(marks, index, `repeated ×${repeated.count}`, 'info');
      mark.reasons.push(message);
      markCell(mark, column, { severity: 'info', code: 'repeated_key', message });
    }
  }
  return { marks, unmarkedStatus: 'counted', markedLabel: 'rows with a repeated or blank key', extraColumns: [column] };
}

/**
 * inspect_dataset: the ragged records, the repeated rows, and each value of
 * a mixed column that does not take the type most of it takes.
 */
export function inspectMarks(result) {
  const marks = new Map();
  for (const ragged of result.ragged_records ?? []) {
    const reason = `${ragged.fields} fields where the header has ${ragged.header_fields}`;
    rowMark(marks, ragged.row_index, 'ragged', 'error').reasons.push(reason);
  }
  for (const repeat of result.duplicate_rows ?? []) {
    const reason = `repeats row ${repeat.first_row_number} in every column`;
    rowMark(marks, repeat.row_index, 'repeated', 'warning').reasons.push(reason);
  }
  for (const profile of result.columns ?? []) {
    for (const exception of profile.exceptions ?? []) {
      const expected = profile.nearest_type?.type;
      const message = `not of type ${expected}, as the rest of ${profile.name} is`;
      const mark = rowMark(marks, exception.row_index, 'exception', 'warning');
      mark.reasons.push(`${profile.name}: ${message}`);
      markCell(mark, profile.name, { severity: 'warning', code: 'mixed_types', message });
    }
  }
  return { marks, unmarkedStatus: 'profiled', markedLabel: 'rows with findings' };
}

/**
 * Every finding of a validate_rows result, once: the top-level list leaves
 * out some row-level findings (a row that is not an object), which the held
 * rows carry, so the two are merged.
 */
export function allRowFindings(result) {
  const seen = new Set();
  const out = [];
  const add = (finding) => {
    const where = finding.locator ?? {};
    const id = `${finding.code}|${where.row_index}|${where.column}|${finding.message}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(finding);
  };
  (result.findings ?? []).forEach(add);
  for (const held of [...(result.quarantine ?? []), ...(result.flagged ?? [])]) held.findings.forEach(add);
  return out;
}
