//! ScaLAPACK's `pdgemm` (Debian's `libscalapack-openmpi-dev`, BLACS included) on the same
//! grid and sizes as the SUMMA group: block-cyclic column-major blocks of 64, through a few
//! `extern "C"` declarations. Its local products run on whatever BLAS `libblas.so.3`
//! points to (`update-alternatives --display libblas.so.3-x86_64-linux-gnu`): the report
//! names the comparison, not the BLAS.

use super::{report, time};
use mdtensor::dist::Comm;
use std::os::raw::{c_char, c_double, c_int};

#[link(name = "scalapack-openmpi")]
extern "C" {
    fn Cblacs_get(context: c_int, what: c_int, value: *mut c_int);
    fn Cblacs_gridinit(context: *mut c_int, order: *const c_char, rows: c_int, cols: c_int);
    fn Cblacs_gridinfo(context: c_int, rows: *mut c_int, cols: *mut c_int, row: *mut c_int, col: *mut c_int);
    fn Cblacs_gridexit(context: c_int);
    fn numroc_(
        n: *const c_int,
        nb: *const c_int,
        iproc: *const c_int,
        isrc: *const c_int,
        nprocs: *const c_int,
    ) -> c_int;
    fn descinit_(
        desc: *mut c_int,
        m: *const c_int,
        n: *const c_int,
        mb: *const c_int,
        nb: *const c_int,
        irsrc: *const c_int,
        icsrc: *const c_int,
        context: *const c_int,
        lld: *const c_int,
        info: *mut c_int,
    );
    fn pdgemm_(
        transa: *const c_char,
        transb: *const c_char,
        m: *const c_int,
        n: *const c_int,
        k: *const c_int,
        alpha: *const c_double,
        a: *const c_double,
        ia: *const c_int,
        ja: *const c_int,
        desca: *const c_int,
        b: *const c_double,
        ib: *const c_int,
        jb: *const c_int,
        descb: *const c_int,
        beta: *const c_double,
        c: *mut c_double,
        ic: *const c_int,
        jc: *const c_int,
        descc: *const c_int,
    );
}

/// Times `C = A·B` for `m × m` matrices on a `shape` grid of all of `w`'s ranks.
pub fn pdgemm(w: &Comm, shape: [usize; 2], m: usize, flops: f64) {
    let to_int = |x: usize| c_int::try_from(x).expect("the sizes fit a C int");
    let (rows, cols, n, nb) = (to_int(shape[0]), to_int(shape[1]), to_int(m), 64);
    let (mut ctx, mut pr, mut pc, mut myr, mut myc) = (0, 0, 0, 0, 0);
    // SAFETY: BLACS's own context calls on this process's MPI (already initialised), with
    // pointers to live locals; the grid covers every rank of `w` (MPI_COMM_WORLD).
    unsafe {
        Cblacs_get(-1, 0, &mut ctx);
        Cblacs_gridinit(&mut ctx, c"Row".as_ptr(), rows, cols);
        Cblacs_gridinfo(ctx, &mut pr, &mut pc, &mut myr, &mut myc);
    }
    let zero = 0;
    // SAFETY: numroc_ reads the five integers it is given.
    let (lr, lc) = unsafe { (numroc_(&n, &nb, &myr, &zero, &pr), numroc_(&n, &nb, &myc, &zero, &pc)) };
    let lld = lr.max(1);
    let mut desc = [0 as c_int; 9];
    let mut info = 0;
    // SAFETY: `desc` holds the nine integers of a ScaLAPACK descriptor.
    unsafe { descinit_(desc.as_mut_ptr(), &n, &n, &nb, &nb, &zero, &zero, &ctx, &lld, &mut info) };
    assert_eq!(info, 0, "descinit_ refused the descriptor");
    let len = usize::try_from(lld).unwrap_or(1) * usize::try_from(lc).unwrap_or(0);
    let a: Vec<f64> = (0..len).map(|i| ((i * 7) % 13) as f64).collect();
    let mut c = vec![0.0f64; len];
    let (one, alpha, beta) = (1 as c_int, 1.0f64, 0.0f64);
    let t = time(w, 3, || {
        // SAFETY: A, B (the same buffer, only read) and C are this rank's `lld × lc`
        // column-major blocks described by `desc`, alive for the call.
        unsafe {
            pdgemm_(
                c"N".as_ptr(),
                c"N".as_ptr(),
                &n,
                &n,
                &n,
                &alpha,
                a.as_ptr(),
                &one,
                &one,
                desc.as_ptr(),
                a.as_ptr(),
                &one,
                &one,
                desc.as_ptr(),
                &beta,
                c.as_mut_ptr(),
                &one,
                &one,
                desc.as_ptr(),
            )
        };
    });
    std::hint::black_box(&c);
    // SAFETY: the context made above, no longer used.
    unsafe { Cblacs_gridexit(ctx) };
    let per_rank = flops / w.size() as f64 / t / 1e9;
    report(
        w,
        "summa",
        &format!("ScaLAPACK pdgemm {m}² on {rows}x{cols}, nb 64"),
        t,
        0,
        &format!("{per_rank:.1} GFLOP/s per rank"),
    );
}
