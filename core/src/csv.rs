//! CSV text as rows: RFC 4180 records under a header row.
//!
//! Each record becomes an object mapping header names to the field text, so a
//! CSV table goes through exactly the checks a JSON `rows` array does. Values
//! stay strings; the contract's types decide what they mean. Nothing is lost:
//! fields beyond the header are kept under `_extra`, and a record with fewer
//! fields simply lacks the trailing columns (which the checks then report).

use serde_json::{Map, Value};

/// The key that holds fields beyond the header's width.
pub(crate) const EXTRA_FIELDS_KEY: &str = "_extra";

/// A CSV text that cannot be read as a table.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CsvError {
    /// What is wrong, naming the line.
    pub(crate) message: String,
    /// The line the fault is on.
    pub(crate) line: usize,
}

/// One data record: its fields as a row object, and the line it starts on
/// (1-based, counting the header's line).
pub(crate) struct Record {
    pub(crate) row: Value,
    pub(crate) line: usize,
}

/// Reads records one at a time, so a large table is never held twice.
pub(crate) struct CsvRows<'a> {
    text: &'a str,
    position: usize,
    line: usize,
    header: Vec<String>,
}

impl<'a> CsvRows<'a> {
    /// Read the header row. An empty text is a table with no rows.
    pub(crate) fn new(text: &'a str) -> Result<Self, CsvError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = CsvRows { text, position: 0, line: 1, header: Vec::new() };
        let Some((_, header)) = reader.next_record()? else {
            return Ok(reader);
        };
        for (index, name) in header.iter().enumerate() {
            if let Some(first) = header[..index].iter().position(|earlier| earlier == name) {
                return Err(CsvError {
                    message: format!(
                        "the csv header repeats the column name {:?} (columns {} and {}); rename one so no values are lost",
                        name,
                        first + 1,
                        index + 1
                    ),
                    line: 1,
                });
            }
        }
        reader.header = header;
        Ok(reader)
    }

    /// The header's column names (empty for an empty text).
    pub(crate) fn header(&self) -> &[String] {
        &self.header
    }

    /// The next data record, or `None` at the end of the text.
    pub(crate) fn next_row(&mut self) -> Result<Option<Record>, CsvError> {
        let Some((line, fields)) = self.next_record()? else {
            return Ok(None);
        };
        let mut row = Map::new();
        let mut extra = Vec::new();
        for (index, field) in fields.into_iter().enumerate() {
            match self.header.get(index) {
                Some(name) => {
                    row.insert(name.clone(), Value::String(field));
                }
                None => extra.push(Value::String(field)),
            }
        }
        if !extra.is_empty() {
            row.insert(EXTRA_FIELDS_KEY.to_owned(), Value::Array(extra));
        }
        Ok(Some(Record { row: Value::Object(row), line }))
    }

    /// The next record's fields and starting line; blank lines are skipped.
    fn next_record(&mut self) -> Result<Option<(usize, Vec<String>)>, CsvError> {
        loop {
            if self.position >= self.text.len() {
                return Ok(None);
            }
            let start_line = self.line;
            let fields = self.read_fields(start_line)?;
            if !(fields.len() == 1 && fields[0].is_empty()) {
                return Ok(Some((start_line, fields)));
            }
        }
    }

    /// Consume one record's fields, through its line ending.
    fn read_fields(&mut self, start_line: usize) -> Result<Vec<String>, CsvError> {
        let bytes = self.text.as_bytes();
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut i = self.position;
        loop {
            if i < bytes.len() && bytes[i] == b'"' && field.is_empty() {
                i = self.read_quoted(i + 1, &mut field, start_line)?;
            }
            // Unquoted text runs to the next comma or line ending.
            let run_end =
                bytes[i..].iter().position(|&b| matches!(b, b',' | b'\n' | b'\r')).map_or(bytes.len(), |n| i + n);
            field.push_str(&self.text[i..run_end]);
            i = run_end;
            fields.push(std::mem::take(&mut field));
            match bytes.get(i) {
                Some(b',') => i += 1,
                Some(b'\r') => {
                    i += if bytes.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                    self.line += 1;
                    break;
                }
                Some(b'\n') => {
                    i += 1;
                    self.line += 1;
                    break;
                }
                _ => break,
            }
        }
        self.position = i;
        Ok(fields)
    }

    /// Read a quoted field's content after its opening quote; returns the
    /// index just past the closing quote.
    fn read_quoted(&mut self, mut i: usize, field: &mut String, start_line: usize) -> Result<usize, CsvError> {
        let bytes = self.text.as_bytes();
        loop {
            let Some(offset) = bytes[i..].iter().position(|&b| b == b'"') else {
                return Err(CsvError {
                    message: format!("the csv has a quoted field that is never closed, starting on line {start_line}"),
                    line: start_line,
                });
            };
            let chunk = &self.text[i..i + offset];
            self.line += count_line_breaks(chunk);
            field.push_str(chunk);
            i += offset + 1;
            if bytes.get(i) == Some(&b'"') {
                field.push('"');
                i += 1;
            } else {
                return Ok(i);
            }
        }
    }
}

/// Line breaks inside a quoted field, counting CRLF once.
fn count_line_breaks(text: &str) -> usize {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_all(text: &str) -> Result<Vec<(usize, Value)>, CsvError> {
        let mut reader = CsvRows::new(text)?;
        let mut out = Vec::new();
        while let Some(record) = reader.next_row()? {
            out.push((record.line, record.row));
        }
        Ok(out)
    }

    #[test]
    fn records_become_row_objects_under_the_header() {
        let rows = read_all("id,amount\nA,1\nB,2\n").unwrap();
        assert_eq!(rows, vec![(2, json!({"id": "A", "amount": "1"})), (3, json!({"id": "B", "amount": "2"}))]);
    }

    #[test]
    fn quoting_follows_rfc_4180() {
        let text = "name,note\r\n\"Smith, Ann\",\"said \"\"hi\"\"\"\r\n\"two\nlines\",x\r\nlast,\"\"";
        let rows = read_all(text).unwrap();
        assert_eq!(rows[0], (2, json!({"name": "Smith, Ann", "note": "said \"hi\""})));
        assert_eq!(rows[1], (3, json!({"name": "two\nlines", "note": "x"})));
        // The record after a two-line field starts on line 5.
        assert_eq!(rows[2], (5, json!({"name": "last", "note": ""})));
    }

    #[test]
    fn any_line_ending_and_blank_lines() {
        let rows = read_all("\u{feff}a,b\r1,2\r\n\n3,4").unwrap();
        assert_eq!(rows, vec![(2, json!({"a": "1", "b": "2"})), (4, json!({"a": "3", "b": "4"}))]);
    }

    #[test]
    fn short_and_long_records_lose_nothing() {
        let rows = read_all("a,b\n1\n1,2,3,4\n").unwrap();
        assert_eq!(rows[0].1, json!({"a": "1"}));
        assert_eq!(rows[1].1, json!({"a": "1", "b": "2", "_extra": ["3", "4"]}));
    }

    #[test]
    fn unreadable_tables_are_errors_that_say_where() {
        // The quote opens on line 2 (the header is line 1) and never closes.
        let err = read_all("a,b\n1,\"open\n2,3\n").unwrap_err();
        assert!(err.message.contains("line 2"), "{}", err.message);
        assert_eq!(err.line, 2);
        let err = read_all("id,name,id\n1,2,3\n").unwrap_err();
        assert!(err.message.contains("\"id\" (columns 1 and 3)"), "{}", err.message);
        assert_eq!(err.line, 1);
    }

    #[test]
    fn an_empty_text_has_no_rows() {
        assert!(read_all("").unwrap().is_empty());
        assert!(read_all("a,b\n").unwrap().is_empty());
    }
}
