//! The `pvlint` command's adapters, usable from tests and benchmarks: reading inputs, and the
//! WASI engine that runs the lint core as WebAssembly under wasmtime.

pub mod admission;
pub mod engine;
pub mod inputs;
