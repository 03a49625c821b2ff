//! `export`: the whole split of a `validate_rows` call as files, for a host
//! that may write them (issue 16, item 3).
//!
//! The result a model reads is capped; the files are not. A call that gives
//! `export: {"dir": ...}` gets, beside its result, three files: the accepted
//! rows, the quarantined rows (each with its locator and reasons) and every
//! finding. CSV input gives CSV files, its records written back field for
//! field as they were read (so reading `accepted.csv` as the call read its
//! input gives back the same cells); JSON input gives JSON Lines, each line
//! exactly the entry the result's list would hold. `findings.jsonl` holds
//! every finding as `findings` lists it, the whole-table ones last.
//!
//! The core decides the files, their names and bytes, and describes them in
//! the result (`export.files`: name, list, rows, bytes, SHA-256), so every
//! host writes the same files. Where they go is the host's decision: the
//! module has no file access, and a runtime that writes no files refuses
//! `export` as an argument error ([`refusal`]).

use std::borrow::Cow;

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use crate::args::described;
use crate::error::{ErrorCode, ToolError};
use crate::findings::{object, Finding, Locator};
use crate::json_write;

/// One file a call hands its host to write: its name inside the export
/// directory, and its whole content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// The file's name, without a directory (`accepted.csv`).
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// The keys `export` may carry, in sorted order.
const EXPORT_KEYS: [&str; 2] = ["dir", "overwrite"];

/// The `export` argument as given: where the host is to write, and whether
/// existing files may be replaced (the host acts on both; the core echoes them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExportRequest {
    dir: String,
    overwrite: bool,
}

fn type_error(location: &str, message: String) -> ToolError {
    ToolError::for_argument(ErrorCode::ArgumentType, "export", message).at(location)
}

impl ExportRequest {
    /// Read `export`: an object with a non-empty `dir` text and an optional
    /// boolean `overwrite`, nothing else.
    pub(crate) fn parse(value: Value) -> Result<ExportRequest, ToolError> {
        let Value::Object(mut fields) = value else {
            return Err(type_error(
                "export",
                format!(
                    "argument \"export\" must be an object like {{\"dir\": \"runs/today\"}}, got {}",
                    described(&value)
                ),
            ));
        };
        if let Some(unknown) = fields.keys().find(|key| !EXPORT_KEYS.contains(&key.as_str())) {
            return Err(ToolError::for_argument(
                ErrorCode::InvalidArgument,
                "export",
                format!("\"export\" has no key {unknown:?}; it takes: {}", EXPORT_KEYS.join(", ")),
            )
            .at(format!("export.{unknown}")));
        }
        let dir = match fields.remove("dir") {
            Some(Value::String(dir)) if !dir.trim().is_empty() => dir,
            Some(other) => {
                return Err(type_error(
                    "export.dir",
                    format!(
                        "\"export.dir\" must be the directory to write into, as non-empty text, got {}",
                        described(&other)
                    ),
                ))
            }
            None => {
                return Err(type_error(
                    "export.dir",
                    "\"export\" needs \"dir\": the directory to write the files into".to_owned(),
                ))
            }
        };
        let overwrite = match fields.remove("overwrite") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(overwrite)) => overwrite,
            Some(other) => {
                return Err(type_error(
                    "export.overwrite",
                    format!("\"export.overwrite\" must be true or false, got {}", described(&other)),
                ))
            }
        };
        Ok(ExportRequest { dir, overwrite })
    }
}

/// The argument error a runtime that writes no files gives a call with `export`.
pub(crate) fn refusal() -> ToolError {
    ToolError::for_argument(
        ErrorCode::InvalidArgument,
        "export",
        "argument \"export\": this runtime writes no files. Export is a feature of the MCP server whose operator \
allows an output directory (--output-root DIR); here, ask for the whole lists instead (leave `max_listed` unset) or \
walk one with `page`"
            .to_owned(),
    )
    .at("export")
}

/// One file being written: its bytes and how many rows (or findings) it holds.
struct FileSink {
    name: &'static str,
    list: &'static str,
    bytes: Vec<u8>,
    rows: usize,
}

impl FileSink {
    fn new(name: &'static str, list: &'static str) -> Self {
        FileSink { name, list, bytes: Vec::new(), rows: 0 }
    }

    /// A JSON value as one line.
    fn json_line(&mut self, value: &Value) {
        // A JSON value always serialises.
        let _ = json_write::write(&mut self.bytes, value);
        self.bytes.push(b'\n');
        self.rows += 1;
    }

    fn describe(&self) -> Value {
        let sha256 = Sha256::digest(&self.bytes).iter().fold(String::with_capacity(64), |mut hex, byte| {
            hex.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
            hex.push(char::from_digit(u32::from(byte & 0xf), 16).unwrap_or('0'));
            hex
        });
        Value::Object(object([
            ("name", self.name.into()),
            ("list", self.list.into()),
            ("rows", self.rows.into()),
            ("bytes", self.bytes.len().into()),
            ("sha256", sha256.into()),
        ]))
    }
}

/// The columns `quarantine.csv` puts before the record's own fields.
const QUARANTINE_CSV_COLUMNS: [&str; 3] = ["_row_index", "_line", "_reasons"];

/// Write one CSV field, quoted when it must be (RFC 4180: a comma, a quote,
/// a line break), so the reader reads back exactly this text.
fn write_field(out: &mut Vec<u8>, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        out.extend_from_slice(field.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(field.as_bytes());
    }
}

/// Write one CSV record. (A record of one empty field would be an empty
/// line, which the reader skips; it never hands such a record over, so none
/// is ever written.)
fn write_record<'s>(out: &mut Vec<u8>, fields: impl Iterator<Item = &'s str>) {
    for (index, field) in fields.enumerate() {
        if index > 0 {
            out.push(b',');
        }
        write_field(out, field);
    }
    out.push(b'\n');
}

/// How the rows are written: as CSV under the input's header, or as JSON Lines.
enum Layout {
    Csv,
    Jsonl,
}

/// The files of one call, filled row by row as `validate_rows` reads.
pub(crate) struct Export {
    request: ExportRequest,
    layout: Layout,
    accepted: FileSink,
    quarantine: FileSink,
    findings: FileSink,
}

impl Export {
    /// The files for a CSV input with this header (written first in both
    /// row files, after the locator and reasons columns in `quarantine.csv`).
    pub(crate) fn csv(request: ExportRequest, header: &[String]) -> Export {
        let mut export = Export {
            request,
            layout: Layout::Csv,
            accepted: FileSink::new("accepted.csv", "accepted"),
            quarantine: FileSink::new("quarantine.csv", "quarantine"),
            findings: FileSink::new("findings.jsonl", "findings"),
        };
        if !header.is_empty() {
            write_record(&mut export.accepted.bytes, header.iter().map(String::as_str));
            let columns = QUARANTINE_CSV_COLUMNS.into_iter().chain(header.iter().map(String::as_str));
            write_record(&mut export.quarantine.bytes, columns);
        }
        export
    }

    /// The files for a JSON input.
    pub(crate) fn jsonl(request: ExportRequest) -> Export {
        Export {
            request,
            layout: Layout::Jsonl,
            accepted: FileSink::new("accepted.jsonl", "accepted"),
            quarantine: FileSink::new("quarantine.jsonl", "quarantine"),
            findings: FileSink::new("findings.jsonl", "findings"),
        }
    }

    /// Whether a row must be built and checked in full to be written: any
    /// row with findings (they are written out), any quarantined row (its
    /// reasons), and every row of a JSON input (its cleaned object). Only a
    /// clean CSV record is written straight from its fields.
    pub(crate) fn needs_full_row(&self, quarantined: bool, has_findings: bool) -> bool {
        matches!(self.layout, Layout::Jsonl) || quarantined || has_findings
    }

    /// An accepted CSV record, written from its fields.
    pub(crate) fn accepted_record(&mut self, fields: &[Cow<'_, str>]) {
        write_record(&mut self.accepted.bytes, fields.iter().map(AsRef::as_ref));
        self.accepted.rows += 1;
    }

    /// An accepted row: its fields as read for CSV, the row as `accepted`
    /// lists it (`cleaned`) for JSON.
    pub(crate) fn accepted(&mut self, record: Option<&[Cow<'_, str>]>, cleaned: &Value) {
        match (&self.layout, record) {
            (Layout::Csv, Some(fields)) => self.accepted_record(fields),
            _ => self.accepted.json_line(cleaned),
        }
    }

    /// A quarantined row, with its locator and reasons: for CSV the locator's
    /// row index and line and the reasons joined by `; `, then its fields as
    /// read; for JSON the entry `quarantine` lists.
    pub(crate) fn quarantined(&mut self, record: Option<&[Cow<'_, str>]>, entry: &QuarantineEntry<'_>) {
        match (&self.layout, record) {
            (Layout::Csv, Some(fields)) => {
                let index = entry.locator.row_index.map(|index| index.to_string()).unwrap_or_default();
                let line = entry.locator.line.map(|line| line.to_string()).unwrap_or_default();
                let reasons = entry.reasons.join("; ");
                let lead = [index.as_str(), line.as_str(), reasons.as_str()];
                let cells = lead.into_iter().chain(fields.iter().map(AsRef::as_ref));
                write_record(&mut self.quarantine.bytes, cells);
                self.quarantine.rows += 1;
            }
            _ => self.quarantine.json_line(&entry.to_json()),
        }
    }

    /// A finding, as `findings` lists it.
    pub(crate) fn finding(&mut self, finding: &Finding) {
        self.findings.json_line(&finding.to_json());
    }

    /// The result's `export`: the request echoed, then each file's name, the
    /// list it holds, its rows (data rows: a CSV header is not counted), its
    /// size in bytes and its SHA-256; and the files themselves.
    pub(crate) fn finish(self) -> (Value, Vec<ExportFile>) {
        let format = match self.layout {
            Layout::Csv => "csv",
            Layout::Jsonl => "jsonl",
        };
        let sinks = [self.accepted, self.quarantine, self.findings];
        let described: Vec<Value> = sinks.iter().map(FileSink::describe).collect();
        let echo = object([
            ("dir", self.request.dir.into()),
            ("overwrite", self.request.overwrite.into()),
            ("format", format.into()),
            ("files", Value::Array(described)),
        ]);
        let files =
            sinks.into_iter().map(|sink| ExportFile { name: sink.name.to_owned(), bytes: sink.bytes }).collect();
        (Value::Object(echo), files)
    }

    /// The sentence the guidance ends with: where everything is.
    pub(crate) fn sentence(&self) -> String {
        format!(
            "Every row and finding is also in the export files (`export.files`) written to {:?}: {} ({} rows), {} \
({} rows) and {} ({} findings).",
            self.request.dir,
            self.accepted.name,
            self.accepted.rows,
            self.quarantine.name,
            self.quarantine.rows,
            self.findings.name,
            self.findings.rows
        )
    }
}

/// A quarantined row as `quarantine` lists it, by reference.
pub(crate) struct QuarantineEntry<'e> {
    pub(crate) locator: &'e Locator,
    pub(crate) row: &'e Value,
    pub(crate) reasons: &'e [String],
    pub(crate) findings: &'e [Finding],
}

impl QuarantineEntry<'_> {
    /// The entry's JSON: `locator`, `row`, `reasons`, `findings`, the keys
    /// and order of a `quarantine` entry.
    pub(crate) fn to_json(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("locator".into(), Value::Object(self.locator.to_json()));
        entry.insert("row".into(), self.row.clone());
        entry.insert("reasons".into(), self.reasons.iter().map(|reason| Value::from(reason.as_str())).collect());
        entry.insert("findings".into(), self.findings.iter().map(Finding::to_json).collect());
        Value::Object(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv::CsvRows;

    fn request() -> ExportRequest {
        ExportRequest { dir: "out".into(), overwrite: false }
    }

    /// Every record of `text` as its fields, as the core's reader reads them.
    fn read_back(text: &str) -> Vec<Vec<String>> {
        let mut reader = CsvRows::new(text).unwrap();
        let mut records = vec![reader.header().to_vec()];
        while let Some((_, record)) = reader.next_record_ref().unwrap() {
            records.push(record.fields.iter().map(ToString::to_string).collect());
        }
        records
    }

    #[test]
    fn csv_records_read_back_as_the_same_fields() {
        let header = vec!["id".to_owned(), "note, with comma".to_owned()];
        let records: Vec<Vec<&str>> = vec![
            vec!["1", "plain"],
            vec!["2", "a \"quoted\" word"],
            vec!["3", "two\nlines"],
            vec!["4", "carriage\rreturn"],
            vec!["5", ""],
            vec!["6"],
            vec!["7", "x", "beyond the header"],
            vec![" 8 ", "  spaces kept  "],
            vec!["\u{e9}t\u{e9}", "\u{1f600}"],
        ];
        let mut export = Export::csv(request(), &header);
        for fields in &records {
            let fields: Vec<Cow<'_, str>> = fields.iter().map(|field| Cow::Borrowed(*field)).collect();
            export.accepted_record(&fields);
        }
        let (echo, files) = export.finish();
        let text = String::from_utf8(files[0].bytes.clone()).unwrap();
        let mut expected = vec![header.clone()];
        expected.extend(records.iter().map(|fields| fields.iter().map(ToString::to_string).collect()));
        assert_eq!(read_back(&text), expected);
        assert_eq!(echo["files"][0]["rows"], records.len());
        assert_eq!(echo["files"][0]["bytes"], text.len());
    }

    #[test]
    fn the_reader_never_hands_over_a_record_of_one_empty_field() {
        // So no accepted or quarantined row can become an empty line, which
        // reading the file again would skip: the written files keep every row.
        assert_eq!(read_back("only\n\"\"\n\nx\n"), vec![vec!["only"], vec!["x"]]);
    }

    #[test]
    fn quarantine_csv_leads_with_the_locator_and_reasons() {
        let header = vec!["id".to_owned(), "amount".to_owned()];
        let mut export = Export::csv(request(), &header);
        let locator = Locator::row(4, Some(6));
        let reasons = vec!["amount: not a number".to_owned(), "id: too short".to_owned()];
        let entry = QuarantineEntry { locator: &locator, row: &Value::Null, reasons: &reasons, findings: &[] };
        export.quarantined(Some(&[Cow::Borrowed("7"), Cow::Borrowed("abc")]), &entry);
        let (_, files) = export.finish();
        assert_eq!(
            std::str::from_utf8(&files[1].bytes).unwrap(),
            "_row_index,_line,_reasons,id,amount\n4,6,amount: not a number; id: too short,7,abc\n"
        );
    }

    #[test]
    fn the_sha256_is_of_the_bytes_handed_over() {
        let mut export = Export::jsonl(request());
        export.accepted(None, &serde_json::json!({"a": 1}));
        let (echo, files) = export.finish();
        assert_eq!(files[0].bytes, b"{\"a\":1}\n");
        // printf '{"a":1}\n' | sha256sum
        assert_eq!(echo["files"][0]["sha256"], "e346432021b04179518d9614f3560ccd71354a4ee101ddcb893d6959a9d6301c");
        // printf '' | sha256sum: the empty quarantine file.
        assert_eq!(echo["files"][1]["sha256"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(echo["files"][1]["rows"], 0);
    }

    #[test]
    fn the_argument_is_read_strictly() {
        assert_eq!(ExportRequest::parse(serde_json::json!({"dir": "a"})).unwrap(), request_at("a", false));
        assert_eq!(
            ExportRequest::parse(serde_json::json!({"dir": "a", "overwrite": true})).unwrap(),
            request_at("a", true)
        );
        for (bad, location) in [
            (serde_json::json!("a"), "export"),
            (serde_json::json!({}), "export.dir"),
            (serde_json::json!({"dir": ""}), "export.dir"),
            (serde_json::json!({"dir": 3}), "export.dir"),
            (serde_json::json!({"dir": "a", "overwrite": "yes"}), "export.overwrite"),
            (serde_json::json!({"dir": "a", "format": "csv"}), "export.format"),
        ] {
            let err = ExportRequest::parse(bad.clone()).unwrap_err();
            assert_eq!(err.location.as_deref(), Some(location), "{bad}");
            assert_eq!(err.argument.as_deref(), Some("export"), "{bad}");
        }
    }

    fn request_at(dir: &str, overwrite: bool) -> ExportRequest {
        ExportRequest { dir: dir.into(), overwrite }
    }
}
