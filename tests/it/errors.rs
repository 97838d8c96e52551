//! Typed errors with messages a user can act on: an illegal move names the move in notation and
//! the position (never a `Debug` dump), a refused clause registry says what to fix, and the
//! notation oracle says which text failed to round-trip.

use ordo::diff::RoundTripError;
use ordo::notation::{format_position, parse_move, parse_position};
use ordo::reference::Reference;
use ordo::rules::clauses::{Registry, RegistryError, REGISTRY_TOML};
use ordo::rules::{setup, Engine, IllegalMove, Variant};

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

/// The registry with one clause appended.
fn with_clause(id: &str, kind: &str, sources: &str) -> Result<Registry, RegistryError> {
    Registry::parse(&format!(
        "{REGISTRY_TOML}\n[[clause]]\nid = \"{id}\"\ntitle = \"t\"\nkind = \"{kind}\"\ntext = \"x\"\nsources = [{sources}]\n"
    ))
}

#[test]
fn registry_errors_say_what_to_fix() {
    let cases = [
        (
            with_clause("ORDO-1", "source", "\"s\""),
            "BadId",
            "ORDO-n.m",
        ),
        (
            with_clause(&unknown(99, 1), "source", "\"s\""),
            "NoSection",
            "add a [[section]]",
        ),
        (
            with_clause(&unknown(1, 99), "ruling", "\"s\""),
            "NoReasoning",
            "reasoning",
        ),
        (
            with_clause(&unknown(1, 99), "source", ""),
            "Incomplete",
            "sources",
        ),
    ];
    for (result, variant, hint) in cases {
        let err = result.expect_err(variant);
        assert!(format!("{err:?}").starts_with(variant), "{err:?}");
        assert!(err.to_string().contains(hint), "{err}");
    }
    let bad_toml = Registry::parse("title = ").unwrap_err();
    assert!(matches!(bad_toml, RegistryError::Toml(_)), "{bad_toml:?}");
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
