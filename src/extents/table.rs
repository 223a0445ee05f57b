//! The table: typenum number → `Const<N>` for 0..=1024 (see `static_arith`), except
//! 1, which maps to [`One`].
//!
//! The entries are split into groups, each implemented on its own marker type: numbers
//! below 8 on [`Small`], the others on `L{n % 16}`, chosen from their four lowest bits by
//! [`Route`]. Coherence compares every impl with the other
//! impls on the same self type, so one table of 1025 impls on typenum's `UInt` cost about
//! half a million comparisons in this crate's build; in groups of at most 64 it is about
//! thirty thousand, and a lookup in a user's crate scans one group, not the whole table.
//!
//! The groups themselves are generated (`table_groups.rs`, written by
//! `tests/extents_tables.rs`, which CI runs to check that the file is what the generator
//! writes).

use super::{Const, Dim, One};
use typenum::consts::*;
use typenum::{Bit, UInt, B0, B1};

macro_rules! table {
    ($group:ident: $($n:literal => $u:ident),* $(,)?) => {
        /// One group of the table (see the module docs).
        pub enum $group {}
        $(impl Entry<$u> for $group { type Output = Const<$n>; })*
    };
}

/// Table entry: in group `Self`, the typenum number `U` (in 0..=1024) and its `Const`.
pub trait Entry<U> {
    /// The `Const<N>` with the same value.
    type Output: Dim;
}

/// The table group that holds a typenum number: [`Small`](Small) below 8,
/// else the group of its four lowest bits. Read from the number's structure (typenum puts
/// the lowest bit outermost), with no arithmetic, so routing costs the type checker four
/// steps.
pub trait Route {
    /// The group's marker type.
    type Group;
}

/// The group of four lowest bits `(b3, b2, b1, b0)`.
pub trait LowBits {
    /// The group's marker type.
    type Group;
}

impl<H, D: Bit, C: Bit, B: Bit, A: Bit> Route for UInt<UInt<UInt<UInt<H, D>, C>, B>, A>
where
    (D, C, B, A): LowBits,
{
    type Group = <(D, C, B, A) as LowBits>::Group;
}

macro_rules! small_route {
    ($($u:ident)*) => { $(impl Route for typenum::consts::$u { type Group = Small; })* };
}
small_route!(U0 U1 U2 U3 U4 U5 U6 U7);

macro_rules! low_bits {
    ($($group:ident = $d:ident $c:ident $b:ident $a:ident;)*) => {
        $(impl LowBits for ($d, $c, $b, $a) { type Group = $group; })*
    };
}
low_bits! {
    L0 = B0 B0 B0 B0; L1 = B0 B0 B0 B1; L2 = B0 B0 B1 B0; L3 = B0 B0 B1 B1;
    L4 = B0 B1 B0 B0; L5 = B0 B1 B0 B1; L6 = B0 B1 B1 B0; L7 = B0 B1 B1 B1;
    L8 = B1 B0 B0 B0; L9 = B1 B0 B0 B1; L10 = B1 B0 B1 B0; L11 = B1 B0 B1 B1;
    L12 = B1 B1 B0 B0; L13 = B1 B1 B0 B1; L14 = B1 B1 B1 B0; L15 = B1 B1 B1 B1;
}

// A computed extent of 1 (a static slice of length 1, say) is `One`, so it broadcasts.
impl Entry<U1> for Small {
    type Output = One;
}

include!("table_groups.rs");
