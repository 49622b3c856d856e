//! The text form of a label selector, read as apimachinery's `labels` lexer and parser read it
//! (`k8s.io/apimachinery/pkg/labels/selector.go`), with its exact error wording.

use super::*;

/// `labels.Parse`'s requirements from a selector's text, or the parser's error message.
pub(super) fn requirements(text: &str) -> Result<Vec<Requirement>, String> {
    Parser {
        items: lex_all(text),
        pos: 0,
    }
    .parse()
}

/// The lexer's tokens (`labels.Token`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Error,
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn token_of(s: &[u8]) -> Option<Token> {
    Some(match s {
        b")" => Token::ClosedPar,
        b"," => Token::Comma,
        b"!" => Token::DoesNotExist,
        b"==" => Token::DoubleEquals,
        b"=" => Token::Equals,
        b">" => Token::GreaterThan,
        b"in" => Token::In,
        b"<" => Token::LessThan,
        b"!=" => Token::NotEquals,
        b"notin" => Token::NotIn,
        b"(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(c: u8) -> bool {
    matches!(c, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// `labels.Lexer`: reads bytes; a NUL byte ends the text as the end of input does.
struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    fn read(&mut self) -> u8 {
        let b = self.s.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn unread(&mut self) {
        self.pos -= 1;
    }

    fn lex(&mut self) -> (Token, String) {
        let mut c = self.read();
        while is_whitespace(c) {
            c = self.read();
        }
        if c == 0 {
            return (Token::EndOfString, String::new());
        }
        self.unread();
        if is_special(c) {
            self.special()
        } else {
            self.identifier()
        }
    }

    fn identifier(&mut self) -> (Token, String) {
        let mut buffer = Vec::new();
        loop {
            let c = self.read();
            if c == 0 {
                break;
            }
            if is_special(c) || is_whitespace(c) {
                self.unread();
                break;
            }
            buffer.push(c);
        }
        let lit = String::from_utf8_lossy(&buffer).into_owned();
        (token_of(&buffer).unwrap_or(Token::Identifier), lit)
    }

    fn special(&mut self) -> (Token, String) {
        let mut buffer = Vec::new();
        let mut last: Option<(Token, String)> = None;
        loop {
            let c = self.read();
            if c == 0 {
                break;
            }
            if !is_special(c) {
                self.unread();
                break;
            }
            buffer.push(c);
            match token_of(&buffer) {
                Some(t) => last = Some((t, String::from_utf8_lossy(&buffer).into_owned())),
                None if last.is_some() => {
                    self.unread();
                    break;
                }
                None => {}
            }
        }
        last.unwrap_or_else(|| {
            (
                Token::Error,
                format!(
                    "error expected: keyword found '{}'",
                    String::from_utf8_lossy(&buffer)
                ),
            )
        })
    }
}

fn lex_all(text: &str) -> Vec<(Token, String)> {
    let mut lexer = Lexer {
        s: text.as_bytes(),
        pos: 0,
    };
    let mut items = Vec::new();
    loop {
        let item = lexer.lex();
        let end = item.0 == Token::EndOfString;
        items.push(item);
        if end {
            return items;
        }
    }
}

/// `labels.Parser`; `values` is its `Values` context, where `in` and `notin` are identifiers.
struct Parser {
    items: Vec<(Token, String)>,
    pos: usize,
}

const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

impl Parser {
    fn lookahead(&self, values: bool) -> (Token, String) {
        let (t, l) = self.items[self.pos.min(self.items.len() - 1)].clone();
        (Self::in_context(t, values), l)
    }

    fn consume(&mut self, values: bool) -> (Token, String) {
        let item = self.lookahead(values);
        self.pos += 1;
        item
    }

    fn in_context(t: Token, values: bool) -> Token {
        match t {
            Token::In | Token::NotIn if values => Token::Identifier,
            t => t,
        }
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut reqs = Vec::new();
        loop {
            let (tok, lit) = self.lookahead(true);
            match tok {
                Token::Identifier | Token::DoesNotExist => {
                    let r = self
                        .requirement()
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    reqs.push(r);
                    let (t, l) = self.consume(true);
                    match t {
                        Token::EndOfString => return Ok(reqs),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(true);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!(
                                    "found '{l2}', expected: identifier after ','"
                                ));
                            }
                        }
                        _ => {
                            return Err(format!("found '{l}', expected: ',' or 'end of string'"));
                        }
                    }
                }
                Token::EndOfString => return Ok(reqs),
                _ => {
                    return Err(format!(
                        "found '{lit}', expected: !, identifier, or 'end of string'"
                    ));
                }
            }
        }
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        let (key, unary) = self.key_and_operator()?;
        if let Some(op) = unary {
            return Requirement::new(&key, op, Vec::new());
        }
        let (tok, lit) = self.consume(false);
        let op = match tok {
            Token::In => Op::In,
            Token::Equals => Op::Equals,
            Token::DoubleEquals => Op::DoubleEquals,
            Token::GreaterThan => Op::GreaterThan,
            Token::LessThan => Op::LessThan,
            Token::NotIn => Op::NotIn,
            Token::NotEquals => Op::NotEquals,
            _ => return Err(format!("found '{lit}', expected: {BINARY_OPERATORS}")),
        };
        let mut values = match op {
            Op::In | Op::NotIn => self.values()?,
            _ => self.exact_value()?,
        };
        // `sets.String.List()`: sorted, each once.
        values.sort();
        values.dedup();
        Requirement::new(&key, op, values)
    }

    /// The key, and the operator when it is implied: `!key` or a bare `key`.
    fn key_and_operator(&mut self) -> Result<(String, Option<Op>), String> {
        let mut unary = None;
        let (mut tok, mut lit) = self.consume(true);
        if tok == Token::DoesNotExist {
            unary = Some(Op::DoesNotExist);
            (tok, lit) = self.consume(true);
        }
        if tok != Token::Identifier {
            return Err(format!("found '{lit}', expected: identifier"));
        }
        let problems = key_problems(&lit);
        if !problems.is_empty() {
            // Validated with the parser's (nil) field path, which Go prints as `<nil>`.
            return Err(
                FieldError::invalid("<nil>", BadValue::text(&lit), &problems.join("; "))
                    .to_string(),
            );
        }
        let (next, _) = self.lookahead(true);
        if matches!(next, Token::EndOfString | Token::Comma) && unary.is_none() {
            unary = Some(Op::Exists);
        }
        Ok((lit, unary))
    }

    fn values(&mut self) -> Result<Vec<String>, String> {
        let (tok, lit) = self.consume(true);
        if tok != Token::OpenPar {
            // Sic: no comma before "expected" in this one of the parser's messages.
            return Err(format!("found '{lit}' expected: '('"));
        }
        let (tok, lit) = self.lookahead(true);
        match tok {
            Token::Identifier | Token::Comma => {
                let list = self.identifiers()?;
                let (tok, _) = self.consume(true);
                if tok != Token::ClosedPar {
                    return Err(format!("found '{lit}', expected: ')'"));
                }
                Ok(list)
            }
            Token::ClosedPar => {
                self.consume(true);
                Ok(vec![String::new()])
            }
            _ => Err(format!("found '{lit}', expected: ',', ')' or identifier")),
        }
    }

    fn identifiers(&mut self) -> Result<Vec<String>, String> {
        let mut list: Vec<String> = Vec::new();
        loop {
            let (tok, lit) = self.consume(true);
            match tok {
                Token::Identifier => {
                    list.push(lit);
                    let (tok2, lit2) = self.lookahead(true);
                    match tok2 {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(list),
                        _ => return Err(format!("found '{lit2}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if list.is_empty() {
                        list.push(String::new());
                    }
                    let (tok2, _) = self.lookahead(true);
                    if tok2 == Token::ClosedPar {
                        list.push(String::new());
                        return Ok(list);
                    }
                    if tok2 == Token::Comma {
                        list.push(String::new());
                    }
                }
                _ => return Err(format!("found '{lit}', expected: ',', or identifier")),
            }
        }
    }

    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        let (tok, _) = self.lookahead(true);
        if matches!(tok, Token::EndOfString | Token::Comma) {
            return Ok(vec![String::new()]);
        }
        let (tok, lit) = self.consume(true);
        if tok == Token::Identifier {
            return Ok(vec![lit]);
        }
        Err(format!("found '{lit}', expected: identifier"))
    }
}
