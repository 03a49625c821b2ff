//! Run-time values and CEL's operators on them: heterogeneous equality,
//! ordering (numbers across int and double, dates by day, datetimes by
//! instant), arithmetic with overflow errors, and the `no value` error for
//! a blank cell.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::ast::BinOp;
use super::ExprValue;

/// A value during evaluation; text borrows from the row or the expression.
#[derive(Debug, Clone)]
pub(super) enum Val<'a> {
    /// A blank cell (of the column at this position): `null` that only
    /// `== null`, `!= null`, `in` a list holding `null`, and `has()` accept.
    Blank(usize),
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
    Text(Cow<'a, str>),
    Date(i32),
    Datetime {
        instant: i64,
        aware: bool,
    },
    List(Vec<Val<'a>>),
}

/// Why an evaluation failed; the message is written once, at the top.
#[derive(Debug, Clone)]
pub(super) enum Fault {
    /// An operation read a blank cell.
    Blank(usize),
    Other(String),
}

pub(super) fn fault<T>(message: impl Into<String>) -> Result<T, Fault> {
    Err(Fault::Other(message.into()))
}

impl Val<'_> {
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Val::Blank(_) | Val::Null => "null",
            Val::Bool(_) => "bool",
            Val::Int(_) => "int",
            Val::Double(_) => "double",
            Val::Text(_) => "string",
            Val::Date(_) => "date",
            Val::Datetime { .. } => "timestamp",
            Val::List(_) => "list",
        }
    }

    /// The value itself, or the `no value` fault of a blank.
    pub(super) fn present(self) -> Result<Self, Fault> {
        match self {
            Val::Blank(column) => Err(Fault::Blank(column)),
            other => Ok(other),
        }
    }

    pub(super) fn into_result(self) -> ExprValue {
        match self {
            Val::Blank(_) | Val::Null => ExprValue::Null,
            Val::Bool(b) => ExprValue::Bool(b),
            Val::Int(i) => ExprValue::Int(i),
            Val::Double(x) => ExprValue::Double(x),
            Val::Text(text) => ExprValue::Text(text.into_owned()),
            Val::Date(day) => ExprValue::Date(day),
            Val::Datetime { instant, aware } => ExprValue::Datetime { instant, aware },
            Val::List(items) => ExprValue::List(items.into_iter().map(Val::into_result).collect()),
        }
    }
}

/// 2^63 as a double (exact): the first double above every `i64`.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// An int and a double ordered exactly, as numbers (`None` for NaN).
fn int_double(i: i64, d: f64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d >= TWO_63 {
        return Some(Ordering::Less);
    }
    if d < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let whole = d.trunc();
    // In range, so the conversion is exact.
    Some(i.cmp(&(whole as i64)).then_with(|| whole.partial_cmp(&d).unwrap_or(Ordering::Equal)))
}

fn naive_vs_aware() -> Fault {
    Fault::Other("cannot compare a naive datetime with an aware one (one has a UTC offset, the other none)".into())
}

/// CEL's `==`: values of different types are unequal, but numbers compare
/// by value across int and double; NaN equals nothing. A blank cell equals
/// `null` and is otherwise the `no value` fault.
pub(super) fn equal(a: &Val<'_>, b: &Val<'_>) -> Result<bool, Fault> {
    Ok(match (a, b) {
        (Val::Blank(_) | Val::Null, Val::Null) | (Val::Null, Val::Blank(_)) => true,
        (Val::Blank(column), _) | (_, Val::Blank(column)) => return Err(Fault::Blank(*column)),
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Double(x), Val::Double(y)) => x == y,
        (Val::Int(i), Val::Double(d)) | (Val::Double(d), Val::Int(i)) => int_double(*i, *d) == Some(Ordering::Equal),
        (Val::Text(x), Val::Text(y)) => x == y,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Date(x), Val::Date(y)) => x == y,
        (Val::Datetime { instant, aware }, Val::Datetime { instant: other, aware: other_aware }) => {
            if aware != other_aware {
                return Err(naive_vs_aware());
            }
            instant == other
        }
        (Val::List(xs), Val::List(ys)) => {
            if xs.len() != ys.len() {
                return Ok(false);
            }
            // CEL: false if any element pair is unequal, else an error if any failed.
            let mut failure = None;
            for (x, y) in xs.iter().zip(ys) {
                match equal(x, y) {
                    Ok(false) => return Ok(false),
                    Ok(true) => {}
                    Err(err) => failure = failure.or(Some(err)),
                }
            }
            return failure.map_or(Ok(true), Err);
        }
        _ => false,
    })
}

/// CEL's ordering: `None` when a NaN is involved (every comparison is false).
pub(super) fn compare(a: &Val<'_>, b: &Val<'_>) -> Result<Option<Ordering>, Fault> {
    Ok(match (a, b) {
        (Val::Blank(column), _) | (_, Val::Blank(column)) => return Err(Fault::Blank(*column)),
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Double(x), Val::Double(y)) => x.partial_cmp(y),
        (Val::Int(i), Val::Double(d)) => int_double(*i, *d),
        (Val::Double(d), Val::Int(i)) => int_double(*i, *d).map(Ordering::reverse),
        // Lexicographic by code point, which is UTF-8's byte order.
        (Val::Text(x), Val::Text(y)) => Some(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Some(x.cmp(y)),
        (Val::Date(x), Val::Date(y)) => Some(x.cmp(y)),
        (Val::Datetime { instant, aware }, Val::Datetime { instant: other, aware: other_aware }) => {
            if aware != other_aware {
                return Err(naive_vs_aware());
            }
            Some(instant.cmp(other))
        }
        _ => return fault(format!("no order between {} and {}", a.type_name(), b.type_name())),
    })
}

/// `x in list`: CEL's `==` against each element; true if one is equal,
/// else the first fault, else false. A blank `x` is in a list that holds `null`.
pub(super) fn contains(list: &[Val<'_>], x: &Val<'_>) -> Result<bool, Fault> {
    if let Val::Blank(column) = x {
        return if list.iter().any(|item| matches!(item, Val::Null)) { Ok(true) } else { Err(Fault::Blank(*column)) };
    }
    let mut failure = None;
    for item in list {
        match equal(x, item) {
            Ok(true) => return Ok(true),
            Ok(false) => {}
            Err(err) => failure = failure.or(Some(err)),
        }
    }
    failure.map_or(Ok(false), Err)
}

/// `+ - * / %` on values already known not to be blank.
pub(super) fn arithmetic<'a>(op: BinOp, a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, Fault> {
    let overflow = || Fault::Other(format!("integer overflow in '{}'", op.symbol()));
    Ok(match (op, a, b) {
        (BinOp::Add, Val::Int(x), Val::Int(y)) => Val::Int(x.checked_add(y).ok_or_else(overflow)?),
        (BinOp::Sub, Val::Int(x), Val::Int(y)) => Val::Int(x.checked_sub(y).ok_or_else(overflow)?),
        (BinOp::Mul, Val::Int(x), Val::Int(y)) => Val::Int(x.checked_mul(y).ok_or_else(overflow)?),
        (BinOp::Div | BinOp::Rem, Val::Int(_), Val::Int(0)) => return fault("division by zero"),
        // Truncating division; the remainder takes the dividend's sign (CEL, as Go and Rust).
        (BinOp::Div, Val::Int(x), Val::Int(y)) => Val::Int(x.checked_div(y).ok_or_else(overflow)?),
        (BinOp::Rem, Val::Int(x), Val::Int(y)) => Val::Int(x.checked_rem(y).ok_or_else(overflow)?),
        (BinOp::Add, Val::Double(x), Val::Double(y)) => Val::Double(x + y),
        (BinOp::Sub, Val::Double(x), Val::Double(y)) => Val::Double(x - y),
        (BinOp::Mul, Val::Double(x), Val::Double(y)) => Val::Double(x * y),
        // IEEE 754: 1.0 / 0.0 is +infinity, as in CEL.
        (BinOp::Div, Val::Double(x), Val::Double(y)) => Val::Double(x / y),
        (BinOp::Add, Val::Text(x), Val::Text(y)) => Val::Text(Cow::Owned(x.into_owned() + &y)),
        (BinOp::Add, Val::List(mut xs), Val::List(ys)) => {
            xs.extend(ys);
            Val::List(xs)
        }
        (_, a, b) => {
            let (a, b) = (a.type_name(), b.type_name());
            return fault(format!("no '{}' for {a} and {b}", op.symbol()));
        }
    })
}
