//! The evaluator: one walk over the tree, each node at most once (the
//! conditional takes one branch), so a row costs time linear in the
//! expression and the values it reads. The checks the type checker made
//! are made again on the values, because `dyn` (an `any` column) defers
//! them to here.

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::Value;

use super::ast::{BinOp, Func, Kind, Lit, Node};
use super::value::{arithmetic, compare, contains, equal, fault, Fault, Val};
use super::{ColumnType, Operand};
use crate::coerce::Coerced;
use crate::py::value::Cell;
use crate::py::{isodate, repr};

pub(super) struct Eval<'e, 'r> {
    /// The contract's columns, for the messages.
    pub(super) names: &'e [String],
    pub(super) types: &'e [ColumnType],
    pub(super) cell: &'e dyn Fn(usize) -> Operand<'r>,
}

impl<'e, 'r: 'e> Eval<'e, 'r> {
    pub(super) fn eval(&self, node: &'e Node) -> Result<Val<'e>, Fault> {
        Ok(match &node.kind {
            Kind::Lit(lit) => literal(lit),
            Kind::Column(index) => self.read(*index)?,
            Kind::Has(index) => Val::Bool(!matches!((self.cell)(*index), Operand::Blank)),
            Kind::List(items) => Val::List(items.iter().map(|item| self.eval(item)).collect::<Result<_, _>>()?),
            Kind::Not(inner) => match self.eval(inner)?.present()? {
                Val::Bool(b) => Val::Bool(!b),
                other => return fault(format!("'!' takes a bool, not {}", other.type_name())),
            },
            Kind::Neg(inner) => match self.eval(inner)?.present()? {
                Val::Int(i) => Val::Int(i.checked_neg().ok_or_else(|| Fault::Other("integer overflow in '-'".into()))?),
                Val::Double(x) => Val::Double(-x),
                other => return fault(format!("'-' takes an int or a double, not {}", other.type_name())),
            },
            Kind::And(items) => self.logic(items, false)?,
            Kind::Or(items) => self.logic(items, true)?,
            Kind::Cond(parts) => match self.eval(&parts[0])?.present()? {
                Val::Bool(true) => self.eval(&parts[1])?,
                Val::Bool(false) => self.eval(&parts[2])?,
                other => return fault(format!("the condition before '?' is {}, not a bool", other.type_name())),
            },
            Kind::Binary(op, operands) => {
                let (a, b) = (self.eval(&operands[0])?, self.eval(&operands[1])?);
                binary(*op, a, b)?
            }
            Kind::Call(func, args) => {
                let values = args.iter().map(|arg| self.eval(arg)?.present()).collect::<Result<Vec<_>, _>>()?;
                call(*func, values)?
            }
            Kind::Matches(target, pattern) => match self.eval(target)?.present()? {
                Val::Text(text) => Val::Bool(pattern.is_match(&text)),
                other => return fault(format!("matches() applies to a string, not {}", other.type_name())),
            },
        })
    }

    /// `&&` (`absorbing` false) or `||` (true): an operand equal to the
    /// absorbing value decides, whatever errors the others raise (CEL's
    /// commutative logic); otherwise the first error, else the other value.
    fn logic(&self, items: &'e [Node], absorbing: bool) -> Result<Val<'e>, Fault> {
        let symbol = if absorbing { "||" } else { "&&" };
        let mut failure = None;
        for item in items {
            match self.eval(item).and_then(Val::present) {
                Ok(Val::Bool(b)) if b == absorbing => return Ok(Val::Bool(absorbing)),
                Ok(Val::Bool(_)) => {}
                Ok(other) => {
                    let err = Fault::Other(format!("'{symbol}' takes bool operands, not {}", other.type_name()));
                    failure = failure.or(Some(err));
                }
                Err(err) => failure = failure.or(Some(err)),
            }
        }
        failure.map_or(Ok(Val::Bool(!absorbing)), Err)
    }

    /// The cell of column `index`, as its declared type reads it.
    fn read(&self, index: usize) -> Result<Val<'e>, Fault> {
        let column_type = self.types[index];
        let value = match (self.cell)(index) {
            Operand::Blank => return Ok(Val::Blank(index)),
            Operand::Invalid => {
                let name = repr::repr_str(&self.names[index]);
                return fault(format!("column {name} holds no valid {} value", column_type.name()));
            }
            Operand::Value(value) => value,
        };
        let val = match value {
            Coerced::Text(text) => Val::Text(Cow::Borrowed(text)),
            Coerced::Date(y, m, d) => Val::Date(isodate::date_ordinal(*y, *m, *d)),
            Coerced::Datetime(moment) => Val::Datetime { instant: moment.instant(), aware: moment.offset.is_some() },
            Coerced::Float(x) | Coerced::Cell(Cell::NonFinite(x)) => Val::Double(*x),
            Coerced::Cell(Cell::Json(json)) => from_json(json, index, &self.names[index])?,
            Coerced::Cell(Cell::BigInt { text, .. }) => return Err(beyond_int(&self.names[index], text)),
        };
        // A number column is a double even where the coercion kept a JSON integer.
        Ok(match (column_type, val) {
            (ColumnType::Number, Val::Int(i)) => Val::Double(i as f64),
            (_, val) => val,
        })
    }
}

fn beyond_int(name: &str, digits: &str) -> Fault {
    Fault::Other(format!("column {} holds {digits}, beyond the 64-bit range of CEL's int", repr::repr_str(name)))
}

/// A JSON cell (an `any` column's, or a typed cell kept as JSON).
fn from_json<'a>(json: &'a Value, index: usize, name: &str) -> Result<Val<'a>, Fault> {
    Ok(match json {
        Value::Null => Val::Blank(index),
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Val::Int(i),
            (None, Some(x)) if n.is_f64() => Val::Double(x),
            _ => return Err(beyond_int(name, &n.to_string())),
        },
        Value::String(text) => Val::Text(Cow::Borrowed(text)),
        Value::Array(_) | Value::Object(_) => {
            let (name, kind) = (repr::repr_str(name), repr::type_name(json));
            return fault(format!("column {name} holds a JSON {kind}, which row rules cannot read"));
        }
    })
}

fn literal(lit: &Lit) -> Val<'_> {
    match lit {
        Lit::Null => Val::Null,
        Lit::Bool(b) => Val::Bool(*b),
        Lit::Int(i) => Val::Int(*i),
        Lit::Double(x) => Val::Double(*x),
        Lit::Text(text) => Val::Text(Cow::Borrowed(text)),
        Lit::Date(day) => Val::Date(*day),
        Lit::Datetime { instant, aware } => Val::Datetime { instant: *instant, aware: *aware },
    }
}

fn binary<'a>(op: BinOp, a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, Fault> {
    let ordered = |wanted: fn(Ordering) -> bool| compare(&a, &b).map(|order| Val::Bool(order.is_some_and(wanted)));
    match op {
        BinOp::Eq => equal(&a, &b).map(Val::Bool),
        BinOp::Ne => equal(&a, &b).map(|same| Val::Bool(!same)),
        BinOp::Lt => ordered(Ordering::is_lt),
        BinOp::Le => ordered(Ordering::is_le),
        BinOp::Gt => ordered(Ordering::is_gt),
        BinOp::Ge => ordered(Ordering::is_ge),
        BinOp::In => match b.present()? {
            Val::List(items) => contains(&items, &a).map(Val::Bool),
            other => fault(format!("'in' needs a list on its right, not {}", other.type_name())),
        },
        _ => arithmetic(op, a.present()?, b.present()?),
    }
}

/// The functions, on values already known not to be blank (the arity was
/// checked when the expression compiled).
fn call(func: Func, args: Vec<Val<'_>>) -> Result<Val<'_>, Fault> {
    let name = func.name();
    let mut args = args.into_iter();
    let (first, second) = (args.next().unwrap_or(Val::Null), args.next());
    Ok(match (func, first, second) {
        // Characters, as Python's len() counts them (CEL counts code points too).
        (Func::Size, Val::Text(s), None) => Val::Int(s.chars().count() as i64),
        (Func::Size, Val::List(items), None) => Val::Int(items.len() as i64),
        (Func::StartsWith, Val::Text(s), Some(Val::Text(part))) => Val::Bool(s.starts_with(&*part)),
        (Func::EndsWith, Val::Text(s), Some(Val::Text(part))) => Val::Bool(s.ends_with(&*part)),
        (Func::Contains, Val::Text(s), Some(Val::Text(part))) => Val::Bool(s.contains(&*part)),
        (Func::Int, Val::Int(i), None) => Val::Int(i),
        // Truncation toward zero; out of range (NaN included) is an error, as in CEL.
        (Func::Int, Val::Double(x), None) if (-TWO_63..TWO_63).contains(&x) => Val::Int(x as i64),
        (Func::Int, Val::Double(x), None) => {
            return fault(format!("int(): {} is out of int's range", repr::repr_float(x)))
        }
        (Func::Int, Val::Text(s), None) => match s.parse::<i64>() {
            Ok(i) => Val::Int(i),
            Err(_) => return fault(format!("int(): {} is not an integer", repr::repr_str(&s))),
        },
        (Func::Double, Val::Int(i), None) => Val::Double(i as f64),
        (Func::Double, Val::Double(x), None) => Val::Double(x),
        (Func::Double, Val::Text(s), None) => match s.parse::<f64>() {
            Ok(x) => Val::Double(x),
            Err(_) => return fault(format!("double(): {} is not a number", repr::repr_str(&s))),
        },
        (Func::String, value, None) => Val::Text(Cow::Owned(string_of(value)?)),
        (_, first, second) => {
            let mut types = first.type_name().to_owned();
            if let Some(second) = second {
                types = format!("{types} and {}", second.type_name());
            }
            return fault(format!("{name}() does not apply to {types}"));
        }
    })
}

/// 2^63 as a double (exact).
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// `string(x)`.
fn string_of(value: Val<'_>) -> Result<String, Fault> {
    Ok(match value {
        Val::Text(text) => text.into_owned(),
        Val::Int(i) => i.to_string(),
        // Python's repr, as the project writes numbers: 2.0 is '2.0', 1e16 is '1e+16'.
        Val::Double(x) => repr::repr_float(x),
        Val::Bool(b) => b.to_string(),
        Val::Date(day) => {
            let (y, m, d) = isodate::ord_to_ymd(day);
            isodate::iso_date(y, m, d)
        }
        Val::Datetime { instant, aware } => datetime_text(instant, aware)?,
        other => return fault(format!("string() cannot convert {}", other.type_name())),
    })
}

/// Python's `isoformat()` of the instant: in UTC (`+00:00`) when aware.
fn datetime_text(instant: i64, aware: bool) -> Result<String, Fault> {
    match isodate::DateTime::from_instant(instant, aware) {
        Some(moment) => Ok(moment.isoformat()),
        None => fault("string(): the instant is outside years 1 to 9999 in UTC"),
    }
}
