//! [`prefetch_read`]: the one prefetch of the crate, a leaf of `file/` that the read views
//! (`table.rs`, `nibble.rs`, `lines.rs`) and `SymCorners` call.

/// Prefetches the cache line holding `byte` into all cache levels.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch_read(byte: &u8) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: SSE is part of the x86-64 baseline, so the `sse` target feature `_mm_prefetch` requires is
    // always present; and a prefetch never faults or changes memory, whatever the address.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast()) }
}

/// Prefetching is a no-op on this target.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn prefetch_read(_byte: &u8) {}
