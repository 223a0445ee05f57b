use mdtensor::{ext, StackTensor};

fn main() {
    let a = StackTensor::<f32, ext![4]>::zeros(ext![4]);
    let b = StackTensor::<f32, ext![4]>::zeros(ext![4]);
    let _ = a.cross(&b);
}
