//! The two symmetries of the game the compact tables use, on occupancy masks (row-major, a1
//! = bit 0). The rules treat the columns alike and the two players alike (directions are the
//! mover's own and each aims at the other's home row, ORDO-1.3, ORDO-1.4), so the left-right
//! mirror of a position, and its colour twin (the rows turned over, the colours swapped, the
//! other side to move), have its value. `tests/it/properties.rs` checks both symmetries of
//! the move generator.

use crate::rules::{Color, Dims};

/// The mask with column `c` moved to column `cols - 1 - c`.
pub fn mirror(dims: Dims, mask: u128) -> u128 {
    let (cols, row) = (u32::from(dims.cols), (1u128 << dims.cols) - 1);
    (0..u32::from(dims.rows)).fold(0, |out, r| {
        let bits = (mask >> (r * cols) & row) as u16;
        out | u128::from(bits.reverse_bits() >> (16 - cols)) << (r * cols)
    })
}

/// The mask with row `r` moved to row `rows - 1 - r`.
pub fn flip_rows(dims: Dims, mask: u128) -> u128 {
    let (cols, rows, row) = (
        u32::from(dims.cols),
        u32::from(dims.rows),
        (1u128 << dims.cols) - 1,
    );
    (0..rows).fold(0, |out, r| {
        out | (mask >> (r * cols) & row) << ((rows - 1 - r) * cols)
    })
}

/// The colour twin of a position: rows turned over, colours swapped, the other side to move.
pub fn colour_flip(dims: Dims, occ: [u128; 2], stm: Color) -> ([u128; 2], Color) {
    (
        [flip_rows(dims, occ[1]), flip_rows(dims, occ[0])],
        stm.opponent(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_are_involutions_and_move_the_corners() {
        let dims: Dims = "5x4".parse().unwrap();
        let a1 = 1u128;
        assert_eq!(mirror(dims, a1), 1 << 4);
        assert_eq!(flip_rows(dims, a1), 1 << 15);
        let m = 0b1011_0110_1100_0001_0111u128;
        assert_eq!(mirror(dims, mirror(dims, m)), m);
        assert_eq!(flip_rows(dims, flip_rows(dims, m)), m);
        assert_eq!(
            mirror(dims, flip_rows(dims, m)),
            flip_rows(dims, mirror(dims, m))
        );
        let (occ, stm) = colour_flip(dims, [a1, 1 << 19], Color::White);
        assert_eq!((occ, stm), ([1 << 4, 1 << 15], Color::Black));
    }
}
