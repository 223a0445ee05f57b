//! Large copies between host and device through pinned staging buffers that the device
//! keeps.
//!
//! From pageable memory the driver copies at a fraction of the bus speed, and allocating
//! pinned memory costs milliseconds, so a device owns a few pinned buffers, made on its
//! first large copy and reused by every later one. A copy is cut into buffer-sized chunks
//! ([`chunks`]); while the device copies one buffer, the host fills (or empties) the other
//! on several threads ([`fill`]), and each buffer's own event, recorded after its copy,
//! says when it may be touched again. The events are the staging's own rather than
//! cudarc's: cudarc records a pinned buffer's event only while it tracks events between
//! streams, which the device does not do by default (see `StreamSync`).

use cudarc::driver::{result, CudaContext, CudaEvent, CudaStream, DriverError, PinnedHostSlice};
use std::sync::Arc;

/// Size of each staging buffer.
pub(crate) const STAGING_BYTES: usize = 16 << 20;
/// Number of staging buffers: one filled by the host while the other is copied.
pub(crate) const STAGING_BUFFERS: usize = 2;
/// Below this many bytes a fill runs on the calling thread: handing pieces to other
/// threads costs microseconds.
const PARALLEL_FILL_BYTES: usize = 2 << 20;
/// Bytes per piece of a parallel fill.
const FILL_PIECE: usize = 1 << 20;

/// The chunks of a copy of `len` bytes through `buffers` buffers of `chunk` bytes each:
/// `(offset, length, buffer)`, in order, covering `0..len` without overlap, buffers taken
/// in turn.
pub(crate) fn chunks(len: usize, chunk: usize, buffers: usize) -> impl Iterator<Item = (usize, usize, usize)> {
    let chunk = chunk.max(1);
    let buffers = buffers.max(1);
    (0..len.div_ceil(chunk)).map(move |k| {
        let at = k * chunk;
        (at, chunk.min(len - at), k % buffers)
    })
}

/// Copies `src` into `dst` (of the same length), on rayon's pool in pieces when large.
pub(crate) fn fill(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "fill: lengths differ");
    let parallel = src.len() >= PARALLEL_FILL_BYTES;
    crate::exec::par::for_each_chunk_mut(dst, FILL_PIECE, parallel, |at, part| {
        part.copy_from_slice(&src[at..at + part.len()]);
    });
}

/// The pinned buffers of one device and the event recorded after each one's last copy.
pub(crate) struct Staging {
    bufs: [PinnedHostSlice<u8>; STAGING_BUFFERS],
    done: [CudaEvent; STAGING_BUFFERS],
}

impl Staging {
    /// [`STAGING_BUFFERS`] buffers of [`STAGING_BYTES`], plain page-locked memory (flags
    /// 0), not cudarc's default write-combined kind: the host reads these buffers on copies
    /// back, and CUDA documents write-combined memory as not readable efficiently by most
    /// CPUs.
    pub(crate) fn new(ctx: &Arc<CudaContext>) -> Result<Staging, DriverError> {
        // SAFETY: every byte of a buffer is written (by `fill` or by a device copy) before
        // anything reads it.
        let buf = || unsafe { ctx.alloc_pinned_with_flags::<u8>(STAGING_BYTES, 0) };
        Ok(Staging { bufs: [buf()?, buf()?], done: [ctx.new_event(None)?, ctx.new_event(None)?] })
    }

    /// Buffer `k`'s bytes, once every copy that used it has finished.
    fn host(&mut self, k: usize) -> Result<&mut [u8], DriverError> {
        self.done[k].synchronize()?;
        self.bufs[k].as_mut_slice()
    }

    /// Host → device: `src` to device address `dst`, queued on `stream`. Returns when the
    /// host has read all of `src`; the device may still be copying from the staging
    /// buffers (their events guard the next use).
    ///
    /// # Safety
    /// `dst` is the device address of at least `src.len()` bytes that nothing else uses
    /// until the copies queued on `stream` have run.
    pub(crate) unsafe fn upload(&mut self, stream: &CudaStream, src: &[u8], dst: u64) -> Result<(), DriverError> {
        for (at, len, k) in chunks(src.len(), STAGING_BYTES, self.bufs.len()) {
            let buf = &mut self.host(k)?[..len];
            fill(buf, &src[at..at + len]);
            // SAFETY: `buf` is pinned memory kept alive by `self` until its event says the
            // copy is done; `dst + at .. dst + at + len` is inside the caller's region.
            unsafe { result::memcpy_htod_async(dst + at as u64, &*buf, stream.cu_stream()) }?;
            self.done[k].record(stream)?;
        }
        Ok(())
    }

    /// Device → host: the bytes at device address `src` into `dst`, in order after the work
    /// queued on `stream`. Returns when `dst` holds them.
    ///
    /// # Safety
    /// `src` is the device address of at least `dst.len()` bytes, not written by other work
    /// before the copies queued here have run.
    pub(crate) unsafe fn download(&mut self, stream: &CudaStream, src: u64, dst: &mut [u8]) -> Result<(), DriverError> {
        // Queues the copy of a chunk into its buffer (after that buffer's last use).
        let queue = |st: &mut Staging, (at, len, k): (usize, usize, usize)| -> Result<(), DriverError> {
            let buf = &mut st.host(k)?[..len];
            // SAFETY: pinned memory owned by `st`, read by the host only after `done[k]`.
            unsafe { result::memcpy_dtoh_async(buf, src + at as u64, stream.cu_stream()) }?;
            st.done[k].record(stream)
        };
        let mut parts = chunks(dst.len(), STAGING_BYTES, self.bufs.len()).peekable();
        if let Some(&first) = parts.peek() {
            queue(self, first)?;
        }
        while let Some((at, len, k)) = parts.next() {
            // The next chunk is copied while this one is emptied.
            if let Some(&next) = parts.peek() {
                queue(self, next)?;
            }
            let buf = &self.host(k)?[..len];
            fill(&mut dst[at..at + len], buf);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_copy_in_order_and_take_buffers_in_turn() {
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            for chunk in [1, 3, 8, 64] {
                for buffers in [1, 2, 3] {
                    let parts: Vec<_> = chunks(len, chunk, buffers).collect();
                    let mut next = 0;
                    for (i, &(at, n, k)) in parts.iter().enumerate() {
                        assert_eq!(at, next, "len {len} chunk {chunk}: a gap or an overlap");
                        assert!(n >= 1 && n <= chunk);
                        assert_eq!(k, i % buffers);
                        next = at + n;
                    }
                    assert_eq!(next, len, "len {len} chunk {chunk}: not covered");
                    assert_eq!(parts.len(), len.div_ceil(chunk));
                }
            }
        }
    }

    #[test]
    fn fill_copies_every_byte_serial_and_parallel() {
        for len in [0, 1, 4097, FILL_PIECE + 3, PARALLEL_FILL_BYTES + FILL_PIECE / 2 + 5] {
            let src: Vec<u8> = (0..len).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
            let mut dst = vec![0xa5u8; len];
            fill(&mut dst, &src);
            assert!(dst == src, "len {len}");
        }
    }
}
