//! The parser for the jq subset: a hand-written recursive descent over the expression text.

use serde_json::Value;

use super::{CmpOp, Cond, Filter, JqPath, Operand, Stage, Step};

/// Parses an expression; errors name what is wrong or unsupported.
pub fn parse(expr: &str) -> Result<JqPath, String> {
    let mut p = Parser {
        s: expr.chars().collect(),
        at: 0,
        depth: 0,
    };
    let mut stages = vec![p.stage()?];
    loop {
        p.ws();
        match p.peek() {
            None => break,
            Some('|') => {
                p.at += 1;
                stages.push(p.stage()?);
            }
            Some(c) => return Err(p.unsupported(c)),
        }
    }
    Ok(JqPath(stages))
}

struct Parser {
    s: Vec<char>,
    at: usize,
    /// Open parentheses, bounded so a hostile expression cannot exhaust the stack.
    depth: usize,
}

const MAX_DEPTH: usize = 32;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.at).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn unsupported(&self, c: char) -> String {
        format!("unsupported jq syntax at {:?} (position {})", c, self.at)
    }

    fn eat(&mut self, word: &str) -> bool {
        self.ws();
        let w: Vec<char> = word.chars().collect();
        let end = self.at + w.len();
        if self.s.get(self.at..end) == Some(w.as_slice()) {
            // A keyword must not run into an identifier.
            let alpha = w.last().is_some_and(|c| c.is_alphanumeric());
            if alpha
                && self
                    .s
                    .get(end)
                    .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                return false;
            }
            self.at = end;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, word: &str) -> Result<(), String> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(match self.peek() {
                Some(c) => format!("expected {word:?} at {:?} (position {})", c, self.at),
                None => format!("expected {word:?} at the end"),
            })
        }
    }

    fn stage(&mut self) -> Result<Stage, String> {
        self.ws();
        if self.eat("select") {
            self.expect("(")?;
            let cond = self.cond()?;
            self.expect(")")?;
            let steps = self.steps(false)?;
            return Ok(Stage::Select(cond, steps));
        }
        if self.peek() != Some('.') {
            return match self.peek() {
                Some(c) => Err(self.unsupported(c)),
                None => Err("empty jq expression".to_owned()),
            };
        }
        Ok(Stage::Path(self.steps(true)?))
    }

    /// A run of path steps; `leading` means the run starts at a `.` that may stand alone.
    fn steps(&mut self, leading: bool) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        let mut first = leading;
        loop {
            match self.peek() {
                Some('.') => {
                    self.at += 1;
                    match self.peek() {
                        Some('[') => {}
                        Some('"') => {
                            let name = self.string()?;
                            let opt = self.optional();
                            steps.push(Step::Field(name, opt));
                        }
                        Some(c) if c.is_alphabetic() || c == '_' => {
                            let name = self.ident();
                            let opt = self.optional();
                            steps.push(Step::Field(name, opt));
                        }
                        _ if first => {}
                        Some(c) => return Err(self.unsupported(c)),
                        None => return Err("a path cannot end with '.'".to_owned()),
                    }
                }
                Some('[') => {
                    self.at += 1;
                    self.ws();
                    let step = match self.peek() {
                        Some(']') => Step::Iterate(false),
                        Some('"') => Step::Field(self.string()?, false),
                        Some(c) if c == '-' || c.is_ascii_digit() => {
                            Step::Index(self.integer()?, false)
                        }
                        Some(c) => return Err(self.unsupported(c)),
                        None => return Err("unclosed '['".to_owned()),
                    };
                    self.expect("]")?;
                    let opt = self.optional();
                    steps.push(match step {
                        Step::Iterate(_) => Step::Iterate(opt),
                        Step::Field(f, _) => Step::Field(f, opt),
                        Step::Index(i, _) => Step::Index(i, opt),
                    });
                }
                _ => return Ok(steps),
            }
            first = false;
        }
    }

    fn optional(&mut self) -> bool {
        if self.peek() == Some('?') {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.at += 1;
        }
        self.s[start..self.at].iter().collect()
    }

    fn integer(&mut self) -> Result<i64, String> {
        let start = self.at;
        if self.peek() == Some('-') {
            self.at += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let text: String = self.s[start..self.at].iter().collect();
        text.parse().map_err(|_| format!("bad index {text:?}"))
    }

    fn string(&mut self) -> Result<String, String> {
        self.ws();
        if self.peek() != Some('"') {
            return Err("expected a string".to_owned());
        }
        let start = self.at;
        self.at += 1;
        let mut escaped = false;
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    let raw: String = self.s[start..self.at].iter().collect();
                    return serde_json::from_str(&raw)
                        .map_err(|e| format!("bad string {raw}: {e}"));
                }
                '(' if escaped => return Err("string interpolation is not supported".to_owned()),
                _ => escaped = false,
            }
        }
        Err("unterminated string".to_owned())
    }

    fn cond(&mut self) -> Result<Cond, String> {
        let mut left = self.and()?;
        while self.eat("or") {
            left = Cond::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Cond, String> {
        let mut left = self.comparison()?;
        while self.eat("and") {
            left = Cond::And(Box::new(left), Box::new(self.comparison()?));
        }
        Ok(left)
    }

    fn comparison(&mut self) -> Result<Cond, String> {
        let left = self.operand()?;
        let ops = [
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<=", CmpOp::Le),
            (">=", CmpOp::Ge),
            ("<", CmpOp::Lt),
            (">", CmpOp::Gt),
        ];
        let mut cond = Cond::Value(left.clone());
        for (text, op) in ops {
            if self.eat(text) {
                cond = Cond::Compare(left, op, self.operand()?);
                break;
            }
        }
        while self.eat("|") {
            let filter = if self.eat("not") {
                Filter::Not
            } else if self.eat("startswith") {
                Filter::StartsWith(self.argument()?)
            } else if self.eat("endswith") {
                Filter::EndsWith(self.argument()?)
            } else if self.eat("contains") {
                Filter::Contains(self.argument()?)
            } else {
                self.ws();
                return Err(match self.peek() {
                    Some(c) => self.unsupported(c),
                    None => "expected a filter after '|'".to_owned(),
                });
            };
            cond = Cond::Then(Box::new(cond), filter);
        }
        Ok(cond)
    }

    fn argument(&mut self) -> Result<String, String> {
        self.expect("(")?;
        let s = self.string()?;
        self.expect(")")?;
        Ok(s)
    }

    fn operand(&mut self) -> Result<Operand, String> {
        self.ws();
        match self.peek() {
            Some('.') => Ok(Operand::Path(self.steps(true)?)),
            Some('"') => Ok(Operand::Literal(Value::String(self.string()?))),
            Some('(') => {
                self.at += 1;
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err("expression nested too deeply".to_owned());
                }
                let inner = self.cond()?;
                self.expect(")")?;
                self.depth -= 1;
                Ok(Operand::Group(Box::new(inner)))
            }
            Some(c) if c == '-' || c.is_ascii_digit() => {
                let start = self.at;
                self.at += 1;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
                {
                    self.at += 1;
                }
                let text: String = self.s[start..self.at].iter().collect();
                serde_json::from_str(&text)
                    .map(Operand::Literal)
                    .map_err(|_| format!("bad number {text:?}"))
            }
            _ => {
                for (word, value) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                ] {
                    if self.eat(word) {
                        return Ok(Operand::Literal(value));
                    }
                }
                Err(match self.peek() {
                    Some(c) => self.unsupported(c),
                    None => "expected a value".to_owned(),
                })
            }
        }
    }
}
