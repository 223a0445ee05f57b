//! The library's generated CUDA kernels run on the CPU: each source is compiled by the
//! host's C++ compiler (`g++`, or `$CXX`) with a small header that maps CUDA's built-ins
//! onto the CPU (`threadIdx`, `blockIdx`, `__shared__`, `__syncthreads`), loaded, and
//! launched with the argument lists the library builds ([`KArg`], buffers by slot) over
//! host buffers. A block's threads take turns between barriers and blocks run one after
//! another, so shared memory and `__syncthreads` behave as on a GPU.
//!
//! This checks what no GPU-free test otherwise reaches: that the generated C computes
//! the right values with the arguments the launches pass.

use mdtensor::device::KArg;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}
const RTLD_NOW: c_int = 2;

/// What the generated sources need from CUDA, for a CPU: a block's threads are contexts
/// (`ucontext`) on one OS thread, and `__syncthreads` returns to a scheduler that resumes
/// each thread in turn, so every thread reaches the barrier before any passes it.
const SHIM: &str = r#"
#include <math.h>
#include <stdlib.h>
#include <ucontext.h>
struct mdt_dim3 { unsigned int x, y, z; };
static mdt_dim3 threadIdx, blockIdx, blockDim, gridDim;
enum { MDT_MAX_THREADS = 256, MDT_STACK = 1 << 16 }; // the library launches blocks of at most 256
static ucontext_t mdt_main, mdt_ctx[MDT_MAX_THREADS];
static char* mdt_stacks;
static bool mdt_done[MDT_MAX_THREADS];
static unsigned mdt_cur;
static void* const* mdt_params;
static inline void __syncthreads() { swapcontext(&mdt_ctx[mdt_cur], &mdt_main); }
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__
#define __shared__ static
"#;

/// The launcher, after the kernel and its `mdt_entry` (one thread's call).
const LAUNCHER: &str = r#"
extern "C" void mdt_launch(void* const* p, unsigned grid, unsigned block) {
    mdt_params = p;
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    if (block > MDT_MAX_THREADS) abort();
    if (MDT_SYNCS && !mdt_stacks) mdt_stacks = (char*)malloc((size_t)MDT_MAX_THREADS * MDT_STACK);
    for (unsigned b = 0; b < grid; ++b) {
        blockIdx = {b, 0, 0};
        for (unsigned t = 0; t < block; ++t) {
            mdt_done[t] = false;
            if (!MDT_SYNCS) {
                mdt_cur = t;
                threadIdx = {t, 0, 0};
                mdt_entry();
                continue;
            }
            getcontext(&mdt_ctx[t]);
            mdt_ctx[t].uc_stack.ss_sp = mdt_stacks + (size_t)t * MDT_STACK;
            mdt_ctx[t].uc_stack.ss_size = MDT_STACK;
            mdt_ctx[t].uc_link = &mdt_main;
            makecontext(&mdt_ctx[t], mdt_entry, 0);
        }
        // Rounds: every unfinished thread runs to its next barrier (or its end).
        for (bool running = MDT_SYNCS; running;) {
            running = false;
            for (unsigned t = 0; t < block; ++t) {
                if (mdt_done[t]) continue;
                running = true;
                mdt_cur = t;
                threadIdx = {t, 0, 0};
                swapcontext(&mdt_main, &mdt_ctx[t]);
            }
        }
    }
}
"#;

/// A compiled kernel's launcher: `(arguments, grid, block)`.
type LaunchFn = unsafe extern "C" fn(*const *const c_void, u32, u32);

/// The C++ compiler, or `None` (with the reason) when there is none.
fn compiler() -> Result<String, String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    match std::process::Command::new(&cxx).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(cxx),
        _ => Err(format!("no C++ compiler (`{cxx}`) to run the generated kernels on the CPU")),
    }
}

/// Whether emulated kernels can run here; without a C++ compiler the emulated tests print
/// one line and return, unless `MDTENSOR_REQUIRE_EMULATOR=1` (CI) makes that a failure.
pub fn available() -> bool {
    match compiler() {
        Ok(_) => true,
        Err(why) => {
            assert!(std::env::var_os("MDTENSOR_REQUIRE_EMULATOR").is_none(), "{why}");
            eprintln!("skipped: {why}");
            false
        }
    }
}

/// The parameters of the kernel `name` in `src`: their C types, in order.
fn param_types(src: &str, name: &str) -> Vec<String> {
    let head = format!("void {name}(");
    let start = src.find(&head).unwrap_or_else(|| panic!("no kernel {name} in\n{src}")) + head.len();
    let end = start + src[start..].find(") {").expect("the parameter list ends");
    src[start..end]
        .split(',')
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .map(|p| p.rsplit_once(' ').expect("a type and a name").0.to_string())
        .collect()
}

/// Whether `args` follow the parameter list of kernel `name` in `src` in count and C
/// type: a buffer for a pointer, a [`KArg::Int`] for a `long long`, a [`KArg::Int32`] for
/// an `int` or `unsigned int`, and an element for the element type (`float` for 4 bytes,
/// `double` for 8). `Err` names the first argument that does not.
pub fn check_args<T>(src: &str, name: &str, args: &[KArg<T>]) -> Result<(), String> {
    let params = param_types(src, name);
    if params.len() != args.len() {
        return Err(format!("{} arguments for the {} parameters of {name}", args.len(), params.len()));
    }
    let elem = match std::mem::size_of::<T>() {
        4 => "float",
        8 => "double",
        n => return Err(format!("no C element type of {n} bytes")),
    };
    for (i, (a, p)) in args.iter().zip(&params).enumerate() {
        let (what, ok) = match a {
            KArg::Buf(_) => ("a buffer", p.ends_with('*') || p.contains("* ")),
            KArg::Int(_) => ("an 8-byte integer", p == "long long"),
            KArg::Int32(_) => ("a 4-byte integer", p == "int" || p == "unsigned int"),
            KArg::Elem(_) => ("an element", p == elem),
        };
        if !ok {
            return Err(format!("argument {i} of {name} is {what}, but the parameter is `{p}`"));
        }
    }
    Ok(())
}

/// The launcher of `src`, compiled once per process (test threads compile different
/// kernels side by side) and kept on disk between runs, by a hash of the full text.
fn compile(src: &str, name: &str) -> LaunchFn {
    type Cache = Mutex<HashMap<String, Arc<OnceLock<usize>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let slot = {
        let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(src.to_string()).or_default().clone()
    };
    let handle = *slot.get_or_init(|| {
        let args: Vec<String> =
            param_types(src, name).iter().enumerate().map(|(i, t)| format!("*({t}*)mdt_params[{i}]")).collect();
        let syncs = u8::from(src.contains("__syncthreads"));
        let text = format!(
            "#define MDT_SYNCS {syncs}\n{SHIM}\n{src}\n\
             static void mdt_entry() {{ {name}({}); mdt_done[mdt_cur] = true; }}\n{LAUNCHER}",
            args.join(", ")
        );
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("emulated-kernels");
        std::fs::create_dir_all(&dir).unwrap();
        let so = dir.join(format!("{:016x}.so", h.finish()));
        if !so.exists() {
            // Built under a name of this process, then renamed: other test processes may
            // build the same kernel at the same time.
            let tmp = dir.join(format!("{:016x}-{}", h.finish(), std::process::id()));
            let cpp = tmp.with_extension("cpp");
            std::fs::write(&cpp, &text).unwrap();
            let out = std::process::Command::new(compiler().expect("a C++ compiler"))
                .args(["-std=c++17", "-O1", "-shared", "-fPIC", "-o"])
                .arg(tmp.with_extension("so"))
                .arg(&cpp)
                .output()
                .expect("the C++ compiler runs");
            assert!(out.status.success(), "{}\n--- source ---\n{text}", String::from_utf8_lossy(&out.stderr));
            std::fs::rename(tmp.with_extension("so"), &so).unwrap();
            std::fs::remove_file(&cpp).ok();
        }
        let path = CString::new(so.to_str().unwrap()).unwrap();
        // SAFETY: a library built from the generated source and the shim; it runs no code
        // when loaded.
        let h = unsafe { dlopen(path.as_ptr(), RTLD_NOW) };
        assert!(!h.is_null(), "dlopen: {:?}", unsafe { std::ffi::CStr::from_ptr(dlerror()) });
        h as usize
    });
    let c = CString::new("mdt_launch").unwrap();
    // SAFETY: `handle` is a library loaded above and never closed.
    let p = unsafe { dlsym(handle as *mut c_void, c.as_ptr()) };
    assert!(!p.is_null(), "no symbol mdt_launch");
    // SAFETY: the wrapper above defines `mdt_launch` with this signature.
    unsafe { std::mem::transmute::<*mut c_void, LaunchFn>(p) }
}

/// A host buffer standing in for one device buffer slot, at the element its launches
/// address as the slot (`first`).
pub enum Slot<'a, T> {
    /// Elements of the kernel's type.
    Elems(&'a mut [T], usize),
    /// `long long` positions.
    Positions(&'a mut [i64], usize),
}

/// Runs kernel `name` of `src` on `grid` blocks of `block` threads with `args`, buffer slot
/// `k` being `slots[k]`.
pub fn launch<T: Copy>(src: &str, name: &str, (grid, block): (u32, u32), args: &[KArg<T>], slots: &mut [Slot<'_, T>]) {
    assert!(block <= 256, "the emulator runs blocks of at most 256 threads, not {block}");
    // A GPU launch with a wrong count or C type fails or reads garbage; here it is a
    // clear failure (the emulator passes every argument in 8 bytes, which would hide it).
    if let Err(why) = check_args(src, name, args) {
        panic!("{why}\n--- source ---\n{src}");
    }
    let k = compile(src, name);
    let addrs: Vec<u64> = slots
        .iter_mut()
        .map(|s| match s {
            Slot::Elems(b, first) => {
                assert!(*first <= b.len());
                b.as_mut_ptr().wrapping_add(*first) as u64
            }
            Slot::Positions(b, first) => {
                assert!(*first <= b.len());
                b.as_mut_ptr().wrapping_add(*first) as u64
            }
        })
        .collect();
    // Every argument as 8 bytes holding its C value (an `int` in its first four).
    let vals: Vec<[u8; 8]> = args
        .iter()
        .map(|a| {
            let mut v = [0u8; 8];
            match *a {
                KArg::Buf(s) => v = addrs[s].to_ne_bytes(),
                KArg::Int(i) => v = i.to_ne_bytes(),
                KArg::Int32(i) => v[..4].copy_from_slice(&i.to_ne_bytes()),
                KArg::Elem(e) => {
                    assert!(std::mem::size_of::<T>() <= 8);
                    // SAFETY: `T` is a float of at most 8 bytes, copied bytewise.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            &e as *const T as *const u8,
                            v.as_mut_ptr(),
                            std::mem::size_of::<T>(),
                        )
                    };
                }
            }
            v
        })
        .collect();
    let params: Vec<*const c_void> = vals.iter().map(|v| v.as_ptr() as *const c_void).collect();
    // Launches take turns: a kernel's `__shared__` arrays and the scheduler's state are
    // statics of its library.
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: the arguments follow the kernel's parameters (what the library's launch
    // passes to the GPU; the count is checked above) and point into buffers and values
    // that outlive the call.
    unsafe { k(params.as_ptr(), grid, block) };
}
