//! A two-layer MLP with static shapes, trained by hand-written backward and SGD: the user's
//! program whose rebuild time `../run.sh` measures. `../mlp-ndarray` is the same
//! program with ndarray; both print the same checksum (to float rounding).

use mdtensor::ops::select;
use mdtensor::prelude::*;
use mdtensor::{ext, Tensor};

const B: usize = 64; // batch
const D: usize = 32; // inputs
const H: usize = 64; // hidden units
const C: usize = 10; // classes
const STEPS: usize = 20;
const LR: f32 = 0.5;

/// A fixed-seed linear congruential generator, identical in both twins so they see the same data.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) - 0.5
    }
}

struct Mlp {
    w1: Tensor<f32, ext![D, H]>,
    b1: Tensor<f32, ext![H]>,
    w2: Tensor<f32, ext![H, C]>,
    b2: Tensor<f32, ext![C]>,
}

impl Mlp {
    fn new(rng: &mut Lcg) -> Self {
        let w1 = Tensor::from_fn(ext![D, H], |_| rng.next() * 0.5);
        let w2 = Tensor::from_fn(ext![H, C], |_| rng.next() * 0.5);
        Mlp { w1, b1: Tensor::zeros(ext![H]), w2, b2: Tensor::zeros(ext![C]) }
    }

    /// One SGD step on the batch; returns the mean cross-entropy before the step.
    fn step(&mut self, x: &Tensor<f32, ext![B, D]>, y: &Tensor<f32, ext![B, C]>) -> f32 {
        // Forward.
        let z1 = (x.matmul(&self.w1) + &self.b1).eval();
        let h = z1.relu().eval();
        let logits = (h.matmul(&self.w2) + &self.b2).eval();
        let loss = -(&logits.log_softmax::<1>() * y).sum() / B as f32;

        // Backward: d(loss)/d(logits) = (softmax - onehot) / B.
        let dlogits = ((&logits.softmax::<1>() - y) * (1.0 / B as f32)).eval();
        let dw2 = h.t().matmul(&dlogits);
        let db2 = dlogits.sum_axis::<0>();
        let dh = dlogits.matmul(&self.w2.t());
        let dz1 = select(z1.gt(0.0), &dh, 0.0).eval();
        let dw1 = x.t().matmul(&dz1);
        let db1 = dz1.sum_axis::<0>();

        // SGD.
        self.w1 -= &dw1 * LR;
        self.b1 -= &db1 * LR;
        self.w2 -= &dw2 * LR;
        self.b2 -= &db2 * LR;
        loss
    }

    /// Fraction of the batch whose largest logit is the label.
    fn accuracy(&self, x: &Tensor<f32, ext![B, D]>, labels: &[usize]) -> f32 {
        let h = (x.matmul(&self.w1) + &self.b1).relu().eval();
        let logits = (h.matmul(&self.w2) + &self.b2).eval();
        let pred = logits.argmax_axis::<1>();
        let hits = pred.iter().zip(labels).filter(|(p, l)| **p == **l).count();
        hits as f32 / B as f32
    }
}

fn main() {
    let mut rng = Lcg(42);
    let x = Tensor::<f32, ext![B, D]>::from_fn(ext![B, D], |_| rng.next());
    // Labels from a fixed rule on the inputs, so the network has something to learn.
    let labels: Vec<usize> = (0..B).map(|i| ((x[[i, 0]] + 0.5) * C as f32) as usize % C).collect();
    let y = Tensor::<f32, ext![B, C]>::from_fn(ext![B, C], |[i, j]| if labels[i] == j { 1.0 } else { 0.0 });
    let mut mlp = Mlp::new(&mut rng);

    let mut losses = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        losses.push(mlp.step(&x, &y));
    }
    let acc = mlp.accuracy(&x, &labels);
    let checksum = mlp.w1.sum() + mlp.b1.sum() + mlp.w2.sum() + mlp.b2.sum();
    println!("loss {:.5} -> {:.5}, accuracy {acc:.3}, checksum {checksum:.5}", losses[0], losses[STEPS - 1]);
}
