// The envelope exactly as the core returned it, one click away. Drawn only
// when opened: for thousands of rows it is megabytes of text.

import { count, h } from '../dom.js';
import { indentJson } from '../json-text.js';

const SHOWN = 200_000;

export function rawJsonView(rawText) {
  const code = h('code');
  const status = h('span', { class: 'muted', role: 'status' });
  // Indented once, when first needed, for both the view and the copy.
  let pretty = null;
  const prettyText = () => (pretty ??= indentJson(rawText));
  const fill = (all) => {
    const text = prettyText();
    code.textContent = all || text.length <= SHOWN ? text : `${text.slice(0, SHOWN)}\n…`;
    showAll.hidden = all || text.length <= SHOWN;
  };
  const showAll = h(
    'button',
    { type: 'button', class: 'button secondary', hidden: true, onclick: () => fill(true) },
    'Show all of it',
  );
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'button secondary',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(prettyText());
          status.textContent = 'Copied.';
        } catch {
          status.textContent = 'The browser did not allow copying; select the text instead.';
        }
      },
    },
    'Copy',
  );
  const details = h(
    'details',
    { class: 'block raw', ontoggle: (event) => event.target.open && fill(false) },
    h('summary', null, 'Raw JSON envelope', h('span', { class: 'muted' }, ` · ${count(rawText.length)} characters`)),
    h('div', { class: 'raw-tools' }, copy, showAll, status),
    h('pre', { class: 'code', tabindex: '0' }, code),
  );
  return details;
}
