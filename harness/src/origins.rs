//! Rendered input's findings on the files of the repository: Helm's `# Source: CHART/templates/X`
//! and Kustomize's origin annotation (`path: ../../base/x.yaml`, relative to the kustomization
//! that was built) name files as the tools see them. Each is looked for under `--source-root`,
//! or else beside the working directory's charts and kustomizations, and where it is found the
//! finding gets its path there and the line and column of its field in it
//! (`pvlint_core::origin::position_in_source`), so SARIF and GitHub annotations land on a file
//! that exists. A file found in more than one place is left as the tool named it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pvlint_core::{Finding, Report};

/// How deep below the working directory charts and kustomizations are looked for.
const DEPTH: usize = 6;

/// Gives the origins of `report`'s findings their place in the repository.
pub fn resolve(report: &mut Report, source_root: Option<&Path>) {
    let needs = report
        .findings
        .iter()
        .chain(&report.suppressed)
        .any(|f| f.location.origin.is_some());
    if !needs {
        return;
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut r = Resolver {
        cwd: cwd.clone(),
        bases: match source_root {
            Some(root) => vec![root.to_path_buf()],
            None => bases(&cwd),
        },
        found: HashMap::new(),
        texts: HashMap::new(),
    };
    for f in report.findings.iter_mut().chain(&mut report.suppressed) {
        r.finding(f);
    }
}

struct Resolver {
    cwd: PathBuf,
    /// The directories an origin's file is relative to: `--source-root`, or the working
    /// directory, the parent of every chart under it and every kustomization root.
    bases: Vec<PathBuf>,
    found: HashMap<String, Option<PathBuf>>,
    texts: HashMap<PathBuf, Option<String>>,
}

impl Resolver {
    fn finding(&mut self, f: &mut Finding) {
        let Some(origin) = f.location.origin.as_deref_mut() else {
            return;
        };
        let Some(path) = self.locate(&origin.file) else {
            return;
        };
        let text = self
            .texts
            .entry(path.clone())
            .or_insert_with(|| std::fs::read_to_string(&path).ok());
        let place = match (text, &f.object) {
            (Some(text), Some(object)) => {
                pvlint_core::origin::position_in_source(text, object, &f.path)
            }
            _ => None,
        };
        let shown = path.strip_prefix(&self.cwd).unwrap_or(&path);
        origin.path = Some(shown.to_string_lossy().replace('\\', "/"));
        origin.line = place.map(|(l, _)| l);
        origin.column = place.map(|(_, c)| c);
    }

    /// The one file `file` names among the bases (None: none, or several).
    fn locate(&mut self, file: &str) -> Option<PathBuf> {
        if let Some(known) = self.found.get(file) {
            return known.clone();
        }
        let mut hits: Vec<PathBuf> = self
            .bases
            .iter()
            .map(|b| b.join(file))
            .filter(|p| p.is_file())
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        hits.sort();
        hits.dedup();
        let one = (hits.len() == 1).then(|| hits.remove(0));
        self.found.insert(file.to_string(), one.clone());
        one
    }
}

/// The working directory, the parent directory of every Helm chart below it (a `# Source:`
/// path starts with the chart's name) and every kustomization root below it (Kustomize's
/// origin paths are relative to the kustomization that was built).
fn bases(cwd: &Path) -> Vec<PathBuf> {
    let mut out = vec![cwd.to_path_buf()];
    let mut stack = vec![(cwd.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            if path.is_dir() {
                let skipped = name.starts_with('.')
                    || matches!(name.as_str(), "target" | "node_modules" | "vendor");
                if !skipped && depth < DEPTH {
                    stack.push((path, depth + 1));
                }
            } else if name == "Chart.yaml" {
                if let Some(parent) = dir.parent() {
                    out.push(parent.to_path_buf());
                }
            } else if matches!(
                name.as_str(),
                "kustomization.yaml" | "kustomization.yml" | "Kustomization"
            ) {
                out.push(dir.clone());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
