//! Typed errors with messages a user can act on: an illegal move names the move in notation and
//! the position (never a `Debug` dump), a refused clause registry says what to fix, and the
//! notation oracle says which text failed to round-trip.

use ordo_conformance::diff::RoundTripError;
use ordo_core::notation::{format_position, parse_move, parse_position};
use ordo_core::rules::clauses::{registry, Clause, Kind, RegistryError};
use ordo_core::rules::{setup, Engine, IllegalMove, Variant};
use ordo_reference::Reference;

/// ORDO-6.3: `b2-b3` from the start lands on White's own piece; the error says so in notation.
#[test]
fn ordo_6_3_illegal_move_error_names_move_and_position() {
    let start = setup::standard(Variant::Classic);
    let e = Reference::from_position(&start).unwrap();
    let mv = parse_move("b2-b3").unwrap();
    let err: IllegalMove = e.play(&mv).unwrap_err();
    assert_eq!(err.mv, mv);
    assert_eq!(err.position, start);
    let text = err.to_string();
    assert!(text.starts_with("b2-b3 is not a legal move in "), "{text}");
    assert!(text.contains(&format_position(&start)), "{text}");
    assert!(text.contains("ordo explain"), "{text}");
    assert!(!text.contains("Single"), "a Debug dump: {text}");
}

/// A clause id the registry does not have (built, so that no unknown id stands in the text).
fn unknown(section: u32, n: u32) -> String {
    format!("ORDO-{section}.{n}")
}

/// The registry's checks with one clause appended.
fn with_clause(id: &str, kind: Kind, sources: &[&str]) -> Result<(), RegistryError> {
    let mut reg = registry().clone();
    reg.clauses.push(Clause {
        id: id.to_string(),
        title: "t".into(),
        kind,
        text: "x".into(),
        sources: sources.iter().map(|s| s.to_string()).collect(),
        agreement: String::new(),
        reasoning: String::new(),
    });
    reg.check()
}

#[test]
fn registry_errors_say_what_to_fix() {
    let cases = [
        (
            with_clause("ORDO-1", Kind::Source, &["s"]),
            "BadId",
            "ORDO-n.m",
        ),
        (
            with_clause(&unknown(99, 1), Kind::Source, &["s"]),
            "NoSection",
            "add a [[section]]",
        ),
        (
            with_clause(&unknown(1, 99), Kind::Ruling, &["s"]),
            "NoReasoning",
            "reasoning",
        ),
        (
            with_clause(&unknown(1, 99), Kind::Source, &[]),
            "Incomplete",
            "sources",
        ),
    ];
    for (result, variant, hint) in cases {
        let err = result.expect_err(variant);
        assert!(format!("{err:?}").starts_with(variant), "{err:?}");
        assert!(err.to_string().contains(hint), "{err}");
    }
    assert_eq!(registry().check(), Ok(()));
}

#[test]
fn round_trip_error_names_text_and_canonical_form() {
    let err = RoundTripError::Changed {
        what: "move",
        text: "A3-A4".into(),
        canonical: "a3-a4".into(),
    };
    assert_eq!(
        err.to_string(),
        "move \"A3-A4\" does not round-trip: its canonical form \"a3-a4\" parses to another move"
    );
    let error = parse_position("x").unwrap_err();
    let err = RoundTripError::Reparse {
        text: "t".into(),
        canonical: "x".into(),
        error: Box::new(error.clone()),
    };
    assert!(err.to_string().ends_with(&error.to_string()), "{err}");
}

/// Strings of the library that name a command line flag on purpose: (file below the crate, the
/// flag as it stands in the literal, reason). Each entry must still be needed.
const FLAG_ALLOWED: [(&str, &str, &str); 2] = [
    // The game viewer's page tells its reader which command reproduces a finding (the move
    // is `ordo explain`'s argument, as in every command, so only the position is a flag).
    (
        "crates/page/src/pages.rs",
        " --position",
        "a command line to copy",
    ),
    // The generated rules page says which command regenerates it.
    (
        "crates/core/src/rules/clauses.rs",
        " --markdown",
        "the generating command",
    ),
];

/// The flags (` --` and a lower-case letter) named in the string literal `lit`.
fn flags_in(lit: &str) -> Vec<String> {
    lit.match_indices(" --")
        .filter(|(k, _)| lit[k + 3..].starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|(k, _)| {
            let flag: String = lit[k + 1..]
                .chars()
                .take_while(|&c| c == '-' || c.is_ascii_alphanumeric())
                .collect();
            format!(" {flag}")
        })
        .collect()
}

/// Library errors and messages speak in library terms ("the limit asked for"); the
/// command line (`src/cli/`, `src/main.rs`) names its flags where it reports them. A string
/// literal anywhere else that names a flag fails, unless [`FLAG_ALLOWED`] lists it.
#[test]
fn library_strings_name_no_command_line_flags() {
    use super::independence::{crate_sources, is_command_line, string_literals};
    let (mut found, mut seen) = (Vec::new(), Vec::new());
    for (rel, text) in crate_sources() {
        if is_command_line(&rel) {
            continue;
        }
        for (line, lit) in string_literals(&text) {
            for flag in flags_in(lit) {
                match FLAG_ALLOWED
                    .iter()
                    .find(|(p, f, _)| *p == rel && *f == flag)
                {
                    Some(entry) => seen.push(entry.1),
                    None => found.push(format!("{rel}:{line}: {flag} in {lit}")),
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "library strings naming command line flags (say it in library terms and let src/cli/ add the flag, or add it to FLAG_ALLOWED with the reason):\n{}",
        found.join("\n")
    );
    let stale: Vec<&str> = FLAG_ALLOWED
        .iter()
        .filter(|(_, f, _)| !seen.contains(f))
        .map(|e| e.1)
        .collect();
    assert!(
        stale.is_empty(),
        "FLAG_ALLOWED entries no longer needed: {stale:?}"
    );
}

/// The flag finder sees a flag in a message, not a dash pair elsewhere.
#[test]
fn flag_finder_sees_flags_only() {
    assert_eq!(flags_in("read it with --solver retro"), [" --solver"]);
    assert!(flags_in("a -- b,--x, 10 --5, --Only").is_empty());
    let src = "/// read it with --solver retro\nfn f() { g(\"ok\"); h(r#\"use --only\"#); }\n";
    let lits = super::independence::string_literals(src);
    assert_eq!(lits, [(2, "\"ok\""), (2, "r#\"use --only\"#")]);
    assert_eq!(flags_in(lits[1].1), [" --only"]);
}

/// A front end names the settings a solver message points to in its own terms, from the typed
/// error, and the library's `Display` keeps the library's: the memory limit asked for, the
/// problem search's budget; an old retro table is named in library terms.
#[test]
fn solver_messages_render_in_the_front_ends_terms() {
    use ordo_solve::{LimitSource, MemoryLimit};
    use ordo_solve::{Names, SolveError};
    let mine = Names {
        asked_limit: "-m",
        larger_budget: "pass -n",
    };
    let asked = MemoryLimit {
        bytes: 2_000_000,
        source: LimitSource::Asked,
    };
    let over = SolveError::over_memory("it needs 3 MB, over".into(), &asked, ".");
    assert_eq!(
        over.to_string(),
        "it needs 3 MB, over the memory limit of 2 MB (the limit asked for)."
    );
    assert_eq!(
        over.render(&mine),
        "it needs 3 MB, over the memory limit of 2 MB (-m)."
    );
    let cgroup = MemoryLimit {
        source: LimitSource::Cgroup,
        ..asked
    };
    let by_cgroup = SolveError::over_memory("x".into(), &cgroup, "");
    assert!(by_cgroup.render(&mine).ends_with("(cgroup memory.max)"));
    let held = ordo_solve::RetroHeld {
        kind: Some("game".into()),
        variant: Some("x".into()),
        board: Some("3x3".into()),
        scope: Some("row1".into()),
    };
    let old = SolveError::RetroTable {
        path: "t".into(),
        held: Box::new(held),
    };
    assert_eq!(
        old.to_string(),
        "t: an old retro-solver table (format 2), which this build no longer reads; build the x 3x3 game row1 table again (the compact solver writes format 4)"
    );
    assert_eq!(old.render(&mine), old.to_string());
    let gave_up = SolveError::SearchGaveUp {
        problem: "p".into(),
        max_nodes: 9,
        turns: 2,
        refused: Some(Box::new(over)),
    };
    let text = gave_up.render(&mine);
    assert!(
        text.ends_with("(the tables were not used: it needs 3 MB, over the memory limit of 2 MB (-m).), or pass -n"),
        "{text}"
    );
    assert!(gave_up
        .to_string()
        .ends_with("or give the search a larger budget"));
}
