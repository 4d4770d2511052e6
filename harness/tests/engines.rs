//! Differential test: every fixture and example through the native core and through the WASI
//! module under wasmtime must give byte-identical JSON (lint and simulate). The browser
//! module is compared in wasm/playground/test (headless Chromium).

use std::fs;
use std::path::{Path, PathBuf};

use pvlint::engine::WasmCore;
use pvlint_core::{render, Options, Source};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (manifest, cluster state) pairs: every fixture and example.
fn corpus() -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    for dir in ["lint-core/tests/fixtures", "examples"] {
        for sub in fs::read_dir(repo().join(dir)).unwrap() {
            let sub = sub.unwrap().path();
            if !sub.is_dir() {
                continue;
            }
            for f in fs::read_dir(&sub).unwrap() {
                let f = f.unwrap().path();
                let name = f.file_name().unwrap().to_string_lossy().to_string();
                if name.ends_with(".yaml") && !name.ends_with(".cluster.yaml") {
                    let cluster = f.with_extension("cluster.yaml");
                    out.push((f, cluster.exists().then_some(cluster)));
                }
            }
        }
    }
    out.sort();
    out
}

fn named(p: &Path) -> serde_json::Value {
    serde_json::json!({"name": p.display().to_string(), "text": fs::read_to_string(p).unwrap()})
}

#[test]
fn wasm_engine_matches_native_byte_for_byte() {
    let core = WasmCore::get().expect("the embedded module compiles");
    let corpus = corpus();
    assert!(corpus.len() > 60, "fixtures or examples went missing");
    for (kube, default_class) in [
        ("1.34", None),
        ("1.23", Some("")),
        ("1.30", Some("standard")),
    ] {
        let options = Options {
            kube_version: kube.parse().unwrap(),
            complete: false,
            default_class: default_class.map(String::from),
            ..Options::default()
        };
        for (file, cluster) in &corpus {
            let sources = vec![Source::new(
                file.display().to_string(),
                fs::read_to_string(file).unwrap(),
            )];
            let cluster_sources: Vec<Source> = cluster
                .iter()
                .map(|c| Source::new(c.display().to_string(), fs::read_to_string(c).unwrap()))
                .collect();
            let request = serde_json::json!({
                "sources": [named(file)],
                "cluster": cluster.iter().map(|c| named(c)).collect::<Vec<_>>(),
                "options": options,
            })
            .to_string();
            let req = pvlint_core::Request {
                sources,
                cluster: cluster_sources,
                options: options.clone(),
                ..Default::default()
            };
            let native = render::json(&pvlint_core::api::lint(&req));
            let wasm = core.call("pvlint_lint", &request).unwrap();
            assert_eq!(wasm, native, "lint differs for {} ({kube})", file.display());
            let native_sim = render::simulation_json(&pvlint_core::api::simulate(&req).unwrap());
            let wasm_sim = core.call("pvlint_simulate", &request).unwrap();
            assert_eq!(
                wasm_sim,
                native_sim,
                "simulate differs for {} ({kube})",
                file.display()
            );
        }
    }
}

#[test]
fn wasm_engine_reports_bad_requests_without_crashing() {
    let core = WasmCore::get().unwrap();
    let answer = core.call("pvlint_lint", "{\"sources\": 3}").unwrap();
    assert!(answer.contains("\"error\":\"invalid request"), "{answer}");
    // A document the parser refuses is a finding, through the module as natively.
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n";
    let req = serde_json::json!({"sources": [{"name": "bomb.yaml", "text": bomb}]}).to_string();
    let answer = core.call("pvlint_lint", &req).unwrap();
    assert!(answer.contains("excessive aliasing"), "{answer}");
}

#[test]
fn the_cli_engine_flag_gives_identical_output() {
    let bin = env!("CARGO_BIN_EXE_pvlint");
    let run = |engine: &str, args: &[&str]| {
        std::process::Command::new(bin)
            .current_dir(repo())
            .args(args)
            .args(["--engine", engine])
            .output()
            .unwrap()
    };
    for args in [
        &["lint", "--format", "json", "--each-file", "examples/"][..],
        &["lint", "--color", "never", "--each-file", "examples/"][..],
        &[
            "simulate",
            "--format",
            "json",
            "examples/seed-002-statefulset-pool/fixed-pool.yaml",
        ][..],
    ] {
        let n = run("native", args);
        let w = run("wasm", args);
        assert_eq!(n.status.code(), w.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&w.stdout),
            String::from_utf8_lossy(&n.stdout),
            "{args:?}"
        );
    }
}
