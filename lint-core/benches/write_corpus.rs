//! Writes the benchmark corpus to one file, for measuring the CLI end to end
//! (`benches/memory.sh`):
//!
//!     cargo run --release -p pvlint-core --example write-corpus -- GROUPS FILE
//!
//! GROUPS groups of 4 objects (5,000 → the 20,001-object corpus of `cargo bench`), the
//! 50 generated sources concatenated into FILE.

#[path = "corpus.rs"]
mod corpus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(groups), Some(file)) = (args.first().and_then(|g| g.parse().ok()), args.get(1))
    else {
        eprintln!("usage: write-corpus GROUPS FILE");
        std::process::exit(2);
    };
    let text: String = corpus::corpus(groups, 50)
        .iter()
        .map(|s| s.text.as_str())
        .collect();
    std::fs::write(file, &text).unwrap_or_else(|e| panic!("{file}: {e}"));
    eprintln!("{file}: {} bytes", text.len());
}
