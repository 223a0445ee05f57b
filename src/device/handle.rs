//! The device handle: context, stream, cuBLAS (created on first use), the pinned staging
//! buffers of large copies and the cache of compiled kernels. Every call into cudarc goes
//! through [`guard`], after the probe has checked the library it needs, so a missing
//! library or symbol is an `Err`, never a panic; the teardown ignores what fails after a
//! fault instead of unwrapping it.

use super::probe;
use super::staging::Staging;
use crate::error::DeviceError;
use cudarc::cublas::sys::cublasHandle_t;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, DriverError};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// Runs a cudarc call, turning a panic (cudarc panics when a library or a symbol cannot
/// be loaded) into [`DeviceError::Driver`] naming `what`. The probe has checked the
/// library and the functions the device calls first, so this is the second guard (a
/// panic it catches has already been printed by the panic hook).
pub(crate) fn guard<R>(what: &str, f: impl FnOnce() -> R) -> Result<R, DeviceError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        DeviceError::Driver(format!("{what}: the CUDA library could not be used: {msg}"))
    })
}

/// Runs one step of a teardown, ignoring its failure and any panic: after a sticky fault
/// (an out-of-bounds access in a kernel) every later CUDA call fails, and a teardown that
/// panicked in a `drop` while a failing test unwinds would abort the whole process.
pub(crate) fn release<E>(step: impl FnOnce() -> Result<(), E>) {
    let _ = catch_unwind(AssertUnwindSafe(step));
}

/// A driver error as a [`DeviceError`]: out-of-memory keeps the size asked for.
pub(crate) fn driver_error(what: &str, bytes: usize, e: DriverError) -> DeviceError {
    if e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        DeviceError::OutOfMemory { bytes }
    } else {
        DeviceError::Driver(format!("{what}: {e}"))
    }
}

/// How the elements of an expression's leaves are laid out, as far as a kernel cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutClass {
    /// Every tensor leaf and the output walk their elements contiguously in one order:
    /// element `i` of each is at position `i`.
    Flat,
    /// Anything else (broadcast, transposed, sliced, mixed): positions from per-leaf
    /// strides, computed in integers of the given width.
    Strided(IndexWidth),
}

/// The integers a strided kernel computes coordinates and positions in: 32-bit when
/// every position fits (a GPU divides them several times faster), else 64-bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexWidth {
    /// `int` positions, `unsigned int` coordinates.
    I32,
    /// `long long` positions and coordinates.
    I64,
}

impl IndexWidth {
    /// The C types and casts of this width, for the source generators.
    pub(crate) fn ints(self) -> Ints {
        match self {
            IndexWidth::I64 => Ints { u: "long long", i: "long long", wide: true },
            IndexWidth::I32 => Ints { u: "unsigned int", i: "int", wide: false },
        }
    }
}

/// The integer types of a kernel: `u` for numbers and coordinates, `i` for positions.
#[derive(Clone, Copy)]
pub(crate) struct Ints {
    pub(crate) u: &'static str,
    pub(crate) i: &'static str,
    wide: bool,
}

impl Ints {
    /// A `long long` parameter (or a number) as a number of this width.
    pub(crate) fn u(&self, p: &str) -> String {
        if self.wide {
            p.to_string()
        } else {
            format!("({}){p}", self.u)
        }
    }
    /// A `long long` parameter (or a coordinate) as a position of this width.
    pub(crate) fn i(&self, p: &str) -> String {
        if self.wide {
            p.to_string()
        } else {
            format!("({}){p}", self.i)
        }
    }
}

/// The cache key of a generated kernel: the expression's type, element type, rank and
/// layout class. The type is named by `type_name` rather than `TypeId` because device
/// expressions borrow their leaves (`TypeId` needs `'static`); the name leaves out
/// lifetimes, which do not change the kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// `core::any::type_name` of the expression.
    pub tree: &'static str,
    /// The CUDA element type (`float`, `double`).
    pub elem: &'static str,
    /// Number of axes of the output.
    pub rank: usize,
    /// The layout class.
    pub class: LayoutClass,
    /// Any further specialisation of the source (a reduction's kept and reduced axes,
    /// [`ReduceIndex::kernel_key`](super::ReduceIndex::kernel_key)); 0 for elementwise kernels.
    pub variant: u64,
}

/// Compiles CUDA C source to PTX with NVRTC; needs `libnvrtc.so.13` (found by the
/// probe) but no GPU. `arch` is a virtual architecture such as `compute_90`; `None`
/// leaves NVRTC's default. Floating-point contraction is off (`--fmad=false`) so that
/// `a + b * c` rounds as the host computes it.
///
/// ```no_run
/// let ptx = mdtensor::device::compile_ptx("extern \"C\" __global__ void k() {}", None)?;
/// assert!(ptx.contains(".entry k"));
/// # Ok::<(), mdtensor::error::DeviceError>(())
/// ```
pub fn compile_ptx(source: &str, arch: Option<&str>) -> Result<String, DeviceError> {
    probe::ensure_loaded(probe::NVRTC)?;
    let mut opts = cudarc::nvrtc::CompileOptions { fmad: Some(false), ..Default::default() };
    if let Some(a) = arch {
        opts.options.push(format!("--gpu-architecture={a}"));
    }
    let res = guard("NVRTC", || cudarc::nvrtc::compile_ptx_with_opts(source, opts))?;
    match res {
        Ok(ptx) => Ok(ptx.to_src()),
        Err(cudarc::nvrtc::CompileError::CompileError { log, .. }) => {
            Err(DeviceError::Compile { source: source.to_owned(), log: log.to_string_lossy().into_owned() })
        }
        Err(e) => Err(DeviceError::Driver(format!("NVRTC: {e:?}"))),
    }
}

/// Compiles CUDA C source to a CUBIN (machine code) for a real architecture such as
/// `sm_90`, with the options of [`compile_ptx`]; needs NVRTC but no GPU. The device loads
/// its kernels as CUBIN rather than PTX: the driver only JIT-compiles PTX whose ISA
/// version it knows, so PTX from an NVRTC newer than the driver fails to load
/// (`CUDA_ERROR_UNSUPPORTED_PTX_VERSION`), while a CUBIN of the same major CUDA release
/// runs on every driver of that release (CUDA's minor version compatibility).
///
/// ```no_run
/// let bin = mdtensor::device::compile_cubin("extern \"C\" __global__ void k() {}", "sm_90")?;
/// assert!(bin.starts_with(b"\x7fELF"));
/// # Ok::<(), mdtensor::error::DeviceError>(())
/// ```
pub fn compile_cubin(source: &str, arch: &str) -> Result<Vec<u8>, DeviceError> {
    probe::ensure_loaded(probe::NVRTC)?;
    guard("NVRTC", || cubin(source, arch))?
}

fn cubin(source: &str, arch: &str) -> Result<Vec<u8>, DeviceError> {
    use cudarc::nvrtc::{result, sys};
    /// Destroys the program however compilation ends.
    struct Program(sys::nvrtcProgram);
    impl Drop for Program {
        fn drop(&mut self) {
            // SAFETY: made by `create_program` below and destroyed only here.
            let _ = unsafe { result::destroy_program(self.0) };
        }
    }
    let nvrtc = |e: result::NvrtcError| DeviceError::Driver(format!("NVRTC: {e:?}"));
    let src = std::ffi::CString::new(source)
        .map_err(|_| DeviceError::Driver("NVRTC: the kernel source contains a NUL byte".into()))?;
    // Declared after `src`, so dropped before it: the program refers to the source.
    let prog = Program(result::create_program(&src, None).map_err(nvrtc)?);
    let opts = ["--fmad=false".to_string(), format!("--gpu-architecture={arch}")];
    // SAFETY: `prog` is a live program.
    if unsafe { result::compile_program(prog.0, &opts) }.is_err() {
        // SAFETY: as above.
        let log = unsafe { result::get_program_log(prog.0) }.map_err(nvrtc)?;
        let log: Vec<u8> = log.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
        return Err(DeviceError::Compile {
            source: source.to_owned(),
            log: String::from_utf8_lossy(&log).into_owned(),
        });
    }
    let mut size = 0usize;
    // SAFETY: a compiled program; `size` is written by NVRTC.
    unsafe { sys::nvrtcGetCUBINSize(prog.0, &mut size) }.result().map_err(nvrtc)?;
    let mut bin = crate::alloc::try_vec_filled("compile_cubin", size, 0u8)?;
    // SAFETY: `bin` has the `size` bytes NVRTC asked for.
    unsafe { sys::nvrtcGetCUBIN(prog.0, bin.as_mut_ptr().cast()) }.result().map_err(nvrtc)?;
    Ok(bin)
}

/// How the device's buffers are ordered between uses, which is how cudarc is told to track
/// them.
///
/// Every buffer of a [`Device`] is allocated, used (by kernels, copies and cuBLAS, all
/// queued on [`Device::stream`]) and freed (`cuMemFreeAsync` on the same stream) on its one
/// stream, so the stream's order is all the ordering the device needs, and
/// [`Ordered`](StreamSync::Ordered) is the default. [`Tracked`](StreamSync::Tracked) keeps
/// cudarc's event tracking between streams, which in cudarc 0.19.10 costs, for every
/// buffer, two events made at allocation and destroyed at free, and for every use a
/// stream wait and an event record.
///
/// The pinned staging of large copies does not depend on the choice: cudarc records a
/// pinned buffer's event only while it tracks events (its `SyncOnDrop::Record` checks
/// `is_managing_stream_synchronization`), so the staging records events of its own.
///
/// ```no_run
/// use mdtensor::device::{Device, StreamSync};
/// let dev = Device::with_stream_sync(0, StreamSync::Tracked)?;
/// assert_eq!(dev.stream_sync(), StreamSync::Tracked);
/// # Ok::<(), mdtensor::error::DeviceError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StreamSync {
    /// One stream orders everything; cudarc tracks no events (the default).
    #[default]
    Ordered,
    /// cudarc records and waits on events around every use of a buffer, as it does for
    /// buffers shared between streams: needed only when other streams of the same
    /// [`CudaContext`] (taken from [`Device::stream`]) use the device's buffers.
    Tracked,
}

/// The cuBLAS handle of a device, on its stream. cudarc's `CudaBlas` unwraps the result
/// of `cublasDestroy` in its `drop`; after a sticky fault that fails, and a panic in a drop
/// during a test's unwinding aborts the process. This handle is destroyed through
/// [`release`] instead.
pub(crate) struct Blas {
    handle: cublasHandle_t,
    /// The stream the handle queues on, kept alive as long as the handle.
    _stream: Arc<CudaStream>,
}

// SAFETY: as for cudarc's `CudaBlas`: a cuBLAS handle may be used from any host thread,
// and the device never changes its configuration after creating it.
unsafe impl Send for Blas {}
// SAFETY: as above.
unsafe impl Sync for Blas {}

impl Blas {
    fn new(stream: Arc<CudaStream>) -> Result<Blas, cudarc::cublas::result::CublasError> {
        let ctx = stream.context();
        ctx.record_err(ctx.bind_to_thread());
        let handle = cudarc::cublas::result::create_handle()?;
        // Made first, so that a failing `set_stream` still destroys the handle.
        let blas = Blas { handle, _stream: stream };
        // SAFETY: a live handle and the device's live stream.
        unsafe { cudarc::cublas::result::set_stream(blas.handle, blas._stream.cu_stream() as _) }?;
        Ok(blas)
    }

    /// The raw handle, for cuBLAS calls.
    pub(crate) fn handle(&self) -> &cublasHandle_t {
        &self.handle
    }
}

impl Drop for Blas {
    fn drop(&mut self) {
        let h = self.handle;
        // SAFETY: made by `create_handle` and destroyed only here.
        release(|| unsafe { cudarc::cublas::result::destroy_handle(h) });
    }
}

struct Inner {
    ordinal: usize,
    sync: StreamSync,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `compute_XY` for NVRTC, from the device's compute capability.
    arch: String,
    /// `sm_XY`: the real architecture the kernels are compiled to.
    sm: String,
    /// Most blocks an elementwise launch uses: a few waves of resident blocks.
    max_blocks: u32,
    blas: Mutex<Option<Arc<Blas>>>,
    /// Pinned buffers of large copies, made on the first one.
    staging: Mutex<Option<Staging>>,
    kernels: Mutex<HashMap<KernelKey, CudaFunction>>,
}

impl Drop for Inner {
    /// The device's own teardown: what is queued finishes before the staging buffers, the
    /// kernels' modules and the cuBLAS handle go, and no step's failure (every step fails
    /// after a sticky fault) becomes a panic.
    fn drop(&mut self) {
        release(|| self.stream.synchronize());
        drop(self.blas.get_mut().unwrap_or_else(|e| e.into_inner()).take());
        drop(self.staging.get_mut().unwrap_or_else(|e| e.into_inner()).take());
        self.kernels.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// The handles open in this process, by ordinal and stream mode (dead ones are dropped on
/// the next open).
static OPEN: Mutex<Vec<(usize, StreamSync, Weak<Inner>)>> = Mutex::new(Vec::new());

/// One GPU: its context, the stream every operation of its tensors runs on, a cuBLAS
/// handle made on first use and the compiled kernels. Cloning shares all of it, and so
/// does opening the same ordinal again while a handle to it is alive.
///
/// ```no_run
/// use mdtensor::device::Device;
/// match Device::new(0) {
///     Ok(dev) => println!("running on {}", dev.name()),
///     Err(e) => eprintln!("no GPU: {e}"),
/// }
/// ```
#[derive(Clone)]
pub struct Device {
    inner: Arc<Inner>,
}

impl core::fmt::Debug for Device {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Device")
            .field("ordinal", &self.inner.ordinal)
            .field("arch", &self.inner.arch)
            .field("stream_sync", &self.inner.sync)
            .field("driver", &probe::loaded_path(probe::DRIVER))
            .field("nvrtc", &probe::loaded_path(probe::NVRTC))
            .field("cublas", &probe::loaded_path(probe::CUBLAS))
            .finish()
    }
}

impl PartialEq for Device {
    /// The same device handle (every [`Device::new`] of one ordinal while a handle to it
    /// is alive, and their clones).
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Device {
    /// Opens GPU `ordinal` with the default [`StreamSync`]. Never panics and prints
    /// nothing: without the NVIDIA driver this is [`DeviceError::NoDriver`] naming the
    /// folders searched; with a file in its place that is not a usable driver,
    /// [`DeviceError::LibraryUnusable`]; without that device, [`DeviceError::NoDevice`].
    /// `{:?}` of the device names the library files it uses.
    ///
    /// ```no_run
    /// let dev = mdtensor::device::Device::new(0)?;
    /// println!("{dev:?}");
    /// # Ok::<(), mdtensor::error::DeviceError>(())
    /// ```
    pub fn new(ordinal: usize) -> Result<Device, DeviceError> {
        Device::with_stream_sync(ordinal, StreamSync::default())
    }

    /// Opens GPU `ordinal` with the given [`StreamSync`]. Handles of one ordinal in
    /// different modes are different devices (each has its stream and kernel cache).
    ///
    /// ```no_run
    /// use mdtensor::device::{Device, StreamSync};
    /// let dev = Device::with_stream_sync(0, StreamSync::Ordered)?;
    /// assert!(dev == Device::new(0)?);
    /// # Ok::<(), mdtensor::error::DeviceError>(())
    /// ```
    pub fn with_stream_sync(ordinal: usize, sync: StreamSync) -> Result<Device, DeviceError> {
        // One handle per GPU and mode while any is alive: tensors from two `Device::new(0)`
        // calls then share a stream and a kernel cache, and compare as the same device.
        let mut open = OPEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open.retain(|(_, _, h)| h.strong_count() > 0);
        if let Some(inner) = open.iter().find(|(o, m, _)| *o == ordinal && *m == sync).and_then(|(_, _, h)| h.upgrade())
        {
            return Ok(Device { inner });
        }
        let dev = Device::open(ordinal, sync)?;
        open.push((ordinal, sync, Arc::downgrade(&dev.inner)));
        Ok(dev)
    }

    fn open(ordinal: usize, sync: StreamSync) -> Result<Device, DeviceError> {
        probe::ensure_loaded(probe::DRIVER)?;
        let no_device = |reason: String| DeviceError::NoDevice { ordinal, reason };
        let ctx = guard("cuInit", || CudaContext::new(ordinal))?.map_err(|e| no_device(e.to_string()))?;
        let (maj, min) = guard("cuDeviceGetAttribute", || ctx.compute_capability())?
            .map_err(|e| driver_error("compute capability", 0, e))?;
        let sms = guard("cuDeviceGetAttribute", || {
            ctx.attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        })?
        .map_err(|e| driver_error("multiprocessor count", 0, e))?;
        if sync == StreamSync::Ordered {
            // SAFETY: before this context has made any buffer, so no buffer is tracked;
            // every buffer the device makes is then allocated, used and freed on its one
            // stream, whose order is the only ordering they need (see `StreamSync`).
            unsafe { ctx.disable_event_tracking() };
        }
        // A non-blocking stream of our own rather than the legacy default one, which
        // would also wait for (and hold up) other libraries' work on the GPU.
        let stream = guard("cuStreamCreate", || ctx.new_stream())?.map_err(|e| driver_error("stream", 0, e))?;
        Ok(Device {
            inner: Arc::new(Inner {
                ordinal,
                sync,
                ctx,
                stream,
                arch: format!("compute_{maj}{min}"),
                sm: format!("sm_{maj}{min}"),
                // 2048 resident threads per multiprocessor on current GPUs = 8 blocks of
                // 256; four waves of those keep every multiprocessor busy while each
                // thread strides over the rest.
                max_blocks: (sms.max(1) as u32).saturating_mul(32),
                blas: Mutex::new(None),
                staging: Mutex::new(None),
                kernels: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// The ordinal this handle was opened with.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The device's name as the driver reports it (empty if it cannot say).
    pub fn name(&self) -> String {
        guard("cuDeviceGetName", || self.inner.ctx.name()).ok().and_then(Result::ok).unwrap_or_default()
    }

    /// The virtual architecture of this device (`compute_90` on an H100); kernels are
    /// compiled to machine code for the matching real one (`sm_90`).
    pub fn arch(&self) -> &str {
        &self.inner.arch
    }

    /// The stream every operation on this device's tensors is queued on, in order. Work
    /// of your own on other streams of its context that touches the device's buffers needs
    /// [`StreamSync::Tracked`].
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.inner.stream
    }

    /// How this device orders its buffers' uses.
    pub fn stream_sync(&self) -> StreamSync {
        self.inner.sync
    }

    /// The device's staging buffers (made on first use), locked for one large copy.
    pub(crate) fn staging(&self) -> Result<MutexGuard<'_, Option<Staging>>, DeviceError> {
        let mut slot = self.inner.staging.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            let bytes = super::staging::STAGING_BYTES * super::staging::STAGING_BUFFERS;
            let st = guard("cuMemHostAlloc", || Staging::new(&self.inner.ctx))?
                .map_err(|e| driver_error("pinned staging buffers", bytes, e))?;
            *slot = Some(st);
        }
        Ok(slot)
    }

    /// Waits until everything queued on the stream has finished.
    pub fn synchronize(&self) -> Result<(), DeviceError> {
        guard("cuStreamSynchronize", || self.inner.stream.synchronize())?.map_err(|e| driver_error("synchronize", 0, e))
    }

    /// The cuBLAS handle on this device's stream, made on first use (`libcublas.so.13`
    /// is looked for then).
    pub(crate) fn cublas(&self) -> Result<Arc<Blas>, DeviceError> {
        let mut slot = self.inner.blas.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = slot.as_ref() {
            return Ok(b.clone());
        }
        probe::ensure_loaded(probe::CUBLAS)?;
        let b = guard("cublasCreate", || Blas::new(self.inner.stream.clone()))?
            .map_err(|e| DeviceError::Driver(format!("cuBLAS: {e:?}")))?;
        let b = Arc::new(b);
        *slot = Some(b.clone());
        Ok(b)
    }

    /// Number of kernels compiled and cached so far.
    pub fn cached_kernels(&self) -> usize {
        self.inner.kernels.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The kernel for `key`: from the cache, or compiled from `source()` (entry point
    /// `name`) to a CUBIN for this device's architecture ([`compile_cubin`]), loaded and
    /// cached.
    pub(crate) fn kernel(
        &self,
        key: KernelKey,
        name: &str,
        source: impl FnOnce() -> String,
    ) -> Result<CudaFunction, DeviceError> {
        let mut cache = self.inner.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = cache.get(&key) {
            return Ok(f.clone());
        }
        let bin = compile_cubin(&source(), &self.inner.sm)?;
        let module = guard("cuModuleLoadData", || self.inner.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)))?
            .map_err(|e| driver_error("module load", 0, e))?;
        let f = guard("cuModuleGetFunction", || module.load_function(name))?
            .map_err(|e| DeviceError::Launch { kernel: name.to_owned(), reason: e.to_string() })?;
        cache.insert(key, f.clone());
        Ok(f)
    }

    /// Most blocks an elementwise launch uses on this device.
    pub fn max_blocks(&self) -> u32 {
        self.inner.max_blocks
    }
}

#[cfg(test)]
mod tests {
    use super::release;

    /// Teardown steps that fail, or panic, inside a `drop` that runs while another panic
    /// unwinds: the process goes on and the first panic comes back (a panic escaping that
    /// `drop` would abort the process instead).
    #[test]
    fn teardown_steps_never_panic_even_during_unwinding() {
        struct Teardown;
        impl Drop for Teardown {
            fn drop(&mut self) {
                release(|| Err::<(), _>("a sticky fault"));
                release(|| -> Result<(), ()> { panic!("an unwrapped error in a library's drop") });
            }
        }
        let r = std::panic::catch_unwind(|| {
            let _t = Teardown;
            panic!("a failing test");
        });
        let payload = r.expect_err("the test's own panic comes back");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"a failing test"));
    }
}
