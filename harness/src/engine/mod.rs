//! Where the lint core runs: compiled into this binary ([`Native`]) or as the WASI module
//! under wasmtime ([`Wasm`], `--engine wasm`). Both take a `pvlint_core::Request` and give the
//! same answers (tests/engines.rs compares them byte for byte), so the commands do not ask
//! which one runs.

#[cfg(feature = "wasm-engine")]
mod cache;
#[cfg(feature = "wasm-engine")]
mod module;
mod native;
#[cfg(feature = "wasm-engine")]
mod wasm;

use pvlint_core::{Report, Request, Severity, Simulation};

#[cfg(feature = "wasm-engine")]
pub use cache::{cache_dir, cache_file_name, load_cached, Loaded};
#[cfg(feature = "wasm-engine")]
pub use module::{config, locate, WasmCore, MODULE_ENV, MODULE_FILE};
pub use native::Native;
#[cfg(feature = "wasm-engine")]
pub use wasm::Wasm;

/// What a build without the `wasm-engine` feature says when asked for `--engine wasm`.
pub const NOT_BUILT: &str = "this pvlint was built without the `wasm-engine` feature, so --engine wasm cannot run: install it with default features (cargo install pvlint), or use the native engine (the same lint core, the same output)";

/// Runs the lint core.
pub trait Engine {
    /// Lints `request`. The request keeps its sources' texts only for [`Print::Excerpts`].
    fn lint(&self, request: &mut Request, print: Print) -> Result<Linted, String>;
    /// Simulates `request`.
    fn simulate(&self, request: &Request, print: Print) -> Result<Answer<Simulation>, String>;
}

/// What the caller prints, which decides what an engine keeps and answers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// The pvlint JSON: an engine that speaks JSON may answer with its text as it is.
    Json,
    /// A view that quotes the sources (human output): their texts are kept.
    Excerpts,
    /// Another view, without source lines (SARIF, GitHub annotations, the simulation table).
    Plain,
}

/// An engine's answer: typed, or (for [`Print::Json`]) the JSON text as the engine wrote it.
pub enum Answer<T> {
    Typed(T),
    Json(String),
}

/// A lint's answer and the worst severity it found.
pub struct Linted {
    pub answer: Answer<Report>,
    pub worst: Option<Severity>,
}
