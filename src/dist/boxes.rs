//! Boxes of global indices (one range per axis) and the copies between a row-major block
//! and the part of it inside a box: what every data movement between placements is made of.

use core::ops::Range;

/// The common part of two boxes, `None` when it holds no element.
pub(crate) fn intersect(a: &[Range<usize>], b: &[Range<usize>]) -> Option<Vec<Range<usize>>> {
    let r: Vec<Range<usize>> = a.iter().zip(b).map(|(x, y)| x.start.max(y.start)..x.end.min(y.end)).collect();
    r.iter().all(|x| x.start < x.end).then_some(r)
}

/// The number of elements in a box.
pub(crate) fn volume(b: &[Range<usize>]) -> usize {
    b.iter().map(|r| r.len()).product()
}

/// Calls `run(offset in blk, len)` for each contiguous run of `sub` inside the row-major
/// block that holds box `blk` (`sub` lies inside `blk`), in row-major order of `sub`.
fn runs(blk: &[Range<usize>], sub: &[Range<usize>], mut run: impl FnMut(usize, usize)) {
    let rank = blk.len();
    if rank == 0 {
        run(0, 1);
        return;
    }
    if sub.iter().any(|r| r.is_empty()) {
        return;
    }
    let mut strides = vec![1usize; rank];
    for a in (0..rank - 1).rev() {
        strides[a] = strides[a + 1] * blk[a + 1].len();
    }
    let last = rank - 1;
    let mut idx: Vec<usize> = sub.iter().map(|r| r.start).collect();
    loop {
        let off: usize = (0..rank).map(|a| (idx[a] - blk[a].start) * strides[a]).sum();
        run(off, sub[last].len());
        let mut a = last;
        loop {
            if a == 0 {
                return;
            }
            a -= 1;
            idx[a] += 1;
            if idx[a] < sub[a].end {
                break;
            }
            idx[a] = sub[a].start;
        }
    }
}

/// Appends the elements of box `sub` of a block (box `blk`, row-major `data`) to `out`.
pub(crate) fn pack<T: Copy>(data: &[T], blk: &[Range<usize>], sub: &[Range<usize>], out: &mut Vec<T>) {
    runs(blk, sub, |off, len| out.extend_from_slice(&data[off..off + len]));
}

/// Writes `src` (box `sub`, row-major) into a block (box `blk`, row-major `data`).
pub(crate) fn unpack<T: Copy>(src: &[T], sub: &[Range<usize>], blk: &[Range<usize>], data: &mut [T]) {
    let mut at = 0;
    runs(blk, sub, |off, len| {
        data[off..off + len].copy_from_slice(&src[at..at + len]);
        at += len;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_then_unpack_moves_a_sub_box() {
        // A 4×5 block at rows 2..6, cols 1..6 of a larger tensor; its sub-box rows 3..5, cols 2..4.
        let blk = [2..6, 1..6];
        let data: Vec<usize> = (0..20).collect();
        let sub = intersect(&blk, &[3..5, 0..4]).unwrap();
        assert_eq!(sub, [3..5, 1..4]);
        let mut out = Vec::new();
        pack(&data, &blk, &sub, &mut out);
        assert_eq!(out, [5, 6, 7, 10, 11, 12]);
        let mut back = vec![0; 20];
        unpack(&out, &sub, &blk, &mut back);
        assert_eq!(&back[5..8], &[5, 6, 7]);
        assert_eq!(volume(&sub), 6);
        assert!(intersect(&blk, &[6..9, 0..9]).is_none());
    }
}
