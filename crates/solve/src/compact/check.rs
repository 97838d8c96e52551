//! The verification of compact tables that a run did not build whole (loaded from files,
//! or resumed from a checkpoint). [`CompactTables::verify_slice`] builds each slice again,
//! layer group by layer group, from the held values of the groups before it and of the
//! smaller slices, checks every rebuilt value by the retrograde equation in the sweep (as a
//! build does) and requires the held byte to be the rebuilt one: one build's work, and a
//! wrong byte anywhere is a mismatch named by its position. The full pass
//! ([`CompactTables::verify_slice_full`], about three builds' work) recomputes every stored
//! value from its successors generated afresh through [`Engine::legal_moves`] and
//! [`Engine::apply`] (not the solver's [`Engine::successors`] path), each successor valued
//! from the stored tables (a shell successor from its own successors); a gap of the index
//! must hold 0. Either way, together with the game-over positions being losses in 0, this
//! local consistency proves the tables (the distances are a ranking that certifies each win
//! and loss, and a draw that hid a win would see a lost successor).

use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;

use super::verify_log::{VerifyLog, CHUNK};
use super::{decode, CompactTables, Slice};
use crate::material::Material;
use crate::notation::format_position;
use crate::rules::{Engine, PositionError};
use crate::value::Value;
use crate::{Phase, Progress, RunWork, SolveError, Stage, Ticker, Verification};

/// The number of mismatches a verdict describes.
const EXAMPLES: usize = 5;

/// A verification of slice `m` stopped on request: where its checked chunks are kept, if
/// they are.
fn stopped(m: Material, log: Option<&VerifyLog>) -> SolveError {
    SolveError::Interrupted(match log {
        Some(l) => format!(
            "verification stopped in slice {m}, the chunks checked kept in {}",
            l.path().display()
        ),
        None => format!(
            "verification stopped in slice {m} (its files are untouched; its check starts over)"
        ),
    })
}

impl CompactTables {
    /// Verify slice `m` by building it again ([`Phase::VERIFYING`], in stored positions):
    /// layer group by group, each from the held values of the groups before it and of the
    /// smaller slices, every rebuilt value checked by the retrograde equation in the sweep
    /// (`layer::check_layer`) and compared with the held byte; every mismatch is counted,
    /// the first few described. It costs one build of the slice, and no memory beyond what
    /// the build held. It generates the moves as the build does ([`Engine::successors`]);
    /// [`Self::verify_slice_full`] re-derives them through [`Engine::legal_moves`].
    pub fn verify_slice<E: Engine>(
        &self,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<Verification, SolveError> {
        self.verify_rebuilt::<E>(m, progress, None)
    }

    /// [`Self::verify_slice`] of a slice kept in a file, resumable: the chunks checked are
    /// recorded in the log `log` (`FILE.verifying`, [`super::verify_log_path`]), which names
    /// slice `m` and every slice its positions lead into by a fingerprint of their values, so
    /// a pass stopped or killed loses at most the chunk under way and a rerun over the same
    /// values checks only the rest; the log is removed when the pass ends.
    pub fn verify_slice_logged<E: Engine>(
        &self,
        m: Material,
        progress: &dyn Progress,
        log: &Path,
    ) -> Result<Verification, SolveError> {
        let mut read = super::needs(self.variant, m);
        read.push(m);
        let mut log = VerifyLog::open(log, self.fingerprint_of(&read))?;
        note_resumed(&log, &format!(" of slice {m}"), progress);
        let v = self.verify_rebuilt::<E>(m, progress, Some(&mut log))?;
        log.finish()?;
        Ok(v)
    }

    /// The full pass over slice `m` (about three builds' work): every value recomputed from
    /// its successors generated afresh through [`Engine::legal_moves`] and
    /// [`Engine::apply`], each valued from the held tables ([`Phase::VERIFYING`], in stored
    /// positions); every mismatch is counted, the first few described.
    pub fn verify_slice_full<E: Engine>(
        &self,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<Verification, SolveError> {
        self.verify_chunks::<E>(m, progress, None)
    }

    /// [`Self::verify_slice`] over every slice, fewer pieces first, each announced through
    /// [`Progress::begin`]; the verdicts added up.
    pub fn verify_all<E: Engine>(
        &self,
        progress: &dyn Progress,
    ) -> Result<Verification, SolveError> {
        self.verify_all_logged::<E>(progress, None)
    }

    /// The steps of a verification pass over every slice, each slice's announcement with
    /// the run's work (`before` the pass, the pass's own work added to `total`).
    pub fn verify_steps(&self, before: u64, total: u64) -> Vec<(Material, Stage)> {
        let n = self.slices.len();
        let mut done = before;
        self.slices
            .iter()
            .enumerate()
            .map(|(k, (&m, slice))| {
                let step = Stage {
                    what: format!("slice {m}"),
                    number: k + 1,
                    of: n,
                    run: Some(RunWork {
                        before: done,
                        total,
                    }),
                };
                done += slice.values.len() as u64;
                (m, step)
            })
            .collect()
    }

    /// Stored positions of every slice held: the work of one pass over them.
    pub fn stored_positions(&self) -> u64 {
        self.slices.values().map(|s| s.values.len() as u64).sum()
    }

    /// [`Self::verify_all`], resumable through the log at `log` (`FILE.verifying`): chunks
    /// an earlier run checked without a mismatch count as checked, each chunk checked now
    /// is recorded, a stop asked through `progress` ends the pass between chunks with
    /// [`SolveError::Interrupted`], and the log is removed when the pass ends.
    pub fn verify_all_logged<E: Engine>(
        &self,
        progress: &dyn Progress,
        log: Option<&Path>,
    ) -> Result<Verification, SolveError> {
        let pass = self.stored_positions();
        self.verify_all_run::<E>(
            progress,
            log,
            RunWork {
                before: 0,
                total: pass,
            },
        )
    }

    /// [`Self::verify_all_logged`] as the last part of a run: `run.before` the work done
    /// before the pass, `run.total` the run's work with the pass's.
    pub fn verify_all_run<E: Engine>(
        &self,
        progress: &dyn Progress,
        log: Option<&Path>,
        run: RunWork,
    ) -> Result<Verification, SolveError> {
        self.verify_run::<E>(progress, log, run, false)
    }

    /// [`Self::verify_all_run`] after a build: a slice these tables built counts with the
    /// verdict of the check made in its build's sweep ([`Self::build_check`]); the others
    /// (loaded, or resumed from a checkpoint of format 2, which kept no verdict) are verified.
    pub fn verify_built_run<E: Engine>(
        &self,
        progress: &dyn Progress,
        log: Option<&Path>,
        run: RunWork,
    ) -> Result<Verification, SolveError> {
        self.verify_run::<E>(progress, log, run, true)
    }

    fn verify_run<E: Engine>(
        &self,
        progress: &dyn Progress,
        log: Option<&Path>,
        run: RunWork,
        use_checks: bool,
    ) -> Result<Verification, SolveError> {
        let mut log = log
            .map(|p| VerifyLog::open(p, self.fingerprint()))
            .transpose()?;
        if let Some(l) = &log {
            note_resumed(l, "", progress);
        }
        let mut all = Verification {
            checked: 0,
            mismatches: 0,
            examples: Vec::new(),
        };
        for (m, step) in self.verify_steps(run.before, run.total) {
            progress.begin(&step);
            let v = match self.build_check(m).filter(|_| use_checks) {
                Some(v) => {
                    let len = self.slices.get(&m).map_or(0, |s| s.values.len() as u64);
                    progress.update(Phase::VERIFYING, len, Some(len));
                    v.clone()
                }
                None => self.verify_rebuilt::<E>(m, progress, log.as_mut())?,
            };
            all.checked += v.checked;
            all.mismatches += v.mismatches;
            all.examples
                .extend(v.examples.into_iter().map(|e| format!("{m}: {e}")));
        }
        all.examples.truncate(EXAMPLES);
        if let Some(l) = log {
            l.finish()?;
        }
        Ok(all)
    }

    /// The slice `m` of these tables, or an error if it is not built.
    fn built(&self, m: Material) -> Result<&Slice, SolveError> {
        self.slices
            .get(&m)
            .ok_or_else(|| SolveError::Input(format!("the {m} slice is not built")))
    }

    /// [`Self::verify_slice`], resumable through `log`: a layer group whose chunks an
    /// earlier run checked is skipped (they count as checked, by the counts logged), a chunk
    /// is recorded once every group it meets is rebuilt, if the slice showed no mismatch so
    /// far, and a stop asked through `progress` ends the pass between groups with
    /// [`SolveError::Interrupted`] (without a log too: nothing of the pass is kept then).
    fn verify_rebuilt<E: Engine>(
        &self,
        m: Material,
        progress: &dyn Progress,
        mut log: Option<&mut VerifyLog>,
    ) -> Result<Verification, SolveError> {
        let slice = self.built(m)?;
        let len = slice.values.len();
        let done: Vec<Option<u64>> = (0..len.div_ceil(CHUNK))
            .map(|k| log.as_ref().and_then(|l| l.done(m, k)))
            .collect();
        let mut all = Verification {
            checked: done.iter().flatten().sum(),
            mismatches: 0,
            examples: Vec::new(),
        };
        let mut next = 0;
        progress.update(Phase::VERIFYING, 0, Some(len as u64));
        for group in slice.index.layers() {
            let (start, end) = (group[0].start, group[group.len() - 1].end);
            let span = start / CHUNK..=(end - 1) / CHUNK;
            if span.clone().all(|k| done[k].is_some()) {
                progress.update(Phase::VERIFYING, end as u64, Some(len as u64));
                continue;
            }
            if progress.stop_requested() {
                return Err(stopped(m, log.as_deref()));
            }
            let within = super::Within::new(progress, Phase::VERIFYING, start, len as u64);
            for v in self.recheck_group::<E>(m, slice, &group, &within)? {
                all.mismatches += v.mismatches;
                all.examples.extend(v.examples);
            }
            all.checked += span
                .filter(|&k| done[k].is_none())
                .map(|k| (end.min((k + 1) * CHUNK) - start.max(k * CHUNK)) as u64)
                .sum::<u64>();
            if let Some(l) = log.as_deref_mut().filter(|_| all.mismatches == 0) {
                record_chunks(l, m, (&mut next, end, len), &done)?;
            }
            progress.update(Phase::VERIFYING, end as u64, Some(len as u64));
        }
        all.examples.truncate(EXAMPLES);
        Ok(all)
    }

    /// Check slice `m` chunk by chunk, skipping and recording chunks through `log`.
    fn verify_chunks<E: Engine>(
        &self,
        m: Material,
        progress: &dyn Progress,
        mut log: Option<&mut VerifyLog>,
    ) -> Result<Verification, SolveError> {
        let slice = self.built(m)?;
        let len = slice.values.len();
        let ticker = Ticker::new(progress, Phase::VERIFYING, Some(len as u64));
        let examples = Mutex::new(Vec::new());
        let (mut checked, mut mismatches) = (0, 0);
        for (k, start) in (0..len).step_by(CHUNK).enumerate() {
            let range = start..len.min(start + CHUNK);
            if let Some(c) = log.as_ref().and_then(|l| l.done(m, k)) {
                ticker.add(range.len() as u64);
                checked += c;
                continue;
            }
            if progress.stop_requested() {
                return Err(stopped(m, log.as_deref()));
            }
            let (c, bad) = range
                .into_par_iter()
                .map(|i| {
                    ticker.tick();
                    self.check_one::<E>(slice, i, &examples)
                })
                .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
            if let Some(l) = log.as_mut().filter(|_| bad == 0) {
                l.record(m, k, c)?;
            }
            (checked, mismatches) = (checked + c, mismatches + bad);
        }
        let mut examples = examples.into_inner().unwrap_or_else(|p| p.into_inner());
        examples.sort();
        examples.truncate(EXAMPLES);
        Ok(Verification {
            checked,
            mismatches,
            examples,
        })
    }

    /// Check entry `i`: (positions checked, mismatches).
    fn check_one<E: Engine>(
        &self,
        slice: &Slice,
        i: usize,
        examples: &Mutex<Vec<String>>,
    ) -> Result<(u64, u64), SolveError> {
        let stored = slice.values[i];
        let note = |text: String| {
            let mut ex = examples.lock().unwrap_or_else(|p| p.into_inner());
            if ex.len() < 4 * EXAMPLES {
                ex.push(text);
            }
        };
        let e = match slice.index.position(i) {
            None => None,
            Some((occ, stm)) => match E::from_occupancy(self.dims, self.variant, stm, occ) {
                Ok(e) => Some(e),
                Err(PositionError::SideToMoveOnHomeRow { .. }) => None,
                Err(e) => return Err(SolveError::Corrupt(format!("entry {i}: {e}"))),
            },
        };
        let Some(e) = e else {
            if stored != 0 {
                note(format!("entry {i} is no position but holds code {stored}"));
                return Ok((1, 1));
            }
            return Ok((0, 0));
        };
        let mut values = Vec::new();
        for mv in e.legal_moves() {
            let s = e.apply(&mv);
            values.push(self.value_of::<E>(s.occupancy(), s.side_to_move())?);
        }
        let want = Value::from_successors(values);
        if decode(stored) != want {
            note(format!(
                "{}: stored {}, successors give {want}",
                format_position(&e.to_position()),
                decode(stored)
            ));
            return Ok((1, 1));
        }
        Ok((1, 0))
    }
}

/// Record in `log` the chunks of slice `m` (`len` entries) from `*next` on that end at or
/// before `end` (every group they meet rebuilt) and were not logged before (`done`).
fn record_chunks(
    log: &mut VerifyLog,
    m: Material,
    (next, end, len): (&mut usize, usize, usize),
    done: &[Option<u64>],
) -> Result<(), SolveError> {
    while *next < done.len() && len.min((*next + 1) * CHUNK) <= end {
        if done[*next].is_none() {
            let size = len.min((*next + 1) * CHUNK) - *next * CHUNK;
            log.record(m, *next, size as u64)?;
        }
        *next += 1;
    }
    Ok(())
}

/// Says how much of a pass its log already holds (`what` names the slice, or is empty).
fn note_resumed(log: &VerifyLog, what: &str, progress: &dyn Progress) {
    if log.resumed() > 0 {
        progress.note(&format!(
            "resuming the verification{what}: {} chunks of {CHUNK} entries were checked before",
            log.resumed()
        ));
    }
}
