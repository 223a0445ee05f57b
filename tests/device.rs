//! The CUDA device storage without a GPU: kernel source generation, launch parameters,
//! elementwise plans, the library probe, `Device::new` failing cleanly, the generated
//! kernels run on the CPU with the launches' own arguments (compiled by the host's C++
//! compiler), and (when `libnvrtc.so.13` can be found, e.g. from the `nvidia-cuda-nvrtc`
//! wheel) NVRTC compiling every generated kernel to PTX.
#![cfg(feature = "cuda")]

use mdtensor::device::probe::{self, search_dirs_from};
use mdtensor::device::{
    compile_cubin, compile_ptx, kernel_source, launch_grid, select, Cuda, CudaRef, Device, DeviceExpr, DeviceMath,
    ElementwisePlan, IndexWidth, LayoutClass, BLOCK, KERNEL_NAME,
};
use mdtensor::error::DeviceError;
use mdtensor::{ext, ColMajor, DynRank, RowMajor, Strided, Tensor};
use std::path::{Path, PathBuf};

#[path = "support/device_batched_cpu.rs"]
mod device_batched_cpu;
#[path = "support/device_emulated_cpu.rs"]
mod device_emulated_cpu;
#[path = "support/device_emulator.rs"]
mod device_emulator;
#[path = "support/device_probe_cpu.rs"]
mod device_probe_cpu;
#[path = "support/device_reduce_cpu.rs"]
mod device_reduce_cpu;
#[path = "support/device_reduce_split_cpu.rs"]
mod device_reduce_split_cpu;

type M32 = Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>>;
type R32 = Tensor<f32, ext![3], RowMajor, Cuda<f32>>;
type M64 = Tensor<f64, ext![_, _], RowMajor, Cuda<f64>>;
type C64 = Tensor<f64, ext![_, _], ColMajor, Cuda<f64>>;
type T32 = Tensor<f32, ext![2, 3], Strided, CudaRef<'static, f32>>;
type D32 = Tensor<f32, DynRank, RowMajor, Cuda<f32>>;
type S32 = Tensor<f32, (), RowMajor, Cuda<f32>>;

/// The kernel source of the tree `f` builds from two leaves; `f` is never called (no
/// device is needed), only its result type is used.
fn src2<A: 'static, B: 'static, X: DeviceExpr>(
    _f: fn(&'static A, &'static B) -> X,
    class: LayoutClass,
    rank: usize,
) -> String {
    kernel_source::<X>(class, rank)
}
fn src1<A: 'static, X: DeviceExpr>(_f: fn(&'static A) -> X, class: LayoutClass, rank: usize) -> String {
    kernel_source::<X>(class, rank)
}
fn type_of<A: 'static, X: DeviceExpr>(_f: fn(&'static A) -> X) -> &'static str {
    core::any::type_name::<X>()
}

/// Every generated kernel of this file, with a name for messages.
fn all_sources() -> Vec<(&'static str, String)> {
    use LayoutClass::Flat;
    const ST: LayoutClass = LayoutClass::Strided(IndexWidth::I64);
    const S32: LayoutClass = LayoutClass::Strided(IndexWidth::I32);
    vec![
        ("add_mul_scalar f32 flat", src2(|a: &M32, b: &M32| a + b * 2.0f32, Flat, 2)),
        ("add_mul_scalar f32 strided", src2(|a: &M32, b: &M32| a + b * 2.0f32, ST, 2)),
        ("broadcast row f32", src2(|a: &M32, r: &R32| a - r, S32, 2)),
        ("transposed view leaf f32", src2(|a: &M32, t: &T32| a * t, ST, 2)),
        ("div rem neg f64", src2(|a: &M64, b: &C64| -(a / b) % 3.0f64, S32, 2)),
        ("scalar left f64", src1(|a: &M64| 2.0f64 * a - 1.0f64, Flat, 2)),
        ("exp f32", src1(|a: &M32| (a * 0.5f32).exp(), Flat, 2)),
        ("exp f64", src1(|a: &M64| a.exp(), Flat, 2)),
        ("math chain f32", src1(|a: &M32| a.sigmoid().relu().tanh().sqrt().abs().ln(), Flat, 2)),
        ("trig round f64", src1(|a: &M64| a.sin() + a.cos() + a.floor() + a.round(), ST, 2)),
        ("powf f32", src1(|a: &M32| a.powf(2.0) + 1.0f32, Flat, 2)),
        ("dynrank rank 3", src1(|a: &D32| a * a + 1.0f32, S32, 3)),
        ("rank 0", src1(|a: &S32| a + 1.0f32, ST, 0)),
        ("rank 1 flat dynrank", src1(|a: &D32| -a, Flat, 1)),
        ("select gt f32 flat", src2(|a: &M32, b: &M32| select(a.gt(b), a, b * 2.0f32), Flat, 2)),
        (
            "compound mul scalar f32 flat",
            mdtensor::device::compound_source::<ext![2, 3], mdtensor::ops::ScalarLeaf<f32>>('*', Flat, 0).unwrap(),
        ),
        (
            "compound rem broadcast row f64 strided",
            mdtensor::device::compound_source::<ext![_, _], &'static Tensor<f64, ext![_], RowMajor, Cuda<f64>>>(
                '%', S32, 2,
            )
            .unwrap(),
        ),
        (
            "select every comparison f64",
            src2(|a: &M64, b: &C64| select(a.ge(b), select(a.le(1.0f64), a, b), a.exp()), S32, 2),
        ),
        (
            "select lt eq ne f32 broadcast",
            src2(
                |a: &M32, r: &R32| {
                    select(r.lt(a), select(a.eq_elem(r), r, a), -a) + select(a.ne_elem(0.0f32), 1.0f32, 0.0f32)
                },
                ST,
                2,
            ),
        ),
    ]
}

#[test]
fn flat_kernel_indexes_every_leaf_by_i() {
    let s = src2(|a: &M32, b: &M32| a + b * 2.0f32, LayoutClass::Flat, 2);
    assert!(s.contains(&format!("extern \"C\" __global__ void {KERNEL_NAME}(")), "{s}");
    assert!(s.contains("float* __restrict__ out"), "{s}");
    assert!(s.contains("const float* __restrict__ a0"), "{s}");
    assert!(s.contains("const float* __restrict__ a1"), "{s}");
    assert!(s.contains("float p0"), "{s}");
    assert!(s.contains("long long n"), "{s}");
    assert!(s.contains("out[i] = (a0[i] + (a1[i] * p0));"), "{s}");
    // Grid-stride loops, four elements a step apart computed before any is stored, then
    // the rest one by one; no coordinates in the flat class.
    assert!(s.contains("for (; i0 + 3 * step < n; i0 += 4 * step) {"), "{s}");
    assert!(s.find("r3 = ").unwrap() < s.find("out[i0 + 0 * step] = r0;").unwrap(), "{s}");
    assert!(s.contains("for (; i0 < n; i0 += step) {"), "{s}");
    assert!(!s.contains("c0"), "{s}");
    assert!(!s.contains("double"), "{s}");
}

#[test]
fn strided_kernel_walks_coordinates_and_strides() {
    let s = src2(|a: &M32, b: &M32| a + b * 2.0f32, LayoutClass::Strided(IndexWidth::I64), 2);
    for want in [
        "long long os0",
        "long long os1",
        "long long s0_0",
        "long long s1_1",
        "long long d0",
        "long long d1",
        "const long long c1 = r % d1;",
        "r /= d1;",
        "const long long c0 = r;",
        "out[c0 * os0 + c1 * os1] = (a0[c0 * s0_0 + c1 * s0_1] + (a1[c0 * s1_0 + c1 * s1_1] * p0));",
    ] {
        assert!(s.contains(want), "missing `{want}` in\n{s}");
    }
    // Parameter order: out, its strides, each leaf with its strides, scalars, dims, n.
    let pos = |p: &str| s.find(p).unwrap_or_else(|| panic!("no `{p}` in\n{s}"));
    assert!(pos("out,") < pos("os0") && pos("os1") < pos(" a0,"));
    assert!(pos("s0_1") < pos(" a1,") && pos("s1_1") < pos("float p0") && pos("float p0") < pos("d0"));
    assert!(pos("long long d1") < pos("long long n"));
}

#[test]
fn element_type_picks_c_type_and_math_functions() {
    let f = src1(|a: &M32| a.exp(), LayoutClass::Flat, 2);
    let d = src1(|a: &M64| a.exp(), LayoutClass::Flat, 2);
    assert!(f.contains("expf(a0[i])") && f.contains("float* __restrict__ out"), "{f}");
    assert!(d.contains("exp(a0[i])") && !d.contains("expf") && d.contains("double* __restrict__ out"), "{d}");
    let r = src2(|a: &M64, b: &C64| -(a / b) % 3.0f64, LayoutClass::Strided(IndexWidth::I64), 2);
    assert!(r.contains("fmod((-(a0[") && r.contains(" / a1["), "{r}");
    let r32 = src1(|a: &M32| a % 2.0f32, LayoutClass::Flat, 2);
    assert!(r32.contains("fmodf(a0[i], p0)"), "{r32}");
}

#[test]
fn named_math_emits_cuda_functions_in_tree_order() {
    let s = src1(|a: &M32| a.sigmoid().relu().tanh().sqrt().abs().ln(), LayoutClass::Flat, 2);
    let body = s.lines().find(|l| l.trim_start().starts_with("out[i] =")).unwrap();
    // Outermost first: ln(abs(sqrt(tanh(relu(sigmoid(a0[i]))))).
    let order =
        ["logf(", "fabsf(", "sqrtf(", "tanhf(", "const float v = ", "expf(-a0[i])", "v < (float)0 ? (float)0 : v"];
    let mut at = 0;
    for o in order {
        let p = body[at..].find(o).unwrap_or_else(|| panic!("`{o}` not after position {at} in {body}"));
        at += p;
    }
    let t = src1(|a: &M64| a.sin() + a.cos() + a.floor() + a.round(), LayoutClass::Strided(IndexWidth::I64), 2);
    for f in ["sin(", "cos(", "floor(", "round("] {
        assert!(t.contains(f), "{f} in {t}");
    }
    assert!(!t.contains("sinf("), "{t}");
    // Parameters are numbered in emission order: the exponent before the added scalar.
    let p = src1(|a: &M32| a.powf(2.0) + 1.0f32, LayoutClass::Flat, 2);
    assert!(p.contains("out[i] = (powf(a0[i], p0) + p1);"), "{p}");
}

#[test]
fn broadcast_and_transposed_leaves_get_their_own_strides() {
    let s = src2(|a: &M32, r: &R32| a - r, LayoutClass::Strided(IndexWidth::I64), 2);
    assert!(s.contains("(a0[c0 * s0_0 + c1 * s0_1] - a1[c0 * s1_0 + c1 * s1_1])"), "{s}");
    let t = src2(|a: &M32, t: &T32| a * t, LayoutClass::Strided(IndexWidth::I64), 2);
    assert!(t.contains("(a0[c0 * s0_0 + c1 * s0_1] * a1[c0 * s1_0 + c1 * s1_1])"), "{t}");
}

#[test]
fn rank_zero_and_dynamic_rank() {
    let z = src1(|a: &S32| a + 1.0f32, LayoutClass::Strided(IndexWidth::I64), 0);
    assert!(z.contains("out[0] = (a0[0] + p0);"), "{z}");
    assert!(!z.contains("d0"), "{z}");
    let d = src1(|a: &D32| a * a + 1.0f32, LayoutClass::Strided(IndexWidth::I64), 3);
    assert!(d.contains("const long long c2 = r % d2;") && d.contains("c2 * s1_2"), "{d}");
    assert!(d.contains("long long s1_2"), "{d}");
}

#[test]
fn every_source_is_one_balanced_kernel() {
    for (name, s) in all_sources() {
        assert_eq!(s.matches("__global__").count(), 1, "{name}:\n{s}");
        assert_eq!(s.matches('{').count(), s.matches('}').count(), "{name}:\n{s}");
        assert_eq!(s.matches('(').count(), s.matches(')').count(), "{name}:\n{s}");
        assert!(s.contains(KERNEL_NAME), "{name}");
        // Scalars are parameters, never literals: the source depends only on types.
        assert!(!s.contains("2.0") && !s.contains("0.5"), "{name} bakes a value in:\n{s}");
    }
}

#[test]
fn comparisons_and_select_emit_conditions_in_tree_order() {
    let s = src2(|a: &M32, b: &M32| select(a.gt(b), a, b * 2.0f32), LayoutClass::Flat, 2);
    assert!(s.contains("out[i] = ((a0[i] > a1[i]) ? a2[i] : (a3[i] * p0));"), "{s}");
    let ops = [
        (src2(|a: &M64, b: &M64| select(a.ge(b), a, b), LayoutClass::Flat, 2), ">="),
        (src2(|a: &M64, b: &M64| select(a.lt(b), a, b), LayoutClass::Flat, 2), "<"),
        (src2(|a: &M64, b: &M64| select(a.le(b), a, b), LayoutClass::Flat, 2), "<="),
        (src2(|a: &M64, b: &M64| select(a.eq_elem(b), a, b), LayoutClass::Flat, 2), "=="),
        (src2(|a: &M64, b: &M64| select(a.ne_elem(b), a, b), LayoutClass::Flat, 2), "!="),
    ];
    for (s, op) in ops {
        assert!(s.contains(&format!("out[i] = ((a0[i] {op} a1[i]) ? a2[i] : a3[i]);")), "{op}: {s}");
    }
    // A scalar condition operand and scalar branches are parameters, in tree order.
    let s = src1(|a: &M32| select(a.lt(0.5f32), 1.0f32, a), LayoutClass::Strided(IndexWidth::I64), 2);
    assert!(s.contains("((a0[c0 * s0_0 + c1 * s0_1] < p0) ? p1 : a1[c0 * s1_0 + c1 * s1_1])"), "{s}");
    assert!(s.contains("float p0") && s.contains("float p1"), "{s}");
}

#[test]
fn cache_keys_follow_the_tree_type() {
    let a = type_of(|a: &M32| a + 1.0f32);
    let b = type_of(|a: &M32| a - 1.0f32);
    let c = type_of(|a: &M32| a + 2.0f32);
    assert_ne!(a, b);
    assert_eq!(a, c, "a scalar's value is not part of the key");
    assert!(a.contains("AddOp") && b.contains("SubOp"), "{a} / {b}");
}

#[test]
fn launch_grid_covers_every_element_with_a_capped_grid() {
    assert_eq!(BLOCK, 256);
    assert_eq!(launch_grid(0, 528), None);
    for n in [1usize, 255, 256, 257, 1000, 135_168, 135_169, 1 << 26] {
        let (blocks, threads) = launch_grid(n, 528).unwrap();
        assert_eq!(threads, BLOCK);
        assert!((1..=528).contains(&blocks), "{n}: {blocks}");
        // Grid-stride: every element is visited by exactly one (thread, stride) pair.
        let total = blocks as usize * threads as usize;
        assert!(total >= n || blocks == 528, "{n}");
        if n <= 528 * 256 {
            assert_eq!(blocks as usize, n.div_ceil(256), "{n}");
        }
    }
    // A zero cap still launches one block.
    assert_eq!(launch_grid(10, 0), Some((1, 256)));
}

#[test]
fn plans_are_flat_when_every_operand_walks_one_dense_order() {
    use LayoutClass::Flat;
    let rm = || vec![3isize, 1];
    let cm = || vec![1isize, 2];
    assert_eq!(ElementwisePlan::new(&[2, 3], &[rm(), rm(), rm()]).class, Flat);
    assert_eq!(ElementwisePlan::new(&[2, 3], &[rm()]).class, Flat, "scalars only");
    assert_eq!(ElementwisePlan::new(&[2, 3], &[cm(), cm()]).class, Flat, "column-major throughout");
    assert_eq!(ElementwisePlan::new(&[1, 3, 1], &[vec![9, 1, 1], vec![0, 1, 0]]).class, Flat, "unit axes");
    assert_eq!(ElementwisePlan::new(&[], &[vec![], vec![]]).class, Flat, "rank 0");
    let i32s = LayoutClass::Strided(IndexWidth::I32);
    assert_eq!(ElementwisePlan::new(&[2, 3], &[rm(), vec![0, 1]]).class, i32s, "broadcast leaf");
    assert_eq!(ElementwisePlan::new(&[2, 3], &[rm(), cm()]).class, i32s, "transposed leaf");
    assert_eq!(ElementwisePlan::new(&[2, 3], &[cm(), rm()]).class, i32s, "column-major output");
    assert_eq!(ElementwisePlan::new(&[2, 3], &[rm(), vec![-3, -1]]).class, i32s, "flipped leaf");
    // A sliced output whose rows are contiguous merges nothing but keeps 32 bits.
    let p = ElementwisePlan::new(&[4, 5, 6], &[vec![60, 6, 1], vec![30, 6, 1]]);
    assert_eq!(
        (p.dims.as_slice(), p.strides[0].as_slice(), p.strides[1].as_slice()),
        ([4, 30].as_slice(), [60, 1].as_slice(), [30, 1].as_slice())
    );
    // Positions past 2^31 need 64 bits, as do more than 2^31 elements.
    let p = ElementwisePlan::new(&[2, 3], &[rm(), vec![1 << 31, 1]]);
    assert_eq!(p.class, LayoutClass::Strided(IndexWidth::I64));
    let p = ElementwisePlan::new(&[1 << 16, 1 << 16], &[vec![1 << 16, 1], vec![0, 1]]);
    assert_eq!(p.class, LayoutClass::Strided(IndexWidth::I64));
}

/// Every element's positions in every operand, walked row-major over `dims`.
fn walk(dims: &[usize], strides: &[Vec<isize>]) -> Vec<Vec<isize>> {
    let n: usize = dims.iter().product();
    (0..n)
        .map(|i| {
            let mut r = i;
            let mut pos = vec![0isize; strides.len()];
            for d in (0..dims.len()).rev() {
                let c = (r % dims[d]) as isize;
                r /= dims[d];
                for (p, s) in pos.iter_mut().zip(strides) {
                    *p += c * s[d];
                }
            }
            pos
        })
        .collect()
}

#[test]
fn the_emulator_refuses_an_argument_of_the_wrong_c_type() {
    use mdtensor::device::KArg;
    // Row-major output, a broadcast row: strided, 32-bit positions and dims.
    let plan = ElementwisePlan::new(&[4, 3], &[vec![3, 1], vec![0, 1]]);
    assert_eq!(plan.class, LayoutClass::Strided(IndexWidth::I32));
    let src = src1(|a: &M32| a * 2.0f32, plan.class, plan.rank());
    let good = plan.args(1, &[2.0f32]);
    assert_eq!(device_emulator::check_args(&src, KERNEL_NAME, &good), Ok(()));
    // The element count is a `long long`: a 4-byte value there reads garbage on a GPU.
    let mut short_count = good.clone();
    *short_count.last_mut().unwrap() = KArg::Int32(12);
    let why = device_emulator::check_args(&src, KERNEL_NAME, &short_count).unwrap_err();
    assert!(why.contains("4-byte integer") && why.contains("`long long`"), "{why}");
    // A 64-bit stride where the kernel declares a 32-bit one.
    let mut wide_stride = good.clone();
    wide_stride[1] = KArg::Int(3);
    let why = device_emulator::check_args(&src, KERNEL_NAME, &wide_stride).unwrap_err();
    assert!(why.contains("argument 1") && why.contains("`int`"), "{why}");
    // A scalar where a pointer is declared, and one argument too few.
    let mut scalar_for_pointer = good.clone();
    scalar_for_pointer[3] = KArg::Elem(1.0);
    assert!(device_emulator::check_args(&src, KERNEL_NAME, &scalar_for_pointer).is_err());
    assert!(device_emulator::check_args(&src, KERNEL_NAME, &good[1..]).is_err());
    // f64 elements for a `float` kernel.
    let doubles: Vec<KArg<f64>> = plan.args(1, &[2.0f64]);
    assert!(device_emulator::check_args(&src, KERNEL_NAME, &doubles).is_err());
}

#[test]
fn plans_keep_every_elements_positions_on_random_layouts() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let mut merged = 0;
    for _ in 0..400 {
        let rank = next(5);
        let dims: Vec<usize> = (0..rank).map(|_| 1 + next(4)).collect();
        let operands = 1 + next(4);
        // Each operand: a dense buffer in a random axis order, some axes flipped or
        // broadcast (stride 0; never the output's), some stepped.
        let strides: Vec<Vec<isize>> = (0..operands)
            .map(|k| {
                let mut order: Vec<usize> = (0..rank).collect();
                if next(2) == 0 {
                    for i in (1..rank).rev() {
                        order.swap(i, next(i + 1));
                    }
                }
                let step = 1 + next(2) as isize;
                let mut s = vec![0isize; rank];
                let mut acc = step;
                for &d in order.iter().rev() {
                    s[d] = if k > 0 && next(4) == 0 {
                        0
                    } else if next(5) == 0 {
                        -acc
                    } else {
                        acc
                    };
                    acc *= dims[d] as isize;
                }
                s
            })
            .collect();
        let plan = ElementwisePlan::new(&dims, &strides);
        let mut want = walk(&dims, &strides);
        let mut got = match plan.class {
            LayoutClass::Flat => (0..plan.n).map(|i| vec![i as isize; operands]).collect(),
            LayoutClass::Strided(_) => walk(&plan.dims, &plan.strides),
        };
        merged += usize::from(plan.rank() < dims.iter().filter(|&&d| d > 1).count());
        // The same element tuples, and the output written in its memory order.
        want.sort();
        got.sort();
        assert_eq!(got, want, "dims {dims:?} strides {strides:?} plan {plan:?}");
        assert_eq!(plan.n, dims.iter().product::<usize>());
    }
    assert!(merged > 50, "only {merged} plans merged axes");
}

#[test]
fn search_list_covers_loader_path_toolkit_and_wheels() {
    let tmp = std::env::temp_dir().join(format!("mdtensor-probe-{}", std::process::id()));
    let site = tmp.join("venv/lib/python3.12/site-packages");
    std::fs::create_dir_all(site.join("nvidia/cu13/lib")).unwrap();
    std::fs::create_dir_all(site.join("nvidia/cublas/lib")).unwrap();
    let venv = tmp.join("venv");
    let env = |k: &str| -> Option<std::ffi::OsString> {
        match k {
            "LD_LIBRARY_PATH" => Some("/ld/a:/ld/b".into()),
            "MDTENSOR_CUDA_LIB_DIR" => Some("/first".into()),
            "CUDA_HOME" => Some("/opt/my-cuda".into()),
            "VIRTUAL_ENV" => Some(venv.clone().into_os_string()),
            _ => None,
        }
    };
    let ldconfig =
        "\tlibcuda.so.1 (libc6,x86-64) => /drv/lib/libcuda.so.1\n\tlibz.so.1 (libc6,x86-64) => /zlib/libz.so.1\n";
    let dirs = search_dirs_from(env, Some(ldconfig));
    let at = |p: &Path| dirs.iter().position(|d| d == p).unwrap_or_else(|| panic!("{} not in {dirs:?}", p.display()));
    assert_eq!(at(Path::new("/first")), 0);
    assert!(at(Path::new("/ld/a")) < at(Path::new("/ld/b")));
    assert!(at(Path::new("/ld/b")) < at(Path::new("/drv/lib")), "loader path before the cache");
    assert!(!dirs.contains(&PathBuf::from("/zlib")), "only CUDA libraries' folders come from the cache");
    let target = if cfg!(target_arch = "aarch64") { "sbsa-linux" } else { "x86_64-linux" };
    assert!(at(&Path::new("/opt/my-cuda/targets").join(target).join("lib")) > at(Path::new("/usr/lib")));
    at(&Path::new("/usr/local/cuda/targets").join(target).join("lib"));
    at(&site.join("nvidia/cu13/lib"));
    at(&site.join("nvidia/cublas/lib"));
    // No duplicates.
    let mut sorted = dirs.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), dirs.len());
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn find_in_returns_the_first_folder_holding_the_file() {
    let tmp = std::env::temp_dir().join(format!("mdtensor-find-{}", std::process::id()));
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("libnvrtc.so.13"), b"").unwrap();
    let dirs = vec![a.clone(), b.clone()];
    assert_eq!(probe::find_in("libnvrtc.so.13", &dirs), Some(b.join("libnvrtc.so.13")));
    assert_eq!(probe::find_in("libcublas.so.13", &dirs), None);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn device_new_returns_err_without_a_driver_and_never_panics() {
    let r = std::panic::catch_unwind(|| Device::new(0));
    let r = r.expect("Device::new must not panic");
    match r {
        Ok(dev) => println!("a GPU is present ({}): the no-driver path is not exercised here", dev.name()),
        Err(e) => {
            let msg = e.to_string();
            match &e {
                DeviceError::NoDriver { searched } => {
                    assert!(msg.contains("libcuda.so.1"), "{msg}");
                    assert!(!searched.is_empty());
                    assert!(msg.contains(&searched[0].display().to_string()), "the message lists the folders: {msg}");
                    assert!(msg.contains("install the NVIDIA driver"), "{msg}");
                }
                DeviceError::NoDevice { .. } => assert!(msg.contains("no CUDA device 0"), "{msg}"),
                other => panic!("unexpected error without a GPU: {other:?}"),
            }
            let any: mdtensor::Error = e.into();
            assert_eq!(any.to_string(), msg);
        }
    }
}

/// NVRTC compiles every generated kernel to PTX and to CUBIN. Skips with one line when
/// `libnvrtc.so.13` is not found, unless `MDTENSOR_REQUIRE_NVRTC=1` (CI sets it when the
/// `nvidia-cuda-nvrtc` wheel was installed).
#[test]
fn nvrtc_compiles_every_generated_kernel() {
    enum Target {
        Ptx(Option<&'static str>),
        Cubin(&'static str),
    }
    let required = std::env::var("MDTENSOR_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
    let probe = compile_ptx(&format!("extern \"C\" __global__ void {KERNEL_NAME}() {{}}"), None);
    match probe {
        Err(DeviceError::LibraryMissing { library, .. }) if !required => {
            println!("skipped: {library} not found (pip install nvidia-cuda-nvrtc==13.0.* and add nvidia/cu13/lib to LD_LIBRARY_PATH)");
            return;
        }
        Err(e) => panic!("NVRTC could not compile an empty kernel: {e}"),
        Ok(ptx) => assert!(ptx.contains(&format!(".entry {KERNEL_NAME}")), "{ptx}"),
    }
    // Every source as PTX (the driver's JIT) and as machine code for the GPU's real
    // architecture (an ELF CUBIN, which needs no PTX JIT, so an NVRTC newer than the driver
    // still works) for the H100/H200 and a Blackwell GPU. NVRTC compiles separate programs
    // on separate threads: the jobs are shared out over the cores.
    let generated: Vec<(String, String, &str)> = all_sources()
        .into_iter()
        .map(|(n, s)| (n.to_string(), s, KERNEL_NAME))
        .chain(device_reduce_cpu::reduction_sources().into_iter().map(|(n, s)| (n, s, mdtensor::device::REDUCE_KERNEL)))
        .collect();
    let targets = [Target::Ptx(None), Target::Ptx(Some("compute_90")), Target::Cubin("sm_90"), Target::Cubin("sm_100")];
    let jobs: Vec<_> = generated.iter().flat_map(|job| targets.iter().map(move |t| (job, t))).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(((name, src, entry), target)) =
                    jobs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    match target {
                        Target::Ptx(arch) => {
                            let ptx = compile_ptx(src, *arch).unwrap_or_else(|e| panic!("{name} ({arch:?}): {e}"));
                            assert!(ptx.contains(&format!(".entry {entry}")), "{name}");
                            if src.contains("double") {
                                assert!(ptx.contains(".f64"), "{name}: no f64 instruction in the PTX");
                            }
                        }
                        Target::Cubin(arch) => {
                            let bin = compile_cubin(src, arch).unwrap_or_else(|e| panic!("{name} ({arch}): {e}"));
                            assert!(bin.starts_with(b"\x7fELF"), "{name} ({arch}): not a CUBIN");
                        }
                    }
                }
            });
        }
    });
    match compile_cubin("extern \"C\" __global__ void k() { undeclared_name; }", "sm_90") {
        Err(DeviceError::Compile { log, .. }) => assert!(log.contains("undeclared_name"), "{log}"),
        other => panic!("expected a compile error, got {other:?}"),
    }
    // A broken source is reported with its log and the source itself.
    match compile_ptx("extern \"C\" __global__ void k() { undeclared_name; }", None) {
        Err(DeviceError::Compile { source, log }) => {
            assert!(log.contains("undeclared_name"), "{log}");
            assert!(source.contains("undeclared_name"));
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
}

/// A forward pass written with both preludes and nothing else imported: it must compile
/// with no ambiguity (`select`, the math methods, `sum`) and no missing trait.
mod both_preludes {
    use mdtensor::device::prelude::*;
    use mdtensor::prelude::*;
    use mdtensor::{RowMajor, Tensor};

    type Gpu<E> = Tensor<f32, E, RowMajor, Cuda<f32>>;

    pub(super) fn forward(
        dev: &Device,
        x: &Gpu<ext![2, 3]>,
        w: &Gpu<ext![3, 4]>,
        b: &Gpu<ext![4]>,
    ) -> Result<(f32, Vec<f32>), mdtensor::Error> {
        let mut h = (x.try_matmul(w)? + b).relu().eval_on(dev)?;
        h *= 0.5f32;
        h += b.exp();
        let h = select(h.gt(1.0f32), &h, 1.0f32).eval_on(dev)?;
        // Softmax and reductions of expressions, not only of tensors.
        let p = (&h * 2.0f32 - 1.0f32).try_softmax::<1>()?;
        let rows = (&p + 0.0f32).try_sum_axis::<1>()?;
        let log_total = p.ln().exp().try_sum()?;
        assert!((log_total - p.try_sum()?).abs() < 1e-5);
        Ok((p.try_sum()?, rows.to_host()?.to_vec()))
    }
}

#[test]
fn both_preludes_bring_a_forward_pass_without_ambiguity() {
    // Compiling `both_preludes` is the check; with a GPU the pass runs too.
    let Ok(dev) = Device::new(0) else { return };
    let x = Tensor::<f32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i + j) as f32).to_device(&dev).unwrap();
    let w = Tensor::<f32, ext![3, 4]>::ones(ext![3, 4]).to_device(&dev).unwrap();
    let b = Tensor::<f32, ext![4]>::zeros(ext![4]).to_device(&dev).unwrap();
    let (total, rows) = both_preludes::forward(&dev, &x, &w, &b).unwrap();
    assert!((total - 2.0).abs() < 1e-5, "{total}");
    assert!(rows.iter().all(|r| (r - 1.0).abs() < 1e-5), "{rows:?}");
}
