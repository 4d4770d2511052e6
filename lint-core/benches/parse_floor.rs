//! The floor pvlint's end-to-end time is measured against (issue 34): a whole process that
//! reads every `.yaml`/`.yml` file under the paths given and parses each into
//! `serde_yaml::Value`s (multi-document), as bare as a YAML tool can be. It prints the
//! number of documents read, so that its work cannot be optimised away.
//!
//!     cargo build --release -p pvlint-core --example parse-floor
//!     target/release/examples/parse-floor DIR...
//!
//! `harness/benches/vs-parse.sh` runs it side by side with `pvlint lint`.

use serde::Deserialize;

fn files(path: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let mut paths = Vec::new();
    for arg in std::env::args_os().skip(1) {
        files(std::path::Path::new(&arg), &mut paths);
    }
    let mut docs = 0usize;
    for path in &paths {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for d in serde_yaml::Deserializer::from_str(&text) {
            match serde_yaml::Value::deserialize(d) {
                Ok(v) => docs += usize::from(!v.is_null()),
                Err(_) => break,
            }
        }
    }
    println!("{docs} documents in {} files", paths.len());
}
