// A tool's arguments as a form. Each field edits one argument; the JSON
// editor beside it shows the same object (main.js keeps the two in step).
// Every field has an error slot, where an argument error from the core is
// shown next to the argument it names.

import { contractForm } from './contract-form.js';
import { DATA_ARGUMENTS } from './data.js';
import { h } from './dom.js';
import { jsonFromText, numberFromText, setKey, textOf } from './form-values.js';

/**
 * How the page presents an argument. Which arguments a check has, which are
 * required and their defaults come from the core's catalog (formFields);
 * this only adds the page's wording and, where the schema cannot say it,
 * the kind of field (a data column, the contract). The tests check every
 * name here against the catalog.
 */
export const PRESENTATION = {
  columns: { kind: 'contract' },
  row_key: {
    kind: 'column',
    placeholder: 'none',
    help: 'a column to quote in each locator; it does not affect validation',
  },
  opening_balance: { kind: 'number', help: 'a number, or numeric text' },
  closing_balance: { kind: 'number', help: 'the balance reported at the end' },
  tolerance: { help: 'largest variance still accepted as closing' },
  key: { kind: 'column', help: 'the column holding the stable identifier' },
  case_sensitive: { help: 'compare keys as given, instead of trimmed and case-folded' },
  match_fields: {
    kind: 'columns',
    help: 'compare rows with different keys on these columns; none means same-key groups only',
  },
  similarity_threshold: {
    placeholder: 'off',
    help: 'above 0, at most 1: also report near matches on the match fields',
  },
  max_groups: { help: 'most groups to report' },
  max_listed: { placeholder: 'no cap', help: 'cap each list in the result; counts still cover every row' },
  // The placeholders name the tool's own lists, from its schema: the second
  // of each tool's lists is the one most asked for (quarantine,
  // repeated_keys, groups).
  lists: {
    kind: 'json',
    placeholder: (property) => JSON.stringify([property.items.enum[1]]),
    help: 'which lists to fill, as JSON; the others stay empty, counted in <list>_omitted',
  },
  page: {
    kind: 'json',
    placeholder: (property) => `{"list": "${property.properties.list.enum[1]}", "offset": 0, "limit": 100}`,
    help: 'one window of one list, as JSON; the result’s page.next_page asks for the next',
  },
  schema: {
    kind: 'json',
    placeholder: '{"fields": [{"name": "id", "type": "integer"}]}',
    help: 'instead of columns: a Frictionless Table Schema or a JSON Schema of one row, as JSON',
  },
  row_rules: {
    kind: 'json',
    placeholder: '[{"name": "ends_after_start", "check": "end_date >= start_date"}]',
    help: 'checks across the columns of a row (a CEL subset), as JSON',
  },
  export: {
    kind: 'json',
    placeholder: '{"dir": "runs/today"}',
    help: 'the MCP server’s (with --output-root): the whole split written as files; refused here, since this page writes nothing',
  },
  table: {
    kind: 'json',
    placeholder: '{"primary_key": ["id"], "row_count": {"min": 1}}',
    help: 'rules about the whole table, as JSON: primary_key, row_count, columns: "exact", max_quarantined_fraction',
  },
};

// A field's kind from its schema, when the presentation does not name one.
function kindOf(property) {
  const types = (property.anyOf ?? [property]).map((variant) => variant.type).filter((type) => type && type !== 'null');
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('number') || types.includes('integer')) return 'number';
  return 'text';
}

/**
 * The fields of one tool's form, in the catalog's argument order: every
 * argument except those the data panel supplies.
 */
export function formFields(entry) {
  const schema = entry.input_schema;
  return Object.entries(schema.properties)
    .filter(([name]) => !DATA_ARGUMENTS.includes(name))
    .map(([name, property]) => {
      const shown = PRESENTATION[name] ?? {};
      const fallback = property.default === undefined || property.default === null ? '' : String(property.default);
      const placeholder = typeof shown.placeholder === 'function' ? shown.placeholder(property) : shown.placeholder;
      return {
        name,
        kind: shown.kind ?? kindOf(property),
        required: schema.required.includes(name),
        placeholder: placeholder ?? fallback,
        help: shown.help ?? property.description ?? '',
      };
    });
}

/**
 * argsForm({ tool, catalog, args, dataColumns, onEdit(args, { structural, focus }) })
 * `catalog` is the core's toolCatalog(). Returns the form element. It never
 * keeps its own copy of the arguments: each edit produces a new object and
 * hands it to `onEdit`.
 */
export function argsForm({ tool, catalog, args, dataColumns, onEdit }) {
  let current = args;
  const commit = (next, options = { structural: false }) => {
    current = next;
    onEdit(next, options);
  };
  const set = (name, value, options) => commit(setKey({ ...current }, name, value), options);

  const specs = formFields(catalog.tools.find((entry) => entry.name === tool));
  const fields = specs.map((field) => {
    if (field.kind === 'contract') {
      return contractForm({
        columns: current.columns,
        columnSpec: catalog.column_spec,
        dataColumns,
        onEdit: (columns, options) => commit({ ...current, columns }, options),
      });
    }
    return fieldElement(field, current[field.name], dataColumns, set);
  });
  const known = new Set(specs.map((field) => field.name));
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
          const parse = { number: numberFromText, json: jsonFromText }[field.kind];
          set(field.name, parse ? parse(text) : text === '' && !field.required ? undefined : text);
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
