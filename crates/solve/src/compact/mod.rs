//! The compact solver: one byte a position under a perfect index, no keys, no reverse graph
//! of the whole table.
//!
//! What it owns:
//! - the core index (`index`): positions in which both sides are one group, each side ranked
//!   among the connected sets of its size, runs of equal advancement kept together, one of
//!   each left-right mirror pair and of each pair of colour twins stored (`symmetry`), no gaps;
//! - solving a material slice layer by layer (`layer`): a layer (one advancement of each
//!   side) is solved once every layer its moves lead into is, highest total advancement
//!   first. In Ordo X every turn has a forward step, so a layer has no move inside it and
//!   one pass values it; in classic Ordo sideways moves stay inside the layer and are solved
//!   by distance over a small local graph;
//! - the *shell*: a position whose side to move is split only follows a capture (a move that
//!   captures nothing leaves the opponent as it was, one group, ORDO-4.3), so it has no
//!   predecessor of its own material and is valued on demand by one step forward into
//!   solved positions ([`CompactTables::probe`]);
//! - [`CompactTables::build`] (endgame slices by material, fewer pieces first, every
//!   capture probing the smaller slices already built) and [`crate::solve_game`] (every core
//!   position of every material a small-board start can come down to, then the start).
//!
//! Values are one byte: 0 for a draw, otherwise the distance to the
//! end in plies plus one (see [`Value::code`]); a distance beyond 254 plies is refused.
//! Table files (`store`, format 4) hold the values and what rebuilds the index; the drivers
//! that build, save, resume and verify on disk are in `crate::on_disk`.

mod bits;
mod check;
mod checkpoint;
pub use checkpoint::carries_check;
mod digest;
mod index;
mod layer;
mod shell;
mod store;
mod symmetry;
mod verify_log;

use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::sync::Arc;

use rayon::prelude::*;

pub use digest::{content_checksum, parse_list, Listed};
pub use index::{CoreIndex, IndexSize, Layer, Sets};
pub use shell::ShellCache;
pub use store::{CompactExpect, CompactHeader, TableKind, FORMAT};
pub use symmetry::{colour_flip, flip_rows, mirror};
pub use verify_log::log_path as verify_log_path;

/// The version of the core index's layout (which entry a position has). A table file
/// records it and is refused by a build whose index differs: change it with the index.
/// 2: the dense index with mirror pairs and colour twins stored once.
pub const INDEX_SCHEME: u32 = 2;

/// A slice's build writes its checkpoint at least this long after the last one (longer if
/// writing took over a tenth of that), and whenever it is asked to stop.
pub const CHECKPOINT_SECONDS: std::time::Duration = std::time::Duration::from_secs(30);

use super::material::Material;
use super::value::Value;
use super::{Outcome, Phase, Progress, Setup, SolveError, Verification};
use crate::notation::format_move;
use crate::rules::{Color, Dims, Engine, Move, Variant};

/// The value of a stored byte.
pub fn decode(code: u8) -> Value {
    Value::from_code(u16::from(code))
}

/// One solved material: its core index and a byte per index entry.
pub struct Slice {
    /// The map between the slice's stored positions and their places in `values`.
    pub index: CoreIndex,
    /// One value byte per stored position, in index order (win, loss or draw and the
    /// distance in plies, as encoded by the solver's value byte).
    pub values: Vec<u8>,
}

/// Prints the index and the number of value bytes (not the bytes: millions of them).
impl std::fmt::Debug for Slice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slice")
            .field("index", &self.index)
            .field("values", &format_args!("{} bytes", self.values.len()))
            .finish()
    }
}

/// What building one slice gave.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SliceStats {
    /// The slice's material: the pieces of each side (`3v2` in JSON).
    #[serde(with = "crate::text")]
    pub material: Material,
    /// Stored positions, one byte each: one of each mirror pair, and with equal material
    /// White to move only.
    pub entries: u64,
    /// Core positions the slice answers for: the stored ones, their mirror images, and
    /// their colour twins (Black to move with equal material, otherwise the positions of the
    /// material with the counts swapped). Wins, losses and draws count the same way.
    pub positions: u64,
    /// Core positions won for the side to move.
    pub wins: u64,
    /// Core positions lost for the side to move.
    pub losses: u64,
    /// Core positions drawn.
    pub draws: u64,
    /// Longest distance, plies.
    pub longest: u16,
    /// Moves generated (from stored positions), and of them the moves inside a layer
    /// (sideways).
    pub moves: u64,
    /// Of [`SliceStats::moves`], those that stay in their layer (sideways moves).
    pub layer_moves: u64,
    /// Number of layers.
    pub layers: u64,
}

/// The solved core slices of one game and board.
pub struct CompactTables {
    /// The board the tables are for.
    pub dims: Dims,
    /// The rules the tables are for.
    pub variant: Variant,
    /// The slices solved or loaded so far, by material.
    pub slices: BTreeMap<Material, Slice>,
    sets: HashMap<(Color, u32), Arc<Sets>>,
    /// The sizes measured so far ([`CompactTables::core_size`]): a plan sizes every slice
    /// once, however many jobs read it.
    sized: BTreeMap<Material, IndexSize>,
    /// Shell values computed lately, sized for the largest slice indexed.
    shell: ShellCache,
    /// The verdicts of the in-sweep check of the slices built by these tables (in one go, or
    /// resumed from a checkpoint that kept the verdict of its groups; not loaded): see
    /// [`CompactTables::build_check`].
    checks: BTreeMap<Material, Verification>,
    /// For a plan ([`CompactTables::plan_only`]): the rank pairs past which a slice is sized
    /// by sampling rather than counted.
    plan_budget: Option<u64>,
}

/// A slice being built: the tables below it and the layers solved so far.
struct Building<'a, E> {
    tables: &'a CompactTables,
    material: Material,
    index: &'a CoreIndex,
    values: &'a [u8],
    engine: PhantomData<fn() -> E>,
}

/// The entries to size the shell cache for, with `entries` in the largest slice: none in
/// Ordo X, where a capture leaves the captured side one group (ORDOX-4.1), so no shell
/// position is ever valued and the cache keeps its few minimum slots.
pub fn shell_entries(variant: Variant, entries: usize) -> usize {
    match variant {
        Variant::Classic => entries,
        Variant::X => 0,
    }
}

/// The most rank pairs (White set, Black set, side to move) a slice's index visits.
pub const MAX_RANK_PAIRS: u64 = 1 << 40;

/// Prints the board, the rules and the materials of the slices held (not their tables).
impl std::fmt::Debug for CompactTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompactTables")
            .field("dims", &self.dims)
            .field("variant", &self.variant)
            .field("slices", &self.slices.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl CompactTables {
    /// No slice yet.
    pub fn new(dims: Dims, variant: Variant) -> CompactTables {
        CompactTables {
            dims,
            variant,
            slices: BTreeMap::new(),
            sets: HashMap::new(),
            sized: BTreeMap::new(),
            shell: ShellCache::default(),
            checks: BTreeMap::new(),
            plan_budget: None,
        }
    }

    /// Tables that only size slices, for a plan of a set that may be beyond this solver: a
    /// slice of more than `budget` rank pairs is sized by sampling ([`CoreIndex::estimate`]),
    /// and [`CompactTables::core_size`] sizes slices it could not build (see
    /// [`CompactTables::buildable`]) instead of refusing them.
    pub fn plan_only(dims: Dims, variant: Variant, budget: u64) -> CompactTables {
        CompactTables {
            plan_budget: Some(budget),
            ..CompactTables::new(dims, variant)
        }
    }

    /// The verdict of the in-sweep check of slice `m` (every stored value recomputed by the
    /// retrograde equation from its successors' values as the build generated them, once its
    /// layer is settled: `layer::check_layer`), if these tables built it, in one go or
    /// resumed from a checkpoint that keeps the verdict of its groups (format 3). It checks the
    /// distance settling at no cost beyond the build; it does not check values changed
    /// after the build ([`CompactTables::verify_slice`], `ordo tb verify`, builds the slice
    /// again and compares), nor the move generation against [`Engine::legal_moves`] (the
    /// full pass, [`CompactTables::verify_slice_full`], does).
    pub fn build_check(&self, m: Material) -> Option<&Verification> {
        self.checks.get(&m)
    }

    fn sets(&mut self, color: Color, k: u32) -> Arc<Sets> {
        let dims = self.dims;
        self.sets
            .entry((color, k))
            .or_insert_with(|| Arc::new(Sets::new(dims, color, k)))
            .clone()
    }

    /// Bytes of the ranked connected sets (of both sides, [`Sets::bytes`]) that the slices
    /// `materials` use, of those these tables hold.
    pub fn sets_bytes<'a>(&self, materials: impl IntoIterator<Item = &'a Material>) -> u64 {
        let mut keys: Vec<(Color, u32)> = materials
            .into_iter()
            .flat_map(|m| [(Color::White, m.white), (Color::Black, m.black)])
            .collect();
        keys.sort_unstable_by_key(|&(c, k)| (c as u8, k));
        keys.dedup();
        keys.iter()
            .filter_map(|key| self.sets.get(key))
            .map(|s| s.bytes() as u64)
            .sum()
    }

    /// The connected sets of both sides of material `m`, if its index could be built.
    fn index_sets(&mut self, m: Material) -> Result<[Arc<Sets>; 2], SolveError> {
        if m.white == 0 || m.black == 0 || m.white + m.black > self.dims.len() as u32 {
            return Err(SolveError::Input(format!(
                "material {m} does not fit a table of the {} board",
                self.dims
            )));
        }
        let sets = [
            self.sets(Color::White, m.white),
            self.sets(Color::Black, m.black),
        ];
        if self.plan_budget.is_none() {
            self.check_pairs(m, &sets)?;
        }
        Ok(sets)
    }

    /// Sizing and building the index visit every rank pair of a slice, 64 a word operation,
    /// three times (measure, count, mark); what it keeps is counted by `CoreIndex::measure`
    /// and held to the memory limit. Past 2^40 pairs (hours of marking for one slice) a
    /// slice is refused before any is visited.
    fn check_pairs(&self, m: Material, sets: &[Arc<Sets>; 2]) -> Result<(), SolveError> {
        let pairs = 2 * sets[0].len() as u64 * sets[1].len() as u64;
        if pairs > MAX_RANK_PAIRS {
            return Err(SolveError::TooLarge(format!(
                "slice {m} of {} on {} pairs {} connected sets of White with {} of Black: {pairs} rank pairs, over the 2^40 the compact index visits",
                self.variant,
                self.dims,
                sets[0].len(),
                sets[1].len()
            )));
        }
        Ok(())
    }

    /// Whether this solver can build slice `m`: its rank pairs within [`MAX_RANK_PAIRS`] and
    /// its core positions (as sized) under 2^32; the error says which bound it passes.
    pub fn buildable(&mut self, m: Material) -> Result<(), SolveError> {
        let sets = self.index_sets(m)?;
        self.check_pairs(m, &sets)?;
        match self.core_size(m)?.entries {
            e if e >= 1 << 32 => Err(self.too_many(m)),
            _ => Ok(()),
        }
    }

    /// The rank pairs sizing slice `m` visits (both sides to move, every connected set of
    /// White with every one of Black): the work of [`CompactTables::core_size`], for a
    /// progress line; 0 once measured.
    pub fn pairs_to_size(&mut self, m: Material) -> Result<u64, SolveError> {
        if self.sized.contains_key(&m) {
            return Ok(0);
        }
        let [w, b] = self.index_sets(m)?;
        let pairs = 2 * w.len() as u64 * b.len() as u64;
        Ok(self.plan_budget.map_or(pairs, |b| pairs.min(b)))
    }

    fn too_many(&self, m: Material) -> SolveError {
        SolveError::TooLarge(format!(
            "slice {m} of {} on {} has 2^32 or more stored positions",
            self.variant, self.dims
        ))
    }

    /// The core index of material `m`.
    pub fn core_index(&mut self, m: Material) -> Result<CoreIndex, SolveError> {
        let sets = self.index_sets(m)?;
        let index = CoreIndex::new(sets).ok_or_else(|| self.too_many(m))?;
        self.shell.grow(shell_entries(self.variant, index.len()));
        Ok(index)
    }

    /// The sizes of the core index of material `m`, counted without building it (a memory
    /// estimate: a row of marks is all it allocates besides the connected sets).
    pub fn core_size(&mut self, m: Material) -> Result<IndexSize, SolveError> {
        let size = match (self.sized.get(&m), self.plan_budget) {
            (Some(&size), _) => size,
            (None, None) => CoreIndex::measure(self.index_sets(m)?),
            (None, Some(budget)) => CoreIndex::estimate(self.index_sets(m)?, budget),
        };
        self.sized.insert(m, size);
        if size.entries >= 1 << 32 && self.plan_budget.is_none() {
            return Err(self.too_many(m));
        }
        Ok(size)
    }

    /// Build every slice up to `max` not built yet, fewer pieces first (a material with
    /// fewer White than Black pieces is answered by its colour twin, see
    /// [`stored_material`]); `each` hears of every slice as it is done.
    pub fn build<E: Engine>(
        &mut self,
        max: Material,
        mut each: impl FnMut(&SliceStats),
    ) -> Result<Vec<SliceStats>, SolveError> {
        let mut all = Vec::new();
        for m in Material::up_to(max.white, max.black) {
            let m = stored_material(m);
            if self.slices.contains_key(&m) {
                continue;
            }
            let stats = self.build_slice::<E>(m, &super::Silent)?;
            each(&stats);
            all.push(stats);
        }
        Ok(all)
    }

    /// Build slice `m`; every smaller slice must be built. `progress` hears of every layer
    /// group done ([`Phase::BUILDING`], in stored positions).
    pub fn build_slice<E: Engine>(
        &mut self,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceStats, SolveError> {
        self.build_slice_resuming::<E>(m, progress, None)
    }

    /// [`CompactTables::build_slice`] through the checkpoint file `checkpoint`: a valid one
    /// (see `checkpoint.rs`) gives the layer groups already finished, which are skipped (a
    /// refused one is said through [`Progress::note`] and ignored); the groups done are
    /// written to it every `CHECKPOINT_SECONDS` or more (at most a tenth of the time goes
    /// to writing), and at the first group boundary after [`Progress::stop_requested`],
    /// which ends the build with [`SolveError::Interrupted`]. The caller removes the file
    /// once the slice is saved.
    pub fn build_slice_resuming<E: Engine>(
        &mut self,
        m: Material,
        progress: &dyn Progress,
        checkpoint: Option<&std::path::Path>,
    ) -> Result<SliceStats, SolveError> {
        if let Some(file) = checkpoint {
            SolveError::refuse_special(file)?;
        }
        let index = self.core_index(m)?;
        let groups = index.layers();
        let of = checkpoint::Of {
            dims: self.dims,
            variant: self.variant,
            material: m,
            index: &index,
            groups: &groups,
        };
        let mut values = vec![0u8; index.len()];
        let mut kept = self.resume(&of, checkpoint, &mut values, progress);
        let total = index.len() as u64;
        let (mut saved, mut cost) = (std::time::Instant::now(), std::time::Duration::ZERO);
        progress.update(Phase::BUILDING, of.done(kept.groups) as u64, Some(total));
        while kept.groups < groups.len() {
            if progress.stop_requested() {
                return Err(self.stop(&of, checkpoint, &kept, &values));
            }
            let group = &groups[kept.groups];
            let within = Within::new(progress, Phase::BUILDING, of.done(kept.groups), total);
            for (s, v) in self.solve_group::<E>(m, &index, &mut values, group, &within)? {
                kept.stats.add(&s);
                if let Some(check) = kept.check.as_mut() {
                    check.checked += v.checked;
                    check.mismatches += v.mismatches;
                    check.examples.extend(v.examples);
                    check.examples.truncate(5);
                }
            }
            kept.groups += 1;
            progress.update(Phase::BUILDING, of.done(kept.groups) as u64, Some(total));
            let due = saved.elapsed() >= (10 * cost).max(CHECKPOINT_SECONDS);
            if let Some(file) = checkpoint.filter(|_| due && kept.groups < groups.len()) {
                let clock = std::time::Instant::now();
                of.save(file, &kept, &values)
                    .map_err(|e| SolveError::io(file, e))?;
                (saved, cost) = (std::time::Instant::now(), clock.elapsed());
            }
        }
        self.slices.insert(m, Slice { index, values });
        // The verdict of every group, this run's and those of the checkpoint's runs.
        match kept.check {
            Some(check) => self.checks.insert(m, check),
            None => self.checks.remove(&m),
        };
        Ok(kept.stats)
    }

    /// The layer groups a checkpoint keeps (none if there is none or it is refused).
    fn resume(
        &self,
        of: &checkpoint::Of,
        checkpoint: Option<&std::path::Path>,
        values: &mut [u8],
        progress: &dyn Progress,
    ) -> checkpoint::Kept {
        let fresh = || checkpoint::Kept {
            groups: 0,
            stats: SliceStats {
                material: of.material,
                entries: of.index.len() as u64,
                ..SliceStats::default()
            },
            check: Some(Verification::default()),
        };
        let Some(file) = checkpoint.filter(|f| f.exists()) else {
            return fresh();
        };
        match of.load(file, values) {
            Ok(kept) => {
                let check = match kept.check {
                    Some(_) => "their check kept",
                    None => "no check kept: the slice is verified after its build",
                };
                progress.note(&format!(
                    "resuming slice {} from {}: {} of {} layer groups done ({check})",
                    of.material,
                    file.display(),
                    kept.groups,
                    of.groups.len()
                ));
                kept
            }
            Err(why) => {
                progress.note(&format!(
                    "checkpoint {} not used: {why}; building slice {} from its first layer group",
                    file.display(),
                    of.material
                ));
                values.fill(0);
                fresh()
            }
        }
    }

    /// Write the checkpoint (if any) and say what was kept.
    fn stop(
        &self,
        of: &checkpoint::Of,
        checkpoint: Option<&std::path::Path>,
        kept: &checkpoint::Kept,
        values: &[u8],
    ) -> SolveError {
        let (m, n, done) = (of.material, of.groups.len(), of.done(kept.groups));
        let so_far = format!(
            "slice {m} stopped after {} of {n} layer groups ({done} of {} entries)",
            kept.groups,
            of.index.len()
        );
        match checkpoint.map(|f| (f, of.save(f, kept, values))) {
            Some((f, Ok(()))) => {
                SolveError::Interrupted(format!("{so_far}, kept in {}", f.display()))
            }
            Some((f, Err(e))) => {
                SolveError::io(f, format!("{so_far}; writing the checkpoint: {e}"))
            }
            None => SolveError::Interrupted(format!("{so_far}; no checkpoint file, nothing kept")),
        }
    }

    /// Solve one layer group of slice `m` (its layers side by side) into `values`, whose
    /// slots before the group are solved.
    fn solve_group<E: Engine>(
        &self,
        m: Material,
        index: &CoreIndex,
        values: &mut [u8],
        group: &[Layer],
        within: &Within,
    ) -> Result<Vec<(SliceStats, Verification)>, SolveError> {
        let (start, end) = (group[0].start, group[group.len() - 1].end);
        let (done, rest) = values.split_at_mut(start);
        let b = Building::<E> {
            tables: self,
            material: m,
            index,
            values: done,
            engine: PhantomData,
        };
        let mut rest = &mut rest[..end - start];
        let mut chunks = Vec::with_capacity(group.len());
        for &l in group {
            let (chunk, tail) = std::mem::take(&mut rest).split_at_mut(l.len());
            chunks.push((l, chunk));
            rest = tail;
        }
        chunks
            .into_par_iter()
            .map(|(l, out)| within.after(l.len(), b.solve_layer(l, out)))
            .collect()
    }

    /// Layer group `group` of `slice` (of material `m`, held in these tables) solved again
    /// from the held values before it, each layer compared with its held bytes
    /// (`Building::recheck_layer`).
    fn recheck_group<E: Engine>(
        &self,
        m: Material,
        slice: &Slice,
        group: &[Layer],
        within: &Within,
    ) -> Result<Vec<Verification>, SolveError> {
        let start = group.first().map_or(0, |l| l.start);
        let b = Building::<E> {
            tables: self,
            material: m,
            index: &slice.index,
            values: &slice.values[..start],
            engine: PhantomData,
        };
        group
            .par_iter()
            .map(|&l| within.after(l.len(), b.recheck_layer(l, &slice.values[l.start..l.end])))
            .collect()
    }

    /// The value of `occ` with `stm` to move, from the solved slices: a core position is
    /// read, a shell position (side to move split) is valued from its successors, or read
    /// from the cache of shell values. Each side's set is ranked once.
    fn value_of<E: Engine>(&self, occ: [u128; 2], stm: Color) -> Result<Value, SolveError> {
        if occ[stm as usize] == 0 {
            return Ok(Value::Loss(0));
        }
        let m = Material {
            white: occ[0].count_ones(),
            black: occ[1].count_ones(),
        };
        let stored = stored_material(m);
        let slice = self.slices.get(&stored).ok_or_else(|| {
            SolveError::Input(format!("the {stored} slice of {} is not built", self.dims))
        })?;
        let (occ, stm) = if stored == m {
            (occ, stm)
        } else {
            colour_flip(self.dims, occ, stm)
        };
        let (mover, sets) = (stm.opponent(), &slice.index.sets);
        let no_place = |why: String| {
            SolveError::Input(format!("the position has no place in the {m} table: {why}"))
        };
        let Some(moved) = sets[mover as usize].rank(occ[mover as usize]) else {
            return Err(no_place(format!(
                "{mover}, who just moved, must be one group (ORDO-4.3)"
            )));
        };
        let Some(to_move) = sets[stm as usize].rank(occ[stm as usize]) else {
            return self.shell_cached::<E>(occ, stm);
        };
        let mut r = [moved; 2];
        r[stm as usize] = to_move;
        let slot = slice.index.slot_of(stm, [r[0].0, r[1].0], [r[0].1, r[1].1]);
        let slot = slot.ok_or_else(|| {
            no_place(format!(
                "{stm}, to move, stands on its opponent's home row (ORDO-2.3)"
            ))
        })?;
        Ok(decode(slice.values[slot]))
    }

    /// The value of a shell position (`stm` to move split, its opponent one group), from
    /// the cache or by one step forward (then cached).
    fn shell_cached<E: Engine>(&self, occ: [u128; 2], stm: Color) -> Result<Value, SolveError> {
        if let Some(code) = self.shell.get(occ, stm) {
            return Ok(decode(code));
        }
        let value = self.shell_value::<E>(occ, stm)?;
        if let Ok(code) = u8::try_from(value.code()) {
            self.shell.put(occ, stm, code);
        }
        Ok(value)
    }

    /// The value of a shell position, by one step forward.
    fn shell_value<E: Engine>(&self, occ: [u128; 2], stm: Color) -> Result<Value, SolveError> {
        let mut split = [false; 2];
        split[stm as usize] = true;
        let e = E::from_occupancy_split(self.dims, self.variant, stm, occ, split)
            .map_err(|e| SolveError::Input(e.to_string()))?;
        let mut buf = Vec::new();
        e.successor_occupancies(&mut buf);
        let n = [occ[0].count_ones(), occ[1].count_ones()];
        let same = |s: &&[u128; 2]| [s[0].count_ones(), s[1].count_ones()] == n;
        let mut tally = layer::Tally::default();
        // The moves without capture first: once a successor is lost at once (a win in 1),
        // the others cannot change the value, and are not valued.
        let captures = buf.iter().filter(|s| !same(s));
        for &s in buf.iter().filter(same).chain(captures) {
            if tally.wins_at_once() {
                break;
            }
            tally.fold(self.value_of::<E>(s, stm.opponent())?);
        }
        Ok(tally.value())
    }

    /// The value of a position (core or shell) for the side to move.
    pub fn probe<E: Engine>(&self, e: &E) -> Result<Value, SolveError> {
        if e.dims() != self.dims || e.variant() != self.variant {
            return Err(SolveError::Input(format!(
                "a {} position on {} probed in tables of {} on {}",
                e.variant(),
                e.dims(),
                self.variant,
                self.dims
            )));
        }
        self.value_of::<E>(e.occupancy(), e.side_to_move())
    }

    /// Every legal move of `e` with the value it leaves the opponent, best first for the
    /// mover: quickest win, then draws, then slowest loss.
    pub fn rank_moves<E: Engine>(&self, e: &E) -> Result<Vec<(Move, Value)>, SolveError> {
        let mut out = Vec::new();
        for m in e.legal_moves() {
            let v = self.probe(&e.apply(&m))?;
            out.push((m, v));
        }
        crate::sort_best_first(&mut out, format_move);
        Ok(out)
    }

    /// Recompute every core value from its successors' values (an independent check of the
    /// layer order and the distance settling); the number of positions checked, or the first
    /// position whose stored value disagrees.
    pub fn verify<E: Engine>(&self) -> Result<u64, SolveError> {
        let mut checked = 0;
        for (m, slice) in &self.slices {
            checked += (0..slice.values.len())
                .into_par_iter()
                .map_init(Vec::new, |buf, i| self.verify_one::<E>(slice, i, buf))
                .map(|r| r.map_err(|e| SolveError::Mismatch(format!("slice {m}: {e}"))))
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
        }
        Ok(checked)
    }

    fn verify_one<E: Engine>(
        &self,
        slice: &Slice,
        i: usize,
        buf: &mut Vec<E>,
    ) -> Result<u64, SolveError> {
        let (occ, stm) = slice
            .index
            .position(i)
            .ok_or_else(|| SolveError::Mismatch(format!("slot {i} has no position")))?;
        let e = E::from_occupancy(self.dims, self.variant, stm, occ)
            .map_err(|e| SolveError::Mismatch(format!("slot {i}: {occ:x?}: {e}")))?;
        e.successors(buf);
        let values = buf
            .iter()
            .map(|s| self.value_of::<E>(s.occupancy(), s.side_to_move()))
            .collect::<Result<Vec<_>, _>>()?;
        let (stored, want) = (decode(slice.values[i]), Value::from_successors(values));
        if stored != want {
            return Err(SolveError::Mismatch(format!(
                "{}: stored {stored}, successors give {want}",
                crate::notation::format_position(&e.to_position())
            )));
        }
        Ok(1)
    }

    /// Bytes held by the value tables.
    pub fn table_bytes(&self) -> u64 {
        self.slices.values().map(|s| s.values.len() as u64).sum()
    }

    /// Bytes held by the slices' indexes (their marks and directories).
    pub fn index_bytes(&self) -> u64 {
        self.slices.values().map(|s| s.index.bytes() as u64).sum()
    }
}

/// The materials stored for every material up to `max` (each its own or its colour twin's,
/// see [`stored_material`]), fewer pieces first, each once.
pub fn stored_up_to(max: Material) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    for m in Material::up_to(max.white, max.black) {
        let m = stored_material(m);
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// The material whose table answers for `m`: `m` itself when White has at least as many
/// pieces, otherwise its colour twin (the counts swapped), whose positions turned over with
/// the colours swapped and the other side to move are `m`'s (each player's directions and
/// goal are its own, ORDO-1.3, ORDO-1.4).
pub fn stored_material(m: Material) -> Material {
    if m.white >= m.black {
        m
    } else {
        Material {
            white: m.black,
            black: m.white,
        }
    }
}

impl SliceStats {
    /// Count `images` core positions of value `v`.
    fn count(&mut self, v: Value, images: u64) {
        self.positions += images;
        match v {
            Value::Win(_) => self.wins += images,
            Value::Loss(_) => self.losses += images,
            Value::Draw => self.draws += images,
        }
        self.longest = self.longest.max(v.distance().unwrap_or(0));
    }

    /// Add the counts of `s` (layers, positions, values, moves); the longest is the longer.
    fn add(&mut self, s: &SliceStats) {
        self.entries += s.entries;
        self.layers += s.layers;
        self.positions += s.positions;
        self.wins += s.wins;
        self.losses += s.losses;
        self.draws += s.draws;
        self.longest = self.longest.max(s.longest);
        self.moves += s.moves;
        self.layer_moves += s.layer_moves;
    }
}

/// The stored slices a build of `m` reads, fewer pieces first: every slice a chain of
/// captures leads into ([`crate::material::ancestors`]: a shell position of a smaller slice is valued
/// through its own captures), each as the material that stores it
/// ([`stored_material`]), once.
pub fn needs(variant: Variant, m: Material) -> Vec<Material> {
    let mut v: Vec<Material> = crate::material::ancestors(variant, m)
        .into_iter()
        .map(stored_material)
        .collect();
    v.sort_by_key(|p| p.build_order());
    v.dedup();
    v
}

/// What [`crate::solve_game`] reports about a solved small board.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CompactGame {
    /// The start's value, game length and winning first moves (flattened into the JSON).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Every slice built, fewer pieces first.
    pub slices: Vec<SliceStats>,
}

/// The material of the `setup` start of `dims`: every slice up to it is in a game's tables.
pub fn start_material(variant: Variant, dims: Dims, setup: Setup) -> Result<Material, SolveError> {
    let start = setup.start(dims, variant)?;
    Ok(Material {
        white: start.count(Color::White) as u32,
        black: start.count(Color::Black) as u32,
    })
}

/// The report of the `setup` start from `tables`, which hold every slice up to its material
/// (`slices` describes them).
pub fn report<E: Engine>(
    tables: &CompactTables,
    setup: Setup,
    slices: Vec<SliceStats>,
) -> Result<CompactGame, SolveError> {
    let (variant, dims) = (tables.variant, tables.dims);
    let start_pos = setup.start(dims, variant)?;
    let start = E::from_position(&start_pos).map_err(|e| SolveError::Input(e.to_string()))?;
    let value = tables.probe(&start)?;
    let moves = tables.rank_moves(&start)?;
    Ok(CompactGame {
        outcome: Outcome::new(variant, dims, setup, value, &moves),
        slices,
    })
}

impl std::fmt::Display for CompactGame {
    /// The report as `ordo solve` prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.outcome)?;
        let sum = |g: fn(&SliceStats) -> u64| self.slices.iter().map(g).sum::<u64>();
        writeln!(
            f,
            "core positions {} in {} slices ({} bytes of values): {} won, {} lost, {} drawn for the side to move",
            sum(|s| s.positions),
            self.slices.len(),
            sum(|s| s.entries),
            sum(|s| s.wins),
            sum(|s| s.losses),
            sum(|s| s.draws)
        )?;
        writeln!(
            f,
            "moves {} ({} inside a layer); longest distance {} plies",
            sum(|s| s.moves),
            sum(|s| s.layer_moves),
            self.slices.iter().map(|s| s.longest).max().unwrap_or(0)
        )
    }
}

/// The progress of a phase inside one layer group, whose layers are solved side by side:
/// each layer done is reported as it ends (a group of a large slice takes minutes, and a run
/// without a terminal would otherwise log nothing until its end).
pub(crate) struct Within<'a> {
    progress: &'a dyn Progress,
    phase: Phase,
    /// Units done before the group, and of the whole phase.
    before: u64,
    total: u64,
    /// Units of the group done; under the lock so that the counts reported only grow.
    done: std::sync::Mutex<u64>,
}

impl<'a> Within<'a> {
    pub(crate) fn new(progress: &'a dyn Progress, phase: Phase, before: usize, total: u64) -> Self {
        Within {
            progress,
            phase,
            before: before as u64,
            total,
            done: std::sync::Mutex::new(0),
        }
    }

    /// A layer of `len` units has ended with `r`: report it, and pass `r` on.
    fn after<R>(&self, len: usize, r: R) -> R {
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        *done += len as u64;
        self.progress
            .update(self.phase, self.before + *done, Some(self.total));
        r
    }
}
