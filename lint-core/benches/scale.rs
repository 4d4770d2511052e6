//! How big a benchmark's input is. `cargo bench` passes criterion `--bench`: the full size.
//! `cargo test --all-targets` runs each benchmark once, in a debug build, as a check that it
//! still works: a hundredth of the input (at least 2) proves that in a second where the full
//! one took minutes of CI and measured nothing.

/// Whether this run measures (`cargo bench`) rather than checks (`cargo test`).
#[allow(dead_code)]
pub fn benchmarking() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// `n` when benchmarking, a hundredth of it (at least 2) otherwise.
#[allow(dead_code)]
pub fn scaled(n: usize) -> usize {
    if benchmarking() {
        n
    } else {
        (n / 100).max(2)
    }
}
