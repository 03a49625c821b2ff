// validate_rows's contract as a form: one row per column, one field per
// rule. The spec objects are edited key by key, so a key the form does not
// show (a description, a misspelt rule) survives for the core to accept or
// name in its error.

import { h } from './dom.js';
import {
  allowedFromText,
  allowedText,
  jsonFromText,
  numberFromText,
  rangeFromText,
  rangeText,
  setKey,
  textOf,
} from './form-values.js';

/**
 * The spec keys the form has a field for, in its order. The types and
 * on_fail values its selects offer come from the core's catalog
 * (`column_spec`); the tests check these keys against it. Other keys (a
 * description, a misspelt rule) stay in the JSON.
 */
export const SPEC_FIELDS = [
  'name',
  'type',
  'on_fail',
  'required',
  'not_blank',
  'min',
  'max',
  'range',
  'pattern',
  'allowed',
  'unique',
  'min_length',
  'max_length',
  'format',
  'max_decimal_places',
  'references',
];

/**
 * contractForm({ columns, columnSpec, dataColumns, onEdit(columns, { structural }) })
 * `columnSpec` is the catalog's JSON Schema of one column spec.
 * `structural` edits (a column added or removed) need the form redrawn.
 */
export function contractForm({ columns, columnSpec, dataColumns, onEdit }) {
  const root = h('div', { class: 'contract', dataset: { arg: 'columns' } });
  const heading = h(
    'div',
    { class: 'field-head' },
    h('span', { class: 'field-name', id: 'columns-label' }, 'columns'),
    h('span', { class: 'req' }, 'required'),
    h('span', { class: 'help' }, 'the contract: one row per column, its type and rules'),
  );
  const topError = h('p', {
    class: 'field-error',
    dataset: { errorFor: 'columns' },
    hidden: true,
    id: 'columns-error',
  });

  if (!Array.isArray(columns)) {
    root.append(
      heading,
      h('p', { class: 'help' }, 'columns is not an array here; edit it in the JSON below.'),
      topError,
    );
    return root;
  }

  const edit = (index, key, value) => {
    const next = columns.slice();
    const spec =
      next[index] !== null && typeof next[index] === 'object' && !Array.isArray(next[index]) ? { ...next[index] } : {};
    next[index] = setKey(spec, key, value);
    columns = next;
    onEdit(next, { structural: false });
  };

  const rows = columns.map((spec, index) =>
    specRow(spec, index, columnSpec.properties, {
      edit,
      remove: () => {
        const next = columns.filter((_, i) => i !== index);
        onEdit(next, {
          structural: true,
          focus: `[data-column-index="${Math.min(index, next.length - 1)}"] [data-spec-key="name"]`,
        });
      },
    }),
  );

  const unused = dataColumns.filter((name) => !columns.some((spec) => spec?.name === name));
  const add = h(
    'button',
    {
      type: 'button',
      class: 'button secondary',
      onclick: () => {
        const next = [...columns, { name: unused[0] ?? '' }];
        onEdit(next, { structural: true, focus: `[data-column-index="${next.length - 1}"] [data-spec-key="name"]` });
      },
    },
    unused.length ? `Add column “${unused[0]}”` : 'Add a column',
  );

  root.append(heading, topError, h('div', { class: 'specs' }, rows), h('div', { class: 'spec-actions' }, add));
  return root;
}

function specRow(spec, index, keys, { edit, remove }) {
  const id = (key) => `spec-${index}-${key}`;
  const errorId = `spec-${index}-error`;
  const isObject = spec !== null && typeof spec === 'object' && !Array.isArray(spec);
  const value = (key) => (isObject ? spec[key] : undefined);

  const text = (key, label, toValue, toText, attrs = {}) =>
    h(
      'div',
      { class: `spec-field f-${key}` },
      h('label', { for: id(key) }, label),
      h('input', {
        id: id(key),
        type: 'text',
        value: toText(value(key)),
        autocomplete: 'off',
        spellcheck: 'false',
        'aria-describedby': errorId,
        dataset: { specKey: key },
        oninput: (event) => edit(index, key, toValue(event.target.value)),
        ...attrs,
      }),
    );
  const select = (key, label, options) => {
    const current = value(key);
    const known = current === undefined || options.includes(current);
    return h(
      'div',
      { class: `spec-field f-${key}` },
      h('label', { for: id(key) }, label),
      h(
        'select',
        {
          id: id(key),
          value: current === undefined ? '' : String(current),
          'aria-describedby': errorId,
          dataset: { specKey: key },
          onchange: (event) => edit(index, key, event.target.value === '' ? undefined : event.target.value),
        },
        h('option', { value: '' }, '—'),
        options.map((option) => h('option', { value: option }, option)),
        // A value typed in the JSON that is not an option still shows.
        known ? null : h('option', { value: String(current) }, String(current)),
      ),
    );
  };
  const check = (key, label) =>
    h(
      'label',
      { class: `spec-check f-${key}` },
      h('input', {
        type: 'checkbox',
        id: id(key),
        checked: value(key) === true,
        'aria-describedby': errorId,
        dataset: { specKey: key },
        onchange: (event) => edit(index, key, event.target.checked ? true : undefined),
      }),
      label,
    );

  const name = typeof value('name') === 'string' ? value('name') : '';
  const element = h(
    'fieldset',
    { class: 'spec', dataset: { columnIndex: index } },
    h('legend', { class: 'sr-only' }, `Column ${index + 1}${name ? `, ${name}` : ''}`),
    isObject
      ? h(
          'div',
          { class: 'spec-grid' },
          text('name', 'name', (v) => v, textOf, { class: 'name-input', list: 'data-columns' }),
          select('type', 'type', keys.type.enum),
          select('on_fail', 'on_fail', keys.on_fail.enum),
          h(
            'div',
            { class: 'spec-checks' },
            check('required', 'required'),
            check('not_blank', 'not_blank'),
            check('unique', 'unique'),
          ),
          // A bound that is not a number stays text: an ISO date on a date column.
          text('min', 'min', numberFromText, textOf, { placeholder: 'number or date' }),
          text('max', 'max', numberFromText, textOf, { placeholder: 'number or date' }),
          text('range', 'range', rangeFromText, rangeText, { placeholder: 'low, high' }),
          text('pattern', 'pattern', (v) => (v === '' ? undefined : v), textOf, {
            placeholder: 'regex, whole value',
            class: 'mono',
          }),
          text('allowed', 'allowed', allowedFromText, allowedText, { placeholder: 'A, B, C' }),
          text('min_length', 'min_length', numberFromText, textOf, { inputmode: 'numeric' }),
          text('max_length', 'max_length', numberFromText, textOf, { inputmode: 'numeric' }),
          select('format', 'format', keys.format.enum),
          text('max_decimal_places', 'decimals', numberFromText, textOf, { inputmode: 'numeric' }),
          text('references', 'references', jsonFromText, textOf, {
            placeholder: '{"values": ["EU", "UK"]}',
            class: 'mono',
          }),
        )
      : h('p', { class: 'help' }, `This column is ${JSON.stringify(spec)}, not an object; edit it in the JSON below.`),
    h(
      'button',
      {
        type: 'button',
        class: 'remove',
        'aria-label': `Remove column ${index + 1}${name ? ` (${name})` : ''}`,
        title: 'Remove this column',
        onclick: remove,
      },
      '×',
    ),
    h('p', { class: 'field-error', id: errorId, hidden: true }),
  );
  return element;
}
