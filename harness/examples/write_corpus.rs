//! Writes the benchmarks' generated corpus to a directory, for whole-process timings
//! (harness/benches/end-to-end.sh): `cargo run --release -p pvlint --example write_corpus DIR`.
//! The default is the 20,000-object corpus of the criterion benchmarks (5,000 groups of
//! 4 objects in 50 files).

#[path = "../../lint-core/benches/corpus.rs"]
mod corpus;

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/corpus-20k".into());
    let dir = std::path::Path::new(&dir);
    for source in corpus::corpus(5_000, 50) {
        let path = dir.join(source.name.as_str());
        std::fs::create_dir_all(path.parent().expect("corpus files are in a folder"))?;
        std::fs::write(path, &source.text)?;
    }
    println!("{}", dir.display());
    Ok(())
}
