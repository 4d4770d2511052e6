//! The progress line: when a run takes more than two seconds and stderr is a terminal, one
//! line on stderr says what pvlint is doing and for how long, rewritten in place and cleared
//! when the run ends (as cargo and ripgrep users expect). Never in a pipe, a file or a CI log
//! (stderr is no terminal there, or `$CI` is set), never on stdout, where the report goes.

use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a run goes before the line appears: two seconds
/// (`PVLINT_PROGRESS_AFTER_MS` sets it, for tests).
fn delay() -> Duration {
    std::env::var("PVLINT_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .map_or(Duration::from_secs(2), Duration::from_millis)
}

/// Whether the line may be shown at all: stderr is a terminal, not a dumb one, not in CI.
fn wanted() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false")
        && !std::env::var("TERM").is_ok_and(|t| t == "dumb")
}

/// A run's progress line: [`Progress::stage`] says what it does now; dropping it clears the
/// line (if it was shown) before anything else is written to stderr.
pub struct Progress {
    stage: Arc<Mutex<String>>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts the clock for a run that is now doing `stage`.
    pub fn start(stage: impl Into<String>) -> Progress {
        let stage = Arc::new(Mutex::new(stage.into()));
        if !wanted() {
            return Progress {
                stage,
                stop: None,
                thread: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let shown = Arc::clone(&stage);
        let thread = std::thread::spawn(move || {
            let began = Instant::now();
            let mut wait = delay();
            let mut drawn = false;
            let draw = || {
                let what = shown.lock().map(|s| s.clone()).unwrap_or_default();
                let secs = began.elapsed().as_secs();
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2Kpvlint: {what} ({secs} s)");
                let _ = err.flush();
            };
            // No delay (PVLINT_PROGRESS_AFTER_MS=0): drawn at once, even when the run ends
            // before this thread first runs (its end waits for the thread).
            if wait.is_zero() {
                draw();
                drawn = true;
                wait = Duration::from_millis(500);
            }
            // Until stopped (or the run is gone): then clear what was drawn.
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                draw();
                drawn = true;
                wait = Duration::from_millis(500);
            }
            if drawn {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K");
                let _ = err.flush();
            }
        });
        Progress {
            stage,
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    /// What the run does now ("linting 5,000 files").
    pub fn stage(&self, what: impl Into<String>) {
        if let Ok(mut s) = self.stage.lock() {
            *s = what.into();
        }
    }

    /// Stops the line and clears it: before the run writes to stderr or ends.
    pub fn finish(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
