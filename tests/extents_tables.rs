//! The generator of the impl tables under `src/extents/` (`*_table.rs`,
//! `table_groups.rs`), and the check that the committed files are what it writes.
//!
//! Each table is a list of macro invocations, one per rank combination (or per number, for
//! the typenum → `Const` groups); the macros beside each `include!` turn them into impls.
//! After changing a rule here, rewrite the files with
//! `MDTENSOR_WRITE_TABLES=1 cargo test --test extents_tables` and review the diff.

use std::fmt::Write as _;
use std::path::PathBuf;

/// The highest rank the tuple extents have impls for.
const MAX_RANK: usize = 6;
/// Names of a left (or source) operand's axes, and of a right (or target) operand's.
const LEFT: [&str; MAX_RANK] = ["A", "B", "C", "D", "F", "G"];
const RIGHT: [&str; MAX_RANK] = ["P", "Q", "R", "V", "W", "X"];
/// `matmul!`: every (left rank, right rank) pair from 1 to the maximum: numpy's `matmul`
/// rule, with a vector operand's axis dropped and the batch axes (all but the last two)
/// aligned right and broadcast. The result has at most `MAX_RANK` axes (two operands of
/// rank `MAX_RANK` have `MAX_RANK - 2` batch axes).
fn matmul_table() -> String {
    let mut s = String::from(
        "// Generated: one line per (left rank, right rank), 1 to 6. Each entry is\n\
         // [left axes] @ [right axes] => [result axes]; inner axes that must agree; batch pairs.\n",
    );
    for a in 1..=MAX_RANK {
        for b in 1..=MAX_RANK {
            let (l, r) = (&LEFT[..a], &RIGHT[..b]);
            let k2 = if b == 1 { r[0] } else { r[b - 2] };
            let (lb, rb) = (&l[..a.saturating_sub(2)], &r[..b.saturating_sub(2)]);
            let (lead, pl, pr) = if lb.len() >= rb.len() {
                (&lb[..lb.len() - rb.len()], &lb[lb.len() - rb.len()..], rb)
            } else {
                (&rb[..rb.len() - lb.len()], lb, &rb[rb.len() - lb.len()..])
            };
            let mut out: Vec<String> = lead.iter().map(|x| x.to_string()).collect();
            out.extend(pl.iter().zip(pr).map(|(x, y)| format!("Bc<{x}, {y}>")));
            if a >= 2 {
                out.push(l[a - 2].to_string());
            }
            if b >= 2 {
                out.push(r[b - 1].to_string());
            }
            assert!(out.len() <= MAX_RANK);
            writeln!(
                s,
                "matmul!([{}] @ [{}] => [{}]; {}: {k2}; batch [{}]);",
                list(l),
                list(r),
                out.join(", "),
                l[a - 1],
                pairs(pl, pr)
            )
            .unwrap();
        }
    }
    s
}

/// The typenum → `Const` table covers 0..=TABLE_MAX.
const TABLE_MAX: usize = 1024;

fn list(names: &[&str]) -> String {
    names.join(" ")
}

fn pairs(left: &[&str], right: &[&str]) -> String {
    left.iter().zip(right).map(|(l, r)| format!("{l}:{r}")).collect::<Vec<_>>().join(" ")
}

/// `broadcast_to!`: every (source rank ≤ target rank) pair, source axes aligned right.
fn broadcast_table() -> String {
    let mut s =
        String::from("// Generated: one line per (source rank, target rank) pair, source axes aligned right.\n");
    for t in 0..=MAX_RANK {
        for r in 0..=t {
            let (src, tgt) = (&LEFT[..r], &RIGHT[..t]);
            let p = pairs(src, &tgt[t - r..]);
            writeln!(s, "broadcast_to!([{}] => [{}]; {p});", list(src), list(tgt)).unwrap();
        }
    }
    s
}

/// `broadcast_with!`: every (left rank ≥ 1, right rank) pair: the longer operand's leading
/// axes, then the aligned pairs.
fn broadcast_pair_table() -> String {
    let mut s = String::from(
        "// Generated: one line per (left rank, right rank) pair; axes aligned right. A rank-0 left\n\
         // operand (a scalar) has one generic impl in `broadcast.rs` instead.\n",
    );
    for a in 1..=MAX_RANK {
        for b in 0..=MAX_RANK {
            let (l, r) = (&LEFT[..a], &RIGHT[..b]);
            let (lead, p) =
                if a >= b { (&l[..a - b], pairs(&l[a - b..], r)) } else { (&r[..b - a], pairs(l, &r[b - a..])) };
            writeln!(s, "broadcast_with!([{}] [{}]; lead [{}]; pairs [{p}]);", list(l), list(r), list(lead)).unwrap();
        }
    }
    s
}

/// `concat!`: every (left rank, right rank) pair whose ranks sum to at most the maximum.
fn concat_table() -> String {
    let mut s = String::from("// Generated: one line per (left rank, right rank) with a sum of at most 6.\n");
    for a in 0..=MAX_RANK {
        for b in 0..=MAX_RANK - a {
            writeln!(s, "concat!([{}] [{}]);", list(&LEFT[..a]), list(&RIGHT[..b])).unwrap();
        }
    }
    s
}

/// `concat_along!`: every (rank, joined axis) pair; the joined axis sums, the others join.
fn join_table() -> String {
    let mut s = String::from(
        "// Generated: one line per (rank, joined axis), rank 1 to 6. Each entry is\n\
         // [tuple field, left dim, right dim, per-axis rule, its method].\n",
    );
    for rank in 1..=MAX_RANK {
        for axis in 0..rank {
            let entries: Vec<String> = (0..rank)
                .map(|i| {
                    let rule = if i == axis { "DimSum sum" } else { "JoinDim join" };
                    format!("[{i} A{i} R{i} {rule}]")
                })
                .collect();
            writeln!(s, "concat_along!({axis}; {});", entries.join(" ")).unwrap();
        }
    }
    s
}

/// The typenum → `Const` groups: numbers below 8 (but 1, which maps to `One`) in `Small`,
/// the others in `L{n % 16}`, wrapped at 100 columns.
fn table_groups() -> String {
    let mut groups: Vec<(String, Vec<usize>)> = vec![("Small".into(), (0..8).filter(|&n| n != 1).collect())];
    for low in 0..16 {
        groups.push((format!("L{low}"), (8..=TABLE_MAX).filter(|n| n % 16 == low).collect()));
    }
    let mut s = String::from("// Generated: typenum number → `Const<N>`, by group (see `table.rs`).\n");
    for (name, ns) in groups {
        writeln!(s, "\ntable! {{ {name}:").unwrap();
        let mut line = String::from("   ");
        for n in ns {
            let entry = format!(" {n} => U{n},");
            if line.len() + entry.len() > 100 {
                writeln!(s, "{line}").unwrap();
                line = String::from("   ");
            }
            line.push_str(&entry);
        }
        writeln!(s, "{line}\n}}").unwrap();
    }
    s
}

#[test]
fn committed_tables_are_what_the_generator_writes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/extents");
    let tables = [
        ("broadcast_table.rs", broadcast_table()),
        ("broadcast_pair_table.rs", broadcast_pair_table()),
        ("concat_table.rs", concat_table()),
        ("join_table.rs", join_table()),
        ("matmul_table.rs", matmul_table()),
        ("table_groups.rs", table_groups()),
    ];
    let write = std::env::var_os("MDTENSOR_WRITE_TABLES").is_some();
    let mut stale = Vec::new();
    for (file, text) in tables {
        let path = dir.join(file);
        if write {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).unwrap() != text {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from what tests/extents_tables.rs generates: \
         run `MDTENSOR_WRITE_TABLES=1 cargo test --test extents_tables` and review the diff"
    );
}

#[test]
fn the_tables_cover_every_rank_and_number() {
    // The generator itself: each rank combination once, each number once.
    assert_eq!(broadcast_table().lines().filter(|l| l.starts_with("broadcast_to!")).count(), 28);
    assert_eq!(broadcast_pair_table().lines().filter(|l| l.starts_with("broadcast_with!")).count(), 42);
    assert_eq!(concat_table().lines().filter(|l| l.starts_with("concat!")).count(), 28);
    assert_eq!(join_table().lines().filter(|l| l.starts_with("concat_along!")).count(), 21);
    assert_eq!(matmul_table().lines().filter(|l| l.starts_with("matmul!")).count(), 36);
    let numbers: usize = table_groups().matches(" => U").count();
    assert_eq!(numbers, TABLE_MAX); // 0..=1024 less the 1 that maps to `One`
}
