//! CEL's grammar (langdef, "Syntax") by recursive descent, one function
//! per precedence level:
//!
//! ```text
//! Expr           = ConditionalOr ["?" ConditionalOr ":" Expr] ;
//! ConditionalOr  = [ConditionalOr "||"] ConditionalAnd ;
//! ConditionalAnd = [ConditionalAnd "&&"] Relation ;
//! Relation       = [Relation Relop] Addition ;
//! Addition       = [Addition ("+" | "-")] Multiplication ;
//! Multiplication = [Multiplication ("*" | "/" | "%")] Unary ;
//! Unary          = Member | "!" {"!"} Member | "-" {"-"} Member ;
//! Member         = Primary | Member "." IDENT "(" [ExprList] ")" ;
//! Primary        = IDENT ["(" [ExprList] ")"] | "(" Expr ")"
//!                | "[" [ExprList] [","] "]" | LITERAL
//!                | "row" ("." IDENT | "[" STRING "]") ;
//! ```
//!
//! Chains of one precedence are loops, not recursion; only `(`, `[`, call
//! arguments and the conditional's last branch recurse, and each counts
//! against the nesting limit before it does, so the parser's recursion is
//! bounded. Every node is checked against the depth limit as it is built,
//! so no tree deeper than the limit exists for the checker or the
//! evaluator to walk.

use super::ast::{BinOp, Kind, Lit, Node};
use super::lexer::{lex, Tok, Token};
use super::resolve::{global, known_call, method};
use super::{ColumnType, ExprError, MAX_DEPTH};

pub(super) struct Parser<'s, 'c> {
    pub(super) tokens: Vec<Token<'s>>,
    pub(super) at: usize,
    /// How many `Expr` levels are open (parentheses, lists, arguments).
    pub(super) nesting: usize,
    pub(super) columns: &'c [(&'c str, ColumnType)],
    /// Column positions in order of first use.
    pub(super) read: Vec<usize>,
}

pub(super) fn error(position: usize, message: impl Into<String>) -> ExprError {
    ExprError { position, message: message.into() }
}

fn too_deep(position: usize) -> ExprError {
    error(position, format!("the expression nests deeper than {MAX_DEPTH} levels"))
}

/// Parse `source`; returns the tree and the columns it reads.
pub(super) fn parse(source: &str, columns: &[(&str, ColumnType)]) -> Result<(Node, Vec<usize>), ExprError> {
    let tokens = lex(source)?;
    let mut parser = Parser { tokens, at: 0, nesting: 0, columns, read: Vec::new() };
    let root = parser.expr()?;
    if *parser.peek() != Tok::End {
        let message = format!("unexpected {} after a complete expression", describe(parser.peek()));
        return Err(error(parser.pos(), message));
    }
    Ok((root, parser.read))
}

/// A token as an error message names it.
pub(super) fn describe(tok: &Tok<'_>) -> String {
    match tok {
        Tok::Int(_) | Tok::Double(_) => "number".into(),
        Tok::Str(_) => "string".into(),
        Tok::Ident(name) => format!("name '{name}'"),
        Tok::True => "'true'".into(),
        Tok::False => "'false'".into(),
        Tok::Null => "'null'".into(),
        Tok::In => "'in'".into(),
        Tok::End => "end of the expression".into(),
        other => format!("'{}'", symbol(other)),
    }
}

fn symbol(tok: &Tok<'_>) -> &'static str {
    match tok {
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::Comma => ",",
        Tok::Dot => ".",
        Tok::Question => "?",
        Tok::Colon => ":",
        Tok::Or => "||",
        Tok::And => "&&",
        Tok::Eq => "==",
        Tok::Ne => "!=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        Tok::Not => "!",
        Tok::Minus => "-",
        Tok::Plus => "+",
        Tok::Star => "*",
        Tok::Slash => "/",
        Tok::Percent => "%",
        _ => "token",
    }
}

fn relop(tok: &Tok<'_>) -> Option<BinOp> {
    Some(match tok {
        Tok::Eq => BinOp::Eq,
        Tok::Ne => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::In => BinOp::In,
        _ => return None,
    })
}

fn addop(tok: &Tok<'_>) -> Option<BinOp> {
    Some(match tok {
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        _ => return None,
    })
}

fn mulop(tok: &Tok<'_>) -> Option<BinOp> {
    Some(match tok {
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Rem,
        _ => return None,
    })
}

impl<'s> Parser<'s, '_> {
    pub(super) fn peek(&self) -> &Tok<'s> {
        &self.tokens[self.at].tok
    }

    pub(super) fn peek_at(&self, ahead: usize) -> &Tok<'s> {
        &self.tokens[(self.at + ahead).min(self.tokens.len() - 1)].tok
    }

    pub(super) fn pos(&self) -> usize {
        self.tokens[self.at].pos
    }

    /// Take the current token (the `End` token stays).
    pub(super) fn bump(&mut self) -> Token<'s> {
        let token = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        token
    }

    /// Take the current token if it is `tok`; returns its position.
    pub(super) fn eat(&mut self, tok: &Tok<'_>) -> Option<usize> {
        (self.peek() == tok).then(|| self.bump().pos)
    }

    pub(super) fn expect(&mut self, tok: &Tok<'_>, context: &str) -> Result<usize, ExprError> {
        self.eat(tok).ok_or_else(|| {
            error(self.pos(), format!("expected '{}' {context}, found {}", symbol(tok), describe(self.peek())))
        })
    }

    /// A node, refused when it would be deeper than the limit.
    pub(super) fn node(kind: Kind, pos: usize, start: usize) -> Result<Node, ExprError> {
        let node = Node::new(kind, pos, start);
        if node.depth > MAX_DEPTH {
            return Err(too_deep(pos));
        }
        Ok(node)
    }

    pub(super) fn expr(&mut self) -> Result<Node, ExprError> {
        let start = self.pos();
        let condition = self.or()?;
        let Some(question) = self.eat(&Tok::Question) else { return Ok(condition) };
        let yes = self.or()?;
        let colon = self.expect(&Tok::Colon, "in 'condition ? a : b'")?;
        // The last branch is an Expr again: `a ? b : c ? d : e` nests.
        let no = self.nested(colon, Self::expr)?;
        Self::node(Kind::Cond(Box::new([condition, yes, no])), question, start)
    }

    /// Run `inner` one nesting level down, opened by the token at `at`.
    pub(super) fn nested<T>(
        &mut self,
        at: usize,
        inner: impl FnOnce(&mut Self) -> Result<T, ExprError>,
    ) -> Result<T, ExprError> {
        self.nesting += 1;
        if self.nesting > MAX_DEPTH {
            return Err(too_deep(at));
        }
        let result = inner(self);
        self.nesting -= 1;
        result
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.chain(&Tok::Or, Self::and, Kind::Or)
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        self.chain(&Tok::And, Self::relation, Kind::And)
    }

    /// `a op b op c ...` as one n-ary node.
    fn chain(
        &mut self,
        op: &Tok<'_>,
        next: fn(&mut Self) -> Result<Node, ExprError>,
        make: fn(Vec<Node>) -> Kind,
    ) -> Result<Node, ExprError> {
        let start = self.pos();
        let first = next(self)?;
        let Some(op_pos) = self.eat(op) else { return Ok(first) };
        let mut nodes = vec![first, next(self)?];
        while self.eat(op).is_some() {
            nodes.push(next(self)?);
        }
        Self::node(make(nodes), op_pos, start)
    }

    fn relation(&mut self) -> Result<Node, ExprError> {
        self.binary(relop, Self::addition)
    }

    fn addition(&mut self) -> Result<Node, ExprError> {
        self.binary(addop, Self::multiplication)
    }

    fn multiplication(&mut self) -> Result<Node, ExprError> {
        self.binary(mulop, Self::unary)
    }

    /// Left-associative operators of one precedence.
    fn binary(
        &mut self,
        op_of: fn(&Tok<'_>) -> Option<BinOp>,
        next: fn(&mut Self) -> Result<Node, ExprError>,
    ) -> Result<Node, ExprError> {
        let start = self.pos();
        let mut left = next(self)?;
        while let Some(op) = op_of(self.peek()) {
            let pos = self.bump().pos;
            let right = next(self)?;
            left = Self::node(Kind::Binary(op, Box::new([left, right])), pos, start)?;
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, ExprError> {
        let mut ops = Vec::new();
        while matches!(self.peek(), Tok::Not | Tok::Minus) {
            let is_not = *self.peek() == Tok::Not;
            ops.push((is_not, self.bump().pos));
        }
        let negated_literal = match (ops.last(), self.peek(), self.peek_at(1)) {
            (Some(&(false, _)), &Tok::Int(magnitude), next)
                if !matches!(next, Tok::Dot | Tok::LBracket | Tok::LParen) =>
            {
                Some(magnitude)
            }
            _ => None,
        };
        let mut node = if let Some(magnitude) = negated_literal {
            // `-9223372036854775808` is an int literal, as in CEL.
            let (_, minus) = ops.pop().unwrap_or((false, 0));
            let literal = self.bump().pos;
            let value = i64::try_from(-i128::from(magnitude))
                .map_err(|_| error(literal, "integer literal out of range (CEL's int is 64-bit)"))?;
            Node::lit(Lit::Int(value), minus)
        } else {
            self.member()?
        };
        for (is_not, pos) in ops.into_iter().rev() {
            let inner = Box::new(node);
            node = Self::node(if is_not { Kind::Not(inner) } else { Kind::Neg(inner) }, pos, pos)?;
        }
        Ok(node)
    }

    fn member(&mut self) -> Result<Node, ExprError> {
        let start = self.pos();
        let mut node = self.primary()?;
        loop {
            match self.peek() {
                Tok::Dot => {
                    self.bump();
                    let pos = self.pos();
                    let Tok::Ident(name) = *self.peek() else {
                        return Err(error(pos, format!("expected a name after '.', found {}", describe(self.peek()))));
                    };
                    self.bump();
                    if *self.peek() != Tok::LParen {
                        return Err(error(
                            pos,
                            format!("'.{name}' selects a field, and only row has fields: a column is row.{name}"),
                        ));
                    }
                    known_call(name, pos, true)?;
                    let args = self.arguments()?;
                    node = method(node, name, pos, args, start)?;
                }
                Tok::LBracket => {
                    return Err(error(self.pos(), "only row can be indexed, as row[\"column name\"]"));
                }
                _ => return Ok(node),
            }
        }
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let Token { tok, pos } = self.bump();
        let lit = |lit| Ok(Node::lit(lit, pos));
        match tok {
            Tok::Int(magnitude) => match i64::try_from(magnitude) {
                Ok(value) => lit(Lit::Int(value)),
                Err(_) => Err(error(pos, "integer literal out of range (CEL's int is 64-bit)")),
            },
            Tok::Double(value) => lit(Lit::Double(value)),
            Tok::Str(text) => lit(Lit::Text(text)),
            Tok::True => lit(Lit::Bool(true)),
            Tok::False => lit(Lit::Bool(false)),
            Tok::Null => lit(Lit::Null),
            Tok::LParen => self.nested(pos, |parser| {
                let inner = parser.expr()?;
                parser.expect(&Tok::RParen, &format!("to close the '(' at {pos}"))?;
                Ok(inner)
            }),
            Tok::LBracket => {
                let items = self.nested(pos, |parser| {
                    let mut items = Vec::new();
                    while *parser.peek() != Tok::RBracket {
                        items.push(parser.expr()?);
                        if parser.eat(&Tok::Comma).is_none() {
                            break;
                        }
                    }
                    parser.expect(&Tok::RBracket, &format!("to close the list opened at {pos}"))?;
                    Ok(items)
                })?;
                Self::node(Kind::List(items), pos, pos)
            }
            Tok::Ident("row") => {
                let column = self.row_access(pos)?;
                Ok(Node::new(Kind::Column(column), pos, pos))
            }
            Tok::Ident(name) if *self.peek() == Tok::LParen => {
                if name == "has" {
                    return self.has(pos);
                }
                known_call(name, pos, false)?;
                let args = self.arguments()?;
                global(name, pos, args)
            }
            Tok::Ident(name) => {
                let column = self.column(name, pos)?;
                Ok(Node::new(Kind::Column(column), pos, pos))
            }
            Tok::Dot => Err(error(pos, "a leading '.' (root-scoped names) is not supported in row rules")),
            other => Err(error(pos, format!("expected a value, found {}", describe(&other)))),
        }
    }

    /// `(a, b, ...)` after a function name.
    pub(super) fn arguments(&mut self) -> Result<Vec<Node>, ExprError> {
        let open = self.expect(&Tok::LParen, "to open the arguments")?;
        self.nested(open, |parser| {
            let mut args = Vec::new();
            if parser.eat(&Tok::RParen).is_some() {
                return Ok(args);
            }
            loop {
                args.push(parser.expr()?);
                if parser.eat(&Tok::Comma).is_none() {
                    break;
                }
            }
            parser.expect(&Tok::RParen, &format!("to close the arguments opened at {open}"))?;
            Ok(args)
        })
    }
}
