//! The clause registry: every rule of both games as a numbered clause (`ORDO-n.m`, `ORDOX-n.m`)
//! with its kind and source references. The registry lives in `spec/clauses.toml` and is
//! embedded at build time, so every verdict can quote the clause that decided it;
//! `spec/rules.md` is rendered from it ([`render_markdown`]).

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde::Deserialize;

/// The registry text, embedded.
pub const REGISTRY_TOML: &str = include_str!("../../data/clauses.toml");

/// How a clause is grounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Stated in words by the source documents.
    Source,
    /// Taken from a figure the texts do not transcribe.
    Figure,
    /// The project's decision where the sources are silent or ambiguous.
    Ruling,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Source => "source",
            Kind::Figure => "figure",
            Kind::Ruling => "ruling",
        }
    }
}

/// One source document.
#[derive(Clone, Debug, Deserialize)]
pub struct SourceDoc {
    pub file: String,
    pub describes: String,
}

/// A group of clauses (`ORDO-4`, `ORDOX-2`, …).
#[derive(Clone, Debug, Deserialize)]
pub struct Section {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub intro: String,
}

/// One rule.
#[derive(Clone, Debug, Deserialize)]
pub struct Clause {
    /// Stable identifier, never reused.
    pub id: String,
    pub title: String,
    pub kind: Kind,
    /// The project's own wording of the rule.
    pub text: String,
    /// Seed file name and section heading for each document that bears on the clause.
    pub sources: Vec<String>,
    /// Which documents agree and which differ.
    #[serde(default)]
    pub agreement: String,
    /// For rulings and figures: why the project decided as it did.
    #[serde(default)]
    pub reasoning: String,
}

impl Clause {
    /// The section id: the clause id without its last `.m` part.
    pub fn section_id(&self) -> &str {
        self.id.rsplit_once('.').map(|(s, _)| s).unwrap_or(&self.id)
    }
}

/// The whole registry.
#[derive(Clone, Debug, Deserialize)]
pub struct Registry {
    pub title: String,
    /// Bumped whenever a clause changes meaning; recorded in solver files.
    pub rules_version: u32,
    pub preamble: String,
    pub sources: Vec<SourceDoc>,
    #[serde(rename = "section")]
    pub sections: Vec<Section>,
    #[serde(rename = "clause")]
    pub clauses: Vec<Clause>,
}

/// Why a clause registry text (spec/clauses.toml) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("the clause registry is not valid TOML: {0}")]
    Toml(String),
    #[error("clause id '{0}' is not of the form ORDO-n.m or ORDOX-n.m")]
    BadId(String),
    #[error("clause id '{0}' appears twice: give one of them a new number")]
    Duplicate(String),
    #[error("clause '{id}' has no section '{section}': add a [[section]] with that id")]
    NoSection { id: String, section: String },
    #[error("ruling '{0}' gives no reasoning: add a `reasoning` text")]
    NoReasoning(String),
    #[error("clause '{0}' lacks text or sources: add `text` and at least one entry to `sources`")]
    Incomplete(String),
}

impl Registry {
    /// Parse and check a registry text: ids well formed and unique, every clause in a declared
    /// section, every ruling with its reasoning, every clause with a source reference.
    pub fn parse(text: &str) -> Result<Registry, RegistryError> {
        let reg: Registry = toml::from_str(text).map_err(|e| RegistryError::Toml(e.to_string()))?;
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
        Ok(reg)
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

/// The embedded registry. The build's own tests guarantee it parses.
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        Registry::parse(REGISTRY_TOML).unwrap_or_else(|e| panic!("spec/clauses.toml: {e}"))
    })
}

/// The clause with this id in the embedded registry.
pub fn get(id: &str) -> Option<&'static Clause> {
    registry().get(id)
}

/// A clause as one quotable block: id, title, kind, text, sources.
pub fn quote(c: &Clause) -> String {
    let mut s = format!(
        "{} {} [{}]\n  {}\n",
        c.id,
        c.title,
        c.kind.name(),
        flow(&c.text)
    );
    for src in &c.sources {
        let _ = writeln!(s, "  source: {src}");
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
    let _ = writeln!(out, "| file | what it is |\n| --- | --- |");
    for s in &reg.sources {
        let _ = writeln!(out, "| `{}` | {} |", s.file, flow(&s.describes));
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
            for s in &c.sources {
                let _ = writeln!(out, "- {s}");
            }
            out.push('\n');
        }
    }
    out
}
