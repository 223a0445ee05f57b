//! Finding the CUDA libraries before cudarc looks for them.
//!
//! cudarc loads `libcuda`, `libnvrtc` and `libcublas` by name on first use and panics when
//! one is missing. This module searches the places CUDA really sits (the loader path, the
//! loader cache, the toolkit's `targets/<arch>-linux/lib`, pip wheels' `nvidia/*/lib`) and
//! loads what it finds by full path with `RTLD_GLOBAL`: the dynamic loader then answers
//! cudarc's later load by name with the library already in memory (it matches the
//! soname), so a library outside the loader path works too. What is not found becomes a
//! [`DeviceError`] that names the file and every folder looked in.

use crate::error::DeviceError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A CUDA library the device needs: its file name and the companions loaded first from
/// the same folder (NVRTC loads its builtins by name, cuBLAS needs cuBLASLt).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Library {
    /// The file looked for, e.g. `libnvrtc.so.13`.
    pub file: &'static str,
    /// File-name prefixes of libraries from the same folder that must be loaded first
    /// (any file starting with the prefix, e.g. `libnvrtc-builtins.so.13` for
    /// `libnvrtc-builtins.so.13.0`).
    pub companions: &'static [&'static str],
}

/// The NVIDIA driver (installed with the driver, not the toolkit).
pub const DRIVER: Library = Library { file: "libcuda.so.1", companions: &[] };
/// NVRTC, the run-time compiler of the generated kernels (CUDA 13).
pub const NVRTC: Library = Library { file: "libnvrtc.so.13", companions: &["libnvrtc-builtins.so.13"] };
/// cuBLAS (CUDA 13), for matrix products.
pub const CUBLAS: Library = Library { file: "libcublas.so.13", companions: &["libcublasLt.so.13"] };

/// The folders searched for CUDA libraries, in order, for the given environment and
/// `ldconfig -p` output: `MDTENSOR_CUDA_LIB_DIR` and `LD_LIBRARY_PATH` (colon-separated),
/// the folders of CUDA libraries in the loader cache, the system library folders, the
/// toolkit under `CUDA_HOME`, `CUDA_PATH`, `/usr/local/cuda*` and `/opt/cuda`, and pip
/// wheels (`nvidia/cu13/lib`, `nvidia/*/lib`) under `VIRTUAL_ENV`, `CONDA_PREFIX`,
/// `PYTHONPATH`, the user's and the system's site-packages. Globs (`python3*`,
/// `cuda-*`, `nvidia/*`) are expanded against the file system, so only folders that exist
/// stand for them; plain entries are listed whether they exist or not.
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
    for prefix in ["VIRTUAL_ENV", "CONDA_PREFIX"].iter().filter_map(|v| env(v)).map(PathBuf::from) {
        for py in glob_dirs(&prefix.join("lib"), "python3") {
            site.push(py.join("site-packages"));
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

/// Libraries already loaded by this module, so that a second device or a second compile
/// does not search again.
static LOADED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Makes `lib` loadable by name for cudarc: `Ok` when the loader already finds it, or
/// when it was found in one of [`search_dirs`] and loaded from there (with its
/// companions); otherwise the error names the file and the folders searched.
pub fn ensure_loaded(lib: Library) -> Result<(), DeviceError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if loaded.contains(&lib.file) {
        return Ok(());
    }
    let dirs = search_dirs();
    let found = if dlopen_global(Path::new(lib.file)).is_ok() {
        true
    } else if let Some(path) = find_in(lib.file, &dirs) {
        let folder = path.parent().unwrap_or(Path::new("/"));
        for prefix in lib.companions {
            for c in files_with_prefix(folder, prefix) {
                // A companion that fails to load is reported by the library itself
                // (NVRTC names its missing builtins in the compile log).
                let _ = dlopen_global(&c);
            }
        }
        dlopen_global(&path).map_err(|reason| {
            DeviceError::Driver(format!("{} was found but could not be loaded: {reason}", path.display()))
        })?;
        true
    } else {
        false
    };
    if found {
        loaded.push(lib.file);
        Ok(())
    } else if lib == DRIVER {
        Err(DeviceError::NoDriver { searched: dirs })
    } else {
        Err(DeviceError::LibraryMissing { library: lib.file, searched: dirs })
    }
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

/// Loads a shared library for the whole process (never unloaded: cudarc keeps pointers
/// into it for the rest of the program).
#[cfg(target_os = "linux")]
fn dlopen_global(path: &Path) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: `c` is a NUL-terminated path; loading a library runs its initialisers, which
    // for the CUDA libraries only set up their own state. The handle is deliberately
    // leaked so the library stays loaded.
    let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
    if h.is_null() {
        // SAFETY: dlerror returns NULL or a NUL-terminated string owned by the loader.
        let msg = unsafe { libc::dlerror() };
        Err(if msg.is_null() {
            "dlopen failed".into()
        } else {
            // SAFETY: non-null, NUL-terminated, valid until the next dl* call on this thread.
            unsafe { std::ffi::CStr::from_ptr(msg) }.to_string_lossy().into_owned()
        })
    } else {
        Ok(())
    }
}

/// Without `dlopen` a library counts as loadable when the file exists; cudarc's own
/// loader decides the rest.
#[cfg(not(target_os = "linux"))]
fn dlopen_global(path: &Path) -> Result<(), String> {
    if path.is_file() {
        Ok(())
    } else {
        Err("not a file".into())
    }
}
