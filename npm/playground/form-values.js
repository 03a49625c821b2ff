// Between what a form field holds (text) and what the argument holds (JSON).
// A value the field cannot turn into the right type is passed on as typed,
// so the core, not the page, says what is wrong with it, next to the field.

/** Text of a number field to its value; undefined means "leave it out". */
export function numberFromText(text) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : text;
}

/** A value as the text a field shows. */
export function textOf(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** "0, 100" or "[0, 100]" to [0, 100]. */
export function rangeFromText(text) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const parts = inner.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length === 2 && parts.every((p) => p !== '') && numbers.every(Number.isFinite)) return numbers;
  return text;
}

export function rangeText(value) {
  return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number')
    ? `${value[0]}, ${value[1]}`
    : textOf(value);
}

/**
 * Allowed values: a JSON array when the text is one ([1, 2] keeps numbers),
 * otherwise a comma-separated list of strings ("EUR, GBP").
 */
export function allowedFromText(text) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  return trimmed
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function allowedText(value) {
  if (
    Array.isArray(value) &&
    value.every((v) => typeof v === 'string' && !v.includes(',') && v.trim() === v && v !== '')
  ) {
    return value.join(', ');
  }
  return textOf(value);
}

/**
 * A JSON object typed as text (`{"primary_key": ["id"]}`, a `references`
 * spec); text that is not JSON is passed on as typed, for the core to name.
 */
export function jsonFromText(text) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/** Set or, for undefined, delete a key; returns the object. */
export function setKey(object, key, value) {
  if (value === undefined) delete object[key];
  else object[key] = value;
  return object;
}
