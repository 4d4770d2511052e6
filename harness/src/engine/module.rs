//! The lint core's WASI module under wasmtime: finding it, loading it (through the
//! [cache](super::cache)), and calling its exports.
//!
//! The module is not built into this binary: building it needs the `wasm32-wasip1` target,
//! and `cargo build`/`cargo run` of pvlint must work with a plain stable toolchain. [`locate`]
//! finds a module the user built; [`WasmCore::open`] loads it.
//!
//! Each request instantiates the module afresh (cheap), so no state leaks between calls. The
//! few WASI imports it has are answered here: no environment, no randomness (HashMap seeds are
//! fixed, which keeps runs reproducible), stdout/stderr forwarded.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use wasmtime::{
    Caller, Config, Engine, Extern, Linker, Module, OptLevel, Store, WasmBacktraceDetails,
};

use super::cache::{cache_dir, load_cached, Loaded};

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
    // Beside the executable as it was run, and beside the file it is: run through a link
    // (`kubectl-pvlint` installed by krew or Homebrew), macOS names the link itself.
    let exe = std::env::current_exe().ok();
    let real = exe.as_ref().and_then(|e| e.canonicalize().ok());
    let mut candidates: Vec<PathBuf> = Vec::new();
    for dir in [exe, real]
        .into_iter()
        .flatten()
        .filter_map(|e| e.parent().map(PathBuf::from))
    {
        let p = dir.join(MODULE_FILE);
        if !candidates.contains(&p) {
            candidates.push(p);
        }
    }
    candidates.push(workspace_module());
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
            Some(dir) => load_cached(&engine, bytes, dir, "the WASI module")?,
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
