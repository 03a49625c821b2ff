// reconcile: the equation with both sides, the variance, and the movements
// with the one the diagnosis points at picked out. Every figure comes from
// the result; the page only lays them out.

import { amount, display, h, scrollToAndFocus, signed } from '../dom.js';

const POINTERS = ['variance_matches_single_movement', 'variance_is_double_a_movement'];

function term(label, value, { sub = null, strong = false, key } = {}) {
  return h(
    'div',
    { class: `term${strong ? ' strong' : ''}`, dataset: { term: key } },
    h('span', { class: 'term-label' }, label),
    h('span', { class: 'term-value' }, value),
    sub ? h('span', { class: 'term-sub' }, sub) : null,
  );
}

function equation(result) {
  if (result.arithmetic === undefined) {
    return h(
      'p',
      { class: 'callout callout-muted' },
      'No arithmetic was done: the arguments could not be used as balances and movements. See the findings.',
    );
  }
  const totals = result.movement_totals;
  const verdict =
    result.closes === true
      ? ['closes', 'ok', '=']
      : result.closes === false
        ? ['does not close', 'error', '≠']
        : ['no verdict (closes: null)', 'muted', '?'];
  return h(
    'div',
    { class: 'equation-block' },
    // One flat sequence of operators and terms: a row on a wide screen, and
    // on a narrow one a column with the operators down the left (the empty
    // first operator keeps the terms in line).
    h(
      'div',
      { class: 'equation', role: 'group', 'aria-label': 'opening balance plus movements, against the closing balance' },
      h('span', { class: 'op lead', 'aria-hidden': 'true' }),
      term('opening', amount(result.opening_balance), { key: 'opening' }),
      h('span', { class: 'op', 'aria-hidden': 'true' }, '+'),
      term('movements (net)', signed(result.movements_net), {
        sub: `in ${amount(totals.in)} · out ${amount(totals.out)}`,
        key: 'net',
      }),
      h('span', { class: 'op', 'aria-hidden': 'true' }, '='),
      term('expected closing', amount(result.expected_closing_balance), { strong: true, key: 'expected' }),
      h('span', { class: `op relation relation-${verdict[1]}`, 'aria-label': verdict[0] }, verdict[2]),
      term('reported closing', amount(result.reported_closing_balance), { strong: true, key: 'reported' }),
    ),
    h(
      'p',
      { class: `variance variance-${verdict[1]}` },
      'variance = reported − expected = ',
      h('strong', { dataset: { variance: String(result.variance) } }, signed(result.variance)),
      ` (tolerance ${amount(result.tolerance)}): `,
      h('strong', null, verdict[0]),
      result.arithmetic_is_reliable === false
        ? ' — a movement or balance could not be read, so this is neither a pass nor a fail'
        : null,
    ),
  );
}

/**
 * reconcileView(result, data) → `{ element, reveal(movementIndex) }`.
 * `data.items` are the movements as given, so an unreadable one still has a
 * row (the result lists only the movements it could read).
 */
export function reconcileView(result, data) {
  const parsed = new Map((result.movements ?? []).map((m) => [m.movement_index, m]));
  const notes = new Map();
  for (const finding of result.findings ?? []) {
    const index = finding.locator?.movement_index;
    if (index === undefined) continue;
    if (!notes.has(index)) notes.set(index, []);
    notes.get(index).push(finding);
  }
  const pointers = (result.findings ?? []).filter((f) => POINTERS.includes(f.code));

  const rows = data.items.map((raw, index) => {
    const movement = parsed.get(index);
    const findings = notes.get(index) ?? [];
    const pointed = findings.some((f) => POINTERS.includes(f.code));
    const unreadable = !movement;
    const codes = new Set(findings.map((f) => f.code));
    const hit = (tone) => ` hit hit-${tone}`;
    const tone = unreadable ? 'error' : pointed ? 'warning' : null;
    const given = raw !== null && typeof raw === 'object' ? raw : {};
    return h(
      'tr',
      {
        id: `movement-${index + 1}`,
        tabindex: '-1',
        class: tone ? `marked marked-${tone}` : null,
        dataset: { movementIndex: index, pointed: pointed ? 'true' : null },
      },
      h(
        'th',
        { scope: 'row', class: 'num' },
        `#${index + 1}`,
        data.lines?.[index] ? h('span', { class: 'line' }, `line ${data.lines[index]}`) : null,
      ),
      h(
        'td',
        { class: 'wrap' },
        movement?.label ??
          display(given.label ?? given.description ?? given.reference ?? (typeof raw === 'object' ? '' : raw)),
      ),
      h(
        'td',
        { class: codes.has('unknown_direction') ? hit('error') : null },
        movement
          ? h('span', { class: `pill pill-${movement.direction === 'in' ? 'ok' : 'info'}` }, movement.direction)
          : codes.has('unknown_direction')
            ? display(given.direction ?? given.sign)
            : h('span', { class: 'pill pill-error' }, 'unreadable'),
      ),
      h(
        'td',
        { class: `amount${pointed ? hit('warning') : codes.has('movement_not_numeric') ? hit('error') : ''}` },
        movement ? amount(movement.amount) : display(given.amount ?? given.value ?? raw),
      ),
      h('td', { class: 'amount' }, movement ? signed(movement.signed_amount) : '—'),
      h('td', null, movement?.date ?? display(given.date ?? '')),
      h(
        'td',
        { class: 'reasons' },
        findings.length
          ? h(
              'ul',
              null,
              findings.map((f) => h('li', null, f.message)),
            )
          : null,
      ),
    );
  });

  const diagnosis = pointers.length
    ? h(
        'div',
        { class: 'callout callout-warning diagnosis' },
        h('h4', null, 'Where the diagnosis points'),
        pointers.map((finding) => {
          const index = finding.locator.movement_index;
          const movement = parsed.get(index);
          return h(
            'div',
            { class: 'pointer', dataset: { pointsAt: index } },
            h(
              'button',
              { type: 'button', class: 'link', onclick: () => reveal(index) },
              `Movement #${index + 1}${movement?.label ? ` · ${movement.label}` : ''}`,
            ),
            h('p', null, `${finding.message}.`),
            finding.guidance ? h('p', { class: 'muted small' }, finding.guidance) : null,
          );
        }),
      )
    : null;

  const tbody = h('tbody', null, rows);
  function reveal(index) {
    scrollToAndFocus(tbody.querySelector(`tr[data-movement-index="${index}"]`));
  }

  const element = h(
    'div',
    { class: 'stack' },
    equation(result),
    diagnosis,
    h(
      'section',
      { class: 'block', 'aria-labelledby': 'movements-heading' },
      h('div', { class: 'block-head' }, h('h3', { id: 'movements-heading' }, 'Movements')),
      h(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'movements-heading' },
        h(
          'table',
          { class: 'rows movements' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['#', 'label', 'direction', 'amount', 'signed', 'date', 'notes'].map((name) =>
                h('th', { scope: 'col', class: name === '#' ? 'num' : null }, name),
              ),
            ),
          ),
          tbody,
        ),
      ),
    ),
  );
  return { element, reveal };
}
