//! `--engine wasm`: the lint core's WASI module (embedded at build time) run under wasmtime.
//!
//! The module is compiled once per process; each request instantiates it afresh (cheap), so
//! no state leaks between calls. The few WASI imports it has are answered here: no
//! environment, no randomness (HashMap seeds are fixed, which keeps runs reproducible),
//! stdout/stderr forwarded.

use std::io::Write;
use std::sync::OnceLock;

use wasmtime::{Caller, Engine, Extern, Linker, Module, Store};

/// The module bytes, built by build.rs from `wasm/` for wasm32-wasip1.
pub static MODULE_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/pvlint_wasi.wasm"));

pub struct WasmCore {
    engine: Engine,
    module: Module,
    linker: Linker<()>,
}

static CORE: OnceLock<Result<WasmCore, String>> = OnceLock::new();

impl WasmCore {
    /// The process-wide compiled module.
    pub fn get() -> Result<&'static WasmCore, String> {
        CORE.get_or_init(|| WasmCore::compile(MODULE_BYTES))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Compiles a module (the embedded one, or another build of it).
    pub fn compile(bytes: &[u8]) -> Result<WasmCore, String> {
        let engine = Engine::default();
        let module = Module::new(&engine, bytes)
            .map_err(|e| format!("cannot compile the WASI module: {e:#}"))?;
        let mut linker = Linker::new(&engine);
        define_wasi(&mut linker).map_err(|e| format!("cannot link the WASI module: {e:#}"))?;
        Ok(WasmCore {
            engine,
            module,
            linker,
        })
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
