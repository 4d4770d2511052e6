//! The waPC host behind `pvlint admission-test`: it runs the Kubewarden policy module
//! (`wasm/kubewarden`) as policy-server does — `wapc` + `wasmtime-provider` on this crate's
//! wasmtime — and answers its context-aware lookups from a cluster-state file or a kwctl
//! replay session. [`annotate_bytes`] writes a module's metadata (`pvlint policy annotate`).
//!
//! As policy-server (policy-evaluator's `runtimes/wapc`): `protocol_version` with an empty
//! payload, `validate_settings` with the settings JSON, `validate` with
//! `{"request": <AdmissionRequest>, "settings": {...}}`; a failed call (trap, deadline,
//! memory) is a rejection with code 500 and the host is rebuilt before the next call. Every
//! call runs under an epoch deadline and a memory limit, so no request can hang or exhaust
//! the host.

pub mod annotate;
pub mod answers;
pub mod review;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::{json, Value};
use wapc::WapcHost;
use wasmtime_provider::{
    EpochDeadlines, ResourceLimits, WasmtimeEngineProviderBuilder, WasmtimeEngineProviderPre,
};

pub use answers::{Answers, Grants};
pub use review::Decision;

/// How long one epoch tick lasts.
pub const TICK: Duration = Duration::from_millis(10);

/// Limits of one policy instance.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock budget of one call (epoch deadline), in milliseconds.
    pub timeout_ms: u64,
    /// Most linear memory the module may grow to, in bytes.
    pub max_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout_ms: 2_000,
            max_memory: 512 << 20,
        }
    }
}

/// The engine every policy runs on: epoch interruption on, one ticker thread per process.
fn engine() -> Result<&'static wasmtime::Engine, String> {
    static ENGINE: OnceLock<Result<wasmtime::Engine, String>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let mut config = wasmtime::Config::default();
            config.epoch_interruption(true);
            let engine = wasmtime::Engine::new(&config).map_err(|e| format!("{e:#}"))?;
            let ticker = engine.clone();
            std::thread::Builder::new()
                .name("pvlint-epoch".into())
                .spawn(move || loop {
                    std::thread::sleep(TICK);
                    ticker.increment_epoch();
                })
                .map_err(|e| format!("cannot start the epoch ticker: {e}"))?;
            Ok(engine)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A compiled policy module and its metadata: compile once, instantiate per evaluator.
pub struct Policy {
    pre: WasmtimeEngineProviderPre,
    /// The `io.kubewarden.metadata` section, when the module is annotated.
    pub metadata: Option<Value>,
    pub limits: Limits,
}

impl Policy {
    pub fn load(bytes: &[u8], limits: Limits) -> Result<Policy, String> {
        // A binary module carries its metadata; WAT text (tests) carries none.
        let metadata = if bytes.starts_with(b"\0asm") {
            annotate::read_metadata(bytes)?
        } else {
            None
        };
        let engine = engine()?;
        // Compiled once per machine, as --engine wasm compiles the core: the machine code is
        // cached by the module's hash and the engine's settings.
        let module = match crate::engine::cache_dir().filter(|_| bytes.starts_with(b"\0asm")) {
            Some(dir) => crate::engine::load_cached(engine, bytes, &dir, "the policy")?.0,
            None => wasmtime::Module::new(engine, bytes)
                .map_err(|e| format!("cannot compile the policy: {e:#}"))?,
        };
        let pre = WasmtimeEngineProviderBuilder::new()
            .engine(engine.clone())
            .module(module)
            .enable_resource_limits(ResourceLimits {
                max_memory_size: Some(limits.max_memory),
                max_table_elements: Some(100_000),
            })
            .build_pre()
            .map_err(|e| format!("cannot prepare the policy: {e}"))?;
        Ok(Policy {
            pre,
            metadata,
            limits,
        })
    }

    /// What the module's metadata grants it.
    pub fn grants(&self) -> Grants {
        Grants::from_metadata(self.metadata.as_ref())
    }

    /// A ready-to-call instance whose lookups `answers` serves.
    pub fn evaluator(&self, answers: Answers) -> Result<Evaluator<'_>, String> {
        let answers = Arc::new(answers);
        let host = self.host(&answers)?;
        Ok(Evaluator {
            policy: self,
            answers,
            host,
        })
    }

    fn host(&self, answers: &Arc<Answers>) -> Result<WapcHost, String> {
        let ticks = self
            .limits
            .timeout_ms
            .div_ceil(TICK.as_millis() as u64)
            .max(1);
        let engine = self
            .pre
            .rehydrate(Some(EpochDeadlines {
                wapc_init: ticks,
                wapc_func: ticks,
            }))
            .map_err(|e| format!("cannot instantiate the policy: {e}"))?;
        let a = Arc::clone(answers);
        WapcHost::new(
            Box::new(engine),
            Some(Box::new(move |_id, binding, ns, op, payload| {
                a.callback(binding, ns, op, payload)
            })),
        )
        .map_err(|e| format!("cannot start the policy: {e}"))
    }
}

/// One instance of the policy, reused across calls (as policy-server's workers do).
pub struct Evaluator<'p> {
    policy: &'p Policy,
    answers: Arc<Answers>,
    host: WapcHost,
}

/// `validate_settings`' answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsVerdict {
    pub valid: bool,
    pub message: Option<String>,
}

impl Evaluator<'_> {
    fn call(&mut self, op: &str, payload: &[u8]) -> Result<Vec<u8>, String> {
        match self.host.call(op, payload) {
            Ok(r) => Ok(r),
            Err(e) => {
                // As policy-server after a deadline: the guest's state may be broken
                // (a lock held, memory half-written); start from a fresh instance.
                let msg = describe_failure(&e.to_string(), self.policy.limits);
                self.host = self.policy.host(&self.answers)?;
                Err(msg)
            }
        }
    }

    /// `protocol_version`: "v1" for a Kubewarden waPC policy.
    pub fn protocol_version(&mut self) -> Result<String, String> {
        let r = self.call("protocol_version", &[])?;
        serde_json::from_slice::<String>(&r).map_err(|e| {
            format!(
                "protocol_version answered {}: {e}",
                String::from_utf8_lossy(&r)
            )
        })
    }

    /// `validate_settings` with the settings as JSON.
    pub fn validate_settings(&mut self, settings: &Value) -> SettingsVerdict {
        let payload = serde_json::to_vec(settings).unwrap_or_default();
        match self.call("validate_settings", &payload) {
            Ok(r) => match serde_json::from_slice::<Value>(&r) {
                Ok(v) => SettingsVerdict {
                    valid: v.get("valid").and_then(Value::as_bool).unwrap_or(false),
                    message: v.get("message").and_then(Value::as_str).map(String::from),
                },
                Err(e) => SettingsVerdict {
                    valid: false,
                    message: Some(format!("error: {e}")),
                },
            },
            Err(e) => SettingsVerdict {
                valid: false,
                message: Some(format!("Error invoking settings validation callback: {e}")),
            },
        }
    }

    /// `validate` with an AdmissionRequest and the settings.
    pub fn validate(&mut self, request: &Value, settings: &Value) -> Decision {
        let payload = serde_json::to_vec(&json!({"request": request, "settings": settings}))
            .unwrap_or_default();
        self.validate_payload(
            request.get("uid").and_then(Value::as_str).unwrap_or(""),
            &payload,
        )
    }

    /// `validate` with a ready payload (benchmarks, fuzzing).
    pub fn validate_payload(&mut self, uid: &str, payload: &[u8]) -> Decision {
        match self.call("validate", payload) {
            Ok(r) => Decision::from_policy_response(uid, &r),
            Err(e) if payload.len().saturating_mul(2) > self.policy.limits.max_memory => {
                Decision::internal_error(
                    uid,
                    format!(
                        "the request ({} MiB) is too large for the policy's {} MiB of memory: {}",
                        payload.len() >> 20,
                        self.policy.limits.max_memory >> 20,
                        e.lines().next().unwrap_or(&e)
                    ),
                )
            }
            Err(e) => Decision::internal_error(uid, e),
        }
    }
}

/// A failed call, in words: the deadline, the memory limit, or the trap.
fn describe_failure(e: &str, limits: Limits) -> String {
    if e.contains("interrupt") || e.contains("deadline") {
        format!(
            "the policy did not finish within {} ms and was stopped (guest code interrupted, execution deadline exceeded)",
            limits.timeout_ms
        )
    } else if e.contains("unreachable") || e.contains("memory") || e.contains("alloc") {
        format!(
            "the policy failed ({}); it may have run out of its {} MiB of memory",
            e.lines().next().unwrap_or(e),
            limits.max_memory >> 20
        )
    } else {
        format!("the policy failed: {e}")
    }
}

/// Annotates module bytes: checks the metadata, asks the module for its protocol version
/// (as kwctl does), writes the section.
pub fn annotate_bytes(module: &[u8], metadata: Value) -> Result<Vec<u8>, String> {
    let policy = Policy::load(module, Limits::default())?;
    let mut ev = policy.evaluator(Answers::empty(Default::default()))?;
    let version = ev.protocol_version()?;
    let md = annotate::prepare_metadata(metadata, &version)?;
    annotate::write_metadata(module, &md)
}
