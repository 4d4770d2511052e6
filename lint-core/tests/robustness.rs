//! Bad input never crashes pvlint and never hides the rest of the input.

use std::fs;
use std::path::{Path, PathBuf};

use pvlint_core::{lint, Options, RuleLevel, Severity, Source};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [root.join("tests/fixtures"), root.join("../examples")] {
        for sub in fs::read_dir(dir).unwrap() {
            let sub = sub.unwrap().path();
            if sub.is_dir() {
                for f in fs::read_dir(sub).unwrap() {
                    files.push(f.unwrap().path());
                }
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml"))
        .map(|f| (f.display().to_string(), fs::read_to_string(f).unwrap()))
        .collect()
}

const INSERTS: &[&str] = &[
    ":",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "*nope",
    "- ",
    "\t",
    "\"",
    "'",
    "!!int ",
    "!custom ",
    "<<: *a\n",
    "---\n",
    "...\n",
    "? ",
    "|\n",
    ">-\n",
    "%YAML 1.2\n",
    "\u{feff}",
    "é",
    "#",
    "null",
    "~",
    "0x",
    "1e9999",
    "- - - -",
    "{}",
    "[]",
    "\n  - ",
    "yes",
    "\r\n",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let ins = INSERTS[rng.below(INSERTS.len())];
                let l = &mut lines[i];
                let cut = l
                    .char_indices()
                    .map(|(b, _)| b)
                    .nth(rng.below(l.chars().count() + 1))
                    .unwrap_or(l.len());
                l.insert_str(cut, ins);
            }
            3 => lines[i] = format!("  {}", lines[i]),
            4 => lines[i] = lines[i].trim_start().to_string(),
            5 => {
                // Swap a scalar value for a map or a list.
                if let Some(c) = lines[i].find(": ") {
                    let repl =
                        ["{a: 1}", "[1, 2]", "\"\"", "-1", "3.5", "true", "{}"][rng.below(7)];
                    lines[i] = format!("{}: {repl}", &lines[i][..c]);
                }
            }
            _ => {
                let keep = rng.below(lines.len() + 1);
                lines.truncate(keep);
            }
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_inputs_never_panic_and_positions_stay_in_the_source() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let corpus = corpus();
    assert!(corpus.len() > 40);
    let mut runs = 0;
    for (name, text) in &corpus {
        for _ in 0..60 {
            let m = mutate(text, &mut rng);
            let src = Source::new(name.clone(), m);
            let lines = src.line_count();
            let report = lint(std::slice::from_ref(&src), &Options::default());
            for f in &report.findings {
                assert!(
                    f.location.line >= 1 && f.location.line <= lines + 1,
                    "{name}: {f:?}"
                );
                assert!(f.location.column >= 1, "{name}: {f:?}");
                assert!(!f.message.is_empty());
            }
            let _ = pvlint_core::render::json(&report);
            let _ = pvlint_core::render::human(&report, &[src], Default::default());
            runs += 1;
        }
    }
    assert!(runs > 2000);
}

#[test]
fn a_broken_document_does_not_hide_the_others() {
    let text = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: a}\nspec:\n  nfs: {server: 1.2.3.4.5, path: /x}\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteMany]\n---\nkind: [unclosed\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: b}\nspec:\n  nfs: {server: 999.1.1.1, path: /y}\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteMany]\n";
    let r = lint(&[Source::new("multi.yaml", text)], &Options::default());
    let rules: Vec<(&str, u32)> = r
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.location.line))
        .collect();
    assert!(rules.contains(&("invalid-nfs-server", 5)), "{rules:?}");
    assert!(rules.contains(&("parse-error", 9)), "{rules:?}");
    assert!(rules.contains(&("invalid-nfs-server", 15)), "{rules:?}");
    assert_eq!(r.summary.documents, 3);
    assert_eq!(r.summary.objects, 2);
}

#[test]
fn billion_laughs_is_refused_and_the_rest_is_linted() {
    let mut bomb = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let mut prev = 'a';
    for c in 'b'..='k' {
        bomb.push_str(&format!("  {c}: &{c} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        prev = c;
    }
    bomb.push_str("---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: b}\nspec:\n  nfs: {server: 1.2.3, path: /y}\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteMany]\n");
    let r = lint(&[Source::new("bomb.yaml", bomb)], &Options::default());
    let pe = r
        .findings
        .iter()
        .find(|f| f.rule == "parse-error")
        .expect("refused");
    assert!(pe.message.contains("excessive aliasing"), "{}", pe.message);
    assert!(r.findings.iter().any(|f| f.rule == "invalid-nfs-server"));
}

#[test]
fn ill_typed_fields_are_findings() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  annotations: [not, a, map]\nspec:\n  replicas: {a: 1}\n  strategy:\n    type: Rolling\n  template:\n    spec:\n      volumes: {claim: x}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: ReadWriteOnce\n  resources: {requests: {storage: [1Gi]}}\n  volumeName: 42\n";
    let r = lint(&[Source::new("typed.yaml", text)], &Options::default());
    let lines: Vec<u32> = r
        .findings
        .iter()
        .filter(|f| f.rule == "invalid-field-value" && f.severity == Severity::Error)
        .map(|f| f.location.line)
        .collect();
    for l in [5, 7, 9, 12, 18, 19, 20] {
        assert!(
            lines.contains(&l),
            "no invalid-field-value at line {l}: {:#?}",
            r.findings
        );
    }
}

#[test]
fn lists_from_kubectl_get_are_expanded() {
    let text = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {name: a}\n  spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteMany], nfs: {server: 1.2.3.4.5, path: /}}\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {name: b}\n  spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteMany], nfs: {server: bad_host, path: /}}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n";
    let r = lint(&[Source::new("list.yaml", text)], &Options::default());
    let hits: Vec<u32> = r
        .findings
        .iter()
        .filter(|f| f.rule == "invalid-nfs-server")
        .map(|f| f.location.line)
        .collect();
    assert_eq!(hits, vec![6, 10]);
    assert_eq!(r.summary.objects, 2);
}

#[test]
fn json_documents_are_linted_with_positions() {
    let text = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"PersistentVolume\",\n  \"metadata\": {\"name\": \"j\"},\n  \"spec\": {\"capacity\": {\"storage\": \"1Gi\"}, \"accessModes\": [\"ReadWriteMany\"],\n    \"nfs\": {\"server\": \"10.0.0.256\", \"path\": \"/\"}\n  }\n}\n";
    let r = lint(&[Source::new("pv.json", text)], &Options::default());
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "invalid-nfs-server")
        .expect("found");
    assert_eq!((f.location.line, f.location.column), (6, 23));
}

#[test]
fn empty_and_comment_only_inputs_are_fine() {
    for text in [
        "",
        "\n\n",
        "# just a comment\n",
        "---\n---\n",
        "...\n",
        "null\n",
    ] {
        let r = lint(&[Source::new("e.yaml", text)], &Options::default());
        assert!(r.findings.is_empty(), "{text:?}: {:#?}", r.findings);
    }
}

#[test]
fn a_broken_cluster_state_is_reported_once_even_file_by_file() {
    let a = Source::new("a.yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  resources: {requests: {storage: 1Gi}}\n");
    let b = Source::new("b.yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: b}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  resources: {requests: {storage: 1Gi}}\n");
    let cluster = Source::new("live.yaml", "apiVersion: v1\nkind: List\nitems: [\n");
    let r = pvlint_core::api::lint(&pvlint_core::Request {
        sources: vec![a, b],
        cluster: vec![cluster],
        each_file: true,
        ..Default::default()
    });
    let cluster_errors: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.location.file == "live.yaml")
        .collect();
    assert_eq!(cluster_errors.len(), 1, "{cluster_errors:#?}");
    assert_eq!(cluster_errors[0].rule, "parse-error");
    assert!(cluster_errors[0].message.starts_with("cluster state: "));
    assert_eq!(r.summary.sources, 2);
}

#[test]
fn the_parse_error_rule_settings_hold_for_the_cluster_state_too() {
    let a = Source::new("a.yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: \"\"\n  resources: {requests: {storage: 1Gi}}\n");
    let cluster = Source::new("live.yaml", "apiVersion: v1\nkind: List\nitems: [\n");
    let run = |level: RuleLevel| {
        let mut options = Options::default();
        options.rules.insert("parse-error".into(), level);
        pvlint_core::api::lint(&pvlint_core::Request {
            sources: vec![a.clone()],
            cluster: vec![cluster.clone()],
            options,
            ..Default::default()
        })
        .findings
        .into_iter()
        .filter(|f| f.location.file == "live.yaml")
        .map(|f| f.severity)
        .collect::<Vec<_>>()
    };
    assert_eq!(run(RuleLevel::Off), vec![], "switched off");
    assert_eq!(run(RuleLevel::Warning), vec![Severity::Warning]);
}

/// replicas is an int32: a StatefulSet asking for a hundred million pods is judged as one with
/// a few, without the memory of a hundred million claims (the hostile-request test once ran
/// out of 24 GiB on one).
#[test]
fn a_huge_statefulset_is_judged_without_a_claim_per_ordinal() {
    let text = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  replicas: 100000000\n  selector: {matchLabels: {a: b}}\n  serviceName: web\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], storageClassName: \"\", resources: {requests: {storage: 1Gi}}}\n";
    let r = lint(&[Source::new("sts.yaml", text)], &Options::default());
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == "static-pool-shortfall")
        .expect("static-pool-shortfall");
    let note = &f.consequence.as_ref().unwrap().summary;
    assert!(
        note.contains("web-1 to web-99999999 and their claims are never created"),
        "{note}"
    );
}
