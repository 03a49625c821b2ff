// inspect_dataset: each column's profile as a table, then the drafted
// contract with the reason for each rule, and the way to use it: one click
// runs validate_rows with it on the same data (which it passes).

import { count, display, h } from '../dom.js';

const columnHeads = ['column', 'type', 'values', 'blank', 'missing', 'distinct', 'range', 'shape', 'most frequent'];

// The least and greatest value where the values have an order (numbers,
// dates, datetimes), else the length range of the text, as the core gives them.
function rangeText(profile) {
  if (profile.min !== undefined && profile.max !== undefined)
    return `${display(profile.min)} … ${display(profile.max)}`;
  if (profile.length) return `${count(profile.length.min)}–${count(profile.length.max)} characters`;
  return '—';
}

function topValues(profile) {
  return profile.top_values.map((entry) => `${display(entry.value)} ×${count(entry.count)}`).join(', ');
}

function profileRow(profile) {
  const num = (n) => h('td', { class: 'num' }, count(n));
  return h(
    'tr',
    { dataset: { column: profile.name } },
    h('th', { scope: 'row' }, profile.name),
    h('td', null, profile.type ?? '—'),
    num(profile.values),
    num(profile.blank),
    num(profile.missing),
    num(profile.distinct),
    h('td', { class: 'range' }, rangeText(profile)),
    h('td', null, profile.shape ? h('code', null, profile.shape) : '—'),
    h('td', { class: 'muted' }, topValues(profile)),
  );
}

/** The rules of one drafted column, each with its evidence, as a list. */
function evidenceList(spec, evidence) {
  const rules = Object.keys(spec).filter((key) => key !== 'name');
  return h(
    'ul',
    { class: 'evidence' },
    rules.map((key) =>
      h('li', null, h('code', null, `${key}: ${JSON.stringify(spec[key])}`), ' — ', evidence?.[key] ?? ''),
    ),
  );
}

function draftSection(result, onUseContract) {
  const contract = result.suggested_contract;
  if (!contract) {
    return h('p', { class: 'callout callout-muted' }, 'Nothing could be drafted: see the findings.');
  }
  const evidence = result.evidence?.columns ?? {};
  return h(
    'section',
    { class: 'block draft', 'aria-labelledby': 'draft-title' },
    h('h3', { id: 'draft-title' }, 'Suggested contract'),
    h(
      'p',
      { class: 'help' },
      'validate_rows passes it on this data. It states only what every row shows; review it before adopting it.',
    ),
    onUseContract
      ? h(
          'button',
          { type: 'button', class: 'button', id: 'use-contract', onclick: () => onUseContract(contract) },
          'Check with validate_rows using this contract',
        )
      : null,
    contract.columns.map((spec) =>
      h(
        'div',
        { class: 'draft-column', dataset: { column: spec.name } },
        h('h4', null, spec.name),
        evidenceList(spec, evidence[spec.name]),
      ),
    ),
    contract.table
      ? h(
          'p',
          null,
          h('code', null, `table: ${JSON.stringify(contract.table)}`),
          ' — ',
          result.evidence?.table?.primary_key ?? '',
        )
      : null,
    h(
      'details',
      { class: 'raw' },
      h('summary', null, 'The contract as JSON'),
      h('pre', { class: 'code', tabindex: '0' }, JSON.stringify(contract, null, 2)),
    ),
  );
}

/** The profile table and the draft. */
export function profileView(result, { onUseContract } = {}) {
  const columns = result.columns ?? [];
  const omitted = result.columns_omitted
    ? h('p', { class: 'muted' }, `${count(result.columns_omitted)} more columns are not listed (max_listed).`)
    : null;
  return h(
    'div',
    { class: 'profile' },
    h(
      'section',
      { class: 'block', 'aria-labelledby': 'profile-heading' },
      h('div', { class: 'block-head' }, h('h3', { id: 'profile-heading' }, 'Columns')),
      h(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'profile-heading' },
        h(
          'table',
          { class: 'profile-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              columnHeads.map((name) => h('th', { scope: 'col' }, name)),
            ),
          ),
          h('tbody', null, columns.map(profileRow)),
        ),
      ),
      omitted,
    ),
    draftSection(result, onUseContract),
  );
}
