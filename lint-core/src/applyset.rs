//! What is applied together.
//!
//! A repository holds many independent things: one app per directory, examples next to each
//! other, Kustomize bases and overlays. Linting them as one input would make independent
//! objects of the same name redefinitions of each other, and a class one example defines a
//! class of every other. pvlint follows how they are applied:
//!
//! - `kubectl apply -f DIR` applies the files directly in DIR (not its subdirectories, unless
//!   `-R`): by default each directory's files are one apply set;
//! - `kubectl apply -k DIR` applies what the kustomization reaches: its `resources`, `bases`
//!   and `components`, through the kustomizations of the directories they name, and the patch
//!   and generator files it uses. A kustomization that no other kustomization in the input
//!   reaches is a root, and everything it reaches is one apply set (a base shared by overlays
//!   is in each overlay's set); files a root reaches leave their directory's set;
//! - standard input (one Helm release's rendered stream, say) is one set;
//! - `--together` makes the whole input one set, `--each-file` each file one.
//!
//! Sets are ordered by their first source; a source's position in the request is its id.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::kustomize;
use crate::source::Source;

/// How the input is split into apply sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// Each directory, each kustomization root, standard input (the default).
    #[default]
    Directory,
    /// Each source alone (`--each-file`).
    EachFile,
    /// The whole input (`--together`).
    Together,
}

/// How an apply set was formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SetKind {
    /// The files directly in one directory (`kubectl apply -f DIR`).
    Directory,
    /// What a kustomization root reaches (`kubectl apply -k DIR`).
    Kustomization,
    /// One source (`--each-file`, or standard input).
    File,
    /// The whole input (`--together`).
    All,
}

/// One apply set: the sources applied together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplySet {
    pub kind: SetKind,
    /// The directory, the kustomization file, or the source.
    pub name: String,
    /// Positions of its sources in the request, ascending.
    pub sources: Vec<usize>,
}

fn is_stdin(name: &str) -> bool {
    name == "<stdin>" || name == "-"
}

/// Splits `sources` into apply sets (see the module docs).
pub fn partition(sources: &[Source], grouping: Grouping) -> Vec<ApplySet> {
    let all = || (0..sources.len()).collect::<Vec<_>>();
    let mut sets = match grouping {
        Grouping::Together => vec![ApplySet {
            kind: SetKind::All,
            name: String::new(),
            sources: all(),
        }],
        Grouping::EachFile => all()
            .into_iter()
            .map(|i| ApplySet {
                kind: SetKind::File,
                name: sources[i].name.to_string(),
                sources: vec![i],
            })
            .collect(),
        Grouping::Directory => by_directory(sources),
    };
    sets.retain(|s| !s.sources.is_empty());
    sets.sort_by_key(|s| s.sources[0]);
    sets
}

fn by_directory(sources: &[Source]) -> Vec<ApplySet> {
    let mut sets = Vec::new();
    let mut claimed = vec![false; sources.len()];
    // Kustomization roots: what each reaches, and which kustomizations another one reaches.
    let tree = kustomize::Kustomizations::of(sources);
    let kustomizations = tree.ids();
    let mut reach = HashMap::new();
    let mut nested = HashSet::new();
    for &k in kustomizations {
        let (reached, inner) = tree.reach(k);
        nested.extend(inner);
        reach.insert(k, reached);
    }
    for &k in kustomizations {
        if nested.contains(&k) {
            continue;
        }
        let reached = reach.remove(&k).unwrap_or_default();
        for &s in &reached {
            claimed[s] = true;
        }
        sets.push(ApplySet {
            kind: SetKind::Kustomization,
            name: sources[k].name.to_string(),
            sources: reached,
        });
    }
    // The rest: standard input alone, the other files by their directory.
    let mut dirs: HashMap<String, usize> = HashMap::new();
    for (i, s) in sources.iter().enumerate() {
        if claimed[i] {
            continue;
        }
        if is_stdin(&s.name) {
            sets.push(ApplySet {
                kind: SetKind::File,
                name: s.name.to_string(),
                sources: vec![i],
            });
            continue;
        }
        let dir = kustomize::parent(&kustomize::normalize(&s.name));
        let at = *dirs.entry(dir.clone()).or_insert_with(|| {
            sets.push(ApplySet {
                kind: SetKind::Directory,
                name: if dir.is_empty() { ".".into() } else { dir },
                sources: Vec::new(),
            });
            sets.len() - 1
        });
        sets[at].sources.push(i);
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(sets: &[ApplySet]) -> Vec<(SetKind, &str, Vec<usize>)> {
        sets.iter()
            .map(|s| (s.kind, s.name.as_str(), s.sources.clone()))
            .collect()
    }

    #[test]
    fn each_directory_each_kustomization_root_and_stdin() {
        let k = |res: &str| format!("resources: [{res}]\n");
        let sources = vec![
            Source::new("repo/a/claim.yaml", ""),
            Source::new("repo/a/pod.yaml", ""),
            Source::new("repo/a/nested/pv.yaml", ""),
            Source::new("repo/app/base/kustomization.yaml", k("claim.yaml")),
            Source::new("repo/app/base/claim.yaml", ""),
            Source::new("repo/app/base/unused.yaml", ""),
            Source::new("repo/app/overlays/prod/kustomization.yaml", k("../../base")),
            Source::new("repo/app/overlays/dev/kustomization.yaml", k("../../base")),
            Source::new("<stdin>", ""),
            Source::new("top.yaml", ""),
        ];
        assert_eq!(
            names(&partition(&sources, Grouping::Directory)),
            vec![
                (SetKind::Directory, "repo/a", vec![0, 1]),
                (SetKind::Directory, "repo/a/nested", vec![2]),
                (
                    SetKind::Kustomization,
                    "repo/app/overlays/prod/kustomization.yaml",
                    vec![3, 4, 6]
                ),
                (
                    SetKind::Kustomization,
                    "repo/app/overlays/dev/kustomization.yaml",
                    vec![3, 4, 7]
                ),
                (SetKind::Directory, "repo/app/base", vec![5]),
                (SetKind::File, "<stdin>", vec![8]),
                (SetKind::Directory, ".", vec![9]),
            ]
        );
        assert_eq!(partition(&sources, Grouping::Together).len(), 1);
        assert_eq!(partition(&sources, Grouping::EachFile).len(), sources.len());
    }
}
