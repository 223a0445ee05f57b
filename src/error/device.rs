//! Errors of the CUDA device storage (feature `cuda`).

use core::fmt;
use std::path::PathBuf;

/// What went wrong with a GPU: finding the driver and libraries, memory, compiling or
/// launching a kernel. Every variant's message says what failed and what to do.
///
/// ```
/// use mdtensor::error::DeviceError;
/// let e = DeviceError::LibraryMissing {
///     library: "libnvrtc.so.13",
///     searched: vec!["/usr/local/cuda/targets/x86_64-linux/lib".into()],
/// };
/// assert!(e.to_string().contains("libnvrtc.so.13"));
/// let any: mdtensor::Error = e.into();
/// assert!(matches!(any, mdtensor::Error::Device(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DeviceError {
    /// The NVIDIA driver library (`libcuda.so.1`) was not found in any folder searched.
    NoDriver {
        /// Every folder looked in, in order.
        searched: Vec<PathBuf>,
    },
    /// The driver loaded but has no device with this ordinal (or failed to start).
    NoDevice {
        /// The ordinal asked for.
        ordinal: usize,
        /// What the driver said.
        reason: String,
    },
    /// A CUDA library other than the driver was not found.
    LibraryMissing {
        /// The file looked for (`libnvrtc.so.13`, `libcublas.so.13`, …).
        library: &'static str,
        /// Every folder looked in, in order.
        searched: Vec<PathBuf>,
    },
    /// A CUDA library was found but cannot be used: it does not load, it is another
    /// version than the one needed, or it lacks a function the device calls.
    LibraryUnusable {
        /// The library needed (`libcuda.so.1`, `libnvrtc.so.13`, …).
        library: &'static str,
        /// The file that would have been used.
        path: PathBuf,
        /// Why it cannot be used, and what to do.
        reason: String,
    },
    /// The device could not allocate `bytes` more bytes.
    OutOfMemory {
        /// The size of the refused allocation.
        bytes: usize,
    },
    /// NVRTC rejected a generated kernel: a bug of this crate, reported with the source.
    Compile {
        /// The generated CUDA C source.
        source: String,
        /// NVRTC's log.
        log: String,
    },
    /// A kernel could not be launched or failed while running.
    Launch {
        /// The kernel's name.
        kernel: String,
        /// What the driver said.
        reason: String,
    },
    /// A shape rule was broken by a device operation (dynamic extents, a copy between
    /// tensors of different shapes).
    Shape(crate::error::ShapeError),
    /// Any other driver, NVRTC or cuBLAS failure, with the library's own message.
    Driver(String),
}

fn list(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "(no folder)".into();
    }
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceError::NoDriver { searched } => write!(
                f,
                "no NVIDIA driver: libcuda.so.1 was not found (searched {}); install the NVIDIA \
                 driver, or run on a machine with a GPU, or keep the tensors on the host",
                list(searched)
            ),
            DeviceError::NoDevice { ordinal, reason } => {
                write!(f, "no CUDA device {ordinal}: {reason}; check `nvidia-smi` and CUDA_VISIBLE_DEVICES")
            }
            DeviceError::LibraryMissing { library, searched } => write!(
                f,
                "CUDA library {library} was not found (searched {}); install the CUDA 13 toolkit, \
                 or `pip install nvidia-cuda-nvrtc==13.0.* nvidia-cublas==13.*`, or add its folder \
                 to LD_LIBRARY_PATH",
                list(searched)
            ),
            DeviceError::LibraryUnusable { library, path, reason } => {
                write!(f, "CUDA library {library}: {} cannot be used: {reason}", path.display())
            }
            DeviceError::OutOfMemory { bytes } => write!(
                f,
                "out of device memory: could not allocate {bytes} bytes; free device tensors or \
                 use smaller batches"
            ),
            DeviceError::Compile { source, log } => write!(
                f,
                "NVRTC could not compile a generated kernel (a bug in mdtensor; please report it \
                 with this message)\n--- log ---\n{log}\n--- source ---\n{source}"
            ),
            DeviceError::Launch { kernel, reason } => write!(f, "kernel {kernel} failed to launch or run: {reason}"),
            DeviceError::Shape(e) => e.fmt(f),
            DeviceError::Driver(msg) => write!(f, "CUDA error: {msg}"),
        }
    }
}

impl std::error::Error for DeviceError {}

impl From<crate::error::ShapeError> for DeviceError {
    fn from(e: crate::error::ShapeError) -> Self {
        DeviceError::Shape(e)
    }
}
