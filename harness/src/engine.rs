//! `--engine wasm`: the lint core's WASI module run under wasmtime.
//!
//! The module is not built into this binary: building it needs the `wasm32-wasip1` target,
//! and `cargo build`/`cargo run` of pvlint must work with a plain stable toolchain. [`locate`]
//! finds a module the user built; [`WasmCore::open`] loads it.
//!
//! Compiling the module with Cranelift takes a few hundred milliseconds, so the machine code
//! is cached on disk ([`cache_dir`]), keyed by the module's SHA-256 and by wasmtime's
//! compatibility hash of this engine (wasmtime version, target, CPU features, configuration).
//! Later runs map the cached file in. An unusable cache (unwritable, corrupted) only costs
//! the compilation: it is never an error.
//!
//! Each request instantiates the module afresh (cheap), so no state leaks between calls. The
//! few WASI imports it has are answered here: no environment, no randomness (HashMap seeds are
//! fixed, which keeps runs reproducible), stdout/stderr forwarded.

use std::ffi::OsString;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::{
    Caller, Config, Engine, Extern, Linker, Module, OptLevel, Store, WasmBacktraceDetails,
};

/// The module's file name, as cargo builds it and as pvlint looks for it beside itself.
pub const MODULE_FILE: &str = "pvlint_wasm.wasm";

/// How to get a module, for error messages.
pub const BUILD_HINT: &str = "build it with `rustup target add wasm32-wasip1` then `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`";

/// Environment variables naming the module, in order of precedence (the second is the name
/// used before `PVLINT_WASM_MODULE`, still accepted).
pub const MODULE_ENV: [&str; 2] = ["PVLINT_WASM_MODULE", "PVLINT_WASI_MODULE"];

/// The module as this workspace builds it (known at compile time: handy for developers
/// running `cargo run`).
pub fn workspace_module() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .join("target/wasm32-wasip1/wasi-release")
        .join(MODULE_FILE)
}

/// Finds the WASI module: `flag` (`--wasm-module`), else `$PVLINT_WASM_MODULE` (or the older
/// `$PVLINT_WASI_MODULE`), else `pvlint_wasm.wasm` beside the running executable, else this
/// workspace's build output. A path given by the flag or the environment must exist: it is
/// not skipped in favour of another module. The error is one line that says how to build it.
pub fn locate(flag: Option<&Path>) -> Result<PathBuf, String> {
    let named = |path: PathBuf, by: &str| {
        if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "no WASI module at {} ({by}); {BUILD_HINT}",
                path.display()
            ))
        }
    };
    if let Some(p) = flag {
        return named(p.to_path_buf(), "--wasm-module");
    }
    for var in MODULE_ENV {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            return named(PathBuf::from(v), &format!("${var}"));
        }
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(MODULE_FILE)));
    let candidates: Vec<PathBuf> = beside.into_iter().chain([workspace_module()]).collect();
    if let Some(found) = candidates.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "--engine wasm needs the WASI module and none was found (looked for {}; \
         --wasm-module FILE and $PVLINT_WASM_MODULE name one); {BUILD_HINT}",
        looked.join(", ")
    ))
}

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

/// The one engine configuration the module is compiled and loaded with. Everything here
/// that affects code generation is part of wasmtime's compatibility hash, hence of the cache
/// key. Defaults are kept where they serve the module: Cranelift at `Speed`, the 4 GiB
/// memory reservation with guard pages (no explicit bounds checks), copy-on-write memory
/// images mapped straight from the cached file.
pub fn config() -> Config {
    let mut c = Config::new();
    c.cranelift_opt_level(OptLevel::Speed)
        // Fixed rather than read from $WASMTIME_BACKTRACE_DETAILS: the cache key must not
        // depend on the environment, and pvlint has no use for DWARF in backtraces.
        .wasm_backtrace_details(WasmBacktraceDetails::Disable)
        .parallel_compilation(true);
    c
}

/// How [`WasmCore::load`] got its machine code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// Mapped from the cache.
    Cached,
    /// Compiled, and written to the cache (a missing or unusable entry was replaced).
    Stored,
    /// Compiled in memory: no cache directory, or it could not be written.
    Compiled,
}

pub struct WasmCore {
    engine: Engine,
    module: Module,
    linker: Linker<()>,
}

impl WasmCore {
    /// Loads the module at `path`, through the cache in [`cache_dir`].
    pub fn open(path: &Path) -> Result<WasmCore, String> {
        let bytes = fs::read(path)
            .map_err(|e| format!("cannot read the WASI module {}: {e}", path.display()))?;
        Ok(WasmCore::load(&bytes, cache_dir().as_deref())?.0)
    }

    /// Compiles a module in memory, with no cache.
    pub fn compile(bytes: &[u8]) -> Result<WasmCore, String> {
        Ok(WasmCore::load(bytes, None)?.0)
    }

    /// Loads a module: from `cache` when it holds this module compiled by this engine, else
    /// compiled, and stored in `cache` when it can be.
    pub fn load(bytes: &[u8], cache: Option<&Path>) -> Result<(WasmCore, Loaded), String> {
        let engine = Engine::new(&config())
            .map_err(|e| format!("cannot set up wasmtime for this machine: {e:#}"))?;
        let (module, loaded) = match cache {
            Some(dir) => load_cached(&engine, bytes, dir)?,
            None => (compile(&engine, bytes)?, Loaded::Compiled),
        };
        let mut linker = Linker::new(&engine);
        define_wasi(&mut linker).map_err(|e| format!("cannot link the WASI module: {e:#}"))?;
        Ok((
            WasmCore {
                engine,
                module,
                linker,
            },
            loaded,
        ))
    }

    /// Calls `export` (`pvlint_lint`, `pvlint_simulate`) with a JSON request; returns its answer.
    pub fn call(&self, export: &str, request: &str) -> Result<String, String> {
        let mut store = Store::new(&self.engine, ());
        let instance = self
            .linker
            .instantiate(&mut store, &self.module)
            .map_err(|e| format!("{e:#}"))?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or("the module exports no memory")?;
        let alloc = instance
            .get_typed_func::<u32, u32>(&mut store, "pvlint_alloc")
            .map_err(|e| format!("{e:#}"))?;
        let free = instance
            .get_typed_func::<(u32, u32), ()>(&mut store, "pvlint_free")
            .map_err(|e| format!("{e:#}"))?;
        let func = instance
            .get_typed_func::<(u32, u32), u64>(&mut store, export)
            .map_err(|e| format!("{e:#}"))?;
        let bytes = request.as_bytes();
        let len = u32::try_from(bytes.len()).map_err(|_| "the request is larger than 4 GiB")?;
        let ptr = alloc.call(&mut store, len).map_err(|e| format!("{e:#}"))?;
        memory
            .write(&mut store, ptr as usize, bytes)
            .map_err(|e| format!("{e:#}"))?;
        let packed = func
            .call(&mut store, (ptr, len))
            .map_err(|e| format!("the WASI module failed: {e:#}"))?;
        free.call(&mut store, (ptr, len))
            .map_err(|e| format!("{e:#}"))?;
        let (rptr, rlen) = ((packed >> 32) as u32, packed as u32);
        let mut out = vec![0u8; rlen as usize];
        memory
            .read(&store, rptr as usize, &mut out)
            .map_err(|e| format!("{e:#}"))?;
        free.call(&mut store, (rptr, rlen))
            .map_err(|e| format!("{e:#}"))?;
        String::from_utf8(out).map_err(|e| format!("the module answered non-UTF-8: {e}"))
    }
}

fn compile(engine: &Engine, bytes: &[u8]) -> Result<Module, String> {
    Module::new(engine, bytes).map_err(|e| format!("cannot compile the WASI module: {e:#}"))
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

fn load_cached(engine: &Engine, bytes: &[u8], dir: &Path) -> Result<(Module, Loaded), String> {
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
        .map_err(|e| format!("cannot compile the WASI module: {e:#}"))?;
    let loaded = if store(dir, &file, &compiled).is_ok() {
        Loaded::Stored
    } else {
        Loaded::Compiled
    };
    // SAFETY: `compiled` is this engine's `precompile_module` output, unmodified.
    let module = unsafe { Module::deserialize(engine, &compiled) }
        .map_err(|e| format!("cannot load the compiled WASI module: {e:#}"))?;
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

fn memory(caller: &mut Caller<'_, ()>) -> wasmtime::Result<wasmtime::Memory> {
    match caller.get_export("memory") {
        Some(Extern::Memory(m)) => Ok(m),
        _ => Err(wasmtime::Error::msg("no memory export")),
    }
}

fn put_u32(caller: &mut Caller<'_, ()>, at: u32, v: u32) -> wasmtime::Result<()> {
    let m = memory(caller)?;
    m.write(caller, at as usize, &v.to_le_bytes())?;
    Ok(())
}

const WASI: &str = "wasi_snapshot_preview1";

fn define_wasi(linker: &mut Linker<()>) -> wasmtime::Result<()> {
    linker.func_wrap(
        WASI,
        "random_get",
        |mut caller: Caller<'_, ()>, buf: u32, len: u32| -> wasmtime::Result<u32> {
            let m = memory(&mut caller)?;
            m.write(&mut caller, buf as usize, &vec![0u8; len as usize])?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        WASI,
        "environ_sizes_get",
        |mut caller: Caller<'_, ()>, count: u32, size: u32| -> wasmtime::Result<u32> {
            put_u32(&mut caller, count, 0)?;
            put_u32(&mut caller, size, 0)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        WASI,
        "environ_get",
        |_: Caller<'_, ()>, _: u32, _: u32| -> u32 { 0 },
    )?;
    linker.func_wrap(
        WASI,
        "fd_write",
        |mut caller: Caller<'_, ()>,
         fd: u32,
         iovs: u32,
         n_iovs: u32,
         written: u32|
         -> wasmtime::Result<u32> {
            let m = memory(&mut caller)?;
            let mut total = 0u32;
            for i in 0..n_iovs {
                let mut iov = [0u8; 8];
                m.read(&caller, (iovs + i * 8) as usize, &mut iov)?;
                let ptr = u32::from_le_bytes(iov[..4].try_into().unwrap());
                let len = u32::from_le_bytes(iov[4..].try_into().unwrap());
                let mut data = vec![0u8; len as usize];
                m.read(&caller, ptr as usize, &mut data)?;
                let _ = match fd {
                    1 => std::io::stdout().write_all(&data),
                    _ => std::io::stderr().write_all(&data),
                };
                total += len;
            }
            put_u32(&mut caller, written, total)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        WASI,
        "proc_exit",
        |_: Caller<'_, ()>, code: u32| -> wasmtime::Result<()> {
            Err(wasmtime::Error::msg(format!(
                "the module exited with code {code}"
            )))
        },
    )?;
    Ok(())
}
