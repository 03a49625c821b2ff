// CSV text to row objects, for drawing the table only. The checks receive the
// CSV text itself, so the core's reader is the one that decides; this mirrors
// it rule for rule (core/src/csv.rs: RFC 4180, header row, blank lines
// skipped, fields beyond the header kept under `_extra`) so that row N of the
// table is row N of the result. npm/test/playground.test.mjs holds the two
// readers to the same rows and lines.

/** The key the core uses for fields beyond the header's width. */
export const EXTRA_FIELDS_KEY = '_extra';

/**
 * Read CSV text with a header row.
 * Returns `{ header, rows, lines }` (`lines[i]` is the 1-based line row i
 * starts on, counting the header) or `{ error }` with the core's wording.
 */
export function parseCsv(input) {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  let position = 0;
  let line = 1;

  // One record's fields, through its line ending.
  function readFields(startLine) {
    const fields = [];
    let i = position;
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        // A quoted part runs to a lone quote; "" inside it is one quote.
        i += 1;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close < 0) {
            throw new Error(`the csv has a quoted field that is never closed, starting on line ${startLine}`);
          }
          const chunk = text.slice(i, close);
          line += countLineBreaks(chunk);
          field += chunk;
          i = close + 1;
          if (text[i] === '"') {
            field += '"';
            i += 1;
          } else {
            break;
          }
        }
      }
      // Unquoted text (also after a closing quote) runs to a comma or line end.
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end += 1;
      field += text.slice(i, end);
      i = end;
      fields.push(field);
      if (text[i] === ',') {
        i += 1;
      } else if (text[i] === '\r') {
        i += text[i + 1] === '\n' ? 2 : 1;
        line += 1;
        break;
      } else if (text[i] === '\n') {
        i += 1;
        line += 1;
        break;
      } else {
        break;
      }
    }
    position = i;
    return fields;
  }

  // The next non-blank record and the line it starts on.
  function nextRecord() {
    while (position < text.length) {
      const startLine = line;
      const fields = readFields(startLine);
      if (!(fields.length === 1 && fields[0] === '')) return { line: startLine, fields };
    }
    return null;
  }

  try {
    const first = nextRecord();
    if (!first) return { header: [], rows: [], lines: [] };
    const header = first.fields;
    for (let index = 0; index < header.length; index += 1) {
      const earlier = header.indexOf(header[index]);
      if (earlier < index) {
        throw new Error(
          `the csv header repeats the column name ${JSON.stringify(header[index])} (columns ${earlier + 1} and ${index + 1}); rename one so no values are lost`,
        );
      }
    }
    const rows = [];
    const lines = [];
    for (let record = nextRecord(); record; record = nextRecord()) {
      const row = {};
      const extra = [];
      record.fields.forEach((value, index) => {
        if (index < header.length) row[header[index]] = value;
        else extra.push(value);
      });
      if (extra.length > 0) row[EXTRA_FIELDS_KEY] = extra;
      rows.push(row);
      lines.push(record.line);
    }
    return { header, rows, lines };
  } catch (error) {
    return { error: error.message };
  }
}

// Line breaks inside a quoted field, counting CRLF once.
function countLineBreaks(chunk) {
  let count = 0;
  for (let i = 0; i < chunk.length; i += 1) {
    if (chunk[i] === '\n' || (chunk[i] === '\r' && chunk[i + 1] !== '\n')) count += 1;
  }
  return count;
}
