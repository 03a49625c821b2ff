// Put an argument error from the core next to the argument it names: the
// field, the contract column (and its rule), the data panel, or the JSON
// editor when nothing more precise fits. The message is the core's own.

import { DATA_ARGUMENTS } from './data.js';

/** The core's contract errors end with a long help text after two spaces. */
export function splitMessage(message) {
  const at = message.indexOf('  ');
  return at < 0 ? [message, ''] : [message.slice(0, at), message.slice(at + 2)];
}

/**
 * Which contract column (and key) an error's `location` names:
 * `columns[2].pattern` is { index: 2, key: 'pattern' }, `columns[0]` is
 * { index: 0, key: null }; anything else (the whole contract, another
 * argument) is null. The location is the core's, so nothing is read from the
 * message.
 */
export function contractTarget(location) {
  const match = /^columns\[(\d+)\](?:\.(.+))?$/.exec(location ?? '');
  return match ? { index: Number(match[1]), key: match[2] ?? null } : null;
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
 * Show `error` ({ code, argument, location, line, message }) in its slot under `root`.
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
    const target = contractTarget(error.location);
    if (target) {
      const name = Array.isArray(columns) ? columns[target.index]?.name : undefined;
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
    label = error.line ? `the data, line ${error.line}` : 'the data';
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
