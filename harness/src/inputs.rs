//! Reading the command line's paths: manifests into named sources, and the single files a
//! flag names.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use pvlint_core::Source;

pub struct Loaded {
    pub sources: Vec<Source>,
    /// One line per path that could not be read; the others were still loaded.
    pub errors: Vec<String>,
    /// Hidden directories a walk skipped that hold .yaml, .yml or .json files: said once, as
    /// a note, so that nobody wonders why `.ci/` found nothing.
    pub hidden: Vec<String>,
}

impl Loaded {
    /// The note naming the hidden directories a walk skipped, if any.
    pub fn hidden_note(&self) -> Option<String> {
        let (first, rest) = self.hidden.split_first()?;
        let names = match rest.len() {
            0 => format!("{first}/"),
            1..=3 => format!("{first}/, {}/", rest.join("/, ")),
            n => format!("{first}/, {}/ and {} more", rest[..3].join("/, "), n - 3),
        };
        Some(format!(
            "skipped {names} (hidden: a walk does not enter hidden directories; name one to lint it)"
        ))
    }
}

const EXTENSIONS: &[&str] = &["yaml", "yml", "json"];

pub fn load(paths: &[String]) -> Loaded {
    let mut loaded = Loaded {
        sources: Vec::new(),
        errors: Vec::new(),
        hidden: Vec::new(),
    };
    if paths.is_empty() {
        // No path: the working directory, its files named as found there (`k8s/pvc.yaml`, not
        // `./k8s/pvc.yaml`), as ripgrep names them.
        walk(Path::new("."), &mut loaded);
        for s in &mut loaded.sources {
            if let Some(rest) = s.name.strip_prefix("./").map(String::from) {
                s.name = rest.into();
            }
        }
        if loaded.sources.is_empty() {
            crate::output::note("no .yaml, .yml or .json files under the working directory");
        }
        return loaded;
    }
    for p in paths {
        if p == "-" {
            let mut buf = Vec::new();
            match std::io::stdin().lock().read_to_end(&mut buf) {
                Ok(_) => push_text(&mut loaded, "<stdin>".into(), buf),
                Err(e) => loaded.errors.push(format!("<stdin>: cannot read: {e}")),
            }
            continue;
        }
        let path = Path::new(p);
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                let before = loaded.sources.len();
                walk(path, &mut loaded);
                if loaded.sources.len() == before {
                    crate::output::note(format_args!("no .yaml, .yml or .json files under {p}"));
                }
            }
            Ok(_) => read_file(path, &mut loaded),
            Err(e) => loaded.errors.push(format!("{p}: {}", describe(&e))),
        }
    }
    loaded
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn read_file(path: &Path, loaded: &mut Loaded) {
    match fs::read(path) {
        Ok(bytes) => push_text(loaded, path.display().to_string(), bytes),
        Err(e) => loaded
            .errors
            .push(format!("{}: cannot read: {}", path.display(), describe(&e))),
    }
}

fn push_text(loaded: &mut Loaded, name: String, bytes: Vec<u8>) {
    match pvlint_core::decode(&bytes) {
        Ok(text) => loaded.sources.push(Source::new(name, text)),
        Err(e) => loaded
            .errors
            .push(format!("{name}:{}:{}: {}", e.line, e.column, e.message)),
    }
}

/// Directories of other projects' code that a walk skips, as linters do (golangci-lint skips
/// `vendor`, ESLint `node_modules`): copies of third-party files, not the repository's
/// manifests. Named on the command line, they are read.
const THIRD_PARTY: &[&str] = &["vendor", "node_modules"];

/// Recursive, sorted, skipping hidden directories and [`THIRD_PARTY`] ones; symlinked
/// directories are not followed (no loops), symlinked files are read.
fn walk(dir: &Path, loaded: &mut Loaded) {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            loaded
                .errors
                .push(format!("{}: cannot list: {}", dir.display(), describe(&e)));
            return;
        }
    };
    let mut items: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    items.sort();
    for p in items {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Ok(meta) = fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if name.starts_with('.') {
                if name != ".git" && holds_manifest_files(&p, 4) {
                    let shown = p.display().to_string();
                    loaded
                        .hidden
                        .push(shown.strip_prefix("./").map_or(shown.clone(), String::from));
                }
            } else if !THIRD_PARTY.contains(&name.as_str()) {
                walk(&p, loaded);
            }
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
            && fs::metadata(&p).is_ok_and(|m| m.is_file())
        {
            read_file(&p, loaded);
        }
    }
}

/// `dir` holds a .yaml, .yml or .json file, `depth` directories deep at most (a bounded look,
/// not a second walk).
fn holds_manifest_files(dir: &Path, depth: u32) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(Result::ok).any(|e| {
        let p = e.path();
        match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => depth > 0 && holds_manifest_files(&p, depth - 1),
            Ok(_) => p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e)),
            Err(_) => false,
        }
    })
}

/// The bytes of a file the command line names; errors start with `what` (the flag) and the path.
pub fn read_bytes(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("{what} {}: {e}", path.display()))
}

/// [`read_bytes`] as UTF-8 text.
pub fn read_text(path: &Path, what: &str) -> Result<String, String> {
    String::from_utf8(read_bytes(path, what)?)
        .map_err(|_| format!("{what} {}: not UTF-8 text", path.display()))
}

/// The one document of a YAML or JSON file, as JSON.
pub fn one_document(path: &Path, what: &str) -> Result<serde_json::Value, String> {
    let text = read_text(path, what)?;
    let mut docs = pvlint_core::api::documents_json(&text)
        .map_err(|e| format!("{what} {}:{e}", path.display()))?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        0 => Err(format!("{what} {} is empty", path.display())),
        n => Err(format!(
            "{what} {} holds {n} documents; give one",
            path.display()
        )),
    }
}
