//! The layer rules of `src/`, checked on the source text so they stay true.
//!
//! Every top-level module of the crate has a place in [`LAYERS`], lowest first. A module may
//! use its own layer and the layers below it, never one above. Inside a layer, the files
//! (leaving out the `mod.rs` façades that only declare and re-export) must not import each
//! other in a circle. `docs/DESIGN.md` draws the same order.
//!
//! The check reads `crate::…` and `super::…` paths in code (comments and doc links are left
//! out: a doc link is no dependency), resolves each to the deepest module file it names,
//! and reports every edge that breaks a rule, with the file that makes it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crate's layers, lowest first. Modules in one entry form one layer.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["alloc", "exec"],
    &["extents"],
    &["layout"],
    &["storage"],
    &["kernels"],
    &["tensor"],
    &["view", "iter"],
    &["ops"],
    &["linalg"],
    &["fft"],
    &["device", "dist"],
    &["fmt", "io", "interop", "serde", "approx"],
    &["guide"],
    &["lib", "macros", "traits"],
];

fn layer_of(top: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&top))
        .unwrap_or_else(|| panic!("module `{top}` has no place in tests/layers.rs's LAYERS: add it"))
}

/// A source file and the module path it defines (`src/a/b.rs` → `["a", "b"]`).
struct Source {
    path: PathBuf,
    module: Vec<String>,
    is_facade: bool,
    code: String,
}

fn collect(dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(src_dir()).unwrap();
            let mut module: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
            let file = module.pop().unwrap();
            let stem = file.trim_end_matches(".rs");
            let is_facade = stem == "mod" || stem == "lib";
            if !is_facade {
                module.push(stem.to_string());
            }
            let code = strip_comments_and_strings(&std::fs::read_to_string(&p).unwrap());
            out.push(Source { path: rel.to_path_buf(), module, is_facade, code });
        }
    }
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Code without comments, string and char literals (their text may look like paths).
fn strip_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'r' if b.get(i + 1) == Some(&b'#') || (b.get(i + 1) == Some(&b'"') && !ident_byte(b, i)) => {
                // Raw strings: r"…", r#"…"#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                i = j + close.len();
                out.push_str("\"\"");
            }
            b'\'' => {
                // A char literal ('a', '\n', '\u{..}') or a lifetime ('a): skip only literals.
                let rest = &b[i + 1..];
                let len = if rest.first() == Some(&b'\\') {
                    rest.iter().position(|&c| c == b'\'').map(|p| p + 1)
                } else if rest.len() > 1 && rest[1] == b'\'' {
                    Some(2)
                } else {
                    None
                };
                match len {
                    Some(n) => {
                        i += 1 + n;
                        out.push_str("' '");
                    }
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            c => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

fn ident_byte(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Tokens: identifiers, `::`, braces, commas and anything else as single characters.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[s..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else if c[i].is_whitespace() {
            i += 1;
        } else {
            out.push(c[i].to_string());
            i += 1;
        }
    }
    out
}

/// Reads a path tree starting at `tokens[i]` (after a `crate`/`super` root): `a::b`,
/// `a::{b, c::d}`; pushes each path (without the root) to `out`.
fn read_tree(t: &[String], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        if t.get(i).map(String::as_str) != Some("::") {
            out.push(path);
            return i;
        }
        i += 1;
        match t.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                loop {
                    match t.get(i).map(String::as_str) {
                        Some("}") => return i + 1,
                        Some(",") => i += 1,
                        Some(id) if is_ident(id) => {
                            let mut p = path.clone();
                            p.push(id.to_string());
                            i = read_tree(t, i + 1, p, out);
                        }
                        Some(_) => i += 1,
                        None => return i,
                    }
                }
            }
            Some(id) if is_ident(id) => {
                path.push(id.to_string());
                i += 1;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The paths a file names, made absolute (from the crate root). A path that names a macro
/// (`crate::ext!`) is left out: exported macros live at the root whatever defines them.
fn paths_of(src: &Source) -> Vec<Vec<String>> {
    let t = tokens(&src.code);
    let mut out = Vec::new();
    // Inline modules (`mod tests { … }`) change what `super` means: (name, brace depth).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            "mod" if t.get(i + 2).map(String::as_str) == Some("{") => {
                inline.push((t[i + 1].clone(), depth));
            }
            _ => {}
        }
        let preceded_by_path = i > 0 && t[i - 1] == "::";
        if !preceded_by_path && (t[i] == "crate" || t[i] == "super") {
            let mut root: Vec<String> = Vec::new();
            let mut j = i;
            if t[i] == "super" {
                root = src.module.clone();
                root.extend(inline.iter().map(|(n, _)| n.clone()));
                while t.get(j).map(String::as_str) == Some("super") {
                    root.pop();
                    if t.get(j + 1).map(String::as_str) == Some("::")
                        && t.get(j + 2).map(String::as_str) == Some("super")
                    {
                        j += 2;
                    } else {
                        break;
                    }
                }
            }
            let mut found = Vec::new();
            let end = read_tree(&t, j + 1, root, &mut found);
            if t.get(end).map(String::as_str) != Some("!") {
                out.extend(found);
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The crate root's `pub use` items, by the name they are used under (`Tensor` →
/// `tensor::Tensor`), so that `crate::Tensor` counts as a use of `tensor`.
fn root_reexports(lib: &Source) -> BTreeMap<String, Vec<String>> {
    let t = tokens(&lib.code);
    let mut map = BTreeMap::new();
    for i in 0..t.len() {
        if t[i] == "pub" && t.get(i + 1).map(String::as_str) == Some("use") {
            let mut found = Vec::new();
            let mut first = vec![t[i + 2].clone()];
            if first[0] == "crate" {
                first.clear();
            }
            read_tree(&t, i + 3, first, &mut found);
            for p in found {
                if let Some(name) = p.last() {
                    map.insert(name.clone(), p.clone());
                }
            }
        }
    }
    map
}

#[test]
fn lower_layers_never_import_higher_ones_and_files_form_no_circles() {
    let mut sources = Vec::new();
    collect(&src_dir(), &mut sources);
    let modules: BTreeMap<Vec<String>, usize> =
        sources.iter().enumerate().map(|(k, s)| (s.module.clone(), k)).collect();
    let top = |m: &[String]| m.first().cloned().unwrap_or_else(|| "lib".to_string());
    let lib = sources.iter().find(|s| s.module.is_empty()).expect("src/lib.rs");
    let reexports = root_reexports(lib);

    let mut problems = Vec::new();
    let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (k, s) in sources.iter().enumerate() {
        let from = layer_of(&top(&s.module));
        for mut p in paths_of(s) {
            if let Some(full) = p.first().and_then(|n| reexports.get(n)) {
                p.splice(0..1, full.iter().cloned());
            }
            // The deepest module file the path names; the root alone is no dependency.
            let Some(target) = (1..=p.len()).rev().find_map(|n| modules.get(&p[..n])) else { continue };
            let t = &sources[*target];
            let to_top = top(&t.module);
            if layer_of(&to_top) > from {
                problems.push(format!(
                    "{} (layer `{}`) imports `{}` from the higher layer `{}`",
                    s.path.display(),
                    top(&s.module),
                    p.join("::"),
                    to_top
                ));
            }
            if *target != k && !s.is_facade && !t.is_facade {
                edges.entry(k).or_default().insert(*target);
            }
        }
    }

    // Circles between files: depth-first search for a back edge.
    fn visit(
        n: usize,
        edges: &BTreeMap<usize, BTreeSet<usize>>,
        state: &mut [u8],
        stack: &mut Vec<usize>,
        found: &mut Vec<Vec<usize>>,
    ) {
        state[n] = 1;
        stack.push(n);
        for &m in edges.get(&n).into_iter().flatten() {
            if state[m] == 1 {
                let at = stack.iter().position(|&x| x == m).unwrap();
                found.push(stack[at..].to_vec());
            } else if state[m] == 0 {
                visit(m, edges, state, stack, found);
            }
        }
        stack.pop();
        state[n] = 2;
    }
    let mut state = vec![0u8; sources.len()];
    let mut circles = Vec::new();
    for n in 0..sources.len() {
        if state[n] == 0 {
            visit(n, &edges, &mut state, &mut Vec::new(), &mut circles);
        }
    }
    for c in circles {
        let names: Vec<String> = c.iter().map(|&k| sources[k].path.display().to_string()).collect();
        problems.push(format!("import circle: {} -> {}", names.join(" -> "), names[0]));
    }

    assert!(problems.is_empty(), "{} layer problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_checker_reads_paths_the_way_rustc_does() {
    let s = Source {
        path: "a/b.rs".into(),
        module: vec!["a".into(), "b".into()],
        is_facade: false,
        code: strip_comments_and_strings(
            "use crate::x::{y::Z, w}; // crate::hidden\nfn f() { super::c::g(); let s = \"crate::str\"; }\n\
             mod tests { use super::*; fn g() { crate::m!(); } }",
        ),
    };
    let got: Vec<String> = paths_of(&s).iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["x::y::Z", "x::w", "a::c::g", "a::b"]);
}
