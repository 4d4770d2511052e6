//! The `pvlint` command's adapters, usable from tests and benchmarks: reading inputs, exit statuses,
//! the WASI engine that runs the lint core as WebAssembly under wasmtime, and reading live
//! clusters (`pvlint cluster`).

pub mod admission;
pub mod cluster;
pub mod config;
pub mod engine;
pub mod exit;
pub mod inputs;
pub mod migrate_cmd;
pub mod output;
