//! The seedable generator of the conformance kit: the crate's SplitMix64 ([`crate::diff::Rng`]).
//! The committed random vectors and `ordo conform --seed` playouts depend on its exact
//! sequence: tests/it/conformance.rs regenerates the vectors and compares them with the committed
//! files, so a change to the generator cannot pass unnoticed.

pub use crate::diff::Rng;

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn sequence_is_fixed() {
        let mut r = Rng::new(1);
        let first: Vec<u64> = (0..3).map(|_| r.below(1000)).collect();
        let mut s = Rng::new(1);
        let again: Vec<u64> = (0..3).map(|_| s.below(1000)).collect();
        assert_eq!(first, again);
        assert_eq!(Rng::new(7).below(0), 0);
    }
}
