//! Shared by the fixture, example and consistency tests: the test inputs and the options
//! each declares in its header.
//!
//! A fixture states its options in a comment line, in the CLI's own words:
//! `# pvlint: --kube-version 1.23 --complete --default-class standard --no-default-class`,
//! the cluster profile's `--nodes one|several|zones`, `--same-cluster`, `--snapshotter 8.2`
//! and `--feature-gates NAME=BOOL,...`, and `--cluster-state FILE` (relative to the fixture). `X.cluster.yaml` next to `X.yaml` is
//! its cluster state too, and `X.also.yaml` a second manifest file applied with it (as
//! `kubectl apply -f DIR` applies the files of a folder). A header that starts with `cluster` runs the fixture as
//! `pvlint cluster` does (an audit of the cluster state's own objects):
//! `# pvlint: cluster --cluster-state bad.yaml` audits the fixture itself as a live cluster.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use pvlint_core::{Options, Request, Source};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn fixtures_dir() -> PathBuf {
    root().join("lint-core/tests/fixtures")
}

/// A test input: its sources, cluster state and options.
pub struct Case {
    pub name: String,
    pub request: Request,
}

fn is_input(p: &Path) -> bool {
    let n = p.file_name().unwrap().to_string_lossy();
    (n.ends_with(".yaml") || n.ends_with(".json"))
        && !n.ends_with(".cluster.yaml")
        && !n.ends_with(".also.yaml")
}

/// The `# pvlint:` header of a fixture, as options and a cluster-state path.
pub fn header(text: &str) -> Result<(Options, Option<String>), String> {
    header_full(text).map(|(o, c, _)| (o, c))
}

/// The header, and whether it asks for an audit (`# pvlint: cluster ...`).
pub fn header_full(text: &str) -> Result<(Options, Option<String>, bool), String> {
    let mut options = Options::default();
    let mut cluster = None;
    let mut audit = false;
    for line in text
        .lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
    {
        let Some(rest) = line.strip_prefix("# pvlint:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            let mut value = || words.next().ok_or(format!("{w} needs a value"));
            match w {
                "--kube-version" => options.kube_version = value()?.parse()?,
                "--complete" => options.complete = true,
                "--validate" => options.field_validation = value()?.parse()?,
                "--default-class" => options.default_class = Some(value()?.to_string()),
                "--no-default-class" => options.default_class = Some(String::new()),
                "--nodes" => {
                    let v = value()?;
                    options.cluster.nodes = Some(
                        pvlint_core::profile::Nodes::parse(v)
                            .ok_or(format!("--nodes {v}: one, several or zones"))?,
                    )
                }
                "--same-cluster" => options.cluster.same_cluster = true,
                "--snapshotter" => options.cluster.snapshotter = Some(value()?.parse()?),
                "--feature-gates" => {
                    for pair in value()?.split(',') {
                        let (name, on) = pair.split_once('=').ok_or("NAME=BOOL")?;
                        let f = pvlint_core::version::Feature::named(name)
                            .ok_or(format!("no feature gate {name}"))?;
                        options
                            .cluster
                            .feature_gates
                            .insert(f, on.parse().map_err(|_| "NAME=BOOL")?);
                    }
                }
                "--cluster-state" => cluster = Some(value()?.to_string()),
                "cluster" => audit = true,
                other => return Err(format!("unknown fixture option {other}")),
            }
        }
    }
    if audit && cluster.is_none() {
        return Err("`cluster` needs --cluster-state FILE (the live state to audit)".into());
    }
    Ok((options, cluster, audit))
}

/// A fixture or example file as a case, named by its path from the repository root.
pub fn case(path: &Path) -> Case {
    let rel = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let rel = rel
        .trim_start_matches("lint-core/tests/fixtures/")
        .to_string();
    let text = fs::read_to_string(path).unwrap();
    let (options, cluster_file, audit) =
        header_full(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
    // The fixture audits itself as a live cluster: it is the cluster state, not a manifest.
    let itself = audit
        && cluster_file
            .as_deref()
            .is_some_and(|c| Some(std::ffi::OsStr::new(c)) == path.file_name());
    let mut cluster = Vec::new();
    let sibling = path.with_extension("cluster.yaml");
    if let Some(c) = cluster_file
        .map(|c| path.parent().unwrap().join(c))
        .or(sibling.exists().then_some(sibling))
    {
        let name = c.strip_prefix(root()).unwrap_or(&c).display().to_string();
        cluster.push(Source::new(
            name.trim_start_matches("lint-core/tests/fixtures/"),
            fs::read_to_string(&c).unwrap(),
        ));
    }
    let mut sources = if itself {
        Vec::new()
    } else {
        vec![Source::new(rel.clone(), text)]
    };
    let also = path.with_extension("also.yaml");
    if also.exists() {
        let name = also
            .strip_prefix(root())
            .unwrap_or(&also)
            .display()
            .to_string();
        sources.push(Source::new(
            name.trim_start_matches("lint-core/tests/fixtures/"),
            fs::read_to_string(&also).unwrap(),
        ));
    }
    Case {
        name: rel,
        request: Request {
            sources,
            cluster,
            options,
            audit,
            ..Request::default()
        },
    }
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && is_input(p))
        .collect();
    v.sort();
    v
}

/// Fixture files of a rule whose names start with `prefix` (`bad`, `good`).
pub fn fixtures(rule: &str, prefix: &str) -> Vec<PathBuf> {
    files_in(&fixtures_dir().join(rule))
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect()
}

/// The directories in `base`, sorted.
pub fn sorted_dirs(base: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every fixture and every example.
pub fn all_inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for base in [fixtures_dir(), root().join("examples")] {
        for d in sorted_dirs(&base) {
            out.extend(files_in(&d));
        }
    }
    out
}
