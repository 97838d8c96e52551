//! The clause registry: every rule of both games as a numbered clause (`ORDO-n.m`, `ORDOX-n.m`)
//! with its kind and source references. The registry lives in `spec/clauses.toml`; its data
//! are compiled in as a Rust table generated from it (`clauses/table.rs`, which the test
//! `tests/clause_table.rs` checks against the TOML and regenerates on request), so every
//! verdict can quote the clause that decided it without parsing anything at run time;
//! `spec/rules.md` is rendered from it ([`render_markdown`]).

use std::fmt::Write as _;
use std::sync::OnceLock;

// Generated from spec/clauses.toml by the test `tests/clause_table.rs`: kept as generated.
#[rustfmt::skip]
mod table;

/// How a clause is grounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Stated in words by the source documents.
    Source,
    /// Taken from a figure the texts do not transcribe.
    Figure,
    /// The project's decision where the sources are silent or ambiguous.
    Ruling,
}

impl Kind {
    /// The kind as `spec/rules.md` and a verdict print it: `source`, `figure` or `ruling`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Source => "source",
            Kind::Figure => "figure",
            Kind::Ruling => "ruling",
        }
    }
}

/// One source document: the name of the project's stored copy (the key clauses cite it by)
/// and what a reader is shown — author, title, date and the address where it is published.
#[derive(Clone, Debug)]
pub struct SourceDoc {
    /// The file name of the project's stored copy (`000_….txt`), the key a clause's
    /// `sources` entry starts with.
    pub file: String,
    /// What the document is to this project (the rules of Ordo, of Ordo X, a problem sheet…).
    pub describes: String,
    /// Who wrote it, as a reader would cite them.
    pub author: String,
    /// Its title as published.
    pub title: String,
    /// The version date the document gives, or `undated`.
    pub date: String,
    /// Where it is published (a web address).
    pub address: String,
    /// When the stored copy was retrieved (`YYYY-MM-DD`), given for an undated document;
    /// empty when not given.
    pub retrieved: String,
}

impl SourceDoc {
    /// The date a reader is shown: the version date, or for an undated document
    /// `undated (retrieved YYYY-MM-DD)` when the retrieval date is known.
    pub fn shown_date(&self) -> String {
        match (self.date.as_str(), self.retrieved.as_str()) {
            ("undated", r) if !r.is_empty() => format!("undated (retrieved {r})"),
            (d, _) => d.to_string(),
        }
    }
}

/// A clause's reference to one source, as a reader can follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// `Dieter Stein, Ordo (rules, English), January 15, 2009, section Connection`.
    pub text: String,
    /// Where the document is published; empty for a reference to no listed document.
    pub address: String,
}

impl std::fmt::Display for Citation {
    /// The text and the address: `…, section Connection, https://spielstein.com/games/ordo`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.address.is_empty() {
            f.write_str(&self.text)
        } else {
            write!(f, "{}, {}", self.text, self.address)
        }
    }
}

/// A group of clauses (`ORDO-4`, `ORDOX-2`, …).
#[derive(Clone, Debug)]
pub struct Section {
    /// The section's id, the clause ids of its clauses without their last `.m` part
    /// (`ORDO-4`).
    pub id: String,
    /// Its heading in `spec/rules.md`.
    pub title: String,
    /// The paragraph printed under the heading, before its clauses; may be empty.
    pub intro: String,
}

/// One rule.
#[derive(Clone, Debug)]
pub struct Clause {
    /// Stable identifier, never reused.
    pub id: String,
    /// A few words naming the rule, printed after the id in headings and verdicts.
    pub title: String,
    /// Whether the sources state it, a figure shows it, or the project ruled it.
    pub kind: Kind,
    /// The project's own wording of the rule.
    pub text: String,
    /// Seed file name and section heading for each document that bears on the clause.
    pub sources: Vec<String>,
    /// Which documents agree and which differ.
    pub agreement: String,
    /// For rulings and figures: why the project decided as it did.
    pub reasoning: String,
}

impl Clause {
    /// Each source reference of the clause (`FILE § Section`) as a reader can follow it.
    pub fn citations(&self) -> Vec<Citation> {
        self.sources.iter().map(|s| cite(s)).collect()
    }

    /// The section id: the clause id without its last `.m` part.
    pub fn section_id(&self) -> &str {
        self.id.rsplit_once('.').map(|(s, _)| s).unwrap_or(&self.id)
    }
}

/// The whole registry.
#[derive(Clone, Debug)]
pub struct Registry {
    /// The title of `spec/rules.md`.
    pub title: String,
    /// Bumped whenever a clause changes meaning; recorded in solver files.
    pub rules_version: u32,
    /// The text printed under the title of `spec/rules.md`, before the sections.
    pub preamble: String,
    /// The source documents clauses cite, in the order they are listed.
    pub sources: Vec<SourceDoc>,
    /// The groups of clauses, in the order of `spec/rules.md`.
    pub sections: Vec<Section>,
    /// Every clause of both games, in the order of `spec/rules.md`.
    pub clauses: Vec<Clause>,
}

/// Why a clause registry (spec/clauses.toml) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// A clause id that is not `ORDO-n.m` or `ORDOX-n.m` (the id as written).
    #[error("clause id '{0}' is not of the form ORDO-n.m or ORDOX-n.m")]
    BadId(String),
    /// Two clauses with one id (the id).
    #[error("clause id '{0}' appears twice: give one of them a new number")]
    Duplicate(String),
    /// A clause whose section (its id without the last `.m`) is not declared.
    #[error("clause '{id}' has no section '{section}': add a [[section]] with that id")]
    NoSection {
        /// The clause's id.
        id: String,
        /// The section id it implies.
        section: String,
    },
    /// A ruling without the reasoning behind it (the clause id).
    #[error("ruling '{0}' gives no reasoning: add a `reasoning` text")]
    NoReasoning(String),
    /// A clause without its text or without a source reference (the clause id).
    #[error("clause '{0}' lacks text or sources: add `text` and at least one entry to `sources`")]
    Incomplete(String),
}

impl Registry {
    /// Check the registry: ids well formed and unique, every clause in a declared section,
    /// every ruling with its reasoning, every clause with a source reference.
    pub fn check(&self) -> Result<(), RegistryError> {
        let reg = self;
        let mut seen = std::collections::HashSet::new();
        for c in &reg.clauses {
            let id = c.id.clone();
            if !is_clause_id(&c.id) {
                return Err(RegistryError::BadId(id));
            }
            if !seen.insert(c.id.as_str()) {
                return Err(RegistryError::Duplicate(id));
            }
            if !reg.sections.iter().any(|s| s.id == c.section_id()) {
                let section = c.section_id().to_string();
                return Err(RegistryError::NoSection { id, section });
            }
            if c.kind == Kind::Ruling && c.reasoning.trim().is_empty() {
                return Err(RegistryError::NoReasoning(id));
            }
            if c.sources.is_empty() || c.text.trim().is_empty() {
                return Err(RegistryError::Incomplete(id));
            }
        }
        Ok(())
    }

    /// The clause with this id.
    pub fn get(&self, id: &str) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.id == id)
    }
}

/// Whether `s` has the form of a clause id: `ORDO-<n>.<m>` or `ORDOX-<n>.<m>`.
pub fn is_clause_id(s: &str) -> bool {
    let rest = s.strip_prefix("ORDOX-").or_else(|| s.strip_prefix("ORDO-"));
    match rest.and_then(|r| r.split_once('.')) {
        Some((a, b)) => {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// The registry compiled in from `spec/clauses.toml`. The crate's own tests guarantee it
/// passes [`Registry::check`].
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(from_table)
}

/// The registry built from the generated table.
fn from_table() -> Registry {
    let text = |s: &str| s.to_string();
    Registry {
        title: text(table::TITLE),
        rules_version: table::RULES_VERSION,
        preamble: text(table::PREAMBLE),
        sources: (table::SOURCES.iter())
            .map(
                |&[file, describes, author, title, date, address, retrieved]| SourceDoc {
                    file: text(file),
                    describes: text(describes),
                    author: text(author),
                    title: text(title),
                    date: text(date),
                    address: text(address),
                    retrieved: text(retrieved),
                },
            )
            .collect(),
        sections: (table::SECTIONS.iter())
            .map(|&[id, title, intro]| Section {
                id: text(id),
                title: text(title),
                intro: text(intro),
            })
            .collect(),
        clauses: table::CLAUSES.iter().map(ClauseRow::clause).collect(),
    }
}

/// One clause as the generated table holds it.
pub(super) struct ClauseRow {
    pub id: &'static str,
    pub title: &'static str,
    pub kind: Kind,
    pub text: &'static str,
    pub sources: &'static [&'static str],
    pub agreement: &'static str,
    pub reasoning: &'static str,
}

impl ClauseRow {
    fn clause(&self) -> Clause {
        Clause {
            id: self.id.to_string(),
            title: self.title.to_string(),
            kind: self.kind,
            text: self.text.to_string(),
            sources: self.sources.iter().map(|s| s.to_string()).collect(),
            agreement: self.agreement.to_string(),
            reasoning: self.reasoning.to_string(),
        }
    }
}

/// The clause with this id in the embedded registry.
pub fn get(id: &str) -> Option<&'static Clause> {
    registry().get(id)
}

/// A source reference of the registry (`FILE § Section`, or a file alone) as a reader can
/// follow it: author, title, date, section and address of the listed document. A file the
/// registry does not list is shown as written (the registry's own test forbids it).
pub fn cite(reference: &str) -> Citation {
    let (file, section) = match reference.split_once('§') {
        Some((f, s)) => (f.trim(), Some(s.trim())),
        None => (reference.trim(), None),
    };
    let Some(doc) = registry().sources.iter().find(|d| d.file == file) else {
        return Citation {
            text: reference.to_string(),
            address: String::new(),
        };
    };
    let mut text = format!("{}, {}", doc.author, doc.title);
    if doc.date != "undated" {
        let _ = write!(text, ", {}", doc.date);
    }
    if let Some(s) = section {
        let _ = write!(text, ", section {s}");
    }
    Citation {
        text,
        address: doc.address.clone(),
    }
}

/// A clause as one quotable block: its heading (id, title, kind), then [`quote_body`]
/// indented by two spaces.
pub fn quote(c: &Clause) -> String {
    let mut s = format!("{} {} [{}]\n", c.id, c.title, c.kind.name());
    for line in quote_body(c).lines() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

/// A clause's text on one line, then a `source:` line for each citation: what a verdict
/// prints under a heading of its own.
pub fn quote_body(c: &Clause) -> String {
    let mut s = format!("{}\n", flow(&c.text));
    for src in c.citations() {
        let _ = writeln!(s, "source: {src}");
    }
    s
}

fn flow(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `spec/rules.md`, rendered from the registry.
pub fn render_markdown() -> String {
    let reg = registry();
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", reg.title);
    let _ = writeln!(
        out,
        "<!-- Generated from spec/clauses.toml by `ordo rules --markdown`; edit the registry, not this file. -->\n"
    );
    let _ = writeln!(out, "{}\n", reg.preamble.trim());
    let _ = writeln!(out, "Rules version: {}\n", reg.rules_version);
    let _ = writeln!(out, "## Sources\n");
    let _ = writeln!(
        out,
        "| author | title | date | published at | what it is | stored copy |\n| --- | --- | --- | --- | --- | --- |"
    );
    for s in &reg.sources {
        let _ = writeln!(
            out,
            "| {} | {} | {} | <{}> | {} | `{}` |",
            s.author,
            s.title,
            s.shown_date(),
            s.address,
            flow(&s.describes),
            s.file
        );
    }
    out.push('\n');
    for sec in &reg.sections {
        let _ = writeln!(out, "## {} {}\n", sec.id, sec.title);
        if !sec.intro.trim().is_empty() {
            let _ = writeln!(out, "{}\n", sec.intro.trim());
        }
        for c in reg.clauses.iter().filter(|c| c.section_id() == sec.id) {
            let _ = writeln!(out, "### {} {}\n", c.id, c.title);
            let _ = writeln!(out, "*Kind: {}*\n", c.kind.name());
            let _ = writeln!(out, "{}\n", c.text.trim());
            if !c.reasoning.trim().is_empty() {
                let _ = writeln!(out, "**Reasoning.** {}\n", c.reasoning.trim());
            }
            if !c.agreement.trim().is_empty() {
                let _ = writeln!(out, "**Sources compared.** {}\n", c.agreement.trim());
            }
            let _ = writeln!(out, "Sources:");
            for s in c.citations() {
                let _ = writeln!(out, "- {} (<{}>)", s.text, s.address);
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod citation_tests {
    use super::*;

    /// A source is cited by author, title, date, section and the address
    /// where it is published, never by the name of the project's stored copy.
    #[test]
    fn sources_are_cited_by_author_title_date_section_and_address() {
        let c = cite("000_5c3916039aac7192.txt § Connection");
        assert_eq!(
            c.to_string(),
            "Dieter Stein, Ordo (rules, English), January 15, 2009, section Connection, \
             https://spielstein.com/games/ordo"
        );
        let undated = cite("001_f943fce9a7a5ce2a.txt § Singleton Move");
        assert_eq!(
            undated.text,
            "Dieter Stein, Ordo X (rules, English), section Singleton Move"
        );
        for clause in &registry().clauses {
            for c in clause.citations() {
                assert!(c.address.starts_with("https://"), "{}: {c}", clause.id);
                assert!(!c.to_string().contains(".txt"), "{}: {c}", clause.id);
            }
        }
    }

    /// The body a verdict prints under its own heading repeats no heading.
    #[test]
    fn a_quote_body_has_no_heading() {
        let c = get("ORDO-4.3").unwrap();
        let body = quote_body(c);
        assert!(!body.contains(&c.title), "{body}");
        assert_eq!(quote(c).matches(&c.title).count(), 1);
    }
}
