//! The library probe without a GPU: where it looks, and that a broken driver in a child
//! process is an `Err` with nothing on stderr.

use mdtensor::device::probe::{self, search_dirs_from};
use mdtensor::device::Device;
use mdtensor::error::DeviceError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set in the child process that [`child_opens_a_device`] runs in.
const CHILD: &str = "MDTENSOR_PROBE_CHILD";

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mdtensor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn python_environments_on_path_and_the_container_driver_folder_are_searched() {
    let tmp = temp("probe-path");
    // An environment with a python3 in its `bin` (a virtual environment or conda, not
    // activated, only on PATH), and a folder named `bin` without one.
    let env = tmp.join("env");
    std::fs::create_dir_all(env.join("bin")).unwrap();
    std::fs::write(env.join("bin/python3"), b"").unwrap();
    let wheel = env.join("lib/python3.11/site-packages/nvidia/cu13/lib");
    std::fs::create_dir_all(&wheel).unwrap();
    let lib64_wheel = env.join("lib64/python3.12/site-packages/nvidia/cublas/lib");
    std::fs::create_dir_all(&lib64_wheel).unwrap();
    let nopy = tmp.join("nopy");
    let ignored = nopy.join("lib/python3.11/site-packages/nvidia/cu13/lib");
    std::fs::create_dir_all(nopy.join("bin")).unwrap();
    std::fs::create_dir_all(&ignored).unwrap();
    let path: OsString =
        std::env::join_paths([nopy.join("bin"), env.join("bin"), PathBuf::from("/nonexistent/bin")]).unwrap();
    let dirs = search_dirs_from(|k| (k == "PATH").then(|| path.clone()), None);
    assert!(dirs.contains(&wheel), "{} not in {dirs:?}", wheel.display());
    assert!(dirs.contains(&lib64_wheel), "{} not in {dirs:?}", lib64_wheel.display());
    assert!(!dirs.contains(&ignored), "a `bin` without python3 is no environment: {dirs:?}");
    let at = |p: &str| dirs.iter().position(|d| d == Path::new(p)).unwrap_or_else(|| panic!("{p} not in {dirs:?}"));
    assert!(at("/usr/lib/x86_64-linux-gnu") < at("/usr/local/nvidia/lib64"));
    at("/usr/local/nvidia/lib");
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// The file cudarc will bind is the one the probe reports, and every symbol cudarc binds
/// is in it (with the NVRTC wheel on the loader path; skipped without it unless
/// `MDTENSOR_REQUIRE_NVRTC=1`).
#[test]
fn the_probe_reports_the_file_cudarc_binds() {
    let required = std::env::var("MDTENSOR_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
    match probe::ensure_loaded(probe::NVRTC) {
        Err(DeviceError::LibraryMissing { .. }) if !required => println!("skipped: libnvrtc.so.13 not found"),
        Err(e) => panic!("{e}"),
        Ok(path) => {
            assert!(path.is_absolute() && path.ends_with("libnvrtc.so.13"), "{}", path.display());
            assert_eq!(probe::loaded_path(probe::NVRTC), Some(path.clone()));
            assert_eq!(probe::ensure_loaded(probe::NVRTC).unwrap(), path, "a second call answers the same");
            let names = probe::cudarc_candidates(probe::NVRTC);
            assert!(names.iter().position(|n| n == "libnvrtc.so") < names.iter().position(|n| n == "libnvrtc.so.13"));
        }
    }
}

/// Run only as the child of [`broken_drivers_are_an_err_with_nothing_on_stderr`] and
/// [`nvrtc_found_outside_the_loader_path_is_the_one_cudarc_uses`]: opens a device, or
/// compiles a kernel, and prints the result on stdout.
#[test]
fn child_opens_a_device() {
    match std::env::var(CHILD).as_deref() {
        Ok("device") => match Device::new(0) {
            Ok(d) => println!("child-result: opened {d:?}"),
            Err(e) => println!("child-result: {e}"),
        },
        Ok("nvrtc") => {
            let ptx = mdtensor::device::compile_ptx("extern \"C\" __global__ void k() {}", None);
            let path = probe::loaded_path(probe::NVRTC);
            match ptx {
                Ok(p) => println!("child-result: compiled {} from {path:?}", p.contains(".entry k")),
                Err(e) => println!("child-result: {e}"),
            }
        }
        _ => {}
    }
}

/// Runs this test binary's [`child_opens_a_device`] with `case` and the environment
/// changes; returns the child's result line, after checking that it succeeded and wrote
/// nothing on stderr.
fn child(case: &str, env: &[(&str, Option<&std::ffi::OsStr>)]) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "device_probe_cpu::child_opens_a_device", "--nocapture", "--test-threads=1"]).env(CHILD, case);
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{case}: the child failed\n{stdout}\n{stderr}");
    assert!(stderr.trim().is_empty(), "{case}: the child wrote to stderr:\n{stderr}");
    // libtest prints the test's name on the same line, before the test's own output.
    let line = stdout.lines().find_map(|l| l.split_once("child-result: ")).map(|(_, r)| r.to_string());
    line.unwrap_or_else(|| panic!("{case}: no result from the child:\n{stdout}"))
}

/// NVRTC in a folder the loader does not search (named by `MDTENSOR_CUDA_LIB_DIR` only) is
/// loaded by path, and cudarc's load by name then uses that same file: a kernel compiles.
#[test]
fn nvrtc_found_outside_the_loader_path_is_the_one_cudarc_uses() {
    let Ok(path) = probe::ensure_loaded(probe::NVRTC) else {
        println!("skipped: libnvrtc.so.13 not found");
        return;
    };
    let dir = path.parent().unwrap().as_os_str();
    let line = child("nvrtc", &[("LD_LIBRARY_PATH", None), ("MDTENSOR_CUDA_LIB_DIR", Some(dir))]);
    assert_eq!(line, format!("compiled true from {:?}", Some(&path)));
}

/// Builds a shared library from C source into `dir/file` (and the other names given, as
/// copies), with `soname`; `None` without a C compiler.
fn shared_library(dir: &Path, c: &str, soname: &str, names: &[&str]) -> Option<()> {
    std::fs::create_dir_all(dir).unwrap();
    let src = dir.join("fake.c");
    std::fs::write(&src, c).unwrap();
    let out = dir.join(names[0]);
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let status = Command::new(cc)
        .args(["-shared", "-fPIC", "-o"])
        .arg(&out)
        .arg(&src)
        .arg(format!("-Wl,-soname,{soname}"))
        .status()
        .ok()?;
    assert!(status.success(), "the C compiler failed on {}", src.display());
    for n in &names[1..] {
        std::fs::copy(&out, dir.join(n)).unwrap();
    }
    Some(())
}

/// A `libcuda.so.1` that is not the driver, one that lacks a function, and one of
/// another version reached by cudarc's first name (`libcuda.so`): each makes
/// `Device::new` an `Err` that names the file and the reason, in a child process whose
/// stderr stays empty (no panic message from cudarc).
#[test]
fn broken_drivers_are_an_err_with_nothing_on_stderr() {
    let tmp = temp("probe-broken");
    let all_but_last: String = probe::DRIVER.symbols[..probe::DRIVER.symbols.len() - 1]
        .iter()
        .map(|s| format!("int {s}(void) {{ return 999; }}\n"))
        .collect();
    let all: String = probe::DRIVER.symbols.iter().map(|s| format!("int {s}(void) {{ return 999; }}\n")).collect();
    let last = probe::DRIVER.symbols.last().unwrap();
    let cases: [(&str, String, &str, &[&str], String); 3] = [
        (
            "not-a-driver",
            "int not_cuda(void) { return 0; }\n".into(),
            "libcuda.so.1",
            &["libcuda.so.1", "libcuda.so"],
            "does not export cuInit".into(),
        ),
        ("too-old", all_but_last, "libcuda.so.1", &["libcuda.so.1", "libcuda.so"], format!("does not export {last}")),
        ("other-version", all, "libcuda.so.2", &["libcuda.so"], "is not libcuda.so.1".into()),
    ];
    for (case, c, soname, names, want) in cases {
        let dir = tmp.join(case);
        if shared_library(&dir, &c, soname, names).is_none() {
            assert!(
                !std::env::var("MDTENSOR_REQUIRE_EMULATOR").is_ok_and(|v| v == "1"),
                "no C compiler to build a fake driver"
            );
            println!("skipped: no C compiler (cc or $CC) to build a fake driver");
            return;
        }
        let line = child("device", &[("LD_LIBRARY_PATH", Some(dir.as_os_str())), ("MDTENSOR_CUDA_LIB_DIR", None)]);
        assert!(line.contains("CUDA library libcuda.so.1") && line.contains(&want), "{case}: {line}");
        assert!(line.contains(&dir.display().to_string()), "{case}: the message names the file: {line}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}
