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
//! Files a test framework reads as expectations are applied by nothing, and belong to no set:
//! the `assert` and `error` files a Chainsaw `Test` names (chainsaw.kyverno.io, its
//! `spec.steps[].try|catch|finally[].assert|error.file`), and kuttl's and Chainsaw's
//! conventional `NN-assert*.yaml` / `NN-errors*.yaml` next to numbered step files. They hold
//! partial objects (a status to wait for), which linted as applies would be rejected objects.
//! The report names them ([`Skipped`]).
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

/// A source no apply set holds, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    pub file: String,
    pub why: SkipReason,
}

/// Why a source is not applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SkipReason {
    /// A Chainsaw test's assert or error file (named by its `Test`).
    ChainsawAssertion,
    /// A file a Chainsaw test applies, creates, patches or updates: chainsaw evaluates its
    /// `(...)` expressions first, and patches and updates are partial objects.
    ChainsawStep,
    /// A kuttl (or Chainsaw conventional) test step's `NN-assert` / `NN-errors` file.
    KuttlAssertion,
}

impl SkipReason {
    /// In words, for a summary.
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::ChainsawAssertion => "a Chainsaw test's assert or error file",
            SkipReason::ChainsawStep => {
                "a file a Chainsaw test applies after evaluating its expressions"
            }
            SkipReason::KuttlAssertion => "a kuttl test step's assert or errors file",
        }
    }
}

/// Splits `sources` into apply sets (see the module docs).
pub fn partition(sources: &[Source], grouping: Grouping) -> Vec<ApplySet> {
    partition_skipping(sources, grouping).0
}

/// [`partition`], and the sources it leaves out (test assertions), in input order.
pub fn partition_skipping(sources: &[Source], grouping: Grouping) -> (Vec<ApplySet>, Vec<Skipped>) {
    let skipped = assertions(sources);
    let mut sets = partition_all(sources, grouping);
    if !skipped.is_empty() {
        let out: HashSet<usize> = skipped.iter().map(|(i, _)| *i).collect();
        for s in &mut sets {
            s.sources.retain(|i| !out.contains(i));
        }
        sets.retain(|s| !s.sources.is_empty());
    }
    let skipped = skipped
        .into_iter()
        .map(|(i, why)| Skipped {
            file: sources[i].name.to_string(),
            why,
        })
        .collect();
    (sets, skipped)
}

/// The sources a test framework reads as expectations (see the module docs).
fn assertions(sources: &[Source]) -> Vec<(usize, SkipReason)> {
    let mut out: Vec<(usize, SkipReason)> = Vec::new();
    let by_name: HashMap<String, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (kustomize::normalize(s.name.as_str()), i))
        .collect();
    let base = |name: &str| name.rsplit(['/', '\\']).next().unwrap_or(name).to_string();
    let numbered = |file: &str| {
        let digits = file.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && file[digits..].starts_with('-')
    };
    // Directories with a numbered step file (kuttl's and Chainsaw's conventional tests).
    let mut step_dirs: HashMap<String, usize> = HashMap::new();
    for s in sources {
        let name = kustomize::normalize(s.name.as_str());
        if numbered(&base(&name)) {
            *step_dirs.entry(kustomize::parent(&name)).or_default() += 1;
        }
    }
    for (i, s) in sources.iter().enumerate() {
        let name = kustomize::normalize(s.name.as_str());
        let file = base(&name);
        // kuttl: `00-assert.yaml`, `01-errors.yaml`; Chainsaw's conventional names too.
        if numbered(&file)
            && step_dirs
                .get(&kustomize::parent(&name))
                .is_some_and(|&n| n > 1)
        {
            let rest = file
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches('-');
            // kuttl's names: `NN-assert.yaml`, `NN-assert-<name>.yaml`, `NN-errors...`; not a
            // step that only starts with the word (`01-errorpage.yaml`).
            let word = |w: &str| {
                rest.strip_prefix(w)
                    .is_some_and(|after| after.starts_with('.') || after.starts_with('-'))
            };
            if word("assert") || word("errors") {
                out.push((i, SkipReason::KuttlAssertion));
                continue;
            }
        }
        if !s.text.contains("chainsaw.kyverno.io/") {
            continue;
        }
        let dir = kustomize::parent(&name);
        for doc in crate::yaml::parse_stream(&s.text).0 {
            let Some(root) = doc.root else { continue };
            if !root
                .get("apiVersion")
                .and_then(|v| v.as_str())
                .is_some_and(|v| v.starts_with("chainsaw.kyverno.io/"))
                || root.get("kind").and_then(|v| v.as_str()) != Some("Test")
            {
                continue;
            }
            let steps = root
                .at("spec.steps")
                .and_then(|n| n.as_seq())
                .unwrap_or_default();
            for step in steps {
                for block in ["try", "catch", "finally"] {
                    for op in step.get(block).and_then(|n| n.as_seq()).unwrap_or_default() {
                        for (name, kind) in op
                            .as_map()
                            .unwrap_or_default()
                            .iter()
                            .map(|e| (e.key.as_str(), &e.value))
                        {
                            let Some(f) = kind.get("file").and_then(|f| f.as_str()) else {
                                continue;
                            };
                            let why = match name {
                                "assert" | "error" => SkipReason::ChainsawAssertion,
                                _ => SkipReason::ChainsawStep,
                            };
                            let target = kustomize::normalize(&if dir.is_empty() {
                                f.to_string()
                            } else {
                                format!("{dir}/{f}")
                            });
                            if target.contains('*') {
                                let (tdir, pattern) =
                                    target.rsplit_once('/').unwrap_or(("", &target));
                                for (n, &j) in &by_name {
                                    if kustomize::parent(n) == tdir && glob_match(pattern, &base(n))
                                    {
                                        out.push((j, why));
                                    }
                                }
                            } else if let Some(&j) = by_name.get(&target) {
                                out.push((j, why));
                            }
                        }
                    }
                }
            }
        }
    }
    out.sort_by_key(|(i, _)| *i);
    out.dedup_by_key(|(i, _)| *i);
    out
}

/// A file name matched against a pattern whose only wildcard is `*`.
fn glob_match(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return pattern == name;
    }
    if !name.starts_with(first)
        || !name[first.len()..].ends_with(last)
        || name.len() < first.len() + last.len()
    {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(at) => rest = &rest[at + mid.len()..],
            None => return false,
        }
    }
    true
}

fn partition_all(sources: &[Source], grouping: Grouping) -> Vec<ApplySet> {
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

    /// Chainsaw (kyverno/chainsaw, `Test.spec.steps[].try[].assert.file`) and kuttl
    /// (`NN-assert.yaml` beside numbered steps) expectation files are applied by nothing.
    #[test]
    fn test_framework_assertions_belong_to_no_set() {
        let test = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps:\n  - try:\n    - apply:\n        file: create.yaml\n    - assert:\n        file: assert-ready.yaml\n    catch:\n    - error:\n        file: errors/*.yaml\n";
        let sources = vec![
            Source::new("e2e/t/chainsaw-test.yaml", test),
            Source::new("e2e/t/create.yaml", ""),
            Source::new("e2e/t/assert-ready.yaml", ""),
            Source::new("e2e/t/errors/no-pod.yaml", ""),
            Source::new("kuttl/t/00-install.yaml", ""),
            Source::new("kuttl/t/00-assert.yaml", ""),
            Source::new("kuttl/t/01-errors.yaml", ""),
            // A numbered file alone in its directory is no test step.
            Source::new("docs/01-assert.yaml", ""),
            // A step whose name only starts with the word is applied.
            Source::new("kuttl/t/02-errorpage.yaml", ""),
        ];
        let (sets, skipped) = partition_skipping(&sources, Grouping::Directory);
        assert_eq!(
            skipped
                .iter()
                .map(|s| (s.file.as_str(), s.why))
                .collect::<Vec<_>>(),
            vec![
                ("e2e/t/create.yaml", SkipReason::ChainsawStep),
                ("e2e/t/assert-ready.yaml", SkipReason::ChainsawAssertion),
                ("e2e/t/errors/no-pod.yaml", SkipReason::ChainsawAssertion),
                ("kuttl/t/00-assert.yaml", SkipReason::KuttlAssertion),
                ("kuttl/t/01-errors.yaml", SkipReason::KuttlAssertion),
            ]
        );
        let mut held: Vec<usize> = sets.iter().flat_map(|s| s.sources.clone()).collect();
        held.sort_unstable();
        assert_eq!(held, vec![0, 4, 7, 8]);
        assert!(
            glob_match("*.yaml", "a.yaml")
                && glob_match("assert-*", "assert-x")
                && !glob_match("a*b", "ac")
        );
    }
}
