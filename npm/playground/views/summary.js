// The first thing read in a result: the verdict, the counts that matter for
// this check, and the core's guidance in its own words.

import { amount, count, h, signed } from '../dom.js';

const VERDICTS = {
  clean: ['Clean', 'ok'],
  flagged: ['Flagged', 'warning'],
  quarantined: ['Quarantined', 'error'],
  does_not_close: ['Does not close', 'error'],
  review_required: ['Review required', 'warning'],
  inputs_rejected: ['Inputs rejected', 'muted'],
};

/** The verdict as a person reads it, `{ label, tone }`. */
export function verdictOf(result) {
  const [label, tone] = VERDICTS[result.verdict] ?? [result.verdict, 'muted'];
  return { label, tone };
}

const tile = (key, label, value, tone = 'plain', sub = null) => ({ key, label, value, tone, sub });

const n = (value) => (typeof value === 'number' ? count(value) : '—');

/**
 * The counts that matter for this check, as text ready to show:
 * `[{ key, label, value, tone, sub }]`. The tiles and the result bar both
 * show these.
 */
export function countTiles(tool, result) {
  switch (tool) {
    case 'validate_rows': {
      const s = result.summary ?? {};
      return [
        tile('rows_in', 'rows in', n(s.rows_in)),
        tile(
          'accepted',
          'accepted',
          n(s.accepted),
          'ok',
          s.pass_rate !== undefined ? `${Math.round(s.pass_rate * 1000) / 10}% pass` : null,
        ),
        tile('quarantined', 'quarantined', n(s.quarantined), s.quarantined ? 'error' : 'plain'),
        tile(
          'flagged',
          'flagged',
          n(s.flagged),
          s.flagged ? 'warning' : 'plain',
          s.flagged ? 'kept, with a warning' : null,
        ),
      ];
    }
    case 'count_distinct': {
      const b = result.difference_breakdown ?? {};
      return [
        tile('row_count', 'rows', n(result.row_count)),
        tile('distinct_count', 'distinct entities', n(result.distinct_count), 'ok'),
        tile(
          'from_repeated_keys',
          'rows repeating a key',
          n(b.from_repeated_keys),
          b.from_repeated_keys ? 'info' : 'plain',
        ),
        tile(
          'from_rows_with_blank_key',
          'rows with a blank key',
          n(b.from_rows_with_blank_key),
          b.from_rows_with_blank_key ? 'warning' : 'plain',
        ),
      ];
    }
    case 'duplicate_report':
      return [
        tile('row_count', 'rows', n(result.row_count)),
        tile('distinct_keys', 'distinct keys', n(result.distinct_keys)),
        tile(
          'duplicate_group_count',
          'groups to review',
          n(result.duplicate_group_count),
          result.duplicate_group_count ? 'warning' : 'ok',
        ),
        tile(
          'rows_in_duplicate_groups',
          'rows in groups',
          n(result.rows_in_duplicate_groups),
          'plain',
          'once per group a row is in',
        ),
      ];
    case 'inspect_dataset': {
      const s = result.summary ?? {};
      return [
        tile('rows', 'rows', n(s.rows)),
        tile('columns', 'columns', n(s.columns)),
        tile('ragged_records', 'ragged records', n(s.ragged_records), s.ragged_records ? 'error' : 'plain'),
        tile('duplicate_rows', 'repeated rows', n(s.duplicate_rows), s.duplicate_rows ? 'warning' : 'plain'),
      ];
    }
    case 'reconcile': {
      const c = result.movement_counts ?? {};
      return [
        tile('movements_in', 'movements in', n(c.in)),
        tile('movements_out', 'movements out', n(c.out)),
        tile('unreadable', 'unreadable', n(c.unreadable), c.unreadable ? 'error' : 'plain'),
        tile(
          'variance',
          'variance',
          signed(result.variance),
          result.closes === true ? 'ok' : result.closes === false ? 'error' : 'muted',
          result.tolerance !== undefined ? `tolerance ${amount(result.tolerance)}` : null,
        ),
      ];
    }
    default:
      return [];
  }
}

function tileElement({ key, label, value, tone, sub }) {
  return h(
    'div',
    { class: `tile tone-${tone}`, dataset: { count: key } },
    h('span', { class: 'tile-value' }, value),
    h('span', { class: 'tile-label' }, label),
    sub ? h('span', { class: 'tile-sub' }, sub) : null,
  );
}

/** The verdict line, the count tiles and the guidance. */
export function summaryView(tool, result, elapsedMs) {
  const { label, tone } = verdictOf(result);
  return h(
    'div',
    { class: 'summary' },
    h(
      'div',
      { class: 'verdict-line' },
      h('span', { class: `verdict verdict-${tone}`, dataset: { verdict: result.verdict } }, label),
      h('code', { class: `ok-flag ok-${result.ok}` }, `ok: ${result.ok}`),
      h('span', { class: 'muted' }, `${count(result.finding_count)} finding${result.finding_count === 1 ? '' : 's'}`),
      h(
        'span',
        { class: 'muted timing', title: 'the check, parsing its result and drawing it' },
        `${elapsedMs < 10 ? elapsedMs.toFixed(1) : Math.round(elapsedMs)} ms`,
      ),
    ),
    h('div', { class: 'tiles' }, countTiles(tool, result).map(tileElement)),
    h('p', { class: 'guidance' }, result.guidance),
  );
}
