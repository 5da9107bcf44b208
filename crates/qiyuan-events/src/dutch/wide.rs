//! A fixed-width two's-complement integer for matching weights.
//!
//! The Dutch criteria are lexicographic: each one gets its own bit field in
//! one edge weight, so a maximum-weight matching settles them in order. With
//! many score groups the weight needs several hundred bits. Only what the
//! blossom solver and the weight builder need is here: add, subtract, shift,
//! or, compare. `L` is the number of 64-bit limbs, least significant first.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A signed integer of `64 * L` bits (wrapping arithmetic, as the weight
/// builder relies on for its small subtractions).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>([u64; L]);

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Self = Wide([0; L]);

    /// The number of bits.
    pub const BITS: u32 = 64 * L as u32;

    /// A small non-negative value.
    pub fn from_u64(v: u64) -> Self {
        let mut w = Self::ZERO;
        w.0[0] = v;
        w
    }

    /// Whether this is zero (no edge).
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn is_negative(&self) -> bool {
        self.0[L - 1] >> 63 == 1
    }

    /// Shifts left by `n` bits (bits shifted out are lost).
    pub fn shl(self, n: u32) -> Self {
        if n >= Self::BITS {
            return Self::ZERO;
        }
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; L];
        for i in (limbs..L).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// Arithmetic shift right by one bit.
    fn shr1(self) -> Self {
        let mut out = [0u64; L];
        for (i, slot) in out.iter_mut().enumerate() {
            let hi = if i + 1 < L {
                self.0[i + 1] << 63
            } else if self.is_negative() {
                1 << 63
            } else {
                0
            };
            *slot = (self.0[i] >> 1) | hi;
        }
        Wide(out)
    }

    /// Subtracts a small value (wrapping).
    pub fn sub_small(self, v: usize) -> Self {
        self - Self::from_u64(v as u64)
    }

    /// Bitwise or with a small value.
    pub fn or_u64(mut self, v: u64) -> Self {
        self.0[0] |= v;
        self
    }

    /// Bitwise or.
    pub fn or(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }

    /// The largest positive value divided by four: room for the solver's
    /// doubled duals.
    pub fn quarter_max() -> Self {
        let mut w = Wide([u64::MAX; L]);
        w.0[L - 1] = u64::MAX >> 3;
        w
    }

    /// Two times the value (wrapping).
    pub fn double(self) -> Self {
        self.shl(1)
    }

    /// The value halved, rounded toward zero (as integer division does).
    pub fn half(self) -> Self {
        if self.is_negative() {
            // Toward zero: add one before the floor shift when odd.
            let odd = self.0[0] & 1 == 1;
            let shifted = self.shr1();
            if odd {
                shifted + Self::from_u64(1)
            } else {
                shifted
            }
        } else {
            self.shr1()
        }
    }
}

impl<const L: usize> Add for Wide<L> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const L: usize> Sub for Wide<L> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const L: usize> AddAssign for Wide<L> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<const L: usize> SubAssign for Wide<L> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        // Same sign: two's complement orders like unsigned.
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> std::fmt::Debug for Wide<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        let mut started = false;
        for i in (0..L).rev() {
            if started {
                write!(f, "{:016x}", self.0[i])?;
            } else if self.0[i] != 0 || i == 0 {
                write!(f, "{:x}", self.0[i])?;
                started = true;
            }
        }
        Ok(())
    }
}

impl<const L: usize> integer_blossom::Weight for Wide<L> {
    const ZERO: Self = Wide([0; L]);
    const ONE: Self = {
        let mut limbs = [0; L];
        limbs[0] = 1;
        Wide(limbs)
    };
    fn inf() -> Self {
        Self::quarter_max()
    }
    fn double(self) -> Self {
        Wide::double(self)
    }
    fn half(self) -> Self {
        Wide::half(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn of(v: i128) -> Wide<2> {
        Wide([v as u64, (v >> 64) as u64])
    }

    fn back(w: Wide<2>) -> i128 {
        (w.0[0] as i128 & u64::MAX as i128) | ((w.0[1] as i128) << 64)
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_i128(a in -(1i128 << 100)..(1i128 << 100), b in -(1i128 << 100)..(1i128 << 100), s in 0u32..20) {
            prop_assert_eq!(back(of(a) + of(b)), a + b);
            prop_assert_eq!(back(of(a) - of(b)), a - b);
            prop_assert_eq!(of(a).cmp(&of(b)), a.cmp(&b));
            prop_assert_eq!(back(of(a).half()), a / 2);
            prop_assert_eq!(back(of(a).double()), a * 2);
            prop_assert_eq!(back(of(a).shl(s)), a << s);
        }
    }

    #[test]
    fn shifts_cross_limbs() {
        let w = Wide::<4>::from_u64(1).shl(130);
        assert_eq!(w.0, [0, 0, 4, 0]);
        assert!(Wide::<4>::from_u64(1).shl(256).is_zero());
    }
}
