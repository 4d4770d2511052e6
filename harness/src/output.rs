//! What a run writes: the colour choice, stdout (a closed pipe is not an error), and the
//! `pvlint: error:` / `warning:` / `note:` lines on stderr. Exit statuses are [`crate::exit`]'s.

use std::fmt::Display;
use std::io::{self, BufWriter, IsTerminal, Write};

use crate::exit::Exit;

/// `--color`: colour in human output.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

impl Color {
    /// Whether to colour: `auto` colours a terminal, unless `$NO_COLOR` is set.
    fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

/// `--color`, for the commands with a human view.
#[derive(clap::Args)]
pub struct ColorFlag {
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

impl ColorFlag {
    /// Whether the human view is coloured.
    pub fn enabled(&self) -> bool {
        self.color.enabled()
    }
}

/// The width to wrap human output at: a terminal's (`$COLUMNS`, else what the terminal says);
/// None when stdout is no terminal (a pipe, a file, a CI log: one line per note).
pub fn width() -> Option<usize> {
    if !io::stdout().is_terminal() {
        return None;
    }
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
    {
        return Some(n);
    }
    terminal_columns()
}

#[cfg(unix)]
fn terminal_columns() -> Option<usize> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes a `winsize` into the struct it is given, and nothing else.
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn terminal_columns() -> Option<usize> {
    None
}

/// Writes to stdout through `write`, buffered. A closed pipe (`pvlint ... | head`) is not an
/// error: the reader has what it wanted.
pub fn write_with(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        written => written,
    }
}

/// Writes `text` to stdout (see [`write_with`]).
pub fn write(text: &str) -> io::Result<()> {
    write_with(|out| out.write_all(text.as_bytes()))
}

/// Prints `text`; an output that cannot be written ends the run with exit status 2.
pub fn print(text: &str) -> Exit {
    wrote(write(text))
}

/// Prints what `write` writes (a renderer that streams), as [`print()`].
pub fn print_with(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Exit {
    wrote(write_with(write))
}

fn wrote(result: io::Result<()>) -> Exit {
    match result {
        Ok(()) => Exit::Clean,
        Err(e) => cannot_write(e),
    }
}

/// `pvlint: error: cannot write output: ...`: stdout failed (a full disk, a closed file), exit 2.
pub fn cannot_write(e: io::Error) -> Exit {
    error(format_args!("cannot write output: {e}"))
}

/// `pvlint: error: MESSAGE` on stderr; the run ends with exit status 2.
pub fn error(message: impl Display) -> Exit {
    eprintln!("pvlint: error: {message}");
    Exit::Error
}

/// `pvlint: warning: MESSAGE` on stderr: something the run could do without.
pub fn warning(message: impl Display) {
    eprintln!("pvlint: warning: {message}");
}

/// `pvlint: note: MESSAGE` on stderr: a choice the run made that the user should know of.
pub fn note(message: impl Display) {
    eprintln!("pvlint: note: {message}");
}
