//! The compiled-module cache. Compiling the WASI module with Cranelift takes a few hundred
//! milliseconds, so its machine code is kept on disk ([`cache_dir`]), keyed by the module's
//! SHA-256 and by wasmtime's compatibility hash of this engine (wasmtime version, target, CPU
//! features, configuration). Later runs map the cached file in. An unusable cache
//! (unwritable, corrupted) only costs the compilation: it is never an error.

use std::ffi::OsString;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

/// Where compiled modules are cached: `$PVLINT_CACHE_DIR`, else `$XDG_CACHE_HOME/pvlint`,
/// else `$HOME/.cache/pvlint`. None when none of these is set (nothing is cached).
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v: &OsString| !v.is_empty());
    if let Some(dir) = var("PVLINT_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    // The XDG spec says to ignore a relative path.
    if let Some(dir) = var("XDG_CACHE_HOME").map(PathBuf::from) {
        if dir.is_absolute() {
            return Some(dir.join("pvlint"));
        }
    }
    var("HOME").map(|home| PathBuf::from(home).join(".cache").join("pvlint"))
}

/// How [`WasmCore::load`](super::WasmCore::load) got its machine code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// Mapped from the cache.
    Cached,
    /// Compiled, and written to the cache (a missing or unusable entry was replaced).
    Stored,
    /// Compiled in memory: no cache directory, or it could not be written.
    Compiled,
}

/// Feeds `Hash` output into SHA-256, so the key is stable across processes and builds
/// (std's `DefaultHasher` promises neither).
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        let d = self.0.clone().finalize();
        u64::from_le_bytes(d[..8].try_into().expect("SHA-256 has 32 bytes"))
    }
}

/// The cache file name for `bytes` compiled by `engine`: the module's SHA-256 and the
/// engine's compatibility hash (wasmtime version, target triple, CPU features, compiler
/// flags, tunables, wasm features), hashed together.
pub fn cache_file_name(engine: &Engine, bytes: &[u8]) -> String {
    let mut h = ShaHasher(Sha256::new());
    h.write(&Sha256::digest(bytes));
    engine.precompile_compatibility_hash().hash(&mut h);
    let digest = h.0.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("pvlint_wasm-{hex}.cwasm")
}

/// `bytes` compiled by `engine`: mapped from `dir` when an earlier run compiled them, else
/// compiled and stored there. `what` names the module in errors ("the WASI module", "the
/// policy").
pub fn load_cached(
    engine: &Engine,
    bytes: &[u8],
    dir: &Path,
    what: &str,
) -> Result<(Module, Loaded), String> {
    let file = dir.join(cache_file_name(engine, bytes));
    if file.is_file() {
        // SAFETY: `Module::deserialize_file` runs the machine code in the file, and requires
        // that it came from `Engine::precompile_module` and is not modified while mapped.
        // - Only files pvlint wrote are read: the name is derived from the module's hash and
        //   this engine's compatibility hash, and entries are written by `store` below, from
        //   `precompile_module` output, through a temporary file renamed into place.
        // - An entry is never modified in place: a replacement is a new file renamed over the
        //   name, so a mapping of the old one (here or in a concurrent pvlint) keeps its bytes.
        // - A damaged or foreign file (truncated, garbage, another wasmtime version or engine
        //   configuration) is rejected by wasmtime's checks of the ELF container and of its
        //   version and compatibility header; it is then recompiled and replaced below.
        // - A file crafted to pass those checks needs write access to the user's cache
        //   directory, the same trust as the pvlint binary and the module themselves.
        if let Ok(module) = unsafe { Module::deserialize_file(engine, &file) } {
            return Ok((module, Loaded::Cached));
        }
    }
    let compiled = engine
        .precompile_module(bytes)
        .map_err(|e| format!("cannot compile {what}: {e:#}"))?;
    let loaded = if store(dir, &file, &compiled).is_ok() {
        Loaded::Stored
    } else {
        Loaded::Compiled
    };
    // SAFETY: `compiled` is this engine's `precompile_module` output, unmodified.
    let module = unsafe { Module::deserialize(engine, &compiled) }
        .map_err(|e| format!("cannot load the compiled {what}: {e:#}"))?;
    Ok((module, loaded))
}

/// Old cache entries kept besides the one just written (other module builds, other
/// wasmtime versions); older ones are removed.
const KEEP: usize = 4;

/// Writes `file` atomically (a temporary file in the same directory, renamed into place),
/// then trims the directory's other entries to the `KEEP` most recent.
fn store(dir: &Path, file: &Path, compiled: &[u8]) -> std::io::Result<()> {
    static SEQ: AtomicU32 = AtomicU32::new(0);
    fs::create_dir_all(dir)?;
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(compiled)?;
        f.sync_all()?;
        fs::rename(&tmp, file)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    prune(dir, file);
    Ok(())
}

fn prune(dir: &Path, keep: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    let mut old = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let Some(modified) = entry.metadata().ok().and_then(|m| m.modified().ok()) else {
            continue;
        };
        if name.starts_with("pvlint_wasm-") && name.ends_with(".cwasm") && path != keep {
            old.push((modified, path));
        } else if name.starts_with(".pvlint_wasm-")
            && name.ends_with(".tmp")
            && now
                .duration_since(modified)
                .is_ok_and(|age| age.as_secs() > 3600)
        {
            // Left by a pvlint that died while writing.
            let _ = fs::remove_file(path);
        }
    }
    old.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    for (_, path) in old.into_iter().skip(KEEP) {
        // Unlinking a file another pvlint has mapped is safe: its mapping keeps the inode.
        let _ = fs::remove_file(path);
    }
}
