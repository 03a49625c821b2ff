// One result, drawn for its tool: the summary first, then the view that
// answers the tool's question, the findings grouped, and the raw envelope.

import { count, h, replace, scrollToAndFocus } from './dom.js';
import { duplicatesView } from './views/duplicates.js';
import { findingsView } from './views/findings.js';
import { allRowFindings, countDistinctMarks, inspectMarks, validateRowsMarks } from './views/marks.js';
import { profileView } from './views/profile.js';
import { rawJsonView } from './views/raw-json.js';
import { reconcileView } from './views/reconcile.js';
import { rowsTable } from './views/rows-table.js';
import { summaryView } from './views/summary.js';

// Lists `max_listed`, `lists` or `page` shortened, by the `*_omitted` counts they add.
function abridgedNote(result) {
  const omitted = Object.entries(result).filter(([key, value]) => key.endsWith('_omitted') && value > 0);
  if (omitted.length === 0) return null;
  const listed = omitted.map(([key, value]) => `${count(value)} from ${key.replace(/_omitted$/, '')}`).join(', ');
  const page = result.page
    ? ` This is a page of ${result.page.list}: ${count(result.page.listed)} of ${count(result.page.total)} from offset ${count(result.page.offset)}.`
    : '';
  return h(
    'p',
    { class: 'callout callout-muted' },
    `The result's lists leave entries out (${listed}); the counts cover every row, the highlights only what is listed.${page}`,
  );
}

// The page's table and the core must agree on the rows; say so if not.
function mismatchNote(shown, counted) {
  if (counted === undefined || shown === counted) return null;
  return h(
    'p',
    { class: 'callout callout-error' },
    `The page read ${count(shown)} rows but the check read ${count(counted)}; the table may not line up with the result.`,
  );
}

/** Draw `result` into `container`. */
export function renderResult(container, { tool, result, rawText, data, args, elapsedMs, actions = {} }) {
  const parts = [summaryView(tool, result, elapsedMs), abridgedNote(result)];
  switch (tool) {
    case 'validate_rows': {
      parts.push(mismatchNote(data.items.length, result.summary?.rows_in));
      const marking = validateRowsMarks(result);
      const table = rowsTable({ items: data.items, lines: data.lines, columns: data.columns, ...marking });
      parts.push(table.element, findingsView(allRowFindings(result), { onLocate: (at) => table.reveal(at.row_index) }));
      break;
    }
    case 'count_distinct': {
      parts.push(mismatchNote(data.items.length, result.row_count));
      const marking = countDistinctMarks(result);
      const table = rowsTable({ items: data.items, lines: data.lines, columns: data.columns, ...marking });
      parts.push(table.element, findingsView(result.findings, { onLocate: (at) => table.reveal(at.row_index) }));
      break;
    }
    case 'duplicate_report': {
      parts.push(mismatchNote(data.items.length, result.row_count));
      const view = duplicatesView(result, args);
      const locate = (at) => scrollToAndFocus(view.querySelector(`[data-member-rows~="${at.row_index}"]`));
      parts.push(view, findingsView(result.findings, { onLocate: locate }));
      break;
    }
    case 'inspect_dataset': {
      parts.push(mismatchNote(data.items.length, result.summary?.rows));
      const marking = inspectMarks(result);
      const table = rowsTable({ items: data.items, lines: data.lines, columns: data.columns, ...marking });
      parts.push(
        profileView(result, { onUseContract: actions.useContract }),
        table.element,
        findingsView(result.findings, { onLocate: (at) => table.reveal(at.row_index) }),
      );
      break;
    }
    case 'reconcile': {
      const view = reconcileView(result, data);
      parts.push(view.element, findingsView(result.findings, { onLocate: (at) => view.reveal(at.movement_index) }));
      break;
    }
    default:
      break;
  }
  parts.push(rawJsonView(rawText));
  replace(container, parts);
}
