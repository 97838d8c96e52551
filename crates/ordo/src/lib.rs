//! Ordo and Ordo X, Dieter Stein's connection games: the library a program that plays, shows or
//! analyses them depends on.
//!
//! The names a program needs are at the root: the vocabulary ([`Position`], [`Move`],
//! [`Variant`], [`Color`], [`Square`], [`Dims`], [`Status`]), the [`Engine`] trait and its two
//! implementations ([`Bitboard`], fast; [`Reference`], plain, one function per rule clause),
//! the notation ([`parse_position`], [`format_position`], [`parse_move`], [`format_move`]),
//! the adjudicator ([`explain`], a [`Verdict`] naming every clause a move breaks or the clauses
//! that permit it), diagrams ([`render`]), and the solver: [`Tablebase`] probes endgame tables
//! (a position's [`Value`], each move's), [`build_tables`] builds them, [`verify_tables`]
//! checks them, [`solve_board`] solves a small board's whole game.
//!
//! ```
//! use ordo::{format_move, parse_move, setup, Bitboard, Engine, Status, Variant};
//!
//! let start = Bitboard::from_position(&setup::standard(Variant::X)).unwrap();
//! assert_eq!(start.legal_moves().len(), 2062);
//! let next = start.play(&parse_move("a2:a3-a3").unwrap()).unwrap();
//! assert_eq!(next.status(), Status::Ongoing);
//! assert_eq!(format_move(&next.legal_moves()[0]).len(), 5);
//! ```
//!
//! Judging a disputed move, clause by clause:
//!
//! ```
//! use ordo::{explain, parse_move, parse_position};
//!
//! let pos = parse_position("4/4/1B2/W3/WW2 w classic").unwrap();
//! let verdict = explain(&pos, &parse_move("a1:b1-a2").unwrap());
//! assert_eq!(verdict.clause_ids(), ["ORDO-7.3"]); // it would land on White's own piece
//! ```
//!
//! The workspace behind it: each name here comes from the crate that owns it (`ordo-core`
//! the vocabulary and notation, `ordo-reference`, `ordo-bitboard`, `ordo-adjudicate`,
//! `ordo-solve`), re-exported once. The library has no features and no server, command-line
//! or async dependency; the `ordo` command line is the `ordo-cli` package.

pub use ordo_render as render;

pub use ordo_adjudicate::{adjudicate as explain, Effects, Verdict, Violation};
pub use ordo_core::notation::{
    format_move, format_position, parse_move, parse_record, GameRecord, NotationError,
};
pub use ordo_core::rules::{
    setup, ClauseIdError, Color, Dims, Direction, IllegalMove, Move, PositionError, Square, Status,
    Step, Variant, WinReason,
};

/// A clause of the rules (`spec/rules.md`) named by its id: read in any case, written in
/// capitals, the id a [`Violation`] and the permits of a [`Verdict`] carry.
///
/// ```
/// use ordo::{clauses, ClauseId};
///
/// let id: ClauseId = "ordo-7.3".parse().unwrap();
/// assert_eq!(id.to_string(), "ORDO-7.3");
/// let clause = clauses::get(&id.to_string()).unwrap();
/// assert!(clauses::quote(clause).starts_with("ORDO-7.3 "));
/// assert!("ORDO-7".parse::<ClauseId>().is_err());
/// ```
pub use ordo_core::rules::ClauseId;

/// The rule clauses in our own words, with their sources: look one up by its id and quote it
/// (heading, text, and where each source says it). The whole registry, its sections and its
/// checks are the vocabulary crate's (`ordo_core::rules::clauses`).
pub mod clauses {
    pub use ordo_core::rules::clauses::{get, quote, Citation, Clause, Kind};
}

/// The fast engine: positions on `u128` bitboards, for search, perft and the solver.
///
/// ```
/// use ordo::{setup, Bitboard, Engine, Variant};
///
/// let start = Bitboard::from_position(&setup::standard(Variant::Classic)).unwrap();
/// assert_eq!(start.perft(3), 190_114); // spec/perft.md
/// // Over the first moves on 2 threads, the same count.
/// assert_eq!(start.perft_threads(3, 2).unwrap(), 190_114);
/// ```
pub use ordo_bitboard::Bitboard;

/// What every engine does, so a program (and the solver) can run on either engine.
///
/// ```
/// use ordo::{parse_move, parse_position, Bitboard, Color, Engine, Reference, Status, WinReason};
///
/// // The same question to both engines: White plays a1-a2 and reaches Black's home row.
/// fn after<E: Engine>(text: &str, mv: &str) -> Status {
///     let e = E::from_position(&parse_position(text).unwrap()).unwrap();
///     e.play(&parse_move(mv).unwrap()).unwrap().status()
/// }
/// let won = Status::Won { winner: Color::White, reason: WinReason::HomeRow };
/// assert_eq!(after::<Bitboard>("1B1/W2/3 w classic", "a2-a3"), won);
/// assert_eq!(after::<Reference>("1B1/W2/3 w classic", "a2-a3"), won);
/// ```
pub use ordo_core::rules::Engine;

/// A position: the board's size, where each piece stands, the side to move and the game.
/// Its text form is the notation of `spec/notation.md` (`Display` and `FromStr`).
///
/// ```
/// use ordo::{Color, Position, Variant};
///
/// let pos: Position = "4/4/1B2/W3/WW2 w classic".parse().unwrap();
/// assert_eq!((pos.to_move, pos.variant), (Color::White, Variant::Classic));
/// assert_eq!((pos.count(Color::White), pos.count(Color::Black)), (3, 1));
/// assert_eq!(pos.to_string(), "4/4/1B2/W3/WW2 w classic");
/// ```
pub use ordo_core::rules::Position;

/// Read a position in the notation of `spec/notation.md`; the error says what and where.
///
/// ```
/// let err = ordo::parse_position("4/4/1B2/W3/WW2 w chess").unwrap_err();
/// assert!(err.to_string().contains("chess"), "{err}");
/// ```
pub use ordo_core::notation::parse_position;

/// The plain engine: every rule a function naming its clause, the oracle the fast engine is
/// checked against.
///
/// ```
/// use ordo::{setup, Engine, Reference, Variant};
///
/// let start = Reference::from_position(&setup::standard(Variant::Classic)).unwrap();
/// assert_eq!(start.legal_moves().len(), 56);
/// ```
pub use ordo_reference::Reference;

/// Endgame tables in a folder, probed: a position's value, each move with its value.
///
/// ```
/// use ordo::{build_tables, parse_position, BuildOptions, Material, Tablebase, Value, Variant};
///
/// // Build the classic 4 x 3 slices up to 2 against 2 in a scratch folder ...
/// let dir = std::env::temp_dir().join(format!("ordo-doc-tb-{}", std::process::id()));
/// let max = Material { white: 2, black: 2 };
/// build_tables::<ordo::Bitboard>(&dir, Variant::Classic, "4x3".parse().unwrap(), max,
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
pub use ordo_solve::Tablebase;

/// A value from the tables: win or loss in so many plies for the side to move, or draw.
///
/// ```
/// use ordo::Value;
///
/// // A side that wins in 3 plies made a move after which the other side loses in 2.
/// assert_eq!(Value::from_successors([Value::Loss(2), Value::Draw]), Value::Win(3));
/// assert_eq!(Value::Win(3).distance(), Some(3));
/// ```
pub use ordo_solve::Value;

/// How many pieces each side has: the scope of an endgame slice (`3v2`: three White, two
/// Black). Its text form (`Display`, `FromStr`) is that name.
///
/// ```
/// use ordo::Material;
///
/// let m: Material = "3v2".parse().unwrap();
/// assert_eq!((m.white, m.black), (3, 2));
/// assert_eq!(m.to_string(), "3v2");
/// ```
pub use ordo_solve::Material;

/// Build (or load, where a valid file exists) every endgame slice up to a material in a
/// folder, with [`BuildOptions`]: which slices to verify ([`VerifyScope`]), a memory limit,
/// and a [`Progress`] that sees the work as it goes.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use ordo::{build_tables, BuildOptions, Material, Progress, Variant, VerifyScope};
///
/// /// Counts the stored positions built, as a progress bar would show them.
/// struct Count(AtomicU64);
/// impl Progress for Count {
///     fn update(&self, phase: ordo::Phase, done: u64, _total: Option<u64>) {
///         if phase == ordo::Phase::BUILDING {
///             self.0.fetch_max(done, Ordering::Relaxed);
///         }
///     }
/// }
/// let count = Count(AtomicU64::new(0));
/// let opts = BuildOptions { verify: VerifyScope::Built, memory_limit: None, progress: &count };
/// let dir = std::env::temp_dir().join(format!("ordo-doc-build-{}", std::process::id()));
/// let max = Material { white: 2, black: 1 };
/// let reports = build_tables::<ordo::Bitboard>(&dir, Variant::X, "3x3".parse().unwrap(),
///     max, &opts).unwrap();
/// assert!(reports.iter().all(|r| r.built && r.verified == Some(true)));
/// assert!(count.0.load(Ordering::Relaxed) > 0);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub use ordo_solve::build_tables;

/// Check endgame slices already built: each one built again and compared with its file.
///
/// ```
/// use ordo::{build_tables, verify_tables, BuildOptions, Material, Variant};
///
/// let dir = std::env::temp_dir().join(format!("ordo-doc-verify-{}", std::process::id()));
/// let (dims, max) = ("3x3".parse().unwrap(), Material { white: 1, black: 1 });
/// build_tables::<ordo::Bitboard>(&dir, Variant::Classic, dims, max, &BuildOptions::default())
///     .unwrap();
/// let verdict = verify_tables::<ordo::Bitboard>(&dir, Variant::Classic, dims, max,
///     &ordo::Silent).unwrap();
/// assert!(verdict.ok(), "{:?}", verdict.examples);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub use ordo_solve::verify_tables;

/// Solve a small board's whole game from a [`Setup`] with [`GameOptions`] (a table file to
/// keep and resume, verification, a memory limit, a [`Progress`]).
///
/// ```
/// use ordo::{solve_board, GameOptions, Setup, Variant, Wdl};
///
/// let report = solve_board::<ordo::Bitboard>(Variant::Classic, "3x3".parse().unwrap(),
///     Setup::Row1, &GameOptions::default()).unwrap();
/// let start = &report.game.outcome;
/// assert_eq!(start.start, Wdl::Win); // White, who moves first, wins
/// assert!(!start.winning_first_moves.is_empty());
/// ```
pub use ordo_solve::solve_board;

pub use ordo_solve::{
    BuildOptions, CompactGameReport, CompactSliceReport, GameOptions, Outcome, Phase, Progress,
    Setup, Silent, SolveError, Verification, VerifyScope, Wdl,
};

/// Prove who wins a position by proof-number search on the bitboard engine, with endgame
/// tables as leaves, reading the result out as a certificate (written to a file if asked):
/// [`ProveOptions`] bound it, [`ProveReport`] says what was proved ([`Proved`]).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ordo::{prove, setup, Color, Dims, ProveOptions, Proved, Variant};
///
/// let start = setup::filled_rows(Dims::new(3, 4).unwrap(), 2, Variant::X).unwrap();
/// let stop = AtomicBool::new(false);
/// let report = prove(&start, &ProveOptions::default(), None, None, &stop, &mut |_| {}).unwrap();
/// assert_eq!(report.outcome, Proved::Wins(Color::Black));
/// ```
pub use ordo_prove::{
    prove, Options as ProveOptions, Outcome as Proved, ProveError, Report as ProveReport,
    Tick as ProveTick,
};

/// Judge a certificate file on the reference engine (`spec/certificate.md`): what it
/// establishes ([`Established`]), or the line or node where it fails ([`CheckError`]).
pub use ordo_certificate::{check_file as check_certificate, CheckError, Checked, Established};
