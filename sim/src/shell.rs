//! A tiny deterministic shell for the embedded cluster's Job and Pod containers.
//!
//! Images are never pulled, so a container's command is interpreted here rather than run: what it
//! prints and how long it sleeps come back as a [`Trace`] the simulator replays on its own clock.
//! Only `echo` (`-n`), `sleep`, `exit`, `true`, `false` and `:` exist, joined by `;`, newlines,
//! `&&` and `||`, with quoting and `$?`. Everything else is refused up front, before any step
//! runs, so a lesson never half-runs a script it cannot finish.

use std::iter::Peekable;
use std::str::Chars;
use std::time::Duration;

/// One thing a container does, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Text written to the container's log, exactly as echo prints it (`echo hi` gives "hi\n").
    Output(String),
    /// The container sleeping.
    Sleep(Duration),
}

/// Everything a container did, and how it exited.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub steps: Vec<Step>,
    pub exit_code: i32,
}

/// Why a command cannot run here.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ShellError {
    #[error(
        "{command}: not available in the embedded cluster, whose containers only run echo, sleep, \
         exit, true and false (joined by ;, && and ||); on the real VM the busybox image would run it"
    )]
    Unsupported { command: String },
    #[error("sh: syntax error: {0}")]
    Syntax(String),
}

/// Runs a container's command+args (Kubernetes `command` followed by `args`; an empty list means the image's default, which we treat as `true`-like success with no output).
pub fn run(argv: &[String]) -> Result<Trace, ShellError> {
    let mut machine = Machine {
        steps: Vec::new(),
        status: 0,
    };
    let Some((program, args)) = argv.split_first() else {
        return Ok(machine.finish(0));
    };
    let shell = basename(program);
    if !matches!(shell, "sh" | "ash" | "bash" | "dash") {
        // Exec'd directly: no shell reads the words, so quotes and `$?` are plain text.
        let words: Vec<Word> = argv.iter().map(|a| vec![Piece::Text(a.clone())]).collect();
        vet(&words)?;
        let code = match machine.command(&words) {
            Flow::Next(code) | Flow::Exit(code) => code,
        };
        return Ok(machine.finish(code));
    }
    // Options come first (`-c`, `-e`, `-l`, bundled or not); `-c` takes the first operand.
    let is_option = |a: &&String| a.len() > 1 && a.starts_with('-') && *a != "--";
    let options: String = args.iter().take_while(is_option).map(|o| &o[1..]).collect();
    let mut operands = args.iter().skip_while(is_option).skip_while(|a| *a == "--");
    if let Some(bad) = options.chars().find(|o| !"cel".contains(*o)) {
        return Err(unsupported(&format!("{program} -{bad}")));
    }
    let script = match operands.next() {
        // Later operands become $0, $1, ...; without variables nothing reads them.
        Some(script) if options.contains('c') => script,
        None if options.contains('c') => return Err(syntax("-c requires an argument")),
        // A script file could only come from the image.
        Some(file) => return Err(unsupported(&format!("{program} {file}"))),
        // No script at all: the shell reads stdin, which a container doesn't have.
        None => return Ok(machine.finish(0)),
    };
    let script = parse(lex(script))?;
    let code = machine.script(&script, options.contains('e'));
    Ok(machine.finish(code))
}

/// The commands that exist here; all are busybox builtins or applets.
const BUILTINS: &[&str] = &["echo", "sleep", "exit", "true", "false", ":"];

fn unsupported(command: &str) -> ShellError {
    ShellError::Unsupported {
        command: command.to_owned(),
    }
}

fn syntax(message: &str) -> ShellError {
    ShellError::Syntax(message.to_owned())
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A piece of a word. `$?` stays apart because it expands when its command runs.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Status,
}

type Word = Vec<Piece>;

#[derive(Debug, PartialEq)]
enum Token {
    Word(Word),
    Semi,
    Newline,
    And,
    Or,
    /// Something we can't run; it stops lexing and fails the parse once reached, so the
    /// first problem in the script is the one reported.
    Bad(ShellError),
}

fn push_char(word: &mut Word, c: char) {
    match word.last_mut() {
        Some(Piece::Text(text)) => text.push(c),
        _ => word.push(Piece::Text(c.to_string())),
    }
}

/// `$` outside single quotes: `$?` is the last status, a lone `$` is literal, the rest are
/// variables and substitutions we don't have.
fn dollar(chars: &mut Peekable<Chars>) -> Result<Option<Piece>, ShellError> {
    match chars.peek().copied() {
        Some('?') => {
            chars.next();
            Ok(Some(Piece::Status))
        }
        Some('{') => Err(unsupported("${...} (variable)")),
        Some('(') => Err(unsupported("$(...) (command substitution)")),
        Some(c) if c.is_ascii_alphanumeric() || "_@*#$!-".contains(c) => {
            let mut name = String::from("$");
            while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
                name.push(c);
            }
            if name.len() == 1 {
                name.push(c);
            }
            Err(unsupported(&format!("{name} (variable)")))
        }
        _ => Ok(None),
    }
}

/// Reads the rest of a word-forming character `c` into `word`.
fn word_char(c: char, chars: &mut Peekable<Chars>, word: &mut Word) -> Result<(), ShellError> {
    let unterminated = || syntax("unterminated quoted string");
    match c {
        '\'' => loop {
            match chars.next().ok_or_else(unterminated)? {
                '\'' => break,
                c => push_char(word, c),
            }
        },
        '"' => loop {
            match chars.next().ok_or_else(unterminated)? {
                '"' => break,
                '`' => return Err(unsupported("` (command substitution)")),
                '$' => match dollar(chars)? {
                    Some(piece) => word.push(piece),
                    None => push_char(word, '$'),
                },
                '\\' => match chars.next().ok_or_else(unterminated)? {
                    '\n' => {}
                    c @ ('$' | '`' | '"' | '\\') => push_char(word, c),
                    c => {
                        push_char(word, '\\');
                        push_char(word, c);
                    }
                },
                c => push_char(word, c),
            }
        },
        '\\' => match chars.next() {
            Some('\n') => {}
            Some(c) => push_char(word, c),
            None => push_char(word, '\\'),
        },
        '$' => match dollar(chars)? {
            Some(piece) => word.push(piece),
            None => push_char(word, '$'),
        },
        // `*` would list the container's files; `?` and `[` are left as text, as they are when
        // nothing matches them, which is the usual case in a container's working directory.
        '*' => return Err(unsupported("* (filename glob)")),
        '`' => return Err(unsupported("` (command substitution)")),
        c => push_char(word, c),
    }
    Ok(())
}

/// Splits a script into words and operators.
fn lex(src: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = src.chars().peekable();
    let mut word: Option<Word> = None;
    while let Some(c) = chars.next() {
        let token = match c {
            ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')' => {
                tokens.extend(word.take().map(Token::Word));
                match c {
                    '\n' => Token::Newline,
                    ';' if chars.next_if_eq(&';').is_some() => {
                        Token::Bad(syntax("unexpected \";;\""))
                    }
                    ';' => Token::Semi,
                    '&' if chars.next_if_eq(&'&').is_some() => Token::And,
                    '|' if chars.next_if_eq(&'|').is_some() => Token::Or,
                    '&' => Token::Bad(unsupported("& (background job)")),
                    '|' => Token::Bad(unsupported("| (pipe)")),
                    '<' | '>' => Token::Bad(unsupported(&format!("{c} (redirection)"))),
                    '(' | ')' => Token::Bad(unsupported(&format!("{c} (subshell)"))),
                    _ => continue,
                }
            }
            '#' if word.is_none() => {
                while chars.next_if(|c| *c != '\n').is_some() {}
                continue;
            }
            // A line continuation between words must not start an empty one.
            '\\' if word.is_none() && chars.next_if_eq(&'\n').is_some() => continue,
            c => match word_char(c, &mut chars, word.get_or_insert_with(Vec::new)) {
                Ok(()) => continue,
                Err(e) => {
                    tokens.extend(word.take().map(Token::Word));
                    Token::Bad(e)
                }
            },
        };
        let bad = matches!(token, Token::Bad(_));
        tokens.push(token);
        if bad {
            return tokens;
        }
    }
    tokens.extend(word.take().map(Token::Word));
    tokens
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    And,
    Or,
}

/// Commands joined by `&&` and `||`, which bind equally and from the left.
#[derive(Debug, PartialEq)]
struct AndOr {
    first: Vec<Word>,
    rest: Vec<(Op, Vec<Word>)>,
}

/// A word as the script spells it, for messages.
fn spelled(word: &Word) -> String {
    let piece = |p: &Piece| match p {
        Piece::Text(t) => t.clone(),
        Piece::Status => "$?".into(),
    };
    word.iter().map(piece).collect()
}

fn unexpected(token: Option<Token>) -> ShellError {
    match token {
        None => syntax("unexpected end of file"),
        Some(Token::Bad(e)) => e,
        Some(Token::Semi) => syntax("unexpected \";\""),
        Some(Token::And) => syntax("unexpected \"&&\""),
        Some(Token::Or) => syntax("unexpected \"||\""),
        Some(Token::Newline | Token::Word(_)) => syntax("unexpected newline"),
    }
}

/// A simple command starting at `token`: its words, once its name is known to exist here.
fn command(
    token: Option<Token>,
    tokens: &mut Peekable<impl Iterator<Item = Token>>,
) -> Result<Vec<Word>, ShellError> {
    let Some(Token::Word(name)) = token else {
        return Err(unexpected(token));
    };
    let mut words = vec![name];
    while let Some(Token::Word(word)) = tokens.next_if(|t| matches!(t, Token::Word(_))) {
        words.push(word);
    }
    let name = spelled(&words[0]);
    let assignment = name.split_once('=').is_some_and(|(var, _)| {
        var.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    if assignment {
        return Err(unsupported(&format!("{name} (variable)")));
    }
    vet(&words)?;
    Ok(words)
}

/// Refuses a command that doesn't exist here. `echo -e` is refused too: this echo doesn't
/// interpret backslash escapes.
fn vet(words: &[Word]) -> Result<(), ShellError> {
    let name = words.first().map(spelled).unwrap_or_default();
    let plain = matches!(words.first().map(Vec::as_slice), Some([Piece::Text(_)]));
    if !plain || !BUILTINS.contains(&basename(&name)) {
        return Err(unsupported(&name));
    }
    let mut flags = words
        .iter()
        .skip(1)
        .map(spelled)
        .take_while(|a| is_echo_flag(a));
    if basename(&name) == "echo" && flags.any(|f| f.contains('e')) {
        return Err(unsupported("echo -e"));
    }
    Ok(())
}

/// Parses a whole script, refusing anything it can't run before anything runs.
fn parse(tokens: Vec<Token>) -> Result<Vec<AndOr>, ShellError> {
    let mut tokens = tokens.into_iter().peekable();
    let mut script = Vec::new();
    loop {
        while tokens.next_if_eq(&Token::Newline).is_some() {}
        let Some(token) = tokens.next() else {
            return Ok(script);
        };
        let first = command(Some(token), &mut tokens)?;
        let mut rest = Vec::new();
        while let Some(op) = tokens.next_if(|t| matches!(t, Token::And | Token::Or)) {
            let op = if op == Token::And { Op::And } else { Op::Or };
            while tokens.next_if_eq(&Token::Newline).is_some() {}
            let next = tokens.next();
            rest.push((op, command(next, &mut tokens)?));
        }
        script.push(AndOr { first, rest });
        match tokens.next() {
            None => return Ok(script),
            Some(Token::Semi | Token::Newline) => {}
            other => return Err(unexpected(other)),
        }
    }
}

/// What a command tells the script to do next.
enum Flow {
    Next(i32),
    Exit(i32),
}

struct Machine {
    steps: Vec<Step>,
    /// `$?`: the last command's exit status.
    status: i32,
}

impl Machine {
    fn finish(self, exit_code: i32) -> Trace {
        Trace {
            steps: self.steps,
            exit_code,
        }
    }

    fn print(&mut self, text: String) {
        if !text.is_empty() {
            self.steps.push(Step::Output(text));
        }
    }

    /// Runs a parsed script and returns its exit status.
    fn script(&mut self, script: &[AndOr], errexit: bool) -> i32 {
        for list in script {
            let mut flow = self.command(&list.first);
            let mut last_ran = list.rest.is_empty();
            for (i, (op, words)) in list.rest.iter().enumerate() {
                let Flow::Next(status) = flow else { break };
                if (*op == Op::And) == (status == 0) {
                    flow = self.command(words);
                    last_ran = i + 1 == list.rest.len();
                }
            }
            match flow {
                Flow::Exit(code) => return code,
                // `sh -e` ignores failures of all but the last command of an && / || list.
                Flow::Next(status) if errexit && status != 0 && last_ran => return status,
                Flow::Next(_) => {}
            }
        }
        self.status
    }

    /// Runs one simple command, whose name the parser already vetted.
    fn command(&mut self, words: &[Word]) -> Flow {
        let last = self.status;
        let expand = |w: &Word| -> String {
            let piece = |p: &Piece| match p {
                Piece::Text(t) => t.clone(),
                Piece::Status => last.to_string(),
            };
            w.iter().map(piece).collect()
        };
        let args: Vec<String> = words.iter().skip(1).map(expand).collect();
        let name = words.first().map(spelled).unwrap_or_default();
        let flow = match basename(&name) {
            "echo" => {
                self.print(echo(&args));
                Flow::Next(0)
            }
            "sleep" => match sleep_duration(&args) {
                Ok(d) => {
                    self.steps.push(Step::Sleep(d));
                    Flow::Next(0)
                }
                Err(message) => {
                    self.print(format!("sleep: {message}\n"));
                    Flow::Next(1)
                }
            },
            "exit" => match args.first() {
                None => Flow::Exit(last),
                Some(arg) => match exit_number(arg) {
                    Some(n) => Flow::Exit(n % 256),
                    None => {
                        self.print(format!("sh: exit: Illegal number: {arg}\n"));
                        Flow::Exit(2)
                    }
                },
            },
            "false" => Flow::Next(1),
            _ => Flow::Next(0),
        };
        if let Flow::Next(status) = flow {
            self.status = status;
        }
        flow
    }
}

/// busybox's `exit N`: N must be all digits (else "Illegal number"). The exit code is N modulo
/// 256; an N past `i32::MAX` exits as busybox 1.35 does: read saturating to 64 bits, its low 32
/// bits taken as a C int, and a negative int giving 0.
fn exit_number(arg: &str) -> Option<i32> {
    if arg.is_empty() || !arg.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digit = |n: u64, d: u8| n.saturating_mul(10).saturating_add(u64::from(d - b'0'));
    let int = arg.bytes().fold(0, digit) as u32 as i32;
    Some(int.max(0) % 256)
}

/// What busybox `echo` prints: its words joined by spaces, and a newline unless `-n`.
fn echo(args: &[String]) -> String {
    let flags = args.iter().take_while(|a| is_echo_flag(a)).count();
    let newline = !args[..flags].iter().any(|f| f.contains('n'));
    let text = args[flags..].join(" ");
    if newline { text + "\n" } else { text }
}

/// `-n`, `-e`, `-E` and their combinations; anything else is text (`-`, `--`, `-x`).
fn is_echo_flag(arg: &str) -> bool {
    let letters = arg.strip_prefix('-').unwrap_or_default();
    !letters.is_empty() && letters.chars().all(|c| "neE".contains(c))
}

/// The longest sleep a trace holds: forever, as far as any lab goes, yet small enough that
/// callers can add up a script's sleeps without overflowing a `Duration`.
pub const FOREVER: Duration = Duration::from_secs(100 * 365 * 86_400);

/// busybox `sleep`: each argument a decimal number of seconds with an optional s/m/h/d suffix,
/// or `inf`/`infinity`; several arguments add up. Capped at [`FOREVER`].
fn sleep_duration(args: &[String]) -> Result<Duration, String> {
    if args.is_empty() {
        return Err("missing operand".into());
    }
    let mut total = Duration::ZERO;
    for arg in args {
        let invalid = || format!("invalid number '{arg}'");
        if matches!(arg.as_str(), "inf" | "infinity") {
            return Ok(FOREVER);
        }
        let (number, unit) = match arg.char_indices().last() {
            Some((i, u @ ('s' | 'm' | 'h' | 'd'))) => (&arg[..i], u),
            _ => (arg.as_str(), 's'),
        };
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + frac.len() == 0 || !digits(whole) || !digits(frac) {
            return Err(invalid());
        }
        let secs: u64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| invalid())?
        };
        // Nanoseconds from the first nine fractional digits; finer ones can't be slept anyway.
        let nanos = format!("{frac:0<9}")[..9]
            .parse::<u32>()
            .map_err(|_| invalid())?;
        let scale = match unit {
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => 1,
        };
        let one = Duration::new(secs, nanos)
            .checked_mul(scale)
            .unwrap_or(Duration::MAX);
        total = total.saturating_add(one);
    }
    Ok(total.min(FOREVER))
}

#[cfg(test)]
mod tests;
