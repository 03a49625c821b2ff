//! The subset's behaviour, each expectation reasoned from CEL's langdef (or
//! from this subset's documented deviation) in the comment beside it.

use serde_json::{json, Value};

use super::{ColumnType, EvalError, Expr, ExprError, ExprValue, Operand, MAX_LENGTH};
use crate::coerce::{coerce, CellRef, Coerced, TypeFailure};

pub(super) const COLUMNS: [(&str, ColumnType); 12] = [
    ("name", ColumnType::String),
    ("amount", ColumnType::Number),
    ("qty", ColumnType::Integer),
    ("paid", ColumnType::Boolean),
    ("start_date", ColumnType::Date),
    ("end_date", ColumnType::Date),
    ("created_at", ColumnType::Datetime),
    ("updated_at", ColumnType::Datetime),
    ("country", ColumnType::String),
    ("vat_number", ColumnType::String),
    ("extra", ColumnType::Any),
    ("first name", ColumnType::String),
];

fn compile(source: &str) -> Expr {
    Expr::compile(source, &COLUMNS).unwrap_or_else(|err| panic!("{source}: {err:?}"))
}

fn compile_error(source: &str) -> ExprError {
    match Expr::compile(source, &COLUMNS) {
        Ok(_) => panic!("{source}: compiled"),
        Err(err) => err,
    }
}

/// Evaluate on a row given as JSON cells by column name; the others are absent.
fn run_json(source: &str, cells: &[(&str, Value)]) -> Result<ExprValue, EvalError> {
    let expr = compile(source);
    let values: Vec<Option<&Value>> =
        COLUMNS.iter().map(|(name, _)| cells.iter().find(|(n, _)| n == name).map(|(_, v)| v)).collect();
    let coerced: Vec<Option<Result<Coerced<'_>, TypeFailure>>> = values
        .iter()
        .zip(COLUMNS)
        .map(|(value, (_, column_type))| {
            let cell = CellRef::of_json(*value);
            (!cell.is_blank()).then(|| coerce(cell, column_type))
        })
        .collect();
    let cell = |index: usize| match &coerced[index] {
        None => Operand::Blank,
        Some(Ok(value)) => Operand::Value(value),
        Some(Err(_)) => Operand::Invalid,
    };
    expr.eval(&cell)
}

/// Evaluate on a row of text cells (as a CSV record gives them).
fn run(source: &str, cells: &[(&str, &str)]) -> Result<ExprValue, EvalError> {
    let cells: Vec<(&str, Value)> = cells.iter().map(|(n, v)| (*n, Value::String((*v).to_owned()))).collect();
    run_json(source, &cells)
}

fn holds(source: &str, cells: &[(&str, &str)]) -> bool {
    match run(source, cells) {
        Ok(ExprValue::Bool(b)) => b,
        other => panic!("{source}: {other:?}"),
    }
}

fn fails(source: &str, cells: &[(&str, &str)]) -> String {
    match run(source, cells) {
        Err(err) => err.message,
        other => panic!("{source}: expected an error, got {other:?}"),
    }
}

#[test]
fn precedence_and_associativity_are_cels() {
    // * binds tighter than +, and + tighter than ==.
    assert!(holds("1 + 2 * 3 == 7", &[]));
    assert!(holds("(1 + 2) * 3 == 9", &[]));
    // - and / are left-associative: (10 - 4) - 3, (100 / 10) / 5.
    assert!(holds("10 - 4 - 3 == 3 && 100 / 10 / 5 == 2", &[]));
    // && binds tighter than ||: true || (false && false).
    assert!(holds("true || false && false", &[]));
    // ! binds tighter than ||: (!true) || true.
    assert!(holds("!true || true", &[]));
    // Relations are left-associative: (2 < 3) == true.
    assert!(holds("2 < 3 == true", &[]));
    // Unary minus binds tighter than *: (-2) * 3.
    assert!(holds("-2 * 3 == -6", &[]));
    // ?: is right-associative and lowest: false ? 1 : (true ? 2 : 3).
    assert!(holds("(false ? 1 : true ? 2 : 3) == 2", &[]));
    // Int division truncates toward zero; % takes the dividend's sign.
    assert!(holds("-7 / 2 == -3 && -7 % 3 == -1 && 7 % 3 == 1", &[]));
    // A unary minus applies to the member: -(x.size()).
    assert!(holds("-'ab'.size() == -2", &[]));
    // `//` starts a comment to the end of the line.
    assert!(holds("1 == 1 // always\n && true", &[]));
}

#[test]
fn logical_operators_absorb_errors_as_cel_says() {
    // qty is blank, so `qty > 1` is the error "no value".
    assert!(!holds("false && qty > 1", &[]));
    // Commutative: the error on the left is absorbed by false on the right.
    assert!(!holds("qty > 1 && false", &[]));
    assert!(holds("true || qty > 1", &[]));
    assert!(holds("qty > 1 || true", &[]));
    assert!(holds("1 / 0 == 1 || true", &[]));
    // Nothing decides, so the error stands.
    assert!(fails("true && qty > 1", &[]).contains("no value: column 'qty' is blank"));
    assert_eq!(fails("false || 1 / 0 == 1", &[]), "division by zero");
    // The untaken branch of ?: is not evaluated.
    assert_eq!(run("true ? 1 : 1 / 0", &[]), Ok(ExprValue::Int(1)));
    // A non-bool from a dyn operand is an error that false still absorbs.
    assert!(!holds("extra && false", &[("extra", "text")]));
    assert!(fails("extra || false", &[("extra", "text")]).contains("'||' takes bool operands, not string"));
}

#[test]
fn ints_and_doubles_compare_as_numbers() {
    // CEL's heterogeneous equality and ordering: 1 == 1.0, 2 < 2.5.
    assert!(holds("1 == 1.0 && 2 < 2.5 && 3.0 >= 3", &[]));
    assert!(holds("qty == amount", &[("qty", "3"), ("amount", "3.0")]));
    assert!(holds("amount > qty", &[("qty", "3"), ("amount", "3.5")]));
    // Exact, not through a double: 2^53 + 1 is above the double 2^53.
    assert!(holds("9007199254740993 > 9007199254740992.0", &[]));
    assert!(holds("9007199254740993 != 9007199254740992.0", &[]));
    // 1.0 / 0.0 is +infinity (IEEE), above every int.
    assert!(holds("1.0 / 0.0 > 9223372036854775807", &[]));
    // NaN equals nothing, itself included, and orders with nothing.
    assert!(holds("double('NaN') != double('NaN')", &[]));
    assert!(!holds("double('NaN') < 1 || double('NaN') >= 1", &[]));
    // A number column is a double even when the JSON held an integer.
    assert_eq!(run_json("amount", &[("amount", json!(5))]), Ok(ExprValue::Double(5.0)));
    assert!(holds("double(qty) * amount == 7.5", &[("qty", "3"), ("amount", "2.5")]));
}

#[test]
fn dates_compare_as_dates() {
    // Chronologically, 2024-02-01 is after 20240115 (2024-01-15), though as text
    // "2024-02-01" < "20240115" ('-' sorts before '0').
    let row = [("start_date", "20240115"), ("end_date", "2024-02-01")];
    assert!(holds("end_date >= start_date", &row));
    assert!(holds("end_date > start_date && start_date == date('2024-01-15')", &row));
    assert!(!holds("end_date > date('2024-02-01')", &row));
    // A date column holding a datetime's text keeps its date, as the coercion does.
    assert!(holds("start_date == date('2024-01-15T23:59')", &[("start_date", "2024-01-15T10:00")]));
    assert_eq!(run("start_date", &row), Ok(ExprValue::Date(crate::py::isodate::date_ordinal(2024, 1, 15))));
}

#[test]
fn datetimes_compare_by_instant() {
    // 10:00+02:00 is 08:00 UTC, before 08:30 UTC (by the clock, 10:00 would be after).
    let row = [("created_at", "2024-01-01T10:00:00+02:00"), ("updated_at", "2024-01-01T08:30:00Z")];
    assert!(holds("updated_at > created_at", &row));
    assert!(holds("created_at == timestamp('2024-01-01T08:00:00+00:00')", &row));
    assert!(holds("created_at < timestamp('2024-01-01T09:00:00Z')", &row));
    // Naive datetimes compare by their clock, with each other only.
    assert!(holds(
        "created_at < updated_at",
        &[("created_at", "2024-01-01T10:00"), ("updated_at", "2024-01-01T11:00")]
    ));
    let mixed = [("created_at", "2024-01-01T10:00"), ("updated_at", "2024-01-01T08:00Z")];
    assert!(fails("updated_at > created_at", &mixed).contains("naive datetime with an aware one"));
    assert!(fails("updated_at == created_at", &mixed).contains("naive datetime with an aware one"));
    // string() writes Python's isoformat of the UTC instant.
    assert!(holds("string(created_at) == '2024-01-01T08:00:00+00:00'", &row));
    assert!(holds("string(date('2024-W01-1')) == '2024-01-01'", &[]));
}

#[test]
fn blank_cells_are_null_and_no_value() {
    assert!(holds("country == null && !(country != null)", &[]));
    // Whitespace is blank too (str.strip() empties it).
    assert!(holds("country == null", &[("country", "  ")]));
    assert!(!holds("name == null", &[("name", "x")]));
    assert!(holds("null == null", &[]));
    assert_eq!(fails("country == 'DE'", &[]), "no value: column 'country' is blank");
    assert!(fails("vat_number == country", &[]).contains("no value"));
    assert!(fails("size(country) > 0", &[]).contains("no value"));
    assert!(fails("-qty < 0", &[]).contains("no value"));
    // has() tests blankness; `in` a list holding null accepts a blank.
    assert!(!holds("has(row.country)", &[]));
    assert!(holds("has(row['first name'])", &[("first name", "Ada")]));
    assert!(holds("country in ['DE', null]", &[]));
    assert!(fails("country in ['DE']", &[]).contains("no value"));
    // The guard decides before the blank is read: `false && error` is false.
    assert!(!holds("country != null && country == 'DE'", &[]));
    assert!(holds("country != null && country == 'DE'", &[("country", "DE")]));
    // A cell whose coercion failed is not blank, but has no value to read.
    assert!(holds("has(row.amount)", &[("amount", "abc")]));
    assert_eq!(fails("amount > 0", &[("amount", "abc")]), "column 'amount' holds no valid number value");
    // The blank comes back as the result when nothing operates on it.
    assert_eq!(run("qty", &[]), Ok(ExprValue::Null));
}

#[test]
fn in_tests_membership_by_equality() {
    assert!(holds("country in ['DE', 'FR']", &[("country", "FR")]));
    assert!(!holds("country in ['DE', 'FR']", &[("country", "IT")]));
    // 2 == 2.0, so 2 is in [1, 2.0, 3].
    assert!(holds("qty in [1, 2.0, 3]", &[("qty", "2")]));
    assert!(!holds("'a' in []", &[]));
    assert!(holds("[1, 2] + [3] == [1, 2, 3] && size([1, 'a']) == 2", &[]));
    assert!(holds("['a', 1] != ['a', 2]", &[]));
}

#[test]
fn string_functions_count_characters() {
    // CEL strings are code points: 'é' is one, '日本' two, '😀' one.
    assert!(holds("size('é') == 1 && size('日本') == 2 && '😀'.size() == 1", &[]));
    let row = [("name", "José")];
    assert!(holds("size(name) == 4 && name.startsWith('Jo') && name.endsWith('é') && name.contains('os')", &row));
    assert!(!holds("name.startsWith('é')", &row));
    // Escapes denote code points: \xe9, \351 (octal 233) and \u00e9 are all é.
    assert!(holds(r#"'\u00e9' == 'é' && "\xe9" == 'é' && '\351' == 'é'"#, &[]));
    assert!(holds(r"'\U0001F600' == '😀' && '\uD83D\uDE00' == '😀'", &[]));
    assert!(holds(r#"r'\d' == '\\d' && '''a'b''' == "a'b""#, &[]));
    // Strings order by code point: 'Z' < 'a' < 'z' < 'é'.
    assert!(holds("'Z' < 'a' && 'a' < 'z' && 'z' < 'é'", &[]));
    assert!(holds("name + '!' == 'José!'", &row));
    assert!(holds("string(3) == '3' && string(2.0) == '2.0' && string(true) == 'true'", &[]));
    assert!(holds("int('42') == 42 && int(-2.7) == -2 && double('1e3') == 1000.0", &[]));
    assert!(fails("int('4.5') == 4", &[]).contains("not an integer"));
    assert!(fails("int(1e19) > 0", &[]).contains("out of int's range"));
}

#[test]
fn matches_searches_with_re2_syntax() {
    let row = [("name", "José"), ("vat_number", "DE123456789")];
    // CEL's matches is a search: 'os' is found inside 'José'.
    assert!(holds("name.matches('os') && matches(name, '^J')", &row));
    assert!(!holds("name.matches('^os$')", &row));
    assert!(holds(r"vat_number.matches(r'^DE\d{9}$')", &row));
    // RE2's \d is ASCII: Arabic-Indic digits are not digits to it.
    assert!(!holds(r"vat_number.matches('^DE\\d{9}$')", &[("vat_number", "DE١٢٣٤٥٦٧٨٩")]));
}

#[test]
fn integers_overflow_into_errors() {
    assert!(fails("9223372036854775807 + 1 > 0", &[]).contains("integer overflow"));
    assert!(fails("-9223372036854775807 - 2 < 0", &[]).contains("integer overflow"));
    // -9223372036854775808 is a literal; its negation overflows.
    assert!(holds("-9223372036854775808 == -9223372036854775807 - 1", &[]));
    assert!(fails("-(-9223372036854775808) > 0", &[]).contains("integer overflow"));
    assert!(fails("-9223372036854775808 / -1 < 0", &[]).contains("integer overflow"));
    assert_eq!(fails("5 % 0 == 0", &[]), "division by zero");
    // An integer cell beyond 64 bits cannot be read as CEL's int.
    assert!(fails("qty > 0", &[("qty", "18446744073709551616")]).contains("beyond the 64-bit range"));
}

#[test]
fn any_columns_are_dyn() {
    assert_eq!(run_json("extra > 4", &[("extra", json!(5))]), Ok(ExprValue::Bool(true)));
    assert_eq!(run_json("extra == 'x'", &[("extra", json!("x"))]), Ok(ExprValue::Bool(true)));
    // Different runtime types are unequal (heterogeneous equality), not an error.
    assert_eq!(run_json("extra == 5", &[("extra", json!("5"))]), Ok(ExprValue::Bool(false)));
    let message = run_json("extra + 1 > 0", &[("extra", json!("x"))]).unwrap_err().message;
    assert_eq!(message, "no '+' for string and int");
    let message = run_json("extra == 1", &[("extra", json!([1]))]).unwrap_err().message;
    assert!(message.contains("holds a JSON list"), "{message}");
    assert_eq!(run_json("extra", &[("extra", json!(true))]), Ok(ExprValue::Bool(true)));
}

#[test]
fn compile_errors_point_at_the_problem() {
    let at = |source: &str| {
        let err = compile_error(source);
        (err.position, err.message)
    };
    let (position, message) = at("amout > 0");
    assert_eq!(position, 0);
    assert_eq!(message, "no column is named 'amout'; the nearest is 'amount'");
    assert_eq!(at("qty > 0 && row.amout > 1").0, 15);
    let (position, message) = at("row[\"frist name\"] == ''");
    assert_eq!(position, 4);
    assert!(message.contains("'first name'"), "{message}");
    // Mixed types that can never compare: at the operator.
    assert_eq!(at("name < 3"), (5, "'<' compares string and int, which have no order between them".into()));
    assert_eq!(at("name == 3").0, 5);
    assert_eq!(at("start_date < created_at").0, 11);
    assert_eq!(at("country in [1, 2]").0, 8);
    assert_eq!(at("amount * 2 > 1").0, 7);
    assert!(at("amount * 2 > 1").1.contains("does not mix int and double"));
    assert_eq!(at("paid && name").0, 8);
    // Strings: at the opening quote.
    assert_eq!(at("name == 'abc").0, 8);
    assert_eq!(at("name == 'a\nb'").0, 8);
    assert_eq!(at("r\"abc"), (0, "unterminated string: no closing quote".into()));
    assert_eq!(at(r"'\q' == ''").0, 1);
    // Syntax outside the subset.
    assert_eq!(at("qty == 1u").0, 7);
    assert_eq!(at("[1].all(x, x > 0)").0, 4);
    assert!(at("[1].all(x, x > 0)").1.contains("loops"));
    assert_eq!(at("{'a': 1}").0, 0);
    assert_eq!(at("name = 'x'").0, 5);
    assert_eq!(at("for == 1").0, 0);
    assert_eq!(at("name.matches(country)").0, 13);
    assert_eq!(at("name.matches('(')").0, 13);
    assert_eq!(at("date('2024-13-01') > start_date").0, 5);
    assert_eq!(at("1 +").0, 3);
    assert_eq!(at("9223372036854775808 > 0").0, 0);
    assert_eq!(at("row == 1").0, 0);
    assert_eq!(at("name.first").0, 5);
}

#[test]
fn limits_are_refused_with_their_position() {
    // 32 parentheses are allowed; the 33rd '(' (at byte 32) is refused.
    let nested = |n: usize| format!("{}true{}", "(".repeat(n), ")".repeat(n));
    assert!(Expr::compile(&nested(32), &COLUMNS).is_ok());
    let err = compile_error(&nested(33));
    assert_eq!(err.position, 32);
    assert_eq!(err.message, "the expression nests deeper than 32 levels");
    // 32 operators within one another are allowed; the outermost of 33 is refused.
    assert!(Expr::compile(&format!("{}true", "!".repeat(32)), &COLUMNS).is_ok());
    assert_eq!(compile_error(&format!("{}true", "!".repeat(33))).position, 0);
    // A chain of 33 '+' nests 33 deep: refused at the last '+', byte 65.
    let chain = |n: usize| format!("1{} > 0", "+1".repeat(n));
    assert!(Expr::compile(&chain(31), &COLUMNS).is_ok());
    assert_eq!(compile_error(&chain(33)).position, 65);
    // A chain of && or || is one level, however long.
    let alternatives = vec!["qty == 1"; 200].join(" || ");
    assert!(Expr::compile(&alternatives, &COLUMNS).is_ok());
    // Length: at most 4096 bytes.
    let sized = |n: usize| format!("name == '{}'", "x".repeat(n - 10));
    assert!(Expr::compile(&sized(MAX_LENGTH), &COLUMNS).is_ok());
    let err = compile_error(&sized(MAX_LENGTH + 1));
    assert_eq!(err.position, MAX_LENGTH);
    assert!(err.message.contains("4097 bytes long"), "{}", err.message);
}

#[test]
fn result_types_and_columns_read() {
    // A check must be boolean: `amount + 1.0` is a double.
    let sum = compile("amount + 1.0");
    assert!(!sum.is_boolean());
    assert_eq!(sum.result_type_name(), "double");
    // dyn may be a bool at run time.
    assert!(compile("extra").is_boolean());
    assert!(compile("end_date >= start_date").is_boolean());
    // Columns in order of first use, each once; has() reads too.
    let expr = compile("end_date >= start_date && has(row.country) && end_date != null");
    assert_eq!(expr.columns_read(), &[5, 4, 8]);
    assert_eq!(compile("row['first name'] == name").columns_read(), &[11, 0]);
}
