//! Names and calls: a name is a column of the contract (the nearest names
//! are suggested when it is not), `row.c` and `row["c"]` are columns too,
//! and each function or macro of the subset becomes its node; a call
//! outside the subset is refused with its reason.

use super::ast::{Func, Kind, Lit, Node};
use super::lexer::Tok;
use super::parser::{describe, error, Parser};
use super::{re2, ExprError};
use crate::py::{difflib, isodate, repr::repr_str};

/// The functions a row rule can call, as a message lists them.
const KNOWN: &str = "size, startsWith, endsWith, contains, matches, has, date, timestamp, int, double, string";

/// CEL's macros that loop over a list.
const LOOPING_MACROS: [&str; 5] = ["all", "exists", "exists_one", "map", "filter"];

/// The methods and the functions, by name.
const METHODS: [&str; 5] = ["size", "startsWith", "endsWith", "contains", "matches"];
const FUNCTIONS: [&str; 7] = ["size", "matches", "int", "double", "string", "date", "timestamp"];

/// Refuse a call before its arguments are read, so the error is about the
/// call (`[1].all(x, x > 0)` names the macro, not the unknown column `x`).
pub(super) fn known_call(name: &str, pos: usize, is_method: bool) -> Result<(), ExprError> {
    let known = if is_method { &METHODS[..] } else { &FUNCTIONS[..] };
    if known.contains(&name) {
        return Ok(());
    }
    let other_form = if is_method { &FUNCTIONS[..] } else { &METHODS[..] };
    if other_form.contains(&name) || name == "has" {
        let hint = if is_method { format!("write {name}(x)") } else { format!("write text.{name}(s)") };
        let what = if is_method { "a function, not a method" } else { "a method" };
        return Err(error(pos, format!("{name}() is {what}: {hint}")));
    }
    Err(unknown(name, pos))
}

/// At most this many nearest names are suggested, as `difflib.get_close_matches` does.
const SUGGESTIONS: usize = 3;

impl Parser<'_, '_> {
    /// The position of the column called `name`, recorded as read.
    pub(super) fn column(&mut self, name: &str, pos: usize) -> Result<usize, ExprError> {
        let Some(index) = self.columns.iter().position(|(column, _)| *column == name) else {
            return Err(error(pos, self.unknown_column(name)));
        };
        if !self.read.contains(&index) {
            self.read.push(index);
        }
        Ok(index)
    }

    fn unknown_column(&self, name: &str) -> String {
        let wanted: Vec<char> = name.chars().collect();
        let mut scored: Vec<(f64, &str)> = self
            .columns
            .iter()
            .map(|(column, _)| (difflib::ratio(&wanted, &column.chars().collect::<Vec<_>>()), *column))
            .filter(|(score, _)| *score >= 0.6)
            .collect();
        // Best first; among equals, the contract's order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let quoted = |names: &mut dyn Iterator<Item = &str>| names.map(repr_str).collect::<Vec<_>>().join(", ");
        let head = format!("no column is named {}", repr_str(name));
        if !scored.is_empty() {
            let nearest = quoted(&mut scored.iter().take(SUGGESTIONS).map(|(_, column)| *column));
            let noun = if scored.len() == 1 { "is" } else { "are" };
            return format!("{head}; the nearest {noun} {nearest}");
        }
        match self.columns.len() {
            0 => format!("{head}; the contract declares no columns"),
            1..=10 => format!("{head}; the columns are {}", quoted(&mut self.columns.iter().map(|(c, _)| *c))),
            n => format!("{head} (the contract has {n} columns, none of them close)"),
        }
    }

    /// After `row`: `.name` or `["name"]`, read as that column.
    pub(super) fn row_access(&mut self, row: usize) -> Result<usize, ExprError> {
        let misuse = || error(row, "row is the whole row: read a column as row.name or row[\"column name\"]");
        match self.peek() {
            Tok::Dot => {
                self.bump();
                let pos = self.pos();
                let Tok::Ident(name) = *self.peek() else {
                    return Err(error(
                        pos,
                        format!("expected a column name after 'row.', found {}", describe(self.peek())),
                    ));
                };
                self.bump();
                if *self.peek() == Tok::LParen {
                    return Err(error(pos, format!("row has no method {name}()")));
                }
                self.column(name, pos)
            }
            Tok::LBracket => {
                self.bump();
                let pos = self.pos();
                let Tok::Str(name) = self.peek().clone() else {
                    return Err(error(pos, "row[...] takes a string literal naming a column"));
                };
                self.bump();
                self.expect(&Tok::RBracket, "to close row[...]")?;
                self.column(&name, pos)
            }
            _ => Err(misuse()),
        }
    }

    /// `has(row.c)` or `has(row["c"])`, the name `has` at `pos` already taken.
    pub(super) fn has(&mut self, pos: usize) -> Result<Node, ExprError> {
        self.expect(&Tok::LParen, "after has")?;
        let at = self.pos();
        if *self.peek() != Tok::Ident("row") {
            return Err(error(at, "has() takes row.column or row[\"column\"]"));
        }
        self.bump();
        let column = self.row_access(at)?;
        self.expect(&Tok::RParen, "to close has(")?;
        Ok(Node::new(Kind::Has(column), pos, pos))
    }
}

/// `receiver.name(args)`.
pub(super) fn method(
    receiver: Node,
    name: &str,
    pos: usize,
    mut args: Vec<Node>,
    start: usize,
) -> Result<Node, ExprError> {
    let func = match name {
        "size" => Func::Size,
        "startsWith" => Func::StartsWith,
        "endsWith" => Func::EndsWith,
        "contains" => Func::Contains,
        "matches" => {
            arity(name, pos, &args, 1)?;
            let pattern = pattern(&args[0])?;
            return Parser::node(Kind::Matches(Box::new(receiver), Box::new(pattern)), pos, start);
        }
        _ => return Err(unknown(name, pos)),
    };
    arity(name, pos, &args, usize::from(func != Func::Size))?;
    args.insert(0, receiver);
    Parser::node(Kind::Call(func, args), pos, start)
}

/// `name(args)`.
pub(super) fn global(name: &str, pos: usize, mut args: Vec<Node>) -> Result<Node, ExprError> {
    let func = match name {
        "size" => Func::Size,
        "int" => Func::Int,
        "double" => Func::Double,
        "string" => Func::String,
        "matches" => {
            arity(name, pos, &args, 2)?;
            let pattern = pattern(&args[1])?;
            let target = args.swap_remove(0);
            return Parser::node(Kind::Matches(Box::new(target), Box::new(pattern)), pos, pos);
        }
        "date" | "timestamp" => {
            arity(name, pos, &args, 1)?;
            return Ok(Node::lit(moment(name, &args[0])?, pos));
        }
        _ => return Err(unknown(name, pos)),
    };
    arity(name, pos, &args, 1)?;
    Parser::node(Kind::Call(func, args), pos, pos)
}

fn unknown(name: &str, pos: usize) -> ExprError {
    if LOOPING_MACROS.contains(&name) {
        return error(
            pos,
            format!(
                "CEL's {name}() macro loops over a list; row rules have no loops (write the cases out with || or in)"
            ),
        );
    }
    error(pos, format!("row rules have no function {name}(); they know {KNOWN}"))
}

fn arity(name: &str, pos: usize, args: &[Node], wanted: usize) -> Result<(), ExprError> {
    if args.len() == wanted {
        return Ok(());
    }
    let plural = if wanted == 1 { "" } else { "s" };
    Err(error(pos, format!("{name}() takes {wanted} argument{plural}, not {}", args.len())))
}

/// The text of a string literal argument, or why it must be one.
fn literal_text<'n>(arg: &'n Node, what: &str) -> Result<&'n str, ExprError> {
    match &arg.kind {
        Kind::Lit(Lit::Text(text)) => Ok(text),
        _ => Err(error(arg.start, format!("{what} takes a string literal"))),
    }
}

/// A `matches()` pattern, compiled once, here.
fn pattern(arg: &Node) -> Result<regex::Regex, ExprError> {
    let source = literal_text(arg, "matches()")?;
    re2::compile(source).map_err(|detail| error(arg.start, format!("invalid regular expression: {detail}")))
}

/// `date('...')` or `timestamp('...')`, read now: Python's `fromisoformat`.
fn moment(name: &str, arg: &Node) -> Result<Lit, ExprError> {
    let text = literal_text(arg, &format!("{name}()"))?;
    let parsed = if name == "date" {
        isodate::date_fromisoformat(text)
            .or_else(|| isodate::datetime_fromisoformat_date(text))
            .map(|(y, m, d)| Lit::Date(isodate::date_ordinal(y, m, d)))
    } else {
        isodate::datetime_fromisoformat(text)
            .map(|moment| Lit::Datetime { instant: moment.instant(), aware: moment.offset.is_some() })
    };
    parsed.ok_or_else(|| {
        let expected = if name == "date" { "an ISO-8601 date (YYYY-MM-DD)" } else { "an ISO-8601 datetime" };
        error(arg.start, format!("{name}(): {} is not {expected}", repr_str(text)))
    })
}
