//! pvlint's lint core as WebAssembly, built from one crate three ways:
//!
//! - `wasm32-unknown-unknown` + `wasm-bindgen --target web|no-modules`: the JavaScript package
//!   and the playground ([`browser`]): functions taking and returning plain JS objects.
//! - `wasm32-wasip1`: a core module with a small JSON ABI for any WASI host (`abi.rs`,
//!   documented in docs/embedding.md). The `pvlint --engine wasm` harness runs it under wasmtime.
//! - natively, the same request handling is tested like any Rust code.
//!
//! All three produce the JSON that `pvlint lint --format json` prints, byte for byte.

#[cfg(target_os = "wasi")]
pub mod abi;
#[cfg(not(target_os = "wasi"))]
pub mod browser;

pub use pvlint_core::api::{error_json, lint_json, simulate_json, Request};
