//! Runs a command with a text on its standard input, as a pipe would give it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `cmd` with `input` on stdin; stdout and stderr captured.
pub fn piped(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
