//! Square tiles of the last two axes: the unit of work for mixed layouts.
//!
//! When an operand (or the output) runs along the second-to-last axis in memory, e.g. a
//! transposed view, element-at-a-time traversal touches a new cache line for every
//! element and cannot use vector loads. The elementwise engine instead reads each operand's
//! `TILE × TILE` block into a small row-major buffer ([`gather`], which walks the block in
//! the operand's own memory order), combines the buffers row by row (contiguous, so the
//! combining loop vectorises), and writes the result block in the output's memory order.
//! Each buffer is 1 KiB for `f32`: it stays in L1 cache.

use crate::exec::prefetch::to_l2;
use core::mem::MaybeUninit;

/// Tile edge: 16 elements (a 64-byte cache line of `f32`).
pub const TILE: usize = 16;

/// A row-major `TILE × TILE` block; row `i` starts at element `i * TILE`. Only the
/// `rows × cols` corner a caller asked for is initialised.
pub type Tile<T> = [MaybeUninit<T>; TILE * TILE];

/// An uninitialised tile.
#[inline(always)]
pub fn new_tile<T>() -> Tile<T> {
    [const { MaybeUninit::uninit() }; TILE * TILE]
}

/// Reads the `rows × cols` block at `src` (element `[i, j]` at `src + i·rs + j·cs`) into
/// `dst` (row `i` at `dst[i * TILE..]`).
///
/// The loop order follows the source's memory: along `j` when the columns are adjacent (or
/// the same element), along `i` when the rows are, so each source cache line is read
/// whole; the strided side is the L1-resident tile.
///
/// # Safety
/// `rows, cols <= TILE`, and every `src + i·rs + j·cs` for `i < rows`, `j < cols` is a
/// readable, initialised `T`.
///
/// Not inlined: one copy per element type serves every expression's leaves (a tile is 256
/// elements, so the call costs nothing), instead of its four loops compiled into each
/// expression of a user's program.
#[inline(never)]
pub unsafe fn gather<T: Copy>(src: *const T, rs: isize, cs: isize, rows: usize, cols: usize, dst: &mut Tile<T>) {
    debug_assert!(rows <= TILE && cols <= TILE);
    let d = dst.as_mut_ptr().cast::<T>();
    // SAFETY (every access below): positions are inside the block (caller's contract);
    // tile positions `i * TILE + j` with `i < rows <= TILE`, `j < cols <= TILE`.
    unsafe {
        if cs == 1 {
            // A full-width row is a constant-size copy (vector moves), not a `memcpy` call.
            for i in 0..rows {
                let (s, d) = (src.offset(i as isize * rs), d.add(i * TILE));
                to_l2(s.wrapping_add(TILE));
                if cols == TILE {
                    core::ptr::copy_nonoverlapping(s, d, TILE);
                } else {
                    core::ptr::copy_nonoverlapping(s, d, cols);
                }
            }
        } else if cs == 0 {
            for i in 0..rows {
                let v = *src.offset(i as isize * rs);
                for j in 0..cols {
                    d.add(i * TILE + j).write(v);
                }
            }
        } else if rs.unsigned_abs() < cs.unsigned_abs() {
            // Rows closer in memory than columns (a transposed operand): walk each column.
            for j in 0..cols {
                let s = src.offset(j as isize * cs);
                to_l2(s.wrapping_offset(TILE as isize * cs));
                for i in 0..rows {
                    d.add(i * TILE + j).write(*s.offset(i as isize * rs));
                }
            }
        } else {
            for i in 0..rows {
                let s = src.offset(i as isize * rs);
                for j in 0..cols {
                    d.add(i * TILE + j).write(*s.offset(j as isize * cs));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_reads_every_layout() {
        // A 20×23 matrix read as blocks through row-major, column-major, broadcast and
        // reversed strides.
        let (r, c) = (20usize, 23usize);
        let data: Vec<u32> = (0..(r * c) as u32).collect();
        let at = |i: usize, j: usize| data[i * c + j];
        for (rows, cols) in [(16, 16), (3, 7), (16, 1), (1, 16)] {
            let mut t = new_tile::<u32>();
            let read = |t: &Tile<u32>, i: usize, j: usize| unsafe { t[i * TILE + j].assume_init() };
            // SAFETY (each call): the block lies inside `data`.
            unsafe { gather(data.as_ptr().add(2 * c + 3), c as isize, 1, rows, cols, &mut t) };
            assert!((0..rows).all(|i| (0..cols).all(|j| read(&t, i, j) == at(2 + i, 3 + j))));
            // Transposed: element [i, j] of the block is data[j, i].
            unsafe { gather(data.as_ptr().add(c + 2), 1, c as isize, rows, cols, &mut t) };
            assert!((0..rows).all(|i| (0..cols).all(|j| read(&t, i, j) == at(1 + j, 2 + i))));
            // Broadcast along the columns, and a reversed row order.
            unsafe { gather(data.as_ptr().add(4), c as isize, 0, rows, cols, &mut t) };
            assert!((0..rows).all(|i| (0..cols).all(|j| read(&t, i, j) == at(i, 4))));
            unsafe { gather(data.as_ptr().add(19 * c), -(c as isize), 1, rows, cols, &mut t) };
            assert!((0..rows).all(|i| (0..cols).all(|j| read(&t, i, j) == at(19 - i, j))));
        }
    }
}
