//! A driver for profilers (perf, valgrind's callgrind, dhat, massif): runs one step of the
//! pipeline on the benchmark corpus, nothing else.
//!
//!     cargo build --release -p pvlint-core --example profile
//!     valgrind --tool=dhat target/release/examples/profile lint 1
//!     perf record -g target/release/examples/profile parse 20
//!
//! Steps: `serde_yaml` (the bare parse vs_serde_yaml.rs compares with), `parse`
//! (pvlint's YAML stage), `index` (parse + object index + typed views), `lint` (everything),
//! `phases` (median wall time of each phase over TIMES interleaved runs: where the time of
//! a lint goes).

use pvlint_core::stages::{self, Indexed};
use pvlint_core::{lint, Options};
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
            "parse" => sources.iter().map(|s| stages::parse(&s.text)).sum(),
            "index" => stages::index(&sources).objects(),
            "lint" => lint(&sources, &Options::default()).findings.len(),
            "phases" => {
                phases(&sources, times);
                return;
            }
            _ => {
                eprintln!("usage: profile serde_yaml|parse|index|lint|phases [TIMES] [GROUPS]");
                std::process::exit(2);
            }
        };
    }
    eprintln!("{step} ×{times}: {out}");
}

fn phases(sources: &[pvlint_core::Source], times: usize) {
    use std::hint::black_box;
    use std::time::Instant;
    let opts = Options::default();
    let names = [
        "serde_yaml parse",
        "pvlint parse",
        "index (parse + views)",
        "simulate",
        "drop index",
        "lint",
    ];
    let mut t: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for _ in 0..times.max(1) {
        let s = Instant::now();
        for src in sources {
            for d in serde_yaml::Deserializer::from_str(&src.text) {
                black_box(serde_yaml::Value::deserialize(d).ok());
            }
        }
        t[0].push(s.elapsed().as_secs_f64());
        let s = Instant::now();
        for src in sources {
            black_box(stages::parse(&src.text));
        }
        t[1].push(s.elapsed().as_secs_f64());
        let s = Instant::now();
        let ix: Indexed = stages::index(sources);
        t[2].push(s.elapsed().as_secs_f64());
        let s = Instant::now();
        stages::simulate(&ix, &opts);
        t[3].push(s.elapsed().as_secs_f64());
        let s = Instant::now();
        drop(ix);
        t[4].push(s.elapsed().as_secs_f64());
        let s = Instant::now();
        black_box(lint(sources, &opts));
        t[5].push(s.elapsed().as_secs_f64());
    }
    let base = {
        let mut v = t[0].clone();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (name, mut v) in names.iter().zip(t) {
        v.sort_by(f64::total_cmp);
        let m = v[v.len() / 2];
        println!("{name:<24} {:>8.1} ms {:>6.2}×", m * 1e3, m / base);
    }
}
