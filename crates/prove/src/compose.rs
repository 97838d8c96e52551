//! Problems composed by the proof search from game positions: positions of random games
//! from a start (or any positions given) where the side to move wins within a few turns by
//! exactly one first move, and not sooner. No table needs to hold the material, so the
//! problems can have as many pieces as a game has.

use std::sync::atomic::{AtomicBool, Ordering};

use ordo_bitboard::Bitboard;
use ordo_core::notation::format_move;
use ordo_core::rules::{Engine, Move, Position, Rng, Status};
use ordo_solve::Problem;

use crate::{prove_within, Options, Outcome, ProveError};

/// How problems are sought.
#[derive(Clone, Debug)]
pub struct Composing {
    /// The most turns of the winner a problem may take ("win in N", N at most this).
    pub max_turns: u16,
    /// The fewest turns: 2 leaves out the problems whose first move ends the game.
    pub min_turns: u16,
    /// Each bounded search's options (its goal is set here).
    pub search: Options,
}

/// Why a position makes no problem, or the problem it makes: the stipulation's turns and
/// its only winning first move.
fn problem_at(
    e: &Bitboard,
    how: &Composing,
    stop: &AtomicBool,
) -> Result<Option<(u16, Move)>, ProveError> {
    let mover = e.side_to_move();
    let within = |pos: &Position, plies: u32| -> Result<Outcome, ProveError> {
        Ok(prove_within(pos, (mover, plies), &how.search, None, None, stop)?.outcome)
    };
    let here = e.to_position();
    let mut turns = None;
    for n in 1..=how.max_turns {
        match within(&here, 2 * u32::from(n) - 1)? {
            Outcome::Wins(_) => {
                turns = Some(n);
                break;
            }
            Outcome::CannotWin(_) => {}
            _ => return Ok(None),
        }
    }
    let Some(n) = turns.filter(|&n| n >= how.min_turns) else {
        return Ok(None);
    };
    let mut key = None;
    for m in e.legal_moves() {
        match within(&e.apply(&m).to_position(), 2 * u32::from(n) - 2)? {
            Outcome::Wins(_) if key.is_some() => return Ok(None),
            Outcome::Wins(_) => key = Some(m),
            Outcome::CannotWin(_) => {}
            _ => return Ok(None),
        }
    }
    Ok(key.map(|k| (n, k)))
}

/// Compose up to `count` problems from random games from `start` (the generator seeded
/// with `seed`; at most `games` games): each game is played to its end, then its positions
/// are tried from the end backwards, up to `2 * how.max_turns + 1` plies before it, and the
/// one that makes the problem of the most turns is kept: the side to move wins within its
/// turns by exactly one first move, and not sooner. Every claim is settled by bounded proof
/// searches; a position any search leaves open is passed over. `progress` hears the games
/// played and the problems found after each game.
pub fn compose_from_games(
    start: &Position,
    seed: u64,
    (count, games): (usize, usize),
    how: &Composing,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Problem>, ProveError> {
    let root = Bitboard::from_position(start).map_err(|e| ProveError::Position(e.to_string()))?;
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    for game in 1..=games {
        if found.len() >= count || stop.load(Ordering::Relaxed) {
            break;
        }
        let line = random_game(&root, &mut rng);
        let mut best: Option<(u16, Move, u32)> = None;
        let reach = 2 * u32::from(how.max_turns) + 1;
        for back in 2..=reach.min(line.len() as u32 - 1) {
            let ply = line.len() as u32 - 1 - back;
            if let Some((n, key)) = problem_at(&line[ply as usize], how, stop)? {
                if best.is_none_or(|b| n > b.0) {
                    best = Some((n, key, ply));
                }
            }
        }
        if let Some((n, key, ply)) = best {
            found.push(problem(&line[ply as usize], n, &key, seed, game, ply));
        }
        progress(game, found.len());
    }
    Ok(found)
}

/// The positions of a game of random legal moves from `root` to its end.
fn random_game(root: &Bitboard, rng: &mut Rng) -> Vec<Bitboard> {
    let mut line = vec![*root];
    loop {
        let e = &line[line.len() - 1];
        if e.status() != Status::Ongoing {
            return line;
        }
        let moves = e.legal_moves();
        let m = &moves[rng.below(moves.len() as u64) as usize];
        let next = e.apply(m);
        line.push(next);
    }
}

fn problem(e: &Bitboard, n: u16, key: &Move, seed: u64, game: usize, ply: u32) -> Problem {
    let pos = e.to_position();
    let name = match pos.variant {
        ordo_core::rules::Variant::Classic => "classic",
        ordo_core::rules::Variant::X => "x",
    };
    Problem {
        id: format!("{name}-{}-s{seed}-g{game}-p{ply}", pos.dims()),
        position: pos,
        stipulation: format!("win in {n}"),
        keys: vec![*key],
        only_keys: true,
        source: format!(
            "composed by proof search from a random game (seed {seed}, game {game}, ply {ply}): \
             the side to move wins within {n} turns, not fewer, and only by {}",
            format_move(key)
        ),
    }
}
