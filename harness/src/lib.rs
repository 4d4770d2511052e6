//! The `pvlint` command as a library, for its binary, tests and benchmarks: the subcommands
//! (`commands`), reading inputs and settings, printing and exit statuses, the engines that run
//! the lint core (natively or as WebAssembly under wasmtime), reading live clusters, and the
//! waPC host of the Kubewarden policy.

#[cfg(feature = "admission")]
pub mod admission;
pub mod cluster;
pub mod commands;
pub mod config;
pub mod engine;
pub mod exit;
pub mod inputs;
pub mod origins;
pub mod output;
pub mod progress;
