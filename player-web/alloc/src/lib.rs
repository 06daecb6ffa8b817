//! The web player's allocator on wasm32 (it is the `#[global_allocator]` of the player's
//! wasm only): blocks of a power of two bytes, each size with its list of freed blocks.
//!
//! Why not the standard library's dlmalloc: its code is about 7.6 KB of the player's wasm,
//! 2.5 KB of the page after compression, and the page has a size budget (150 KB) that game
//! modules' support had to fit into. What this costs: a block is up to twice the size asked
//! (the player's memory is a few megabytes: frames, strings, one replay), and memory freed
//! by blocks of one size is reused only by blocks of that size. Allocation and freeing are a
//! few instructions; a growing `Vec` moves to the next size as it would anyway.
//!
//! Blocks smaller than 64 KiB are cut from 64 KiB chunks, each aligned to its own size (so
//! any alignment up to its size is met); larger ones are whole pages from `memory.grow`. A
//! freed block's first word links it into its size's list. The page is single-threaded (no
//! wasm threads in the player), which is what makes the unsynchronized state sound.
#![no_std]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr::null_mut;

const PAGE: usize = 65536;
/// The smallest block holds the free list's link.
const MIN_CLASS: u32 = 3;

struct State {
    /// The first freed block of each size `1 << class`, or 0.
    free: [usize; 32],
    /// Where the next small block may be cut, and the end of the chunk it is cut from.
    next: usize,
    end: usize,
}

/// The allocator: `#[global_allocator] static A: Classes = Classes::new();`
pub struct Classes(UnsafeCell<State>);

// SAFETY: the player's wasm runs on one thread (the page's); nothing shares the state.
unsafe impl Sync for Classes {}

impl Classes {
    pub const fn new() -> Classes {
        Classes(UnsafeCell::new(State {
            free: [0; 32],
            next: 0,
            end: 0,
        }))
    }
}

impl Default for Classes {
    fn default() -> Self {
        Classes::new()
    }
}

/// The size class of a layout: `1 << class` bytes hold it, aligned.
fn class(layout: Layout) -> u32 {
    let size = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    usize::BITS - (size - 1).leading_zeros()
}

/// `pages` more pages of memory: the address of the first, or `None`.
fn grow(pages: usize) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    {
        let old = core::arch::wasm32::memory_grow(0, pages);
        (old != usize::MAX).then(|| old * PAGE)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = pages;
        None
    }
}

impl State {
    fn take(&mut self, class: u32) -> *mut u8 {
        let head = self.free[class as usize];
        if head != 0 {
            // SAFETY: a freed block of this class, whose first word holds the next one.
            self.free[class as usize] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        let size = 1usize << class;
        if size >= PAGE {
            return grow(size / PAGE).map_or(null_mut(), |at| at as *mut u8);
        }
        let mut at = (self.next + size - 1) & !(size - 1);
        if at + size > self.end {
            let Some(chunk) = grow(1) else {
                return null_mut();
            };
            (self.next, self.end, at) = (chunk, chunk + PAGE, chunk);
        }
        self.next = at + size;
        at as *mut u8
    }

    fn give(&mut self, ptr: *mut u8, class: u32) {
        // SAFETY: the block is ours again and at least a word long.
        unsafe { *(ptr as *mut usize) = self.free[class as usize] };
        self.free[class as usize] = ptr as usize;
    }
}

// SAFETY: blocks are disjoint (cut once from fresh memory, then only relinked when freed),
// aligned to their size, which is at least the layout's size and alignment.
unsafe impl GlobalAlloc for Classes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).take(class(layout))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        (*self.0.get()).give(ptr, class(layout));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        let (from, to) = (class(layout), class(new));
        if from == to {
            return ptr;
        }
        let state = &mut *self.0.get();
        let moved = state.take(to);
        if !moved.is_null() {
            core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
            state.give(ptr, from);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_the_powers_of_two_that_hold_size_and_alignment() {
        let l = |size, align| class(Layout::from_size_align(size, align).unwrap());
        assert_eq!(l(1, 1), 3, "at least a word");
        assert_eq!(l(8, 1), 3);
        assert_eq!(l(9, 1), 4);
        assert_eq!(l(16, 1), 4);
        assert_eq!(l(17, 8), 5);
        assert_eq!(l(4, 64), 6, "the alignment counts");
        assert_eq!(l(65536, 1), 16);
        assert_eq!(l(65537, 1), 17);
    }
}
