//! Endgame tablebases: every position of a board with given material, slice by slice.
//!
//! A slice holds the positions with exactly `w` White and `b` Black pieces, in two halves by
//! the side to move. The player who just moved is one group (ORDO-4.3 holds after every
//! legal move), so its pieces are ranked among the connected sets of its size on the board
//! (enumerated once, sorted, found by binary search); the side to move's pieces are ranked
//! in the combinatorial number system among the squares left (classic Ordo, where it may be
//! split, ORDO-9.3), or among the connected sets too (Ordo X, where a capture leaves the
//! opponent one group, ORDOX-4.1). The index is the product of the two ranks: perfect in
//! classic Ordo, with gaps for overlapping sets in Ordo X. Positions in which the side to
//! move stands on its opponent's home row cannot arise (ORDO-2.3) and are gaps too.
//!
//! A capture leads into a slice with fewer pieces, which is built first (fewer pieces
//! first, as chess tablebases are); a capture of the last piece ends the game (ORDO-10.2).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::analysis::{self as retro, Graph, Target, NO_POSITION};
use super::file::{self, Header};
use crate::rules::{Color, Dims, Engine, Variant};
use crate::solve::{connected_sets_bounded, require_slices};
use crate::solve::{BuildOptions, Material, SliceReport, SolveError, Value};

/// Binomial coefficients C(n, k) for n <= 128, k <= 16.
struct Binomial([[u64; 17]; 129]);

/// The table's 2193 entries say nothing a reader of `{:?}` needs: its bounds only.
impl std::fmt::Debug for Binomial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Binomial(C(n, k) for n <= 128, k <= 16)")
    }
}

impl Binomial {
    fn new() -> Binomial {
        let mut t = [[0u64; 17]; 129];
        for n in 0..=128 {
            t[n][0] = 1;
            for k in 1..=16.min(n) {
                t[n][k] = t[n - 1][k - 1].saturating_add(if k < n { t[n - 1][k] } else { 0 });
            }
        }
        Binomial(t)
    }
    fn c(&self, n: u32, k: u32) -> u64 {
        if k > n || k > 16 {
            0
        } else {
            self.0[n as usize][k as usize]
        }
    }
}

/// Memory a slice build needs per index entry at its peak, with some margin (measured:
/// 38 bytes in classic 3v2 and 139 in Ordo X 4v4 on 10 x 8, whose positions have far more
/// moves).
pub fn bytes_per_entry(variant: Variant) -> u64 {
    match variant {
        Variant::Classic => 64,
        Variant::X => 160,
    }
}

/// The index of one slice.
#[derive(Debug)]
pub struct SliceIndex {
    dims: Dims,
    variant: Variant,
    material: Material,
    /// Connected sets of White's and Black's sizes.
    conn: [Vec<u128>; 2],
    /// Size of each half: [Black to move (White connected), White to move].
    half: [u64; 2],
    binomial: Binomial,
}

impl SliceIndex {
    pub fn new(dims: Dims, variant: Variant, material: Material) -> Result<SliceIndex, SolveError> {
        Self::bounded(dims, variant, material, u64::from(u32::MAX) - 1)
    }

    /// The index of a slice, refused (without enumerating more than a bounded number of
    /// connected sets) if it would have more than `max_entries` indices.
    pub fn bounded(
        dims: Dims,
        variant: Variant,
        material: Material,
        max_entries: u64,
    ) -> Result<SliceIndex, SolveError> {
        Self::check_material(dims, material)?;
        let max_entries = max_entries.min(u64::from(u32::MAX) - 1);
        let binomial = Binomial::new();
        let conn = Self::bounded_sets(dims, variant, material, max_entries, &binomial)?;
        let half = Self::halves(dims, variant, material, &conn, &binomial);
        let total = half[0].saturating_add(half[1]);
        if total > max_entries {
            return Err(Self::too_large(
                dims,
                variant,
                material,
                max_entries,
                Some(total),
            ));
        }
        Ok(SliceIndex {
            dims,
            variant,
            material,
            conn,
            half,
            binomial,
        })
    }

    /// Refuse a material that cannot be a slice of `dims`.
    fn check_material(dims: Dims, material: Material) -> Result<(), SolveError> {
        if material.white == 0
            || material.black == 0
            || material.white + material.black > dims.len() as u32
        {
            return Err(SolveError::Input(format!(
                "material {material} does not fit a table of the {dims} board"
            )));
        }
        if material.white > 16 || material.black > 16 {
            return Err(SolveError::TooLarge(format!(
                "material {material}: at most 16 pieces a side"
            )));
        }
        Ok(())
    }

    /// The refusal of a slice over `max_entries` indices (`total`: its size, where known).
    fn too_large(
        dims: Dims,
        variant: Variant,
        material: Material,
        max_entries: u64,
        total: Option<u64>,
    ) -> SolveError {
        SolveError::TooLarge(match total {
            Some(total) => format!(
                "slice {material} of {variant} on {dims} has {total} indices; at most {max_entries} fit"
            ),
            None => format!(
                "slice {material} of {variant} on {dims} has more than the {max_entries} indices that fit (sized no further)"
            ),
        })
    }

    /// Each side's connected sets, [White, Black], the side with fewer pieces first (its
    /// sets bound how many of the other's fit); refused as soon as an enumeration shows
    /// that the slice would exceed `max_entries`.
    fn bounded_sets(
        dims: Dims,
        variant: Variant,
        material: Material,
        max_entries: u64,
        binomial: &Binomial,
    ) -> Result<[Vec<u128>; 2], SolveError> {
        let n = dims.len() as u32;
        let (small, large) = if material.white <= material.black {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let cap = |other_per_set: u64| {
            usize::try_from((max_entries / other_per_set.max(1)).max(1 << 16)).unwrap_or(usize::MAX)
        };
        // Classic: each connected set of the mover pairs with C(n - its size, other size).
        let classic_other =
            |mover: Color| binomial.c(n - material.count(mover), material.count(mover.opponent()));
        let sets = |side: Color, cap: usize| {
            connected_sets_bounded(dims, material.count(side), cap)
                .ok_or_else(|| Self::too_large(dims, variant, material, max_entries, None))
        };
        let small_sets = match variant {
            Variant::Classic => sets(small, cap(classic_other(small)))?,
            Variant::X => sets(small, cap(1))?,
        };
        let large_sets = match variant {
            Variant::Classic => sets(large, cap(classic_other(large)))?,
            Variant::X => sets(large, cap(small_sets.len() as u64))?,
        };
        let mut conn = [Vec::new(), Vec::new()];
        conn[small as usize] = small_sets;
        conn[large as usize] = large_sets;
        Ok(conn)
    }

    /// Size of each half of the index: [Black to move (White connected), White to move].
    fn halves(
        dims: Dims,
        variant: Variant,
        material: Material,
        conn: &[Vec<u128>; 2],
        binomial: &Binomial,
    ) -> [u64; 2] {
        let n = dims.len() as u32;
        let other = |mover: Color| -> u64 {
            let stm = mover.opponent();
            match variant {
                Variant::Classic => binomial.c(n - material.count(mover), material.count(stm)),
                Variant::X => conn[stm as usize].len() as u64,
            }
        };
        [
            (conn[0].len() as u64).saturating_mul(other(Color::White)),
            (conn[1].len() as u64).saturating_mul(other(Color::Black)),
        ]
    }

    /// Number of indices.
    pub fn len(&self) -> usize {
        (self.half[0] + self.half[1]) as usize
    }

    /// Whether the slice is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// The occupancy and side to move of index `i`; `None` for a gap of the index.
    pub fn unrank(&self, i: usize) -> Option<([u128; 2], Color)> {
        let mut i = i as u64;
        let stm = if i < self.half[0] {
            Color::Black
        } else {
            i -= self.half[0];
            Color::White
        };
        let mover = stm.opponent();
        let per = self.half[1 - stm as usize] / self.conn[mover as usize].len().max(1) as u64;
        let (ci, oi) = (i / per, i % per);
        let mover_set = self.conn[mover as usize][ci as usize];
        let stm_set = match self.variant {
            Variant::Classic => self.unrank_combination(oi, self.material.count(stm), mover_set),
            Variant::X => self.conn[stm as usize][oi as usize],
        };
        if stm_set & mover_set != 0 {
            return None;
        }
        let mut occ = [0u128; 2];
        occ[mover as usize] = mover_set;
        occ[stm as usize] = stm_set;
        Some((occ, stm))
    }

    /// The index of a position of this material, `None` if the index has no place for it
    /// (the player who just moved is split, or in Ordo X the side to move is).
    pub fn rank(&self, occ: [u128; 2], stm: Color) -> Option<usize> {
        let mover = stm.opponent();
        let ci = self.conn[mover as usize]
            .binary_search(&occ[mover as usize])
            .ok()? as u64;
        let (oi, per) = match self.variant {
            Variant::Classic => (
                self.rank_combination(occ[stm as usize], occ[mover as usize]),
                self.binomial.c(
                    self.dims.len() as u32 - self.material.count(mover),
                    self.material.count(stm),
                ),
            ),
            Variant::X => (
                self.conn[stm as usize]
                    .binary_search(&occ[stm as usize])
                    .ok()? as u64,
                self.conn[stm as usize].len() as u64,
            ),
        };
        let base = if stm == Color::Black { 0 } else { self.half[0] };
        Some((base + ci * per + oi) as usize)
    }

    /// Rank of `set` among the subsets of its size of the squares outside `skip`.
    fn rank_combination(&self, set: u128, skip: u128) -> u64 {
        let mut r = 0;
        let mut s = set;
        let mut k = 1;
        while s != 0 {
            let sq = s.trailing_zeros();
            let below = if sq == 0 {
                0
            } else {
                skip & ((1u128 << sq) - 1)
            };
            let p = sq - below.count_ones();
            r += self.binomial.c(p, k);
            k += 1;
            s &= s - 1;
        }
        r
    }

    /// The subset of `k` squares outside `skip` whose rank is `r`.
    fn unrank_combination(&self, mut r: u64, k: u32, skip: u128) -> u128 {
        let free: Vec<u32> = (0..self.dims.len() as u32)
            .filter(|&q| skip >> q & 1 == 0)
            .collect();
        let mut set = 0u128;
        let mut hi = free.len() as u32;
        for j in (1..=k).rev() {
            // The largest p < hi with C(p, j) <= r.
            let mut p = hi - 1;
            while self.binomial.c(p, j) > r {
                p -= 1;
            }
            r -= self.binomial.c(p, j);
            set |= 1u128 << free[p as usize];
            hi = p;
        }
        set
    }
}

/// The solved slices of one game and board, for lookups from bigger slices and probes.
#[derive(Debug)]
pub struct RetroTablebase {
    pub dims: Dims,
    pub variant: Variant,
    pub slices: BTreeMap<Material, (SliceIndex, Vec<u16>)>,
}

impl RetroTablebase {
    pub fn new(dims: Dims, variant: Variant) -> RetroTablebase {
        RetroTablebase {
            dims,
            variant,
            slices: BTreeMap::new(),
        }
    }

    /// The value of the position `occ`/`stm` in the loaded slices. A side to move without
    /// pieces has lost (ORDO-10.2); `None` if its slice is not loaded.
    pub fn value(&self, occ: [u128; 2], stm: Color) -> Result<Option<Value>, SolveError> {
        if occ[stm as usize] == 0 {
            return Ok(Some(Value::Loss(0)));
        }
        let m = Material {
            white: occ[0].count_ones(),
            black: occ[1].count_ones(),
        };
        let Some((index, values)) = self.slices.get(&m) else {
            return Ok(None);
        };
        let i = index.rank(occ, stm).ok_or_else(|| {
            SolveError::Input(format!(
                "the position has no place in the {m} table: the player who just moved must be one group{}",
                if self.variant == Variant::X { ", and in Ordo X the side to move too" } else { "" }
            ))
        })?;
        match values[i] {
            NO_POSITION => Err(SolveError::Input(
                "the position cannot arise (ORDO-2.3)".into(),
            )),
            code => Ok(Some(Value::from_code(code))),
        }
    }

    /// The file of a slice under `dir`.
    pub fn path(dir: &Path, variant: Variant, dims: Dims, m: Material) -> PathBuf {
        dir.join(format!("tb-{}-{}-{}.ordotb", variant.name(), dims, m))
    }

    /// Load the slice `m` from `dir`, refusing a file that is not exactly that slice of this
    /// game and board (the checks are those of [`super::load_raw`]).
    pub fn load_slice(&mut self, dir: &Path, m: Material) -> Result<Header, SolveError> {
        let path = Self::path(dir, self.variant, self.dims, m);
        if !path.exists() {
            return Err(SolveError::MissingSlices {
                dir: dir.display().to_string(),
                variant: self.variant,
                dims: self.dims,
                needed: m,
                missing: vec![m],
            });
        }
        let index = SliceIndex::new(self.dims, self.variant, m)?;
        let want = file::Expect {
            kind: "endgame",
            variant: self.variant,
            dims: self.dims,
            scope: m.to_string(),
            solved: true,
            entries: Some(index.len() as u64),
            memory: crate::solve::effective_limit(None),
        };
        let (header, _keys, values) = file::load_raw(&path, &want)?;
        self.slices.insert(m, (index, values));
        Ok(header)
    }
}

/// One slice as a game graph for the retrograde analysis: positions of this material inside,
/// captures leading into the smaller slices of `tb` (already solved).
#[derive(Debug)]
pub struct SliceGraph<'a, E> {
    tb: &'a RetroTablebase,
    index: &'a SliceIndex,
    engine: std::marker::PhantomData<fn() -> E>,
}

impl<'a, E: Engine> SliceGraph<'a, E> {
    pub fn new(tb: &'a RetroTablebase, index: &'a SliceIndex) -> Self {
        SliceGraph {
            tb,
            index,
            engine: std::marker::PhantomData,
        }
    }
}

impl<E: Engine> Graph for SliceGraph<'_, E> {
    type E = E;

    fn len(&self) -> usize {
        self.index.len()
    }

    fn load(&self, i: usize) -> Result<Option<E>, SolveError> {
        let Some((occ, stm)) = self.index.unrank(i) else {
            return Ok(None);
        };
        match E::from_occupancy(self.index.dims, self.index.variant, stm, occ) {
            Ok(e) => Ok(Some(e)),
            // ORDO-2.3: the side to move on its opponent's home row cannot arise.
            Err(crate::rules::PositionError::SideToMoveOnHomeRow { .. }) => Ok(None),
            Err(e) => Err(SolveError::Corrupt(format!("index {i}: {e}"))),
        }
    }

    fn locate(&self, e: &E) -> Result<Target, SolveError> {
        let occ = e.occupancy();
        let stm = e.side_to_move();
        let m = Material {
            white: occ[0].count_ones(),
            black: occ[1].count_ones(),
        };
        if m == self.index.material && occ[stm as usize] != 0 {
            return self
                .index
                .rank(occ, stm)
                .map(|j| Target::Inside(j as u32))
                .ok_or_else(|| {
                    SolveError::Corrupt(format!(
                        "a successor has no place in the {m} slice: {:x?}",
                        occ
                    ))
                });
        }
        match self.tb.value(occ, stm)? {
            Some(v) => Ok(Target::Known(v)),
            None => Err(SolveError::Corrupt(format!(
                "a capture leads into the {m} slice, which is not built"
            ))),
        }
    }
}

/// Size every slice up to `max` before building any, so an impossible bound is refused at
/// once: by the index (fewer than 2^32 entries) and by the memory limit, each check cheap
/// (the enumeration of connected sets stops as soon as it is over the bound).
pub fn size_slices(
    dims: Dims,
    variant: Variant,
    max: Material,
    memory_limit: Option<u64>,
) -> Result<BTreeMap<Material, SliceIndex>, SolveError> {
    let limit = crate::solve::effective_limit(memory_limit);
    let per = bytes_per_entry(variant);
    let by_memory = limit.as_ref().map_or(u64::MAX, |l| l.bytes / per);
    let bound = by_memory.min(u64::from(u32::MAX) - 1);
    let mut indexes = BTreeMap::new();
    for m in Material::up_to(max.white, max.black) {
        let index =
            SliceIndex::bounded(dims, variant, m, bound).map_err(|e| match (&limit, e) {
                (Some(l), SolveError::TooLarge(msg)) if by_memory < u64::from(u32::MAX) - 1 => {
                    SolveError::over_memory(
                        format!("{msg}: building needs about {per} bytes an entry, so no more fit"),
                        l,
                        "",
                    )
                }
                (_, e) => e,
            })?;
        indexes.insert(m, index);
    }
    Ok(indexes)
}

/// Build (or load, where a valid file exists) every slice up to `max` in `dir`, fewer
/// pieces first; each slice is written atomically as soon as it is solved, so an
/// interrupted build resumes at the first missing slice. The slices `opts.verify` covers are
/// recomputed from their successors afterwards. `each` sees every slice's report when done.
pub fn build<E: Engine>(
    dims: Dims,
    variant: Variant,
    max: Material,
    dir: &Path,
    opts: &BuildOptions,
    mut each: impl FnMut(&SliceReport),
) -> Result<(RetroTablebase, Vec<SliceReport>), SolveError> {
    let mut indexes = size_slices(dims, variant, max, opts.memory_limit)?;
    let mut tb = RetroTablebase::new(dims, variant);
    let mut reports = Vec::new();
    for m in Material::up_to(max.white, max.black) {
        let path = RetroTablebase::path(dir, variant, dims, m);
        let (header, built) = if path.exists() {
            (tb.load_slice(dir, m)?, false)
        } else {
            let index = indexes.remove(&m).expect("every slice was sized above");
            (build_slice::<E>(&mut tb, index, &path, opts)?, true)
        };
        let verified = if opts.verify.covers(built) {
            let (index, values) = &tb.slices[&m];
            opts.progress.begin(&super::step(m));
            let graph = SliceGraph::<E>::new(&tb, index);
            Some(super::verify::verify_graph(&graph, values, opts.progress)?.ok())
        } else {
            None
        };
        let report = SliceReport {
            verified,
            ..super::slice_report(variant, dims, m, &header, built)
        };
        each(&report);
        reports.push(report);
    }
    Ok((tb, reports))
}

/// Solve slice `index` from the slices loaded in `tb` (at least those its captures lead
/// into, [`crate::solve::parents`]), write it atomically to its file under `dir` and add it
/// to `tb`: one job of a build spread over many machines (`ordo_solve::job_graph`, `ordo_solve::run_job`).
pub fn build_one<E: Engine>(
    tb: &mut RetroTablebase,
    index: SliceIndex,
    dir: &Path,
    opts: &BuildOptions,
) -> Result<Header, SolveError> {
    let path = RetroTablebase::path(dir, tb.variant, tb.dims, index.material);
    build_slice::<E>(tb, index, &path, opts)
}

/// Solve one slice from the smaller ones in `tb`, write it atomically and add it to `tb`.
fn build_slice<E: Engine>(
    tb: &mut RetroTablebase,
    index: SliceIndex,
    path: &Path,
    opts: &BuildOptions,
) -> Result<Header, SolveError> {
    let clock = std::time::Instant::now();
    let m = index.material;
    opts.progress.begin(&super::step(m));
    let (values, counts) = retro::solve(&SliceGraph::<E>::new(tb, &index), opts.progress)?;
    let mut header = file::header(
        "endgame",
        &m.to_string(),
        tb.variant,
        tb.dims,
        index.len(),
        &[],
        &values,
        Some(counts),
    );
    header.solve_ms = Some(clock.elapsed().as_millis() as u64);
    header.peak_memory = ordo_system::usage::peak_memory();
    file::save_raw(path, &header, &[], &values)?;
    tb.slices.insert(m, (index, values));
    Ok(header)
}

/// Load every slice a probe of a position with material `m` may need: `m` and all smaller.
/// If any is missing, the error lists every missing one (before loading anything).
pub fn open(
    dims: Dims,
    variant: Variant,
    m: Material,
    dir: &Path,
) -> Result<RetroTablebase, SolveError> {
    let all = Material::up_to(m.white, m.black);
    require_slices(dir, variant, dims, m, &all, |s| {
        RetroTablebase::path(dir, variant, dims, s)
    })?;
    let mut tb = RetroTablebase::new(dims, variant);
    for s in all {
        tb.load_slice(dir, s)?;
    }
    Ok(tb)
}
