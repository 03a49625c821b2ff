//! The syntax tree: names already resolved to column positions, `has()`,
//! `date()`, `timestamp()` and `matches()` already expanded, literals
//! already read. Every node knows its depth, so no tree deeper than the
//! limit is ever built and every walk over one is bounded.

use regex::Regex;

/// A literal value (and the folded `date('...')`, `timestamp('...')`).
#[derive(Debug, Clone)]
pub(super) enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
    Text(String),
    /// A day number, as [`crate::py::isodate::date_ordinal`] counts.
    Date(i32),
    /// Microseconds, as [`crate::py::isodate::DateTime::instant`] counts.
    Datetime {
        instant: i64,
        aware: bool,
    },
}

/// A binary operator other than `&&` and `||`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BinOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// A function of the subset (the macros are expanded into other nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Func {
    /// `size(x)` / `x.size()`: one argument.
    Size,
    /// `x.startsWith(s)`: receiver, then argument.
    StartsWith,
    EndsWith,
    Contains,
    /// `int(x)`, `double(x)`, `string(x)`: one argument.
    Int,
    Double,
    String,
}

impl Func {
    pub(super) fn name(self) -> &'static str {
        match self {
            Func::Size => "size",
            Func::StartsWith => "startsWith",
            Func::EndsWith => "endsWith",
            Func::Contains => "contains",
            Func::Int => "int",
            Func::Double => "double",
            Func::String => "string",
        }
    }
}

#[derive(Debug, Clone)]
pub(super) enum Kind {
    Lit(Lit),
    /// A column's cell, by its position in the contract.
    Column(usize),
    /// `has(row.c)`: whether the cell is not blank.
    Has(usize),
    List(Vec<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    /// `a && b && ...`: one node for the whole chain (CEL's variadic `&&`).
    And(Vec<Node>),
    Or(Vec<Node>),
    /// `c ? a : b`.
    Cond(Box<[Node; 3]>),
    Binary(BinOp, Box<[Node; 2]>),
    Call(Func, Vec<Node>),
    /// `x.matches('re')`, the pattern compiled once.
    Matches(Box<Node>, Box<Regex>),
}

/// A node: what it is, the byte offset of its operator or name (where a
/// type error points), the offset where its source text starts, and its
/// depth: how many operators, calls and lists it nests (a leaf is 0).
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) kind: Kind,
    pub(super) pos: usize,
    pub(super) start: usize,
    pub(super) depth: usize,
}

impl Node {
    pub(super) fn new(kind: Kind, pos: usize, start: usize) -> Node {
        let deepest = |nodes: &[Node]| 1 + nodes.iter().map(|node| node.depth).max().unwrap_or(0);
        let depth = match &kind {
            Kind::Lit(_) | Kind::Column(_) | Kind::Has(_) => 0,
            Kind::Not(node) | Kind::Neg(node) | Kind::Matches(node, _) => 1 + node.depth,
            Kind::List(nodes) | Kind::And(nodes) | Kind::Or(nodes) | Kind::Call(_, nodes) => deepest(nodes),
            Kind::Cond(nodes) => deepest(&nodes[..]),
            Kind::Binary(_, nodes) => deepest(&nodes[..]),
        };
        Node { kind, pos, start, depth }
    }

    /// The node of a literal at `pos`.
    pub(super) fn lit(lit: Lit, pos: usize) -> Node {
        Node::new(Kind::Lit(lit), pos, pos)
    }
}
