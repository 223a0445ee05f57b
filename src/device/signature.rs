//! The signature of a fused elementwise kernel: one value from which its C parameter
//! list, its launch arguments and its cache key are all derived, so the three cannot
//! disagree about the order, the number or the C type of a parameter.

use super::elementwise_plan::ElementwisePlan;
use super::handle::{IndexWidth, KernelKey, LayoutClass};
use super::launch::KArg;

/// One parameter of an elementwise kernel, in the order of its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    /// The output pointer.
    Out,
    /// The output's stride along a walk axis.
    OutStride(usize),
    /// Leaf `k`'s pointer.
    Leaf(usize),
    /// Leaf `k`'s stride along walk axis `d`.
    LeafStride(usize, usize),
    /// Scalar parameter `k`.
    Scalar(usize),
    /// The extent of walk axis `d`.
    Dim(usize),
    /// The element count.
    Count,
}

/// What fixes an elementwise kernel's parameters: its layout class, the rank of its
/// walk, and how many tensor leaves and scalar parameters its tree has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KernelSig {
    pub(crate) class: LayoutClass,
    pub(crate) rank: usize,
    pub(crate) leaves: usize,
    pub(crate) scalars: usize,
}

impl KernelSig {
    /// The parameters, in order: the output pointer (and, strided, its strides), each
    /// leaf's pointer (and, strided, its strides), the scalars, the dims (strided) and the
    /// element count.
    fn params(&self) -> Vec<Param> {
        let strided = self.class != LayoutClass::Flat;
        let axes = if strided { self.rank } else { 0 };
        let mut p = vec![Param::Out];
        p.extend((0..axes).map(Param::OutStride));
        for k in 0..self.leaves {
            p.push(Param::Leaf(k));
            p.extend((0..axes).map(|d| Param::LeafStride(k, d)));
        }
        p.extend((0..self.scalars).map(Param::Scalar));
        p.extend((0..axes).map(Param::Dim));
        p.push(Param::Count);
        p
    }

    /// The integer width of strides and dims: 64-bit when flat (which has neither).
    fn width(&self) -> IndexWidth {
        match self.class {
            LayoutClass::Flat => IndexWidth::I64,
            LayoutClass::Strided(w) => w,
        }
    }

    /// The C parameter declarations, for element type `t`.
    pub(crate) fn c_params(&self, t: &str) -> Vec<String> {
        let n = self.width().ints();
        self.params()
            .into_iter()
            .map(|p| match p {
                Param::Out => format!("{t}* __restrict__ out"),
                Param::OutStride(d) => format!("{} os{d}", n.i),
                Param::Leaf(k) => format!("const {t}* __restrict__ a{k}"),
                Param::LeafStride(k, d) => format!("{} s{k}_{d}", n.i),
                Param::Scalar(k) => format!("{t} p{k}"),
                // Coordinates are unsigned, as unsigned division is the cheaper one.
                Param::Dim(d) => format!("{} d{d}", n.u),
                Param::Count => "long long n".into(),
            })
            .collect()
    }

    /// The launch arguments for `plan` (of this signature's class and rank) and the
    /// scalar values `scalars`: buffer slot 0 is the output and slot `k + 1` leaf `k`.
    pub(crate) fn args<T: Copy>(&self, plan: &ElementwisePlan, scalars: &[T]) -> Vec<KArg<T>> {
        debug_assert_eq!(plan.class, self.class);
        debug_assert_eq!(scalars.len(), self.scalars);
        let int = |v: i64| match self.width() {
            // Every value fits: the plan chose 32 bits only then.
            IndexWidth::I32 => KArg::Int32(v as i32),
            IndexWidth::I64 => KArg::Int(v),
        };
        self.params()
            .into_iter()
            .map(|p| match p {
                Param::Out => KArg::Buf(0),
                Param::OutStride(d) => int(plan.strides[0][d] as i64),
                Param::Leaf(k) => KArg::Buf(k + 1),
                Param::LeafStride(k, d) => int(plan.strides[k + 1][d] as i64),
                Param::Scalar(k) => KArg::Elem(scalars[k]),
                Param::Dim(d) => int(plan.dims[d] as i64),
                Param::Count => KArg::Int(plan.n as i64),
            })
            .collect()
    }

    /// The cache key of the kernel of tree `tree` over element type `elem` with this
    /// signature (the leaf and scalar counts follow from the tree).
    pub(crate) fn key(&self, tree: &'static str, elem: &'static str) -> KernelKey {
        KernelKey { tree, elem, rank: self.rank, class: self.class, variant: 0 }
    }
}

/// A plan's kernel signature and arguments live here, beside [`KernelSig`], so the plan
/// itself knows nothing of parameter lists.
impl ElementwisePlan {
    /// The arguments of [`kernel_source`](super::kernel_source)'s kernel for this plan,
    /// `leaves` tensor leaves and the scalar `params`, in its parameter order: buffer slot 0
    /// is the output and slot `k + 1` leaf `k`, each at its element `[0, …, 0]`.
    ///
    /// ```
    /// use mdtensor::device::{ElementwisePlan, KArg};
    /// let p = ElementwisePlan::new(&[4, 3], &[vec![3, 1], vec![0, 1]]);
    /// let a = p.args(1, &[2.0f32]);
    /// assert_eq!(a[..3], [KArg::Buf(0), KArg::Int32(3), KArg::Int32(1)]);
    /// assert_eq!(a[6..], [KArg::Elem(2.0), KArg::Int32(4), KArg::Int32(3), KArg::Int(12)]);
    /// ```
    pub fn args<T: Copy>(&self, leaves: usize, params: &[T]) -> Vec<KArg<T>> {
        self.signature(leaves, params.len()).args(self, params)
    }

    /// The signature of this plan's kernel for a tree of `leaves` tensor leaves and
    /// `scalars` scalar parameters.
    pub(crate) fn signature(&self, leaves: usize, scalars: usize) -> KernelSig {
        KernelSig { class: self.class, rank: self.rank(), leaves, scalars }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C type each argument kind must meet.
    fn fits(arg: &KArg<f32>, decl: &str) -> bool {
        let ty = decl.rsplit_once(' ').map_or(decl, |(t, _)| t);
        match arg {
            KArg::Buf(_) => ty.contains('*'),
            KArg::Int(_) => ty == "long long",
            KArg::Int32(_) => ty == "int" || ty == "unsigned int",
            KArg::Elem(_) => ty == "float",
        }
    }

    #[test]
    fn arguments_follow_the_parameter_list_in_count_and_c_type() {
        let cases: [(&[usize], Vec<Vec<isize>>); 4] = [
            (&[4, 3], vec![vec![3, 1], vec![3, 1]]),
            (&[4, 3], vec![vec![3, 1], vec![0, 1], vec![1, 4]]),
            (&[2, 3, 5], vec![vec![1, 2, 6], vec![15, 5, 1]]),
            (&[1 << 20, 1 << 12], vec![vec![1 << 12, 1], vec![1, 1 << 20]]),
        ];
        for (dims, strides) in cases {
            let plan = ElementwisePlan::new(dims, &strides);
            for scalars in [0, 2] {
                let sig = KernelSig { class: plan.class, rank: plan.rank(), leaves: strides.len() - 1, scalars };
                let decls = sig.c_params("float");
                let args = sig.args(&plan, &vec![1.5f32; scalars]);
                assert_eq!(decls.len(), args.len(), "{dims:?} {strides:?}: {decls:?} vs {args:?}");
                for (a, d) in args.iter().zip(&decls) {
                    assert!(fits(a, d), "{dims:?} {strides:?}: {a:?} passed for `{d}`");
                }
            }
        }
    }

    #[test]
    fn a_wide_walk_declares_and_passes_64_bit_integers() {
        let plan = ElementwisePlan::new(&[1 << 20, 1 << 12], &[vec![1 << 12, 1], vec![1, 1 << 20]]);
        assert_eq!(plan.class, LayoutClass::Strided(IndexWidth::I64));
        let sig = KernelSig { class: plan.class, rank: plan.rank(), leaves: 1, scalars: 0 };
        assert!(sig.c_params("float").iter().skip(1).all(|d| d.contains('*') || d.starts_with("long long")));
        assert!(!sig.args::<f32>(&plan, &[]).iter().any(|a| matches!(a, KArg::Int32(_))));
    }
}
