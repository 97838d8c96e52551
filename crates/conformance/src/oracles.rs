//! The [`CaseOracle`]s of this crate: any [`Engine`] (the reference
//! and the bitboard engine) and the adjudicator. They live here, outside the engines, so that
//! the engines and the adjudicator never import one another.

use std::marker::PhantomData;

use super::cases::{CaseOracle, MoveVerdict, OracleError};
use crate::adjudicate::{adjudicate, candidate_moves, candidate_steps, canonical_spelling};
use crate::notation::{format_move, format_position, parse_move, parse_position};
use crate::rules::{ClauseId, Engine, Move, Position, Status, Variant};

/// Above this many candidate first steps, the adjudicator does not enumerate an Ordo X move set
/// (the two-step space grows with its square); the check is skipped.
pub const ADJUDICATOR_MAX_X_STEPS: usize = 400;

fn position(text: &str) -> Result<Position, OracleError> {
    parse_position(text).map_err(|e| OracleError::Failed(format!("position '{text}': {e}")))
}

fn read_move(text: &str) -> Result<Move, OracleError> {
    parse_move(text).map_err(|e| OracleError::Failed(format!("move '{text}': {e}")))
}

/// An engine of this crate as an oracle: it cannot name clauses.
#[derive(Clone, Debug, Default)]
pub struct EngineOracle<E: Engine> {
    engine: PhantomData<E>,
}

impl<E: Engine> EngineOracle<E> {
    /// An oracle answering with engine `E`.
    pub fn new() -> Self {
        EngineOracle {
            engine: PhantomData,
        }
    }

    fn load(&self, text: &str) -> Result<E, OracleError> {
        E::from_position(&position(text)?)
            .map_err(|e| OracleError::Failed(format!("{} refuses the position: {e}", E::NAME)))
    }
}

impl<E: Engine> CaseOracle for EngineOracle<E> {
    fn name(&self) -> String {
        format!("{} engine", E::NAME)
    }

    fn moves(&mut self, p: &str) -> Result<Vec<String>, OracleError> {
        Ok(self
            .load(p)?
            .legal_moves()
            .iter()
            .map(format_move)
            .collect())
    }

    fn verdict(&mut self, p: &str, mv: &str) -> Result<MoveVerdict, OracleError> {
        let e = self.load(p)?;
        Ok(match e.resolve(&read_move(mv)?) {
            Some(_) => MoveVerdict::Legal,
            None => MoveVerdict::Illegal { clauses: None },
        })
    }

    fn after(&mut self, p: &str, mv: &str) -> Result<Option<String>, OracleError> {
        let e = self.load(p)?;
        let next = e
            .play(&read_move(mv)?)
            .map_err(|_| OracleError::Failed(format!("{mv} is not legal")))?;
        Ok(Some(format_position(&next.to_position())))
    }

    fn status(&mut self, p: &str) -> Result<Status, OracleError> {
        Ok(self.load(p)?.status())
    }

    fn perft(&mut self, p: &str, depth: u32) -> Result<Option<u64>, OracleError> {
        Ok(Some(self.load(p)?.perft(depth)))
    }

    /// The engine plays the moves; its status depends on the last position only (ORDO-3.3).
    fn game_status(&mut self, start: &str, moves: &[String]) -> Result<Status, OracleError> {
        let mut e = self.load(start)?;
        for (i, mv) in moves.iter().enumerate() {
            e = e.play(&read_move(mv)?).map_err(|_| {
                OracleError::Failed(format!("{mv} (move {} of the game) is not legal", i + 1))
            })?;
        }
        Ok(e.status())
    }
}

/// The adjudicator as an oracle: verdicts with the clauses broken, the position a legal move
/// produces, the status, and the move set as the candidate moves it judges legal. It counts no
/// perft.
#[derive(Clone, Debug, Default)]
pub struct AdjudicatorOracle;

impl CaseOracle for AdjudicatorOracle {
    fn name(&self) -> String {
        "adjudicator".into()
    }

    fn moves(&mut self, p: &str) -> Result<Vec<String>, OracleError> {
        let pos = position(p)?;
        if pos.variant == Variant::X && candidate_steps(&pos).len() > ADJUDICATOR_MAX_X_STEPS {
            return Err(OracleError::Unsupported(
                "too many Ordo X candidates to enumerate".into(),
            ));
        }
        let mut out: Vec<String> = candidate_moves(&pos)
            .iter()
            .filter_map(|m| canonical_spelling(&pos, m))
            .map(|m| format_move(&m))
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn verdict(&mut self, p: &str, mv: &str) -> Result<MoveVerdict, OracleError> {
        let v = adjudicate(&position(p)?, &read_move(mv)?);
        Ok(if v.is_legal() {
            MoveVerdict::Legal
        } else {
            let clauses = v.clause_ids().iter().map(ClauseId::to_string).collect();
            MoveVerdict::Illegal {
                clauses: Some(clauses),
            }
        })
    }

    fn after(&mut self, p: &str, mv: &str) -> Result<Option<String>, OracleError> {
        let v = adjudicate(&position(p)?, &read_move(mv)?);
        match v.effects() {
            Some(e) => Ok(Some(format_position(&e.result))),
            None => Err(OracleError::Failed(format!(
                "{mv} is illegal: {}",
                ClauseId::join(&v.clause_ids(), " ")
            ))),
        }
    }

    fn status(&mut self, p: &str) -> Result<Status, OracleError> {
        Ok(crate::adjudicate::status(&position(p)?))
    }

    fn perft(&mut self, _p: &str, _depth: u32) -> Result<Option<u64>, OracleError> {
        Ok(None)
    }

    /// Each move judged and its effect taken; the status of the last position.
    fn game_status(&mut self, start: &str, moves: &[String]) -> Result<Status, OracleError> {
        let mut pos = position(start)?;
        for (i, mv) in moves.iter().enumerate() {
            let v = adjudicate(&pos, &read_move(mv)?);
            pos = match v.effects() {
                Some(e) => e.result.clone(),
                None => {
                    return Err(OracleError::Failed(format!(
                        "{mv} (move {} of the game) is illegal: {}",
                        i + 1,
                        ClauseId::join(&v.clause_ids(), " ")
                    )))
                }
            };
        }
        Ok(crate::adjudicate::status(&pos))
    }
}
