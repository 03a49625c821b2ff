//! What `validate_rows` learned from its rows, in the form its result is
//! written from, and the same for a part of the rows, which merges exactly.
//!
//! A large CSV text can be checked in parts, each in its own instance of
//! the module (the server runs them at once, one per core): each part's
//! [`RowsReport`] is written as JSON ([`RowsReport::into_part`]), and
//! [`RowsReport::absorb_part`] adds the parts, in order, into one report,
//! which is the report of the whole text. That holds for a call whose rows
//! are each checked alone (no `unique`, no primary key, no page, no export:
//! see `validate.rs`), because then everything in a report is either a
//! count (a sum over the parts), a tally (the same), a list of the first
//! items (the first part's, then the next's, up to the window), or the
//! columns seen (in the order first seen, which is the first part's, then
//! what the next adds). Only the locators depend on where a part starts:
//! a part counts its rows from 0 and its lines from the header's end, and
//! the merge moves them by the rows and lines of the parts before.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::findings::Tally;
use crate::listing::Listing;
use crate::output::{ListedItem, WrittenList};
use crate::source::Capped;

/// Counts, tallies and listed items (as their JSON) over the rows checked.
pub(crate) struct RowsReport {
    pub(crate) rows_in: usize,
    /// Accepted rows as trees, or as text written into `accepted_text`
    /// (see `output.rs`).
    pub(crate) accepted: Capped<ListedItem>,
    pub(crate) accepted_text: Vec<u8>,
    pub(crate) quarantine: Capped<Value>,
    pub(crate) flagged: Capped<Value>,
    pub(crate) findings: Capped<Value>,
    pub(crate) tallies: Tallies,
}

/// What a report counts by name: findings by code and by column, and the
/// columns seen.
#[derive(Default)]
pub(crate) struct Tallies {
    pub(crate) by_code: Tally,
    pub(crate) by_column: Tally,
    /// Error codes among quarantined rows' findings, for the guidance.
    pub(crate) quarantine_codes: Tally,
    /// Columns not in the contract, in the order first seen.
    pub(crate) undeclared_columns: Vec<String>,
    pub(crate) present_columns: HashSet<String>,
}

/// The lists of a report, by their names in a part's JSON.
const LISTS: [&str; 4] = ["accepted", "quarantine", "flagged", "findings"];

/// A part's JSON that is not what [`RowsReport::into_part`] writes.
fn malformed(what: &str) -> String {
    format!("a part of the rows is malformed: {what}")
}

impl RowsReport {
    /// A report of no rows, with the call's windows.
    pub(crate) fn empty(listing: &Listing) -> Self {
        RowsReport {
            rows_in: 0,
            accepted: listing.window("accepted").capped(),
            accepted_text: Vec::new(),
            quarantine: listing.window("quarantine").capped(),
            flagged: listing.window("flagged").capped(),
            findings: listing.window("findings").capped(),
            tallies: Tallies::default(),
        }
    }

    /// The accepted rows the report lists, and its other lists, by name.
    fn list_mut(&mut self, name: &str) -> Option<&mut Capped<Value>> {
        match name {
            "quarantine" => Some(&mut self.quarantine),
            "flagged" => Some(&mut self.flagged),
            "findings" => Some(&mut self.findings),
            _ => None,
        }
    }

    /// The accepted rows listed, as one list whatever their form.
    pub(crate) fn take_accepted(&mut self) -> (WrittenList, usize) {
        let accepted = std::mem::replace(&mut self.accepted, Capped::new(None));
        let total = accepted.total();
        (WrittenList::new(accepted.into_items(), std::mem::take(&mut self.accepted_text)), total)
    }

    /// The report of one part as JSON, with `lines`, the lines the part's
    /// rows took (after the header).
    pub(crate) fn into_part(mut self, lines: usize) -> Value {
        let tally = |tally: &Tally| tally.entries().map(|(key, count)| serde_json::json!([key, count])).collect();
        let mut lists = Map::new();
        for name in LISTS {
            let (total, items) = match self.list_mut(name) {
                Some(list) => {
                    let list = std::mem::replace(list, Capped::new(None));
                    (list.total(), list.into_items())
                }
                None => {
                    let (list, total) = self.take_accepted();
                    (total, list.into_values())
                }
            };
            lists.insert(name.to_owned(), serde_json::json!({"total": total, "items": items}));
        }
        let mut present: Vec<&String> = self.tallies.present_columns.iter().collect();
        present.sort_unstable();
        Value::Object(crate::findings::object([
            ("rows", self.rows_in.into()),
            ("lines", lines.into()),
            ("lists", Value::Object(lists)),
            ("by_code", tally(&self.tallies.by_code)),
            ("by_column", tally(&self.tallies.by_column)),
            ("quarantine_codes", tally(&self.tallies.quarantine_codes)),
            ("undeclared_columns", self.tallies.undeclared_columns.iter().map(|c| Value::from(c.as_str())).collect()),
            ("present_columns", present.into_iter().map(|c| Value::from(c.as_str())).collect()),
        ]))
    }

    /// Add the rows of the next part (as [`RowsReport::into_part`] wrote
    /// it), whose rows follow the `lines_before` lines of the parts before;
    /// returns the part's lines.
    pub(crate) fn absorb_part(&mut self, part: Value, lines_before: usize) -> Result<usize, String> {
        let Value::Object(mut part) = part else { return Err(malformed("not an object")) };
        let count = |part: &Map<String, Value>, key: &str| {
            part.get(key).and_then(Value::as_u64).map(|n| n as usize).ok_or_else(|| malformed(key))
        };
        let (rows, lines) = (count(&part, "rows")?, count(&part, "lines")?);
        let rows_before = self.rows_in;
        let Some(Value::Object(mut lists)) = part.remove("lists") else { return Err(malformed("lists")) };
        for name in LISTS {
            let Some(Value::Object(mut list)) = lists.remove(name) else { return Err(malformed(name)) };
            let total = count(&list, "total")?;
            let Some(Value::Array(items)) = list.remove("items") else { return Err(malformed(name)) };
            let listed = items.len();
            let unlisted = total.checked_sub(listed).ok_or_else(|| malformed(name))?;
            match self.list_mut(name) {
                Some(target) => {
                    for mut item in items {
                        shift_locators(&mut item, rows_before, lines_before);
                        target.push(item);
                    }
                    target.skip_many(unlisted);
                }
                // An accepted row is the row alone, with no locator.
                None => {
                    for item in items {
                        self.accepted.push(ListedItem::Tree(item));
                    }
                    self.accepted.skip_many(unlisted);
                }
            }
        }
        for (key, tally) in [
            ("by_code", &mut self.tallies.by_code),
            ("by_column", &mut self.tallies.by_column),
            ("quarantine_codes", &mut self.tallies.quarantine_codes),
        ] {
            let Some(Value::Array(entries)) = part.get(key) else { return Err(malformed(key)) };
            for entry in entries {
                match entry.as_array().map(Vec::as_slice) {
                    Some([Value::String(name), Value::Number(n)]) if n.is_u64() => {
                        tally.add_count(name, n.as_u64().unwrap_or_default() as usize);
                    }
                    _ => return Err(malformed(key)),
                }
            }
        }
        let names = |part: &Map<String, Value>, key: &str| -> Result<Vec<String>, String> {
            let Some(Value::Array(names)) = part.get(key) else { return Err(malformed(key)) };
            names.iter().map(|name| name.as_str().map(str::to_owned).ok_or_else(|| malformed(key))).collect()
        };
        for column in names(&part, "undeclared_columns")? {
            if !self.tallies.undeclared_columns.contains(&column) {
                self.tallies.undeclared_columns.push(column);
            }
        }
        self.tallies.present_columns.extend(names(&part, "present_columns")?);
        self.rows_in += rows;
        Ok(lines)
    }
}

/// Move a listed item's locators (its own, and each of its findings') by
/// `rows` rows and `lines` lines.
fn shift_locators(item: &mut Value, rows: usize, lines: usize) {
    let Value::Object(item) = item else { return };
    if let Some(Value::Object(locator)) = item.get_mut("locator") {
        shift_locator(locator, rows, lines);
    }
    if let Some(Value::Array(findings)) = item.get_mut("findings") {
        for finding in findings {
            if let Some(Value::Object(locator)) = finding.get_mut("locator") {
                shift_locator(locator, rows, lines);
            }
        }
    }
}

/// A row's place (`row_index`, `row_number`, `line`) moved on. A locator
/// of a part's rows names no other row (`first_row_index` is only for
/// `unique` and the primary key, which are never checked in parts).
fn shift_locator(locator: &mut Map<String, Value>, rows: usize, lines: usize) {
    for (key, by) in [("row_index", rows), ("row_number", rows), ("line", lines)] {
        if let Some(at) = locator.get(key).and_then(Value::as_u64) {
            locator.insert(key.to_owned(), (at as usize + by).into());
        }
    }
}
