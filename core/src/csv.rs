//! CSV text as rows: RFC 4180 records under a header row.
//!
//! Each record becomes an object mapping header names to the field text, so a
//! CSV table goes through exactly the checks a JSON `rows` array does. Values
//! stay strings; the contract's types decide what they mean. Nothing is lost:
//! fields beyond the header are kept under `_extra`, and a record with fewer
//! fields simply lacks the trailing columns (which the checks then report).

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::byte_scan::find_any;
use crate::json_write;

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

/// One data record as read, before any row object is built: its fields
/// borrow the text wherever the CSV quoting lets them.
pub(crate) struct RecordRef<'r, 'a> {
    /// The header's column names.
    pub(crate) header: &'r [String],
    /// The record's fields in order; there may be fewer or more than columns.
    pub(crate) fields: &'r [Cow<'a, str>],
}

impl RecordRef<'_, '_> {
    /// The record as the row object the checks see: each field under its
    /// column's name, fields beyond the header under [`EXTRA_FIELDS_KEY`].
    pub(crate) fn to_row(&self) -> Value {
        let mut row = Map::new();
        let mut extra = Vec::new();
        for (index, field) in self.fields.iter().enumerate() {
            let value = Value::String(field.clone().into_owned());
            match self.header.get(index) {
                Some(name) => {
                    row.insert(name.clone(), value);
                }
                None => extra.push(value),
            }
        }
        if !extra.is_empty() {
            row.insert(EXTRA_FIELDS_KEY.to_owned(), Value::Array(extra));
        }
        Value::Object(row)
    }

    /// Write the record as compact JSON text: what `serde_json` writes for
    /// the row [`RecordRef::to_row`] makes, when the header names no column
    /// twice and none [`EXTRA_FIELDS_KEY`], but with the field of each
    /// column `replaced` names (by its index in the header) written as the
    /// value given for it (the last, if it is given twice).
    pub(crate) fn write_row(&self, out: &mut Vec<u8>, replaced: &[(usize, Value)]) {
        let named = self.fields.len().min(self.header.len());
        out.push(b'{');
        for (index, field) in self.fields[..named].iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            write_str(out, &self.header[index]);
            out.push(b':');
            match replaced.iter().rev().find(|(at, _)| *at == index) {
                // A tree always serialises.
                Some((_, value)) => json_write::write(out, value).expect("JSON writes"),
                None => write_str(out, field),
            }
        }
        if self.fields.len() > named {
            if named > 0 {
                out.push(b',');
            }
            write_str(out, EXTRA_FIELDS_KEY);
            out.push(b':');
            json_write::write(out, &self.fields[named..]).expect("JSON writes");
        }
        out.push(b'}');
    }
}

/// Text as a JSON string, as `serde_json` writes it.
fn write_str(out: &mut Vec<u8>, text: &str) {
    json_write::put_str(out, text);
}

/// Reads records one at a time, so a large table is never held twice.
pub(crate) struct CsvRows<'a> {
    text: &'a str,
    position: usize,
    line: usize,
    /// Where the record read last starts in `text`.
    record_start: usize,
    header: Vec<String>,
    /// The current record's fields, reused from record to record.
    fields: Vec<Cow<'a, str>>,
}

impl<'a> CsvRows<'a> {
    /// Read the header row. An empty text is a table with no rows.
    pub(crate) fn new(text: &'a str) -> Result<Self, CsvError> {
        let reader = Self::with_any_header(text)?;
        if let Some((first, index)) = reader.repeated_header() {
            return Err(CsvError {
                message: format!(
                    "the csv header repeats the column name {:?} (columns {} and {}); rename one so no values are lost",
                    reader.header[index],
                    first + 1,
                    index + 1
                ),
                line: 1,
            });
        }
        Ok(reader)
    }

    /// Read the header row, even one that repeats a name (which [`Self::new`]
    /// refuses): `inspect_dataset` reports a repeated name as a finding.
    pub(crate) fn with_any_header(text: &'a str) -> Result<Self, CsvError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader =
            CsvRows { text, position: 0, line: 1, record_start: 0, header: Vec::new(), fields: Vec::new() };
        if reader.next_record()?.is_some() {
            reader.header = reader.fields.drain(..).map(Cow::into_owned).collect();
        }
        Ok(reader)
    }

    /// A reader of `body`, records that follow the header `head` starts
    /// with (a text's first lines; `body` is a later part of that text,
    /// starting where a record starts): a part of a text read as the whole
    /// text's reader reads it there, lines counted from the header's end.
    /// An error when `head` does not hold the whole header, ended by a line
    /// break (the header read would not be the text's).
    pub(crate) fn continuing(head: &str, body: &'a str) -> Result<Self, CsvError> {
        let header = CsvRows::new(head)?;
        let ended = header.position > 0 && matches!(header.text.as_bytes()[header.position - 1], b'\n' | b'\r');
        if header.header.is_empty() || !ended {
            return Err(CsvError { message: "the csv header does not end within the head given".to_owned(), line: 1 });
        }
        Ok(CsvRows {
            text: body,
            position: 0,
            line: header.line,
            record_start: 0,
            header: header.header,
            fields: Vec::new(),
        })
    }

    /// The line the next record starts on (1-based, counting the header's
    /// lines): once every record is read, one more than the text's lines.
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// The first column whose name an earlier column has, as the positions
    /// of both (the earlier first).
    pub(crate) fn repeated_header(&self) -> Option<(usize, usize)> {
        let header = &self.header;
        (0..header.len()).find_map(|index| {
            header[..index].iter().position(|earlier| *earlier == header[index]).map(|first| (first, index))
        })
    }

    /// The header's column names (empty for an empty text).
    pub(crate) fn header(&self) -> &[String] {
        &self.header
    }

    /// The next data record as a row object, or `None` at the end of the text.
    pub(crate) fn next_row(&mut self) -> Result<Option<Record>, CsvError> {
        Ok(self.next_record_ref()?.map(|(line, record)| Record { row: record.to_row(), line }))
    }

    /// The next data record and the line it starts on, borrowed until the
    /// next call; `None` at the end of the text.
    pub(crate) fn next_record_ref(&mut self) -> Result<Option<(usize, RecordRef<'_, 'a>)>, CsvError> {
        let Some(line) = self.next_record()? else {
            return Ok(None);
        };
        Ok(Some((line, RecordRef { header: &self.header, fields: &self.fields })))
    }

    /// Where the record [`next_record_ref`](Self::next_record_ref) read last
    /// starts: with its line, what [`CsvRows::fields_at`] reads it again from.
    pub(crate) fn record_start(&self) -> usize {
        self.record_start
    }

    /// The text the records are read from (without a byte order mark).
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// The fields of the record that starts at `start` on `line` of `text`
    /// (as [`record_start`](Self::record_start) and
    /// [`next_record_ref`](Self::next_record_ref) gave them, with
    /// [`text`](Self::text)), read again exactly as they were read then.
    pub(crate) fn fields_at(text: &'a str, start: usize, line: usize) -> Result<Vec<Cow<'a, str>>, CsvError> {
        let mut reader =
            CsvRows { text, position: start, line, record_start: start, header: Vec::new(), fields: Vec::new() };
        reader.read_fields(line)?;
        Ok(reader.fields)
    }

    /// Read the next record's fields into `self.fields`; returns its
    /// starting line. Blank lines are skipped.
    fn next_record(&mut self) -> Result<Option<usize>, CsvError> {
        loop {
            if self.position >= self.text.len() {
                return Ok(None);
            }
            let start_line = self.line;
            self.record_start = self.position;
            self.read_fields(start_line)?;
            if !(self.fields.len() == 1 && self.fields[0].is_empty()) {
                return Ok(Some(start_line));
            }
        }
    }

    /// Consume one record's fields, through its line ending.
    fn read_fields(&mut self, start_line: usize) -> Result<(), CsvError> {
        let text = self.text;
        let bytes = text.as_bytes();
        self.fields.clear();
        let mut i = self.position;
        loop {
            let run_end = if bytes.get(i) == Some(&b'"') {
                self.read_quoted_field(i, start_line)?
            } else {
                // Unquoted text runs to the next comma or line ending.
                let run_end = find_field_end(bytes, i);
                self.fields.push(Cow::Borrowed(&text[i..run_end]));
                run_end
            };
            i = run_end;
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
        Ok(())
    }

    /// Read the field whose opening quote is at `i` into `self.fields`: the
    /// quoted content, then any unquoted text after its closing quote (kept,
    /// as Python's csv module keeps it). Returns where that text ends.
    /// (Out of line: most fields are not quoted, and their loop stays small.)
    #[inline(never)]
    fn read_quoted_field(&mut self, i: usize, start_line: usize) -> Result<usize, CsvError> {
        let (content, after) = self.read_quoted(i + 1, start_line)?;
        let bytes = self.text.as_bytes();
        let run_end = find_field_end(bytes, after);
        let run = &self.text[after..run_end];
        self.fields.push(if run.is_empty() { content } else { Cow::Owned(content.into_owned() + run) });
        Ok(run_end)
    }

    /// Read a quoted field's content after its opening quote; returns it
    /// (borrowed unless it holds a doubled quote) and the index just past the
    /// closing quote.
    fn read_quoted(&mut self, mut i: usize, start_line: usize) -> Result<(Cow<'a, str>, usize), CsvError> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut content: Cow<'a, str> = Cow::Borrowed("");
        loop {
            let Some(offset) = bytes[i..].iter().position(|&b| b == b'"') else {
                return Err(CsvError {
                    message: format!("the csv has a quoted field that is never closed, starting on line {start_line}"),
                    line: start_line,
                });
            };
            let chunk = &text[i..i + offset];
            self.line += count_line_breaks(chunk);
            if content.is_empty() {
                content = Cow::Borrowed(chunk);
            } else {
                content.to_mut().push_str(chunk);
            }
            i += offset + 1;
            if bytes.get(i) == Some(&b'"') {
                content.to_mut().push('"');
                i += 1;
            } else {
                return Ok((content, i));
            }
        }
    }
}

/// The index of the first comma, `\n` or `\r` in `bytes` from `start`, or
/// the end of `bytes` (this scan is most of what reading a large CSV costs).
fn find_field_end(bytes: &[u8], start: usize) -> usize {
    find_any(bytes, start, [b',', b'\n', b'\r'])
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

    #[test]
    fn a_record_is_written_as_serde_json_writes_its_row() {
        // The oracle is serde_json writing `to_row`'s tree: records shorter
        // than the header, as wide and wider (their extra fields under
        // `_extra`), fields that must be escaped, and replaced values.
        let header: Vec<String> = ["id", "na\"me", "caf\u{e9}"].map(String::from).to_vec();
        let records: [&[&str]; 5] = [
            &[],
            &["1"],
            &["2", "say \"hi\"\n\tand\\", "\u{1}\u{7f}\u{2028}\u{1f600}"],
            &["3", "", "x", "extra", "more \"one\""],
            &["4", "b", "c"],
        ];
        for fields in records {
            let fields: Vec<Cow<'_, str>> = fields.iter().map(|field| Cow::Borrowed(*field)).collect();
            let record = RecordRef { header: &header, fields: &fields };
            let mut out = Vec::new();
            record.write_row(&mut out, &[]);
            assert_eq!(String::from_utf8(out).expect("UTF-8"), record.to_row().to_string(), "{fields:?}");
        }
        let fields: Vec<Cow<'_, str>> = ["5", "b", "c", "d"].map(Cow::Borrowed).to_vec();
        let record = RecordRef { header: &header, fields: &fields };
        let mut out = Vec::new();
        record.write_row(&mut out, &[(2, json!(1.5)), (0, json!(5)), (2, json!("2024-01-02"))]);
        let mut row = record.to_row();
        row["id"] = json!(5);
        row["caf\u{e9}"] = json!("2024-01-02");
        assert_eq!(String::from_utf8(out).expect("UTF-8"), row.to_string());
    }

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
    fn a_field_ends_at_the_first_comma_or_line_ending_wherever_it_falls() {
        // Filler bytes that differ from a delimiter by one bit or sit next to
        // one (where a borrow between bytes could give a false match), with
        // the delimiter at every position in and across an 8-byte word.
        let filler = [b'-', 0x0b, 0x0c, 0x2b, 0x2d, 0x8c, 0xac, 0x8d, 0x8a, 0x09];
        for length in 0..20 {
            for at in 0..=length {
                for delimiter in [Some(b','), Some(b'\n'), Some(b'\r'), None] {
                    let mut bytes: Vec<u8> = (0..length).map(|k| filler[k % filler.len()]).collect();
                    let expected = match delimiter {
                        Some(d) if at < length => {
                            bytes[at] = d;
                            at
                        }
                        _ => length,
                    };
                    for start in 0..=expected {
                        assert_eq!(find_field_end(&bytes, start), expected, "{bytes:?} from {start}");
                    }
                }
            }
        }
        // The first of several delimiters in one word.
        assert_eq!(find_field_end(b"ab\r,\n,cdefgh", 0), 2);
        assert_eq!(find_field_end(b"abcdefg,\n", 0), 7);
    }

    #[test]
    fn an_empty_text_has_no_rows() {
        assert!(read_all("").unwrap().is_empty());
        assert!(read_all("a,b\n").unwrap().is_empty());
    }
}
