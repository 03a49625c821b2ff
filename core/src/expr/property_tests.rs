//! Random expressions of bounded size, well-formed and not, never panic,
//! always finish, report errors inside the source, and evaluate to values
//! of the type the checker gave them (or null, for a blank read back).

use serde_json::{json, Value};

use super::tests::COLUMNS;
use super::{Expr, ExprValue, Operand};
use crate::coerce::{coerce, CellRef, Coerced, TypeFailure};

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const ATOMS: [&str; 30] = [
    "name",
    "amount",
    "qty",
    "paid",
    "start_date",
    "end_date",
    "created_at",
    "updated_at",
    "country",
    "extra",
    "row['first name']",
    "row.vat_number",
    "0",
    "1",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
    "1e308",
    "'a'",
    "'é'",
    "''",
    "true",
    "false",
    "null",
    "date('2024-01-01')",
    "timestamp('2024-01-01T00:00Z')",
    "timestamp('2024-01-01T00:00')",
    "double('NaN')",
    "has(row.country)",
];

const BINARY: [&str; 14] = ["==", "!=", "<", "<=", ">", ">=", "in", "+", "-", "*", "/", "%", "&&", "||"];

/// A well-formed (but not necessarily well-typed) expression.
fn expression(rng: &mut Rng, depth: usize, out: &mut String) {
    if depth == 0 || rng.below(4) == 0 {
        out.push_str(rng.pick(&ATOMS));
        return;
    }
    let sub = |rng: &mut Rng, out: &mut String| expression(rng, depth - 1, out);
    match rng.below(8) {
        0..=2 => {
            out.push('(');
            sub(rng, out);
            out.push(' ');
            out.push_str(rng.pick(&BINARY));
            out.push(' ');
            sub(rng, out);
            out.push(')');
        }
        3 => {
            out.push_str(rng.pick(&["!", "-", "!!", "--"]));
            sub(rng, out);
        }
        4 => {
            sub(rng, out);
            out.push_str(" ? ");
            sub(rng, out);
            out.push_str(" : ");
            sub(rng, out);
        }
        5 => {
            out.push('[');
            sub(rng, out);
            out.push_str(", ");
            sub(rng, out);
            out.push(']');
        }
        6 => {
            out.push_str(rng.pick(&["size(", "int(", "double(", "string("]));
            sub(rng, out);
            out.push(')');
        }
        _ => {
            out.push('(');
            sub(rng, out);
            out.push(')');
            let method = rng.pick(&[".size()", ".startsWith(", ".endsWith(", ".contains(", ".matches('^a+$')"]);
            out.push_str(method);
            if method.ends_with('(') {
                sub(rng, out);
                out.push(')');
            }
        }
    }
}

/// Fragments whose random concatenations probe the lexer and the parser.
const FRAGMENTS: [&str; 36] = [
    "(",
    ")",
    "[",
    "]",
    "'",
    "\"",
    "\\",
    "row",
    ".",
    "has(",
    "size(",
    "1",
    "-",
    "!",
    "&&",
    "||",
    "?",
    ":",
    "é",
    "😀",
    "'''",
    "r'",
    "0x",
    "1e",
    "u",
    "in",
    "//",
    "\n",
    " ",
    ",",
    "name",
    "qty",
    "'\\u",
    "==",
    "9999999999999999999",
    "matches('",
];

/// Values for a column of each type, valid, invalid and blank.
fn cell_text(rng: &mut Rng, column: usize) -> Option<Value> {
    let pool: &[&str] = match COLUMNS[column].1 {
        super::ColumnType::Number => &["1.5", "0", "-3", "nan", "inf", "abc"],
        super::ColumnType::Integer => &["1", "0", "-9223372036854775808", "18446744073709551616", "2.5"],
        super::ColumnType::Boolean => &["true", "no", "maybe"],
        super::ColumnType::Date => &["2024-01-01", "20240229", "2024-13-01"],
        super::ColumnType::Datetime => &["2024-01-01T10:00+02:00", "2024-01-01T08:00", "0001-01-01T00:00+05:00", "x"],
        _ => &["a", "é😀", "", "  ", "DE123456789"],
    };
    match rng.below(5) {
        0 => None,
        1 if COLUMNS[column].1 == super::ColumnType::Any => {
            Some([json!(5), json!(2.5), json!(true), json!([1]), json!(null)][rng.below(5)].clone())
        }
        _ => Some(Value::String(pool[rng.below(pool.len())].to_owned())),
    }
}

/// Whether `value` may be the value of an expression of static type `type_name`.
fn fits(value: &ExprValue, type_name: &str) -> bool {
    matches!(
        (type_name, value),
        ("dyn", _)
            | (_, ExprValue::Null)
            | ("bool", ExprValue::Bool(_))
            | ("int", ExprValue::Int(_))
            | ("double", ExprValue::Double(_))
            | ("string", ExprValue::Text(_))
            | ("date", ExprValue::Date(_))
            | ("timestamp", ExprValue::Datetime { .. })
            | ("list", ExprValue::List(_))
    )
}

fn exercise(source: &str, rng: &mut Rng) -> bool {
    let expr = match Expr::compile(source, &COLUMNS) {
        Ok(expr) => expr,
        Err(err) => {
            assert!(err.position <= source.len(), "{source:?}: position {} past the end", err.position);
            assert!(!err.message.is_empty());
            return false;
        }
    };
    for _ in 0..4 {
        let values: Vec<Option<Value>> = (0..COLUMNS.len()).map(|column| cell_text(rng, column)).collect();
        let coerced: Vec<Option<Result<Coerced<'_>, TypeFailure>>> = values
            .iter()
            .zip(COLUMNS)
            .map(|(value, (_, column_type))| {
                let cell = CellRef::of_json(value.as_ref());
                (!cell.is_blank()).then(|| coerce(cell, column_type))
            })
            .collect();
        let cell = |index: usize| match &coerced[index] {
            None => Operand::Blank,
            Some(Ok(value)) => Operand::Value(value),
            Some(Err(_)) => Operand::Invalid,
        };
        if let Ok(value) = expr.eval(&cell) {
            let type_name = expr.result_type_name();
            assert!(fits(&value, type_name), "{source}: {value:?} is not a {type_name}");
        }
    }
    true
}

#[test]
fn random_expressions_never_panic_and_keep_their_types() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut compiled = 0;
    for round in 0..4000 {
        let mut source = String::new();
        expression(&mut rng, 1 + round % 7, &mut source);
        compiled += usize::from(exercise(&source, &mut rng));
    }
    // The generator is not vacuous: a good share of its expressions type-check.
    assert!(compiled > 400, "only {compiled} compiled");
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..6000 {
        let count = 1 + rng.below(24);
        let source: String = (0..count).map(|_| rng.pick(&FRAGMENTS)).collect();
        exercise(&source, &mut rng);
    }
}

#[test]
fn the_largest_expressions_compile_and_run_quickly() {
    // 4096 bytes of the widest shapes: a flat list, a long || chain, deep nesting.
    let list = format!("name in [{}]", vec!["name"; 500].join(", "));
    let chain = vec!["size(name) < 1"; 200].join(" || ");
    let deep = format!("{}name{}", "string(size(".repeat(15), "))".repeat(15));
    let long_text = "é".repeat(100_000);
    let value = Coerced::Text(&long_text);
    let cell = |index: usize| if index == 0 { Operand::Value(&value) } else { Operand::Blank };
    for (source, expected) in [
        (list, ExprValue::Bool(true)),
        (chain, ExprValue::Bool(false)),
        // size() of the text, then of its digits: '100000' has 6, '6' has 1, ...
        (deep, ExprValue::Text("1".into())),
    ] {
        assert!(source.len() <= super::MAX_LENGTH, "{}", source.len());
        let expr = Expr::compile(&source, &COLUMNS).unwrap_or_else(|err| panic!("{err:?}"));
        assert_eq!(expr.eval(&cell), Ok(expected));
    }
}
