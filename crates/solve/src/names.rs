//! How the solver's messages name the settings they point the user to: the memory limit
//! the caller asked for, the problem search's budget. The
//! library speaks in its own terms ([`Names::LIBRARY`]); a front end renders the same typed
//! error in its terms ([`SolveError::render`]) instead of rewriting the text.

use super::memory::{human, Limit, Need, Source};
use super::SolveError;

/// What a front end calls the settings a message points to.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The memory limit the caller asked for.
    pub asked_limit: &'static str,
    /// What gives the problem search more positions, after "or …".
    pub larger_budget: &'static str,
}

impl Names {
    /// The library's own terms: "the limit asked for", "give the search a larger budget".
    pub const LIBRARY: Names = Names {
        asked_limit: "the limit asked for",
        larger_budget: "give the search a larger budget",
    };
}

impl SolveError {
    /// A job over `limit`: the message reads `{before} the memory limit of {limit}{after}`.
    pub fn over_memory(before: String, limit: &Limit, after: &str) -> SolveError {
        SolveError::OverMemory {
            before,
            need: None,
            limit: *limit,
            after: after.to_string(),
        }
    }

    /// A job sized over `limit`: the message reads `{what} about 867 MB, over the memory
    /// limit of 105 MB` (or `over 120 MB` for a sizing stopped early).
    pub fn needs_memory(what: String, need: Need, limit: &Limit) -> SolveError {
        SolveError::OverMemory {
            before: what,
            need: Some(need),
            limit: *limit,
            after: String::new(),
        }
    }

    /// [`SolveError::render`], with the sizes of a refusal against the limit the caller
    /// asked for (the need and the limit) written by `asked`: a front end writes them in the
    /// units its user typed (`100M`).
    pub fn render_sized(&self, names: &Names, asked: &dyn Fn(u64) -> String) -> String {
        match self {
            SolveError::OverMemory {
                before,
                need,
                limit,
                after,
            } if limit.source == Source::Asked => {
                let limit = format!("{} ({})", asked(limit.bytes), names.asked_limit);
                over_memory(before, need, &limit, after, asked)
            }
            other => other.render(names),
        }
    }

    /// The message, with the settings it points to named as `names` say. Its `Display` is
    /// this under [`Names::LIBRARY`].
    pub fn render(&self, names: &Names) -> String {
        match self {
            SolveError::OverMemory {
                before,
                need,
                limit,
                after,
            } => over_memory(before, need, &limit.describe(names), after, &human),
            SolveError::RetroTable { path, held } => format!(
                "{path}: an old retro-solver table (format 2), which this build no longer reads; build {} again (the compact solver writes format 4)",
                held.describe().unwrap_or_else(|| "the table".into())
            ),
            SolveError::SearchGaveUp {
                problem,
                max_nodes,
                turns,
                refused,
            } => format!(
                "problem {problem}: the search gave up after {max_nodes} positions without deciding 'win in {turns}'; prove it with the tables of its material{}, or {}",
                refused
                    .as_ref()
                    .map(|why| format!(" (the tables were not used: {})", why.render(names)))
                    .unwrap_or_default(),
                names.larger_budget
            ),
            other => other.to_string(),
        }
    }
}

/// The text of a [`SolveError::OverMemory`]: the need (when sized) written by `size`, then
/// the limit as the caller words it.
fn over_memory(
    before: &str,
    need: &Option<crate::memory::Need>,
    limit: &str,
    after: &str,
    size: &dyn Fn(u64) -> String,
) -> String {
    let need = need
        .map(|n| format!(" {}, over", n.describe(size)))
        .unwrap_or_default();
    format!("{before}{need} the memory limit of {limit}{after}")
}
