//! Differential test: every fixture and example through the native core and through the WASI
//! module under wasmtime must give byte-identical JSON (lint and simulate). The browser
//! module is compared in wasm/playground/test (headless Chromium). Then `--engine wasm` as a
//! user meets it: finding the module, and the compiled-module cache.
//!
//! Needs the WASI module, found as `pvlint --engine wasm` finds it (`$PVLINT_WASM_MODULE`, or
//! this workspace's `target/wasm32-wasip1/wasi-release/pvlint_wasm.wasm`): build it with
//! `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use pvlint::engine::{self, Loaded, WasmCore};
use pvlint_core::{render, Options, Source};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The module under test; a missing one fails the tests with the build command.
fn module() -> PathBuf {
    engine::locate(None).unwrap_or_else(|e| panic!("{e}"))
}

/// The cache the tests share (never the user's): compiled once per module build.
fn shared_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("pvlint-cache")
}

fn core() -> &'static WasmCore {
    static CORE: OnceLock<WasmCore> = OnceLock::new();
    CORE.get_or_init(|| {
        let bytes = fs::read(module()).unwrap();
        WasmCore::load(&bytes, Some(&shared_cache())).unwrap().0
    })
}

/// A fresh directory for one test.
fn tempdir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("engines-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// The binary, with the module named by the environment and the shared cache.
fn pvlint() -> Command {
    command(Path::new(env!("CARGO_BIN_EXE_pvlint")))
}

/// `program` (a pvlint), run as [`pvlint`] runs it.
fn command(program: &Path) -> Command {
    let mut c = Command::new(program);
    c.current_dir(repo());
    for var in engine::MODULE_ENV
        .iter()
        .chain(&["PVLINT_CACHE_DIR", "XDG_CACHE_HOME"])
    {
        c.env_remove(var);
    }
    c.env("PVLINT_WASM_MODULE", module());
    c.env("PVLINT_CACHE_DIR", shared_cache());
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
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
    let core = core();
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
    let core = core();
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
    let run = |engine: &str, args: &[&str]| {
        pvlint()
            .args(args)
            .args(["--engine", engine])
            .output()
            .unwrap()
    };
    for args in [
        &["lint", "--format", "json", "--each-file", "examples/"][..],
        &["lint", "--color", "never", "--each-file", "examples/"][..],
        &["lint", "--fail-on", "info", "--format", "json", GOOD][..],
        &["lint", "--fail-on", "warning", "--format", "json", WARN][..],
        &["lint", "--fail-on", "info", WARN][..],
        &[
            "simulate",
            "--format",
            "json",
            "examples/seed-002-statefulset-pool/fixed-pool.yaml",
        ][..],
        &[
            "simulate",
            "examples/seed-002-statefulset-pool/broken-single-pv.yaml",
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

const GOOD: &str = "lint-core/tests/fixtures/stale-claim-ref-uid/good.yaml";
const BAD: &str = "lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml";
/// Only a warning (and infos) in this file.
const WARN: &str = "examples/seed-004-pv-deleted-before-pvc/broken.yaml";

const BUILD: &str = "`cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`";

#[test]
fn a_missing_module_exits_2_with_the_build_command() {
    let missing = tempdir("missing").join("pvlint_wasm.wasm");
    let missing = missing.to_str().unwrap();
    let by_flag = pvlint()
        .args(["lint", "--engine", "wasm", "--wasm-module", missing, GOOD])
        .output()
        .unwrap();
    let by_env = pvlint()
        .env("PVLINT_WASM_MODULE", missing)
        .args(["lint", "--engine", "wasm", GOOD])
        .output()
        .unwrap();
    let old_env = pvlint()
        .env_remove("PVLINT_WASM_MODULE")
        .env("PVLINT_WASI_MODULE", missing)
        .args(["simulate", "--engine", "wasm", GOOD])
        .output()
        .unwrap();
    for (o, by) in [
        (by_flag, "--wasm-module"),
        (by_env, "$PVLINT_WASM_MODULE"),
        (old_env, "$PVLINT_WASI_MODULE"),
    ] {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(o.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.contains(&format!("no WASI module at {missing} ({by})")),
            "{err}"
        );
        assert!(err.contains("rustup target add wasm32-wasip1"), "{err}");
        assert!(err.contains(BUILD), "{err}");
    }
    // The module is for the wasm engine only.
    let o = pvlint()
        .args(["lint", "--wasm-module", missing, GOOD])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--wasm-module is for --engine wasm"));
}

#[test]
fn the_new_module_variable_wins_over_the_old_one() {
    let o = pvlint()
        .env("PVLINT_WASI_MODULE", "/nonexistent/pvlint_wasm.wasm")
        .args(["lint", "--engine", "wasm", BAD])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    // The module beside the executable or in the workspace is the default.
    let o = pvlint()
        .env_remove("PVLINT_WASM_MODULE")
        .args(["lint", "--engine", "wasm", BAD])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
}

#[test]
fn lint_help_says_how_to_get_the_module() {
    let help = text(&pvlint().args(["lint", "--help"]).output().unwrap().stdout);
    for needle in [
        "--wasm-module <FILE>",
        "PVLINT_WASM_MODULE",
        "wasm32-wasip1",
        "--profile wasi-release",
        "PVLINT_CACHE_DIR",
    ] {
        assert!(
            help.contains(needle),
            "{needle} missing from lint --help:\n{help}"
        );
    }
}

/// The one compiled module in a cache directory: its path, and the file's identity.
fn cached(dir: &Path) -> (PathBuf, Vec<u8>, std::time::SystemTime, u64) {
    let files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect();
    assert_eq!(
        files.len(),
        1,
        "one compiled module in {}: {files:?}",
        dir.display()
    );
    let meta = fs::metadata(&files[0]).unwrap();
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    (
        files[0].clone(),
        fs::read(&files[0]).unwrap(),
        meta.modified().unwrap(),
        inode,
    )
}

fn lint_json_with_cache(cache: &Path) -> Output {
    pvlint()
        .env("PVLINT_CACHE_DIR", cache)
        .args(["lint", "--engine", "wasm", "--format", "json", BAD])
        .output()
        .unwrap()
}

fn native_lint_json() -> Output {
    pvlint()
        .args(["lint", "--format", "json", BAD])
        .output()
        .unwrap()
}

fn assert_same(a: &Output, b: &Output) {
    assert_eq!(a.status.code(), b.status.code(), "{}", text(&a.stderr));
    assert_eq!(text(&a.stdout), text(&b.stdout));
    assert_eq!(text(&a.stderr), text(&b.stderr));
}

#[test]
fn the_compiled_module_is_cached_on_first_run_and_reused() {
    let dir = tempdir("cache").join("nested/pvlint");
    let native = native_lint_json();
    let first = lint_json_with_cache(&dir);
    assert_same(&first, &native);
    let (file, bytes, mtime, inode) = cached(&dir);
    assert!(
        file.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("pvlint_wasm-"),
        "{}",
        file.display()
    );
    assert!(bytes.starts_with(b"\x7fELF"), "a precompiled module");
    std::thread::sleep(std::time::Duration::from_millis(50));
    let second = lint_json_with_cache(&dir);
    assert_same(&second, &native);
    let again = cached(&dir);
    assert_eq!(again.0, file);
    assert_eq!(again.2, mtime, "the cached module was rewritten");
    assert_eq!(again.3, inode, "the cached module was replaced");
    assert!(again.1 == bytes);
}

#[test]
fn a_corrupted_cache_file_is_recompiled_not_a_crash() {
    let dir = tempdir("corrupt");
    let native = native_lint_json();
    assert_same(&lint_json_with_cache(&dir), &native);
    let (file, good, _, _) = cached(&dir);
    for damage in [
        b"not a compiled module".to_vec(),
        Vec::new(),
        good[..good.len() / 2].to_vec(),
        // An ELF whose flags no longer say "wasmtime module".
        {
            let mut v = good.clone();
            v[0x30..0x34].fill(0);
            v
        },
        // The module compiled by an engine configured otherwise (as if copied from another
        // machine or pvlint build): wasmtime's compatibility check refuses it.
        {
            let mut other = engine::config();
            other.memory_reservation(1 << 24);
            wasmtime::Engine::new(&other)
                .unwrap()
                .precompile_module(&fs::read(module()).unwrap())
                .unwrap()
        },
    ] {
        fs::write(&file, &damage).unwrap();
        let o = lint_json_with_cache(&dir);
        assert_same(&o, &native);
        let (again, bytes, mtime, _) = cached(&dir);
        assert_eq!(again, file);
        assert!(
            bytes == good,
            "the entry was rewritten with the compiled module"
        );
        // And reused from then on.
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_same(&lint_json_with_cache(&dir), &native);
        assert_eq!(cached(&dir).2, mtime);
    }
}

#[test]
fn an_unusable_cache_is_no_error() {
    // A cache "directory" that is a file: nothing can be written under it.
    let file = tempdir("unwritable").join("a-file");
    fs::write(&file, "x").unwrap();
    let native = native_lint_json();
    assert_same(&lint_json_with_cache(&file.join("pvlint")), &native);
    // No cache directory at all.
    let o = pvlint()
        .env_remove("PVLINT_CACHE_DIR")
        .env_remove("HOME")
        .args(["lint", "--engine", "wasm", "--format", "json", BAD])
        .output()
        .unwrap();
    assert_same(&o, &native);
}

#[test]
fn the_cache_defaults_to_xdg_then_home() {
    let xdg = tempdir("xdg");
    let home = tempdir("home");
    let run = |xdg: Option<&Path>| {
        let mut c = pvlint();
        c.env_remove("PVLINT_CACHE_DIR").env("HOME", &home);
        if let Some(x) = xdg {
            c.env("XDG_CACHE_HOME", x);
        }
        c.args(["lint", "--engine", "wasm", GOOD]).output().unwrap()
    };
    assert_eq!(run(Some(&xdg)).status.code(), Some(0));
    cached(&xdg.join("pvlint"));
    assert!(!home.join(".cache").exists());
    assert_eq!(run(None).status.code(), Some(0));
    cached(&home.join(".cache/pvlint"));
}

#[test]
fn load_reports_where_the_machine_code_came_from() {
    let bytes = fs::read(module()).unwrap();
    let dir = tempdir("load");
    // Entries of other module builds, i hours old, and temporary files of writers that died.
    let hours_ago = |name: &str, i: u64| {
        let f = fs::File::create(dir.join(name)).unwrap();
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(3600 * i);
        f.set_modified(t).unwrap();
    };
    for i in 1..=6 {
        hours_ago(&format!("pvlint_wasm-old{i}.cwasm"), i);
    }
    hours_ago(".pvlint_wasm-old.cwasm.1-0.tmp", 2);
    hours_ago(".pvlint_wasm-new.cwasm.2-0.tmp", 0);
    hours_ago("unrelated.cwasm", 9);
    let (_, how) = WasmCore::load(&bytes, Some(&dir)).unwrap();
    assert_eq!(how, Loaded::Stored);
    let mut left: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let new = engine::cache_file_name(&wasmtime_engine(), &bytes);
    assert_eq!(
        left,
        [
            ".pvlint_wasm-new.cwasm.2-0.tmp",
            &new,
            "pvlint_wasm-old1.cwasm",
            "pvlint_wasm-old2.cwasm",
            "pvlint_wasm-old3.cwasm",
            "pvlint_wasm-old4.cwasm",
            "unrelated.cwasm",
        ],
        "the four newest other entries are kept"
    );
    let (core, how) = WasmCore::load(&bytes, Some(&dir)).unwrap();
    assert_eq!(how, Loaded::Cached);
    let answer = core.call("pvlint_lint", "{\"sources\": []}").unwrap();
    assert!(answer.contains("pvlint/v1"), "{answer}");
    // Another module build gets its own entry; the key is the module's content.
    // (here: a custom section named "x" appended; same code, different bytes)
    let mut other = bytes.clone();
    other.extend_from_slice(&[0, 2, 1, b'x']);
    let name_a = engine::cache_file_name(&wasmtime_engine(), &bytes);
    let name_b = engine::cache_file_name(&wasmtime_engine(), &other);
    assert_ne!(name_a, name_b);
    assert_eq!(name_a, engine::cache_file_name(&wasmtime_engine(), &bytes));
}

fn wasmtime_engine() -> wasmtime::Engine {
    wasmtime::Engine::new(&engine::config()).unwrap()
}

#[test]
fn a_module_beside_the_executable_comes_before_the_workspace_build() {
    let dir = tempdir("beside");
    let exe = dir.join("pvlint");
    // A hard link keeps the path the binary is run by (a symlink would resolve to the original).
    fs::hard_link(env!("CARGO_BIN_EXE_pvlint"), &exe)
        .or_else(|_| fs::copy(env!("CARGO_BIN_EXE_pvlint"), &exe).map(|_| ()))
        .unwrap();
    let run = || {
        command(&exe)
            .env_remove("PVLINT_WASM_MODULE")
            .args(["lint", "--engine", "wasm", BAD])
            .output()
            .unwrap()
    };
    // Not a module: it is the one taken, and the failure says so.
    fs::write(dir.join(engine::MODULE_FILE), b"not wasm").unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("cannot compile the WASI module"),
        "{}",
        text(&o.stderr)
    );
    fs::copy(module(), dir.join(engine::MODULE_FILE)).unwrap();
    assert_eq!(run().status.code(), Some(1));
}

/// The browser module's TypeScript types name every event reason the simulation can emit:
/// a reason added to the core and not to `EventReason` would reach TypeScript users as a
/// value their type says cannot occur.
#[test]
fn browser_types_name_every_event_reason() {
    let types = fs::read_to_string(repo().join("wasm/src/browser.rs")).unwrap();
    let union = types
        .split_once("export type EventReason =")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(union, _)| union)
        .expect("wasm/src/browser.rs declares EventReason");
    let missing: Vec<&str> = pvlint_core::Reason::ALL
        .iter()
        .map(|r| r.as_str())
        .filter(|r| !union.contains(&format!("\"{r}\"")))
        .collect();
    assert!(missing.is_empty(), "EventReason lacks {missing:?}");
}
