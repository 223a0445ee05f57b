//! Which rows a ghost-padded block ([`HaloBlock`](super::HaloBlock)) exchanges with which
//! rank. Planned once, from the global row count alone, so that every rank computes the
//! same pairs of messages and an exchange only posts them. The plan takes every rank's
//! rows into account, not just the neighbours': a halo wider than a neighbour's block
//! takes the rest from the rank beyond it, and a rank that owns no rows (more ranks than
//! rows) still gets the rows above it.

use super::split::split_range;
use core::ops::Range;

/// The ghost rows a message fills: the receiver's rows above its own (`Top`) or below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Top,
    Bottom,
}

/// One message of an exchange, as this rank sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Transfer {
    /// The other rank.
    pub(crate) peer: usize,
    /// Which ghost rows of the receiver it fills.
    pub(crate) side: Side,
    /// The global rows it moves.
    pub(crate) rows: Range<usize>,
    /// Whether this rank sends it (else receives it).
    pub(crate) send: bool,
}

fn meet(a: &Range<usize>, b: &Range<usize>) -> Option<Range<usize>> {
    let r = a.start.max(b.start)..a.end.min(b.end);
    (r.start < r.end).then_some(r)
}

/// The rows a block `own` of a tensor with `m` rows wants above and below itself.
pub(crate) fn ghosts(own: &Range<usize>, width: usize, m: usize) -> [Range<usize>; 2] {
    [own.start.saturating_sub(width)..own.start, own.end..own.end.saturating_add(width).min(m)]
}

/// The messages of rank `me` of `size` for a halo of `width` rows on a tensor of `m` rows
/// split as `split_range` splits it: for each other rank in rank order, what it sends this
/// rank and what this rank sends it. Receives on one side therefore come in row order.
pub(crate) fn plan(m: usize, size: usize, me: usize, width: usize) -> Vec<Transfer> {
    let own = split_range(m, size, me);
    let mine = ghosts(&own, width, m);
    let mut out = Vec::new();
    for peer in (0..size).filter(|&p| p != me) {
        let theirs = split_range(m, size, peer);
        let wanted = ghosts(&theirs, width, m);
        for (k, side) in [Side::Top, Side::Bottom].into_iter().enumerate() {
            if let Some(rows) = meet(&theirs, &mine[k]) {
                out.push(Transfer { peer, side, rows, send: false });
            }
            if let Some(rows) = meet(&own, &wanted[k]) {
                out.push(Transfer { peer, side, rows, send: true });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_receive_is_a_send_and_the_ghosts_are_covered() {
        for m in 0..14 {
            for size in 1..7 {
                for width in 0..6 {
                    let plans: Vec<Vec<Transfer>> = (0..size).map(|r| plan(m, size, r, width)).collect();
                    for (me, p) in plans.iter().enumerate() {
                        let own = split_range(m, size, me);
                        let want = ghosts(&own, width, m);
                        for (k, side) in [Side::Top, Side::Bottom].into_iter().enumerate() {
                            // The receives of one side, in order, tile the wanted rows exactly.
                            let mut next = want[k].start;
                            for t in p.iter().filter(|t| !t.send && t.side == side) {
                                assert_eq!(t.rows.start, next, "m={m} size={size} w={width} rank {me}: {t:?}");
                                assert!(split_range(m, size, t.peer).start <= t.rows.start);
                                assert!(t.rows.end <= split_range(m, size, t.peer).end);
                                next = t.rows.end;
                            }
                            assert_eq!(next, want[k].end, "m={m} size={size} w={width}");
                        }
                        for t in p {
                            assert_ne!(t.peer, me);
                            let mirror = Transfer { peer: me, send: !t.send, ..t.clone() };
                            assert_eq!(
                                plans[t.peer].iter().filter(|u| **u == mirror).count(),
                                1,
                                "m={m} size={size} w={width}: {t:?} of rank {me} has no counterpart"
                            );
                            if t.send {
                                assert!(own.start <= t.rows.start && t.rows.end <= own.end);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn two_ranks_with_one_row_halos_send_one_row_each_way() {
        let p = plan(10, 2, 0, 1);
        assert_eq!(
            p,
            [
                Transfer { peer: 1, side: Side::Top, rows: 4..5, send: true },
                Transfer { peer: 1, side: Side::Bottom, rows: 5..6, send: false },
            ]
        );
    }
}
