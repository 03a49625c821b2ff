// duplicate_report: each suspected group as its rows side by side, fields
// down the side, with the values that differ picked out and the group's
// review question on top. Nothing here merges anything; neither does the
// core.

import { cellText, count, h } from '../dom.js';
import { locatorText } from './findings.js';

const KIND_LABEL = {
  same_key: 'same key',
  same_signature: 'same details, different keys',
  near_match: 'similar details',
};

function fieldsOf(group, key, matchFields) {
  const fields = [key, ...(matchFields ?? [])];
  for (const member of group.members) {
    for (const name of Object.keys(member.row ?? {})) if (!fields.includes(name)) fields.push(name);
  }
  return [...new Set(fields)];
}

function groupCard(group, { key, matchFields }) {
  const fields = fieldsOf(group, key, matchFields);
  const members = group.members;
  const rows = fields.map((field) => {
    const values = members.map((member) => member.row?.[field]);
    const differs = new Set(values.map((v) => JSON.stringify(v ?? null))).size > 1;
    return h(
      'tr',
      { class: differs ? 'differs' : null },
      h(
        'th',
        { scope: 'row' },
        field,
        field === key ? h('span', { class: 'field-role' }, 'key') : null,
        matchFields?.includes(field) ? h('span', { class: 'field-role' }, 'matched') : null,
      ),
      values.map((value) =>
        h(
          'td',
          { class: differs ? 'hit hit-warning' : null },
          value === undefined
            ? h('span', { class: 'faint' }, '—')
            : value === ''
              ? h('span', { class: 'faint' }, 'blank')
              : cellText(value),
        ),
      ),
    );
  });
  return h(
    'article',
    {
      class: `group-card kind-${group.kind}`,
      tabindex: '-1',
      dataset: {
        groupId: group.group_id,
        kind: group.kind,
        memberRows: members.map((m) => m.locator.row_index).join(' '),
      },
    },
    h(
      'header',
      { class: 'group-head' },
      h('h4', null, group.group_id),
      h('span', { class: 'pill pill-warning' }, KIND_LABEL[group.kind] ?? group.kind),
      group.similarity !== undefined ? h('span', { class: 'muted' }, `similarity ${group.similarity}`) : null,
      h(
        'span',
        { class: 'muted' },
        `${count(group.size)} rows · auto_merged: ${group.auto_merged} · decision_required: ${group.decision_required}`,
      ),
    ),
    h(
      'p',
      { class: 'review-question' },
      h('span', { class: 'q-label' }, 'Question for a person'),
      group.review_question,
    ),
    h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `${group.group_id} rows side by side` },
      h(
        'table',
        { class: 'side-by-side' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'field'),
            members.map((m) => h('th', { scope: 'col' }, locatorText(m.locator))),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
    h(
      'p',
      { class: 'muted small' },
      group.reason,
      group.members_omitted ? ` · ${count(group.members_omitted)} more rows not listed` : null,
    ),
  );
}

/** The groups, and the rows no group could take because their key is blank. */
export function duplicatesView(result, args) {
  const groups = result.groups ?? [];
  const blank = result.blank_key_rows ?? [];
  const options = { key: result.stable_key ?? args.key, matchFields: args.match_fields };
  return h(
    'div',
    { class: 'stack' },
    h(
      'section',
      { class: 'block', 'aria-labelledby': 'groups-heading' },
      h('div', { class: 'block-head' }, h('h3', { id: 'groups-heading' }, 'Suspected duplicates, side by side')),
      groups.length
        ? h(
            'div',
            { class: 'groups' },
            groups.map((group) => groupCard(group, options)),
          )
        : h('p', { class: 'muted' }, 'No suspected duplicate groups.'),
      result.groups_omitted
        ? h(
            'p',
            { class: 'muted' },
            `${count(result.groups_omitted)} more groups not listed (max_groups / max_listed).`,
          )
        : null,
    ),
    blank.length
      ? h(
          'section',
          { class: 'block', 'aria-labelledby': 'blank-heading' },
          h(
            'div',
            { class: 'block-head' },
            h('h3', { id: 'blank-heading' }, `Rows with a blank key (${count(blank.length)})`),
          ),
          h(
            'ul',
            { class: 'plain-list' },
            blank.map((b) =>
              h(
                'li',
                null,
                h('strong', null, locatorText(b.locator)),
                ` ${b.reason}: `,
                h('code', null, JSON.stringify(b.row)),
              ),
            ),
          ),
        )
      : null,
  );
}
