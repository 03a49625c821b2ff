// JSON that keeps what JavaScript values lose: whether a number was written as
// an integer (20) or a float (20.0), and the order of an object's keys
// (JS objects move integer-like keys first). The conformance runner compares
// the module's JSON text with the vector's through this, so 20 vs 20.0 or a
// reordered key is a failure, as it is for the Rust side.
//
// Values: {type: 'null'|'bool'|'string', value} | {type: 'int', value: BigInt}
// | {type: 'float', value: number} | {type: 'array', items: [...]}
// | {type: 'object', entries: [[key, value], ...]}. Every value also records
// the source text it was parsed from (`text`), so arguments can be handed to
// the module byte for byte as the vector wrote them.

export function parseExact(text) {
  let pos = 0;

  const fail = (what) => {
    throw new SyntaxError(`exact-json: ${what} at offset ${pos}`);
  };
  const skipSpace = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos])) pos += 1;
  };
  const expect = (literal) => {
    if (text.startsWith(literal, pos)) {
      pos += literal.length;
      return true;
    }
    return false;
  };

  function value() {
    skipSpace();
    const start = pos;
    const node = bare();
    node.text = text.slice(start, pos);
    return node;
  }

  function bare() {
    const c = text[pos];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return { type: 'string', value: string() };
    if (expect('true')) return { type: 'bool', value: true };
    if (expect('false')) return { type: 'bool', value: false };
    if (expect('null')) return { type: 'null', value: null };
    // Python's json module writes these for non-finite floats.
    if (expect('NaN')) return { type: 'float', value: NaN };
    if (expect('Infinity')) return { type: 'float', value: Infinity };
    if (expect('-Infinity')) return { type: 'float', value: -Infinity };
    return number();
  }

  function number() {
    const pattern = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    pattern.lastIndex = pos;
    const match = pattern.exec(text);
    if (!match) fail('expected a JSON value');
    pos += match[0].length;
    if (match[2] === undefined && match[3] === undefined) {
      return { type: 'int', value: BigInt(match[0]) };
    }
    return { type: 'float', value: Number(match[0]) };
  }

  function string() {
    const start = pos;
    pos += 1;
    for (;;) {
      if (pos >= text.length) fail('unterminated string');
      const c = text[pos];
      if (c === '"') break;
      if (c === '\\') pos += 2;
      else if (c < ' ') fail('control character in string');
      else pos += 1;
    }
    pos += 1;
    // The escapes are standard JSON, so the platform decodes them.
    return JSON.parse(text.slice(start, pos));
  }

  function array() {
    pos += 1;
    const items = [];
    skipSpace();
    if (expect(']')) return { type: 'array', items };
    for (;;) {
      items.push(value());
      skipSpace();
      if (expect(']')) return { type: 'array', items };
      if (!expect(',')) fail('expected , or ]');
    }
  }

  function object() {
    pos += 1;
    const entries = [];
    skipSpace();
    if (expect('}')) return { type: 'object', entries };
    for (;;) {
      skipSpace();
      if (text[pos] !== '"') fail('expected a key');
      const key = string();
      skipSpace();
      if (!expect(':')) fail('expected :');
      entries.push([key, value()]);
      skipSpace();
      if (expect('}')) return { type: 'object', entries };
      if (!expect(',')) fail('expected , or }');
    }
  }

  const result = value();
  skipSpace();
  if (pos !== text.length) fail('trailing text');
  return result;
}

/** Look up a key of an exact object (undefined when absent). */
export function member(node, key) {
  if (node?.type !== 'object') return undefined;
  const entry = node.entries.find(([name]) => name === key);
  return entry?.[1];
}

function describe(node) {
  switch (node.type) {
    case 'int':
      return `the integer ${node.value}`;
    case 'float':
      return `the float ${node.text ?? node.value}`;
    case 'string':
      return `the string ${JSON.stringify(node.value)}`;
    case 'array':
      return `an array of ${node.items.length}`;
    case 'object':
      return `an object with keys ${JSON.stringify(node.entries.map(([key]) => key))}`;
    default:
      return String(node.value);
  }
}

function sameFloat(a, b) {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * The first place where two exact values differ, as `{path, expected, actual}`
 * (path like `$.quarantine[0].row.amount`), or null when they are identical:
 * same types (int and float apart), same values, same keys in the same order.
 */
export function firstDifference(expected, actual, path = '$') {
  const differ = (why) => ({ path, expected: describe(expected), actual: describe(actual), why });
  if (expected.type !== actual.type) return differ('different types');
  switch (expected.type) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
    case 'int':
      return expected.value === actual.value ? null : differ('different values');
    case 'float':
      return sameFloat(expected.value, actual.value) ? null : differ('different values');
    case 'array': {
      const shared = Math.min(expected.items.length, actual.items.length);
      for (let i = 0; i < shared; i += 1) {
        const found = firstDifference(expected.items[i], actual.items[i], `${path}[${i}]`);
        if (found) return found;
      }
      return expected.items.length === actual.items.length ? null : differ('different lengths');
    }
    case 'object': {
      const shared = Math.min(expected.entries.length, actual.entries.length);
      for (let i = 0; i < shared; i += 1) {
        const [key, value] = expected.entries[i];
        const [actualKey, actualValue] = actual.entries[i];
        if (key !== actualKey)
          return differ(`key ${i} is ${JSON.stringify(actualKey)}, expected ${JSON.stringify(key)}`);
        const found = firstDifference(value, actualValue, `${path}${keyPath(key)}`);
        if (found) return found;
      }
      return expected.entries.length === actual.entries.length ? null : differ('different keys');
    }
    default:
      throw new TypeError(`exact-json: unknown node type ${expected.type}`);
  }
}

function keyPath(key) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Format a difference for a test failure message. */
export function formatDifference(difference) {
  return `first difference at ${difference.path}: expected ${difference.expected}, got ${difference.actual} (${difference.why})`;
}
