//! The module's allocator: a call's first allocations come from a region
//! inside the module's initial memory; the rest from the standard allocator.
//!
//! Rust's standard allocator on wasm32 (dlmalloc) takes every block it
//! manages from `memory.grow`, never from the initial memory past the stack
//! and the data. So even the smallest call (a reconcile of a dozen
//! movements, whose heap is a few dozen KiB) grew memory. In wasmtime's
//! pooling allocator (the server's sandbox) growing makes pages read/write,
//! and the next instance in the slot makes them inaccessible again: an
//! `mprotect` each way, the second with a TLB flush on every core the
//! server's threads ran on; 7% of the server's CPU time on a stream of small
//! calls over HTTP (`perf`, the small reconcile at four clients). A region
//! of [`REGION_BYTES`] in the initial memory (zero bytes, so nothing in the
//! module's data to load) serves a small call whole, and memory never grows.
//!
//! The region is a stack of blocks, as a call allocates them: a block is
//! cut from the free end; freeing the last block (or growing or shrinking
//! it in place) moves the end back; and once no block is left, the whole
//! region is free again. The first block that does not fit **spills**: it
//! and every block after it come from the standard allocator, so a large
//! call's blocks are laid out as they were without the region. (Letting
//! later small blocks into the region again changed where dlmalloc put the
//! large ones: `inspect_dataset` on the 1,000,000-row benchmark file then
//! peaked 13 MiB higher.) A block of the region that must move, moves out.
//! In Node and browsers the module lives across calls, so there the region
//! serves the calls before the first large one.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, UnsafeCell};

/// How much of the initial memory the region takes: a small call's whole
/// heap, a small share of a large call's.
// Natively only the tests use the allocator, each with a size of its own.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) const REGION_BYTES: usize = 1 << 20;

// The region's bookkeeping is plain cells: sound only while the module has
// one thread, as a module built without the `atomics` feature has.
#[cfg(target_feature = "atomics")]
compile_error!("the allocator in arena.rs assumes one thread; a threaded module needs another");

/// A region of `BYTES` bytes tried first, then [`System`].
pub(crate) struct RegionFirst<const BYTES: usize> {
    region: Region<BYTES>,
    /// Where the free end of the region starts.
    end: Cell<usize>,
    /// Blocks given out from the region and not yet freed.
    live: Cell<usize>,
    /// A block did not fit: no block is cut from the region any more.
    spilled: Cell<bool>,
}

/// The region's bytes, aligned for any block the core allocates.
#[repr(C, align(16))]
struct Region<const BYTES: usize>(UnsafeCell<[u8; BYTES]>);

// SAFETY: the module has one thread (the `compile_error!` above refuses a
// threaded build), so no two threads ever reach the cells or the region.
// Natively the type is only used by its tests, one instance per test.
#[allow(unsafe_code)]
unsafe impl<const BYTES: usize> Sync for RegionFirst<BYTES> {}

impl<const BYTES: usize> RegionFirst<BYTES> {
    /// An empty region (all zero bytes, so a `static` of it is in `.bss`).
    pub(crate) const fn new() -> Self {
        RegionFirst {
            region: Region(UnsafeCell::new([0; BYTES])),
            end: Cell::new(0),
            live: Cell::new(0),
            spilled: Cell::new(false),
        }
    }

    fn base(&self) -> *mut u8 {
        self.region.0.get().cast::<u8>()
    }

    /// Where `ptr` lies in the region, if it does.
    fn offset_of(&self, ptr: *mut u8) -> Option<usize> {
        let offset = (ptr as usize).wrapping_sub(self.base() as usize);
        (offset < BYTES).then_some(offset)
    }

    /// A block for `layout` cut from the free end, if it fits and none
    /// has spilled before.
    fn take(&self, layout: Layout) -> Option<*mut u8> {
        if self.spilled.get() {
            return None;
        }
        let base = self.base() as usize;
        let start = (base + self.end.get()).checked_next_multiple_of(layout.align())? - base;
        let Some(end) = start.checked_add(layout.size()).filter(|&end| end <= BYTES) else {
            self.spilled.set(true);
            return None;
        };
        self.end.set(end);
        self.live.set(self.live.get() + 1);
        Some(self.base().wrapping_add(start))
    }

    /// The block at `offset`, `size` bytes long, is free.
    fn give_back(&self, offset: usize, size: usize) {
        let live = self.live.get() - 1;
        self.live.set(live);
        if live == 0 {
            self.end.set(0);
        } else if offset + size == self.end.get() {
            self.end.set(offset);
        }
    }
}

impl<const BYTES: usize> Default for RegionFirst<BYTES> {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: a block from the region lies within it, is aligned as asked (the
// region is 16-aligned and each start is rounded up to the block's
// alignment) and overlaps no live block: every live block lies below `end`,
// `end` only moves back over the block being freed or resized, which is
// the last one, and back to 0 only once no block is live. Every other
// block is `System`'s, and goes back to it.
#[allow(unsafe_code)]
unsafe impl<const BYTES: usize> GlobalAlloc for RegionFirst<BYTES> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match self.take(layout) {
            Some(ptr) => ptr,
            // SAFETY: the caller's contract for `layout` is `System`'s.
            None => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match self.take(layout) {
            Some(ptr) => {
                // A block of the region may have been used and freed before.
                // SAFETY: the block is `layout.size()` bytes, all ours.
                unsafe { ptr.write_bytes(0, layout.size()) };
                ptr
            }
            // SAFETY: as `alloc`. (`System` knows which of its memory is
            // fresh from `memory.grow`, hence zero, and writes no zeros there.)
            None => unsafe { System.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match self.offset_of(ptr) {
            Some(offset) => self.give_back(offset, layout.size()),
            // SAFETY: a block outside the region came from `System`.
            None => unsafe { System.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Some(offset) = self.offset_of(ptr) else {
            // SAFETY: a block outside the region came from `System`.
            return unsafe { System.realloc(ptr, layout, new_size) };
        };
        // The last block grows or shrinks where it is, while it fits.
        if offset + layout.size() == self.end.get() && offset + new_size <= BYTES {
            self.end.set(offset + new_size);
            return ptr;
        }
        // Any block shrinks where it is (its tail is lost until the region empties).
        if new_size <= layout.size() {
            return ptr;
        }
        // SAFETY: `new_size` is non-zero and, rounded to the alignment, at
        // most `isize::MAX` (the caller's contract for `realloc`).
        let moved = unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
        if !moved.is_null() {
            // SAFETY: both blocks are at least `layout.size()` bytes and
            // distinct (the old one is live until freed below).
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, moved, layout.size());
                self.dealloc(ptr, layout);
            }
        }
        moved
    }
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use super::*;

    const SMALL: usize = 4096;

    /// A block given out, and the byte it was filled with.
    struct Block {
        ptr: *mut u8,
        layout: Layout,
        fill: u8,
    }

    fn filled(ptr: *mut u8, layout: Layout, fill: u8) -> Block {
        assert!(!ptr.is_null());
        assert_eq!(ptr as usize % layout.align(), 0, "aligned as asked");
        // SAFETY: the block is `layout.size()` bytes, ours.
        unsafe { ptr.write_bytes(fill, layout.size()) };
        Block { ptr, layout, fill }
    }

    /// Every live block still holds its own fill: no block was given out twice.
    fn intact(blocks: &[Block]) {
        for block in blocks {
            // SAFETY: a live block, `layout.size()` bytes.
            let bytes = unsafe { std::slice::from_raw_parts(block.ptr, block.layout.size()) };
            assert!(bytes.iter().all(|&b| b == block.fill), "block {} was overwritten", block.fill);
        }
    }

    #[test]
    fn small_blocks_come_from_the_region_until_one_spills() {
        let arena = Box::new(RegionFirst::<SMALL>::new());
        let small = Layout::from_size_align(100, 8).unwrap();
        let large = Layout::from_size_align(SMALL + 1, 8).unwrap();
        // SAFETY: non-zero layouts; each block freed once with its layout.
        unsafe {
            let a = arena.alloc(small);
            assert!(arena.offset_of(a).is_some());
            // Too large for the region: it spills.
            let b = arena.alloc(large);
            assert!(arena.offset_of(b).is_none());
            // From then on even a small block comes from the system, so a
            // large call's blocks are where they would be without the region.
            let c = arena.alloc(small);
            assert!(arena.offset_of(c).is_none());
            arena.dealloc(a, small);
            assert_eq!((arena.end.get(), arena.live.get()), (0, 0), "the region is whole again");
            let d = arena.alloc(small);
            assert!(arena.offset_of(d).is_none(), "and still spilled");
            for (ptr, layout) in [(b, large), (c, small), (d, small)] {
                arena.dealloc(ptr, layout);
            }
        }
    }

    #[test]
    fn the_last_block_grows_in_place_and_others_move_with_their_bytes() {
        let arena = Box::new(RegionFirst::<SMALL>::new());
        let layout = Layout::from_size_align(64, 4).unwrap();
        // SAFETY: blocks used within their sizes and freed with their layouts.
        unsafe {
            let first = filled(arena.alloc(layout), layout, 1);
            let last = filled(arena.alloc(layout), layout, 2);
            // The last block grows where it is.
            let grown = arena.realloc(last.ptr, layout, 1000);
            assert_eq!(grown, last.ptr);
            let grown_layout = Layout::from_size_align(1000, 4).unwrap();
            // The first block is not last: it moves, its bytes with it.
            let moved = arena.realloc(first.ptr, layout, 200);
            assert_ne!(moved, first.ptr);
            let moved_bytes = std::slice::from_raw_parts(moved, 64);
            assert!(moved_bytes.iter().all(|&b| b == 1));
            // Past the region's size, a block moves to the system allocator.
            let moved_layout = Layout::from_size_align(200, 4).unwrap();
            let far = arena.realloc(moved, moved_layout, SMALL * 2);
            assert!(arena.offset_of(far).is_none());
            assert!(std::slice::from_raw_parts(far, 64).iter().all(|&b| b == 1));
            arena.dealloc(far, Layout::from_size_align(SMALL * 2, 4).unwrap());
            arena.dealloc(grown, grown_layout);
        }
        assert_eq!((arena.end.get(), arena.live.get()), (0, 0));
    }

    #[test]
    fn zeroed_blocks_are_zero_even_where_a_freed_block_was() {
        let arena = Box::new(RegionFirst::<SMALL>::new());
        let layout = Layout::from_size_align(256, 1).unwrap();
        // SAFETY: as above.
        unsafe {
            let dirty = filled(arena.alloc(layout), layout, 0xAB);
            arena.dealloc(dirty.ptr, layout);
            let zeroed = arena.alloc_zeroed(layout);
            assert_eq!(zeroed, dirty.ptr, "the freed last block is reused");
            assert!(std::slice::from_raw_parts(zeroed, 256).iter().all(|&b| b == 0));
            arena.dealloc(zeroed, layout);
        }
    }

    #[test]
    fn no_live_block_is_overwritten_whatever_the_order_of_calls() {
        // A fixed pseudo-random mix of allocations (sizes 1 to 700 bytes,
        // alignments 1 to 16, some zeroed), frees and reallocations, in a
        // region that fills up part way through, so every path runs: cut
        // from the end, the end moved back, grown in place, moved within the
        // region, shrunk, moved out, and every block from the system once
        // one spilled. Each live block keeps its own fill, checked after
        // every step.
        const REGION: usize = 256 << 10;
        let arena = Box::new(RegionFirst::<REGION>::new());
        let mut blocks: Vec<Block> = Vec::new();
        let (mut in_region, mut outside) = (0, 0);
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for step in 0..4000u32 {
            let roll = next();
            let fill = (step % 251) as u8 + 1;
            // SAFETY: non-zero layouts; blocks used within their sizes,
            // freed or reallocated once, with their current layouts.
            unsafe {
                match roll % 5 {
                    0 | 1 => {
                        let size = (next() % 700) as usize + 1;
                        let layout = Layout::from_size_align(size, 1 << (next() % 5)).unwrap();
                        let zeroed = roll % 2 == 1;
                        let ptr = if zeroed { arena.alloc_zeroed(layout) } else { arena.alloc(layout) };
                        if zeroed {
                            assert!(std::slice::from_raw_parts(ptr, size).iter().all(|&b| b == 0));
                        }
                        if arena.offset_of(ptr).is_some() {
                            in_region += 1;
                        } else {
                            outside += 1;
                        }
                        blocks.push(filled(ptr, layout, fill));
                    }
                    2 | 3 if !blocks.is_empty() => {
                        let block = blocks.swap_remove((next() % blocks.len() as u64) as usize);
                        arena.dealloc(block.ptr, block.layout);
                    }
                    _ if !blocks.is_empty() => {
                        let at = (next() % blocks.len() as u64) as usize;
                        let Block { ptr, layout, fill: old } = blocks.swap_remove(at);
                        let new_size = (next() % 900) as usize + 1;
                        let moved = arena.realloc(ptr, layout, new_size);
                        let kept = std::slice::from_raw_parts(moved, layout.size().min(new_size));
                        assert!(kept.iter().all(|&b| b == old), "a reallocated block keeps its bytes");
                        blocks.push(filled(moved, Layout::from_size_align(new_size, layout.align()).unwrap(), fill));
                    }
                    _ => {}
                }
            }
            intact(&blocks);
        }
        assert!(in_region > 100 && outside > 100, "both kinds of block: {in_region} in the region, {outside} outside");
        for block in blocks.drain(..) {
            // SAFETY: each live block freed once with its layout.
            unsafe { arena.dealloc(block.ptr, block.layout) };
        }
        assert_eq!((arena.end.get(), arena.live.get()), (0, 0));
    }
}
