// A tool's arguments as a form. Each field edits one argument; the JSON
// editor beside it shows the same object (main.js keeps the two in step).
// Every field has an error slot, where an argument error from the core is
// shown next to the argument it names.

import { contractForm } from './contract-form.js';
import { h } from './dom.js';
import { numberFromText, setKey, textOf } from './form-values.js';

const MAX_LISTED = {
  name: 'max_listed',
  kind: 'number',
  placeholder: 'no cap',
  help: 'cap each list in the result; counts still cover every row',
};

/** The arguments each tool's form shows, besides its data. */
const FIELDS = {
  validate_rows: [
    { name: 'columns', kind: 'contract' },
    {
      name: 'row_key',
      kind: 'column',
      placeholder: 'none',
      help: 'a column to quote in each locator; it does not affect validation',
    },
    MAX_LISTED,
  ],
  reconcile: [
    { name: 'opening_balance', kind: 'number', required: true, help: 'a number, or numeric text' },
    { name: 'closing_balance', kind: 'number', required: true, help: 'the balance reported at the end' },
    { name: 'tolerance', kind: 'number', placeholder: '0.01', help: 'largest variance still accepted as closing' },
  ],
  count_distinct: [
    { name: 'key', kind: 'column', required: true, help: 'the column holding the stable identifier' },
    { name: 'case_sensitive', kind: 'boolean', help: 'compare keys as given, instead of trimmed and case-folded' },
    MAX_LISTED,
  ],
  duplicate_report: [
    { name: 'key', kind: 'column', required: true, help: 'the column holding the identifier' },
    {
      name: 'match_fields',
      kind: 'columns',
      help: 'compare rows with different keys on these columns; none means same-key groups only',
    },
    {
      name: 'similarity_threshold',
      kind: 'number',
      placeholder: 'off',
      help: 'above 0, at most 1: also report near matches on the match fields',
    },
    { name: 'case_sensitive', kind: 'boolean', help: 'compare as given, instead of trimmed and case-folded' },
    { name: 'max_groups', kind: 'number', placeholder: '50', help: 'most groups to report' },
    MAX_LISTED,
  ],
};

/**
 * argsForm({ tool, args, dataColumns, onEdit(args, { structural, focus }) })
 * Returns the form element. It never keeps its own copy of the arguments:
 * each edit produces a new object and hands it to `onEdit`.
 */
export function argsForm({ tool, args, dataColumns, onEdit }) {
  let current = args;
  const commit = (next, options = { structural: false }) => {
    current = next;
    onEdit(next, options);
  };
  const set = (name, value, options) => commit(setKey({ ...current }, name, value), options);

  const fields = FIELDS[tool].map((field) => {
    if (field.kind === 'contract') {
      return contractForm({
        columns: current.columns,
        dataColumns,
        onEdit: (columns, options) => commit({ ...current, columns }, options),
      });
    }
    return fieldElement(field, current[field.name], dataColumns, set);
  });
  const known = new Set(FIELDS[tool].map((field) => field.name));
  const others = Object.keys(args).filter((name) => !known.has(name));
  return h(
    'div',
    { class: 'args-form' },
    h(
      'datalist',
      { id: 'data-columns' },
      dataColumns.map((name) => h('option', { value: name })),
    ),
    fields,
    others.length ? h('p', { class: 'help' }, `Also in the JSON, not shown as fields: ${others.join(', ')}.`) : null,
  );
}

function fieldElement(field, value, dataColumns, set) {
  const id = `arg-${field.name}`;
  const errorId = `${id}-error`;
  const help = field.help ? h('span', { class: 'help', id: `${id}-help` }, field.help) : null;
  const describedBy = [field.help ? `${id}-help` : null, errorId].filter(Boolean).join(' ');
  let control;
  switch (field.kind) {
    case 'boolean':
      control = h('input', {
        type: 'checkbox',
        id,
        checked: value === true,
        'aria-describedby': describedBy,
        onchange: (event) => set(field.name, event.target.checked ? true : undefined),
      });
      break;
    case 'columns':
      control = columnChips(field, value, dataColumns, set, describedBy);
      break;
    default:
      control = h('input', {
        type: 'text',
        id,
        value: textOf(value),
        placeholder: field.placeholder ?? '',
        autocomplete: 'off',
        spellcheck: 'false',
        inputmode: field.kind === 'number' ? 'decimal' : null,
        list: field.kind === 'column' ? 'data-columns' : null,
        'aria-describedby': describedBy,
        oninput: (event) => {
          const text = event.target.value;
          set(
            field.name,
            field.kind === 'number' ? numberFromText(text) : text === '' && !field.required ? undefined : text,
          );
        },
      });
  }
  const label =
    field.kind === 'columns'
      ? h('span', { class: 'field-name', id: `${id}-label` }, field.name)
      : h('label', { class: 'field-name', for: id }, field.name);
  return h(
    'div',
    { class: `field kind-${field.kind}`, dataset: { arg: field.name } },
    h('div', { class: 'field-head' }, label, field.required ? h('span', { class: 'req' }, 'required') : null, help),
    control,
    h('p', { class: 'field-error', id: errorId, dataset: { errorFor: field.name }, hidden: true }),
  );
}

// match_fields as one checkbox per column; a name in the arguments that is
// not a data column still gets a box, so nothing in the JSON is hidden.
function columnChips(field, value, dataColumns, set, describedBy) {
  const chosen = Array.isArray(value) ? value : [];
  const names = [...dataColumns, ...chosen.filter((name) => typeof name === 'string' && !dataColumns.includes(name))];
  const state = new Set(chosen);
  return h(
    'div',
    {
      class: 'chips',
      role: 'group',
      'aria-labelledby': `arg-${field.name}-label`,
      'aria-describedby': describedBy,
      id: `arg-${field.name}`,
    },
    names.length === 0 ? h('span', { class: 'help' }, 'paste data to choose its columns') : null,
    names.map((name) =>
      h(
        'label',
        { class: 'chip' },
        h('input', {
          type: 'checkbox',
          checked: state.has(name),
          value: name,
          onchange: (event) => {
            if (event.target.checked) state.add(name);
            else state.delete(name);
            // Keep the data's column order, whatever order boxes were ticked in.
            const ordered = names.filter((n) => state.has(n));
            set(field.name, ordered.length ? ordered : undefined);
          },
        }),
        h('span', null, name),
      ),
    ),
  );
}
