//! The suggested contract: the rules every row of the data already
//! satisfies, and only those that are unlikely to be chance.
//!
//! Each rule is decided from the profile, which read the values exactly as
//! `validate_rows` reads them, so the contract passes `validate_rows` on the
//! data it was drafted from. What is suggested, and when:
//!
//! * `type`: the narrowest type every non-blank value takes (`types.rs`);
//!   `any` for a column with no value.
//! * `required`: no row has the column blank or missing.
//! * `format` (a `string` column): every value has it.
//! * A `format`, `pattern` or `min` needs at least [`MIN_RULE_VALUES`]
//!   values, and a `format` or `pattern` at least two distinct ones.
//! * `allowed` (a `string` or `integer` column with no format): at most
//!   [`MAX_ALLOWED`] distinct values, each seen at least twice, and at most
//!   one distinct value per five values: a code list, not a sample of a
//!   larger set.
//! * `pattern` (a `string` column with neither): every value has one shape
//!   (`shape.rs`) that says something a value could get wrong (fixed
//!   lengths, or a punctuation mark): `INV-\d{6}`, not `[A-Z][a-z]+`.
//! * `min: 0` (an `integer` or `number` column): no value is below zero. A
//!   natural bound; the observed least and greatest are profile facts, never rules.
//! * `table.primary_key`: a key candidate (an `integer` or `string` column,
//!   non-blank and distinct on every row, at least [`MIN_KEY_ROWS`] rows),
//!   the first one named like an identifier (`id`, `customer_id`,
//!   `invoiceId`, `uuid`, `key`), or else the first whose values share a
//!   code shape with digits (`INV-\d{6}`). Free text that happens to be
//!   distinct is no key. Another candidate named like an identifier gets
//!   `unique`. With no such column, two columns that are distinct together
//!   on every row where chance would have repeated them (`key_pair.rs`).
//! * A `boolean` column's Table Schema field lists its words as
//!   `trueValues`/`falseValues` when any is not a Frictionless default
//!   (`Yes`/`No`), since Frictionless reads only the words listed.
//! * Never `min_length`/`max_length`, `max`, or a `min` other than 0: those
//!   would copy the sample's extremes.
//!
//! Every rule has its evidence, in a parallel object (`evidence.columns`,
//! `evidence.table`), so the contract's columns stay exactly what
//! `validate_rows` accepts. The same contract is given as a Frictionless
//! Table Schema, which `validate_rows`' `schema` maps back onto it; the
//! rules Table Schema cannot say (the formats `ipv4` and `ipv6`) are listed
//! in `evidence.table_schema_omits`.

use serde_json::{json, Map, Value};

use super::key_pair::KeyPair;
use super::profile::ValueProfile;
use super::shape::Shape;
use super::types::TypeTally;
use super::{count_text, counted, key_value, type_noun};
use crate::contract::ColumnType;
use crate::formats::Format;
use crate::value_key::KeyedValue;

/// The most distinct values an `allowed` list is suggested for.
pub(super) const MAX_ALLOWED: usize = 10;

/// The fewest non-blank values a `format`, `pattern` or `min` is suggested
/// on: fewer say little about the next value.
pub(super) const MIN_RULE_VALUES: usize = 5;

/// The fewest rows a key is suggested on: in a handful of rows, any text
/// column is distinct by chance.
pub(super) const MIN_KEY_ROWS: usize = 10;

/// What the draft reads about one column.
pub(super) struct ColumnFacts<'a> {
    pub(super) name: &'a str,
    pub(super) tally: &'a TypeTally,
    pub(super) profile: &'a ValueProfile<'a>,
    /// Rows without the column (an absent key, a short CSV record).
    pub(super) missing: usize,
    /// Why no contract can name the column, when none can.
    pub(super) unnamable: Option<String>,
}

impl ColumnFacts<'_> {
    /// Non-blank and distinct on every one of `rows` rows (at least
    /// [`MIN_KEY_ROWS`]), and an `integer` or `string` column.
    pub(super) fn is_key_candidate(&self, rows: usize) -> bool {
        self.unnamable.is_none()
            && rows >= MIN_KEY_ROWS
            && self.tally.non_blank == rows
            && self.profile.all_distinct()
            && matches!(self.tally.chosen(), Some(ColumnType::Integer | ColumnType::String))
    }
}

/// Whether `name` reads as an identifier: its last word (split at anything
/// not a letter or digit, and where a lowercase letter meets an uppercase
/// one) is `id`, `uuid`, `guid` or `key`, in any case.
pub(super) fn is_id_like(name: &str) -> bool {
    let mut last = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            last.clear();
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            last.clear();
        }
        previous_lower = c.is_lowercase();
        last.extend(c.to_lowercase());
    }
    matches!(last.as_str(), "id" | "uuid" | "guid" | "key")
}

/// The drafted contract, its Table Schema, and the evidence for each rule.
pub(super) struct Draft {
    pub(super) contract: Value,
    pub(super) table_schema: Value,
    pub(super) evidence: Value,
}

/// Draft the contract for `columns` of a table of `rows` rows; `None` when
/// there is nothing to draft (no rows, or no column a contract can name).
///
/// `pair` is the two-column key `key_pair.rs` found, if any (only when no
/// one column is the key).
pub(super) fn draft(columns: &[ColumnFacts<'_>], rows: usize, pair: Option<KeyPair>) -> Option<Draft> {
    let named: Vec<&ColumnFacts<'_>> = columns.iter().filter(|facts| facts.unnamable.is_none()).collect();
    if rows == 0 || named.is_empty() {
        return None;
    }
    let key = primary_key(&named, rows);
    let key_names: Vec<&str> = match (&key, pair) {
        (Some((name, _)), _) => vec![name],
        (None, Some(pair)) => vec![columns[pair.columns.0].name, columns[pair.columns.1].name],
        (None, None) => Vec::new(),
    };
    let key_why = match (&key, pair) {
        (Some((_, why)), _) => Some(why.clone()),
        (None, Some(pair)) => Some(pair_evidence(columns, pair, rows)),
        (None, None) => None,
    };
    let mut specs = Vec::new();
    let mut fields = Vec::new();
    let mut evidence = Map::new();
    let mut omits = Vec::new();
    for facts in &named {
        let mut column = Column::default();
        column.decide(facts, rows, key.as_ref().map(|(name, _)| *name));
        specs.push(Value::Object(column.spec));
        fields.push(Value::Object(column.field));
        evidence.insert(facts.name.to_owned(), Value::Object(column.evidence));
        omits.extend(column.omits);
    }
    let mut contract = json!({"columns": specs});
    let mut table_schema = json!({"fields": fields});
    let mut all_evidence = json!({"columns": evidence});
    if let Some(why) = key_why {
        contract["table"] = json!({"primary_key": key_names});
        table_schema["primaryKey"] = json!(key_names);
        all_evidence["table"] = json!({"primary_key": why});
    }
    let left_out: Vec<Value> = columns
        .iter()
        .filter_map(|facts| facts.unnamable.as_ref().map(|why| json!({"column": facts.name, "why": why})))
        .collect();
    if !left_out.is_empty() {
        all_evidence["left_out"] = Value::Array(left_out);
    }
    if !omits.is_empty() {
        all_evidence["table_schema_omits"] = Value::Array(omits);
    }
    Some(Draft { contract, table_schema, evidence: all_evidence })
}

/// The primary key's column and why, if one is evident.
pub(super) fn primary_key<'a>(named: &[&ColumnFacts<'a>], rows: usize) -> Option<(&'a str, String)> {
    let candidates: Vec<&ColumnFacts<'a>> =
        named.iter().copied().filter(|facts| facts.is_key_candidate(rows)).collect();
    let rows = count_text(rows);
    if let Some(facts) = candidates.iter().find(|facts| is_id_like(facts.name)) {
        return Some((facts.name, format!("non-blank and distinct on all {rows} rows, and named like an identifier")));
    }
    let coded = |shape: &Shape| shape.has_digits() && shape.is_telling();
    let facts = candidates
        .iter()
        .find(|facts| facts.tally.chosen() == Some(ColumnType::String) && coded(&facts.profile.shape))?;
    let shape = facts.profile.shape.pattern().unwrap_or_default();
    Some((
        facts.name,
        format!("non-blank and distinct on all {rows} rows, and every value is a code of the shape {shape}"),
    ))
}

/// Why two columns are the primary key (`key_pair.rs`).
fn pair_evidence(columns: &[ColumnFacts<'_>], pair: KeyPair, rows: usize) -> String {
    let (a, b) = (columns[pair.columns.0].name, columns[pair.columns.1].name);
    format!(
        "non-blank on all {} rows, and {a} and {b} (of {} and {} distinct values, each repeating) are distinct \
together on every row, where two independent columns like them would have about {} pairs of rows sharing both",
        count_text(rows),
        count_text(pair.distinct.0),
        count_text(pair.distinct.1),
        count_text(pair.expected_shared.round() as usize),
    )
}

/// One column being drafted: its contract spec, its Table Schema field, the
/// evidence of each rule, and what the Table Schema cannot say.
#[derive(Default)]
struct Column {
    spec: Map<String, Value>,
    field: Map<String, Value>,
    constraints: Map<String, Value>,
    evidence: Map<String, Value>,
    omits: Vec<Value>,
}

impl Column {
    /// A rule: `key` in the spec, `constraint` (when Table Schema has it)
    /// among the field's constraints, with its evidence.
    fn rule(&mut self, key: &str, value: Value, constraint: Option<&str>, why: String) {
        if let Some(constraint) = constraint {
            self.constraints.insert(constraint.to_owned(), value.clone());
        }
        self.spec.insert(key.to_owned(), value);
        self.evidence.insert(key.to_owned(), Value::String(why));
    }

    fn decide(&mut self, facts: &ColumnFacts<'_>, rows: usize, key: Option<&str>) {
        let column_type = facts.tally.chosen().unwrap_or(ColumnType::Any);
        self.spec.insert("name".into(), facts.name.into());
        self.field.insert("name".into(), facts.name.into());
        self.field.insert("type".into(), column_type.name().into());
        self.rule("type", column_type.name().into(), None, type_evidence(facts, rows));
        if column_type == ColumnType::Boolean {
            self.boolean_words(&facts.profile.words);
        }
        let (blank, missing) = (facts.tally.blank, facts.missing);
        if blank == 0 && missing == 0 {
            let why = format!("0 blanks and 0 missing in {} rows", count_text(rows));
            self.rule("required", true.into(), Some("required"), why);
        }
        let values = count_text(facts.tally.non_blank);
        // A value rule stands on at least MIN_RULE_VALUES values, of more than one kind.
        let enough = facts.tally.non_blank >= MIN_RULE_VALUES;
        let varied = facts.profile.distinct_count() >= 2;
        let has_format = enough && varied && self.format(facts, &values);
        let has_allowed = !has_format && self.allowed(facts, column_type, &values);
        // Blank space at either end is a defect (surrounding_whitespace), not a format.
        let shaped = column_type == ColumnType::String && facts.profile.padded == 0 && facts.profile.shape.is_telling();
        if enough && varied && !has_format && !has_allowed && shaped {
            if let Some(shape) = facts.profile.shape.pattern() {
                let why = format!("all {values} non-blank values have the shape {shape}");
                self.rule("pattern", shape.into(), Some("pattern"), why);
            }
        }
        let numeric = matches!(column_type, ColumnType::Integer | ColumnType::Number);
        if enough && numeric && !facts.profile.negative && facts.profile.extremes.range().is_some() {
            let why = "no value is below 0: a natural bound for a never-negative column, not the observed least";
            self.rule("min", 0.into(), Some("minimum"), why.to_owned());
        }
        if key != Some(facts.name) && facts.is_key_candidate(rows) && is_id_like(facts.name) {
            let why = format!("distinct on all {} rows, and named like an identifier", count_text(rows));
            self.rule("unique", true.into(), Some("unique"), why);
        }
        if !self.constraints.is_empty() {
            self.field.insert("constraints".into(), Value::Object(std::mem::take(&mut self.constraints)));
        }
    }

    /// A boolean field's `trueValues` and `falseValues`, when a word of the
    /// column is not among Frictionless's defaults: the words as written,
    /// which Frictionless matches exactly (the defaults for a side with no
    /// word). The contract reads them all already, so its spec is unchanged.
    fn boolean_words(&mut self, words: &[(String, bool)]) {
        const DEFAULTS: [(bool, [&str; 4]); 2] =
            [(true, ["true", "True", "TRUE", "1"]), (false, ["false", "False", "FALSE", "0"])];
        let is_default = |(word, reads): &(String, bool)| {
            DEFAULTS.iter().any(|(side, defaults)| side == reads && defaults.contains(&word.as_str()))
        };
        if words.iter().all(is_default) {
            return;
        }
        for (reads, defaults) in DEFAULTS {
            let mut side: Vec<Value> = words
                .iter()
                .filter(|(_, word_reads)| *word_reads == reads)
                .map(|(word, _)| word.as_str().into())
                .collect();
            if side.is_empty() {
                side = defaults.iter().map(|&word| word.into()).collect();
            }
            let key = if reads { "trueValues" } else { "falseValues" };
            self.field.insert(key.into(), Value::Array(side));
        }
    }

    /// `format`, when every value of a string column has one.
    fn format(&mut self, facts: &ColumnFacts<'_>, values: &str) -> bool {
        let Some(&format) = facts.profile.formats.first() else { return false };
        let why = format!("all {values} non-blank values are {}", format.describe());
        self.rule("format", format.name().into(), None, why);
        match format {
            // Table Schema puts a format on the field, not among its constraints.
            Format::Email | Format::Uri | Format::Uuid => {
                self.field.insert("format".into(), format.name().into());
            }
            Format::Ipv4 | Format::Ipv6 => self.omits.push(json!({
                "column": facts.name,
                "rule": "format",
                "value": format.name(),
                "why": "Table Schema's string formats are email, uri and uuid (and binary), so its schema leaves this rule out",
            })),
        }
        true
    }

    /// `allowed`, for a short list of values that each repeat.
    fn allowed(&mut self, facts: &ColumnFacts<'_>, column_type: ColumnType, values: &str) -> bool {
        let profile = facts.profile;
        let distinct = profile.distinct_count();
        let fits = matches!(column_type, ColumnType::String | ColumnType::Integer)
            && profile.unkeyed == 0
            && (1..=MAX_ALLOWED).contains(&distinct)
            && distinct * 5 <= facts.tally.non_blank
            && profile.counts.iter().all(|&count| count >= 2);
        if !fits {
            return false;
        }
        // Only values that compare equal to themselves as JSON: text, and
        // integers within 64 bits.
        let listed: Option<Vec<Value>> = profile
            .value_keys()
            .map(|key| match crate::value_key::read_key(key)? {
                KeyedValue::Text(_) | KeyedValue::Integer(_) => key_value(key).filter(|v| !v.is_f64()),
                _ => None,
            })
            .collect();
        let Some(listed) = listed else { return false };
        let least = profile.counts.iter().min().copied().unwrap_or(0);
        let why = format!("{distinct} distinct values in {values}, each seen at least {least} times");
        self.rule("allowed", Value::Array(listed), Some("enum"), why);
        true
    }
}

/// Why the column has its type.
fn type_evidence(facts: &ColumnFacts<'_>, rows: usize) -> String {
    let tally = facts.tally;
    let Some(chosen) = tally.chosen() else {
        return format!("no non-blank value in {}, so nothing shows a type: any", counted(rows, "row", "rows"));
    };
    if chosen == ColumnType::Any {
        return format!(
            "{} of several JSON kinds, or arrays or objects, which no type takes: any",
            counted(tally.non_blank, "non-blank value", "non-blank values")
        );
    }
    let n = tally.non_blank;
    let all = if n == 1 {
        format!("the one non-blank value is {}", type_noun(chosen, false))
    } else {
        format!("all {} non-blank values are {}", count_text(n), type_noun(chosen, true))
    };
    match tally.near_miss() {
        Some((near, fails)) => {
            let verb = if fails == 1 { "is not" } else { "are not" };
            format!(
                "{all}; {} of them {verb} {} (the nearest narrower type)",
                count_text(fails),
                type_noun(near, fails > 1)
            )
        }
        None => all,
    }
}
