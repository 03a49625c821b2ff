//! What the host adds to a call's arguments before the module sees them: the
//! server's default `max_listed`, the data of a `path`, and the data of each
//! `columns[i].references.path` (contract v2's `references`, whose other
//! table may be a file under the same roots).

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::bounded::StopFlag;
use crate::data_files::{DataRoots, FileData, FileError};
use crate::json_shape::{self, Outline};
use crate::output_files::{ExportPlan, OutputError, OutputRoots};
use crate::sandbox::CallInput;

/// The tools that take rows (and so `csv` and `path`).
pub const ROW_TOOLS: [&str; 4] = ["validate_rows", "count_distinct", "duplicate_report", "inspect_dataset"];

/// The tools whose lists `max_listed` caps, and so get the server's default:
/// the row tools, and `reconcile` (its movements).
const CAPPED_TOOLS: [&str; 5] = ["validate_rows", "count_distinct", "duplicate_report", "inspect_dataset", "reconcile"];

/// How this server prepares every call.
#[derive(Debug, Default)]
pub struct CallSettings {
    /// `max_listed` for a call that does not give one; `None` lists everything.
    pub default_max_listed: Option<u64>,
    /// Where `path` may point.
    pub data_roots: DataRoots,
    /// Where `export` may write (none: no writing).
    pub output_roots: OutputRoots,
}

/// Why a call's arguments could not be prepared, for an `isError` result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrepareError {
    /// The file `path` names was refused or could not be read.
    File(FileError),
    /// The file a column's `references.path` names was refused or could not
    /// be read; `location` is where in the arguments (`columns[2].references.path`).
    ReferenceFile { location: String, error: FileError },
    /// The arguments' text is not a JSON object.
    NotAnObject(String),
    /// `export` asks for files this server may not write there (or at all).
    Output(OutputError),
}

impl std::fmt::Display for PrepareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrepareError::File(err) => err.fmt(f),
            PrepareError::ReferenceFile { location, error } => write!(f, "{location}: {error}"),
            PrepareError::NotAnObject(why) => write!(f, "the arguments are not a JSON object: {why}"),
            PrepareError::Output(err) => err.fmt(f),
        }
    }
}

impl From<FileError> for PrepareError {
    fn from(err: FileError) -> Self {
        PrepareError::File(err)
    }
}

fn to_bytes(arguments: Map<String, Value>) -> Vec<u8> {
    // A map of JSON values always serialises.
    serde_json::to_vec(&Value::Object(arguments)).unwrap_or_else(|_| b"{}".to_vec())
}

impl CallSettings {
    /// The arguments object, parsed, as the module's input: the path a call
    /// whose data is a file takes. A CSV file's text goes beside the
    /// arguments, as their `csv`.
    fn prepare_object(
        &self,
        tool: &str,
        mut arguments: Map<String, Value>,
        stop: &StopFlag,
    ) -> Result<CallInput, PrepareError> {
        if !CAPPED_TOOLS.contains(&tool) {
            return Ok(to_bytes(arguments).into());
        }
        if tool == "validate_rows" {
            self.load_reference_files(&mut arguments, stop)?;
        }
        if let Some(cap) = self.default_max_listed {
            arguments.entry("max_listed").or_insert_with(|| Value::from(cap));
        }
        // Only a call that gives `path` alone has a file read for it; with
        // `rows` or `csv` too, the module refuses the call and nothing is read.
        let path_alone = !arguments.contains_key("rows") && !arguments.contains_key("csv");
        let requested = match arguments.get("path") {
            Some(Value::String(path)) if path_alone && ROW_TOOLS.contains(&tool) => path.clone(),
            _ => return Ok(to_bytes(arguments).into()),
        };
        let data = self.data_roots.load(&requested, stop)?;
        arguments.remove("path");
        match data {
            FileData::Csv(text) => {
                Ok(CallInput { args: to_bytes(arguments), csv: Some(text), export: None, rows: None })
            }
            // The array's text goes in as it is, unparsed: the module parses it once.
            FileData::JsonArray(rows) => {
                let args = splice_rows(&arguments, &rows);
                // `"rows":` and the array are last, before the closing brace.
                let rows = args.len() - 1 - rows.len()..args.len() - 1;
                Ok(CallInput { args, rows: Some(rows), ..CallInput::default() })
            }
        }
    }
}

impl CallSettings {
    /// Replace each `columns[i].references.path` with the file's data, as
    /// `csv` text or `rows`, read under the same roots as `path`.
    fn load_reference_files(&self, arguments: &mut Map<String, Value>, stop: &StopFlag) -> Result<(), PrepareError> {
        let Some(Value::Array(columns)) = arguments.get_mut("columns") else { return Ok(()) };
        for (index, column) in columns.iter_mut().enumerate() {
            let Some(Value::Object(reference)) = column.get_mut("references") else { continue };
            let Some(Value::String(requested)) = reference.get("path") else { continue };
            let requested = requested.clone();
            let location = format!("columns[{index}].references.path");
            let data = self
                .data_roots
                .load(&requested, stop)
                .map_err(|error| PrepareError::ReferenceFile { location: location.clone(), error })?;
            reference.remove("path");
            match data {
                FileData::Csv(text) => {
                    reference.insert("csv".into(), Value::String(text));
                }
                FileData::JsonArray(bytes) => {
                    // Checked to be a JSON array when it was read.
                    let rows: Value = serde_json::from_slice(&bytes).map_err(|err| PrepareError::ReferenceFile {
                        location,
                        error: FileError::invalid(&requested, &err.to_string()),
                    })?;
                    reference.insert("rows".into(), rows);
                }
            }
        }
        Ok(())
    }
}

/// Whether some column of the `columns` text names a `references.path`.
fn names_reference_file(columns: Option<&str>) -> bool {
    let Some(columns) = columns else { return false };
    // Column specs are small next to the data, so they are parsed to look.
    let Ok(Value::Array(columns)) = serde_json::from_str::<Value>(columns) else { return false };
    columns.iter().any(|column| column["references"]["path"].is_string())
}

/// The top level of a call's arguments: each key and its value's text.
///
/// The text is valid JSON (the transport read it with `serde_json` when
/// the message came in, or wrote it), so only its outline is read here
/// (`json_shape.rs`): a second check of the rows' megabytes cost as much
/// as the first.
struct TopLevel<'t> {
    text: &'t str,
    outline: Cow<'t, Outline>,
}

impl<'t> TopLevel<'t> {
    /// The top level of `text`, from `outline` if the transport read it.
    fn of(text: &'t str, outline: Option<&'t Outline>) -> Result<Self, PrepareError> {
        let outline = match outline {
            Some(outline) => Cow::Borrowed(outline),
            None => Cow::Owned(
                json_shape::outline(text)
                    .ok_or_else(|| PrepareError::NotAnObject("the arguments are not a JSON object".into()))?,
            ),
        };
        Ok(TopLevel { text, outline })
    }

    /// The text of `key`'s value (of its last member, as when parsed).
    fn get(&self, key: &str) -> Option<&'t str> {
        self.text.get(self.span(key)?)
    }

    /// Where `key`'s value (of its last member) lies in the text.
    fn span(&self, key: &str) -> Option<std::ops::Range<usize>> {
        self.outline.members.iter().rev().find(|(name, _)| name == key).map(|(_, value)| value.clone())
    }

    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn is_empty(&self) -> bool {
        self.outline.members.is_empty()
    }
}

impl CallSettings {
    /// The arguments (the JSON text of an object, as the client sent it) as
    /// the module's input, or why not (a refused or unreadable
    /// `path`). Built without a tree of the arguments unless a file is read
    /// for the call: only the top level is read, to see which arguments are
    /// there. A file read looks at `stop` between chunks.
    pub fn prepare(&self, tool: &str, text: &str, stop: &StopFlag) -> Result<CallInput, PrepareError> {
        self.prepare_outlined(tool, text, None, stop)
    }

    /// [`Self::prepare`], with the text's outline when the transport read it.
    pub(crate) fn prepare_outlined(
        &self,
        tool: &str,
        text: &str,
        outline: Option<&Outline>,
        stop: &StopFlag,
    ) -> Result<CallInput, PrepareError> {
        if !CAPPED_TOOLS.contains(&tool) {
            return Ok(text.as_bytes().to_vec().into());
        }
        let top = TopLevel::of(text, outline)?;
        // Decided before any file is read: a call whose export cannot be
        // written here is refused at once.
        let export = match top.get("export") {
            Some(export) if tool == "validate_rows" => {
                let export: Value =
                    serde_json::from_str(export).map_err(|err| PrepareError::NotAnObject(err.to_string()))?;
                self.export_plan(&export)?
            }
            _ => None,
        };
        let input = match self.prepare_text(tool, text, &top)? {
            Prepared::Ready(input) => input,
            Prepared::ReadsFiles => {
                // A file is read for this call: the object path decides, as
                // for arguments that arrive parsed.
                let arguments: Map<String, Value> =
                    serde_json::from_str(text).map_err(|err| PrepareError::NotAnObject(err.to_string()))?;
                self.prepare_object(tool, arguments, stop)?
            }
        };
        Ok(CallInput { export, ..input })
    }

    /// [`Self::prepare_outlined`] for a call that neither reads a file nor
    /// writes one (no `path` to read, no `export`): `None` for any other.
    /// It touches no file system, so it can run where blocking must not.
    pub(crate) fn prepare_in_memory(
        &self,
        tool: &str,
        text: &str,
        outline: Option<&Outline>,
    ) -> Option<Result<CallInput, PrepareError>> {
        if !CAPPED_TOOLS.contains(&tool) {
            return Some(Ok(text.as_bytes().to_vec().into()));
        }
        let top = match TopLevel::of(text, outline) {
            Ok(top) => top,
            Err(err) => return Some(Err(err)),
        };
        if top.contains_key("export") {
            return None;
        }
        match self.prepare_text(tool, text, &top) {
            Ok(Prepared::Ready(input)) => Some(Ok(input)),
            Ok(Prepared::ReadsFiles) => None,
            Err(err) => Some(Err(err)),
        }
    }

    /// What `export` (its value) asks of this server: nothing when null.
    fn export_plan(&self, export: &Value) -> Result<Option<ExportPlan>, PrepareError> {
        if export.is_null() {
            return Ok(None);
        }
        self.output_roots.plan(export).map(Some).map_err(PrepareError::Output)
    }

    /// [`Self::prepare`] for a capped tool whose top-level arguments are
    /// `top`, as far as it goes without a file: the input, or that a file
    /// is to be read for it.
    fn prepare_text(&self, tool: &str, text: &str, top: &TopLevel<'_>) -> Result<Prepared, PrepareError> {
        let path_alone = !top.contains_key("rows") && !top.contains_key("csv") && ROW_TOOLS.contains(&tool);
        let reads_file = path_alone && top.get("path").is_some_and(|path| path.starts_with('"'));
        if reads_file || (tool == "validate_rows" && names_reference_file(top.get("columns"))) {
            return Ok(Prepared::ReadsFiles);
        }
        // Where the rows' array is: the text before it is kept as it is.
        let rows = top.span("rows").filter(|span| text[span.clone()].starts_with('['));
        let args = match self.default_max_listed {
            Some(cap) if !top.contains_key("max_listed") => {
                // Appended last, where `Map::entry` would have put it.
                let body = text
                    .trim_end()
                    .strip_suffix('}')
                    .ok_or_else(|| PrepareError::NotAnObject("no closing brace".into()))?;
                let separator = if top.is_empty() { "" } else { "," };
                format!("{body}{separator}\"max_listed\":{cap}}}").into_bytes()
            }
            _ => text.as_bytes().to_vec(),
        };
        Ok(Prepared::Ready(CallInput { args, rows, ..CallInput::default() }))
    }
}

/// What [`CallSettings::prepare_text`] makes of a call's text.
enum Prepared {
    Ready(CallInput),
    /// A `path` (or a column's `references.path`) is to be read.
    ReadsFiles,
}

/// `arguments` as a JSON object with `"rows": <rows>` appended, `rows` being
/// JSON text already checked to be an array.
fn splice_rows(arguments: &Map<String, Value>, rows: &[u8]) -> Vec<u8> {
    let mut out = serde_json::to_vec(&Value::Object(arguments.clone())).unwrap_or_else(|_| b"{}".to_vec());
    out.pop(); // the closing brace
    if !arguments.is_empty() {
        out.push(b',');
    }
    out.extend_from_slice(b"\"rows\":");
    out.extend_from_slice(rows);
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn never() -> StopFlag {
        StopFlag::never()
    }

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn the_default_cap_applies_unless_the_call_sets_one() {
        let settings = CallSettings { default_max_listed: Some(20), ..CallSettings::default() };
        let bytes =
            settings.prepare_object("count_distinct", object(json!({"rows": [], "key": "id"})), &never()).unwrap().args;
        assert_eq!(serde_json::from_slice::<Value>(&bytes).unwrap()["max_listed"], 20);
        let bytes = settings
            .prepare_object("count_distinct", object(json!({"rows": [], "key": "id", "max_listed": 3})), &never())
            .unwrap()
            .args;
        assert_eq!(serde_json::from_slice::<Value>(&bytes).unwrap()["max_listed"], 3);
        // reconcile's movements are capped too; a tool with no lists passes through untouched.
        let bytes = settings.prepare_object("reconcile", object(json!({"movements": []})), &never()).unwrap().args;
        assert_eq!(serde_json::from_slice::<Value>(&bytes).unwrap()["max_listed"], 20);
        let bytes = settings.prepare_object("no_such_tool", object(json!({"movements": []})), &never()).unwrap().args;
        assert_eq!(bytes, br#"{"movements":[]}"#);
    }

    #[test]
    fn rows_from_a_file_are_spliced_in_as_text() {
        let arguments = object(json!({"key": "id"}));
        assert_eq!(splice_rows(&arguments, b"[{\"id\": 1.0}]"), br#"{"key":"id","rows":[{"id": 1.0}]}"#);
        assert_eq!(splice_rows(&Map::new(), b"[]"), br#"{"rows":[]}"#);
    }

    #[test]
    fn arguments_as_text_are_prepared_as_the_object_would_be() {
        let capped = CallSettings { default_max_listed: Some(20), ..CallSettings::default() };
        let uncapped = CallSettings::default();
        for (tool, text) in [
            ("count_distinct", r#"{"rows": [{"id": 1.50}], "key": "id"}"#),
            ("count_distinct", r#"{"rows":[],"key":"id","max_listed":3}"#),
            ("count_distinct", r#"{"rows":[],"key":"id","max_listed":null}"#),
            ("validate_rows", "{ }"),
            ("validate_rows", r#"{"csv":"a\nb","columns":[],"path":"x.csv"}"#),
            ("reconcile", r#"{"movements": [1e2]}"#),
        ] {
            for settings in [&capped, &uncapped] {
                let from_text: Value =
                    serde_json::from_slice(&settings.prepare(tool, text, &never()).unwrap().args).unwrap();
                let from_object: Value = serde_json::from_slice(
                    &settings.prepare_object(tool, serde_json::from_str(text).unwrap(), &never()).unwrap().args,
                )
                .unwrap();
                assert_eq!(from_text, from_object, "{tool} {text}");
                assert_eq!(
                    from_text.as_object().unwrap().keys().collect::<Vec<_>>(),
                    from_object.as_object().unwrap().keys().collect::<Vec<_>>()
                );
            }
        }
        // With nothing to add, the client's text goes through untouched,
        // with where its rows lie.
        let text = r#"{"rows": [{"id": 1.50}], "key": "id", "max_listed": 3}"#;
        let prepared = capped.prepare("count_distinct", text, &never()).unwrap();
        assert_eq!(prepared.args, text.as_bytes());
        assert_eq!(&text[prepared.rows.clone().unwrap()], r#"[{"id": 1.50}]"#);
        assert_eq!(prepared, CallInput { rows: prepared.rows.clone(), ..CallInput::from(text.as_bytes().to_vec()) });
        // Rows given as a string (JSON in a string) have no array to cut.
        let text = r#"{"rows": "[{\"id\": 1}]", "key": "id"}"#;
        assert_eq!(capped.prepare("count_distinct", text, &never()).unwrap().rows, None);
        // A path alone is read (here: refused) exactly as on the object path.
        let err = uncapped.prepare("validate_rows", r#"{"path": "/etc/passwd", "columns": []}"#, &never()).unwrap_err();
        assert!(matches!(&err, PrepareError::File(file) if file.code == "no_file_access"), "{err}");
    }

    #[test]
    fn a_csv_file_goes_beside_the_arguments_as_their_csv() {
        let dir = std::env::temp_dir().join(format!("mcpv-arguments-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.csv"), "id,n\nA,\"1\"\n").unwrap();
        let settings = CallSettings {
            default_max_listed: Some(20),
            data_roots: DataRoots::new(std::slice::from_ref(&dir), 1 << 20).unwrap(),
            ..CallSettings::default()
        };
        let input = settings.prepare("validate_rows", r#"{"path": "t.csv", "columns": [{"name": "n"}]}"#, &never());
        std::fs::remove_dir_all(&dir).unwrap();
        let input = input.unwrap();
        // The text unescaped and untouched, and the arguments without the path
        // or a csv of their own: the module sets csv from the text.
        assert_eq!(input.csv.as_deref(), Some("id,n\nA,\"1\"\n"));
        let args: Value = serde_json::from_slice(&input.args).unwrap();
        assert_eq!(args, json!({"columns": [{"name": "n"}], "max_listed": 20}));
    }

    #[test]
    fn a_reference_file_becomes_the_columns_reference_data() {
        let dir = std::env::temp_dir().join(format!("mcpv-references-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("customers.csv"), "id\n7\n8\n").unwrap();
        std::fs::write(dir.join("regions.jsonl"), "{\"code\": \"EU\"}\n").unwrap();
        let settings = CallSettings {
            default_max_listed: None,
            data_roots: DataRoots::new(std::slice::from_ref(&dir), 1 << 20).unwrap(),
            ..CallSettings::default()
        };
        let text = r#"{"rows": [{"c": 7}], "columns": [
            {"name": "c", "references": {"column": "id", "path": "customers.csv"}},
            {"name": "r", "references": {"column": "code", "path": "regions.jsonl"}},
            {"name": "x", "references": {"values": [1]}}]}"#;
        let input = settings.prepare("validate_rows", text, &never());
        let missing = settings.prepare(
            "validate_rows",
            r#"{"rows": [], "columns": [{"name": "c"}, {"name": "d", "references": {"column": "id", "path": "nope.csv"}}]}"#,
            &never(),
        );
        let outside = settings.prepare(
            "validate_rows",
            r#"{"rows": [], "columns": [{"name": "d", "references": {"column": "id", "path": "../customers.csv"}}]}"#,
            &never(),
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let args: Value = serde_json::from_slice(&input.unwrap().args).unwrap();
        assert_eq!(args["columns"][0]["references"], json!({"column": "id", "csv": "id\n7\n8\n"}));
        assert_eq!(args["columns"][1]["references"], json!({"column": "code", "rows": [{"code": "EU"}]}));
        assert_eq!(args["columns"][2]["references"], json!({"values": [1]}));
        assert!(
            matches!(&missing, Err(PrepareError::ReferenceFile { location, error })
                if location == "columns[1].references.path" && error.code == "file_not_found"),
            "{missing:?}"
        );
        assert!(
            matches!(&outside, Err(PrepareError::ReferenceFile { error, .. }) if error.code == "path_outside_roots"),
            "{outside:?}"
        );
    }

    #[test]
    fn without_data_roots_a_path_is_refused() {
        let settings = CallSettings::default();
        let err = settings
            .prepare_object("validate_rows", object(json!({"path": "/etc/passwd", "columns": []})), &never())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no file access") && err.contains("--data-root"), "{err}");
    }
}
