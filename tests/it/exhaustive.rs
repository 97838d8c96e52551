//! Exhaustive check behind the observation recorded under ORDO-10.4 and ORDOX-3.3: on every
//! board up to 4 x 4, for every connected set of the mover's pieces off the opponent's home row,
//! the engine offers a one-square forward or diagonally forward singleton move, so a connected
//! player is never without a legal move (ORDO-10.4 never decides) and an Ordo X sideways step
//! always has a follow-up (ORDOX-3.3 never removes one).

use crate::common::one_group;
use ordo_core::rules::{Color, Dims, Engine, Position, Status, Step, Variant};

fn check<E: Engine>() {
    let mut sets = 0;
    for cols in 2..=4usize {
        for rows in 2..=4usize {
            let dims = Dims::new(cols, rows).unwrap();
            let below = cols * (rows - 1);
            // The opponent's single piece stands on its own home row, in the far corner.
            let corner = dims.square(dims.len() - 1);
            for bits in 1u32..(1 << below) {
                for variant in Variant::ALL {
                    let mut p = Position::empty(dims, Color::White, variant);
                    for i in 0..below {
                        if bits >> i & 1 == 1 {
                            p.set(dims.square(i), Some(Color::White));
                        }
                    }
                    if !one_group(&p, Color::White) {
                        continue;
                    }
                    p.set(corner, Some(Color::Black));
                    sets += 1;
                    let e = E::from_position(&p).unwrap();
                    assert_eq!(e.status(), Status::Ongoing);
                    let has_short_forward = e.legal_moves().iter().any(|m| {
                        m.second.is_none()
                            && matches!(m.first, Step::Single { .. })
                            && matches!(m.first.direction(), Some((d, 1)) if d.dr == 1)
                    });
                    assert!(
                        has_short_forward,
                        "{}",
                        ordo_core::notation::format_position(&p)
                    );
                }
            }
        }
    }
    assert!(sets > 5000, "checked {sets} positions");
}

#[test]
fn ordo_10_4_connected_player_always_has_a_forward_step_reference() {
    check::<ordo_reference::Reference>();
}

#[test]
fn ordo_10_4_connected_player_always_has_a_forward_step_bitboard() {
    check::<ordo_bitboard::Bitboard>();
}
