//! The generator of `src/rules/clauses/table.rs` from `spec/clauses.toml`, and the test that
//! keeps the two in step: it fails when the table is out of date and says how to regenerate
//! it (the TOML is read here only, so the crate parses no TOML at run time).

use std::fmt::Write as _;

use toml::{Table, Value};

const TOML_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/clauses.toml");
const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules/clauses/table.rs");
/// Set (to anything) to have the test write the table instead of failing.
const REGENERATE: &str = "ORDO_REGENERATE_CLAUSE_TABLE";

/// A text field of `t`, empty when absent.
fn optional<'a>(t: &'a Table, key: &str) -> &'a str {
    t.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A text field `t` must have; `what` names `t` in the panic.
fn required<'a>(t: &'a Table, key: &str, what: &str) -> &'a str {
    let value = t.get(key).and_then(Value::as_str);
    value.unwrap_or_else(|| panic!("spec/clauses.toml: {what} has no text field `{key}`"))
}

/// The array of tables `t[key]` (`[[clause]]`, …).
fn tables<'a>(t: &'a Table, key: &str) -> Vec<&'a Table> {
    let array = t.get(key).and_then(Value::as_array);
    array.map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_table).collect())
}

fn kind(name: &str, id: &str) -> &'static str {
    match name {
        "source" => "Kind::Source",
        "figure" => "Kind::Figure",
        "ruling" => "Kind::Ruling",
        other => panic!("spec/clauses.toml: {id} has kind '{other}', not source, figure or ruling"),
    }
}

fn clause_row(out: &mut String, c: &Table) {
    let id = required(c, "id", "a [[clause]]");
    let sources = c.get("sources").and_then(Value::as_array);
    let sources = sources.unwrap_or_else(|| panic!("spec/clauses.toml: {id} has no `sources`"));
    let sources: Vec<String> = sources
        .iter()
        .map(|s| format!("{:?}", s.as_str().unwrap_or("")))
        .collect();
    let _ = writeln!(out, "    ClauseRow {{");
    let _ = writeln!(out, "        id: {id:?},");
    let _ = writeln!(out, "        title: {:?},", required(c, "title", id));
    let _ = writeln!(out, "        kind: {},", kind(required(c, "kind", id), id));
    let _ = writeln!(out, "        text: {:?},", required(c, "text", id));
    let _ = writeln!(out, "        sources: &[{}],", sources.join(", "));
    let _ = writeln!(out, "        agreement: {:?},", optional(c, "agreement"));
    let _ = writeln!(out, "        reasoning: {:?},", optional(c, "reasoning"));
    let _ = writeln!(out, "    }},");
}

/// The text of `clauses/table.rs` for the registry `text`.
fn generate(text: &str) -> String {
    let reg: Table = toml::from_str(text).unwrap_or_else(|e| panic!("spec/clauses.toml: {e}"));
    let version = reg.get("rules_version").and_then(Value::as_integer);
    let version = version.expect("spec/clauses.toml: no integer `rules_version`");
    let mut out = String::from(
        "// @generated from spec/clauses.toml by the test `clause_table` of ordo-core: do not edit.\n\
         // Regenerate: ORDO_REGENERATE_CLAUSE_TABLE=1 cargo test -p ordo-core --test clause_table\n\n\
         use super::{ClauseRow, Kind};\n\n",
    );
    let _ = writeln!(
        out,
        "pub(super) const TITLE: &str = {:?};",
        required(&reg, "title", "the registry")
    );
    let _ = writeln!(out, "pub(super) const RULES_VERSION: u32 = {version};");
    let _ = writeln!(
        out,
        "pub(super) const PREAMBLE: &str = {:?};",
        optional(&reg, "preamble")
    );
    let _ = writeln!(
        out,
        "\n/// file, describes, author, title, date, address, retrieved (empty when not given)"
    );
    let _ = writeln!(out, "pub(super) const SOURCES: &[[&str; 7]] = &[");
    for s in tables(&reg, "sources") {
        let fields = ["file", "describes", "author", "title", "date", "address"];
        let mut row: Vec<String> = fields
            .iter()
            .map(|f| format!("{:?}", required(s, f, "a [[sources]]")))
            .collect();
        row.push(format!("{:?}", optional(s, "retrieved")));
        let _ = writeln!(out, "    [{}],", row.join(", "));
    }
    let _ = writeln!(out, "];\n\n/// id, title, intro");
    let _ = writeln!(out, "pub(super) const SECTIONS: &[[&str; 3]] = &[");
    for s in tables(&reg, "section") {
        let id = required(s, "id", "a [[section]]");
        let _ = writeln!(
            out,
            "    [{id:?}, {:?}, {:?}],",
            required(s, "title", id),
            optional(s, "intro")
        );
    }
    let _ = writeln!(out, "];\n\npub(super) const CLAUSES: &[ClauseRow] = &[");
    for c in tables(&reg, "clause") {
        clause_row(&mut out, c);
    }
    out.push_str("];\n");
    out
}

/// The table compiled in is the one spec/clauses.toml gives; when it is not, the test fails
/// naming the command that regenerates it (or, with that variable set, writes it).
#[test]
fn the_clause_table_is_generated_from_spec_clauses_toml() {
    let toml = std::fs::read_to_string(TOML_PATH).expect("spec/clauses.toml");
    let want = generate(&toml);
    let have = std::fs::read_to_string(TABLE_PATH).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var_os(REGENERATE).is_some() {
        std::fs::write(TABLE_PATH, &want).expect("write clauses/table.rs");
        return;
    }
    panic!(
        "crates/core/src/rules/clauses/table.rs is out of date with spec/clauses.toml: \
         regenerate it with `{REGENERATE}=1 cargo test -p ordo-core --test clause_table`, \
         then commit it"
    );
}

/// A change to the TOML changes the table: the check above can fail.
#[test]
fn an_edited_registry_gives_another_table() {
    let toml = std::fs::read_to_string(TOML_PATH).expect("spec/clauses.toml");
    let edited = toml.replacen("rules_version = ", "rules_version = 9", 1);
    let table = generate(&edited);
    assert_ne!(table, generate(&toml));
    assert!(
        table.contains("pub(super) const RULES_VERSION: u32 = 9"),
        "{table}"
    );
}

/// The registry compiled in passes its own checks (ids, sections, reasonings, sources).
#[test]
fn the_compiled_registry_passes_its_checks() {
    let reg = ordo_core::rules::clauses::registry();
    assert_eq!(reg.check(), Ok(()));
    let toml: Table = toml::from_str(&std::fs::read_to_string(TOML_PATH).unwrap()).unwrap();
    assert_eq!(reg.clauses.len(), tables(&toml, "clause").len());
    assert!(reg.clauses.len() >= 40);
}
