//! numpy as the oracle for printing, `ddof`, negative axes and negative `take` indices.
//! The fixtures are written by the `make_fixtures.py` script beside them in
//! `tests/fixtures/{display,numpy}`.

use mdtensor::{DynRank, Tensor};
use std::path::PathBuf;

fn fixture(dir: &str, name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn dims(s: &str) -> Vec<usize> {
    s.split(',').filter(|d| !d.is_empty()).map(|d| d.parse().unwrap()).collect()
}

#[test]
fn display_of_floats_matches_numpy() {
    let text = fixture("display", "cases.txt");
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.splitn(4, '|').collect();
        let (dtype, shape, bits, want) = (f[0], dims(f[1]), f[2], f[3].replace("\\n", "\n"));
        let bits = bits.split(',').map(|b| u64::from_str_radix(b, 16).unwrap());
        let got = match dtype {
            "float64" => {
                Tensor::<f64, DynRank>::from_vec(shape.clone(), bits.map(f64::from_bits).collect()).to_string()
            }
            "float32" => {
                Tensor::<f32, DynRank>::from_vec(shape.clone(), bits.map(|b| f32::from_bits(b as u32)).collect())
                    .to_string()
            }
            other => panic!("dtype {other}"),
        };
        if got != want {
            failed.push(format!("{dtype} {shape:?}:\n{got}\nnumpy:\n{want}"));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "{} of {checked} differ:\n{}", failed.len(), failed.join("\n\n"));
    assert!(checked > 50, "only {checked} cases");
}
