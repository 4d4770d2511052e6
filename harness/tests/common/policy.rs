#![allow(dead_code)] // shared by tests and benchmarks, each using a part
//! The real Kubewarden policy module for tests and benchmarks: `PVLINT_POLICY_MODULE` when set
//! (CI builds and annotates it once), else built here with a nested cargo into its own target
//! directory and annotated with wasm/kubewarden/metadata.yml.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The annotated module's bytes.
pub fn module() -> &'static [u8] {
    static M: OnceLock<Vec<u8>> = OnceLock::new();
    M.get_or_init(|| {
        let raw = match std::env::var("PVLINT_POLICY_MODULE") {
            Ok(p) => std::fs::read(&p).unwrap_or_else(|e| panic!("PVLINT_POLICY_MODULE={p}: {e}")),
            Err(_) => build(),
        };
        if pvlint::admission::annotate::read_metadata(&raw)
            .expect("a wasm module")
            .is_some()
        {
            return raw;
        }
        let md = metadata();
        pvlint::admission::annotate_bytes(&raw, md).expect("annotate the policy")
    })
}

/// metadata.yml as JSON.
pub fn metadata() -> serde_json::Value {
    let text = std::fs::read_to_string(repo().join("wasm/kubewarden/metadata.yml")).unwrap();
    pvlint_core::api::documents_json(&text).unwrap().remove(0)
}

/// The annotated module written to a file (for the CLI).
pub fn module_file() -> &'static Path {
    static F: OnceLock<PathBuf> = OnceLock::new();
    F.get_or_init(|| {
        let dir = repo().join("target").join("policy-module");
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!(
            "pvlint-policy-annotated-{}.wasm",
            std::process::id()
        ));
        std::fs::write(&p, module()).unwrap();
        p
    })
}

fn build() -> Vec<u8> {
    let target_dir = repo().join("target").join("policy-module");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(repo())
        .args([
            "build",
            "-q",
            "-p",
            "pvlint-kubewarden",
            "--target",
            "wasm32-wasip1",
            "--profile",
            "wasi-release",
            "--target-dir",
        ])
        .arg(&target_dir);
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().expect("run cargo to build the policy");
    assert!(
        status.success(),
        "building the policy failed; set PVLINT_POLICY_MODULE to a module built with \
         `cargo build -p pvlint-kubewarden --target wasm32-wasip1 --profile wasi-release`"
    );
    std::fs::read(target_dir.join("wasm32-wasip1/wasi-release/pvlint_kubewarden.wasm")).unwrap()
}
