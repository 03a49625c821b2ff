//! The core's CSV reader as a whole table, for callers that show the data
//! (the playground draws the table the checks read, instead of reading the
//! text a second way).
//!
//! The rows and lines are exactly those a check given the same text as `csv`
//! sees, and a text the checks refuse is refused here with the same error.

use serde_json::{json, Value};

use crate::csv::{CsvRows, EXTRA_FIELDS_KEY};
use crate::error::ToolError;
use crate::source::csv_error;

/// Read CSV text with a header row, as the checks read their `csv` argument.
///
/// Returns `{"header": [...], "rows": [...], "lines": [...], "extra_fields_key": "_extra"}`:
/// `rows[i]` is the row object the checks see (fields beyond the header under
/// `extra_fields_key`), `lines[i]` the 1-based line it starts on, counting the
/// header's line.
pub fn read_csv(text: &str) -> Result<Value, ToolError> {
    let mut reader = CsvRows::new(text).map_err(csv_error)?;
    let header = reader.header().to_vec();
    let (mut rows, mut lines) = (Vec::new(), Vec::new());
    while let Some(record) = reader.next_row().map_err(csv_error)? {
        rows.push(record.row);
        lines.push(record.line);
    }
    Ok(json!({"header": header, "rows": rows, "lines": lines, "extra_fields_key": EXTRA_FIELDS_KEY}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn a_table_is_its_header_rows_and_lines() {
        let table = read_csv("\u{feff}id,n\n\nA,1\n\"B\nb\",2,x\n").unwrap();
        assert_eq!(
            table,
            json!({
                "header": ["id", "n"],
                "rows": [{"id": "A", "n": "1"}, {"id": "B\nb", "n": "2", "_extra": ["x"]}],
                "lines": [3, 4],
                "extra_fields_key": "_extra",
            })
        );
    }

    #[test]
    fn an_unreadable_text_is_the_error_a_call_gets() {
        let text = "a,a\n1,2\n";
        let err = read_csv(text).unwrap_err();
        let call = crate::count_distinct(&json!({"csv": text, "key": "a"})).unwrap_err();
        assert_eq!(err, call);
        assert_eq!((err.code, err.argument.as_deref()), (ErrorCode::InvalidArgument, Some("csv")));
    }
}
