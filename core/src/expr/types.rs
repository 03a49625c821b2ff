//! Static types, CEL's gradual type checking for the subset: every column's
//! type comes from the contract (`any` is `dyn`, checked when the row is
//! read), and an operation that can never succeed on the types it is given
//! is a compile error at its operator or name. `dyn` defers the question to
//! run time, where the evaluator asks it again.

use super::ast::{BinOp, Func, Kind, Lit, Node};
use super::parser::error;
use super::{ColumnType, ExprError};

/// A static type. Every column may also be blank at run time, which is not
/// a type of its own: a blank reads as `null` (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Type {
    Null,
    Bool,
    Int,
    Double,
    String,
    Date,
    Datetime,
    List(Box<Type>),
    Dyn,
}

impl Type {
    pub(super) fn of_column(column: ColumnType) -> Type {
        match column {
            ColumnType::String => Type::String,
            ColumnType::Integer => Type::Int,
            ColumnType::Number => Type::Double,
            ColumnType::Boolean => Type::Bool,
            ColumnType::Date => Type::Date,
            ColumnType::Datetime => Type::Datetime,
            ColumnType::Any => Type::Dyn,
        }
    }

    /// CEL's name of the type (`date` is this subset's own).
    pub(super) fn name(&self) -> &'static str {
        match self {
            Type::Null => "null",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Double => "double",
            Type::String => "string",
            Type::Date => "date",
            Type::Datetime => "timestamp",
            Type::List(_) => "list",
            Type::Dyn => "dyn",
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Double)
    }

    fn is_ordered(&self) -> bool {
        matches!(self, Type::Bool | Type::Int | Type::Double | Type::String | Type::Date | Type::Datetime | Type::Dyn)
    }

    /// Whether this type is `wanted` or `dyn`.
    fn fits(&self, wanted: &Type) -> bool {
        self == wanted || *self == Type::Dyn
    }
}

/// The type two values of these types share: itself, or `dyn`.
fn join(a: &Type, b: &Type) -> Type {
    if a == b {
        a.clone()
    } else {
        Type::Dyn
    }
}

/// Whether values of these types can ever be equal: numbers across int and
/// double (CEL's heterogeneous equality), and anything with `null` or `dyn`.
fn can_equal(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Dyn | Type::Null, _) | (_, Type::Dyn | Type::Null) => true,
        (Type::List(x), Type::List(y)) => can_equal(x, y),
        _ => a == b || (a.is_numeric() && b.is_numeric()),
    }
}

/// The type of `node`, or the error that makes it ill-typed.
pub(super) fn check(node: &Node, columns: &[ColumnType]) -> Result<Type, ExprError> {
    let sub = |node: &Node| check(node, columns);
    let at = |message: String| Err(error(node.pos, message));
    Ok(match &node.kind {
        Kind::Lit(lit) => match lit {
            Lit::Null => Type::Null,
            Lit::Bool(_) => Type::Bool,
            Lit::Int(_) => Type::Int,
            Lit::Double(_) => Type::Double,
            Lit::Text(_) => Type::String,
            Lit::Date(_) => Type::Date,
            Lit::Datetime { .. } => Type::Datetime,
        },
        Kind::Column(index) => Type::of_column(columns[*index]),
        Kind::Has(_) => Type::Bool,
        Kind::List(items) => {
            let mut element: Option<Type> = None;
            for item in items {
                let t = sub(item)?;
                element = Some(element.map_or(t.clone(), |e| join(&e, &t)));
            }
            Type::List(Box::new(element.unwrap_or(Type::Dyn)))
        }
        Kind::Not(inner) => match sub(inner)? {
            t if t.fits(&Type::Bool) => Type::Bool,
            t => return at(format!("'!' takes a bool, not {}", t.name())),
        },
        Kind::Neg(inner) => match sub(inner)? {
            t @ (Type::Int | Type::Double | Type::Dyn) => t,
            t => return at(format!("'-' takes an int or a double, not {}", t.name())),
        },
        Kind::And(items) | Kind::Or(items) => {
            let symbol = if matches!(node.kind, Kind::And(_)) { "&&" } else { "||" };
            for item in items {
                let t = sub(item)?;
                if !t.fits(&Type::Bool) {
                    let message = format!("'{symbol}' takes bool operands; this one is {}", t.name());
                    return Err(error(item.start, message));
                }
            }
            Type::Bool
        }
        Kind::Cond(parts) => {
            let condition = sub(&parts[0])?;
            if !condition.fits(&Type::Bool) {
                let message = format!("the condition before '?' must be a bool, not {}", condition.name());
                return Err(error(parts[0].start, message));
            }
            match (sub(&parts[1])?, sub(&parts[2])?) {
                (a, b) if a == b => a,
                (Type::Null, t) | (t, Type::Null) => t,
                (Type::Dyn, _) | (_, Type::Dyn) => Type::Dyn,
                (a, b) => {
                    return at(format!("the branches of '?:' have different types: {} and {}", a.name(), b.name()))
                }
            }
        }
        Kind::Binary(op, operands) => binary(*op, &sub(&operands[0])?, &sub(&operands[1])?).or_else(at)?,
        Kind::Call(func, args) => {
            let types = args.iter().map(sub).collect::<Result<Vec<_>, _>>()?;
            call(*func, &types).or_else(at)?
        }
        Kind::Matches(target, _) => match sub(target)? {
            t if t.fits(&Type::String) => Type::Bool,
            t => return at(format!("matches() applies to a string, not {}", t.name())),
        },
    })
}

fn binary(op: BinOp, a: &Type, b: &Type) -> Result<Type, String> {
    let symbol = op.symbol();
    let names = format!("{} and {}", a.name(), b.name());
    match op {
        BinOp::Eq | BinOp::Ne if can_equal(a, b) => Ok(Type::Bool),
        BinOp::Eq | BinOp::Ne => Err(format!("'{symbol}' compares {names}, which are never equal")),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let comparable = a.is_ordered()
                && b.is_ordered()
                && (a == b || *a == Type::Dyn || *b == Type::Dyn || (a.is_numeric() && b.is_numeric()));
            if comparable {
                Ok(Type::Bool)
            } else {
                Err(format!("'{symbol}' compares {names}, which have no order between them"))
            }
        }
        BinOp::In => match b {
            Type::Dyn => Ok(Type::Bool),
            Type::List(element) if can_equal(a, element) => Ok(Type::Bool),
            Type::List(element) => {
                Err(format!("'in' looks for a {} in a list of {}, where it is never found", a.name(), element.name()))
            }
            other => Err(format!("'in' needs a list on its right, not {}", other.name())),
        },
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => arithmetic(op, a, b),
    }
}

fn arithmetic(op: BinOp, a: &Type, b: &Type) -> Result<Type, String> {
    let symbol = op.symbol();
    let takes = |t: &Type| match op {
        BinOp::Add => matches!(t, Type::Int | Type::Double | Type::String | Type::List(_) | Type::Dyn),
        BinOp::Rem => matches!(t, Type::Int | Type::Dyn),
        _ => matches!(t, Type::Int | Type::Double | Type::Dyn),
    };
    for t in [a, b] {
        if !takes(t) {
            let what = match op {
                BinOp::Add => "numbers, strings or lists",
                BinOp::Rem => "ints",
                _ => "numbers",
            };
            return Err(format!("'{symbol}' takes {what}, not {}", t.name()));
        }
    }
    match (a, b) {
        (Type::Dyn, _) | (_, Type::Dyn) => Ok(Type::Dyn),
        (Type::List(x), Type::List(y)) => Ok(Type::List(Box::new(join(x, y)))),
        _ if a == b => Ok(a.clone()),
        _ if a.is_numeric() && b.is_numeric() => Err(format!(
            "'{symbol}' does not mix int and double (CEL converts no number implicitly): write double(x), or 2.0 for 2"
        )),
        _ => Err(format!("'{symbol}' has no meaning for {} and {}", a.name(), b.name())),
    }
}

fn call(func: Func, args: &[Type]) -> Result<Type, String> {
    let name = func.name();
    let refuse = |t: &Type, what: &str| Err(format!("{name}() takes {what}, not {}", t.name()));
    match func {
        Func::Size => match &args[0] {
            Type::String | Type::List(_) | Type::Dyn => Ok(Type::Int),
            t => refuse(t, "a string or a list"),
        },
        Func::StartsWith | Func::EndsWith | Func::Contains => {
            for t in args {
                if !t.fits(&Type::String) {
                    return refuse(t, "strings");
                }
            }
            Ok(Type::Bool)
        }
        Func::Int | Func::Double => match &args[0] {
            Type::Int | Type::Double | Type::String | Type::Dyn => {
                Ok(if func == Func::Int { Type::Int } else { Type::Double })
            }
            t => refuse(t, "an int, a double or a string"),
        },
        Func::String => match &args[0] {
            Type::Null | Type::List(_) => refuse(&args[0], "a single value"),
            _ => Ok(Type::String),
        },
    }
}
