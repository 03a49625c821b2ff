//! `reconcile`: closing = opening + movements, with the variance explained.
//!
//! Arithmetic is the check that does not depend on how plausible any single
//! figure looked. A movement that cannot be read is reported and excluded, and
//! then no verdict is given at all (`closes: null`): a total over an
//! incomplete set of movements must never be reported as a pass.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::abridge::Abridgement;
use crate::args::ArgReader;
use crate::arguments::Arguments;
use crate::error::ToolError;
use crate::findings::{abridged_envelope, object, rejection_envelope, verdict, Finding, Locator, Severity};
use crate::json_rows::{ColumnPositions, JsonCell, JsonRow, ObjectCells, RowsText};
use crate::json_write;
use crate::output::{ListedItem, Output, WrittenList};
use crate::py::format::{format_g, format_grouped_2f as money};
use crate::py::number;
use crate::py::repr::{repr, repr_str, str_of};
use crate::py::text;
use crate::py::value::{as_finite_number, number_to_f64, present, wire_float};
use crate::source::cap_vec;

const ARITHMETIC: &str = "closing_balance = opening_balance + sum(signed movements)";
const MOVEMENT_KEYS: [&str; 8] = ["amount", "value", "direction", "sign", "label", "description", "date", "reference"];
const IN_WORDS: [&str; 8] = ["in", "inflow", "inflows", "credit", "cr", "receipt", "deposit", "+"];
const OUT_WORDS: [&str; 8] = ["out", "outflow", "outflows", "debit", "dr", "payment", "withdrawal", "-"];
const FIX_MOVEMENT: &str = "Fix or remove this movement, then re-run; until then the arithmetic is not reliable.";

/// How many movements are written before the listed movements' buffer is
/// sized for the rest.
const SAMPLED_MOVEMENTS: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    In,
    Out,
}

impl Direction {
    fn name(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
        }
    }

    fn of_sign(amount: f64) -> Direction {
        if amount < 0.0 {
            Direction::Out
        } else {
            Direction::In
        }
    }

    /// A direction given as text; `None` for any other value.
    fn parse(raw: &Value) -> Option<Direction> {
        Direction::parse_text(raw.as_str()?)
    }

    fn parse_text(given: &str) -> Option<Direction> {
        // Most directions are given as one of the words already (each is
        // its own casefolded, stripped form): no folded copy is made.
        Direction::of_word(given).or_else(|| Direction::of_word(&text::casefold(text::strip(given))))
    }

    /// The direction `word` is one of the words of, exactly as written.
    fn of_word(word: &str) -> Option<Direction> {
        if IN_WORDS.contains(&word) {
            Some(Direction::In)
        } else if OUT_WORDS.contains(&word) {
            Some(Direction::Out)
        } else {
            None
        }
    }
}

/// One readable movement: an unsigned amount and its direction.
struct Movement {
    index: usize,
    amount: f64,
    direction: Direction,
    label: Option<String>,
    date: Option<String>,
}

impl Movement {
    fn signed_amount(&self) -> f64 {
        match self.direction {
            Direction::In => self.amount,
            Direction::Out => -self.amount,
        }
    }
}

/// A movement as the result echoes it: where it is, its amount, direction
/// and signed amount, then its label and date when it has them. Written
/// straight to the result's text (`output.rs`).
impl Serialize for Movement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("movement_index", &self.index)?;
        map.serialize_entry("movement_number", &(self.index + 1))?;
        map.serialize_entry("amount", &wire_float(self.amount))?;
        map.serialize_entry("direction", self.direction.name())?;
        map.serialize_entry("signed_amount", &wire_float(self.signed_amount()))?;
        if let Some(label) = &self.label {
            map.serialize_entry("label", label)?;
        }
        if let Some(date) = &self.date {
            map.serialize_entry("date", date)?;
        }
        map.end()
    }
}

/// The movements of a call: a tree, or the array's text (`arguments.rs`),
/// read one movement at a time.
enum Movements<'a> {
    Tree(&'a [Value]),
    Text(&'a RowsText),
}

/// Where the names a movement may have are in movement objects of the
/// layout seen last (`json_rows.rs`), and whether that layout has a key
/// that is none of them.
#[derive(Default)]
struct MovementLayout {
    known: ColumnPositions,
    unknown_key: bool,
}

/// The names [`MovementLayout`] finds, in this order.
const READ_KEYS: [&str; 8] = ["amount", "value", "direction", "sign", "label", "description", "reference", "date"];

/// Read one movement object from its text, as [`parse_movement`] reads
/// its tree. Only a movement that reads cleanly is read here: any other
/// (an unknown key, an amount that is not a finite number, a direction not
/// understood) is `None`, and is read as a tree, for the finding it gets.
fn movement_from_cells(cells: &ObjectCells<'_>, layout: &mut MovementLayout, index: usize) -> Option<Movement> {
    if layout.known.refresh(cells, READ_KEYS) {
        layout.unknown_key = cells.keys().any(|key| !MOVEMENT_KEYS.contains(&key));
    }
    if layout.unknown_key {
        return None;
    }
    let known = &layout.known;
    // Python's `raw.get(first, raw.get(second))`: the first key that is there, even as null.
    let either = |first: usize, second: usize| known.member(first).or_else(|| known.member(second));
    let amount = match either(0, 1).map(|member| cells.cell_at(member)) {
        Some(JsonCell::Text(text)) => number::parse_float(text::strip(&text)),
        Some(JsonCell::Other(Value::Number(n))) => Some(number_to_f64(&n)),
        _ => None,
    }
    .filter(|amount| amount.is_finite())?;
    let direction = match either(2, 3).map(|member| cells.cell_at(member)) {
        None | Some(JsonCell::Other(Value::Null)) => Direction::of_sign(amount),
        Some(JsonCell::Text(text)) => Direction::parse_text(&text)?,
        Some(_) => return None,
    };
    // The first of these keys that is there; null is no label.
    let text_of = |member: Option<usize>| match member.map(|member| cells.cell_at(member)) {
        Some(JsonCell::Text(text)) => Some(text.into_owned()),
        Some(JsonCell::Other(Value::Null) | JsonCell::Missing) | None => None,
        Some(JsonCell::Other(other)) => Some(str_of(&other)),
    };
    let label = text_of(known.member(4).or_else(|| known.member(5)).or_else(|| known.member(6)));
    let date = text_of(known.member(7));
    Some(Movement { index, amount: amount.abs(), direction, label, date })
}

/// `map.get(first)` if the key exists (even as null), else `map.get(second)`:
/// Python's `raw.get(first, raw.get(second))`.
fn get_either<'a>(map: &'a Map<String, Value>, first: &str, second: &str) -> Option<&'a Value> {
    map.get(first).or_else(|| map.get(second))
}

/// Read one movement, or say why it cannot be read.
#[allow(clippy::result_large_err)] // a Finding is the answer here, built once per bad movement
fn parse_movement(raw: &Value, index: usize) -> Result<Movement, Finding> {
    let locator = Locator::movement(index);
    let Value::Object(map) = raw else {
        let Some(number) = as_finite_number(raw) else {
            return Err(Finding::new(
                "movement_not_numeric",
                Severity::Error,
                format!(
                    "movement {} is not a finite number; supply a number or an object like {{\"amount\": 250.00, \"direction\": \"in\"}}",
                    repr(raw)
                ),
            )
            .at(locator)
            .with_value(present(raw))
            .guide(FIX_MOVEMENT));
        };
        return Ok(Movement {
            index,
            amount: number.abs(),
            direction: Direction::of_sign(number),
            label: None,
            date: None,
        });
    };

    let mut unknown: Vec<&str> = map.keys().map(String::as_str).filter(|key| !MOVEMENT_KEYS.contains(key)).collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        let listed = unknown.iter().map(|key| repr_str(key)).collect::<Vec<_>>().join(", ");
        return Err(Finding::new(
            "unknown_movement_key",
            Severity::Error,
            format!("movement has unrecognised key(s) {listed}; expected amount, direction, label, date"),
        )
        .at(locator)
        .with_value(Some(raw.clone())));
    }

    let amount_raw = get_either(map, "amount", "value").unwrap_or(&Value::Null);
    let Some(amount) = as_finite_number(amount_raw) else {
        return Err(Finding::new(
            "movement_not_numeric",
            Severity::Error,
            format!(
                "movement amount {} is not a finite number, so it cannot be added to the balance",
                repr(amount_raw)
            ),
        )
        .at(locator)
        .with_value(present(amount_raw))
        .guide(FIX_MOVEMENT));
    };

    let direction = match get_either(map, "direction", "sign").unwrap_or(&Value::Null) {
        // A signed amount with no direction: a bare negative is a decrease.
        Value::Null => Direction::of_sign(amount),
        given => Direction::parse(given).ok_or_else(|| {
            Finding::new(
                "unknown_direction",
                Severity::Error,
                format!("movement direction {} is not understood; use 'in' or 'out'", repr(given)),
            )
            .at(locator.clone())
            .with_value(Some(given.clone()))
        })?,
    };

    let label = map
        .get("label")
        .or_else(|| map.get("description"))
        .or_else(|| map.get("reference"))
        .filter(|v| !v.is_null())
        .map(str_of);
    let date = map.get("date").filter(|v| !v.is_null()).map(str_of);
    Ok(Movement { index, amount: amount.abs(), direction, label, date })
}

#[derive(Default)]
struct Outcome {
    opening: f64,
    reported_closing: f64,
    tolerance: f64,
    movements: Vec<Movement>,
    findings: Vec<Finding>,
    total_in: f64,
    total_out: f64,
    count_in: usize,
    count_out: usize,
    rejected_movements: usize,
    balances_readable: bool,
}

impl Outcome {
    fn net(&self) -> f64 {
        self.total_in - self.total_out
    }

    fn expected_closing(&self) -> f64 {
        self.opening + self.net()
    }

    fn variance(&self) -> f64 {
        self.reported_closing - self.expected_closing()
    }

    /// Every input was read, so the arithmetic means something.
    fn inputs_usable(&self) -> bool {
        self.balances_readable && self.rejected_movements == 0
    }

    /// `None` when the inputs were incomplete and no verdict can be given.
    fn closes(&self) -> Option<bool> {
        self.inputs_usable().then(|| self.variance().abs() <= self.tolerance)
    }

    /// The result's fields, with a placeholder for `movements`, which
    /// [`Outcome::listed_movements`] writes.
    fn to_json(&self) -> Map<String, Value> {
        object([
            ("arithmetic", ARITHMETIC.into()),
            ("opening_balance", wire_float(self.opening)),
            ("movements_net", wire_float(self.net())),
            ("expected_closing_balance", wire_float(self.expected_closing())),
            ("reported_closing_balance", wire_float(self.reported_closing)),
            ("variance", wire_float(self.variance())),
            ("absolute_variance", wire_float(self.variance().abs())),
            ("tolerance", wire_float(self.tolerance)),
            ("closes", self.closes().map_or(Value::Null, Value::Bool)),
            ("arithmetic_is_reliable", self.inputs_usable().into()),
            (
                "movement_counts",
                Value::Object(object([
                    ("total", self.movements.len().into()),
                    ("in", self.count_in.into()),
                    ("out", self.count_out.into()),
                    ("unreadable", self.rejected_movements.into()),
                ])),
            ),
            (
                "movement_totals",
                Value::Object(object([("in", wire_float(self.total_in)), ("out", wire_float(self.total_out))])),
            ),
            ("movements", Value::Null),
        ])
    }

    /// The movements the result lists, at most `cap` of them, written.
    fn listed_movements(&self, cap: Option<usize>) -> WrittenList {
        let listed = cap.map_or(self.movements.len(), |cap| cap.min(self.movements.len()));
        let mut text = Vec::new();
        let mut items = Vec::with_capacity(listed);
        for (at, movement) in self.movements[..listed].iter().enumerate() {
            if at == SAMPLED_MOVEMENTS {
                // Room for the rest at once, at the length of those so far
                // and an eighth more: a list of 100,000 movements no longer
                // grows (and is copied) a dozen times on its way to 14 MB.
                let rest = (listed - at).saturating_mul(text.len() / at);
                text.reserve(rest.saturating_add(rest / 8));
            }
            // A movement always serialises (its keys are strings).
            items.push(ListedItem::written(&mut text, |out| {
                json_write::write(out, movement).expect("a movement serialises");
            }));
        }
        WrittenList::new(items, text)
    }
}

fn balance_finding(code: &'static str, which: &str, side: &'static str, raw: &Value) -> Finding {
    Finding::new(code, Severity::Error, format!("{which} balance {} is not a finite number", repr(raw)))
        .at(Locator::side(side))
        .with_value(present(raw))
}

/// Check the arithmetic; `None` when `movements` is not an array (or null).
fn reconcile_arithmetic(
    opening_raw: &Value,
    (movements, movements_text): (&Value, Option<&RowsText>),
    closing_raw: &Value,
    tolerance: f64,
) -> Option<Outcome> {
    let opening = as_finite_number(opening_raw);
    let closing = as_finite_number(closing_raw);
    // Python's `opening or 0.0`: a missing or negative-zero balance becomes 0.0.
    let mut outcome = Outcome {
        opening: opening.filter(|x| *x != 0.0).unwrap_or(0.0),
        reported_closing: closing.filter(|x| *x != 0.0).unwrap_or(0.0),
        balances_readable: true,
        ..Outcome::default()
    };
    if opening.is_none() {
        outcome.balances_readable = false;
        outcome.findings.push(balance_finding(
            "opening_balance_not_numeric",
            "opening",
            "opening_balance",
            opening_raw,
        ));
    }
    if closing.is_none() {
        outcome.balances_readable = false;
        outcome.findings.push(balance_finding(
            "closing_balance_not_numeric",
            "closing",
            "closing_balance",
            closing_raw,
        ));
    }

    let mut tolerance = tolerance;
    if tolerance < 0.0 {
        outcome.findings.push(
            Finding::new(
                "tolerance_negative",
                Severity::Warning,
                format!("tolerance {} is negative; using its absolute value", format_g(tolerance)),
            )
            .at(Locator::side("tolerance"))
            .with_value(Some(wire_float(tolerance))),
        );
        tolerance = tolerance.abs();
    }
    outcome.tolerance = tolerance;

    let movements = match (movements_text, movements) {
        (Some(text), _) => Movements::Text(text),
        (None, Value::Null) => Movements::Tree(&[]),
        (None, Value::Array(items)) => Movements::Tree(items),
        (None, _) => return None,
    };
    let count = match movements {
        Movements::Tree(items) => items.len(),
        Movements::Text(text) => text.len(),
    };
    let mut layout = MovementLayout::default();
    for index in 0..count {
        let read = match movements {
            Movements::Tree(items) => parse_movement(&items[index], index),
            Movements::Text(text) => match text.row(index) {
                JsonRow::Value(raw) => parse_movement(&raw, index),
                JsonRow::Object(object) => {
                    match object.cells().and_then(|cells| movement_from_cells(&cells, &mut layout, index)) {
                        Some(movement) => Ok(movement),
                        None => parse_movement(&object.into_value(), index),
                    }
                }
            },
        };
        match read {
            Err(finding) => {
                outcome.findings.push(finding);
                outcome.rejected_movements += 1;
            }
            Ok(movement) => {
                match movement.direction {
                    Direction::In => {
                        outcome.count_in += 1;
                        outcome.total_in += movement.amount;
                    }
                    Direction::Out => {
                        outcome.count_out += 1;
                        outcome.total_out += movement.amount;
                    }
                }
                outcome.movements.push(movement);
            }
        }
    }

    if outcome.inputs_usable() {
        let diagnosis = diagnose_variance(&outcome);
        outcome.findings.extend(diagnosis);
    } else {
        let finding = unreliable_finding(&outcome);
        outcome.findings.push(finding);
    }
    Some(outcome)
}

/// Say plainly that no verdict is available, and which input caused that.
fn unreliable_finding(outcome: &Outcome) -> Finding {
    let mut reasons = Vec::new();
    if !outcome.balances_readable {
        reasons.push("an opening or closing balance could not be read as a number".to_owned());
    }
    if outcome.rejected_movements > 0 {
        reasons.push(format!("{} movement(s) could not be read", outcome.rejected_movements));
    }
    Finding::new(
        "arithmetic_unreliable",
        Severity::Error,
        format!(
            "{}, so every total below is computed from an incomplete set of inputs and no verdict is given",
            text::capitalize(&reasons.join("; "))
        ),
    )
    .at(Locator::side("movements"))
    .expecting("every balance and movement readable")
    .guide(
        "`closes` is null and `arithmetic_is_reliable` is false. Correct the inputs listed in `findings` and call \
again \u{2014} do not treat this as either a pass or a fail.",
    )
}

/// Turn a variance into checkable statements. The hints fire only when the
/// numbers are exactly consistent with one common cause, so they are
/// observations about arithmetic, not guesses about the business.
fn diagnose_variance(outcome: &Outcome) -> Vec<Finding> {
    let tolerance = outcome.tolerance;
    let variance = outcome.variance();
    let absolute = variance.abs();
    if absolute <= tolerance {
        return Vec::new();
    }

    let mut findings = vec![Finding::new(
        "does_not_close",
        Severity::Error,
        format!(
            "opening {} + movements {} = {}, but the closing balance given is {} \u{2014} a variance of {} (tolerance {})",
            money(outcome.opening),
            money(outcome.net()),
            money(outcome.expected_closing()),
            money(outcome.reported_closing),
            money(variance),
            format_g(tolerance)
        ),
    )
    .at(Locator::side("closing_balance"))
    .with_value(Some(wire_float(outcome.reported_closing)))
    .expecting(wire_float(outcome.expected_closing()))
    .guide(
        "Do not report the closing balance as verified. The variance is the size of the problem: locate it before \
trusting any figure in this period.",
    )];

    if let Some(movement) =
        outcome.movements.iter().find(|m| (absolute - m.amount).abs() <= tolerance && m.amount > 0.0)
    {
        findings.push(
            Finding::new(
                "variance_matches_single_movement",
                Severity::Warning,
                format!(
                    "the variance {} is exactly the size of movement #{} ({}, direction '{}')",
                    money(variance),
                    movement.index + 1,
                    money(movement.amount),
                    movement.direction.name()
                ),
            )
            .at(Locator::movement(movement.index))
            .guide(
                "Consistent with that movement being recorded with the wrong direction, or counted on both sides \
\u{2014} check it first.",
            ),
        );
    }

    let half = absolute / 2.0;
    if half > tolerance {
        if let Some(movement) =
            outcome.movements.iter().find(|m| (half - m.amount).abs() <= tolerance && m.amount > 0.0)
        {
            findings.push(
                Finding::new(
                    "variance_is_double_a_movement",
                    Severity::Warning,
                    format!(
                        "the variance {} is exactly twice movement #{} ({})",
                        money(variance),
                        movement.index + 1,
                        money(movement.amount)
                    ),
                )
                .at(Locator::movement(movement.index))
                .guide(
                    "Consistent with that movement being counted on both sides of the equation rather than once \
\u{2014} check it first.",
                ),
            );
        }
    }

    if outcome.net().abs() <= tolerance && variance.abs() > tolerance {
        findings.push(
            Finding::new(
                "movements_net_to_zero",
                Severity::Info,
                "the movements net to zero, so the variance equals the difference between the opening and closing balances",
            )
            .at(Locator::side("movements")),
        );
    }
    findings
}

/// A balance echoed into a rejection: kept when it was a JSON number or bool.
fn echo_number(raw: &Value) -> Value {
    match raw {
        Value::Number(_) | Value::Bool(_) => raw.clone(),
        _ => Value::Null,
    }
}

fn guidance(outcome: &Outcome) -> String {
    match outcome.closes() {
        Some(true) => format!(
            "The arithmetic closes: {} + {} = {}, matching the closing balance within the tolerance of {}. This \
confirms internal consistency, not that the movements are complete or correct.",
            money(outcome.opening),
            money(outcome.net()),
            money(outcome.expected_closing()),
            format_g(outcome.tolerance)
        ),
        Some(false) => format!(
            "The arithmetic does NOT close. Expected {}, got {} \u{2014} a variance of {} against a tolerance of {}. \
Do not report either balance as verified. Find the variance's cause before using any figure from this period; \
the findings list any single movement whose size matches the variance.",
            money(outcome.expected_closing()),
            money(outcome.reported_closing),
            money(outcome.variance()),
            format_g(outcome.tolerance)
        ),
        None => {
            let reason = outcome
                .findings
                .iter()
                .find(|finding| finding.code == "arithmetic_unreliable")
                .map_or("The inputs were incomplete.", |finding| finding.message.as_str());
            format!(
                "{reason} `closes` is null, which is neither a pass nor a fail. Correct the inputs listed in \
`findings` and call again before drawing any conclusion about this period."
            )
        }
    }
}

/// The `reconcile` tool.
pub(crate) fn reconcile(args: Arguments) -> Result<Output, ToolError> {
    // Kept as text, the movements are read one at a time; `null` is in
    // their place among the arguments.
    let mut args = args;
    let movements_text = args.movements.take();
    let mut reader = ArgReader::new(args.into_value())?;
    let opening = reader.any("opening_balance");
    let movements = reader.any("movements");
    let closing = reader.any("closing_balance");
    let tolerance = reader.float_or("tolerance", 0.01);
    let cap = reader.optional_cap("max_listed");
    reader.finish()?;

    let Some(outcome) = reconcile_arithmetic(&opening, (&movements, movements_text.as_ref()), &closing, tolerance)
    else {
        return Ok(Output::from(rejection_envelope(
            "reconcile",
            "arguments are malformed: opening_balance and closing_balance must be numbers (or numeric strings) \
and movements must be an array"
                .into(),
            "Re-issue the call as {\"opening_balance\": 1000.00, \"movements\": [{\"amount\": 250.0, \"direction\": \
\"in\"}], \"closing_balance\": 1250.00, \"tolerance\": 0.01}.",
            object([
                ("opening_balance", echo_number(&opening)),
                ("reported_closing_balance", echo_number(&closing)),
                ("closes", Value::Null),
                ("arithmetic_is_reliable", false.into()),
            ]),
        )));
    };

    // The outcome holds what it read of each movement: release the raw
    // movements (the largest thing a call holds) before the result is built.
    drop((movements, movements_text));
    let verdict = match outcome.closes() {
        None => verdict::INPUTS_REJECTED,
        Some(true) => verdict::CLEAN,
        Some(false) => verdict::DOES_NOT_CLOSE,
    };
    let guidance = guidance(&outcome);
    // `max_listed` caps the movements echoed and the findings (one per
    // unreadable movement can be many); the counts and sums cover them all.
    let mut abridgement = Abridgement::new(cap);
    abridgement.note(
        "movements",
        outcome.movements.len() - cap.map_or(outcome.movements.len(), |cap| cap.min(outcome.movements.len())),
    );
    let mut findings = outcome.findings.clone();
    let findings_omitted = cap_vec(&mut findings, cap);
    let movements_read = outcome.movements.len() + outcome.rejected_movements;
    if let Some(finding) = abridgement.finding_over(findings_omitted, movements_read, "movements") {
        findings.push(finding);
    }
    let payload = abridgement.annotate(outcome.to_json());
    let ok = outcome.closes() == Some(true);
    let result = abridged_envelope("reconcile", ok, verdict, &findings, findings_omitted, guidance, payload);
    Ok(result.with_list("movements", outcome.listed_movements(cap)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_direction_given_as_one_of_the_words_reads_as_its_folded_form_does() {
        // `parse_text` takes a word given exactly without folding it: right
        // only while each word is its own stripped, casefolded form.
        for word in IN_WORDS.iter().chain(&OUT_WORDS) {
            assert_eq!(text::casefold(text::strip(word)), *word);
        }
        // Given otherwise, the word is folded first (Python's
        // `str.strip().casefold()`): upper case, blank space, a non-ASCII
        // capital whose fold is not its lower case (U+1E9E folds to "ss").
        let cases = [
            ("in", Some("in")),
            (" IN\t", Some("in")),
            ("Credit", Some("in")),
            ("OUT", Some("out")),
            ("\u{a0}dr ", Some("out")),
            ("-", Some("out")),
            ("+", Some("in")),
            ("inflow ", Some("in")),
            ("outs", None),
            ("", None),
            ("\u{1e9e}", None),
        ];
        for (given, expected) in cases {
            assert_eq!(Direction::parse_text(given).map(Direction::name), expected, "{given:?}");
        }
    }
}
