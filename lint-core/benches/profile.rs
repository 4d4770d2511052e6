//! A driver for profilers (perf, valgrind's callgrind, dhat, massif): runs one step of the
//! pipeline on the benchmark corpus, nothing else.
//!
//!     cargo build --release -p pvlint-core --example profile
//!     valgrind --tool=dhat target/release/examples/profile lint 1
//!     perf record -g target/release/examples/profile parse 20
//!
//! Steps: `serde_yaml` (the bare parse vs_serde_yaml.rs compares with), `parse`
//! (pvlint's YAML stage), `index` (parse + object index + typed views), `lint` (everything).

use pvlint_core::{index::Index, lint, yaml, Options};
use serde::Deserialize;

#[path = "corpus.rs"]
mod corpus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let step = args.first().map_or("lint", String::as_str);
    let times: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let groups: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5_000);
    let sources = corpus::corpus(groups, 50);
    let mut out = 0usize;
    for _ in 0..times {
        out += match step {
            "serde_yaml" => sources
                .iter()
                .flat_map(|s| serde_yaml::Deserializer::from_str(&s.text))
                .map(|d| usize::from(serde_yaml::Value::deserialize(d).is_ok()))
                .sum(),
            "parse" => sources
                .iter()
                .map(|s| yaml::parse_stream(&s.text).0.len())
                .sum(),
            "index" => Index::build(&sources).objects.len(),
            "lint" => lint(&sources, &Options::default()).findings.len(),
            _ => {
                eprintln!("usage: profile serde_yaml|parse|index|lint [TIMES] [GROUPS]");
                std::process::exit(2);
            }
        };
    }
    eprintln!("{step} ×{times}: {out}");
}
