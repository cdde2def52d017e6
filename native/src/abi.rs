//! The C ABI's conventions, shared by every exported function (`lib.rs`, `bots.rs`).
//!
//! - A refusal or a failure is an error code (`-1`, or a null handle) and a message the caller reads with
//!   `tl_error` on the same thread (a thread-local buffer, valid until that thread's next refusal).
//! - An optional number is an `i64` with [`NONE`] (-1) for absent; masks are `u64` (52 bits).
//! - A list comes back through a buffer the caller owns: the function writes at most `cap` values and returns how
//!   many there are, so a caller whose buffer was too small calls again with a larger one.
//! - Objects (a hand, playouts, a seat's actions, deal chains) are boxed behind a mutex: a handle may be used from
//!   any thread, one call at a time, and is freed once by its `_free` function.
//! - A panic never unwinds into the caller: it becomes an error like any other.

use std::cell::RefCell;
use std::ffi::CString;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

/// An absent optional number.
pub const NONE: i64 = -1;

thread_local! {
    static ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: String) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    ERROR.with(|e| *e.borrow_mut() = text);
}

/// The message of this thread's last refusal (UTF-8, NUL-terminated; owned by the core).
#[no_mangle]
pub extern "C" fn tl_error() -> *const c_char {
    ERROR.with(|e| e.borrow().as_ptr())
}

/// Run `body`; on a refusal or a panic record the message and answer `failed`.
pub fn guard<T>(failed: T, body: impl FnOnce() -> Result<T, String>) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => {
            set_error(message);
            failed
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_error(format!("the compiled core failed: {what}"));
            failed
        }
    }
}

/// An optional number from its `i64` form.
#[inline]
pub fn optional(value: i64) -> Option<u64> {
    (value >= 0).then_some(value as u64)
}

/// The `len` values at `ptr` (none when `len` is 0, whatever `ptr` is).
///
/// # Safety
/// When `len > 0`, `ptr` points at `len` readable values that outlive the call.
#[inline]
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> Result<&'a [T], String> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err("a null pointer for a non-empty list".into());
    }
    Ok(std::slice::from_raw_parts(ptr, len))
}

/// Copy `values` into the caller's buffer (at most `cap` of them); their count.
///
/// # Safety
/// When `cap > 0`, `out` points at `cap` writable values.
#[inline]
pub unsafe fn emit<T: Copy>(values: &[T], out: *mut T, cap: usize) -> i64 {
    let n = values.len().min(cap);
    if n > 0 && !out.is_null() {
        std::ptr::copy_nonoverlapping(values.as_ptr(), out, n);
    }
    values.len() as i64
}

/// A boxed object behind its handle.
pub type Handle<T> = *mut Mutex<T>;

/// Box `value` behind a new handle.
pub fn new_handle<T>(value: T) -> Handle<T> {
    Box::into_raw(Box::new(Mutex::new(value)))
}

/// The object behind a handle, locked for this call.
///
/// # Safety
/// `handle` came from [`new_handle`] and has not been freed.
pub unsafe fn open<'a, T>(handle: Handle<T>) -> Result<MutexGuard<'a, T>, String> {
    if handle.is_null() {
        return Err("a null handle".into());
    }
    Ok((*handle).lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

/// Free the object behind a handle (a null handle is ignored).
///
/// # Safety
/// `handle` came from [`new_handle`] and is freed once.
pub unsafe fn free_handle<T>(handle: Handle<T>) {
    if !handle.is_null() {
        drop(Box::from_raw(handle));
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<u64>> = RefCell::new(Vec::with_capacity(256));
}

/// Run `fill` on this thread's scratch list of masks (cleared first), then copy it to the caller's buffer.
///
/// # Safety
/// As [`emit`].
pub unsafe fn emit_masks(out: *mut u64, cap: usize, fill: impl FnOnce(&mut Vec<u64>)) -> i64 {
    SCRATCH.with(|s| {
        let mut scratch = s.borrow_mut();
        scratch.clear();
        fill(&mut scratch);
        emit(&scratch, out, cap)
    })
}

/// The room of a thread's own output buffer (`tl_out`), in masks: far more than any 13-card hand's plays.
pub const OUT_ROOM: usize = 4096;

thread_local! {
    /// This thread's output buffer: allocated once and never resized, so its address stays the caller's to read.
    static OUT: RefCell<Box<[u64]>> = RefCell::new(vec![0; OUT_ROOM].into_boxed_slice());
}

/// This thread's output buffer ([`OUT_ROOM`] masks), where the short-argument listings (`tl_lead`, `tl_legal`, ...)
/// write: a caller reads it after each call on the same thread, before its next call.
#[no_mangle]
pub extern "C" fn tl_out() -> *const u64 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// [`OUT_ROOM`].
#[no_mangle]
pub extern "C" fn tl_out_room() -> usize {
    OUT_ROOM
}

/// Run `fill` on this thread's output buffer (all [`OUT_ROOM`] numbers).
pub fn with_out<R>(fill: impl FnOnce(&mut [u64]) -> R) -> R {
    OUT.with(|out| fill(&mut out.borrow_mut()))
}

/// Run `fill` on this thread's scratch list of masks (cleared first), then copy it to this thread's output buffer
/// (at most [`OUT_ROOM`] of them); their count.
pub fn emit_out(fill: impl FnOnce(&mut Vec<u64>)) -> i64 {
    SCRATCH.with(|s| {
        let mut scratch = s.borrow_mut();
        scratch.clear();
        fill(&mut scratch);
        OUT.with(|out| {
            let mut out = out.borrow_mut();
            let n = scratch.len().min(OUT_ROOM);
            out[..n].copy_from_slice(&scratch[..n]);
        });
        scratch.len() as i64
    })
}

// ----- plain calls -------------------------------------------------------------------------------------------------
//
// The hottest functions (`tl_classify`, `tl_lead`, `tl_answers`, `tl_bombs`, `tl_legal`) take only 32-bit numbers, so
// a caller may call them with no declared argument types: ctypes then passes a Python int as a C int, masked to 32
// bits, its cheapest conversion (declared 64-bit arguments cost several times more than the call itself). A mask is
// passed as two halves, its low 32 bits then the rest: bits 0-19 of the high half are the mask's bits 32-51, and its
// bits 20-31 carry the call's small numbers ([`RULE_SHIFT`], [`LOCKED_BIT`], [`START_SHIFT`]). Their answer is an
// `i32`, ctypes' default result.

/// Where a bombs rule's number (0-15) sits in a high half.
pub const RULE_SHIFT: u32 = 20;
/// The bit of a high half that says the seat is pass-locked.
pub const LOCKED_BIT: u32 = 1 << 24;
/// Where the start card plus one (0 for none) sits in a high half.
pub const START_SHIFT: u32 = 25;
/// The bombs rules a plain call can name (its 4 bits).
pub const PLAIN_RULES: usize = 16;

/// A mask from its two halves, refused unless it is a 52-bit mask (`high` may carry other numbers past bit 19 when
/// `numbers` is true, which are then left out).
#[inline]
pub fn joined(low: u32, high: u32, numbers: bool) -> Result<u64, String> {
    let high = if numbers { high & 0xF_FFFF } else { high };
    let mask = u64::from(low) | u64::from(high) << 32;
    if mask >> 52 != 0 {
        return Err(format!("{mask:#x} is not a hand mask (52 bits)"));
    }
    Ok(mask)
}
