//! Finding and checking the CUDA libraries before cudarc loads them.
//!
//! cudarc loads `libcuda`, `libnvrtc` and `libcublas` by name on first use, binds each
//! function on its first call, and panics when a library or a function is missing. This
//! module asks the dynamic loader what cudarc's load would get ([`ensure_loaded`]); when
//! that is nothing, it searches the places CUDA really sits (the loader path and cache,
//! the driver's container folder, the toolkit's `targets/<arch>-linux/lib`, pip wheels'
//! `nvidia/*/lib` in every Python environment in sight: [`search_dirs_from`]) and loads
//! the file by full path with `RTLD_GLOBAL`, so that the loader answers cudarc's load by
//! name with it (it matches the soname). Then it checks that the library cudarc will use
//! is the version wanted and exports every function cudarc binds. What is missing or
//! unusable becomes a [`DeviceError`] naming the file, or every folder looked in, before
//! cudarc can panic; nothing is printed.

use crate::error::DeviceError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A CUDA library the device needs: the file looked for, the names cudarc loads it by,
/// the companions loaded first from the same folder (NVRTC loads its builtins by name,
/// cuBLAS needs cuBLASLt) and every symbol cudarc binds on the device's paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Library {
    /// The file looked for, e.g. `libnvrtc.so.13`; also the soname the loaded library must
    /// have.
    pub file: &'static str,
    /// cudarc's names of the library (`cuda`, `nvrtc`, `cublas`), from which it derives the
    /// file names it tries, in order ([`cudarc_candidates`]).
    pub names: &'static [&'static str],
    /// File-name prefixes of libraries from the same folder that must be loaded first
    /// (any file starting with the prefix, e.g. `libnvrtc-builtins.so.13` for
    /// `libnvrtc-builtins.so.13.0`).
    pub companions: &'static [&'static str],
    /// The functions cudarc 0.19.10 binds on the paths the device uses (opening, memory,
    /// copies, events, modules, launches, teardown). cudarc binds each one on its first
    /// call and panics when it is missing, so the probe checks all of them first.
    pub symbols: &'static [&'static str],
}

/// The NVIDIA driver (installed with the driver, not the toolkit).
pub const DRIVER: Library = Library {
    file: "libcuda.so.1",
    names: &["cuda", "nvcuda"],
    companions: &[],
    symbols: &[
        "cuInit",
        "cuDeviceGet",
        "cuDeviceGetAttribute",
        "cuDeviceGetName",
        "cuDevicePrimaryCtxRetain",
        "cuDevicePrimaryCtxRelease_v2",
        "cuCtxGetCurrent",
        "cuCtxSetCurrent",
        "cuCtxSynchronize",
        "cuStreamCreate",
        "cuStreamDestroy_v2",
        "cuStreamSynchronize",
        "cuStreamWaitEvent",
        "cuEventCreate",
        "cuEventRecord",
        "cuEventSynchronize",
        "cuEventDestroy_v2",
        "cuMemAllocAsync",
        "cuMemAlloc_v2",
        "cuMemFreeAsync",
        "cuMemFree_v2",
        "cuMemsetD8Async",
        "cuMemcpyHtoDAsync_v2",
        "cuMemcpyDtoHAsync_v2",
        "cuMemHostAlloc",
        "cuMemFreeHost",
        "cuModuleLoadData",
        "cuModuleUnload",
        "cuModuleGetFunction",
        "cuLaunchKernel",
    ],
};
/// NVRTC, the run-time compiler of the generated kernels (CUDA 13).
pub const NVRTC: Library = Library {
    file: "libnvrtc.so.13",
    names: &["nvrtc"],
    companions: &["libnvrtc-builtins.so.13"],
    symbols: &[
        "nvrtcCreateProgram",
        "nvrtcCompileProgram",
        "nvrtcGetProgramLogSize",
        "nvrtcGetProgramLog",
        "nvrtcGetPTXSize",
        "nvrtcGetPTX",
        "nvrtcGetCUBINSize",
        "nvrtcGetCUBIN",
        "nvrtcDestroyProgram",
    ],
};
/// cuBLAS (CUDA 13), for matrix products.
pub const CUBLAS: Library = Library {
    file: "libcublas.so.13",
    names: &["cublas"],
    companions: &["libcublasLt.so.13"],
    symbols: &["cublasCreate_v2", "cublasSetStream_v2", "cublasGemmStridedBatchedEx", "cublasDestroy_v2"],
};

/// The file names cudarc tries for `lib`, in its order: it binds the first one the dynamic
/// loader opens, unversioned names (`libnvrtc.so`) before versioned ones
/// (`libnvrtc.so.13`).
///
/// ```
/// use mdtensor::device::probe::{cudarc_candidates, NVRTC};
/// let names = cudarc_candidates(NVRTC);
/// assert_eq!(names[0], "libnvrtc.so");
/// assert!(names.iter().any(|n| n == "libnvrtc.so.13"));
/// ```
pub fn cudarc_candidates(lib: Library) -> Vec<String> {
    lib.names.iter().flat_map(|n| cudarc::get_lib_name_candidates(n)).collect()
}

/// The folders searched for CUDA libraries, in order, for the given environment and
/// `ldconfig -p` output: `MDTENSOR_CUDA_LIB_DIR` and `LD_LIBRARY_PATH` (colon-separated),
/// the folders of CUDA libraries in the loader cache, the system library folders, the
/// container driver folders (`/usr/local/nvidia/lib64`, `/usr/local/nvidia/lib`), the
/// toolkit under `CUDA_HOME`, `CUDA_PATH`, `/usr/local/cuda*` and `/opt/cuda`, and pip
/// wheels (`nvidia/cu13/lib`, `nvidia/*/lib`) in the site-packages of every Python
/// environment in sight: `VIRTUAL_ENV`, `CONDA_PREFIX`, each `PATH` folder `…/bin` that
/// holds a `python3` (its environment is the folder above, as `sys.prefix`), `PYTHONPATH`,
/// the user's and the system's. Globs (`python3*`, `cuda-*`, `nvidia/*`) are expanded
/// against the file system, so only folders that exist stand for them; plain entries are
/// listed whether they exist or not.
///
/// ```
/// use mdtensor::device::probe::search_dirs_from;
/// let env = |k: &str| (k == "LD_LIBRARY_PATH").then(|| "/opt/a:/opt/b".into());
/// let dirs = search_dirs_from(env, Some("\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x/libcuda.so.1\n"));
/// assert_eq!(dirs[0], std::path::Path::new("/opt/a"));
/// assert_eq!(dirs[1], std::path::Path::new("/opt/b"));
/// assert_eq!(dirs[2], std::path::Path::new("/usr/lib/x"));
/// ```
pub fn search_dirs_from(env: impl Fn(&str) -> Option<OsString>, ldconfig: Option<&str>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut push = |p: PathBuf| {
        if !p.as_os_str().is_empty() && !out.contains(&p) {
            out.push(p);
        }
    };
    for var in ["MDTENSOR_CUDA_LIB_DIR", "LD_LIBRARY_PATH"] {
        if let Some(v) = env(var) {
            std::env::split_paths(&v).for_each(&mut push);
        }
    }
    // `ldconfig -p` lines read `\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/…/libcuda.so.1`.
    for line in ldconfig.unwrap_or("").lines() {
        let name = line.trim_start().split(' ').next().unwrap_or("");
        if ["libcuda.", "libnvrtc", "libcublas"].iter().any(|p| name.starts_with(p)) {
            if let Some(parent) = line.rsplit("=> ").next().map(Path::new).and_then(Path::parent) {
                push(parent.to_path_buf());
            }
        }
    }
    for d in [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/lib/x86_64-linux-gnu",
        "/lib64",
        "/lib",
        "/usr/lib/wsl/lib",
        // Where the NVIDIA container toolkit mounts the driver when the image's loader
        // configuration does not list it.
        "/usr/local/nvidia/lib64",
        "/usr/local/nvidia/lib",
    ] {
        push(d.into());
    }
    let mut toolkits: Vec<PathBuf> =
        ["CUDA_HOME", "CUDA_PATH"].iter().filter_map(|v| env(v)).map(PathBuf::from).collect();
    toolkits.push("/usr/local/cuda".into());
    toolkits.extend(glob_dirs(Path::new("/usr/local"), "cuda-"));
    toolkits.push("/opt/cuda".into());
    // The toolkit keeps its libraries under `targets/<arch>-linux/lib` (`sbsa` on ARM
    // servers); `lib64` is a link to it in most installs but not in every container.
    let target = if cfg!(target_arch = "aarch64") { "sbsa-linux" } else { "x86_64-linux" };
    for t in toolkits {
        push(t.join("targets").join(target).join("lib"));
        push(t.join("lib64"));
    }
    let mut site: Vec<PathBuf> = Vec::new();
    for prefix in python_prefixes(&env) {
        for lib in ["lib", "lib64"] {
            for py in glob_dirs(&prefix.join(lib), "python3") {
                site.push(py.join("site-packages"));
            }
        }
    }
    if let Some(v) = env("PYTHONPATH") {
        site.extend(std::env::split_paths(&v));
    }
    if let Some(home) = env("HOME").map(PathBuf::from) {
        for py in glob_dirs(&home.join(".local/lib"), "python3") {
            site.push(py.join("site-packages"));
        }
    }
    for root in ["/usr/local/lib", "/usr/lib"] {
        for py in glob_dirs(Path::new(root), "python3") {
            site.push(py.join("dist-packages"));
            site.push(py.join("site-packages"));
        }
    }
    for s in site {
        let nv = s.join("nvidia");
        // CUDA 13 wheels share one folder (`nvidia/cu13/lib`); older ones have one per
        // library (`nvidia/cublas/lib`).
        for pkg in glob_dirs(&nv, "") {
            push(pkg.join("lib"));
        }
    }
    out
}

/// The prefixes (`sys.prefix`) of the Python environments named by `VIRTUAL_ENV` and
/// `CONDA_PREFIX`, then of each `PATH` entry `…/bin` holding a `python3` (or `python`): a
/// virtual environment or conda environment that is active, or just first on `PATH`, keeps
/// its packages under `<prefix>/lib/python3.X/site-packages`.
fn python_prefixes(env: &impl Fn(&str) -> Option<OsString>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        ["VIRTUAL_ENV", "CONDA_PREFIX"].iter().filter_map(|v| env(v)).map(PathBuf::from).collect();
    if let Some(path) = env("PATH") {
        for bin in std::env::split_paths(&path) {
            let is_bin = bin.file_name().is_some_and(|n| n == "bin");
            if is_bin && ["python3", "python"].iter().any(|p| bin.join(p).is_file()) {
                if let Some(prefix) = bin.parent() {
                    if !out.iter().any(|p| p == prefix) {
                        out.push(prefix.to_path_buf());
                    }
                }
            }
        }
    }
    out
}

/// Subfolders of `dir` whose names start with `prefix`, sorted; none when `dir` cannot be
/// read.
fn glob_dirs(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix) && e.path().is_dir())
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The folders searched on this machine: [`search_dirs_from`] with the process's
/// environment and the loader cache (`ldconfig -p`, when `ldconfig` can be run).
pub fn search_dirs() -> Vec<PathBuf> {
    let cache = ["/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"].iter().find_map(|cmd| {
        std::process::Command::new(cmd)
            .arg("-p")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    });
    search_dirs_from(|k| std::env::var_os(k), cache.as_deref())
}

/// The first folder of `dirs` that holds `file`.
pub fn find_in(file: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join(file)).find(|p| p.is_file())
}

/// The libraries checked so far, with the file each resolved to, so that a second device
/// or a second compile does not search again.
static LOADED: Mutex<Vec<(&'static str, PathBuf)>> = Mutex::new(Vec::new());

/// The file `lib` was loaded from, once [`ensure_loaded`] has succeeded for it.
pub fn loaded_path(lib: Library) -> Option<PathBuf> {
    let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.iter().find(|(f, _)| *f == lib.file).map(|(_, p)| p.clone())
}

/// Makes `lib` ready for cudarc and returns the file it will use. cudarc binds the first
/// of its [`cudarc_candidates`] that the dynamic loader opens, and panics on a symbol that
/// file lacks; this function finds that file first and checks it:
///
/// 1. When the loader opens none of cudarc's names, `lib.file` is looked for in
///    [`search_dirs`] and loaded from there with `RTLD_GLOBAL` (its companions first), so
///    that cudarc's load by name is answered with it (the loader matches the soname).
/// 2. The file cudarc's names now reach must be `lib.file` (its soname), not another
///    CUDA version or a stub earlier on the loader path: otherwise
///    [`DeviceError::LibraryUnusable`] names both.
/// 3. Every one of `lib.symbols` must resolve in it: otherwise `LibraryUnusable` names
///    the first missing symbol (a file that is not the library, or one too old).
///
/// Nothing is printed: a library that is missing or broken is an `Err` before cudarc
/// sees it.
pub fn ensure_loaded(lib: Library) -> Result<PathBuf, DeviceError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = loaded.iter().find(|(f, _)| *f == lib.file) {
        return Ok(p.clone());
    }
    let names = cudarc_candidates(lib);
    let mut searched: Option<Vec<PathBuf>> = None;
    let bound = match dl::first_opened(&names) {
        Some(b) => b,
        None => {
            let dirs = search_dirs();
            let Some(path) = find_in(lib.file, &dirs) else {
                return Err(if lib == DRIVER {
                    DeviceError::NoDriver { searched: dirs }
                } else {
                    DeviceError::LibraryMissing { library: lib.file, searched: dirs }
                });
            };
            let folder = path.parent().unwrap_or(Path::new("/"));
            for prefix in lib.companions {
                for c in files_with_prefix(folder, prefix) {
                    // A companion that fails to load is reported by the library itself
                    // (NVRTC names its missing builtins in the compile log).
                    let _ = dl::open_global(&c);
                }
            }
            dl::open_global(&path)
                .map_err(|reason| unusable(lib, &path, format!("it could not be loaded: {reason}")))?;
            searched = Some(dirs);
            dl::first_opened(&names).ok_or_else(|| {
                unusable(
                    lib,
                    &path,
                    format!("it loaded, but none of the names cudarc loads it by reach it ({names:?})"),
                )
            })?
        }
    };
    let path = bound.path.clone().unwrap_or_else(|| PathBuf::from(&bound.name));
    if !dl::is_soname(&bound, lib.file) {
        let elsewhere = find_in(lib.file, searched.get_or_insert_with(search_dirs))
            .map(|p| format!(" ({} is in {})", lib.file, p.parent().unwrap_or(Path::new("/")).display()))
            .unwrap_or_default();
        return Err(unusable(
            lib,
            &path,
            format!(
                "cudarc would load it as `{}`, but it is not {}: another CUDA version or a stub comes first on the \
                 loader path{elsewhere}; remove its folder from LD_LIBRARY_PATH or the loader configuration",
                bound.name, lib.file
            ),
        ));
    }
    let missing: Vec<&str> = lib.symbols.iter().copied().filter(|s| !dl::has_symbol(&bound, s)).collect();
    if let Some(first) = missing.first() {
        let more = if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() };
        return Err(unusable(
            lib,
            &path,
            format!("it does not export {first}{more}: it is not the CUDA 13 library, or an older one"),
        ));
    }
    loaded.push((lib.file, path.clone()));
    Ok(path)
}

fn unusable(lib: Library, path: &Path, reason: String) -> DeviceError {
    DeviceError::LibraryUnusable { library: lib.file, path: path.to_path_buf(), reason }
}

fn files_with_prefix(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The dynamic loader, asked the questions cudarc's loading would.
#[cfg(target_os = "linux")]
mod dl {
    use std::ffi::{c_void, CStr, CString};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    /// A library the loader opened for one of cudarc's names. The handle is never closed:
    /// cudarc opens the same library and keeps pointers into it for the rest of the
    /// program.
    pub(super) struct Opened {
        /// The name it was opened by.
        pub(super) name: String,
        /// The file, where the loader says.
        pub(super) path: Option<PathBuf>,
        handle: *mut c_void,
    }

    fn last_error() -> String {
        // SAFETY: dlerror returns NULL or a NUL-terminated string owned by the loader,
        // valid until the next dl* call on this thread.
        let msg = unsafe { libc::dlerror() };
        if msg.is_null() {
            "dlopen failed".into()
        } else {
            // SAFETY: as above.
            unsafe { CStr::from_ptr(msg) }.to_string_lossy().into_owned()
        }
    }

    fn open(name: &CStr, flags: libc::c_int) -> *mut c_void {
        // SAFETY: `name` is NUL-terminated; loading a library runs its initialisers, which
        // for the CUDA libraries only set up their own state (cudarc loads the same file).
        unsafe { libc::dlopen(name.as_ptr(), flags) }
    }

    /// The first of `names` the loader opens with the flags libloading (cudarc's loader)
    /// uses: what cudarc will bind.
    pub(super) fn first_opened(names: &[String]) -> Option<Opened> {
        names.iter().find_map(|n| {
            let c = CString::new(n.as_str()).ok()?;
            let handle = open(&c, libc::RTLD_LAZY | libc::RTLD_LOCAL);
            if handle.is_null() {
                let _ = last_error();
                return None;
            }
            Some(Opened { name: n.clone(), path: path_of(handle), handle })
        })
    }

    #[cfg(target_env = "gnu")]
    fn path_of(handle: *mut c_void) -> Option<PathBuf> {
        /// The leading fields of glibc's `struct link_map` (`<link.h>`), which are ABI.
        #[repr(C)]
        struct LinkMap {
            l_addr: usize,
            l_name: *const libc::c_char,
        }
        let mut map: *const LinkMap = std::ptr::null();
        // SAFETY: `handle` is a live handle from dlopen; RTLD_DI_LINKMAP writes a pointer
        // to the library's `link_map`, which lives as long as the library stays loaded.
        let rc = unsafe { libc::dlinfo(handle, libc::RTLD_DI_LINKMAP, (&mut map as *mut *const LinkMap).cast()) };
        if rc != 0 || map.is_null() {
            return None;
        }
        // SAFETY: `map` points at the loader's record of this library (see above).
        let name = unsafe { (*map).l_name };
        if name.is_null() {
            return None;
        }
        // SAFETY: `l_name` is a NUL-terminated path owned by the loader.
        let p = unsafe { CStr::from_ptr(name) }.to_bytes();
        (!p.is_empty()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(p)))
    }

    #[cfg(not(target_env = "gnu"))]
    fn path_of(_handle: *mut c_void) -> Option<PathBuf> {
        None
    }

    /// Whether `lib` is the loaded library named `soname`: asking the loader for that name
    /// without loading anything returns the library that has it.
    pub(super) fn is_soname(lib: &Opened, soname: &str) -> bool {
        let Ok(c) = CString::new(soname) else { return false };
        let h = open(&c, libc::RTLD_LAZY | libc::RTLD_NOLOAD);
        if h.is_null() {
            let _ = last_error();
        }
        h == lib.handle
    }

    pub(super) fn has_symbol(lib: &Opened, symbol: &str) -> bool {
        let Ok(c) = CString::new(symbol) else { return false };
        // SAFETY: a live handle and a NUL-terminated name; the address is only compared
        // with null.
        let p = unsafe { libc::dlsym(lib.handle, c.as_ptr()) };
        if p.is_null() {
            let _ = last_error();
        }
        !p.is_null()
    }

    /// Loads a library by path for the whole process (never unloaded).
    pub(super) fn open_global(path: &Path) -> Result<(), String> {
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
        if open(&c, libc::RTLD_NOW | libc::RTLD_GLOBAL).is_null() {
            Err(last_error())
        } else {
            Ok(())
        }
    }
}

/// Without `dlopen` the probe can only look for files: a library counts as usable when
/// it is found, and cudarc's own loader decides the rest.
#[cfg(not(target_os = "linux"))]
mod dl {
    use std::path::{Path, PathBuf};

    pub(super) struct Opened {
        pub(super) name: String,
        pub(super) path: Option<PathBuf>,
    }

    pub(super) fn first_opened(names: &[String]) -> Option<Opened> {
        names.first().map(|n| Opened { name: n.clone(), path: None })
    }

    pub(super) fn is_soname(_lib: &Opened, _soname: &str) -> bool {
        true
    }

    pub(super) fn has_symbol(_lib: &Opened, _symbol: &str) -> bool {
        true
    }

    pub(super) fn open_global(path: &Path) -> Result<(), String> {
        if path.is_file() {
            Ok(())
        } else {
            Err("not a file".into())
        }
    }
}
