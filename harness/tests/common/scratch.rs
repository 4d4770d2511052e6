//! A scratch directory for one test: under the system's temp directory, named after the test
//! process, and removed when the test is done with it, also when an assertion fails (the guard
//! is dropped while the panic unwinds). Tests that left theirs behind filled /tmp run by run.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Scratch(PathBuf);

impl Scratch {
    /// A new, empty directory `pvlint-<tag>-<process>-<n>`.
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("pvlint-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    /// A path in the directory.
    #[allow(dead_code)] // not every test binary that includes this module uses it
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
