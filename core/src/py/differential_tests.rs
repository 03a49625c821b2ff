//! The Rust half of `core/cpython/differential_py.py` (dev-only, ignored by default).
//!
//! Reads the cases `CPython` answered (path in `PY_DIFF_CASES`), recomputes each
//! one with this crate and fails if any answer differs. Nothing here runs
//! unless the script asks for it, so CI never needs Python.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

use super::format::{format_2f, format_g, format_grouped_2f, round_to};
use super::number::{parse_float, parse_int};
use super::repr::{repr, repr_float, repr_str, str_of, type_name};
use super::text::{capitalize, casefold, is_printable, is_space, strip};

/// Mismatches shown per function before the rest are only counted.
const SHOWN_PER_FUNCTION: usize = 10;

/// Per-function tally of agreements and disagreements.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<String, (usize, usize)>,
}

impl Tally {
    /// Record one comparison; print it if it is one of the first few failures.
    fn check(&mut self, function: &str, input: &Value, got: &str, want: &str) {
        let entry = self.counts.entry(function.to_owned()).or_default();
        if got == want {
            entry.0 += 1;
            return;
        }
        entry.1 += 1;
        if entry.1 <= SHOWN_PER_FUNCTION {
            println!("MISMATCH {function}({input}): rust {got:?} python {want:?}");
        }
    }

    /// Print the per-function counts and return the number of disagreements.
    fn report(&self) -> usize {
        for (function, (agree, disagree)) in &self.counts {
            println!("{function:>18}: {agree:>8} agree, {disagree} differ");
        }
        self.counts.values().map(|&(_, disagree)| disagree).sum()
    }
}

/// A float from the hex of its bits, as the script writes it.
fn float_from_hex(hex: &Value) -> f64 {
    f64::from_bits(u64::from_str_radix(hex.as_str().expect("hex string"), 16).expect("hex"))
}

/// A float as comparable text: its bits, with every NaN of one sign the same.
fn float_key(x: f64) -> String {
    if x.is_nan() {
        format!("nan{}", if x.is_sign_negative() { "-" } else { "+" })
    } else {
        format!("{:016x}", x.to_bits())
    }
}

/// Rebuild a `serde_json::Value` from the script's tagged form.
fn untag(node: &Value) -> Value {
    let parts = node.as_array().expect("tagged node");
    let payload = parts.get(1);
    match parts[0].as_str().expect("tag") {
        "n" => Value::Null,
        "b" => payload.expect("bool").clone(),
        "i" => {
            let text = payload.and_then(Value::as_str).expect("int text");
            let number = text.parse::<i64>().map(Number::from).or_else(|_| text.parse::<u64>().map(Number::from));
            Value::Number(number.expect("64-bit int"))
        }
        "f" => Value::Number(Number::from_f64(float_from_hex(payload.expect("bits"))).expect("finite")),
        "s" => payload.expect("str").clone(),
        "l" => Value::Array(payload.and_then(Value::as_array).expect("items").iter().map(untag).collect()),
        "d" => {
            let mut map = Map::new();
            for pair in payload.and_then(Value::as_array).expect("pairs") {
                map.insert(pair[0].as_str().expect("key").to_owned(), untag(&pair[1]));
            }
            Value::Object(map)
        }
        other => panic!("unknown tag {other}"),
    }
}

/// Python's answer for `int(s)` as comparable text.
fn int_expectation(want: &Value) -> String {
    match want {
        Value::Null => "None".to_owned(),
        Value::String(text) if text == "overflow" => "None".to_owned(),
        Value::Object(map) if map.contains_key("int") => map["int"].as_str().expect("digits").to_owned(),
        Value::Object(map) => format!("float {}", float_key(float_from_hex(&map["float"]))),
        other => panic!("bad int expectation {other}"),
    }
}

/// This crate's answer for `int(s)` in the same form.
fn int_answer(got: Option<Number>) -> String {
    match got {
        None => "None".to_owned(),
        Some(n) if n.is_i64() || n.is_u64() => n.to_string(),
        Some(n) => format!("float {}", float_key(n.as_f64().expect("float"))),
    }
}

/// Compare one per-code-point predicate over every scalar value.
fn check_code_points(tally: &mut Tally, name: &str, bits: &str, predicate: fn(char) -> bool) {
    for (cp, flag) in bits.chars().enumerate() {
        let Some(c) = char::from_u32(cp as u32) else {
            continue;
        };
        let want = if flag == '1' { "true" } else { "false" };
        tally.check(name, &Value::from(cp), &predicate(c).to_string(), want);
    }
}

/// `casefold` on every code point: the listed ones map as given, all others to themselves.
fn check_casefold_table(tally: &mut Tally, pairs: &[Value]) {
    let folded: BTreeMap<u32, &str> =
        pairs.iter().map(|pair| (pair[0].as_u64().expect("cp") as u32, pair[1].as_str().expect("folded"))).collect();
    for c in (0..0x11_0000).filter_map(char::from_u32) {
        let own = c.to_string();
        let want = folded.get(&u32::from(c)).copied().unwrap_or(&own);
        tally.check("casefold_cp", &Value::from(u32::from(c)), &casefold(&own), want);
    }
}

/// Recompute one case and record the comparison.
fn check_case(tally: &mut Tally, case: &Value) {
    let function = case["f"].as_str().expect("function name");
    let input = &case["in"];
    let want = &case["out"];
    let text_in = || input.as_str().expect("str input");
    let text_want = || want.as_str().expect("str output").to_owned();
    match function {
        "strip" => tally.check(function, input, strip(text_in()), &text_want()),
        "casefold" => tally.check(function, input, &casefold(text_in()), &text_want()),
        "repr_str" => tally.check(function, input, &repr_str(text_in()), &text_want()),
        "capitalize" => tally.check(function, input, &capitalize(text_in()), &text_want()),
        "value" => {
            let value = untag(input);
            tally.check("repr", input, &repr(&value), want["repr"].as_str().expect("repr"));
            tally.check("str_of", input, &str_of(&value), want["str"].as_str().expect("str"));
            tally.check("type_name", input, type_name(&value), want["type"].as_str().expect("type"));
        }
        "repr_float" => tally.check(function, input, &repr_float(float_from_hex(input)), &text_want()),
        "format_g" => tally.check(function, input, &format_g(float_from_hex(input)), &text_want()),
        "format_2f" => tally.check(function, input, &format_2f(float_from_hex(input)), &text_want()),
        "format_grouped_2f" => {
            tally.check(function, input, &format_grouped_2f(float_from_hex(input)), &text_want());
        }
        "round_to" => {
            let ndigits = i32::try_from(input[1].as_i64().expect("ndigits")).expect("small ndigits");
            let x = float_from_hex(&input[0]);
            let got = round_to(x, ndigits);
            // Where Python raises OverflowError, round_to documents an infinity instead.
            let (got, want) = if want == "overflow" {
                (float_key(got), float_key(f64::INFINITY.copysign(x)))
            } else {
                (float_key(got), float_key(float_from_hex(want)))
            };
            tally.check(function, input, &got, &want);
        }
        "parse_float" => {
            let got = parse_float(text_in()).map_or_else(|| "None".to_owned(), float_key);
            let want = if want.is_null() { "None".to_owned() } else { float_key(float_from_hex(want)) };
            tally.check(function, input, &got, &want);
        }
        "parse_int" => tally.check(function, input, &int_answer(parse_int(text_in())), &int_expectation(want)),
        other => panic!("unknown function {other}"),
    }
}

#[test]
#[ignore = "needs the cases file written by core/cpython/differential_py.py"]
fn python_differential() {
    let path = std::env::var("PY_DIFF_CASES").expect("set PY_DIFF_CASES to the cases file");
    let text = std::fs::read_to_string(&path).expect("read the cases file");
    let data: Value = serde_json::from_str(&text).expect("cases file is JSON");
    let mut tally = Tally::default();
    // The exhaustive per-code-point sections are optional, so a hand-made file of cases also works.
    if let Some(bits) = data["space_bits"].as_str() {
        check_code_points(&mut tally, "is_space", bits, is_space);
    }
    if let Some(bits) = data["printable_bits"].as_str() {
        check_code_points(&mut tally, "is_printable", bits, is_printable);
    }
    if let Some(pairs) = data["casefold_map"].as_array() {
        check_casefold_table(&mut tally, pairs);
    }
    for case in data["cases"].as_array().expect("cases") {
        check_case(&mut tally, case);
    }
    let disagreements = tally.report();
    assert_eq!(disagreements, 0, "the Rust functions disagree with CPython");
}
