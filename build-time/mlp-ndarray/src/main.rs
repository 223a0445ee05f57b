//! The ndarray twin of `../mlp`: the same two-layer MLP, data, seed and steps, so the two
//! rebuild times in `../run.sh` compare like with like. Prints the same checksum (to float
//! rounding).

use ndarray::{Array1, Array2, Axis};

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
    w1: Array2<f32>,
    b1: Array1<f32>,
    w2: Array2<f32>,
    b2: Array1<f32>,
}

/// Row-wise log-softmax, numerically stable (the max is subtracted first).
fn log_softmax_rows(z: &Array2<f32>) -> Array2<f32> {
    let mut out = z.clone();
    for mut row in out.rows_mut() {
        let m = row.fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        let lse = m + row.iter().map(|v| (v - m).exp()).sum::<f32>().ln();
        row.mapv_inplace(|v| v - lse);
    }
    out
}

impl Mlp {
    fn new(rng: &mut Lcg) -> Self {
        // Drawn in row-major order, as mdtensor's `from_fn` does.
        let w1 = Array2::from_shape_fn((D, H), |_| rng.next() * 0.5);
        let w2 = Array2::from_shape_fn((H, C), |_| rng.next() * 0.5);
        Mlp { w1, b1: Array1::zeros(H), w2, b2: Array1::zeros(C) }
    }

    /// One SGD step on the batch; returns the mean cross-entropy before the step.
    fn step(&mut self, x: &Array2<f32>, y: &Array2<f32>) -> f32 {
        // Forward.
        let z1 = x.dot(&self.w1) + &self.b1;
        let h = z1.mapv(|v| v.max(0.0));
        let logits = h.dot(&self.w2) + &self.b2;
        let logp = log_softmax_rows(&logits);
        let loss = -(&logp * y).sum() / B as f32;

        // Backward: d(loss)/d(logits) = (softmax - onehot) / B.
        let dlogits = (logp.mapv(f32::exp) - y) * (1.0 / B as f32);
        let dw2 = h.t().dot(&dlogits);
        let db2 = dlogits.sum_axis(Axis(0));
        let dh = dlogits.dot(&self.w2.t());
        let mut dz1 = dh;
        ndarray::Zip::from(&mut dz1).and(&z1).for_each(|d, &z| {
            if z <= 0.0 {
                *d = 0.0;
            }
        });
        let dw1 = x.t().dot(&dz1);
        let db1 = dz1.sum_axis(Axis(0));

        // SGD.
        self.w1.scaled_add(-LR, &dw1);
        self.b1.scaled_add(-LR, &db1);
        self.w2.scaled_add(-LR, &dw2);
        self.b2.scaled_add(-LR, &db2);
        loss
    }

    /// Fraction of the batch whose largest logit is the label.
    fn accuracy(&self, x: &Array2<f32>, labels: &[usize]) -> f32 {
        let h = (x.dot(&self.w1) + &self.b1).mapv(|v| v.max(0.0));
        let logits = h.dot(&self.w2) + &self.b2;
        let hits = logits
            .rows()
            .into_iter()
            .zip(labels)
            .filter(|(row, l)| {
                // First index of the largest value, as mdtensor's argmax.
                let mut best = 0;
                for (j, v) in row.iter().enumerate() {
                    if *v > row[best] {
                        best = j;
                    }
                }
                best == **l
            })
            .count();
        hits as f32 / B as f32
    }
}

fn main() {
    let mut rng = Lcg(42);
    let x = Array2::from_shape_fn((B, D), |_| rng.next());
    // Labels from a fixed rule on the inputs, so the network has something to learn.
    let labels: Vec<usize> = (0..B).map(|i| ((x[[i, 0]] + 0.5) * C as f32) as usize % C).collect();
    let y = Array2::from_shape_fn((B, C), |(i, j)| if labels[i] == j { 1.0 } else { 0.0 });
    let mut mlp = Mlp::new(&mut rng);

    let mut losses = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        losses.push(mlp.step(&x, &y));
    }
    let acc = mlp.accuracy(&x, &labels);
    let checksum = mlp.w1.sum() + mlp.b1.sum() + mlp.w2.sum() + mlp.b2.sum();
    println!("loss {:.5} -> {:.5}, accuracy {acc:.3}, checksum {checksum:.5}", losses[0], losses[STEPS - 1]);
}
