//! Row-rule expressions: a subset of [CEL], the Common Expression Language,
//! typed by the contract and evaluated on one row at a time.
//!
//! A row rule such as `{"name": "ends_after_start", "check": "end_date >=
//! start_date"}` or `{"check": "vat_number != ''", "when": "country in ['DE',
//! 'FR']"}` is compiled once per call ([`Expr::compile`]) against the
//! contract's columns and then evaluated on each row ([`Expr::eval`]). The
//! syntax and semantics are CEL's (langdef), restricted as below; the
//! language is safe by construction: it has no loops, an expression is at
//! most [`MAX_LENGTH`] bytes and nests at most [`MAX_DEPTH`] levels (both
//! refused at compile time with the position), every node is evaluated at
//! most once, and regular expressions run in linear time. So evaluating a
//! row takes time linear in the expression and the values it reads, and
//! recursion never goes deeper than the limit.
//!
//! [CEL]: https://github.com/google/cel-spec/blob/master/doc/langdef.md
//!
//! # The subset
//!
//! | CEL feature | in row rules |
//! | --- | --- |
//! | int literals `42`, `0x2A`, `-9223372036854775808` | yes |
//! | double literals `1.5`, `.5`, `1e3`, `2.5e-3` | yes |
//! | string literals `'a'`, `"a"`, `'''a'''`, `r'\d'`, with CEL's escapes (`\n`, `\x41`, `\u00e9`, `\U0001F600`, `\101`, …) | yes |
//! | `true`, `false`, `null` | yes |
//! | list literals `[a, b]` | yes (for `in`, `size`, `+`) |
//! | uint `1u`, bytes `b'a'`, maps `{k: v}`, messages `M{f: v}` | no |
//! | names | a column of the contract, by name: `amount`; any column as `row.amount` or `row["first name"]` (`row` is the whole row, indexed only by a string literal) |
//! | field selection `a.b`, indexing `a[i]`, leading-dot names `.a` | only `row.c` and `row["c"]` |
//! | `?:`, `\|\|`, `&&`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `+`, `-`, `*`, `/`, `%`, unary `!` and `-`, `( )` | yes, with CEL's precedence and associativity |
//! | `size(x)`, `x.size()` | strings (characters, as Python's `len`) and lists |
//! | `x.startsWith(s)`, `x.endsWith(s)`, `x.contains(s)` | yes |
//! | `x.matches(re)`, `matches(x, re)` | `re` must be a string literal: RE2 syntax, a search (anchor with `^…$`), linear time |
//! | `has(e.f)` | `has(row.c)` or `has(row["c"])`: whether the cell is not blank |
//! | `int(x)`, `double(x)`, `string(x)` | from int, double, string (and, for `string`, bool, date, timestamp) |
//! | `timestamp(s)` | `s` must be a string literal, read by Python's `datetime.fromisoformat` |
//! | `date(s)` (not CEL) | `s` a string literal, read as a `date` column is: `date.fromisoformat`, else the date of `datetime.fromisoformat` |
//! | macros `all`, `exists`, `exists_one`, `map`, `filter` | no: they loop |
//! | `type()`, `dyn()`, `duration()`, `uint()`, `bytes()`, timestamp arithmetic and getters, the string extensions | no |
//! | comments `// …` | yes |
//!
//! Column types become CEL types: string → `string`, integer → `int`,
//! number → `double`, boolean → `bool`, date → `date`, datetime →
//! `timestamp`, any → `dyn` (JSON strings, numbers and booleans; a CSV cell
//! of an `any` column is a string).
//!
//! # Where the semantics differ from CEL's
//!
//! * **Blank cells.** A blank cell (absent, null, or text `str.strip()`
//!   empties) reads as `null`. It may be compared with `null` (`x == null`,
//!   `x != null`), found in a list that holds `null`, and tested with `has()`;
//!   any other operation on it is the run-time error `no value`. In CEL,
//!   `null == x` is simply false.
//! * **Dates.** `date` is a type of this subset; dates compare by day.
//!   A timestamp may be *naive* (no UTC offset, as Python allows): aware
//!   timestamps compare by UTC instant, naive ones by their clock, and a naive
//!   one compared with an aware one (`==` too) is a run-time error. CEL's
//!   `timestamp()` requires RFC 3339 with an offset.
//! * **Static types.** As CEL's type checker does, a comparison that can
//!   never succeed when both types are known is a compile error at its
//!   operator (`name < 3`, `name == 3`, `start_date < created_at`). Numbers
//!   compare across int and double (CEL's heterogeneous equality and
//!   ordering), but arithmetic does not mix them (`price * 2` is an error:
//!   write `price * 2.0`), as in CEL. A `?:` whose one branch is `null` has
//!   the other branch's type.
//! * **Errors.** `&&` and `||` absorb errors as CEL says (`false && error`
//!   and `error && false` are false, `true || error` is true); every other
//!   error ends the evaluation. Int overflow, division by zero, and `int()` of
//!   an out-of-range double are errors, as in CEL; an integer cell beyond
//!   64 bits is an error when read.
//! * **Literal arguments.** The arguments of `matches`, `date` and
//!   `timestamp` must be string literals, compiled or read at compile time.
//! * **Regular expressions** are RE2 syntax run by the `regex` crate (RE2's
//!   ASCII `\d`, `\w`, `\s`, `\b` kept); a pattern over 1 MiB compiled is
//!   refused.
//! * **Conversions.** `string(2.0)` is `'2.0'` (Python's `repr`, as this
//!   project writes numbers; cel-go writes `'2'`); `string()` of a timestamp
//!   is Python's `isoformat()` in UTC (`…+00:00`, CEL's `…Z`), of a date
//!   `YYYY-MM-DD`. `int('…')` reads an optionally signed decimal integer and
//!   `double('…')` what Rust's `f64` parser reads (`'1e3'`, `'inf'`, `'NaN'`).
//! * **Limits.** At most [`MAX_LENGTH`] bytes; at most [`MAX_DEPTH`]
//!   operators, calls and lists within one another (a chain of `&&`, or of
//!   `||`, is one), and at most [`MAX_DEPTH`] parentheses, brackets, call
//!   argument lists and `?:` else-branches open at any point. CEL asks an
//!   implementation to support at least 32 of each.

mod ast;
mod eval;
mod lexer;
mod parser;
mod re2;
mod resolve;
mod types;
mod value;

#[cfg(test)]
mod property_tests;
#[cfg(test)]
mod tests;

use crate::coerce::Coerced;

pub(crate) use crate::contract::ColumnType;

/// The longest expression, in bytes.
pub(crate) const MAX_LENGTH: usize = 4096;

/// The deepest nesting of an expression.
pub(crate) const MAX_DEPTH: usize = 32;

/// A compiled row-rule expression.
#[derive(Debug)]
pub(crate) struct Expr {
    root: ast::Node,
    result: types::Type,
    read: Vec<usize>,
    names: Vec<String>,
    types: Vec<ColumnType>,
}

/// A compile error: byte offset into the source (0-based) and a message that names the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExprError {
    pub(crate) position: usize,
    pub(crate) message: String,
}

/// An evaluation error on one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EvalError {
    pub(crate) message: String,
}

/// One cell as the evaluator reads it.
#[derive(Clone, Copy)]
pub(crate) enum Operand<'a> {
    /// A blank cell (as [`crate::coerce::CellRef::is_blank`] says).
    Blank,
    /// The cell's value as the row check coerced it to the column's type.
    Value(&'a Coerced<'a>),
    /// A cell whose type coercion failed.
    Invalid,
}

/// The value of an expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprValue {
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
    Text(String),
    /// A day number, as [`crate::py::isodate::date_ordinal`] counts.
    Date(i32),
    /// Microseconds since 0001-01-01T00:00 (UTC for an aware timestamp, the
    /// clock for a naive one), as [`crate::py::isodate::DateTime::instant`].
    Datetime {
        instant: i64,
        aware: bool,
    },
    List(Vec<ExprValue>),
}

impl Expr {
    /// `columns`: the contract's columns in order (name, type). An identifier that is no column is a compile error listing the nearest names.
    pub(crate) fn compile(source: &str, columns: &[(&str, ColumnType)]) -> Result<Expr, ExprError> {
        if source.len() > MAX_LENGTH {
            return Err(ExprError {
                position: MAX_LENGTH,
                message: format!("the expression is {} bytes long; at most {MAX_LENGTH} are allowed", source.len()),
            });
        }
        let (root, read) = parser::parse(source, columns)?;
        let types: Vec<ColumnType> = columns.iter().map(|(_, t)| *t).collect();
        let result = types::check(&root, &types)?;
        let names = columns.iter().map(|(name, _)| (*name).to_owned()).collect();
        Ok(Expr { root, result, read, names, types })
    }

    /// Whether the result type is bool (or dyn); a `check`/`when` must be.
    pub(crate) fn is_boolean(&self) -> bool {
        matches!(self.result, types::Type::Bool | types::Type::Dyn)
    }

    /// CEL's name of the result type (`bool`, `int`, `string`, `dyn`, …), for
    /// the message that refuses a `check` that is not boolean.
    pub(crate) fn result_type_name(&self) -> &'static str {
        self.result.name()
    }

    /// The column positions the expression reads, in order of first use (for the finding's quoted values).
    pub(crate) fn columns_read(&self) -> &[usize] {
        &self.read
    }

    /// Evaluate on one row. `cell(position)` gives the column's value as the row check coerced it.
    pub(crate) fn eval<'r>(&self, cell: &dyn Fn(usize) -> Operand<'r>) -> Result<ExprValue, EvalError> {
        let evaluator = eval::Eval { names: &self.names, types: &self.types, cell };
        evaluator.eval(&self.root).map(value::Val::into_result).map_err(|fault| EvalError {
            message: match fault {
                value::Fault::Blank(column) => {
                    format!("no value: column {} is blank", crate::py::repr::repr_str(&self.names[column]))
                }
                value::Fault::Other(message) => message,
            },
        })
    }
}
