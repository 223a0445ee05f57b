//! Launching a compiled kernel with a list of arguments: what the reduction, softmax and
//! other non-elementwise launches share.

use super::handle::{guard, Device};
use super::storage::DeviceElem;
use crate::error::DeviceError;
use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};

/// One kernel argument, in the C type the generated source declares.
pub(crate) enum KArg<T> {
    /// A device address (`T*`, `long long*`), already offset to its first element.
    Ptr(u64),
    /// A `long long`.
    Int(i64),
    /// A scalar of the element type.
    Elem(T),
}

/// Queues `f` on `dev`'s stream with `grid` blocks of `block` threads (static shared
/// memory only).
///
/// # Safety
/// `args` follow the kernel's parameter list in order and C type, and every position the
/// kernel reads or writes through them is inside its buffer; the buffers stay alive (and
/// their stream events held) until this returns.
pub(crate) unsafe fn launch<T: DeviceElem>(
    dev: &Device,
    f: &CudaFunction,
    grid: u32,
    block: u32,
    args: &[KArg<T>],
    kernel: &str,
) -> Result<(), DeviceError> {
    let mut b = dev.stream().launch_builder(f);
    for v in args {
        match v {
            KArg::Ptr(p) => b.arg(p),
            KArg::Int(i) => b.arg(i),
            KArg::Elem(e) => b.arg(e),
        };
    }
    let cfg = LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the caller's contract.
    let res = guard("cuLaunchKernel", || unsafe { b.launch(cfg) })?;
    res.map(|_| ()).map_err(|e| DeviceError::Launch { kernel: kernel.to_owned(), reason: e.to_string() })
}
