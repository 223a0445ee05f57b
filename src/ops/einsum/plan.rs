//! The order of pairwise contractions: greedy, as opt_einsum's `greedy` and numpy's
//! `optimize=True`. At each step the pair whose product removes the most memory (result
//! size minus the two operands' sizes) is contracted, among pairs that share a label when
//! any do; ties go to the pair with the fewest multiply-adds.

/// The labels a contraction of operands `a` and `b` keeps: those the output or another
/// remaining operand still needs, in `a`'s order then `b`'s.
pub(crate) fn kept(sets: &[Vec<usize>], a: usize, b: usize, output: &[usize]) -> Vec<usize> {
    let needed =
        |l: usize| output.contains(&l) || sets.iter().enumerate().any(|(k, s)| k != a && k != b && s.contains(&l));
    let mut out: Vec<usize> = sets[a].iter().copied().filter(|&l| needed(l)).collect();
    out.extend(sets[b].iter().copied().filter(|&l| needed(l) && !sets[a].contains(&l)));
    out
}

/// The number of elements of a tensor with these labels (as a float: only compared).
fn size(labels: &[usize], extent: &[usize]) -> f64 {
    labels.iter().map(|&l| extent[l] as f64).product()
}

/// The next pair to contract among `sets` (two or more), as `(i, j)` with `i < j`.
pub(crate) fn next_pair(sets: &[Vec<usize>], output: &[usize], extent: &[usize]) -> (usize, usize) {
    let mut best: Option<((bool, f64, f64), (usize, usize))> = None;
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            let shares = sets[i].iter().any(|l| sets[j].contains(l));
            let out = kept(sets, i, j, output);
            let removed = size(&out, extent) - size(&sets[i], extent) - size(&sets[j], extent);
            let mut union = sets[i].clone();
            union.extend(sets[j].iter().filter(|l| !sets[i].contains(l)));
            let key = (!shares, removed, size(&union, extent));
            if best.as_ref().is_none_or(|(b, _)| key.partial_cmp(b).is_some_and(|o| o.is_lt())) {
                best = Some((key, (i, j)));
            }
        }
    }
    best.map_or((0, 1), |(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_contracts_the_cheap_pair_first() {
        // i j k l with extents 1000, 2, 1000, 2: (ij)(jk) makes 1000², (jk)(kl) 1000·2.
        let extent = [1000, 2, 1000, 2];
        let sets = vec![vec![0, 1], vec![1, 2], vec![2, 3]];
        assert_eq!(next_pair(&sets, &[0, 3], &extent), (1, 2));
        assert_eq!(kept(&sets, 1, 2, &[0, 3]), [1, 3]);
        // Pairs that share a label come before outer products.
        let sets = vec![vec![0], vec![1], vec![0, 1]];
        let p = next_pair(&sets, &[], &[2, 2]);
        assert!(p == (0, 2) || p == (1, 2), "{p:?}");
    }
}
