// A bool file cannot be memory-mapped: a byte other than 0 or 1 would be an invalid bool.
use mdtensor::{ext, io, RowMajor};

fn main() {
    // SAFETY: not reached; the call does not compile.
    let _ = unsafe { io::map_npy::<bool, ext![_], RowMajor>("mask.npy") };
}
