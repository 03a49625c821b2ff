// Findings grouped by code, then by the column (or side) they point at: what
// went wrong, where, and how often, with each location a link into the
// table above.

import { count, h } from '../dom.js';

const LISTED = 8;

/** "row 4 · line 5", "movement #4", "closing_balance". */
export function locatorText(locator) {
  if (!locator) return '';
  if (locator.row_number !== undefined) {
    return locator.line !== undefined
      ? `row ${locator.row_number} · line ${locator.line}`
      : `row ${locator.row_number}`;
  }
  if (locator.movement_number !== undefined) return `movement #${locator.movement_number}`;
  return locator.side ?? '';
}

function whereOf(finding) {
  const locator = finding.locator ?? {};
  if (locator.column !== undefined) return locator.column;
  if (locator.side !== undefined) return locator.side;
  return locator.row_index !== undefined ? '(whole row)' : '(whole table)';
}

function canLocate(locator) {
  return locator?.row_index !== undefined || locator?.movement_index !== undefined;
}

/**
 * findingsView(findings, { onLocate(locator) })
 * `onLocate` is called with a finding's locator when its link is used.
 */
export function findingsView(findings, { onLocate } = {}) {
  const groups = new Map();
  for (const finding of findings) {
    let group = groups.get(finding.code);
    if (!group) {
      group = { severity: finding.severity, guidance: finding.guidance, total: 0, byWhere: new Map() };
      groups.set(finding.code, group);
    }
    group.total += 1;
    const where = whereOf(finding);
    if (!group.byWhere.has(where)) group.byWhere.set(where, []);
    group.byWhere.get(where).push(finding);
  }

  const item = (finding) => {
    // A side named in the heading need not be repeated on every line.
    const label = locatorText(finding.locator) === whereOf(finding) ? '' : locatorText(finding.locator);
    const link = canLocate(finding.locator)
      ? h('button', { type: 'button', class: 'link', onclick: () => onLocate?.(finding.locator) }, label)
      : label
        ? h('span', { class: 'where-inline' }, label)
        : null;
    return h('li', null, link, link ? ' ' : null, finding.message);
  };

  const whereList = (findingsHere) => {
    const list = h('ul', { class: 'locations' }, findingsHere.slice(0, LISTED).map(item));
    if (findingsHere.length > LISTED) {
      const rest = findingsHere.length - LISTED;
      const button = h(
        'button',
        {
          type: 'button',
          class: 'link',
          onclick: () => {
            list.append(...findingsHere.slice(LISTED).map(item));
            button.parentElement.remove();
          },
        },
        `show ${count(rest)} more`,
      );
      list.append(h('li', { class: 'more-item' }, button));
    }
    return list;
  };

  const sections = [...groups].map(([code, group]) =>
    h(
      'details',
      { class: `finding-group sev-${group.severity}`, open: groups.size <= 6, dataset: { code } },
      h(
        'summary',
        null,
        h('code', null, code),
        h('span', { class: `sev sev-${group.severity}` }, group.severity),
        h('span', { class: 'group-count' }, `${count(group.total)} finding${group.total === 1 ? '' : 's'}`),
        h('span', { class: 'muted' }, [...group.byWhere.keys()].join(', ')),
      ),
      [...group.byWhere].map(([where, here]) =>
        h(
          'div',
          { class: 'where-group', dataset: { where } },
          h(
            'h5',
            null,
            h('span', { class: 'where' }, where),
            h('span', { class: 'muted' }, ` · ${count(here.length)}`),
          ),
          whereList(here),
        ),
      ),
      group.guidance ? h('p', { class: 'guidance-small' }, group.guidance) : null,
    ),
  );

  return h(
    'section',
    { class: 'block', 'aria-labelledby': 'findings-heading' },
    h('div', { class: 'block-head' }, h('h3', { id: 'findings-heading' }, 'Findings by code and column')),
    sections.length ? sections : h('p', { class: 'muted' }, 'No findings.'),
  );
}
