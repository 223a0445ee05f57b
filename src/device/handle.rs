//! The device handle: context, stream, cuBLAS (created on first use) and the cache of
//! compiled kernels. Every call into cudarc goes through [`guard`], after the probe has
//! found the library it needs, so a missing library or symbol is an `Err`, never a panic.

use super::probe;
use crate::error::DeviceError;
use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, DriverError};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, Weak};

/// Runs a cudarc call, turning a panic (cudarc panics when a library or a symbol cannot
/// be loaded) into [`DeviceError::Driver`] naming `what`. The probe runs first, so this
/// is the second guard, for symbols missing from an old library.
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

struct Inner {
    ordinal: usize,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `compute_XY` for NVRTC, from the device's compute capability.
    arch: String,
    /// `sm_XY`: the real architecture the kernels are compiled to.
    sm: String,
    /// Most blocks an elementwise launch uses: a few waves of resident blocks.
    max_blocks: u32,
    blas: Mutex<Option<Arc<CudaBlas>>>,
    kernels: Mutex<HashMap<KernelKey, CudaFunction>>,
}

/// The handles open in this process, by ordinal (dead ones are dropped on the next open).
static OPEN: Mutex<Vec<(usize, Weak<Inner>)>> = Mutex::new(Vec::new());

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
        f.debug_struct("Device").field("ordinal", &self.inner.ordinal).field("arch", &self.inner.arch).finish()
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
    /// Opens GPU `ordinal`. Never panics: without the NVIDIA driver this is
    /// [`DeviceError::NoDriver`] naming the folders searched; without that device,
    /// [`DeviceError::NoDevice`].
    ///
    /// ```no_run
    /// let dev = mdtensor::device::Device::new(0)?;
    /// # Ok::<(), mdtensor::error::DeviceError>(())
    /// ```
    pub fn new(ordinal: usize) -> Result<Device, DeviceError> {
        // One handle per GPU while any is alive: tensors from two `Device::new(0)` calls
        // then share a stream and a kernel cache, and compare as the same device.
        let mut open = OPEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open.retain(|(_, h)| h.strong_count() > 0);
        if let Some(inner) = open.iter().find(|(o, _)| *o == ordinal).and_then(|(_, h)| h.upgrade()) {
            return Ok(Device { inner });
        }
        let dev = Device::open(ordinal)?;
        open.push((ordinal, Arc::downgrade(&dev.inner)));
        Ok(dev)
    }

    fn open(ordinal: usize) -> Result<Device, DeviceError> {
        probe::ensure_loaded(probe::DRIVER)?;
        let no_device = |reason: String| DeviceError::NoDevice { ordinal, reason };
        let ctx = guard("cuInit", || CudaContext::new(ordinal))?.map_err(|e| no_device(e.to_string()))?;
        let (maj, min) = guard("cuDeviceGetAttribute", || ctx.compute_capability())?
            .map_err(|e| driver_error("compute capability", 0, e))?;
        let sms = guard("cuDeviceGetAttribute", || {
            ctx.attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        })?
        .map_err(|e| driver_error("multiprocessor count", 0, e))?;
        // A stream of our own rather than the default one: it puts cudarc in its
        // multi-stream mode, where it records the events that the pinned staging of large
        // copies waits on before reusing a buffer.
        let stream = guard("cuStreamCreate", || ctx.new_stream())?.map_err(|e| driver_error("stream", 0, e))?;
        Ok(Device {
            inner: Arc::new(Inner {
                ordinal,
                ctx,
                stream,
                arch: format!("compute_{maj}{min}"),
                sm: format!("sm_{maj}{min}"),
                // 2048 resident threads per multiprocessor on current GPUs = 8 blocks of
                // 256; four waves of those keep every multiprocessor busy while each
                // thread strides over the rest.
                max_blocks: (sms.max(1) as u32).saturating_mul(32),
                blas: Mutex::new(None),
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

    /// The stream every operation on this device's tensors is queued on, in order.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.inner.stream
    }

    /// Waits until everything queued on the stream has finished.
    pub fn synchronize(&self) -> Result<(), DeviceError> {
        guard("cuStreamSynchronize", || self.inner.stream.synchronize())?.map_err(|e| driver_error("synchronize", 0, e))
    }

    /// The cuBLAS handle on this device's stream, made on first use (`libcublas.so.13`
    /// is looked for then).
    pub fn cublas(&self) -> Result<Arc<CudaBlas>, DeviceError> {
        let mut slot = self.inner.blas.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = slot.as_ref() {
            return Ok(b.clone());
        }
        probe::ensure_loaded(probe::CUBLAS)?;
        let b = guard("cublasCreate", || CudaBlas::new(self.inner.stream.clone()))?
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

    pub(crate) fn ctx(&self) -> &Arc<CudaContext> {
        &self.inner.ctx
    }
}
