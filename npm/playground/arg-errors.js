// Put an argument error from the core next to the argument it names: the
// field, the contract column (and its rule), the data panel, or the JSON
// editor when nothing more precise fits. The message is the core's own.

import { DATA_ARGUMENTS } from './data.js';

const SPEC_KEYS = [
  'allowed',
  'description',
  'max',
  'min',
  'name',
  'not_blank',
  'on_fail',
  'pattern',
  'range',
  'required',
  'type',
];

/** The core's contract errors end with a long help text after two spaces. */
export function splitMessage(message) {
  const at = message.indexOf('  ');
  return at < 0 ? [message, ''] : [message.slice(0, at), message.slice(at + 2)];
}

/**
 * Which contract column (and rule) a `columns` error is about, from its
 * message: `column "amount": "pattern" ...` or `column #2: ...`.
 */
export function contractTarget(message, columns) {
  const specs = Array.isArray(columns) ? columns : [];
  let index = -1;
  let rest = '';
  const numbered = /^column #(\d+)\b:? ?(.*)$/s.exec(message);
  if (numbered) {
    index = Number(numbered[1]) - 1;
    rest = numbered[2];
  } else {
    // Names may hold quotes or colons, so match the longest name that fits.
    let best = '';
    specs.forEach((spec, i) => {
      const name = spec?.name;
      if (typeof name !== 'string' || (index >= 0 && name.length <= best.length)) return;
      if (message.startsWith(`column "${name}": `)) {
        best = name;
        index = i;
        rest = message.slice(`column "${name}": `.length);
      }
    });
  }
  if (index < 0) return null;
  let key = null;
  const quoted = /^"(\w+)"/.exec(rest);
  if (quoted && SPEC_KEYS.includes(quoted[1])) key = quoted[1];
  else if (rest.startsWith('unknown type')) key = 'type';
  else if (rest.startsWith('on_fail')) key = 'on_fail';
  else if (rest.startsWith('needs a non-empty "name"')) key = 'name';
  return { index, key };
}

/** Remove every shown argument error. */
export function clearArgErrors(root) {
  for (const slot of root.querySelectorAll('.field-error')) {
    slot.hidden = true;
    slot.replaceChildren();
  }
  for (const element of root.querySelectorAll('[aria-invalid="true"]')) element.removeAttribute('aria-invalid');
  for (const element of root.querySelectorAll('.has-error')) element.classList.remove('has-error');
}

/**
 * Show `error` ({ code, argument, message }) in its slot under `root`.
 * Returns `{ slot, control, label }`: where the message went, the control to
 * focus to fix it, and how to name that place to a person.
 */
export function showArgError(root, error, { columns } = {}) {
  const argument = error.argument;
  let slot = null;
  let control = null;
  let container = null;
  let label = argument ?? 'the JSON arguments';

  if (argument === 'columns') {
    const target = contractTarget(error.message, columns);
    if (target) {
      const name = columns[target.index]?.name;
      label = `columns: ${typeof name === 'string' && name ? `“${name}”` : `column ${target.index + 1}`}${target.key ? `, ${target.key}` : ''}`;
      container = root.querySelector(`[data-column-index="${target.index}"]`);
      slot = container?.querySelector('.field-error') ?? null;
      control =
        (target.key && container?.querySelector(`[data-spec-key="${target.key}"]`)) ||
        container?.querySelector('input, select') ||
        null;
    }
  }
  if (!slot && argument && DATA_ARGUMENTS.includes(argument)) {
    slot = root.querySelector('[data-error-for="data"]');
    control = root.querySelector('#data-text');
    label = 'the data';
  }
  if (!slot && argument) {
    slot = root.querySelector(`[data-error-for="${CSS.escape(argument)}"]`);
    container = slot?.closest('[data-arg]') ?? null;
    control = container?.querySelector('input, select, textarea') ?? null;
  }
  if (!slot) {
    slot = root.querySelector('[data-error-for="json"]');
    control = root.querySelector('#args-json');
    label = 'the JSON arguments';
  }

  const [main, help] = splitMessage(error.message);
  const code = document.createElement('code');
  code.textContent = error.code;
  const text = document.createElement('span');
  text.className = 'error-text';
  text.textContent = main;
  slot.replaceChildren(code, ' ', text);
  if (help) {
    // The core appends a general how-to; useful, but not the news.
    const more = document.createElement('details');
    more.className = 'error-help';
    const summary = document.createElement('summary');
    summary.textContent = 'How a column spec looks';
    more.append(summary, help);
    slot.append(more);
  }
  slot.hidden = false;
  (container ?? slot.closest('.field, .panel-part'))?.classList.add('has-error');
  control?.setAttribute('aria-invalid', 'true');
  return { slot, control, label };
}
