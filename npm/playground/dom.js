// A small element builder. Every value from the data goes in as text, never
// as HTML, so pasted data cannot inject markup into the page.

/**
 * h('p', { class: 'note', onclick: fn, dataset: { row: 3 } }, 'text', child)
 * Attributes that are null, undefined or false are left out; `true` sets an
 * empty attribute; `on*` functions become listeners. Children may be strings,
 * numbers, nodes or (nested) arrays; null and false are skipped.
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  const properties = [];
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'value' || name === 'checked') properties.push([name, value]);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  // After the children: a <select>'s value needs its options to exist.
  for (const [name, value] of properties) element[name] = value;
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : String(child));
  }
}

/** Replace everything inside `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Bring `element` to the middle of the view, then focus it. Focusing alone
 * would scroll it only just into sight, at an edge.
 */
export function scrollToAndFocus(element) {
  element?.scrollIntoView({ block: 'center' });
  element?.focus({ preventScroll: true });
}

/** A value as it should read in a table cell: text plain, anything else as JSON. */
export function display(value) {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/**
 * A cell's content: the value as text, with spaces at either end made
 * visible (`c-1001 ` and `c-1001` differ, and a person should see why).
 */
export function cellText(value) {
  const text = display(value);
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  if (typeof value !== 'string' || (match[1] === '' && match[3] === '')) return text;
  const edge = (spaces) =>
    spaces
      ? h(
          'span',
          { class: 'edge-space', title: `${spaces.length} space${spaces.length === 1 ? '' : 's'}` },
          '␣'.repeat(spaces.length),
        )
      : null;
  return h('span', null, edge(match[1]), match[2], edge(match[3]));
}

const integers = new Intl.NumberFormat('en-US');
const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 4,830 */
export const count = (n) => integers.format(n);
/** 1,237.75, as the core writes amounts in its messages. */
export const amount = (n) => (typeof n === 'number' ? money.format(n) : '—');
/** +120.00 / −240.00, for values whose sign is the point. */
export const signed = (n) =>
  typeof n !== 'number' ? '—' : n > 0 ? `+${money.format(n)}` : n < 0 ? `−${money.format(-n)}` : money.format(0);
