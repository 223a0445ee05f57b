//! How kernels run: serial or parallel ([`Par`], the thread split), which CPU features
//! the loops are compiled for (detected at run time), cache hints, and which code paths a
//! kernel instantiates. The crate's kernels call these; they decide nothing
//! about threads or CPU features themselves.

pub(crate) mod cpu;
pub(crate) mod forms;
pub mod par;
pub(crate) mod paths;
pub(crate) mod prefetch;

pub use cpu::MAX_ISA_VAR;
pub use par::Par;
