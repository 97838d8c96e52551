//! The one probe entry: a folder of endgame tables ([`Tablebase::open`]) or table files given
//! as bytes ([`Tablebase::in_memory`], what a page in a browser fetched), the value of a
//! position ([`Tablebase::value`]) and every move with its value ([`Tablebase::moves`]).
//! Slices are read the first time a probe needs them (their files checked then) and kept.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use ordo_bitboard::Bitboard;

use crate::compact::{self, CompactTables};
use crate::problem::Tables as _;
use crate::rules::{Dims, Engine, Move, Position, Status, Variant};
use crate::{on_disk, Material, SolveError, Value};

/// The endgame tables (`ordo tb build`) in one folder, probed on the engine `E` (the fast
/// one unless asked otherwise, as `HashMap` has its default hasher).
///
/// ```
/// use ordo_core::{notation::parse_position, rules::Variant};
/// use ordo_solve::{build_tables, BuildOptions, Material, Tablebase, Value};
///
/// // Build the classic 4 x 3 slices up to 2 against 2 in a scratch folder ...
/// let dir = std::env::temp_dir().join(format!("ordo-solve-doc-tb-{}", std::process::id()));
/// let max = Material { white: 2, black: 2 };
/// build_tables::<ordo_bitboard::Bitboard>(&dir, Variant::Classic, "4x3".parse().unwrap(), max,
///     &BuildOptions::default()).unwrap();
///
/// // ... and probe them: White captures on a3, Black's home row, and wins.
/// let tb = Tablebase::open(&dir).unwrap();
/// let pos = parse_position("BB2/1W2/W3 w classic").unwrap();
/// assert_eq!(tb.value(&pos).unwrap(), Value::Win(1));
/// let (best, value) = &tb.moves(&pos).unwrap()[0];
/// assert_eq!((best.to_string(), *value), ("a1xa3".to_string(), Value::Loss(0)));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Tablebase<E = Bitboard> {
    source: Source,
    loaded: RwLock<HashMap<(Variant, Dims), CompactTables>>,
    engine: PhantomData<fn() -> E>,
}

/// Prints the boards whose tables are loaded (not the tables).
impl<E> std::fmt::Debug for Tablebase<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Tablebase");
        match &self.source {
            Source::Folder(dir) => d.field("folder", dir),
            Source::Files(files) => d.field("files", &files.read().map(|f| f.len()).unwrap_or(0)),
        };
        let loaded: Vec<_> = match self.loaded.read() {
            Ok(l) => l.keys().map(|(v, b)| format!("{} {b}", v.name())).collect(),
            Err(_) => Vec::new(),
        };
        d.field("loaded", &loaded).finish()
    }
}

impl Tablebase {
    /// The tables in `dir`, probed on the bitboard engine; an error if `dir` is not a folder.
    /// Nothing is read until a probe needs it.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, SolveError> {
        Tablebase::open_on(dir)
    }
}

/// Where a tablebase reads its slices from.
enum Source {
    /// A folder of table files.
    Folder(PathBuf),
    /// Table files given as bytes by name, not loaded yet.
    Files(RwLock<HashMap<String, Vec<u8>>>),
}

/// How the error of a slice missing from [`Tablebase::in_memory`] names where it looked.
pub const IN_MEMORY: &str = "the tables given";

impl Tablebase {
    /// Tables given as the bytes of their files ([`Tablebase::add_file`]), probed on the
    /// bitboard engine: no folder, no system call (it runs in WebAssembly in a browser).
    /// Each file is checked as one on disk is (header, sizes, checksum) when a probe first
    /// needs its slice.
    pub fn in_memory() -> Tablebase {
        Tablebase {
            source: Source::Files(RwLock::new(HashMap::new())),
            loaded: RwLock::new(HashMap::new()),
            engine: PhantomData,
        }
    }
}

impl<E: Engine> Tablebase<E> {
    /// Give the bytes of the table file `name` ([`on_disk::file_name`]) to tables made by
    /// [`Tablebase::in_memory`]; ignored by a folder's tables. Nothing is checked until a probe
    /// needs the slice.
    pub fn add_file(&self, name: &str, bytes: Vec<u8>) {
        if let Source::Files(files) = &self.source {
            let mut files = files.write().unwrap_or_else(|p| p.into_inner());
            files.insert(name.to_string(), bytes);
        }
    }

    /// The names of the table files ([`on_disk::file_name`]) a probe of `pos` would read that are
    /// neither loaded nor given: what a page fetches before probing.
    pub fn files_needed(&self, pos: &Position) -> Vec<String> {
        let key = (pos.variant, pos.dims());
        let loaded = self.loaded.read().unwrap_or_else(|p| p.into_inner());
        let have = |s: &Material| loaded.get(&key).is_some_and(|t| t.slices.contains_key(s));
        let given = |n: &String| match &self.source {
            Source::Files(f) => f.read().unwrap_or_else(|p| p.into_inner()).contains_key(n),
            Source::Folder(_) => false,
        };
        compact::stored_up_to(Material::of(pos))
            .into_iter()
            .filter(|s| !have(s))
            .map(|s| on_disk::file_name(key.0, key.1, s))
            .filter(|n| !given(n))
            .collect()
    }

    /// The folder the tables are read from (`None` for tables given as bytes).
    pub fn folder(&self) -> Option<&Path> {
        match &self.source {
            Source::Folder(dir) => Some(dir),
            Source::Files(_) => None,
        }
    }

    /// The tables in `dir`, probed on the engine `E` (`Tablebase::<Reference>::open_on`).
    pub fn open_on(dir: impl AsRef<Path>) -> Result<Tablebase<E>, SolveError> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(SolveError::io(dir, "not a folder of tables"));
        }
        Ok(Tablebase {
            source: Source::Folder(dir.to_path_buf()),
            loaded: RwLock::new(HashMap::new()),
            engine: PhantomData,
        })
    }

    /// The value of `pos` for its side to move: win or loss in so many plies, or draw. A
    /// finished game is a loss in 0 for the side to move, whatever ended it (no table is
    /// read); otherwise every slice of its material and smaller must be in the folder.
    pub fn value(&self, pos: &Position) -> Result<Value, SolveError> {
        let e = engine_of::<E>(pos)?;
        if let Some(v) = finished(pos, e.status()) {
            return Ok(v);
        }
        self.with_tables(pos, |t| t.probe(&e))
    }

    /// Every legal move of `pos` with the value it leaves the opponent, best first for the
    /// mover (quickest win, then draws, then slowest loss; ties by notation). Empty for a
    /// finished game.
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, SolveError> {
        let e = engine_of::<E>(pos)?;
        if finished(pos, e.status()).is_some() {
            return Ok(Vec::new());
        }
        self.with_tables(pos, |t| Ok(t.value_and_moves(&e)?.1))
    }

    /// Run `f` on the tables of `pos`'s game and board once every slice its material needs
    /// is loaded (read from the folder now if not yet).
    fn with_tables<T>(
        &self,
        pos: &Position,
        f: impl FnOnce(&CompactTables) -> Result<T, SolveError>,
    ) -> Result<T, SolveError> {
        let key = (pos.variant, pos.dims());
        let m = Material::of(pos);
        let ready = |t: &CompactTables| {
            compact::stored_up_to(m)
                .iter()
                .all(|s| t.slices.contains_key(s))
        };
        {
            let loaded = self.loaded.read().unwrap_or_else(|p| p.into_inner());
            if let Some(t) = loaded.get(&key).filter(|t| ready(t)) {
                return f(t);
            }
        }
        let mut loaded = self.loaded.write().unwrap_or_else(|p| p.into_inner());
        let tables = loaded
            .entry(key)
            .or_insert_with(|| CompactTables::new(key.1, key.0));
        match &self.source {
            Source::Folder(dir) => on_disk::open_more(tables, m, dir)?,
            Source::Files(files) => {
                let mut files = files.write().unwrap_or_else(|p| p.into_inner());
                on_disk::open_more_from(tables, m, &mut files, IN_MEMORY)?
            }
        }
        f(tables)
    }
}

fn engine_of<E: Engine>(pos: &Position) -> Result<E, SolveError> {
    E::from_position(pos).map_err(|e| SolveError::Input(e.to_string()))
}

/// The value of a finished game for the side to move (who lost, unless a rule gave the win
/// to the side to move), `None` while it goes on.
fn finished(pos: &Position, status: Status) -> Option<Value> {
    match status {
        Status::Ongoing => None,
        Status::Won { winner, .. } if winner == pos.to_move => Some(Value::Win(0)),
        Status::Won { .. } => Some(Value::Loss(0)),
    }
}
