//! Embeds the WASI core module (`pvlint-wasm` built for wasm32-wasip1) that `--engine wasm`
//! runs under wasmtime. It is built here with a nested cargo into its own target directory,
//! or taken from `PVLINT_WASI_MODULE` when that names an already built module.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let dest = out.join("pvlint_wasi.wasm");
    println!("cargo:rerun-if-env-changed=PVLINT_WASI_MODULE");
    if let Ok(prebuilt) = env::var("PVLINT_WASI_MODULE") {
        println!("cargo:rerun-if-changed={prebuilt}");
        fs::copy(&prebuilt, &dest).unwrap_or_else(|e| panic!("PVLINT_WASI_MODULE={prebuilt}: {e}"));
        return;
    }
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap())
        .parent()
        .unwrap()
        .to_path_buf();
    for p in [
        "lint-core/src",
        "lint-core/build.rs",
        "lint-core/Cargo.toml",
        "lint-core/tests/fixtures",
        "wasm/src",
        "wasm/Cargo.toml",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    let target_dir = root.join("target").join("wasi-module");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&root)
        .args([
            "build",
            "-p",
            "pvlint-wasm",
            "--target",
            "wasm32-wasip1",
            "--profile",
            "wasi-release",
            "--target-dir",
        ])
        .arg(&target_dir);
    // The outer build's settings are not meant for the module.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().expect("run cargo to build the WASI module");
    if !status.success() {
        panic!(
            "building the WASI core module failed. Install the target with `rustup target add wasm32-wasip1`, \
             or set PVLINT_WASI_MODULE to a module built with \
             `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`"
        );
    }
    let built = target_dir
        .join("wasm32-wasip1")
        .join("wasi-release")
        .join("pvlint_wasm.wasm");
    fs::copy(&built, &dest).unwrap_or_else(|e| panic!("{}: {e}", built.display()));
}
