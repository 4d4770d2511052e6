//! The WASI core module's ABI (see docs/embedding.md).
//!
//! Strings cross the boundary as UTF-8 bytes in the module's memory. The host allocates the
//! request with `pvlint_alloc`, writes it, calls `pvlint_lint` / `pvlint_simulate`, and frees
//! it with `pvlint_free`. The answer comes back as one `i64`: pointer in the high 32 bits,
//! length in the low 32; the host reads it and frees it with `pvlint_free` too.

/// Bumped when an export's contract changes.
#[no_mangle]
pub extern "C" fn pvlint_abi_version() -> u32 {
    1
}

/// The version of pvlint inside, as a packed pointer/length to static memory (do not free).
#[no_mangle]
pub extern "C" fn pvlint_version() -> u64 {
    let v = pvlint_core::VERSION;
    pack(v.as_ptr(), v.len())
}

/// Allocates `len` bytes for the host to write a request into.
#[no_mangle]
pub extern "C" fn pvlint_alloc(len: u32) -> *mut u8 {
    let buf = vec![0u8; len as usize].into_boxed_slice();
    Box::into_raw(buf) as *mut u8
}

/// Frees memory from `pvlint_alloc` or an answer, given its pointer and length.
///
/// # Safety
/// `ptr`/`len` must come from `pvlint_alloc` or from an answer, and be freed once.
#[no_mangle]
pub unsafe extern "C" fn pvlint_free(ptr: *mut u8, len: u32) {
    if !ptr.is_null() {
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr,
            len as usize,
        )));
    }
}

/// Lints a JSON request; answers the report JSON (or `{"error": ...}`).
///
/// # Safety
/// `ptr`/`len` must describe memory the host wrote (usually from `pvlint_alloc`).
#[no_mangle]
pub unsafe extern "C" fn pvlint_lint(ptr: *const u8, len: u32) -> u64 {
    answer(ptr, len, crate::lint_json)
}

/// Simulates a JSON request; answers the simulation JSON (or `{"error": ...}`).
///
/// # Safety
/// As for [`pvlint_lint`].
#[no_mangle]
pub unsafe extern "C" fn pvlint_simulate(ptr: *const u8, len: u32) -> u64 {
    answer(ptr, len, crate::simulate_json)
}

unsafe fn answer(ptr: *const u8, len: u32, f: fn(&str) -> String) -> u64 {
    let bytes = std::slice::from_raw_parts(ptr, len as usize);
    let out = match std::str::from_utf8(bytes) {
        Ok(s) => f(s),
        Err(e) => crate::error_json(&format!("the request is not UTF-8: {e}")),
    };
    let boxed = out.into_bytes().into_boxed_slice();
    let n = boxed.len();
    pack(Box::into_raw(boxed) as *const u8, n)
}

fn pack(ptr: *const u8, len: usize) -> u64 {
    ((ptr as usize as u64) << 32) | len as u64
}
