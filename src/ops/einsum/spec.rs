//! The text of an einsum specification, and how it binds to the operands' shapes.
//!
//! Labels are ASCII letters; `...` stands for the axes no letter names, broadcast across
//! operands from the right (numpy's rules). Every label gets a number: `A`–`Z` are 0–25,
//! `a`–`z` 26–51 (so sorting numbers sorts as numpy sorts the letters of an implicit
//! output), and the axes of `...` follow from 52 on, leftmost first.

use crate::error::ShapeError;

/// Labels that are letters; the axes of `...` are numbered from here.
pub(crate) const LETTERS: usize = 52;

/// One term: its letters (as label numbers) and where `...` stands among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    pub(crate) letters: Vec<usize>,
    pub(crate) ellipsis: Option<usize>,
}

/// A parsed specification: the input terms and the explicit output, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    pub(crate) inputs: Vec<Term>,
    pub(crate) output: Option<Term>,
}

/// A specification bound to shapes: each operand's label per axis, each label's extent,
/// and the output's labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) operands: Vec<Vec<usize>>,
    pub(crate) extent: Vec<usize>,
    pub(crate) output: Vec<usize>,
}

fn invalid(reason: String) -> ShapeError {
    ShapeError::InvalidArgument { op: "einsum", reason }
}

/// The letter or `...` axis a label number stands for, as messages print it.
pub(crate) fn label_name(label: usize) -> String {
    match label {
        0..=25 => char::from(b'A' + label as u8).to_string(),
        26..=51 => char::from(b'a' + (label - 26) as u8).to_string(),
        _ => format!("... axis {}", label - LETTERS),
    }
}

fn term(text: &str, what: &str) -> Result<Term, ShapeError> {
    let bytes = text.as_bytes();
    let (mut letters, mut ellipsis, mut i) = (Vec::new(), None, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                if bytes.get(i..i + 3) != Some(b"...") {
                    return Err(invalid(format!("a '.' that is not part of '...' in {what}")));
                }
                if ellipsis.replace(letters.len()).is_some() {
                    return Err(invalid(format!("'...' appears twice in {what}")));
                }
                i += 3;
            }
            c @ b'A'..=b'Z' => {
                letters.push(usize::from(c - b'A'));
                i += 1;
            }
            c @ b'a'..=b'z' => {
                letters.push(usize::from(c - b'a') + 26);
                i += 1;
            }
            b' ' | b'\t' | b'\n' => i += 1,
            _ => {
                let c = text[i..].chars().next().unwrap_or('?');
                return Err(invalid(format!("'{c}' in {what} is not a letter (labels are a-z and A-Z)")));
            }
        }
    }
    Ok(Term { letters, ellipsis })
}

/// Parses `"ij,jk->ik"` (explicit output) or `"ij,jk"` (implicit).
pub(crate) fn parse(spec: &str) -> Result<Spec, ShapeError> {
    let (ins, out) = match spec.find("->") {
        Some(p) => (&spec[..p], Some(&spec[p + 2..])),
        None => (spec, None),
    };
    if ins.contains('>') || out.is_some_and(|o| o.contains("->")) {
        return Err(invalid(format!("'->' must appear at most once, in \"{spec}\"")));
    }
    let inputs =
        ins.split(',').enumerate().map(|(k, t)| term(t, &format!("operand {k}"))).collect::<Result<Vec<_>, _>>()?;
    let output = out.map(|o| term(o, "the output")).transpose()?;
    if let Some(o) = &output {
        for (p, &l) in o.letters.iter().enumerate() {
            if o.letters[..p].contains(&l) {
                return Err(invalid(format!("output label '{}' appears twice", label_name(l))));
            }
            if !inputs.iter().any(|t| t.letters.contains(&l)) {
                return Err(invalid(format!("output label '{}' appears in no operand", label_name(l))));
            }
        }
    }
    Ok(Spec { inputs, output })
}

/// Binds a parsed specification to the operands' shapes: ranks against terms, one extent
/// per label (an axis of extent 1 broadcasts against a longer one, as numpy's), and the
/// output (implicit: the `...` axes, then the letters used once, in alphabetical order).
pub(crate) fn bind(spec: &Spec, shapes: &[&[usize]]) -> Result<Bound, ShapeError> {
    if spec.inputs.len() != shapes.len() {
        return Err(invalid(format!(
            "the specification has {} operand terms but {} operands were given",
            spec.inputs.len(),
            shapes.len()
        )));
    }
    // How many axes each operand's `...` covers.
    let mut ell = Vec::new();
    for (k, (t, s)) in spec.inputs.iter().zip(shapes).enumerate() {
        let named = t.letters.len();
        match t.ellipsis {
            None if s.len() != named => {
                return Err(ShapeError::Incompatible {
                    op: "einsum",
                    lhs: s.to_vec(),
                    rhs: Vec::new(),
                    reason: format!("operand {k} has rank {} but its term names {named} axes", s.len()),
                })
            }
            Some(_) if s.len() < named => {
                return Err(ShapeError::Incompatible {
                    op: "einsum",
                    lhs: s.to_vec(),
                    rhs: Vec::new(),
                    reason: format!("operand {k} has rank {} but its term names {named} axes besides '...'", s.len()),
                })
            }
            _ => ell.push(s.len() - named),
        }
    }
    let ell_rank = ell.iter().copied().max().unwrap_or(0);
    let mut extent: Vec<Option<(usize, usize)>> = vec![None; LETTERS + ell_rank];
    let mut operands = Vec::new();
    for (k, ((t, s), &e)) in spec.inputs.iter().zip(shapes).zip(&ell).enumerate() {
        let mut labels = Vec::new();
        let at = t.ellipsis.unwrap_or(t.letters.len());
        labels.extend_from_slice(&t.letters[..at]);
        labels.extend((LETTERS + ell_rank - e)..(LETTERS + ell_rank));
        labels.extend_from_slice(&t.letters[at..]);
        for (axis, (&l, &n)) in labels.iter().zip(s.iter()).enumerate() {
            // Within one operand a repeated label takes a diagonal: its extents must agree.
            if let Some(first) = labels[..axis].iter().position(|&m| m == l) {
                if s[first] != n {
                    return Err(ShapeError::Incompatible {
                        op: "einsum",
                        lhs: s.to_vec(),
                        rhs: Vec::new(),
                        reason: format!(
                            "label '{}' repeats in operand {k} with extents {} and {n}",
                            label_name(l),
                            s[first]
                        ),
                    });
                }
            }
            match extent[l] {
                Some((m, _)) if m == n || n == 1 => {}
                Some((1, _)) | None => extent[l] = Some((n, k)),
                Some((m, j)) => {
                    return Err(ShapeError::Incompatible {
                        op: "einsum",
                        lhs: shapes[j].to_vec(),
                        rhs: s.to_vec(),
                        reason: format!(
                            "label '{}' has extent {m} in operand {j} and {n} in operand {k}",
                            label_name(l)
                        ),
                    })
                }
            }
        }
        operands.push(labels);
    }
    let output = match &spec.output {
        Some(o) => {
            if o.ellipsis.is_none() && ell_rank > 0 {
                return Err(invalid(format!("the operands' '...' covers {ell_rank} axes but the output has no '...'")));
            }
            let at = o.ellipsis.unwrap_or(o.letters.len());
            let mut out = o.letters[..at].to_vec();
            out.extend(LETTERS..LETTERS + ell_rank);
            out.extend_from_slice(&o.letters[at..]);
            out
        }
        None => {
            let mut out: Vec<usize> = (LETTERS..LETTERS + ell_rank).collect();
            let count =
                |l: usize| spec.inputs.iter().map(|t| t.letters.iter().filter(|&&m| m == l).count()).sum::<usize>();
            out.extend((0..LETTERS).filter(|&l| count(l) == 1));
            out
        }
    };
    Ok(Bound { operands, extent: extent.into_iter().map(|e| e.map_or(0, |(n, _)| n)).collect(), output })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_binds_numpy_forms() {
        let s = parse("ij,jk->ik").unwrap();
        assert_eq!(s.inputs.len(), 2);
        let b = bind(&s, &[&[2, 3], &[3, 4]]).unwrap();
        let (i, j, k) = (26 + 8, 26 + 9, 26 + 10);
        assert_eq!(b.operands, [vec![i, j], vec![j, k]]);
        assert_eq!(b.output, [i, k]);
        assert_eq!((b.extent[i], b.extent[j], b.extent[k]), (2, 3, 4));
        // Implicit output: letters used once, alphabetically, capitals first.
        let b = bind(&parse("ba").unwrap(), &[&[2, 3]]).unwrap();
        assert_eq!(b.output, [26, 27]);
        let b = bind(&parse("Ba").unwrap(), &[&[2, 3]]).unwrap();
        assert_eq!(b.output, [1, 26]);
        // `...` broadcast from the right, first in an implicit output.
        let b = bind(&parse("...ij,...j").unwrap(), &[&[5, 1, 2, 3], &[4, 3]]).unwrap();
        assert_eq!(b.output, [LETTERS, LETTERS + 1, 26 + 8]);
        assert_eq!(b.extent[LETTERS..], [5, 4]);
    }

    #[test]
    fn rejects_what_numpy_rejects() {
        for bad in ["i.j", "i..j", "i...j...", "ij->kk", "ij->k", "i1", "i->j->k", "ij->ii"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let e = bind(&parse("ij,jk").unwrap(), &[&[2, 3], &[4, 5]]).unwrap_err();
        assert!(e.to_string().contains("label 'j'"), "{e}");
        assert!(bind(&parse("ii->i").unwrap(), &[&[3, 4]]).unwrap_err().to_string().contains("label 'i'"));
        assert!(bind(&parse("ij").unwrap(), &[&[2, 3, 4]]).is_err());
        assert!(bind(&parse("...i->i").unwrap(), &[&[2, 3]]).is_err());
        assert!(bind(&parse("i,i").unwrap(), &[&[2]]).is_err());
        // Extent 1 broadcasts.
        assert_eq!(bind(&parse("ij,ij->ij").unwrap(), &[&[3, 1], &[3, 4]]).unwrap().extent[26 + 9], 4);
    }
}
