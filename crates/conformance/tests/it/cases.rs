//! The case suite of `spec/cases/`: it loads (built in and from the directory, the
//! same cases), every case passes on the reference engine, the bitboard engine and the
//! adjudicator, a mutated case is reported as a failure naming the case and the check, loader
//! errors are located, every clause has a case, and every clause with a small-board case has a
//! case on the standard 10 x 8 board too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use ordo_conformance::cases::{
    self, Case, CaseOracle, Check, Effect, Illegal, MoveVerdict, OracleError, SuiteReport,
};
use ordo_conformance::oracles::{AdjudicatorOracle, EngineOracle};
use ordo_conformance::vectors;
use ordo_core::notation::parse_position;
use ordo_core::rules::{clauses, Status};

fn suite_dir() -> PathBuf {
    crate::workspace().join(cases::SUITE_DIR)
}

fn suite() -> Vec<Case> {
    cases::embedded().unwrap_or_else(|e| panic!("{e}"))
}

/// A case's board as (columns, rows).
fn dims(c: &Case) -> (u8, u8) {
    let d = parse_position(&c.position).unwrap().dims();
    (d.cols, d.rows)
}

const STANDARD: (u8, u8) = (10, 8);

fn find<'a>(all: &'a [Case], id: &str) -> &'a Case {
    all.iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

fn assert_passes(report: &SuiteReport) {
    let lines: Vec<String> = report.failures.iter().map(|f| f.to_string()).collect();
    assert!(
        report.passed(),
        "{}\n{}",
        lines.join("\n"),
        report.summary()
    );
    assert!(report.checks > report.cases, "{}", report.summary());
}

#[test]
fn the_suite_loads_built_in_and_from_the_directory() {
    let built_in = suite();
    let from_dir = cases::load_dir(&suite_dir()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        built_in, from_dir,
        "spec/cases and the built-in suite differ"
    );
    let names: BTreeSet<&str> = cases::EMBEDDED.iter().map(|(n, _)| *n).collect();
    let files: BTreeSet<&str> = from_dir.iter().map(|c| c.file.as_str()).collect();
    assert_eq!(
        names, files,
        "every spec/cases file is built in, and only those"
    );
    assert!(built_in.len() >= 130, "{} cases", built_in.len());
}

#[test]
fn every_case_passes_on_the_reference_engine() {
    let report = cases::run_suite(
        &suite(),
        &mut EngineOracle::<ordo_reference::Reference>::new(),
    );
    assert_passes(&report);
    assert!(report.skips.is_empty(), "{:?}", report.skips);
}

#[test]
fn every_case_passes_on_the_bitboard_engine() {
    let report = cases::run_suite(
        &suite(),
        &mut EngineOracle::<ordo_bitboard::Bitboard>::new(),
    );
    assert_passes(&report);
    assert!(report.skips.is_empty(), "{:?}", report.skips);
}

/// The adjudicator gives verdicts with clauses, effects, statuses and move sets; it counts no
/// perft, so those checks (only those) are skipped.
#[test]
fn every_case_passes_on_the_adjudicator() {
    let all = suite();
    let report = cases::run_suite(&all, &mut AdjudicatorOracle);
    assert_passes(&report);
    assert!(report
        .skips
        .iter()
        .all(|s| matches!(s.check, Check::Perft(1))));
    let with_perft = all.iter().filter(|c| !c.perft.is_empty()).count();
    assert_eq!(report.skips.len(), with_perft);
}

/// The run of one mutated case on `oracle`: the failures as (case, check).
fn failures_of(case: Case, oracle: &mut dyn CaseOracle) -> Vec<(String, Check)> {
    let report = cases::run_suite(&[case], oracle);
    report
        .failures
        .into_iter()
        .map(|f| (f.case, f.check))
        .collect()
}

#[test]
fn a_wrong_move_set_is_reported() {
    let mut c = find(&suite(), "split-backward-horizontal-ordo-10x8").clone();
    c.moves.as_mut().unwrap().retain(|m| m != "e5:f5-e4");
    c.legal.clear();
    c.perft.clear();
    let want = vec![(c.id.clone(), Check::Moves)];
    assert_eq!(
        failures_of(
            c.clone(),
            &mut EngineOracle::<ordo_bitboard::Bitboard>::new()
        ),
        want
    );
    assert_eq!(failures_of(c, &mut AdjudicatorOracle), want);
}

#[test]
fn a_wrong_clause_is_reported_by_the_adjudicator_only() {
    let mut c = find(&suite(), "ordo-never-captures-10x8").clone();
    c.illegal = vec![Illegal {
        mv: "d2:e2-d3".into(),
        clauses: vec!["ORDO-7.3".into()],
    }];
    let got = failures_of(c.clone(), &mut AdjudicatorOracle);
    assert_eq!(got, vec![(c.id.clone(), Check::Illegal("d2:e2-d3".into()))]);
    // An engine cannot name clauses: for it the move is just illegal, as stated.
    let got = failures_of(c, &mut EngineOracle::<ordo_reference::Reference>::new());
    assert!(got.is_empty(), "{got:?}");
}

/// ORDOX-4.1: a removal an engine gets wrong is invisible in the move names, but not in the
/// effect.
#[test]
fn a_wrong_effect_is_reported() {
    let mut c = find(&suite(), "x-removal-opponent-already-split-10x8").clone();
    // The effect of an engine that keeps the group the capture did not split (j8).
    c.effect = vec![Effect {
        mv: "e3xe4".into(),
        after: "BB7B/10/10/10/4W5/10/10/10 b x".into(),
    }];
    let want = vec![(c.id.clone(), Check::Effect("e3xe4".into()))];
    assert_eq!(failures_of(c.clone(), &mut AdjudicatorOracle), want);
    // An engine that keeps j8, as spec/conformance/README.md shows it.
    let real = find(&suite(), &c.id).clone();
    let mut keeps_j8 = WrongAfter(c.effect[0].after.clone());
    let report = cases::run_suite(&[real], &mut keeps_j8);
    assert_eq!(report.failures.len(), 1);
    let line = report.failures[0].to_string();
    assert!(
        readme().lines().any(|l| l == format!("`{line}`.")),
        "{line}"
    );
    assert_eq!(
        failures_of(c, &mut EngineOracle::<ordo_bitboard::Bitboard>::new()),
        want
    );
}

#[test]
fn a_wrong_legal_move_status_or_perft_is_reported() {
    let mut c = find(&suite(), "home-row-reached-10x8").clone();
    c.status = Some(Status::Ongoing);
    c.legal = vec!["a8-a7".into()];
    c.illegal.clear();
    c.moves = None;
    c.perft = vec![1];
    let got = failures_of(
        c.clone(),
        &mut EngineOracle::<ordo_reference::Reference>::new(),
    );
    let want = [Check::Legal("a8-a7".into()), Check::Status, Check::Perft(1)];
    assert_eq!(got, want.map(|k| (c.id.clone(), k)).to_vec());
}

/// The reference engine, except that every move produces the position it holds.
struct WrongAfter(String);

impl CaseOracle for WrongAfter {
    fn name(&self) -> String {
        "wrong after".into()
    }
    fn moves(&mut self, p: &str) -> Result<Vec<String>, OracleError> {
        EngineOracle::<ordo_reference::Reference>::new().moves(p)
    }
    fn verdict(&mut self, p: &str, m: &str) -> Result<MoveVerdict, OracleError> {
        EngineOracle::<ordo_reference::Reference>::new().verdict(p, m)
    }
    fn after(&mut self, _: &str, _: &str) -> Result<Option<String>, OracleError> {
        Ok(Some(self.0.clone()))
    }
    fn status(&mut self, p: &str) -> Result<Status, OracleError> {
        EngineOracle::<ordo_reference::Reference>::new().status(p)
    }
    fn perft(&mut self, p: &str, d: u32) -> Result<Option<u64>, OracleError> {
        EngineOracle::<ordo_reference::Reference>::new().perft(p, d)
    }
}

/// An oracle that supports no board: every check is a skip, none a failure.
struct Nothing;

impl CaseOracle for Nothing {
    fn name(&self) -> String {
        "nothing".into()
    }
    fn moves(&mut self, _: &str) -> Result<Vec<String>, OracleError> {
        Err(OracleError::Unsupported("no board".into()))
    }
    fn verdict(&mut self, _: &str, _: &str) -> Result<MoveVerdict, OracleError> {
        Err(OracleError::Unsupported("no board".into()))
    }
    fn after(&mut self, _: &str, _: &str) -> Result<Option<String>, OracleError> {
        Err(OracleError::Unsupported("no board".into()))
    }
    fn status(&mut self, _: &str) -> Result<Status, OracleError> {
        Err(OracleError::Failed("crashed".into()))
    }
    fn perft(&mut self, _: &str, _: u32) -> Result<Option<u64>, OracleError> {
        Err(OracleError::Unsupported("no board".into()))
    }
}

#[test]
fn unsupported_is_a_skip_and_an_error_a_failure() {
    let all = suite();
    let report = cases::run_suite(&all, &mut Nothing);
    let with_status = all.iter().filter(|c| c.status.is_some()).count();
    assert_eq!(report.failures.len(), with_status);
    assert!(report.failures.iter().all(|f| f.check == Check::Status));
    assert!(report.failures[0].got.contains("crashed"));
    assert!(!report.skips.is_empty());
    assert!(report.summary().contains("skipped"), "{}", report.summary());
}

// ---- Loader errors ----

/// A clause id that does not exist (spelled so that tests/it/traceability.rs, which checks every
/// id cited in tests, does not see it).
fn unknown_clause(section: u32) -> String {
    format!("ORDO-{section}.{}", 99)
}

const GOOD: &str = r#"
[[case]]
id = "lone"
clauses = ["ORDO-6.1"]
position = "4B/5/5/2W2/5 w classic"
note = "a lone piece"
status = "ongoing"
"#;

fn load_error(text: &str) -> String {
    match cases::parse_file("t.toml", text) {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_good_file_loads() {
    let c = cases::parse_file("t.toml", GOOD).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].file.as_str(), c[0].line), ("t.toml", 3));
}

#[test]
fn loader_errors_are_located() {
    let cases = [
        (GOOD.replace("note =", "nots ="), "t.toml line"),
        (format!("{GOOD}colour = \"w\"\n"), "unknown field `colour`"),
        (GOOD.replace("2W2/5 w", "2W2/5 q"), "(case lone)"),
        (
            GOOD.replace("ORDO-6.1", &unknown_clause(6)),
            "unknown clause ORDO-6.",
        ),
        (GOOD.replace("2W2/5 w", "2W2/5  w"), "not canonical"),
        (GOOD.replace("\"ongoing\"", "\"drawn\""), "status 'drawn'"),
        (
            format!("{GOOD}moves = [\"c2-c3\", \"c2-b3\"]\n"),
            "moves are not sorted",
        ),
        (
            format!("{GOOD}\n[[case.illegal]]\nmove = \"c2-c1\"\nclauses = []\n"),
            "names no clause",
        ),
        (
            format!("{GOOD}{GOOD}"),
            "t.toml line 10 (case lone): duplicate id (first in t.toml line 3)",
        ),
        ("[[case]\n".to_string(), "t.toml line 1"),
    ];
    for (text, fragment) in cases {
        let e = load_error(&text);
        assert!(e.starts_with("t.toml"), "{e}");
        assert!(e.contains(fragment), "{e} (wanted {fragment})");
        assert!(!e.contains('\n'), "{e}");
    }
    // Line and case of a bad case in the middle of a file.
    let e = load_error(&format!(
        "{GOOD}{}",
        GOOD.replace("lone", "two").replace(" w ", " x ")
    ));
    assert!(e.starts_with("t.toml line 10 (case two)"), "{e}");
}

#[test]
fn duplicate_ids_across_files_are_refused() {
    let dir = crate::scratch("cases-dup");
    std::fs::write(dir.join("a.toml"), GOOD).unwrap();
    std::fs::write(dir.join("b.toml"), GOOD).unwrap();
    let e = cases::load_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("b.toml line 3 (case lone): duplicate id (first in a.toml line 3)"),
        "{e}"
    );
    let e = cases::load_dir(&dir.join("missing"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case file over its bound (a sparse file of 4 GiB) is refused from its size, an endless one
/// (a link to `/dev/zero`) at the bound, and a folder whose files pass one by one but not
/// together as a folder: each before anything is parsed.
#[test]
fn case_files_and_folders_are_read_within_their_bounds() {
    let dir = crate::scratch("cases-bounds");
    let big = dir.join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let e = cases::load_dir(&dir).unwrap_err().to_string();
    assert!(e.contains("big.toml: a case file has at most 1 MiB"), "{e}");
    std::fs::remove_file(&big).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.toml")).unwrap();
    let e = cases::load_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("zero.toml: a case file has at most 1 MiB"),
        "{e}"
    );
    assert!(e.contains("read no further"), "{e}");
    std::fs::remove_file(dir.join("zero.toml")).unwrap();
    let each = cases::CASE_FILE.bytes as usize;
    for i in 0..=cases::CASE_FOLDER.bytes as usize / each {
        std::fs::write(dir.join(format!("c{i:02}.toml")), "#".repeat(each)).unwrap();
    }
    let e = cases::load_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("a folder of case files has at most 16 MiB"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Coverage ----

#[test]
fn every_clause_has_a_case() {
    let all = suite();
    let named: BTreeSet<&str> = all
        .iter()
        .flat_map(|c| c.clauses.iter().map(String::as_str))
        .collect();
    let missing: Vec<&str> = clauses::registry()
        .clauses
        .iter()
        .map(|c| c.id.as_str())
        .filter(|id| !named.contains(id))
        .collect();
    assert!(missing.is_empty(), "clauses without a case: {missing:?}");
}

/// Clauses that have a small-board case but cannot have one on 10 x 8, with the reason.
const NOT_ON_10X8: &[(&str, &str)] = &[(
    "ORDO-1.5",
    "it is about the boards other than the standard one",
)];

/// A 10x8-only engine is checked on every clause it can be: every clause with a case on a small
/// board (neither 10 x 8 nor 8 x 8) has a case on 10 x 8, except those of [`NOT_ON_10X8`].
#[test]
fn every_small_board_clause_has_a_10x8_case() {
    let all = suite();
    let eight = (8, 8);
    let mut boards: BTreeMap<&str, BTreeSet<(u8, u8)>> = BTreeMap::new();
    for c in &all {
        for id in &c.clauses {
            boards.entry(id.as_str()).or_default().insert(dims(c));
        }
    }
    let exempt: BTreeSet<&str> = NOT_ON_10X8.iter().map(|(id, _)| *id).collect();
    for (id, on) in &boards {
        let small = on.iter().any(|d| *d != STANDARD && *d != eight);
        let standard = on.contains(&STANDARD);
        if exempt.contains(id) {
            assert!(!standard, "{id} is exempt but has a 10 x 8 case");
        } else if small {
            assert!(standard, "{id} has a small-board case but none on 10 x 8");
        }
    }
}

/// Findings of an outside engine, pinned on 10 x 8 (and 8 x 8 where it applies).
#[test]
fn the_outside_engine_findings_are_pinned() {
    let all = suite();
    let standard = |id: &str| {
        let c = find(&all, id);
        assert_eq!(dims(c), STANDARD, "{id}");
        c
    };
    // ORDO-9.2: backward move of a horizontal ordo when split, with the exact move set.
    let c = standard("split-backward-horizontal-ordo-10x8");
    assert!(c.moves.as_ref().unwrap().contains(&"e5:f5-e4".to_string()));
    // ORDOX-3.4: a sideways capture of the last piece ends the turn.
    let c = standard("x-sideways-capture-last-piece-10x8");
    assert_eq!(c.effect[0].after, "10/10/10/10/5W4/10/10/10 b x");
    assert_eq!(c.illegal[0].clauses, ["ORDOX-3.4"]);
    // ORDOX-4.1: removal even when the opponent was split before, as a position.
    let c = standard("x-removal-opponent-already-split-10x8");
    assert_eq!(c.effect[0].after, "BB8/10/10/10/4W5/10/10/10 b x");
    // ORDOX-4.2: the tie choice, each choice its own effect.
    assert_eq!(standard("x-tie-choice-10x8").effect.len(), 2);
    // ORDO-10.5: statuses where the order of the reasons decides.
    for id in [
        "home-row-and-last-piece-10x8",
        "home-row-before-cannot-reconnect-10x8",
    ] {
        assert!(standard(id).status.is_some_and(|s| s.is_over()), "{id}");
    }
}

// ---- The JSON Lines form and the command line ----

#[test]
fn clauses_jsonl_has_one_vector_per_case_in_order() {
    let dir = crate::workspace().join("spec/conformance");
    let text = std::fs::read_to_string(dir.join(vectors::CLAUSES_FILE)).unwrap();
    let lines = vectors::parse_file(vectors::CLAUSES_FILE, &text).unwrap();
    let ids: Vec<&str> = lines.iter().map(|l| l.vector.id.as_str()).collect();
    let all = suite();
    let want: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, want, "regenerate: ordo conformance generate");
}

// ---- spec/conformance/README.md ----

fn readme() -> String {
    let path = crate::workspace().join("spec/conformance/README.md");
    std::fs::read_to_string(path).unwrap()
}

/// The blocks of the README that open with ```` ```lang ````.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let fence = format!("```{lang}");
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match cur.as_mut() {
            None if line == fence => cur = Some(String::new()),
            None => {}
            Some(_) if line == "```" => out.extend(cur.take()),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
        }
    }
    out
}

#[test]
fn readme_case_example_is_in_the_suite() {
    // The schema's examples: a position case and a game case, each
    // exactly as the suite has it.
    let toml = blocks(&readme(), "toml");
    assert_eq!(toml.len(), 2);
    let all = suite();
    for block in &toml {
        let shown = cases::parse_file("README.md", block).unwrap_or_else(|e| panic!("{e}"));
        let mut real = find(&all, &shown[0].id).clone();
        real.file = "README.md".into();
        real.line = shown[0].line;
        // A game case is shown by its first moves only.
        assert!(real.game.starts_with(&shown[0].game), "{}", real.id);
        real.game.truncate(shown[0].game.len());
        assert_eq!(shown[0], real);
    }
}

#[test]
fn readme_load_error_is_real() {
    let at = readme().find("`board.toml line").unwrap();
    let shown = &readme()[at + 1..];
    let shown = &shown[..shown.find('`').unwrap()];
    let text = std::fs::read_to_string(suite_dir().join("board.toml")).unwrap();
    let bad = text.replacen("\"ORDO-1.1\"", &format!("\"{}\"", unknown_clause(1)), 1);
    let e = cases::parse_file("board.toml", &bad)
        .unwrap_err()
        .to_string();
    assert_eq!(e, shown);
}
