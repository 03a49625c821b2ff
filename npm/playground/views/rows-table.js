// The data as a table, every row in input order, with the cells a finding
// points at highlighted and the row's reasons beside it. Large tables are
// drawn a page at a time: the check covers every row, the page draws what a
// person can look at.

import { cellText, count, display, h, scrollToAndFocus } from '../dom.js';

const PAGE = 200;

function isObjectRow(row) {
  return row !== null && typeof row === 'object' && !Array.isArray(row);
}

/**
 * rowsTable({ items, lines, columns, marks, unmarkedStatus, markedLabel, extraColumns })
 * Returns `{ element, reveal(rowIndex) }`; reveal draws, scrolls to and
 * focuses a row (the findings list links to rows through it).
 */
export function rowsTable({
  items,
  lines,
  columns,
  marks,
  unmarkedStatus,
  markedLabel = 'rows with findings',
  extraColumns = [],
}) {
  const shownColumns = [...columns];
  for (const name of extraColumns) if (!shownColumns.includes(name)) shownColumns.push(name);
  // A row that is not an object has no columns; its value gets one, under
  // the name the core gives it in the held row.
  if (items.some((row) => !isObjectRow(row))) shownColumns.push('_raw');

  const marked = [...marks.keys()].sort((a, b) => a - b);
  // On a big table the rows with findings are what a person came for.
  let filter = items.length > PAGE && marked.length > 0 ? 'marked' : 'all';
  let limit = PAGE;

  const tbody = h('tbody');
  const shownNote = h('span', { class: 'muted' });
  const more = h('button', {
    type: 'button',
    class: 'button secondary',
    onclick: () => {
      limit += PAGE;
      draw();
    },
  });
  const select = h(
    'select',
    {
      'aria-label': 'Rows to show',
      onchange: (event) => {
        filter = event.target.value;
        limit = PAGE;
        draw();
      },
    },
    h('option', { value: 'all' }, `All ${count(items.length)} rows`),
    h('option', { value: 'marked' }, `${count(marked.length)} ${markedLabel}`),
  );
  select.value = filter;

  const head = h(
    'tr',
    null,
    h('th', { scope: 'col', class: 'num' }, '#'),
    h('th', { scope: 'col' }, 'status'),
    shownColumns.map((name) => h('th', { scope: 'col', dataset: { col: name } }, name)),
    h('th', { scope: 'col', class: 'reasons' }, 'reasons'),
  );

  function cell(row, name, mark) {
    let content;
    if (!isObjectRow(row)) content = name === '_raw' ? display(row) : '';
    else if (!(name in row)) content = h('span', { class: 'faint', title: 'not present in this row' }, '—');
    else if (row[name] === '') content = h('span', { class: 'faint' }, 'blank');
    else content = cellText(row[name]);

    const notes = mark?.cells.get(name);
    if (!notes) return h('td', null, content);
    const tone = notes.some((n) => n.tone === 'error') ? 'error' : notes[0].tone;
    const messages = notes.map((n) => `${n.code}: ${n.message}`).join('\n');
    return h(
      'td',
      { class: `hit hit-${tone}`, title: messages, dataset: { col: name } },
      content,
      h('span', { class: 'sr-only' }, ` (${messages})`),
    );
  }

  function rowElement(index) {
    const row = items[index];
    const mark = marks.get(index);
    const line = lines?.[index];
    const tr = h(
      'tr',
      {
        id: `row-${index + 1}`,
        tabindex: '-1',
        class: mark ? `marked marked-${mark.tone}` : null,
        dataset: { rowIndex: index },
      },
      h(
        'th',
        { scope: 'row', class: 'num' },
        String(index + 1),
        line ? h('span', { class: 'line' }, `line ${line}`) : null,
      ),
      h('td', null, h('span', { class: `pill pill-${mark ? mark.tone : 'ok'}` }, mark ? mark.status : unmarkedStatus)),
      shownColumns.map((name) => cell(row, name, mark)),
      h(
        'td',
        { class: 'reasons' },
        mark?.reasons.length
          ? h(
              'ul',
              null,
              mark.reasons.map((r) => h('li', null, r)),
            )
          : null,
      ),
    );
    if (!mark?.reasons.length) return tr;
    // On a narrow screen the reasons column would sit off to the right;
    // there the reasons show on a line of their own under the row instead.
    const under = h(
      'tr',
      { class: `reasons-row marked-${mark.tone}` },
      h(
        'td',
        { colspan: String(shownColumns.length + 3) },
        h('div', { class: 'reasons-under' }, mark.reasons.join(' · ')),
      ),
    );
    return [tr, under];
  }

  function draw() {
    const total = filter === 'all' ? items.length : marked.length;
    const shown = Math.min(limit, total);
    const fragment = document.createDocumentFragment();
    for (let k = 0; k < shown; k += 1) fragment.append(...[rowElement(filter === 'all' ? k : marked[k])].flat());
    tbody.replaceChildren(fragment);
    more.hidden = shown >= total;
    more.textContent = `Show ${count(Math.min(PAGE, total - shown))} more`;
    shownNote.textContent = shown < total ? `${count(shown)} of ${count(total)} shown` : '';
  }

  function reveal(index) {
    if (filter === 'marked' && !marks.has(index)) {
      filter = 'all';
      select.value = 'all';
    }
    const position = filter === 'all' ? index : marked.indexOf(index);
    if (position >= limit) limit = Math.ceil((position + 1) / PAGE) * PAGE;
    draw();
    scrollToAndFocus(tbody.querySelector(`tr[data-row-index="${index}"]`));
  }

  draw();
  const element = h(
    'section',
    { class: 'block', 'aria-labelledby': 'rows-heading' },
    h(
      'div',
      { class: 'block-head' },
      h('h3', { id: 'rows-heading' }, 'Rows'),
      h('div', { class: 'block-tools' }, shownNote, items.length > 0 ? select : null),
    ),
    h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'rows-heading' },
      h('table', { class: 'rows' }, h('thead', null, head), tbody),
    ),
    more,
  );
  return { element, reveal };
}
