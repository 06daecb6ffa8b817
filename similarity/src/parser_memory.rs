//! The memory tree-sitter holds, per thread: its allocator is pointed at counting wrappers of
//! the C allocator, so that a parse can be stopped when it holds more than its budget. Some
//! garbage makes the C++ grammar's error recovery hold 200 MB within a third of a second of
//! CPU time (`a<` 100,000 times), so a time budget alone does not bound memory.

use std::cell::Cell;
use std::ffi::c_void;
use std::sync::Once;

thread_local! {
    /// Bytes allocated by tree-sitter on this thread less those it freed here.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// Bytes tree-sitter holds on this thread (a parse's growth is the difference of two reads).
pub fn held() -> isize {
    HELD.with(Cell::get)
}

/// Points tree-sitter at the counting allocator, once, before any tree-sitter allocation of
/// the report.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: called once, before this crate allocates through tree-sitter; the wrappers
        // allocate and free with the C allocator that tree-sitter's defaults use, so memory
        // allocated before the switch is still freed correctly.
        unsafe {
            tree_sitter::set_allocator(
                Some(counted_malloc),
                Some(counted_calloc),
                Some(counted_realloc),
                Some(counted_free),
            )
        }
    });
}

fn count(bytes: usize, sign: isize) {
    let bytes = isize::try_from(bytes).unwrap_or(isize::MAX);
    HELD.with(|h| h.set(h.get().wrapping_add(sign.wrapping_mul(bytes))));
}

/// The usable size of a block from the C allocator.
unsafe fn size_of_block(p: *mut c_void) -> usize {
    if p.is_null() {
        0
    } else {
        // SAFETY: `p` is a live block from the C allocator (the caller's contract).
        unsafe { libc::malloc_usable_size(p) }
    }
}

/// tree-sitter's own default aborts when the C allocator fails; so do these.
fn or_abort(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() && size > 0 {
        std::process::abort();
    }
    p
}

unsafe extern "C" fn counted_malloc(size: usize) -> *mut c_void {
    // SAFETY: plain C allocation; the block's size is read from the block just allocated.
    unsafe {
        let p = or_abort(libc::malloc(size), size);
        count(size_of_block(p), 1);
        p
    }
}

unsafe extern "C" fn counted_calloc(n: usize, size: usize) -> *mut c_void {
    // SAFETY: as `counted_malloc`.
    unsafe {
        let p = or_abort(libc::calloc(n, size), n.saturating_mul(size));
        count(size_of_block(p), 1);
        p
    }
}

unsafe extern "C" fn counted_realloc(p: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: `p` is null or a live block of the C allocator, handed back by tree-sitter.
    unsafe {
        let before = size_of_block(p);
        let q = or_abort(libc::realloc(p, size), size);
        count(before, -1);
        count(size_of_block(q), 1);
        q
    }
}

unsafe extern "C" fn counted_free(p: *mut c_void) {
    // SAFETY: `p` is null or a live block of the C allocator, handed back by tree-sitter.
    unsafe {
        count(size_of_block(p), -1);
        libc::free(p);
    }
}
