// Indent JSON text without parsing it, so the raw envelope reads exactly as
// the core wrote it: `20.0` stays `20.0` (JSON.parse would make it 20) and
// key order is untouched.

/** Pretty-print valid JSON text with two-space indentation. */
export function indentJson(text) {
  const out = [];
  let depth = 0;
  let i = 0;
  const pad = () => `\n${'  '.repeat(depth)}`;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === '{' || c === '[') {
      let j = i + 1;
      while (' \t\r\n'.includes(text[j])) j += 1;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out.push(c, text[j]);
        i = j + 1;
      } else {
        depth += 1;
        out.push(c, pad());
        i += 1;
      }
    } else if (c === '}' || c === ']') {
      depth -= 1;
      out.push(pad(), c);
      i += 1;
    } else if (c === ',') {
      out.push(',', pad());
      i += 1;
    } else if (c === ':') {
      out.push(': ');
      i += 1;
    } else if (' \t\r\n'.includes(c)) {
      i += 1;
    } else {
      let j = i;
      while (j < text.length && !',:{}[]" \t\r\n'.includes(text[j])) j += 1;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out.join('');
}
