//! The CLI's writes to the terminal: output nobody reads any more (`capa-tui status | head`)
//! is dropped and the command goes on, instead of panicking mid-work.
//!
//! `outln!` panics on a closed pipe. For `do`, that would stop a lesson between a commit and
//! its push; here the work finishes and only the words are lost. SIGPIPE stays ignored (Rust's
//! default): the in-process embedded cluster writes to its children's pipes, and a signal there
//! would kill the whole lab.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
static STDERR_GONE: AtomicBool = AtomicBool::new(false);

/// Writes to stdout, flushed, so a prompt without a newline shows before its answer is read.
pub fn stdout(args: fmt::Arguments) {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        STDOUT_GONE.store(true, Ordering::Relaxed);
        if e.kind() != io::ErrorKind::BrokenPipe {
            // A full disk or a revoked terminal is worth one line; a reader who left is not.
            stderr(format_args!("capa-tui: cannot write to stdout: {e}\n"));
        }
    }
}

/// Writes to stderr; if that is closed too, there is nowhere left to say anything.
pub fn stderr(args: fmt::Arguments) {
    if STDERR_GONE.load(Ordering::Relaxed) {
        return;
    }
    if io::stderr().lock().write_fmt(args).is_err() {
        STDERR_GONE.store(true, Ordering::Relaxed);
    }
}

/// `outln!` for the CLI: see the module's top.
#[macro_export]
macro_rules! outln {
    () => { $crate::cli::out::stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` for the CLI: see the module's top.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!($($arg)*)) };
}

/// `errln!` for the CLI: see the module's top.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::out::stderr(format_args!("{}\n", format_args!($($arg)*))) };
}
