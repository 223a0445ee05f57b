//! Launching a compiled kernel with a list of arguments: what every generated kernel's
//! launch shares.
//!
//! The argument lists are built by pure functions of a launch's plan (buffers named by
//! slot, not by address), so the same list can be checked, and run, without a GPU; a
//! launch resolves the slots to the device addresses of its buffers.

use super::handle::{guard, Device};
use super::storage::DeviceElem;
use crate::error::DeviceError;
use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};

/// One kernel argument, in the C type the generated source declares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KArg<T> {
    /// The address of buffer slot `k` (`T*`, `long long*`), at its first element.
    Buf(usize),
    /// A `long long`.
    Int(i64),
    /// An `int` (or an `unsigned int` below `2^31`).
    Int32(i32),
    /// A scalar of the element type.
    Elem(T),
}

/// Queues `f` on `dev`'s stream with `grid` blocks of `block` threads (static shared
/// memory only), buffer slot `k` at device address `addrs[k]`.
///
/// # Safety
/// `args` follow the kernel's parameter list in order and C type, and every position the
/// kernel reads or writes through them is inside its buffer; the buffers stay alive (and
/// their stream events held) until this returns.
pub(crate) unsafe fn launch<T: DeviceElem>(
    dev: &Device,
    f: &CudaFunction,
    (grid, block): (u32, u32),
    args: &[KArg<T>],
    addrs: &[u64],
    kernel: &str,
) -> Result<(), DeviceError> {
    // The device address of each buffer argument (0 for the others), resolved first: the
    // builder borrows every argument until the launch.
    let mut resolved = Vec::new();
    for a in args {
        resolved.push(match *a {
            KArg::Buf(k) => *addrs.get(k).ok_or_else(|| DeviceError::Launch {
                kernel: kernel.to_owned(),
                reason: format!("argument names buffer slot {k} of {}", addrs.len()),
            })?,
            _ => 0,
        });
    }
    let mut b = dev.stream().launch_builder(f);
    for (a, addr) in args.iter().zip(&resolved) {
        match a {
            KArg::Buf(_) => b.arg(addr),
            KArg::Int(i) => b.arg(i),
            KArg::Int32(i) => b.arg(i),
            KArg::Elem(e) => b.arg(e),
        };
    }
    let cfg = LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the caller's contract.
    let res = guard("cuLaunchKernel", || unsafe { b.launch(cfg) })?;
    res.map(|_| ()).map_err(|e| DeviceError::Launch { kernel: kernel.to_owned(), reason: e.to_string() })
}
