//! Labels as apimachinery validates and selects them: label keys and values
//! (`content.IsLabelKey`, `content.IsLabelValue`), label selectors parsed from text by the
//! lexer and parser of `k8s.io/apimachinery/pkg/labels/selector.go` (with its exact error
//! wording), and `metav1.LabelSelector` objects turned into selectors as
//! `metav1.LabelSelectorAsSelector` does.

use serde_json::Value;

use crate::status::{BadValue, FieldError};

const KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

/// `content.RegexError`: the message, its examples and the pattern.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let shown: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        shown.join(" or ")
    )
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`: a label key's name part, a label value.
fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    !b.is_empty()
        && alnum(&b[0])
        && alnum(&b[b.len() - 1])
        && b.iter()
            .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// `content.IsDNS1123Subdomain`.
fn subdomain_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push("must be no more than 253 bytes".to_string());
    }
    let ok = !value.is_empty()
        && value.split('.').all(|part| {
            let b = part.as_bytes();
            !b.is_empty()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        });
    if !ok {
        errs.push(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `content.IsLabelKey` (= `IsQualifiedName`): every problem with a label key or annotation
/// key, in apimachinery's words and order; empty when it is valid.
pub fn key_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    subdomain_problems(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(KEY_MSG, KEY_FMT, &["MyName", "my.name", "123-abc"])
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".to_string());
    }
    if !is_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(KEY_MSG, KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `content.IsLabelValue`: every problem with a label value; empty when it is valid.
pub fn value_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 bytes".to_string());
    }
    if !value.is_empty() && !is_name_part(value) {
        errs.push(regex_error(
            VALUE_MSG,
            VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortName`: every problem with a port's name (an IANA service name).
pub fn port_name_problems(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push("must be no more than 15 characters".to_string());
    }
    if !port
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `selection.Operator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    In,
    NotIn,
    Equals,
    DoubleEquals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

/// One `labels.Requirement`: a key, an operator and its values.
#[derive(Debug, Clone, PartialEq)]
struct Requirement {
    key: String,
    op: Op,
    values: Vec<String>,
}

impl Requirement {
    /// `labels.NewRequirement` (with no field path): the requirement, or every problem with
    /// it as `ErrorList.ToAggregate` prints them.
    fn new(key: &str, op: Op, values: Vec<String>) -> Result<Requirement, String> {
        let mut errs: Vec<FieldError> = Vec::new();
        let key_errs = key_problems(key);
        if !key_errs.is_empty() {
            errs.push(FieldError::invalid(
                "key",
                BadValue::text(key),
                &key_errs.join("; "),
            ));
        }
        let listed = || BadValue::json(&Value::from(values.clone()));
        match op {
            Op::In | Op::NotIn if values.is_empty() => errs.push(FieldError::invalid(
                "values",
                listed(),
                "for 'in', 'notin' operators, values set can't be empty",
            )),
            Op::Equals | Op::DoubleEquals | Op::NotEquals if values.len() != 1 => {
                errs.push(FieldError::invalid(
                    "values",
                    listed(),
                    "exact-match compatibility requires one single value",
                ))
            }
            Op::Exists | Op::DoesNotExist if !values.is_empty() => errs.push(FieldError::invalid(
                "values",
                listed(),
                "values set must be empty for exists and does not exist",
            )),
            Op::GreaterThan | Op::LessThan => {
                if values.len() != 1 {
                    errs.push(FieldError::invalid(
                        "values",
                        listed(),
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    ));
                }
                for (i, v) in values.iter().enumerate() {
                    if v.parse::<i64>().is_err() {
                        errs.push(FieldError::invalid(
                            &format!("values[{i}]"),
                            BadValue::text(v),
                            "for 'Gt', 'Lt' operators, the value must be an integer",
                        ));
                    }
                }
            }
            _ => {}
        }
        for (i, v) in values.iter().enumerate() {
            let problems = value_problems(v);
            if !problems.is_empty() {
                errs.push(FieldError::invalid(
                    &format!("values[{i}][{key}]"),
                    BadValue::text(v),
                    &problems.join("; "),
                ));
            }
        }
        if errs.is_empty() {
            return Ok(Requirement {
                key: key.to_string(),
                op,
                values,
            });
        }
        Err(aggregate(&errs))
    }

    fn matches(&self, labels: &Value) -> bool {
        let found = labels
            .get(&self.key)
            .map(|v| v.as_str().unwrap_or_default());
        let has = |v: &str| self.values.iter().any(|x| x == v);
        match self.op {
            Op::In | Op::Equals | Op::DoubleEquals => found.is_some_and(has),
            Op::NotIn | Op::NotEquals => found.is_none_or(|v| !has(v)),
            Op::Exists => found.is_some(),
            Op::DoesNotExist => found.is_none(),
            Op::GreaterThan | Op::LessThan => {
                let (Some(Ok(have)), [want]) =
                    (found.map(str::parse::<i64>), self.values.as_slice())
                else {
                    return false;
                };
                let Ok(want) = want.parse::<i64>() else {
                    return false;
                };
                if self.op == Op::GreaterThan {
                    have > want
                } else {
                    have < want
                }
            }
        }
    }
}

/// `ErrorList.ToAggregate().Error()`: one message, or several in brackets, repeats dropped.
fn aggregate(errs: &[FieldError]) -> String {
    let mut shown: Vec<String> = Vec::new();
    for e in errs {
        let line = e.to_string();
        if !shown.contains(&line) {
            shown.push(line);
        }
    }
    match shown.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// A label selector: `Everything` (no requirements), `Nothing` (what a missing
/// `metav1.LabelSelector` becomes), or requirements that must all hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector {
    nothing: bool,
    reqs: Vec<Requirement>,
}

impl LabelSelector {
    /// `labels.Parse`: a selector from its text form, or the parser's error message.
    pub fn parse(text: &str) -> Result<LabelSelector, String> {
        let mut parser = Parser {
            items: lex_all(text),
            pos: 0,
        };
        let mut reqs = parser.parse()?;
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(LabelSelector {
            nothing: false,
            reqs,
        })
    }

    /// `metav1.LabelSelectorAsSelector`: null selects nothing, `{}` everything, otherwise
    /// every `matchLabels` entry and `matchExpressions` term must hold.
    pub fn from_object(selector: &Value) -> Result<LabelSelector, String> {
        if selector.is_null() {
            return Ok(LabelSelector {
                nothing: true,
                reqs: Vec::new(),
            });
        }
        let mut reqs = Vec::new();
        for (k, v) in selector["matchLabels"].as_object().into_iter().flatten() {
            let value = v.as_str().unwrap_or_default().to_string();
            reqs.push(Requirement::new(k, Op::Equals, vec![value])?);
        }
        for expr in selector["matchExpressions"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let operator = expr["operator"].as_str().unwrap_or_default();
            let op = match operator {
                "In" => Op::In,
                "NotIn" => Op::NotIn,
                "Exists" => Op::Exists,
                "DoesNotExist" => Op::DoesNotExist,
                other => {
                    return Err(format!(
                        "{} is not a valid label selector operator",
                        crate::validation::go_quote(other)
                    ));
                }
            };
            let values = expr["values"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect();
            reqs.push(Requirement::new(
                expr["key"].as_str().unwrap_or_default(),
                op,
                values,
            )?);
        }
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(LabelSelector {
            nothing: false,
            reqs,
        })
    }

    /// `Selector.Empty()`: selects everything.
    pub fn is_empty(&self) -> bool {
        !self.nothing && self.reqs.is_empty()
    }

    /// Whether a label map (`metadata.labels`, or null for none) is selected.
    pub fn matches_labels(&self, labels: &Value) -> bool {
        !self.nothing && self.reqs.iter().all(|r| r.matches(labels))
    }

    /// Whether an object's `metadata.labels` are selected.
    pub fn matches(&self, obj: &Value) -> bool {
        self.matches_labels(&obj["metadata"]["labels"])
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(text: &str) -> String {
        LabelSelector::parse(text).unwrap_err()
    }

    #[test]
    fn parse_errors_are_worded_as_the_apimachinery_parser_words_them() {
        for (text, want) in [
            (
                "a in b",
                "unable to parse requirement: found 'b' expected: '('",
            ),
            (
                "a notin b",
                "unable to parse requirement: found 'b' expected: '('",
            ),
            (
                "=x",
                "found '=', expected: !, identifier, or 'end of string'",
            ),
            ("a,,b", "found ',', expected: identifier after ','"),
            ("a,", "found '', expected: identifier after ','"),
            (
                "a in (b",
                "unable to parse requirement: found '', expected: ',' or ')'",
            ),
            (
                "a in (b c)",
                "unable to parse requirement: found 'c', expected: ',' or ')'",
            ),
            ("a=b=c", "found '=', expected: ',' or 'end of string'"),
            ("a!=b!=c", "found '!=', expected: ',' or 'end of string'"),
            (
                "a b",
                "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
            ),
            (
                "a!",
                "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt",
            ),
            (
                "!",
                "unable to parse requirement: found '', expected: identifier",
            ),
            (
                "a=(b)",
                "unable to parse requirement: found '(', expected: identifier",
            ),
            (
                "(a)",
                "found '(', expected: !, identifier, or 'end of string'",
            ),
            (
                "a>x",
                "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
            ),
        ] {
            assert_eq!(err(text), want, "{text}");
        }
        assert_eq!(
            err("a=b@"),
            "unable to parse requirement: values[0][a]: Invalid value: \"b@\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
        );
        assert!(err("x/").starts_with(
            "unable to parse requirement: <nil>: Invalid value: \"x/\": name part must be non-empty; name part must consist of"
        ));
        assert_eq!(
            err(&"k".repeat(64)),
            format!(
                "unable to parse requirement: <nil>: Invalid value: \"{}\": name part must be no more than 63 bytes",
                "k".repeat(64)
            )
        );
    }

    #[test]
    fn every_form_selects_as_kubernetes_does() {
        let labels = json!({"app": "web", "tier": "front", "n": "5"});
        for (text, want) in [
            ("", true),
            ("app=web", true),
            ("app==web,tier=front", true),
            ("app!=web", false),
            ("app in (api, web)", true),
            ("tier notin (front)", false),
            ("app", true),
            ("!app", false),
            ("!legacy", true),
            ("a in ()", false),
            ("a==", false),
            ("app in (,web)", true),
            ("n>4,n<6", true),
            ("n>5", false),
            ("missing notin (x)", true),
        ] {
            let sel = LabelSelector::parse(text).unwrap();
            assert_eq!(sel.matches_labels(&labels), want, "{text}");
        }
    }

    #[test]
    fn selector_objects_select_as_label_selector_as_selector() {
        let labels = json!({"app": "web"});
        let null = LabelSelector::from_object(&Value::Null).unwrap();
        assert!(!null.is_empty() && !null.matches_labels(&labels));
        let empty = LabelSelector::from_object(&json!({})).unwrap();
        assert!(empty.is_empty() && empty.matches_labels(&labels));
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [
            {"key": "tier", "operator": "DoesNotExist"}]});
        assert!(
            LabelSelector::from_object(&sel)
                .unwrap()
                .matches_labels(&labels)
        );
        assert_eq!(
            LabelSelector::from_object(
                &json!({"matchExpressions": [{"key": "a", "operator": "Bogus"}]})
            )
            .unwrap_err(),
            "\"Bogus\" is not a valid label selector operator"
        );
        assert_eq!(
            LabelSelector::from_object(
                &json!({"matchExpressions": [{"key": "a", "operator": "In"}]})
            )
            .unwrap_err(),
            "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
        );
    }

    #[test]
    fn keys_and_values_are_worded_as_content_words_them() {
        assert!(key_problems("app.kubernetes.io/name").is_empty());
        assert_eq!(
            key_problems("a/b/c"),
            vec![
                "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ]
        );
        assert_eq!(key_problems("Bad_/x").len(), 1);
        assert!(key_problems("Bad_/x")[0].starts_with("prefix part a lowercase RFC 1123"));
        assert_eq!(
            value_problems(&"v".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
    }
}
